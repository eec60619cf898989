/* http/web_history.c: a game's history page: every step with player and time */
/* SPDX-License-Identifier: MIT */
#include "http/web_history.h"

#include "engine/views.h"
#include "engine/manage.h"
#include "http/web.h"
#include "util/clock.h"
#include "util/banned.h"

void web_history_show(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct store_game g;
	struct store_seat *seats = NULL;
	struct err e = {0};
	json_t *moves = NULL, *list = json_array(), *m;
	int nseats = 0;
	size_t i;

	if (views_game_info(http_store(rq), id, &g, &seats, &nseats, &e) < 0) {
		json_decref(list);
		web_error_page(rq, r, 404, "No such game.");
		return;
	}
	/* a player of the game or an admin (routes.h: ROUTE_USER | ROUTE_SEAT) */
	/* the timeline names who sat in the seat at each step, across seat replacements and drops */
	manage_timeline(http_store(rq), id, &moves, &e);
	json_array_foreach(json_object_get(moves, "steps"), i, m) {
		char when[32];
		clock_format_human(json_integer_value(json_object_get(m, "at")), when);
		json_array_append_new(list, json_pack("{s:O,s:O,s:O,s:s,s:O}", "n", json_object_get(m, "n"), "player",
						      json_object_get(m, "player"), "text", json_object_get(m, "text"),
						      "time", when, "via", json_object_get(m, "via")));
	}
	json_decref(moves);
	web_render(rq, r, 200, "history", "History",
		   json_pack("{s:I,s:s,s:o}", "id", (json_int_t)id, "web_game_title", web_game_title(g.game), "moves", list));
	views_game_info_release(&g, seats, nseats);
}
