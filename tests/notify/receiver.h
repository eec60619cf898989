/* tests/notify/receiver.h: a webhook receiver on port 0 that checks signatures and fails on demand */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_NOTIFY_RECEIVER_H
#define TURNPOST_TESTS_NOTIFY_RECEIVER_H

#include <jansson.h>
#include <stddef.h>

/* How the receiver answers the next requests (a queue; then RX_OK). */
enum rx_mode { RX_OK, RX_500, RX_429, RX_HANG, RX_400 };

#define RX_MAX 64

struct rx_delivery {
	char id[64];
	long long timestamp;
	int sig_ok;
	int status;    /* what the receiver answered */
	json_t *body;  /* parsed JSON (owned) */
	long long at_ms; /* when it arrived (the real clock, ms since the epoch) */
};

struct receiver;

/* Start on 127.0.0.1 with a random port and this "whsec_..." secret. NULL on failure. */
struct receiver *rx_start(const char *secret);
/* The URL to POST to. */
const char *rx_url(const struct receiver *rx);
/* Queue answers for the next requests; retry_after is the Retry-After header of RX_429 (seconds). */
void rx_push(struct receiver *rx, enum rx_mode mode, int retry_after, int hang_ms);
/*
 * Refuse (400, as Standard Webhooks receivers do) a request whose
 * webhook-timestamp is more than ms away from the real clock; 0: accept any.
 */
void rx_set_max_age(struct receiver *rx, int ms);
/* Stop listening (connections are then refused) and listen again on the same port. */
void rx_close(struct receiver *rx);
int rx_reopen(struct receiver *rx);
/* Requests seen so far (every answer), and how many 2xx answers a webhook-id got. */
int rx_count(struct receiver *rx);
const struct rx_delivery *rx_get(struct receiver *rx, int i);
int rx_accepted(struct receiver *rx, const char *id);
void rx_stop(struct receiver *rx);

#endif
