/* store/admin.c: what the admin console reads and changes: game search, seats, tokens, clocks */
/* SPDX-License-Identifier: MIT */
#include "store/admin.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

#define GAMES_LIMIT 200
#define TOKENS_LIMIT 200

/*
 * One statement text per combination of filters would not fit the cache
 * keyed by address, so the search is prepared on its own (it is an admin
 * page, not a hot path) with every filter written as "?N IS NULL OR ...".
 */
int store_admin_games(struct store_conn *c, const struct store_admin_filter *f, int64_t **ids, int *n,
		      struct err *err)
{
	static const char sql[] =
		"SELECT g.id FROM games g WHERE (?1 IS NULL OR g.game = ?1) AND (?2 IS NULL OR g.status = ?2)"
		" AND (?3 IS NULL OR EXISTS (SELECT 1 FROM seats s LEFT JOIN users u ON u.id = s.user_id"
		"  WHERE s.game_id = g.id AND (s.email = ?3 COLLATE NOCASE OR u.email = ?3 COLLATE NOCASE)))"
		" AND (?4 IS NULL OR (g.status = 'active' AND g.updated_at < ?4))"
		" AND (?5 = 0 OR EXISTS (SELECT 1 FROM outbox o WHERE o.game_id = g.id AND o.state = 'dead'))"
		" ORDER BY g.updated_at DESC, g.id DESC LIMIT ?6";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	int64_t *list = NULL;
	int count = 0, alloc = 0, r;

	*ids = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	if (f->game && *f->game)
		store__bind_text(st, 1, f->game);
	if (f->status && *f->status)
		store__bind_text(st, 2, f->status);
	if (f->email && *f->email)
		store__bind_text(st, 3, f->email);
	if (f->idle_before)
		sqlite3_bind_int64(st, 4, f->idle_before);
	sqlite3_bind_int(st, 5, f->dead ? 1 : 0);
	sqlite3_bind_int(st, 6, f->limit > 0 ? f->limit : GAMES_LIMIT);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		if (count == alloc) {
			int64_t *grown;
			alloc = alloc ? alloc * 2 : 32;
			if (!(grown = realloc(list, sizeof(*list) * (size_t)alloc)))
				abort();
			list = grown;
		}
		list[count++] = sqlite3_column_int64(st, 0);
	}
	if (r != SQLITE_DONE) {
		free(list);
		return store__fail(c, "search games", err);
	}
	sqlite3_reset(st);
	*ids = list;
	*n = count;
	return 0;
}

int store_admin_dead_count(struct store_conn *c, int64_t game_id, int *count, struct err *err)
{
	static const char sql[] = "SELECT count(*) FROM outbox WHERE game_id = ? AND state = 'dead'";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	*count = 0;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	if (sqlite3_step(st) != SQLITE_ROW)
		return store__fail(c, "count dead notifications", err);
	*count = sqlite3_column_int(st, 0);
	sqlite3_reset(st);
	return 0;
}

int store_admin_outbox_game(struct store_conn *c, int64_t game_id, struct store_outbox_row **out, int *n,
			    struct err *err)
{
	static const char sql[] =
		"SELECT id, uid, event, coalesce(seat, -1), coalesce(user_id, 0), payload, state, attempts, next_at,"
		" digest, last_error, created_at, coalesce(sent_at, 0) FROM outbox WHERE game_id = ? ORDER BY id";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	struct store_outbox_row *rows = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_outbox_row *x;
		if (count == alloc) {
			struct store_outbox_row *grown;
			alloc = alloc ? alloc * 2 : 16;
			if (!(grown = realloc(rows, sizeof(*rows) * (size_t)alloc)))
				abort();
			rows = grown;
		}
		x = &rows[count++];
		memset(x, 0, sizeof(*x));
		x->id = sqlite3_column_int64(st, 0);
		store__copy_text(st, 1, x->uid, sizeof(x->uid));
		store__copy_text(st, 2, x->event, sizeof(x->event));
		x->game_id = game_id;
		x->seat = sqlite3_column_int(st, 3);
		x->user_id = sqlite3_column_int64(st, 4);
		x->payload = store__text(st, 5);
		store__copy_text(st, 6, x->state, sizeof(x->state));
		x->attempts = sqlite3_column_int(st, 7);
		x->next_at = sqlite3_column_int64(st, 8);
		x->digest = sqlite3_column_int(st, 9);
		x->last_error = store__text(st, 10);
		x->created_at = sqlite3_column_int64(st, 11);
		x->sent_at = sqlite3_column_int64(st, 12);
	}
	if (r != SQLITE_DONE) {
		store_outbox_rows_free(rows, count);
		return store__fail(c, "list a game's notifications", err);
	}
	sqlite3_reset(st);
	*out = rows;
	*n = count;
	return 0;
}

int store_admin_seat_set(struct store_conn *c, int64_t game_id, int seat, int64_t user_id, const char *name,
			 const char *email, struct err *err)
{
	static const char sql[] = "UPDATE seats SET user_id = ?, name = ?, email = ? WHERE game_id = ? AND seat = ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	/* a cached lookup of a token may be stale now (store_change_generation) */
	store__auth_changed(c);
	if (!st)
		return ERR_STORE;
	if (user_id)
		sqlite3_bind_int64(st, 1, user_id);
	store__bind_text(st, 2, name);
	store__bind_text(st, 3, email && *email ? email : NULL);
	sqlite3_bind_int64(st, 4, game_id);
	sqlite3_bind_int(st, 5, seat);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "change seat", err);
	if (sqlite3_changes(c->db) != 1)
		return err_set(err, ERR_NOTFOUND, "game %lld has no seat %d", (long long)game_id, seat);
	return 0;
}

#define TOKEN_COLS \
	"id, kind, coalesce(user_id, 0), coalesce(game_id, 0), coalesce(seat, -1), coalesce(label, ''), created_at," \
	" coalesce(expires_at, 0), coalesce(revoked_at, 0)"

static void token_row(sqlite3_stmt *st, struct store_admin_token *t)
{
	memset(t, 0, sizeof(*t));
	t->id = sqlite3_column_int64(st, 0);
	store__copy_text(st, 1, t->kind, sizeof(t->kind));
	t->user_id = sqlite3_column_int64(st, 2);
	t->game_id = sqlite3_column_int64(st, 3);
	t->seat = sqlite3_column_int(st, 4);
	store__copy_text(st, 5, t->label, sizeof(t->label));
	t->created_at = sqlite3_column_int64(st, 6);
	t->expires_at = sqlite3_column_int64(st, 7);
	t->revoked_at = sqlite3_column_int64(st, 8);
}

int store_admin_token_get(struct store_conn *c, int64_t id, struct store_admin_token *out, struct err *err)
{
	static const char sql[] = "SELECT " TOKEN_COLS " FROM tokens WHERE id = ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = store__row_by_id(c, st, id, "token with id", "load token", err)) < 0)
		return rc;
	token_row(st, out);
	sqlite3_reset(st);
	return 0;
}

int store_admin_game_tokens(struct store_conn *c, int64_t game_id, struct store_admin_token **out, int *n,
			    struct err *err)
{
	static const char sql[] = "SELECT " TOKEN_COLS " FROM tokens WHERE game_id = ? AND kind = 'seat'"
				  " ORDER BY id DESC LIMIT ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	struct store_admin_token *list = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	sqlite3_bind_int(st, 2, TOKENS_LIMIT);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		if (count == alloc) {
			struct store_admin_token *grown;
			alloc = alloc ? alloc * 2 : 8;
			if (!(grown = realloc(list, sizeof(*list) * (size_t)alloc)))
				abort();
			list = grown;
		}
		token_row(st, &list[count++]);
	}
	if (r != SQLITE_DONE) {
		free(list);
		return store__fail(c, "list tokens", err);
	}
	sqlite3_reset(st);
	*out = list;
	*n = count;
	return 0;
}

int store_admin_seat_tokens_revoke(struct store_conn *c, int64_t game_id, int seat, int64_t now, int *count,
				   struct err *err)
{
	static const char sql[] = "UPDATE tokens SET revoked_at = ? WHERE game_id = ? AND seat = ? AND kind = 'seat'"
				  " AND revoked_at IS NULL";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	/* a cached lookup of a token may be stale now (store_change_generation) */
	store__auth_changed(c);
	if (count)
		*count = 0;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, game_id);
	sqlite3_bind_int(st, 3, seat);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "revoke seat tokens", err);
	if (count)
		*count = sqlite3_changes(c->db);
	return 0;
}

int store_admin_clock_extend(struct store_conn *c, int64_t game_id, int seat, int64_t add_ms, int64_t now,
			     int64_t *deadline, struct err *err)
{
	static const char shift_turn[] =
		"UPDATE seat_clocks SET turn_started_at = turn_started_at + ? WHERE game_id = ? AND seat = ?";
	static const char grow_bank[] = "UPDATE seat_clocks SET bank_ms = bank_ms + ? WHERE game_id = ? AND seat = ?";
	static const char plain[] =
		"UPDATE seat_clocks SET deadline_at = ?, remind_at = nullif(?, 0), timed_out = 0,"
		" reminded = CASE WHEN ? > ? THEN 0 ELSE reminded END WHERE game_id = ? AND seat = ?";
	struct store_seat_clock *seats = NULL, *x = NULL;
	struct store_clock k;
	sqlite3_stmt *st;
	int n = 0, rc;

	*deadline = 0;
	if ((rc = store_clock_get(c, game_id, &k, err)) < 0)
		return rc;
	if ((rc = store_clock_seats(c, game_id, &seats, &n, err)) < 0)
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
	sqlite3_bind_int64(st, 1, add_ms);
	sqlite3_bind_int64(st, 2, game_id);
	sqlite3_bind_int(st, 3, seat);
	if (sqlite3_step(st) != SQLITE_DONE) {
		rc = store__fail(c, "extend clock", err);
		goto done;
	}
	if (x->user_id) {
		/* the clock code reschedules from the new start or bank, counting the player's vacations */
		if ((rc = store_clock_refresh_user(c, x->user_id, now, err)) < 0)
			goto done;
	} else {
		/* a seat without a player has no vacations: the deadline simply moves */
		int64_t dl = x->deadline_at + add_ms, rem = x->remind_at ? x->remind_at + add_ms : 0;
		if (!(st = store__stmt(c, plain, err))) {
			rc = ERR_STORE;
			goto done;
		}
		sqlite3_bind_int64(st, 1, dl);
		sqlite3_bind_int64(st, 2, rem);
		sqlite3_bind_int64(st, 3, rem);
		sqlite3_bind_int64(st, 4, now);
		sqlite3_bind_int64(st, 5, game_id);
		sqlite3_bind_int(st, 6, seat);
		if (sqlite3_step(st) != SQLITE_DONE) {
			rc = store__fail(c, "extend clock", err);
			goto done;
		}
	}
	free(seats);
	seats = NULL;
	if ((rc = store_clock_seats(c, game_id, &seats, &n, err)) < 0)
		goto done;
	for (int i = 0; i < n; i++)
		if (seats[i].seat == seat)
			*deadline = seats[i].deadline_at;
	rc = 0;
done:
	free(seats);
	return rc;
}
