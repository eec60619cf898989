/* tests/notify/push_service.h: a web push service on port 0 that checks VAPID and decrypts what it is sent */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_NOTIFY_PUSH_SERVICE_H
#define TURNPOST_TESTS_NOTIFY_PUSH_SERVICE_H

#include <jansson.h>

/*
 * Written apart from notify/push.c (OpenSSL's HKDF, its ECDSA verification,
 * a key pair per subscription made here), so that a mistake shared by the
 * sender and this test cannot pass: what it decrypts, a browser would.
 */

#define PS_MAX 64

struct ps_delivery {
	char path[128];       /* the endpoint's path: which subscription */
	int status;           /* what the service answered */
	int vapid_ok;         /* the JWT's signature verifies with k, and its claims hold */
	char vapid_error[160];
	char k[100];          /* the public key in the Authorization header */
	char aud[128], sub[128];
	long long exp;        /* seconds since the epoch */
	char ttl[16], urgency[16], topic[48], encoding[32], type[64];
	char *plain;          /* the decrypted payload (NUL-terminated), NULL when it did not decrypt */
	char decrypt_error[160];
	json_t *json;         /* plain parsed, NULL when not JSON */
};

struct push_service;

/* Start on 127.0.0.1 with a random port. NULL on failure. */
struct push_service *ps_start(void);
/*
 * A new subscription of this service: its endpoint URL ("http://127.0.0.1:P/push/NAME"),
 * and a fresh P-256 key pair and auth secret, of which p256dh and auth are given base64url.
 * -1 on failure.
 */
int ps_subscribe(struct push_service *ps, const char *name, char endpoint[128], char p256dh[100], char auth[32]);
/*
 * Name the service host in the endpoints ps_subscribe makes from now on (and
 * in the origin the JWT's aud must be), instead of 127.0.0.1: a name the
 * server under test resolves (notify_dest_fake_host) to this service.
 */
void ps_host(struct push_service *ps, const char *host);
/* Queue answers for the next requests (then 201): status, and Retry-After seconds when > 0. */
void ps_answer(struct push_service *ps, int status, int retry_after);
int ps_count(struct push_service *ps);
const struct ps_delivery *ps_get(struct push_service *ps, int i);
/* How many requests to name's endpoint were answered 2xx. */
int ps_accepted(struct push_service *ps, const char *name);
void ps_stop(struct push_service *ps);

#endif
