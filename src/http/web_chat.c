/* http/web_chat.c: a game's chat: writing from the game page */
/* SPDX-License-Identifier: MIT */
#include "http/web_chat.h"

#include <stdio.h>

#include "engine/chat.h"
#include "http/form.h"
#include "http/web.h"
#include "http/web_game.h"
#include "util/clock.h"
#include "util/banned.h"

void web_chat_post(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct err e = {0};
	char path[48];
	int rc;

	/* a signed-in player of this game (routes.h: ROUTE_USER | ROUTE_SEAT | ROUTE_PLAYER) */
	snprintf(path, sizeof(path), "%lld:%d", (long long)id, rq->seat);
	if (http_limited(rq, r, RATELIMIT_CHAT, path, 1, 1))
		return;
	rc = chat_post(http_store(rq), id, rq->seat, rq->sess.user_id, form_get(rq->form, "text"), clock_now_ms(), &e);
	if (rc == ERR_INPUT) {
		web_game_page(rq, r, id, 400, json_pack("{s:s}", "detail", e.msg), NULL);
		return;
	}
	if (rc < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	http_reply_redirect(r, path);
}
