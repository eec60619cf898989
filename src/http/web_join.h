/* http/web_join.h: taking an open seat */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_JOIN_H
#define TURNPOST_HTTP_WEB_JOIN_H

#include "http/http.h"

void web_join_post(struct http_request *rq, struct http_reply *r);
/*
 * The page of game id for someone who may only join it (ACCESS_JOIN): its
 * title, the seats' names and which are open, and the join button; not the
 * board, the chat or anyone's email.
 */
void web_join_page(struct http_request *rq, struct http_reply *r, int64_t id);

#endif
