/* store/admin.h: what the admin console reads and changes: game search, seats, tokens, clocks (store/admin.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_ADMIN_H
#define TURNPOST_STORE_ADMIN_H

#include <stdint.h>

#include "store/outbox.h"
#include "util/err.h"

struct store_conn;

/* Which games an admin wants to see; every field is optional (empty/0: no filter). */
struct store_admin_filter {
	const char *game;       /* registry id, e.g. "alien-frontiers" */
	const char *status;     /* "active", "finished", "aborted" */
	const char *email;      /* a player's email (any seat, case-insensitive) */
	int64_t idle_before;    /* active games whose last change is before this time (ms) */
	int dead;               /* only games with a dead-lettered notification */
	int limit;              /* 0 means 200 */
};

/* Game ids matching the filter, most recently changed first; *ids new (free()). */
int store_admin_games(struct store_conn *c, const struct store_admin_filter *f, int64_t **ids, int *n,
		      struct err *err);
/* How many of the game's notifications are dead. */
int store_admin_dead_count(struct store_conn *c, int64_t game_id, int *count, struct err *err);
/* Every notification of a game, oldest first; *out new (store_outbox_rows_free). */
int store_admin_outbox_game(struct store_conn *c, int64_t game_id, struct store_outbox_row **out, int *n,
			    struct err *err);

/* Change who sits in a seat: user_id 0 leaves it without a player; email may be NULL. ERR_NOTFOUND when no such seat. */
int store_admin_seat_set(struct store_conn *c, int64_t game_id, int seat, int64_t user_id, const char *name,
			 const char *email, struct err *err);

/* A token as the admin pages show it (never its secret, which is not stored). */
struct store_admin_token {
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
int store_admin_token_get(struct store_conn *c, int64_t id, struct store_admin_token *out, struct err *err);
/* The seat tokens of a game (live and revoked), newest first, at most 200; *out new (free()). */
int store_admin_game_tokens(struct store_conn *c, int64_t game_id, struct store_admin_token **out, int *n,
			    struct err *err);
/* Revoke every live seat token of one seat; *count: how many (may be NULL). */
int store_admin_seat_tokens_revoke(struct store_conn *c, int64_t game_id, int seat, int64_t now, int *count,
				   struct err *err);

/*
 * Give a seat whose clock is running more time: a per-turn clock's turn
 * counts as started add_ms later, a chess clock gets add_ms more in the
 * bank; the deadline and reminder follow (vacations included) and a seat
 * that had timed out waits again. ERR_NOTFOUND when the game has no time
 * control, ERR_CONFLICT when the seat is not waiting on a deadline.
 */
int store_admin_clock_extend(struct store_conn *c, int64_t game_id, int seat, int64_t add_ms, int64_t now,
			     int64_t *deadline, struct err *err);

#endif
