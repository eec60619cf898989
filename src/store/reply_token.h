/* store/reply_token.h: reply tokens: the secret of a play-by-email reply address (store/reply_token.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_REPLY_TOKEN_H
#define TURNPOST_STORE_REPLY_TOKEN_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

struct store_reply_token {
	int64_t id;
	int64_t game_id;
	int seat;
	int64_t user_id;
	int64_t created_at;
	int64_t expires_at;
	int64_t revoked_at; /* 0: live */
};

/* Store a reply token's hash for (game, seat, user), valid until expires_at; *id may be NULL. */
int store_reply_token_add(struct store_conn *c, const unsigned char hash[32], int64_t game_id, int seat,
			  int64_t user_id, int64_t now, int64_t expires_at, int64_t *id, struct err *err);
/*
 * The reply token with this hash, live or not (the caller tells an expired
 * or revoked one from an unknown one). ERR_NOTFOUND when there is none.
 */
int store_reply_token_get(struct store_conn *c, const unsigned char hash[32], struct store_reply_token *out,
			  struct err *err);
/* Delete reply tokens that expired before `before`; *count may be NULL. */
int store_reply_token_prune(struct store_conn *c, int64_t before, int *count, struct err *err);
/* Revoke the live reply tokens of a seat (seat -1: of the whole game). */
int store_reply_token_revoke_seat(struct store_conn *c, int64_t game_id, int seat, int64_t now, struct err *err);

#endif
