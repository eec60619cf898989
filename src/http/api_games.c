/* http/api_games.c: the JSON API of the games list: list yours, create one */
/* SPDX-License-Identifier: MIT */
#include "http/api_games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/play.h"
#include "engine/registry.h"
#include "http/api.h"
#include "notify/notify.h"
#include "util/token.h"
#include "util/banned.h"

#define MAX_GAMES_LISTED 200

void api_games_create(struct http_request *rq, struct http_reply *r)
{
	struct play_player players[GAME_MAX_SEATS];
	char tokens[GAME_MAX_SEATS][TOKEN_TEXT_MAX];
	struct play_new_game ng = {0};
	struct store_clock clock;
	const struct game_ops *ops;
	struct err e = {0};
	json_t *body = rq->json, *pl, *opts, *seats, *res;
	char detail[200];
	int64_t id;
	size_t n;
	int rc;

	/* an account token and a JSON object (routes.h) */
	ng.game = json_string_value(json_object_get(body, "game"));
	if (!ng.game || !(ops = registry_find(ng.game))) {
		snprintf(detail, sizeof(detail), "\"game\" must name a hosted game (see /api/v1/catalog)%s%s%s",
			 ng.game ? "; there is no \"" : "", ng.game ? ng.game : "", ng.game ? "\"" : "");
		http_reply_problem(r, ERR_INPUT, "unknown_game", detail, NULL);
		goto done;
	}
	pl = json_object_get(body, "players");
	n = json_array_size(pl);
	if (!json_is_array(pl) || n < (size_t)ops->min_players || n > (size_t)ops->max_players) {
		snprintf(detail, sizeof(detail), "\"players\" must be an array of %d to %d players for %s",
			 ops->min_players, ops->max_players, ops->title);
		http_reply_problem(r, ERR_INPUT, "bad_players", detail, NULL);
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *p = json_array_get(pl, i);
		players[i].name = json_string_value(json_object_get(p, "name"));
		players[i].email = json_string_value(json_object_get(p, "email"));
		if (!api_valid_name(players[i].name)) {
			snprintf(detail, sizeof(detail), "player %zu needs a \"name\" of 1 to %d printable characters",
				 i + 1, API_MAX_NAME);
			http_reply_problem(r, ERR_INPUT, "bad_players", detail, NULL);
			goto done;
		}
		if (json_object_get(p, "email") && !json_is_null(json_object_get(p, "email")) &&
		    !api_valid_email(players[i].email)) {
			snprintf(detail, sizeof(detail), "player %zu: \"%s\" is not an email address", i + 1,
				 players[i].email ? players[i].email : "(not a string)");
			http_reply_problem(r, ERR_INPUT, "bad_email", detail, NULL);
			goto done;
		}
	}
	opts = json_object_get(body, "options");
	if (opts && !json_is_object(opts)) {
		http_reply_problem(r, ERR_INPUT, "bad_options", "\"options\" must be an object", NULL);
		goto done;
	}
	if (json_object_get(body, "clock") && !json_is_null(json_object_get(body, "clock"))) {
		if (notify_clock_parse(json_object_get(body, "clock"), &clock, &e) < 0) {
			http_reply_problem(r, ERR_INPUT, "bad_clock", e.msg, NULL);
			goto done;
		}
		if ((!strcmp(clock.timeout, "bot") || !strcmp(clock.timeout, "drop")) && !ops->bot) {
			http_reply_problem(r, ERR_INPUT, "bad_clock",
					   "this game has no bot to play for a player who runs out of time: use "
					   "\"timeout\": \"notify\"", NULL);
			goto done;
		}
		ng.clock = &clock;
	}
	ng.options = opts;
	ng.players = players;
	ng.nplayers = (int)n;
	ng.created_by = rq->auth.user_id;
	if ((rc = play_game_create(http_store(rq), &ng, &id, tokens, &e)) < 0) {
		http_reply_problem(r, rc, rc == ERR_INPUT ? "bad_options" : NULL, e.msg, NULL);
		goto done;
	}
	seats = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *s = json_pack("{s:i,s:s,s:s?}", "seat", (int)i, "name", players[i].name, "email",
				      players[i].email);
		if (rq->auth.is_admin)
			json_object_set_new(s, "token", json_string(tokens[i]));
		json_array_append_new(seats, s);
	}
	res = json_pack("{s:I,s:s,s:s,s:o}", "id", (json_int_t)id, "game", ops->id, "status", "active", "seats",
			seats);
	snprintf(r->location, sizeof(r->location), "/api/v1/games/%lld", (long long)id);
	http_reply_json(r, 201, res);
done:
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		memset(tokens[i], 0, TOKEN_TEXT_MAX);
}

void api_games_list(struct http_request *rq, struct http_reply *r)
{
	int64_t *ids = NULL;
	int n = 0, rc;
	struct store_conn *c;
	struct err e = {0};
	json_t *list = json_array();
	int64_t user = rq->auth.is_admin ? 0 : rq->auth.user_id;

	if (rq->auth.kind == TOKEN_SEAT) {
		ids = malloc(sizeof(*ids));
		ids[0] = rq->auth.game_id;
		n = 1;
	} else {
		if ((rc = store_read_acquire(http_store(rq), &c, &e)) < 0) {
			json_decref(list);
			api_reply_err(r, rc, &e);
			return;
		}
		rc = store_game_ids(c, user, MAX_GAMES_LISTED, &ids, &n, &e);
		store_read_release(c);
		if (rc < 0) {
			json_decref(list);
			api_reply_err(r, rc, &e);
			return;
		}
	}
	for (int i = 0; i < n; i++) {
		struct store_game g;
		struct store_seat *seats = NULL;
		int nseats = 0;
		json_t *o, *sa, *mine;

		if (play_game_info(http_store(rq), ids[i], &g, &seats, &nseats, &e) < 0) {
			store_game_release(&g);
			continue;
		}
		sa = json_array();
		mine = json_array();
		for (int k = 0; k < nseats; k++) {
			json_array_append_new(sa, json_pack("{s:i,s:s}", "seat", seats[k].seat, "name", seats[k].name));
			if ((rq->auth.kind == TOKEN_SEAT && seats[k].seat == rq->auth.seat) ||
			    (rq->auth.kind != TOKEN_SEAT && rq->auth.user_id && seats[k].user_id == rq->auth.user_id))
				json_array_append_new(mine, json_integer(seats[k].seat));
		}
		o = json_pack("{s:I,s:s,s:s,s:i,s:o,s:o,s:I,s:I}", "id", (json_int_t)g.id, "game", g.game, "status",
			      g.status, "move_count", g.move_count, "seats", sa, "your_seats", mine, "created_at",
			      (json_int_t)g.created_at, "updated_at", (json_int_t)g.updated_at);
		json_t *active = json_array();
		for (int s = 0; s < GAME_MAX_SEATS; s++)
			if (g.active_seats & (1u << s))
				json_array_append_new(active, json_integer(s));
		json_object_set_new(o, "active_seats", active);
		json_array_append_new(list, o);
		store_seats_free(seats, nseats);
		store_game_release(&g);
	}
	free(ids);
	http_reply_json(r, 200, json_pack("{s:o}", "games", list));
}
