/* http/web_new_game.h: the new-game page */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_NEW_GAME_H
#define TURNPOST_HTTP_WEB_NEW_GAME_H

#include "http/http.h"

void web_new_game_form(struct http_request *rq, struct http_reply *r);
void web_new_game_create(struct http_request *rq, struct http_reply *r);

#endif
