/* http/web_home.c: the home page: your games, those waiting for you first, and open seats */
/* SPDX-License-Identifier: MIT */
#include "http/web_home.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/views.h"
#include "http/web.h"
#include "notify/notify.h"
#include "util/clock.h"
#include "util/banned.h"

#define GAMES_SHOWN 200

/* "Ann, Bob, Cy" */
static char *players_text(const struct store_seat *seats, int n)
{
	struct buf b = BUF_INIT;

	for (int i = 0; i < n; i++)
		buf_addf(&b, "%s%s%s", i ? ", " : "", seats[i].name, seats[i].user_id ? "" : " (open)");
	return buf_detach(&b, NULL);
}

/* Whom an active game waits for: "you", "Bob", "you and Bob"; NULL when nobody. New. */
static char *waiting_text(const struct store_game *g, const struct store_seat *seats, int n, int64_t me)
{
	struct buf b = BUF_INIT;
	int count = 0, total = 0;

	for (int i = 0; i < n; i++)
		total += (g->active_seats >> seats[i].seat) & 1u;
	for (int i = 0; i < n; i++) {
		if (!((g->active_seats >> seats[i].seat) & 1u))
			continue;
		count++;
		if (count > 1)
			buf_adds(&b, count == total ? " and " : ", ");
		buf_adds(&b, me && seats[i].user_id == me ? "you" : seats[i].name);
	}
	if (!count || strcmp(g->status, "active") != 0) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

/* The final scores of a finished game, "Ann 12, Bob 9", winners first as the result ranks them; NULL when none. */
static char *score_text(const struct store_game *g, const struct store_seat *seats, int n)
{
	json_t *result = g->result ? json_loads(g->result, 0, NULL) : NULL, *scores = json_object_get(result, "scores");
	struct buf b = BUF_INIT;

	for (int rank = 1; json_is_array(scores) && rank <= n; rank++) {
		for (int i = 0; i < n; i++) {
			json_t *sc = json_array_get(scores, (size_t)seats[i].seat),
			       *rk = json_array_get(json_object_get(result, "ranks"), (size_t)seats[i].seat);
			if (!json_is_integer(sc) || (json_is_integer(rk) ? json_integer_value(rk) : 1) != rank)
				continue;
			buf_addf(&b, "%s%s %lld", b.len ? ", " : "", seats[i].name, (long long)json_integer_value(sc));
		}
	}
	json_decref(result);
	if (!b.len) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

/*
 * The score of a running game now, "Ann 3, Bob 5" in seat order, from the
 * game's view for seat (its "scores"); NULL when the view counts none. New.
 */
static char *live_score_text(struct http_request *rq, const struct store_game *g, const struct store_seat *seats,
			     int n, int seat)
{
	struct err e = {0};
	json_t *game = NULL, *scores;
	struct buf b = BUF_INIT;

	if (strcmp(g->status, "active") != 0 || views_game_json(http_store(rq), g->id, seat, 0, &game, &e) < 0)
		return NULL;
	scores = json_object_get(json_object_get(game, "view"), "scores");
	for (int i = 0; json_is_array(scores) && i < n; i++) {
		json_t *sc = json_array_get(scores, (size_t)seats[i].seat);
		if (json_is_integer(sc))
			buf_addf(&b, "%s%s %lld", b.len ? ", " : "", seats[i].name, (long long)json_integer_value(sc));
	}
	json_decref(game);
	if (!b.len) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

/* When the soonest deadline of the seats a game waits for falls: "in 5 h", "overdue"; "" without a clock. */
static void deadline_text(struct http_request *rq, const struct store_game *g, int64_t now, char out[48])
{
	struct err e = {0};
	json_t *clock = NULL, *s;
	int64_t soonest = 0;
	size_t i;

	out[0] = '\0';
	if (strcmp(g->status, "active") != 0 || notify_clock_json(http_store(rq), g->id, &clock, &e) < 0)
		return;
	json_array_foreach(json_object_get(clock, "seats"), i, s) {
		int64_t at = json_integer_value(json_object_get(s, "deadline"));
		int seat = (int)json_integer_value(json_object_get(s, "seat"));
		if (at && ((g->active_seats >> seat) & 1u) && (!soonest || at < soonest))
			soonest = at;
	}
	json_decref(clock);
	if (soonest) {
		char span[32];
		clock_format_ago(soonest - now, span);
		snprintf(out, 48, "%s%s", soonest <= now ? "overdue" : "in ", soonest <= now ? "" : span);
	}
}

void web_home_show(struct http_request *rq, struct http_reply *r)
{
	json_t *data = json_object(), *waiting = json_array(), *others = json_array(), *open = json_array();
	struct err e = {0};
	int64_t *ids = NULL, *open_ids = NULL, now = clock_now_ms();
	int n = 0, nopen = 0;

	if (rq->sess.user_id) {
		views_game_ids(http_store(rq), rq->sess.user_id, GAMES_SHOWN, &ids, &n, &e);
		views_games_open(http_store(rq), rq->sess.user_id, 20, &open_ids, &nopen, &e);
	}
	for (int i = 0; i < n + nopen; i++) {
		int64_t id = i < n ? ids[i] : open_ids[i - n];
		struct store_game g;
		struct store_seat *seats = NULL;
		int nseats = 0, mine_waiting = 0, my_seat = -1;
		char ago[32], *players;
		json_t *o;

		if (views_game_info(http_store(rq), id, &g, &seats, &nseats, &e) < 0)
			continue;
		for (int k = 0; k < nseats; k++)
			if (seats[k].user_id == rq->sess.user_id) {
				if (my_seat < 0)
					my_seat = seats[k].seat;
				if (g.active_seats & (1u << seats[k].seat))
					mine_waiting = 1;
			}
		players = players_text(seats, nseats);
		clock_format_ago(now - g.updated_at, ago);
		o = json_pack("{s:I,s:s,s:s,s:s}", "id", (json_int_t)g.id, "title", web_game_title(g.game), "players",
			      players, "waited", ago);
		/* whom it waits for, until when, and how it ended */
		if (i < n) {
			char *waiting_for = waiting_text(&g, seats, nseats, rq->sess.user_id), *score = score_text(&g, seats, nseats);
			char due[48];
			deadline_text(rq, &g, now, due);
			if (waiting_for)
				json_object_set_new(o, "waiting_for", json_string(waiting_for));
			if (*due)
				json_object_set_new(o, "deadline", json_string(due));
			if (score)
				json_object_set_new(o, "score", json_string(score));
			{
				char *live = live_score_text(rq, &g, seats, nseats, my_seat);
				if (live)
					json_object_set_new(o, "live_score", json_string(live));
				free(live);
			}
			free(waiting_for);
			free(score);
		}
		if (i >= n) {
			json_array_append_new(open, o);
		} else if (mine_waiting && strcmp(g.status, "active") == 0) {
			json_array_append_new(waiting, o);
		} else {
			char state[64];
			snprintf(state, sizeof(state), "%s, %s ago", strcmp(g.status, "active") ? g.status : "their turn",
				 ago);
			json_object_set_new(o, "state", json_string(state));
			json_array_append_new(others, o);
		}
		free(players);
		views_game_info_release(&g, seats, nseats);
	}
	free(ids);
	free(open_ids);
	json_object_set_new(data, "has_waiting", json_boolean(json_array_size(waiting)));
	json_object_set_new(data, "has_others", json_boolean(json_array_size(others)));
	json_object_set_new(data, "has_open", json_boolean(json_array_size(open)));
	json_object_set_new(data, "no_games", json_boolean(!json_array_size(waiting) && !json_array_size(others)));
	json_object_set_new(data, "waiting", waiting);
	json_object_set_new(data, "others", others);
	json_object_set_new(data, "open", open);
	web_render(rq, r, 200, "home", rq->sess.user_id ? "Your games" : "Welcome", data);
}
