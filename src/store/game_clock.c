/* store/game_clock.c: time controls of games and the clocks of their seats (deadlines, chess clocks, reminders) */
/* SPDX-License-Identifier: MIT */
#include "store/game_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

struct vac {
	int64_t start, end;
};

/* The user's vacations that end after from, in start order; *out new. */
static int load_vacations(struct store_conn *c, int64_t user_id, int64_t from, struct vac **out, int *n,
			  struct err *err)
{
	static const char sql[] = "SELECT start_at, end_at FROM vacations WHERE user_id = ? AND end_at > ?"
				  " ORDER BY start_at";
	struct store__st *st;
	struct vac *v = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!user_id)
		return 0;
	if (!(st = store__stmt(c, sql, err)))
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	store__bind_int64(st, 2, from);
	while ((r = store__step(st)) == STORE__ROW) {
		if (count == alloc) {
			struct vac *grown;
			alloc = alloc ? alloc * 2 : 4;
			if (!(grown = realloc(v, sizeof(*v) * (size_t)alloc)))
				abort();
			v = grown;
		}
		v[count].start = store__col_int64(st, 0);
		v[count].end = store__col_int64(st, 1);
		count++;
	}
	if (r != STORE__DONE) {
		free(v);
		return store__fail(c, "read vacations", err);
	}
	store__reset(st);
	*out = v;
	*n = count;
	return 0;
}

/* The moment when budget ms of time outside the vacations have passed since from. */
static int64_t deadline_for(int64_t from, int64_t budget, const struct vac *v, int n)
{
	int64_t t = from, left = budget < 0 ? 0 : budget;

	for (int i = 0; i < n; i++) {
		if (v[i].end <= t)
			continue;
		if (v[i].start > t) {
			if (t + left <= v[i].start)
				return t + left;
			left -= v[i].start - t;
		}
		t = v[i].end;
	}
	return t + left;
}

/* Time from from to to that lies outside the vacations. */
static int64_t active_between(int64_t from, int64_t to, const struct vac *v, int n)
{
	int64_t total = to > from ? to - from : 0;

	for (int i = 0; i < n; i++) {
		int64_t a = v[i].start > from ? v[i].start : from;
		int64_t b = v[i].end < to ? v[i].end : to;
		if (b > a)
			total -= b - a;
	}
	return total < 0 ? 0 : total;
}

int store_game_clock_get(struct store_conn *c, int64_t game_id, struct store_game_clock *out, struct err *err)
{
	static const char sql[] = "SELECT mode, turn_ms, bank_ms, increment_ms, reminder_ms, timeout, bot_level"
				  " FROM game_clocks WHERE game_id = ?";
	struct store__st *st = store__stmt(c, sql, err);
	int r;

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	r = store__step(st);
	if (r == STORE__DONE) {
		snprintf(out->mode, sizeof(out->mode), "none");
		snprintf(out->timeout, sizeof(out->timeout), "notify");
		return err_set(err, ERR_NOTFOUND, "game %lld has no time control", (long long)game_id);
	}
	if (r != STORE__ROW)
		return store__fail(c, "read time control", err);
	snprintf(out->mode, sizeof(out->mode), "%s", store__col_text(st, 0));
	out->turn_ms = store__col_int64(st, 1);
	out->bank_ms = store__col_int64(st, 2);
	out->increment_ms = store__col_int64(st, 3);
	out->reminder_ms = store__col_int64(st, 4);
	snprintf(out->timeout, sizeof(out->timeout), "%s", store__col_text(st, 5));
	out->bot_level = store__col_int(st, 6);
	store__reset(st);
	return 0;
}

#define SEAT_CLOCK_COLS \
	"sc.game_id, sc.seat, coalesce(s.user_id, 0), sc.bank_ms, coalesce(sc.turn_started_at, 0)," \
	" coalesce(sc.deadline_at, 0), coalesce(sc.remind_at, 0), sc.reminded, sc.timed_out, sc.dropped"

static int collect_seats(struct store_conn *c, struct store__st *st, struct store_seat_clock **out, int *n,
			 struct err *err)
{
	struct store_seat_clock *rows = NULL;
	int count = 0, alloc = 0, r;

	while ((r = store__step(st)) == STORE__ROW) {
		struct store_seat_clock *x;
		if (count == alloc) {
			struct store_seat_clock *grown;
			alloc = alloc ? alloc * 2 : 8;
			if (!(grown = realloc(rows, sizeof(*rows) * (size_t)alloc)))
				abort();
			rows = grown;
		}
		x = &rows[count++];
		x->game_id = store__col_int64(st, 0);
		x->seat = store__col_int(st, 1);
		x->user_id = store__col_int64(st, 2);
		x->bank_ms = store__col_int64(st, 3);
		x->turn_started_at = store__col_int64(st, 4);
		x->deadline_at = store__col_int64(st, 5);
		x->remind_at = store__col_int64(st, 6);
		x->reminded = store__col_int(st, 7);
		x->timed_out = store__col_int(st, 8);
		x->dropped = store__col_int(st, 9);
	}
	if (r != STORE__DONE) {
		free(rows);
		return store__fail(c, "read clocks", err);
	}
	store__reset(st);
	*out = rows;
	*n = count;
	return 0;
}

int store_game_clock_seats(struct store_conn *c, int64_t game_id, struct store_seat_clock **out, int *n,
			   struct err *err)
{
	static const char sql[] = "SELECT " SEAT_CLOCK_COLS " FROM seat_clocks sc"
				  " JOIN seats s ON s.game_id = sc.game_id AND s.seat = sc.seat"
				  " WHERE sc.game_id = ? ORDER BY sc.seat";
	struct store__st *st = store__stmt(c, sql, err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	return collect_seats(c, st, out, n, err);
}

/* Write one seat's clock back. */
static int seat_save(struct store_conn *c, const struct store_seat_clock *x, struct err *err)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO seat_clocks(game_id, seat, bank_ms, turn_started_at, deadline_at, remind_at,"
		" reminded, timed_out, dropped) VALUES (?1, ?2, ?3, nullif(?4, 0), nullif(?5, 0), nullif(?6, 0),"
		" ?7, ?8, ?9)";
	static const char pg_sql[] =
		"INSERT INTO seat_clocks(game_id, seat, bank_ms, turn_started_at, deadline_at, remind_at,"
		" reminded, timed_out, dropped) VALUES (?1, ?2, ?3, nullif(?4, 0), nullif(?5, 0), nullif(?6, 0),"
		" ?7, ?8, ?9) ON CONFLICT (game_id, seat) DO UPDATE SET bank_ms = excluded.bank_ms,"
		" turn_started_at = excluded.turn_started_at, deadline_at = excluded.deadline_at,"
		" remind_at = excluded.remind_at, reminded = excluded.reminded, timed_out = excluded.timed_out,"
		" dropped = excluded.dropped";
	struct store__st *st = store__stmt(c, STORE__SQL(c, sql, pg_sql), err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, x->game_id);
	store__bind_int(st, 2, x->seat);
	store__bind_int64(st, 3, x->bank_ms);
	store__bind_int64(st, 4, x->turn_started_at);
	store__bind_int64(st, 5, x->deadline_at);
	store__bind_int64(st, 6, x->remind_at);
	store__bind_int(st, 7, x->reminded);
	store__bind_int(st, 8, x->timed_out);
	store__bind_int(st, 9, x->dropped);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "save clock", err);
	return 0;
}

int store_game_clock_seat_put(struct store_conn *c, const struct store_seat_clock *x, struct err *err)
{
	return seat_save(c, x, err);
}

/* Set deadline_at and remind_at of a running seat clock from its start, budget and the vacations. */
static int seat_schedule(struct store_conn *c, const struct store_game_clock *k, struct store_seat_clock *x,
			 int64_t now, struct err *err)
{
	struct vac *v = NULL;
	int64_t budget = strcmp(k->mode, "bank") == 0 ? x->bank_ms : k->turn_ms;
	int n = 0, rc;

	if (x->dropped) {
		/* a dropped player's seat is played for them at once */
		x->deadline_at = x->turn_started_at;
		x->remind_at = 0;
		x->reminded = 1;
		return 0;
	}
	if ((rc = load_vacations(c, x->user_id, x->turn_started_at, &v, &n, err)) < 0)
		return rc;
	x->deadline_at = deadline_for(x->turn_started_at, budget, v, n);
	x->remind_at = 0;
	if (k->reminder_ms > 0 && k->reminder_ms < budget) {
		x->remind_at = deadline_for(x->turn_started_at, budget - k->reminder_ms, v, n);
		if (x->remind_at > now)
			x->reminded = 0;
	}
	if (x->deadline_at > now)
		x->timed_out = 0;
	free(v);
	return 0;
}

int store_game_clock_create(struct store_conn *c, int64_t game_id, const struct store_game_clock *k, int nseats,
			    unsigned active, int64_t now, struct err *err)
{
	static const char sql[] =
		"INSERT INTO game_clocks(game_id, mode, turn_ms, bank_ms, increment_ms, reminder_ms, timeout, bot_level)"
		" VALUES (?,?,?,?,?,?,?,?)";
	struct store__st *st;
	int rc;

	if (!k || strcmp(k->mode, "none") == 0)
		return 0;
	if (!(st = store__stmt(c, sql, err)))
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_text(st, 2, k->mode);
	store__bind_int64(st, 3, k->turn_ms);
	store__bind_int64(st, 4, k->bank_ms);
	store__bind_int64(st, 5, k->increment_ms);
	store__bind_int64(st, 6, k->reminder_ms);
	store__bind_text(st, 7, k->timeout);
	store__bind_int(st, 8, k->bot_level);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "save time control", err);
	for (int i = 0; i < nseats; i++) {
		struct store_seat_clock x = { .game_id = game_id, .seat = i, .bank_ms = k->bank_ms };
		if ((rc = seat_save(c, &x, err)) < 0)
			return rc;
	}
	return store_game_clock_step(c, game_id, active, now, err);
}

int store_game_clock_step(struct store_conn *c, int64_t game_id, unsigned active, int64_t now, struct err *err)
{
	struct store_game_clock k;
	struct store_seat_clock *seats = NULL;
	int n = 0, rc;

	rc = store_game_clock_get(c, game_id, &k, err);
	if (rc == ERR_NOTFOUND) {
		err_clear(err);
		return 0;
	}
	if (rc < 0)
		return rc;
	if ((rc = store_game_clock_seats(c, game_id, &seats, &n, err)) < 0)
		return rc;
	for (int i = 0; i < n; i++) {
		struct store_seat_clock *x = &seats[i];
		int running = x->turn_started_at != 0, pending = (active >> x->seat) & 1u;

		if (running && !pending) {
			if (strcmp(k.mode, "bank") == 0) {
				struct vac *v = NULL;
				int nv = 0;
				if ((rc = load_vacations(c, x->user_id, x->turn_started_at, &v, &nv, err)) < 0)
					goto done;
				x->bank_ms -= active_between(x->turn_started_at, now, v, nv);
				free(v);
				if (x->bank_ms < 0)
					x->bank_ms = 0;
				x->bank_ms += k.increment_ms;
			}
			x->turn_started_at = x->deadline_at = x->remind_at = 0;
			x->reminded = x->timed_out = 0;
		} else if (!running && pending) {
			x->turn_started_at = now;
			x->reminded = x->timed_out = 0;
			if ((rc = seat_schedule(c, &k, x, now, err)) < 0)
				goto done;
		} else {
			continue;
		}
		if ((rc = seat_save(c, x, err)) < 0)
			goto done;
	}
	rc = 0;
done:
	free(seats);
	return rc;
}

int store_game_clock_due(struct store_conn *c, int64_t now, int max, struct store_seat_clock **out, int *n,
			 struct err *err)
{
	static const char sql[] =
		"SELECT " SEAT_CLOCK_COLS " FROM seat_clocks sc"
		" JOIN seats s ON s.game_id = sc.game_id AND s.seat = sc.seat"
		" JOIN games g ON g.id = sc.game_id"
		" WHERE g.status = 'active' AND sc.turn_started_at IS NOT NULL AND"
		" ((sc.remind_at <= ?1 AND sc.reminded = 0) OR (sc.deadline_at <= ?1 AND sc.timed_out = 0))"
		" ORDER BY coalesce(sc.deadline_at, sc.remind_at) LIMIT ?2";
	struct store__st *st = store__stmt(c, sql, err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, now);
	store__bind_int(st, 2, max > 0 ? max : 100);
	return collect_seats(c, st, out, n, err);
}

int store_game_clock_flag(struct store_conn *c, int64_t game_id, int seat, int reminded, int timed_out, int dropped,
			  int64_t now, struct err *err)
{
	struct store_seat_clock *seats = NULL;
	struct store_game_clock k;
	int n = 0, rc;

	if ((rc = store_game_clock_get(c, game_id, &k, err)) < 0)
		return rc;
	if ((rc = store_game_clock_seats(c, game_id, &seats, &n, err)) < 0)
		return rc;
	rc = err_set(err, ERR_NOTFOUND, "game %lld has no clock for seat %d", (long long)game_id, seat);
	for (int i = 0; i < n; i++) {
		struct store_seat_clock *x = &seats[i];
		if (x->seat != seat)
			continue;
		err_clear(err);
		if (reminded >= 0)
			x->reminded = reminded;
		if (timed_out >= 0)
			x->timed_out = timed_out;
		if (dropped >= 0 && dropped != x->dropped) {
			x->dropped = dropped;
			if (x->turn_started_at && (rc = seat_schedule(c, &k, x, now, err)) < 0)
				break;
		}
		rc = seat_save(c, x, err);
		break;
	}
	free(seats);
	return rc;
}

int store_game_clock_refresh_user(struct store_conn *c, int64_t user_id, int64_t now, struct err *err)
{
	static const char sql[] = "SELECT DISTINCT sc.game_id FROM seat_clocks sc"
				  " JOIN seats s ON s.game_id = sc.game_id AND s.seat = sc.seat"
				  " WHERE s.user_id = ? AND sc.turn_started_at IS NOT NULL";
	struct store__st *st = store__stmt(c, sql, err);
	int64_t *games = NULL;
	int ng = 0, alloc = 0, r, rc = 0;

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	while ((r = store__step(st)) == STORE__ROW) {
		if (ng == alloc) {
			int64_t *grown;
			alloc = alloc ? alloc * 2 : 8;
			if (!(grown = realloc(games, sizeof(*games) * (size_t)alloc)))
				abort();
			games = grown;
		}
		games[ng++] = store__col_int64(st, 0);
	}
	if (r != STORE__DONE) {
		free(games);
		return store__fail(c, "find clocks", err);
	}
	store__reset(st);
	for (int g = 0; g < ng && rc == 0; g++) {
		struct store_seat_clock *seats = NULL;
		struct store_game_clock k;
		int n = 0;

		if ((rc = store_game_clock_get(c, games[g], &k, err)) < 0)
			break;
		if ((rc = store_game_clock_seats(c, games[g], &seats, &n, err)) < 0)
			break;
		for (int i = 0; i < n && rc == 0; i++) {
			if (seats[i].user_id != user_id || !seats[i].turn_started_at)
				continue;
			if ((rc = seat_schedule(c, &k, &seats[i], now, err)) == 0)
				rc = seat_save(c, &seats[i], err);
		}
		free(seats);
	}
	free(games);
	return rc;
}

int store_game_clock_extend(struct store_conn *c, int64_t game_id, int seat, int64_t add_ms, int64_t now,
			    int64_t *deadline, struct err *err)
{
	static const char shift_turn[] =
		"UPDATE seat_clocks SET turn_started_at = turn_started_at + ? WHERE game_id = ? AND seat = ?";
	static const char grow_bank[] = "UPDATE seat_clocks SET bank_ms = bank_ms + ? WHERE game_id = ? AND seat = ?";
	static const char plain[] =
		"UPDATE seat_clocks SET deadline_at = ?, remind_at = nullif(?, 0), timed_out = 0,"
		" reminded = CASE WHEN ? > ? THEN 0 ELSE reminded END WHERE game_id = ? AND seat = ?";
	struct store_seat_clock *seats = NULL, *x = NULL;
	struct store_game_clock k;
	struct store__st *st;
	int n = 0, rc;

	*deadline = 0;
	if ((rc = store_game_clock_get(c, game_id, &k, err)) < 0)
		return rc;
	if ((rc = store_game_clock_seats(c, game_id, &seats, &n, err)) < 0)
		return rc;
	for (int i = 0; i < n; i++)
		if (seats[i].seat == seat)
			x = &seats[i];
	if (!x || !x->turn_started_at) {
		rc = err_set(err, ERR_CONFLICT, "seat %d of game %lld is not waiting on a deadline now", seat,
			     (long long)game_id);
		goto done;
	}
	if (x->dropped) {
		rc = err_set(err, ERR_CONFLICT, "seat %d of game %lld was dropped: the bot plays it without a deadline",
			     seat, (long long)game_id);
		goto done;
	}
	if (!(st = store__stmt(c, strcmp(k.mode, "bank") == 0 ? grow_bank : shift_turn, err))) {
		rc = ERR_STORE;
		goto done;
	}
	store__bind_int64(st, 1, add_ms);
	store__bind_int64(st, 2, game_id);
	store__bind_int(st, 3, seat);
	if (store__step(st) != STORE__DONE) {
		rc = store__fail(c, "extend clock", err);
		goto done;
	}
	if (x->user_id) {
		/* the clock code reschedules from the new start or bank, counting the player's vacations */
		if ((rc = store_game_clock_refresh_user(c, x->user_id, now, err)) < 0)
			goto done;
	} else {
		/* a seat without a player has no vacations: the deadline simply moves */
		int64_t dl = x->deadline_at + add_ms, rem = x->remind_at ? x->remind_at + add_ms : 0;
		if (!(st = store__stmt(c, plain, err))) {
			rc = ERR_STORE;
			goto done;
		}
		store__bind_int64(st, 1, dl);
		store__bind_int64(st, 2, rem);
		store__bind_int64(st, 3, rem);
		store__bind_int64(st, 4, now);
		store__bind_int64(st, 5, game_id);
		store__bind_int(st, 6, seat);
		if (store__step(st) != STORE__DONE) {
			rc = store__fail(c, "extend clock", err);
			goto done;
		}
	}
	free(seats);
	seats = NULL;
	if ((rc = store_game_clock_seats(c, game_id, &seats, &n, err)) < 0)
		goto done;
	for (int i = 0; i < n; i++)
		if (seats[i].seat == seat)
			*deadline = seats[i].deadline_at;
	rc = 0;
done:
	free(seats);
	return rc;
}
