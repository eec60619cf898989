/* tests/notify/chatrx.h: a fake chat service on loopback (Discord, Slack, Matrix, ntfy): records each request, answers as told */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_NOTIFY_CHATRX_H
#define TURNPOST_TESTS_NOTIFY_CHATRX_H

#include <jansson.h>

#define CRX_MAX 32

struct crx_request {
	char method[8];
	char path[512];     /* as requested, still percent-encoded */
	char auth[256];     /* Authorization, "" when none */
	char ctype[96];     /* Content-Type */
	char webhook_id[64], webhook_ts[32], webhook_sig[128];
	char wait[16];      /* the query's wait= (Discord), "" when none */
	char *body;         /* raw (owned) */
	json_t *json;       /* parsed when JSON, else NULL (owned) */
	int status;         /* what it answered */
};

struct chatrx;

/* Listen on 127.0.0.1, a random port. NULL on failure. */
struct chatrx *crx_start(void);
/* "http://127.0.0.1:PORT" (no trailing slash). */
const char *crx_base(const struct chatrx *x);
/*
 * The next answers, in order (then 200): status, with Retry-After seconds (429) or Location (3xx).
 * Without one queued, it answers as the chat apps do: a Discord POST with
 * ?wait=true gets the message with a new id ("1001", "1002", ...), a PATCH of
 * .../messages/ID the message, or 404 when there is no such message (never
 * posted, or crx_delete'd); a Matrix send gets {"event_id": "$ev-TXN"}, or
 * 404 when it edits (m.replace) an event never sent or deleted; others {}.
 */
void crx_push(struct chatrx *x, int status, int retry_after, const char *location);
int crx_count(struct chatrx *x);
/* Delete a message (a Discord id, a Matrix event id), as someone in the chat app would. */
void crx_delete(struct chatrx *x, const char *id);
const struct crx_request *crx_get(struct chatrx *x, int i);
void crx_stop(struct chatrx *x);

#endif
