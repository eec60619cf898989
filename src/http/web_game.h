/* http/web_game.h: the game page */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_GAME_H
#define TURNPOST_HTTP_WEB_GAME_H

#include "http/http.h"

/*
 * Render the game page of game id with status; error (stolen, may be NULL)
 * is shown inline, typed (may be NULL) refills the steps box.
 */
void web_game_page(struct http_request *rq, struct http_reply *r, int64_t id, int status, json_t *error,
		   const char *typed);

void web_game_show(struct http_request *rq, struct http_reply *r);
/* GET /games/{id}/steps: every legal step of the seat as a button, when the game page links to them. */
void web_game_steps(struct http_request *rq, struct http_reply *r);

#endif
