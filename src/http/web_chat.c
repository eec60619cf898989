/* http/web_chat.c: a game's chat: writing from the game page */
/* SPDX-License-Identifier: MIT */
#include "http/web_chat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/play.h"
#include "http/form.h"
#include "http/web.h"
#include "http/web_game.h"
#include "util/clock.h"
#include "util/banned.h"

#define CHAT_MAX 1000

void web_chat_post(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	const char *text = form_get(rq->form, "text");
	struct store_seat *seats = NULL;
	struct store_game g;
	struct store_conn *c;
	struct err e = {0};
	char path[48];
	int seat = rq->seat, nseats = 0, rc;
	size_t len = text ? strlen(text) : 0;

	/* a signed-in player of this game (routes.h: ROUTE_USER | ROUTE_SEAT | ROUTE_PLAYER) */
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	if (!len || len > CHAT_MAX) {
		web_game_page(rq, r, id, 400, json_pack("{s:s}", "detail", "A chat message is 1 to 1000 characters."), NULL);
		return;
	}
	if ((rc = play_game_info(http_store(rq), id, &g, &seats, &nseats, &e)) == 0 &&
	    (rc = store_write_begin(http_store(rq), &c, &e)) == 0) {
		char *msg = strndup(text, len);
		int64_t now = clock_now_ms();
		rc = store_chat_add(c, id, seat, rq->sess.user_id, msg, now, &e);
		for (int i = 0; rc == 0 && i < nseats; i++)
			if (seats[i].user_id && seats[i].user_id != rq->sess.user_id)
				rc = store_outbox_add(c, "chat", id, seats[i].seat, seats[i].user_id, NULL, now, NULL, &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
		free(msg);
	}
	store_seats_free(seats, nseats);
	store_game_release(&g);
	if (rc < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	http_reply_redirect(r, path);
}
