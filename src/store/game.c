/* store/game.c: persistence of games: their rows, the latest step of each, lists of games */
/* SPDX-License-Identifier: MIT */
#include "store/game.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

#define SEARCH_LIMIT 200

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

int store_game_insert(struct store_conn *c, const struct store_game *g, int64_t *id, struct err *err)
{
	static const char sql[] =
		"INSERT INTO games(game, options, seed, status, nplayers, move_count, active_seats, result,"
		" initial, created_by, created_at, updated_at, players_see_emails) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)";
	struct store__st *st = store__stmt(c, sql, err);

	*id = 0;
	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, g->game);
	store__bind_text(st, 2, g->options ? g->options : "{}");
	store__bind_text(st, 3, g->seed);
	store__bind_text(st, 4, g->status[0] ? g->status : "active");
	store__bind_int(st, 5, g->nplayers);
	store__bind_int(st, 6, g->move_count);
	store__bind_int64(st, 7, g->active_seats);
	store__bind_text(st, 8, g->result);
	store__bind_text(st, 9, g->initial);
	if (g->created_by)
		store__bind_int64(st, 10, g->created_by);
	store__bind_int64(st, 11, g->created_at);
	store__bind_int64(st, 12, g->updated_at);
	store__bind_int(st, 13, g->players_see_emails ? 1 : 0);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "insert game", err);
	*id = store__last_id(c);
	return 0;
}

int store_game_get(struct store_conn *c, int64_t id, struct store_game *out, struct err *err)
{
	static const char sql[] =
		"SELECT id, game, options, seed, status, nplayers, move_count, active_seats, result,"
		" initial, created_by, created_at, updated_at, players_see_emails FROM games WHERE id = ?";
	struct store__st *st = store__stmt(c, sql, err);
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = store__row_by_id(c, st, id, "game with id", "load game", err)) < 0)
		return rc;
	out->id = store__col_int64(st, 0);
	store__copy_text(st, 1, out->game, sizeof(out->game));
	out->options = store__text(st, 2);
	out->seed = store__text(st, 3);
	store__copy_text(st, 4, out->status, sizeof(out->status));
	out->nplayers = store__col_int(st, 5);
	out->move_count = store__col_int(st, 6);
	out->active_seats = (unsigned)store__col_int64(st, 7);
	out->result = store__text(st, 8);
	out->initial = store__text(st, 9);
	out->created_by = store__col_int64(st, 10);
	out->created_at = store__col_int64(st, 11);
	out->updated_at = store__col_int64(st, 12);
	out->players_see_emails = store__col_int(st, 13);
	store__reset(st);
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

void store_game_head_remember(struct store *s, int64_t game_id, const struct store_move *m)
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

void store_game_head_stats(struct store *s, uint64_t *hits, uint64_t *misses)
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
	struct store__st *st = store__stmt(c, row_sql, err);
	int rc;

	memset(g, 0, sizeof(*g));
	memset(head, 0, sizeof(*head));
	if ((rc = store__row_by_id(c, st, id, "game with id", "load game", err)) < 0)
		return rc;
	g->id = id;
	store__copy_text(st, 0, g->game, sizeof(g->game));
	store__copy_text(st, 1, g->status, sizeof(g->status));
	g->nplayers = store__col_int(st, 2);
	g->move_count = store__col_int(st, 3);
	g->active_seats = (unsigned)store__col_int64(st, 4);
	g->updated_at = store__col_int64(st, 5);
	store__reset(st);
	head->n = g->move_count;
	if (head_cached(c->store, id, g->move_count, head))
		return 0;
	/*
	 * The step the row names, by number, so that without a transaction
	 * around both a step made in between is not read (a stored step never
	 * changes, so any later read of it is the same).
	 */
	if ((rc = store_move_get(c, id, g->move_count, head, err)) == ERR_NOTFOUND || (rc == 0 && !head->snapshot))
		rc = err_set(err, ERR_STORE, "game %lld has no step %d stored", (long long)id, g->move_count);
	if (rc < 0) {
		/* half of an answer is none: the caller must not act on the row without its step */
		store_game_release(g);
		store_move_release(head);
		return rc;
	}
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
	struct store__st *st = store__stmt(c, still_active ? step_sql : expected >= 0 ? guarded_sql : any_sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int(st, 1, move_count);
	store__bind_int64(st, 2, active_seats);
	if (!still_active)
		store__bind_text(st, 3, status);
	store__bind_text(st, 4, result);
	store__bind_int64(st, 5, now);
	store__bind_int64(st, 6, id);
	if (expected >= 0)
		store__bind_int(st, 7, expected);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "update game", err);
	if (store__changes(c) == 1)
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

int store_game_ids(struct store_conn *c, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err)
{
	static const char all_sql[] = "SELECT id FROM games ORDER BY updated_at DESC, id DESC LIMIT ?";
	static const char mine_sql[] =
		"SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
		" WHERE s.user_id = ? ORDER BY g.updated_at DESC, g.id DESC LIMIT ?";
	/* PostgreSQL orders a DISTINCT only by what it selects */
	static const char mine_pg_sql[] =
		"SELECT g.id FROM games g WHERE EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)"
		" ORDER BY g.updated_at DESC, g.id DESC LIMIT ?";
	struct store__st *st = store__stmt(c, user_id ? STORE__SQL(c, mine_sql, mine_pg_sql) : all_sql, err);
	int64_t *list = NULL;
	int count = 0, alloc = 0, r;

	*ids = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	if (user_id) {
		store__bind_int64(st, 1, user_id);
		store__bind_int(st, 2, limit);
	} else {
		store__bind_int(st, 1, limit);
	}
	while ((r = store__step(st)) == STORE__ROW) {
		list = store__grow(list, count, &alloc, sizeof(*list));
		list[count++] = store__col_int64(st, 0);
	}
	if (r != STORE__DONE) {
		free(list);
		return store__fail(c, "list games", err);
	}
	*ids = list;
	*n = count;
	return 0;
}

int store_game_ids_open(struct store_conn *c, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err)
{
	static const char sql[] =
		"SELECT g.id FROM games g WHERE g.status = 'active'"
		" AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id IS NULL AND NOT EXISTS"
		"  (SELECT 1 FROM seat_clocks sc WHERE sc.game_id = s.game_id AND sc.seat = s.seat AND sc.dropped = 1))"
		" AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)"
		" ORDER BY g.id DESC LIMIT ?";
	struct store__st *st = store__stmt(c, sql, err);
	int64_t *list = NULL;
	int count = 0, alloc = 0, r;

	*ids = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	store__bind_int(st, 2, limit);
	while ((r = store__step(st)) == STORE__ROW) {
		list = store__grow(list, count, &alloc, sizeof(*list));
		list[count++] = store__col_int64(st, 0);
	}
	if (r != STORE__DONE) {
		free(list);
		return store__fail(c, "list open games", err);
	}
	*ids = list;
	*n = count;
	return 0;
}

/*
 * One statement text per combination of filters would not fit the cache
 * keyed by address, so the search is prepared on its own (it is an admin
 * page, not a hot path) with every filter written as "?N IS NULL OR ...".
 */
int store_game_search(struct store_conn *c, const struct store_game_filter *f, int64_t **ids, int *n,
		      struct err *err)
{
	static const char sql[] =
		"SELECT g.id FROM games g WHERE (?1 IS NULL OR g.game = ?1) AND (?2 IS NULL OR g.status = ?2)"
		" AND (?3 IS NULL OR EXISTS (SELECT 1 FROM seats s LEFT JOIN users u ON u.id = s.user_id"
		"  WHERE s.game_id = g.id AND (s.email = ?3 COLLATE NOCASE OR u.email = ?3 COLLATE NOCASE)))"
		" AND (?4 IS NULL OR (g.status = 'active' AND g.updated_at < ?4))"
		" AND (?5 = 0 OR EXISTS (SELECT 1 FROM outbox o WHERE o.game_id = g.id AND o.state = 'dead'))"
		" ORDER BY g.updated_at DESC, g.id DESC LIMIT ?6";
	static const char pg_sql[] =
		"SELECT g.id FROM games g WHERE (?1::text IS NULL OR g.game = ?1::text)"
		" AND (?2::text IS NULL OR g.status = ?2::text)"
		" AND (?3::text IS NULL OR EXISTS (SELECT 1 FROM seats s LEFT JOIN users u ON u.id = s.user_id"
		"  WHERE s.game_id = g.id AND (lower(s.email) = lower(?3::text) OR lower(u.email::text) = lower(?3::text))))"
		" AND (?4::bigint IS NULL OR (g.status = 'active' AND g.updated_at < ?4::bigint))"
		" AND (?5 = 0 OR EXISTS (SELECT 1 FROM outbox o WHERE o.game_id = g.id AND o.state = 'dead'))"
		" ORDER BY g.updated_at DESC, g.id DESC LIMIT ?6";
	struct store__st *st = store__stmt(c, STORE__SQL(c, sql, pg_sql), err);
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
		store__bind_int64(st, 4, f->idle_before);
	store__bind_int(st, 5, f->dead ? 1 : 0);
	store__bind_int(st, 6, f->limit > 0 ? f->limit : SEARCH_LIMIT);
	while ((r = store__step(st)) == STORE__ROW) {
		if (count == alloc) {
			int64_t *grown;
			alloc = alloc ? alloc * 2 : 32;
			if (!(grown = realloc(list, sizeof(*list) * (size_t)alloc)))
				abort();
			list = grown;
		}
		list[count++] = store__col_int64(st, 0);
	}
	if (r != STORE__DONE) {
		free(list);
		return store__fail(c, "search games", err);
	}
	store__reset(st);
	*ids = list;
	*n = count;
	return 0;
}
