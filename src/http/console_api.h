/* http/console_api.h: the admin console's JSON reads; every route is ROUTE_ADMIN */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_CONSOLE_API_H
#define TURNPOST_HTTP_CONSOLE_API_H

#include "http/http.h"

void console_api_games(struct http_request *rq, struct http_reply *r);
void console_api_game(struct http_request *rq, struct http_reply *r);
void console_api_timeline(struct http_request *rq, struct http_reply *r);
void console_api_position(struct http_request *rq, struct http_reply *r);
void console_api_diff(struct http_request *rq, struct http_reply *r);
void console_api_notifications(struct http_request *rq, struct http_reply *r);
void console_api_chat(struct http_request *rq, struct http_reply *r);
void console_api_audit(struct http_request *rq, struct http_reply *r);
void console_api_outbox(struct http_request *rq, struct http_reply *r);
void console_api_export(struct http_request *rq, struct http_reply *r);

#endif
