/* engine/feeds.c: a user's private feeds: the token that opens them, and the games they list */
/* SPDX-License-Identifier: MIT */
#include "engine/feeds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/views.h"
#include "store/feed_token.h"
#include "util/buf.h"
#include "util/banned.h"

#define FEED_GAMES 200

int feeds_token_new(struct store *s, int64_t user_id, int64_t now, char tok[TOKEN_TEXT_MAX], struct err *err)
{
	struct store_conn *c;
	unsigned char hash[32];
	int rc;

	token_new(tok, hash);
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_feed_token_put(c, user_id, hash, now, err)) < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

int feeds_token_revoke(struct store *s, int64_t user_id, struct err *err)
{
	struct store_conn *c;
	int rc;

	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_feed_token_drop(c, user_id, err)) < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

int feeds_token_state(struct store *s, int64_t user_id, int64_t *created_at, struct err *err)
{
	struct store_conn *c;
	int rc;

	*created_at = 0;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_feed_token_get(c, user_id, created_at, err);
	store_read_release(c);
	if (rc == ERR_NOTFOUND) {
		err_clear(err);
		return 0;
	}
	return rc;
}

int feeds_token_user(struct store *s, const char *tok, int64_t *user_id, struct err *err)
{
	struct store_conn *c;
	unsigned char hash[32];
	int rc;

	*user_id = 0;
	if (!tok || token_hash(tok, hash) < 0)
		return err_set(err, ERR_NOTFOUND, "no such feed");
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_feed_token_user(c, hash, user_id, err);
	store_read_release(c);
	return rc;
}

/* "Ann, Bob" */
static json_t *players_json(const struct store_seat *seats, int n)
{
	struct buf b = BUF_INIT;
	json_t *out;

	for (int i = 0; i < n; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", seats[i].name);
	out = json_string(b.data);
	buf_release(&b);
	return out;
}

/* Whom an active game waits for, the user's seats as "you": "you and Bob"; null when nobody. */
static json_t *waiting_json(const struct store_game *g, const struct store_seat *seats, int n, int64_t me)
{
	const char *names[GAME_MAX_SEATS];
	struct buf b = BUF_INIT;
	json_t *out;
	int k = 0;

	if (strcmp(g->status, "active") != 0)
		return json_null();
	for (int i = 0; i < n && k < GAME_MAX_SEATS; i++)
		if ((g->active_seats >> seats[i].seat) & 1u)
			names[k++] = seats[i].user_id == me ? "you" : seats[i].name;
	for (int i = 0; i < k; i++)
		buf_addf(&b, "%s%s", i == 0 ? "" : i == k - 1 ? " and " : ", ", names[i]);
	out = k ? json_string(b.data) : json_null();
	buf_release(&b);
	return out;
}

/* The final scores, "Ann 12, Bob 9", in seat order; null when the result has none. */
static json_t *result_json(const struct store_game *g, const struct store_seat *seats, int n)
{
	json_t *result = g->result ? json_loads(g->result, 0, NULL) : NULL, *scores = json_object_get(result, "scores"),
	       *out;
	struct buf b = BUF_INIT;

	for (int i = 0; json_is_array(scores) && i < n; i++) {
		json_t *sc = json_array_get(scores, (size_t)seats[i].seat);
		if (json_is_integer(sc))
			buf_addf(&b, "%s%s %lld", b.len ? ", " : "", seats[i].name, (long long)json_integer_value(sc));
	}
	out = b.len ? json_string(b.data) : json_null();
	json_decref(result);
	buf_release(&b);
	return out;
}

int feeds_games(struct store *s, int64_t user_id, json_t **out, struct err *err)
{
	int64_t *ids = NULL;
	json_t *list = NULL;
	int n = 0, rc;

	*out = NULL;
	if ((rc = views_game_ids(s, user_id, FEED_GAMES, &ids, &n, err)) < 0)
		return rc;
	list = json_array();
	for (int i = 0; i < n; i++) {
		struct store_game g;
		struct store_seat *seats = NULL;
		struct store_seat_clock *clocks = NULL;
		struct store_conn *c;
		int nseats = 0, nclocks = 0, yours = 0;
		json_t *deadlines = json_array();

		if ((rc = views_game_info(s, ids[i], &g, &seats, &nseats, err)) < 0)
			break;
		for (int k = 0; k < nseats; k++)
			if (seats[k].user_id == user_id && ((g.active_seats >> seats[k].seat) & 1u) &&
			    strcmp(g.status, "active") == 0)
				yours = 1;
		/* the deadlines of the user's seats whose clock runs now */
		if (strcmp(g.status, "active") == 0 && (rc = store_read_acquire(s, &c, err)) == 0) {
			rc = store_game_clock_seats(c, g.id, &clocks, &nclocks, err);
			store_read_release(c);
		}
		if (rc == ERR_NOTFOUND) {
			err_clear(err);
			rc = 0;
		}
		for (int k = 0; rc == 0 && k < nclocks; k++) {
			int mine = 0;
			for (int j = 0; j < nseats; j++)
				mine |= seats[j].seat == clocks[k].seat && seats[j].user_id == user_id;
			if (mine && clocks[k].deadline_at && clocks[k].turn_started_at)
				json_array_append_new(deadlines, json_pack("{s:i,s:I,s:I}", "seat", clocks[k].seat, "at",
									   (json_int_t)clocks[k].deadline_at, "since",
									   (json_int_t)clocks[k].turn_started_at));
		}
		free(clocks);
		if (rc == 0) {
			const struct game_ops *ops = engine_ops_find(g.game, NULL);
			json_array_append_new(
				list, json_pack("{s:I,s:s,s:s,s:i,s:I,s:o,s:b,s:o,s:o,s:o}", "id", (json_int_t)g.id, "title",
						ops ? ops->title : g.game, "status", g.status, "move_count", g.move_count,
						"updated_at", (json_int_t)g.updated_at, "players", players_json(seats, nseats),
						"yours", yours, "waiting_for", waiting_json(&g, seats, nseats, user_id),
						"result", result_json(&g, seats, nseats), "deadlines", deadlines));
			deadlines = NULL;
		}
		json_decref(deadlines);
		views_game_info_release(&g, seats, nseats);
		if (rc < 0)
			break;
	}
	free(ids);
	if (rc < 0) {
		json_decref(list);
		return rc;
	}
	*out = list;
	return 0;
}
