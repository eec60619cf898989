/* store/seat.c: persistence of seats: who sits in which seat of a game */
/* SPDX-License-Identifier: MIT */
#include "store/seat.h"

#include <stdlib.h>

#include "store/store_int.h"
#include "util/banned.h"

void store_seats_free(struct store_seat *seats, int n)
{
	for (int i = 0; seats && i < n; i++) {
		free(seats[i].name);
		free(seats[i].email);
	}
	free(seats);
}

int store_seat_insert(struct store_conn *c, int64_t game_id, const struct store_seat *s, struct err *err)
{
	static const char sql[] = "INSERT INTO seats(game_id, seat, user_id, name, email) VALUES (?,?,?,?,?)";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_int(st, 2, s->seat);
	if (s->user_id)
		store__bind_int64(st, 3, s->user_id);
	store__bind_text(st, 4, s->name);
	store__bind_text(st, 5, s->email);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "insert seat", err);
	return 0;
}

int store_seats_get(struct store_conn *c, int64_t game_id, struct store_seat **out, int *n, struct err *err)
{
	static const char sql[] =
		"SELECT seat, user_id, name, email FROM seats WHERE game_id = ? ORDER BY seat";
	struct store__st *st = store__stmt(c, sql, err);
	struct store_seat *seats = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	while ((r = store__step(st)) == STORE__ROW) {
		seats = store__grow(seats, count, &alloc, sizeof(*seats));
		seats[count].seat = store__col_int(st, 0);
		seats[count].user_id = store__col_int64(st, 1);
		seats[count].name = store__text(st, 2);
		seats[count].email = store__text(st, 3);
		count++;
	}
	if (r != STORE__DONE) {
		store_seats_free(seats, count);
		return store__fail(c, "load seats", err);
	}
	*out = seats;
	*n = count;
	return 0;
}

int store_seat_claim(struct store_conn *c, int64_t game_id, int64_t user_id, const char *name, const char *email,
		     int *seat, struct err *err)
{
	static const char find[] =
		"SELECT s.seat FROM seats s JOIN games g ON g.id = s.game_id"
		" WHERE s.game_id = ? AND s.user_id IS NULL AND g.status = 'active'"
		" AND NOT EXISTS (SELECT 1 FROM seat_clocks sc WHERE sc.game_id = s.game_id AND sc.seat = s.seat"
		"  AND sc.dropped = 1)" /* the bot plays a dropped player's seat; an admin gives it a new player */
		" ORDER BY s.seat LIMIT 1";
	static const char upd[] = "UPDATE seats SET user_id = ?, name = ?, email = ? WHERE game_id = ? AND seat = ?";
	struct store__st *st = store__stmt(c, find, err);
	int r, found;

	*seat = -1;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	r = store__step(st);
	if (r == STORE__DONE)
		return err_set(err, ERR_CONFLICT, "this game has no open seat left");
	if (r != STORE__ROW)
		return store__fail(c, "find open seat", err);
	found = store__col_int(st, 0);
	store__reset(st);
	store__auth_changed(c);
	if (!(st = store__stmt(c, upd, err)))
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	store__bind_text(st, 2, name);
	store__bind_text(st, 3, email);
	store__bind_int64(st, 4, game_id);
	store__bind_int(st, 5, found);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "claim seat", err);
	*seat = found;
	return 0;
}

int store_seat_set(struct store_conn *c, int64_t game_id, int seat, int64_t user_id, const char *name,
		   const char *email, struct err *err)
{
	static const char sql[] = "UPDATE seats SET user_id = ?, name = ?, email = ? WHERE game_id = ? AND seat = ?";
	struct store__st *st = store__stmt(c, sql, err);

	/* a cached lookup of a token may be stale now (store_change_generation) */
	store__auth_changed(c);
	if (!st)
		return ERR_STORE;
	if (user_id)
		store__bind_int64(st, 1, user_id);
	store__bind_text(st, 2, name);
	store__bind_text(st, 3, email && *email ? email : NULL);
	store__bind_int64(st, 4, game_id);
	store__bind_int(st, 5, seat);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "change seat", err);
	if (store__changes(c) != 1)
		return err_set(err, ERR_NOTFOUND, "game %lld has no seat %d", (long long)game_id, seat);
	return 0;
}
