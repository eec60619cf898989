/* store/move.c: persistence of the steps of games and their snapshots */
/* SPDX-License-Identifier: MIT */
#include "store/move.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

void store_move_release(struct store_move *m)
{
	if (!m)
		return;
	free(m->text);
	free(m->client);
	free(m->snapshot);
	memset(m, 0, sizeof(*m));
}

void store_moves_free(struct store_move *moves, int n)
{
	for (int i = 0; moves && i < n; i++)
		store_move_release(&moves[i]);
	free(moves);
}

int store_move_append(struct store_conn *c, int64_t game_id, const struct store_move *m, struct err *err)
{
	static const char sql[] =
		"INSERT INTO moves(game_id, n, seat, text, via, client, at, back, undo_seat, snapshot, kind, target)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?)";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_int(st, 2, m->n);
	store__bind_int(st, 3, m->seat);
	store__bind_text(st, 4, m->text);
	store__bind_text(st, 5, m->via);
	store__bind_text(st, 6, m->client);
	store__bind_int64(st, 7, m->at);
	store__bind_int(st, 8, m->back);
	store__bind_int(st, 9, m->undo_seat);
	store__bind_text(st, 10, m->snapshot);
	if (m->kind == STORE_MOVE_ROLLBACK) {
		store__bind_text(st, 11, "rollback");
		store__bind_int(st, 12, m->target);
	} else {
		store__bind_text(st, 11, "step");
		store__bind_null(st, 12);
	}
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "append move", err);
	return 0;
}

static void move_row(struct store__st *st, struct store_move *m, int with_snapshot)
{
	m->n = store__col_int(st, 0);
	m->seat = store__col_int(st, 1);
	m->text = store__text(st, 2);
	store__copy_text(st, 3, m->via, sizeof(m->via));
	m->client = store__text(st, 4);
	m->at = store__col_int64(st, 5);
	m->back = store__col_int(st, 6);
	m->undo_seat = store__col_int(st, 7);
	m->kind = store__col_int(st, 8) ? STORE_MOVE_ROLLBACK : STORE_MOVE_STEP;
	m->target = m->kind == STORE_MOVE_ROLLBACK ? store__col_int(st, 9) : 0;
	m->snapshot = with_snapshot ? store__text(st, 10) : NULL;
}

int store_move_get(struct store_conn *c, int64_t game_id, int n, struct store_move *out, struct err *err)
{
	static const char sql[] =
		"SELECT n, seat, text, via, client, at, back, undo_seat, kind = 'rollback', target, snapshot FROM moves"
		" WHERE game_id = ? AND n = ?";
	static const char initial_sql[] = "SELECT initial, created_at FROM games WHERE id = ?";
	struct store__st *st;
	int r;

	memset(out, 0, sizeof(*out));
	if (n == 0) {
		st = store__stmt(c, initial_sql, err);
		if ((r = store__row_by_id(c, st, game_id, "game with id", "load set-up", err)) < 0)
			return r;
		out->seat = -1;
		out->undo_seat = -1;
		out->snapshot = store__text(st, 0);
		out->at = store__col_int64(st, 1);
		store__reset(st);
		return 0;
	}
	st = store__stmt(c, sql, err);
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_int(st, 2, n);
	r = store__step(st);
	if (r == STORE__DONE)
		return err_set(err, ERR_NOTFOUND, "game %lld has no step %d", (long long)game_id, n);
	if (r != STORE__ROW)
		return store__fail(c, "load move", err);
	move_row(st, out, 1);
	store__reset(st);
	return 0;
}

/* The steps from step `from` on, in order: all of them from 1. */
static int moves_list(struct store_conn *c, int64_t game_id, int from, int with_snapshots, struct store_move **out,
		      int *n, struct err *err)
{
	static const char sql[] =
		"SELECT n, seat, text, via, client, at, back, undo_seat, kind = 'rollback', target, snapshot FROM moves"
		" WHERE game_id = ? AND n >= ? ORDER BY n";
	static const char sql_nosnap[] =
		"SELECT n, seat, text, via, client, at, back, undo_seat, kind = 'rollback', target FROM moves"
		" WHERE game_id = ? AND n >= ? ORDER BY n";
	struct store__st *st = store__stmt(c, with_snapshots ? sql : sql_nosnap, err);
	struct store_move *list = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_int(st, 2, from);
	while ((r = store__step(st)) == STORE__ROW) {
		list = store__grow(list, count, &alloc, sizeof(*list));
		move_row(st, &list[count++], with_snapshots);
	}
	if (r != STORE__DONE) {
		store_moves_free(list, count);
		return store__fail(c, "list moves", err);
	}
	*out = list;
	*n = count;
	return 0;
}

int store_moves_list(struct store_conn *c, int64_t game_id, int with_snapshots, struct store_move **out,
		     int *n, struct err *err)
{
	return moves_list(c, game_id, 1, with_snapshots, out, n, err);
}

int store_moves_list_from(struct store_conn *c, int64_t game_id, int from, struct store_move **out, int *n,
			  struct err *err)
{
	return moves_list(c, game_id, from, 0, out, n, err);
}

int store_move_set_snapshot(struct store_conn *c, int64_t game_id, int n, const char *snapshot, struct err *err)
{
	static const char sql[] = "UPDATE moves SET snapshot = ? WHERE game_id = ? AND n = ?";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, snapshot);
	store__bind_int64(st, 2, game_id);
	store__bind_int(st, 3, n);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "set snapshot", err);
	if (store__changes(c) != 1)
		return err_set(err, ERR_NOTFOUND, "game %lld has no step %d", (long long)game_id, n);
	return 0;
}
