/* store/push_sub.h: browsers subscribed to web push notifications (store/push_sub.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_PUSH_SUB_H
#define TURNPOST_STORE_PUSH_SUB_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

/* One browser's subscription (push_subscriptions). Strings owned (store_push_sub_release). */
struct store_push_sub {
	int64_t id;
	int64_t user_id;
	char *endpoint;          /* the push service's URL for this browser */
	char *p256dh;            /* the browser's P-256 public key, base64url (RFC 8291 ua_public) */
	char *auth;              /* the browser's 16-byte authentication secret, base64url */
	char *label;             /* what the account page shows ("" when none) */
	int64_t created_at;
	int64_t last_success_at; /* 0: no message accepted yet */
};
void store_push_sub_release(struct store_push_sub *s);
void store_push_subs_free(struct store_push_sub *list, int n);

/*
 * Save a subscription of user_id at now. An endpoint already stored (the same
 * browser subscribing again, maybe signed in as someone else now) is replaced:
 * its keys, label and user change, its id too. *id (may be NULL): the new id.
 */
int store_push_sub_add(struct store_conn *c, int64_t user_id, const char *endpoint, const char *p256dh,
		       const char *auth, const char *label, int64_t now, int64_t *id, struct err *err);
/* A user's subscriptions, oldest first; *out new (store_push_subs_free). */
int store_push_sub_list(struct store_conn *c, int64_t user_id, struct store_push_sub **out, int *n,
			struct err *err);
/* How many subscriptions user_id has. */
int store_push_sub_count(struct store_conn *c, int64_t user_id, int *count, struct err *err);
/* One subscription by id; ERR_NOTFOUND (out zeroed) when there is none. */
int store_push_sub_get(struct store_conn *c, int64_t id, struct store_push_sub *out, struct err *err);
/*
 * Remove subscription id; user_id > 0: only if it is that user's. *removed
 * (may be NULL): 1 when a row went, 0 when there was none.
 */
int store_push_sub_delete(struct store_conn *c, int64_t id, int64_t user_id, int *removed, struct err *err);
/* The push service accepted a message for subscription id at now. */
int store_push_sub_touch(struct store_conn *c, int64_t id, int64_t now, struct err *err);

#endif
