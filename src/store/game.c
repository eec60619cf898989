/* store/game.c: persistence of games, seats, moves, idempotency keys, outbox and audit rows */
/* SPDX-License-Identifier: MIT */
#include "store/store_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

static void copy_small(char *dst, size_t size, const unsigned char *src)
{
	size_t n = src ? strlen((const char *)src) : 0;

	if (n >= size)
		n = size - 1;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Room for one more element in a growing list: doubles *alloc when count reached it. Aborts when out of memory. */
static void *grow(void *list, int count, int *alloc, size_t size)
{
	void *grown;

	if (count < *alloc)
		return list;
	*alloc = *alloc ? *alloc * 2 : 16;
	grown = realloc(list, size * (size_t)*alloc);
	if (!grown)
		abort();
	return grown;
}

void store_game_release(struct store_game *g)
{
	if (!g)
		return;
	free(g->options);
	free(g->seed);
	free(g->result);
	free(g->initial);
	memset(g, 0, sizeof(*g));
}

void store_seats_free(struct store_seat *seats, int n)
{
	for (int i = 0; seats && i < n; i++) {
		free(seats[i].name);
		free(seats[i].email);
	}
	free(seats);
}

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

int store_game_insert(struct store_conn *c, const struct store_game *g, int64_t *id, struct err *err)
{
	static const char sql[] =
		"INSERT INTO games(game, options, seed, status, nplayers, move_count, active_seats, result,"
		" initial, created_by, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, g->game);
	store__bind_text(st, 2, g->options ? g->options : "{}");
	store__bind_text(st, 3, g->seed);
	store__bind_text(st, 4, g->status[0] ? g->status : "active");
	sqlite3_bind_int(st, 5, g->nplayers);
	sqlite3_bind_int(st, 6, g->move_count);
	sqlite3_bind_int64(st, 7, g->active_seats);
	store__bind_text(st, 8, g->result);
	store__bind_text(st, 9, g->initial);
	if (g->created_by)
		sqlite3_bind_int64(st, 10, g->created_by);
	sqlite3_bind_int64(st, 11, g->created_at);
	sqlite3_bind_int64(st, 12, g->updated_at);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "insert game", err);
	*id = sqlite3_last_insert_rowid(c->db);
	return 0;
}

int store_game_get(struct store_conn *c, int64_t id, struct store_game *out, struct err *err)
{
	static const char sql[] =
		"SELECT id, game, options, seed, status, nplayers, move_count, active_seats, result,"
		" initial, created_by, created_at, updated_at FROM games WHERE id = ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = store__row_by_id(c, st, id, "game with id", "load game", err)) < 0)
		return rc;
	out->id = sqlite3_column_int64(st, 0);
	copy_small(out->game, sizeof(out->game), sqlite3_column_text(st, 1));
	out->options = store__text(st, 2);
	out->seed = store__text(st, 3);
	copy_small(out->status, sizeof(out->status), sqlite3_column_text(st, 4));
	out->nplayers = sqlite3_column_int(st, 5);
	out->move_count = sqlite3_column_int(st, 6);
	out->active_seats = (unsigned)sqlite3_column_int64(st, 7);
	out->result = store__text(st, 8);
	out->initial = store__text(st, 9);
	out->created_by = sqlite3_column_int64(st, 10);
	out->created_at = sqlite3_column_int64(st, 11);
	out->updated_at = sqlite3_column_int64(st, 12);
	sqlite3_reset(st);
	return 0;
}

/* The cached step n of game id into head (its snapshot copied); 1 when there was one. */
static int head_cached(struct store *s, int64_t id, int n, struct store_move *head)
{
	struct store__head *h = &s->heads[(uint64_t)id % STORE__HEADS];
	int hit = 0;

	pthread_mutex_lock(&s->heads_lock);
	if (h->game_id == id && h->n == n && h->snapshot) {
		head->snapshot = strdup(h->snapshot);
		head->back = h->back;
		head->undo_seat = h->undo_seat;
		head->seat = h->seat;
		head->at = h->at;
		hit = head->snapshot != NULL;
	}
	if (hit)
		s->head_hits++;
	else
		s->head_misses++;
	pthread_mutex_unlock(&s->heads_lock);
	return hit;
}

static void head_keep(struct store *s, int64_t id, const struct store_move *head)
{
	struct store__head *h = &s->heads[(uint64_t)id % STORE__HEADS];
	char *copy = strdup(head->snapshot);

	if (!copy)
		return;
	pthread_mutex_lock(&s->heads_lock);
	/* a game's latest step only moves forward: never replace a later one by an earlier read */
	if (h->game_id != id || h->n < head->n) {
		free(h->snapshot);
		h->game_id = id;
		h->n = head->n;
		h->back = head->back;
		h->undo_seat = head->undo_seat;
		h->seat = head->seat;
		h->at = head->at;
		h->snapshot = copy;
		copy = NULL;
	}
	pthread_mutex_unlock(&s->heads_lock);
	free(copy);
}

void store_head_remember(struct store *s, int64_t game_id, const struct store_move *m)
{
	if (m->snapshot)
		head_keep(s, game_id, m);
}

void store__heads_free(struct store *s)
{
	for (int i = 0; i < STORE__HEADS; i++) {
		free(s->heads[i].snapshot);
		s->heads[i].snapshot = NULL;
		s->heads[i].game_id = 0;
	}
}

void store_head_stats(struct store *s, uint64_t *hits, uint64_t *misses)
{
	pthread_mutex_lock(&s->heads_lock);
	*hits = s->head_hits;
	*misses = s->head_misses;
	pthread_mutex_unlock(&s->heads_lock);
}

int store_game_head(struct store_conn *c, int64_t id, struct store_game *g, struct store_move *head,
		    struct err *err)
{
	static const char row_sql[] =
		"SELECT game, status, nplayers, move_count, active_seats, updated_at FROM games WHERE id = ?";
	sqlite3_stmt *st = store__stmt(c, row_sql, err);
	int rc;

	memset(g, 0, sizeof(*g));
	memset(head, 0, sizeof(*head));
	if ((rc = store__row_by_id(c, st, id, "game with id", "load game", err)) < 0)
		return rc;
	g->id = id;
	copy_small(g->game, sizeof(g->game), sqlite3_column_text(st, 0));
	copy_small(g->status, sizeof(g->status), sqlite3_column_text(st, 1));
	g->nplayers = sqlite3_column_int(st, 2);
	g->move_count = sqlite3_column_int(st, 3);
	g->active_seats = (unsigned)sqlite3_column_int64(st, 4);
	g->updated_at = sqlite3_column_int64(st, 5);
	sqlite3_reset(st);
	head->n = g->move_count;
	if (head_cached(c->store, id, g->move_count, head))
		return 0;
	/*
	 * The step the row names, by number, so that without a transaction
	 * around both a step made in between is not read (a stored step never
	 * changes, so any later read of it is the same).
	 */
	if ((rc = store_move_get(c, id, g->move_count, head, err)) < 0) {
		if (rc == ERR_NOTFOUND)
			return err_set(err, ERR_STORE, "game %lld has no step %d stored", (long long)id, g->move_count);
		return rc;
	}
	if (!head->snapshot)
		return err_set(err, ERR_STORE, "game %lld has no step %d stored", (long long)id, g->move_count);
	/* the writer's transaction may hold steps not committed yet: only committed ones are kept */
	if (!c->writer)
		head_keep(c->store, id, head);
	return 0;
}

/* The game row after steps; with expected >= 0 only while it is still active at that move count. */
static int game_set(struct store_conn *c, int64_t id, int expected, int move_count, unsigned active_seats,
		    const char *status, const char *result, int64_t now, struct err *err)
{
	static const char any_sql[] =
		"UPDATE games SET move_count = ?1, active_seats = ?2, status = ?3, result = ?4, updated_at = ?5"
		" WHERE id = ?6";
	static const char guarded_sql[] =
		"UPDATE games SET move_count = ?1, active_seats = ?2, status = ?3, result = ?4, updated_at = ?5"
		" WHERE id = ?6 AND move_count = ?7 AND status = 'active'";
	/* most steps: still active; status is left out so its index is not touched */
	static const char step_sql[] =
		"UPDATE games SET move_count = ?1, active_seats = ?2, result = ?4, updated_at = ?5"
		" WHERE id = ?6 AND move_count = ?7 AND status = 'active'";
	int still_active = expected >= 0 && strcmp(status, "active") == 0;
	sqlite3_stmt *st = store__stmt(c, still_active ? step_sql : expected >= 0 ? guarded_sql : any_sql, err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int(st, 1, move_count);
	sqlite3_bind_int64(st, 2, active_seats);
	if (!still_active)
		store__bind_text(st, 3, status);
	store__bind_text(st, 4, result);
	sqlite3_bind_int64(st, 5, now);
	sqlite3_bind_int64(st, 6, id);
	if (expected >= 0)
		sqlite3_bind_int(st, 7, expected);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "update game", err);
	if (sqlite3_changes(c->db) == 1)
		return 0;
	if (expected >= 0)
		return err_set(err, ERR_STALE, "game %lld is no longer active at move count %d", (long long)id,
			       expected);
	return err_set(err, ERR_NOTFOUND, "no game with id %lld", (long long)id);
}

int store_game_advance(struct store_conn *c, int64_t id, int expected, int move_count, unsigned active_seats,
		       const char *status, const char *result, int64_t now, struct err *err)
{
	return game_set(c, id, expected, move_count, active_seats, status, result, now, err);
}

int store_game_update(struct store_conn *c, int64_t id, int move_count, unsigned active_seats,
		      const char *status, const char *result, int64_t now, struct err *err)
{
	return game_set(c, id, -1, move_count, active_seats, status, result, now, err);
}

int store_seat_insert(struct store_conn *c, int64_t game_id, const struct store_seat *s, struct err *err)
{
	static const char sql[] = "INSERT INTO seats(game_id, seat, user_id, name, email) VALUES (?,?,?,?,?)";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	sqlite3_bind_int(st, 2, s->seat);
	if (s->user_id)
		sqlite3_bind_int64(st, 3, s->user_id);
	store__bind_text(st, 4, s->name);
	store__bind_text(st, 5, s->email);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "insert seat", err);
	return 0;
}

int store_seats_get(struct store_conn *c, int64_t game_id, struct store_seat **out, int *n, struct err *err)
{
	static const char sql[] =
		"SELECT seat, user_id, name, email FROM seats WHERE game_id = ? ORDER BY seat";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	struct store_seat *seats = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		seats = grow(seats, count, &alloc, sizeof(*seats));
		seats[count].seat = sqlite3_column_int(st, 0);
		seats[count].user_id = sqlite3_column_int64(st, 1);
		seats[count].name = store__text(st, 2);
		seats[count].email = store__text(st, 3);
		count++;
	}
	if (r != SQLITE_DONE) {
		store_seats_free(seats, count);
		return store__fail(c, "load seats", err);
	}
	*out = seats;
	*n = count;
	return 0;
}

int store_game_ids(struct store_conn *c, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err)
{
	static const char all_sql[] = "SELECT id FROM games ORDER BY updated_at DESC, id DESC LIMIT ?";
	static const char mine_sql[] =
		"SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
		" WHERE s.user_id = ? ORDER BY g.updated_at DESC, g.id DESC LIMIT ?";
	sqlite3_stmt *st = store__stmt(c, user_id ? mine_sql : all_sql, err);
	int64_t *list = NULL;
	int count = 0, alloc = 0, r;

	*ids = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	if (user_id) {
		sqlite3_bind_int64(st, 1, user_id);
		sqlite3_bind_int(st, 2, limit);
	} else {
		sqlite3_bind_int(st, 1, limit);
	}
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		list = grow(list, count, &alloc, sizeof(*list));
		list[count++] = sqlite3_column_int64(st, 0);
	}
	if (r != SQLITE_DONE) {
		free(list);
		return store__fail(c, "list games", err);
	}
	*ids = list;
	*n = count;
	return 0;
}

int store_move_append(struct store_conn *c, int64_t game_id, const struct store_move *m, struct err *err)
{
	static const char sql[] =
		"INSERT INTO moves(game_id, n, seat, text, via, client, at, back, undo_seat, snapshot, kind, target)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	sqlite3_bind_int(st, 2, m->n);
	sqlite3_bind_int(st, 3, m->seat);
	store__bind_text(st, 4, m->text);
	store__bind_text(st, 5, m->via);
	store__bind_text(st, 6, m->client);
	sqlite3_bind_int64(st, 7, m->at);
	sqlite3_bind_int(st, 8, m->back);
	sqlite3_bind_int(st, 9, m->undo_seat);
	store__bind_text(st, 10, m->snapshot);
	if (m->kind == STORE_MOVE_ROLLBACK) {
		sqlite3_bind_text(st, 11, "rollback", -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 12, m->target);
	} else {
		sqlite3_bind_text(st, 11, "step", -1, SQLITE_STATIC);
		sqlite3_bind_null(st, 12);
	}
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "append move", err);
	return 0;
}

static void move_row(sqlite3_stmt *st, struct store_move *m, int with_snapshot)
{
	m->n = sqlite3_column_int(st, 0);
	m->seat = sqlite3_column_int(st, 1);
	m->text = store__text(st, 2);
	copy_small(m->via, sizeof(m->via), sqlite3_column_text(st, 3));
	m->client = store__text(st, 4);
	m->at = sqlite3_column_int64(st, 5);
	m->back = sqlite3_column_int(st, 6);
	m->undo_seat = sqlite3_column_int(st, 7);
	m->kind = sqlite3_column_int(st, 8) ? STORE_MOVE_ROLLBACK : STORE_MOVE_STEP;
	m->target = m->kind == STORE_MOVE_ROLLBACK ? sqlite3_column_int(st, 9) : 0;
	m->snapshot = with_snapshot ? store__text(st, 10) : NULL;
}

int store_move_get(struct store_conn *c, int64_t game_id, int n, struct store_move *out, struct err *err)
{
	static const char sql[] =
		"SELECT n, seat, text, via, client, at, back, undo_seat, kind = 'rollback', target, snapshot FROM moves"
		" WHERE game_id = ? AND n = ?";
	static const char initial_sql[] = "SELECT initial, created_at FROM games WHERE id = ?";
	sqlite3_stmt *st;
	int r;

	memset(out, 0, sizeof(*out));
	if (n == 0) {
		st = store__stmt(c, initial_sql, err);
		if ((r = store__row_by_id(c, st, game_id, "game with id", "load set-up", err)) < 0)
			return r;
		out->seat = -1;
		out->undo_seat = -1;
		out->snapshot = store__text(st, 0);
		out->at = sqlite3_column_int64(st, 1);
		sqlite3_reset(st);
		return 0;
	}
	st = store__stmt(c, sql, err);
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	sqlite3_bind_int(st, 2, n);
	r = sqlite3_step(st);
	if (r == SQLITE_DONE)
		return err_set(err, ERR_NOTFOUND, "game %lld has no step %d", (long long)game_id, n);
	if (r != SQLITE_ROW)
		return store__fail(c, "load move", err);
	move_row(st, out, 1);
	sqlite3_reset(st);
	return 0;
}

int store_moves_list(struct store_conn *c, int64_t game_id, int with_snapshots, struct store_move **out,
		     int *n, struct err *err)
{
	static const char sql[] =
		"SELECT n, seat, text, via, client, at, back, undo_seat, kind = 'rollback', target, snapshot FROM moves"
		" WHERE game_id = ? ORDER BY n";
	static const char sql_nosnap[] =
		"SELECT n, seat, text, via, client, at, back, undo_seat, kind = 'rollback', target FROM moves"
		" WHERE game_id = ? ORDER BY n";
	sqlite3_stmt *st = store__stmt(c, with_snapshots ? sql : sql_nosnap, err);
	struct store_move *list = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		list = grow(list, count, &alloc, sizeof(*list));
		move_row(st, &list[count++], with_snapshots);
	}
	if (r != SQLITE_DONE) {
		store_moves_free(list, count);
		return store__fail(c, "list moves", err);
	}
	*out = list;
	*n = count;
	return 0;
}

int store_move_set_snapshot(struct store_conn *c, int64_t game_id, int n, const char *snapshot, struct err *err)
{
	static const char sql[] = "UPDATE moves SET snapshot = ? WHERE game_id = ? AND n = ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, snapshot);
	sqlite3_bind_int64(st, 2, game_id);
	sqlite3_bind_int(st, 3, n);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "set snapshot", err);
	if (sqlite3_changes(c->db) != 1)
		return err_set(err, ERR_NOTFOUND, "game %lld has no step %d", (long long)game_id, n);
	return 0;
}

int store_idem_get(struct store_conn *c, int64_t token_id, const char *key, unsigned char hash[32],
		   int64_t *game_id, int *status, char **body, struct err *err)
{
	static const char sql[] =
		"SELECT request_hash, game_id, status, body FROM idempotency WHERE token_id = ? AND key = ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	int r;

	*body = NULL;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, token_id);
	store__bind_text(st, 2, key);
	r = sqlite3_step(st);
	if (r == SQLITE_DONE)
		return ERR_NOTFOUND;
	if (r != SQLITE_ROW)
		return store__fail(c, "idempotency lookup", err);
	if (sqlite3_column_bytes(st, 0) == 32)
		memcpy(hash, sqlite3_column_blob(st, 0), 32);
	else
		memset(hash, 0, 32);
	*game_id = sqlite3_column_int64(st, 1);
	*status = sqlite3_column_int(st, 2);
	*body = store__text(st, 3);
	sqlite3_reset(st);
	return 0;
}

int store_idem_put(struct store_conn *c, int64_t token_id, const char *key, const unsigned char hash[32],
		   int64_t game_id, int status, const char *body, int64_t now, struct err *err)
{
	static const char sql[] =
		"INSERT INTO idempotency(token_id, key, request_hash, game_id, status, body, created_at)"
		" VALUES (?,?,?,?,?,?,?)";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, token_id);
	store__bind_text(st, 2, key);
	sqlite3_bind_blob(st, 3, hash, 32, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, game_id);
	sqlite3_bind_int(st, 5, status);
	store__bind_text(st, 6, body);
	sqlite3_bind_int64(st, 7, now);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "store idempotency key", err);
	return 0;
}

int store_outbox_add(struct store_conn *c, const char *event, int64_t game_id, int seat, int64_t user_id,
		     const char *payload, int64_t now, struct err *err)
{
	static const char sql[] =
		"INSERT INTO outbox(event, game_id, seat, user_id, payload, next_at, created_at)"
		" VALUES (?,?,?,?,?,?,?)";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, event);
	if (game_id)
		sqlite3_bind_int64(st, 2, game_id);
	if (seat >= 0)
		sqlite3_bind_int(st, 3, seat);
	if (user_id)
		sqlite3_bind_int64(st, 4, user_id);
	store__bind_text(st, 5, payload ? payload : "{}");
	sqlite3_bind_int64(st, 6, now);
	sqlite3_bind_int64(st, 7, now);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "queue notification", err);
	store__outbox_changed(c);
	return 0;
}

int store_outbox_count(struct store_conn *c, int64_t game_id, const char *event, int *count, struct err *err)
{
	static const char sql[] = "SELECT count(*) FROM outbox WHERE game_id = ? AND event = ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	store__bind_text(st, 2, event);
	if (sqlite3_step(st) != SQLITE_ROW)
		return store__fail(c, "count notifications", err);
	*count = sqlite3_column_int(st, 0);
	sqlite3_reset(st);
	return 0;
}

int store_audit_add(struct store_conn *c, int64_t actor_user_id, const char *actor, const char *action,
		    int64_t game_id, const char *reason, int before, int after, const char *detail,
		    int64_t now, struct err *err)
{
	static const char sql[] =
		"INSERT INTO audit(at, actor_user_id, actor, action, game_id, reason, before_count, after_count,"
		" detail) VALUES (?,?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, now);
	if (actor_user_id)
		sqlite3_bind_int64(st, 2, actor_user_id);
	store__bind_text(st, 3, actor);
	store__bind_text(st, 4, action);
	if (game_id)
		sqlite3_bind_int64(st, 5, game_id);
	store__bind_text(st, 6, reason);
	if (before >= 0)
		sqlite3_bind_int(st, 7, before);
	if (after >= 0)
		sqlite3_bind_int(st, 8, after);
	store__bind_text(st, 9, detail ? detail : "{}");
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "write audit", err);
	return 0;
}

void store_chats_free(struct store_chat *list, int n)
{
	for (int i = 0; list && i < n; i++) {
		free(list[i].name);
		free(list[i].text);
	}
	free(list);
}

int store_chat_add(struct store_conn *c, int64_t game_id, int seat, int64_t user_id, const char *text, int64_t at,
		   struct err *err)
{
	static const char sql[] = "INSERT INTO chat(game_id, seat, user_id, text, at) VALUES (?,?,?,?,?)";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	if (seat >= 0)
		sqlite3_bind_int(st, 2, seat);
	if (user_id)
		sqlite3_bind_int64(st, 3, user_id);
	store__bind_text(st, 4, text);
	sqlite3_bind_int64(st, 5, at);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "add chat message", err);
	return 0;
}

int store_chat_list(struct store_conn *c, int64_t game_id, int limit, struct store_chat **out, int *n,
		    struct err *err)
{
	static const char sql[] =
		"SELECT * FROM (SELECT ch.id, ch.seat, COALESCE(u.name, s.name, 'someone'), ch.text, ch.at FROM chat ch"
		" LEFT JOIN users u ON u.id = ch.user_id"
		" LEFT JOIN seats s ON s.game_id = ch.game_id AND s.seat = ch.seat"
		" WHERE ch.game_id = ? ORDER BY ch.id DESC LIMIT ?) ORDER BY 1";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	struct store_chat *list = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	sqlite3_bind_int(st, 2, limit);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		list = grow(list, count, &alloc, sizeof(*list));
		list[count].id = sqlite3_column_int64(st, 0);
		list[count].seat = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 1);
		list[count].name = store__text(st, 2);
		list[count].text = store__text(st, 3);
		list[count].at = sqlite3_column_int64(st, 4);
		count++;
	}
	if (r != SQLITE_DONE) {
		store_chats_free(list, count);
		return store__fail(c, "list chat", err);
	}
	*out = list;
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
	sqlite3_stmt *st = store__stmt(c, find, err);
	int r;

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, game_id);
	r = sqlite3_step(st);
	if (r == SQLITE_DONE)
		return err_set(err, ERR_CONFLICT, "this game has no open seat left");
	if (r != SQLITE_ROW)
		return store__fail(c, "find open seat", err);
	*seat = sqlite3_column_int(st, 0);
	sqlite3_reset(st);
	store__auth_changed(c);
	if (!(st = store__stmt(c, upd, err)))
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, user_id);
	store__bind_text(st, 2, name);
	store__bind_text(st, 3, email);
	sqlite3_bind_int64(st, 4, game_id);
	sqlite3_bind_int(st, 5, *seat);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "claim seat", err);
	return 0;
}

int store_games_open(struct store_conn *c, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err)
{
	static const char sql[] =
		"SELECT g.id FROM games g WHERE g.status = 'active'"
		" AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id IS NULL AND NOT EXISTS"
		"  (SELECT 1 FROM seat_clocks sc WHERE sc.game_id = s.game_id AND sc.seat = s.seat AND sc.dropped = 1))"
		" AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)"
		" ORDER BY g.id DESC LIMIT ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	int64_t *list = NULL;
	int count = 0, alloc = 0, r;

	*ids = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, user_id);
	sqlite3_bind_int(st, 2, limit);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		list = grow(list, count, &alloc, sizeof(*list));
		list[count++] = sqlite3_column_int64(st, 0);
	}
	if (r != SQLITE_DONE) {
		free(list);
		return store__fail(c, "list open games", err);
	}
	*ids = list;
	*n = count;
	return 0;
}
