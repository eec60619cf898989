/* store/feed_token.h: each account's private feed token, stored as its hash (store/feed_token.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_FEED_TOKEN_H
#define TURNPOST_STORE_FEED_TOKEN_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

/* Make hash user_id's feed token, replacing the one before (which stops working). */
int store_feed_token_put(struct store_conn *c, int64_t user_id, const unsigned char hash[32], int64_t now,
			 struct err *err);
/* When user_id's feed token was made; ERR_NOTFOUND when the account has none. */
int store_feed_token_get(struct store_conn *c, int64_t user_id, int64_t *created_at, struct err *err);
/* The account whose feed token has this hash; ERR_NOTFOUND when none. */
int store_feed_token_user(struct store_conn *c, const unsigned char hash[32], int64_t *user_id, struct err *err);
/* Revoke user_id's feed token (nothing to do when there is none). */
int store_feed_token_drop(struct store_conn *c, int64_t user_id, struct err *err);

#endif
