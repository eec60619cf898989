/* http/web_join.c: taking an open seat from the game page */
/* SPDX-License-Identifier: MIT */
#include "http/web_join.h"

#include <stdio.h>

#include "engine/join.h"
#include "engine/views.h"
#include "http/web.h"
#include "util/banned.h"

void web_join_post(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct err e = {0};
	char path[48];
	int seat, rc;

	if ((rc = join_game(http_store(rq), id, rq->sess.user_id, &seat, &e)) < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	http_reply_redirect(r, path);
}

void web_join_page(struct http_request *rq, struct http_reply *r, int64_t id)
{
	struct err e = {0};
	json_t *g = NULL, *game, *seats = json_array(), *s;
	char title[96];
	size_t i;

	/* a spectator's answer without emails, of which only the title and the seats' names are shown */
	if (views_game_json(http_store(rq), id, -1, 0, &g, &e) < 0) {
		json_decref(seats);
		web_error_page(rq, r, e.code == ERR_NOTFOUND ? 404 : 500, e.code == ERR_NOTFOUND ? "No such game." : e.msg);
		return;
	}
	json_array_foreach(json_object_get(g, "seats"), i, s)
		json_array_append_new(seats, json_pack("{s:O,s:b}", "name", json_object_get(s, "name"), "open",
						       json_is_true(json_object_get(s, "open"))));
	game = json_pack("{s:O,s:O,s:o}", "id", json_object_get(g, "id"), "title", json_object_get(g, "title"), "seats",
			 seats);
	snprintf(title, sizeof(title), "%s #%lld", json_string_value(json_object_get(g, "title")), (long long)id);
	json_decref(g);
	web_render(rq, r, 200, "game_join", title, json_pack("{s:o}", "game", game));
}
