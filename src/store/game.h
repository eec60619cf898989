/* store/game.h: games: their rows, the latest step of each, lists of games (store/game.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_GAME_H
#define TURNPOST_STORE_GAME_H

#include <stdint.h>

#include "store/move.h"
#include "util/err.h"

struct store_conn;

struct store;

struct store_game {
	int64_t id;
	char game[48];
	char *options;
	char *seed;
	char status[12];
	int nplayers;
	int move_count;
	unsigned active_seats;
	char *result; /* NULL while running */
	char *initial;
	int64_t created_by;
	int players_see_emails; /* the creator let the players see each other's email addresses */
	int64_t created_at;
	int64_t updated_at;
};
void store_game_release(struct store_game *g);

int store_game_insert(struct store_conn *c, const struct store_game *g, int64_t *id, struct err *err);
int store_game_get(struct store_conn *c, int64_t id, struct store_game *out, struct err *err);
/*
 * What reading and making moves need: the game row's id, game, status,
 * nplayers, move_count, active_seats and updated_at (the other fields are
 * left empty) and the step that row names as the latest, with its snapshot,
 * back and undo_seat (the set-up's snapshot, back 0 and undo_seat -1 at move
 * count 0). The row is one statement; the step comes from the store's memory
 * when it was read before (a stored step never changes), else from a second
 * statement by number, so both agree without a transaction around them.
 * Release both. On failure both are empty (a row without its step is none).
 */
int store_game_head(struct store_conn *c, int64_t id, struct store_game *g, struct store_move *head,
		    struct err *err);
/*
 * Since store_open: store_game_head reads whose step came from the store's
 * memory of recent latest steps, and those that read it from the database.
 */
void store_game_head_stats(struct store *s, uint64_t *hits, uint64_t *misses);
/* Remember m, a committed step of game_id, as what store_game_head reads when the game is at m->n. */
void store_game_head_remember(struct store *s, int64_t game_id, const struct store_move *m);
/*
 * store_game_update, only while the game is still active at move count
 * `expected`: ERR_STALE (nothing changed) when it is not, or is gone.
 */
int store_game_advance(struct store_conn *c, int64_t id, int expected, int move_count, unsigned active_seats,
		       const char *status, const char *result, int64_t now, struct err *err);
/* Set move_count, active_seats, status and result (NULL keeps none) after a step. */
int store_game_update(struct store_conn *c, int64_t id, int move_count, unsigned active_seats,
		      const char *status, const char *result, int64_t now, struct err *err);

/* Game ids, newest first: all (user_id 0) or those where the user holds a seat. */
int store_game_ids(struct store_conn *c, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err);

/* Ids of active games with an open seat that user_id does not already sit in, newest first. */
int store_game_ids_open(struct store_conn *c, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err);

/* Which games an admin wants to see; every field is optional (empty/0: no filter). */
struct store_game_filter {
	const char *game;       /* registry id, e.g. "alien-frontiers" */
	const char *status;     /* "active", "finished", "aborted" */
	const char *email;      /* a player's email (any seat, case-insensitive) */
	int64_t idle_before;    /* active games whose last change is before this time (ms) */
	int dead;               /* only games with a dead-lettered notification */
	int limit;              /* 0 means 200 */
};

/* Game ids matching the filter, most recently changed first; *ids new (free()). */
int store_game_search(struct store_conn *c, const struct store_game_filter *f, int64_t **ids, int *n,
		      struct err *err);

#endif
