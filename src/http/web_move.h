/* http/web_move.h: steps made from the game page's form */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_MOVE_H
#define TURNPOST_HTTP_WEB_MOVE_H

#include "http/http.h"

void web_move_post(struct http_request *rq, struct http_reply *r);

#endif
