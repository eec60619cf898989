/* http/web_home.c: the home page: your games, those waiting for you first, and open seats */
/* SPDX-License-Identifier: MIT */
#include "http/web_home.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/views.h"
#include "http/web.h"
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
		int nseats = 0, mine_waiting = 0;
		char ago[32], *players;
		json_t *o;

		if (views_game_info(http_store(rq), id, &g, &seats, &nseats, &e) < 0)
			continue;
		for (int k = 0; k < nseats; k++)
			if (seats[k].user_id == rq->sess.user_id && (g.active_seats & (1u << seats[k].seat)))
				mine_waiting = 1;
		players = players_text(seats, nseats);
		clock_format_ago(now - g.updated_at, ago);
		o = json_pack("{s:I,s:s,s:s,s:s}", "id", (json_int_t)g.id, "title", web_game_title(g.game), "players",
			      players, "waited", ago);
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
