/* store/user.h: users, their account and preferences, and their tokens (store/user.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_USER_H
#define TURNPOST_STORE_USER_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

struct store_user {
	int64_t id;
	char *email;
	char *name;
	int is_admin;
	char *prefs;
	int64_t created_at;
};
void store_user_release(struct store_user *u);

int store_user_add(struct store_conn *c, const char *email, const char *name, int is_admin,
		   int64_t *id, struct err *err);
/* The user with this email (ERR_NOTFOUND when none). */
int store_user_by_email(struct store_conn *c, const char *email, struct store_user *out, struct err *err);
int store_user_by_id(struct store_conn *c, int64_t id, struct store_user *out, struct err *err);
/* The user with this email, made (not admin) when missing; *id set either way. */
int store_user_ensure(struct store_conn *c, const char *email, const char *name, int64_t *id, struct err *err);
/* Calls fn for every user in id order; a non-zero return from fn stops and is returned. */
int store_user_each(struct store_conn *c, int (*fn)(void *ctx, const struct store_user *u), void *ctx,
		    struct err *err);
int store_user_count_admins(struct store_conn *c, int *count, struct err *err);

/* Change a user's name and preferences (JSON text). */
int store_user_update(struct store_conn *c, int64_t id, const char *name, const char *prefs, struct err *err);
/* Change a user's email, and the email shown on their seats. ERR_CONFLICT when another user has it. */
int store_user_set_email(struct store_conn *c, int64_t id, const char *email, struct err *err);

/* Replace a user's notification preferences (JSON text, validated by the caller). */
int store_user_set_prefs(struct store_conn *c, int64_t user_id, const char *prefs, struct err *err);

enum store_token_kind { TOKEN_API, TOKEN_SEAT, TOKEN_SIGNIN, TOKEN_SESSION };

struct store_token {
	int64_t id;
	enum store_token_kind kind;
	int64_t user_id;  /* 0 when none */
	int64_t game_id;  /* seat tokens */
	int seat;         /* seat tokens; -1 otherwise */
	int64_t expires_at; /* 0: never */
	int64_t revoked_at; /* 0: live */
};

/*
 * Store a token's hash (32 bytes) and return its id. The plain token never
 * reaches the database.
 */
int store_token_add(struct store_conn *c, const unsigned char hash[32], enum store_token_kind kind,
		    int64_t user_id, int64_t game_id, int seat, const char *label, int64_t expires_at,
		    int64_t *id, struct err *err);
/* The live token with this hash (ERR_UNAUTH when none, revoked or expired: *out is then empty, seat -1). */
int store_token_by_hash(struct store_conn *c, const unsigned char hash[32], int64_t now,
			struct store_token *out, struct err *err);
/* Revoke; ERR_NOTFOUND when no live token has this id. */
int store_token_revoke(struct store_conn *c, int64_t id, int64_t now, struct err *err);

/* A token as the admin pages show it (never its secret, which is not stored). */
struct store_token_info {
	int64_t id;
	char kind[12];        /* "api", "seat", "signin", "session" */
	int64_t user_id;      /* 0: none */
	int64_t game_id;      /* 0: none */
	int seat;             /* -1: none */
	char label[64];
	int64_t created_at;
	int64_t expires_at;   /* 0: never */
	int64_t revoked_at;   /* 0: live */
};
int store_token_get(struct store_conn *c, int64_t id, struct store_token_info *out, struct err *err);
/* The seat tokens of a game (live and revoked), newest first, at most 200; *out new (free()). */
int store_token_list_game(struct store_conn *c, int64_t game_id, struct store_token_info **out, int *n,
			  struct err *err);
/* Revoke every live seat token of one seat; *count: how many (may be NULL). */
int store_token_revoke_seat(struct store_conn *c, int64_t game_id, int seat, int64_t now, int *count,
			    struct err *err);

#endif
