/* engine/tokens.h: API tokens: make, look up and revoke (the admin action and the holder's own) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_TOKENS_H
#define TURNPOST_ENGINE_TOKENS_H

#include <jansson.h>
#include <stdint.h>

#include "engine/actor.h"
#include "store/store.h"
#include "util/err.h"
#include "util/token.h"

#define TOKENS_LABEL_MAX 80

/* A live token and the account behind it, as a request sees its caller. */
struct tokens_holder {
	int64_t token_id;
	enum store_token_kind kind;
	int64_t user_id;    /* 0: none */
	int64_t game_id;    /* seat tokens; 0 otherwise */
	int seat;           /* seat tokens; -1 otherwise */
	int64_t expires_at; /* 0: never */
	int has_account;    /* the token's account was found (name and email below) */
	int is_admin;       /* the account is an admin's (0 without one) */
	char name[96];      /* the account's name and email ("" without one) */
	char email[256];
};

/*
 * The live token with this hash at now, and its account when it has one
 * (a seat token's account is read too, but never makes it an admin's: its
 * is_admin stays 0). ERR_UNAUTH when there is no live token; *out is zeroed
 * (seat -1) on failure.
 */
int tokens_lookup(struct store *s, const unsigned char hash[32], int64_t now, struct tokens_holder *out,
		  struct err *err);

/* A number that changes whenever a token or an account may have changed (for caches of tokens_lookup). */
uint64_t tokens_generation(void);

/*
 * A new API token for user_id with label (NULL: "api"; at most
 * TOKENS_LABEL_MAX characters, else ERR_INPUT). text receives the token,
 * shown once; *id its id (may be NULL). No audit row. On failure text is "".
 */
int tokens_api_new(struct store *s, int64_t user_id, const char *label, char text[TOKEN_TEXT_MAX], int64_t *id,
		   struct err *err);

/*
 * The admin action: revoke any live token. One transaction with the audit
 * row "token_revoke": game = the token's game (0: none), before = after =
 * that game's move count (-1: none), detail {"token","kind","user","seat",
 * "label"[,"client"]}. The reason is checked by actor_check first.
 * *out (may be NULL) gets {"id","action":"token_revoke","revoked":true}
 * (new; NULL on failure). ERR_NOTFOUND when no live token has this id.
 */
int tokens_revoke(struct store *s, const struct actor *a, int64_t token_id, json_t **out, struct err *err);

/*
 * The holder ends their own token (signing out, DELETE /api/v1/tokens/current):
 * no audit row, as nobody else's access changes. ERR_NOTFOUND when it is not live.
 */
int tokens_revoke_own(struct store *s, int64_t token_id, struct err *err);

#endif
