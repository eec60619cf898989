/* http/api_games.h: the games list: list yours, create one */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_GAMES_H
#define TURNPOST_HTTP_API_GAMES_H

#include "http/http.h"

void api_games_list(struct http_request *rq, struct http_reply *r);
void api_games_create(struct http_request *rq, struct http_reply *r);

#endif
