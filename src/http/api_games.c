/* http/api_games.c: the JSON API of the games list: list yours, create one */
/* SPDX-License-Identifier: MIT */
#include "http/api_games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/create.h"
#include "engine/views.h"
#include "http/api.h"
#include "util/token.h"
#include "util/banned.h"

#define MAX_GAMES_LISTED 200

void api_games_create(struct http_request *rq, struct http_reply *r)
{
	char tokens[GAME_MAX_SEATS][TOKEN_TEXT_MAX];
	struct create_request cr = {0};
	struct create_player *players = NULL;
	enum create_problem problem;
	struct err e = {0};
	json_t *body = rq->json, *pl = json_object_get(body, "players"), *seats, *res;
	char detail[120];
	int64_t id;
	size_t n = json_array_size(pl);
	int rc;

	/* an account token and a JSON object (routes.h); the engine checks the rest */
	if (!json_is_array(pl)) {
		http_reply_problem(r, ERR_INPUT, "bad_players", "\"players\" must be an array of players", NULL);
		goto done;
	}
	if (n && !(players = calloc(n, sizeof(*players)))) {
		api_reply_err(r, err_set(&e, ERR_NOMEM, "out of memory"), &e);
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *p = json_array_get(pl, i), *email = json_object_get(p, "email");
		players[i].name = json_string_value(json_object_get(p, "name"));
		players[i].email = json_string_value(email);
		if (email && !json_is_null(email) && !json_is_string(email)) {
			snprintf(detail, sizeof(detail), "player %zu: \"email\" is not an email address", i + 1);
			http_reply_problem(r, ERR_INPUT, "bad_email", detail, NULL);
			goto done;
		}
	}
	cr.game = json_string_value(json_object_get(body, "game"));
	cr.options = json_object_get(body, "options");
	cr.players = players;
	cr.nplayers = (int)(n > 1000 ? 1000 : n);
	cr.clock = json_object_get(body, "clock");
	cr.created_by = rq->auth.user_id;
	cr.players_see_emails = json_is_true(json_object_get(body, "players_see_emails"));
	if (!rq->auth.is_admin && http_limited_create(rq, r, rq->auth.user_id, create_invites(&cr), 0))
		goto done;
	if ((rc = create_game(http_store(rq), &cr, &id, tokens, &problem, &e)) < 0) {
		http_reply_problem(r, rc, create_problem_code(problem), e.msg, NULL);
		goto done;
	}
	if (!rq->auth.is_admin)
		http_limited_create(rq, r, rq->auth.user_id, create_invites(&cr), 1);
	seats = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *s = json_pack("{s:i,s:s,s:s?}", "seat", (int)i, "name", players[i].name, "email",
				      players[i].email);
		if (rq->auth.is_admin)
			json_object_set_new(s, "token", json_string(tokens[i]));
		json_array_append_new(seats, s);
	}
	res = json_pack("{s:I,s:s,s:s,s:o}", "id", (json_int_t)id, "game", cr.game, "status", "active", "seats",
			seats);
	snprintf(r->location, sizeof(r->location), "/api/v1/games/%lld", (long long)id);
	http_reply_json(r, 201, res);
done:
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		memset(tokens[i], 0, TOKEN_TEXT_MAX);
	free(players);
}

void api_games_list(struct http_request *rq, struct http_reply *r)
{
	int64_t *ids = NULL;
	int n = 0, rc;
	struct err e = {0};
	json_t *list = json_array();
	int64_t user = rq->auth.is_admin ? 0 : rq->auth.user_id;

	if (rq->auth.kind == TOKEN_SEAT) {
		ids = malloc(sizeof(*ids));
		ids[0] = rq->auth.game_id;
		n = 1;
	} else {
		if ((rc = views_game_ids(http_store(rq), user, MAX_GAMES_LISTED, &ids, &n, &e)) < 0) {
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

		if (views_game_info(http_store(rq), ids[i], &g, &seats, &nseats, &e) < 0)
			continue;
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
		views_game_info_release(&g, seats, nseats);
	}
	free(ids);
	http_reply_json(r, 200, json_pack("{s:o}", "games", list));
}
