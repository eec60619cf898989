/* http/api_game.h: one game: state, legal steps, steps so far */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_GAME_H
#define TURNPOST_HTTP_API_GAME_H

#include "http/http.h"

void api_game_get(struct http_request *rq, struct http_reply *r);
void api_game_legal(struct http_request *rq, struct http_reply *r);
void api_game_moves(struct http_request *rq, struct http_reply *r);

#endif
