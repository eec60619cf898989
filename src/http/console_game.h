/* http/console_game.h: the admin console's game pages; every route is ROUTE_WEB | ROUTE_ADMIN */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_CONSOLE_GAME_H
#define TURNPOST_HTTP_CONSOLE_GAME_H

#include "http/http.h"

/* The admin page of game id with status; error and flash (may be NULL) are shown inline. */
void console_game_page(struct http_request *rq, struct http_reply *r, int64_t id, int status, const char *error,
		       const char *flash);

void console_game_show(struct http_request *rq, struct http_reply *r);
void console_game_step(struct http_request *rq, struct http_reply *r);
void console_game_export(struct http_request *rq, struct http_reply *r);

#endif
