/* store/move.h: the steps of games, with their snapshots (store/move.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_MOVE_H
#define TURNPOST_STORE_MOVE_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

/* What a stored step is: a player's step (or undo), or an admin's rollback to an earlier position. */
enum store_move_kind { STORE_MOVE_STEP = 0, STORE_MOVE_ROLLBACK = 1 };

struct store_move {
	int n;
	enum store_move_kind kind;
	int target;     /* STORE_MOVE_ROLLBACK: the step whose position it restores; else 0 */
	int seat;
	char *text;
	char via[12];
	char *client;
	int64_t at;
	int back;
	int undo_seat;
	char *snapshot; /* filled only when asked for */
};
void store_move_release(struct store_move *m);
void store_moves_free(struct store_move *moves, int n);

int store_move_append(struct store_conn *c, int64_t game_id, const struct store_move *m, struct err *err);
/* One step with its snapshot; n == 0 gives the set-up position from games.initial. */
int store_move_get(struct store_conn *c, int64_t game_id, int n, struct store_move *out, struct err *err);
/* All steps in order, with snapshots when with_snapshots; *out new (store_moves_free). */
int store_moves_list(struct store_conn *c, int64_t game_id, int with_snapshots, struct store_move **out,
		     int *n, struct err *err);
/* The steps from step number `from` on, in order, without snapshots; *out new (store_moves_free). */
int store_moves_list_from(struct store_conn *c, int64_t game_id, int from, struct store_move **out, int *n,
			  struct err *err);
/*
 * Replace one stored snapshot. Nothing in turnpost calls it: it stands for a
 * row changed behind turnpost's back in the tests of verify. A running
 * turnpostd keeps showing the snapshot it read before for a game's latest
 * step (store_game_head); verify reads the rows themselves.
 */
int store_move_set_snapshot(struct store_conn *c, int64_t game_id, int n, const char *snapshot, struct err *err);

#endif
