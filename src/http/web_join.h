/* http/web_join.h: taking an open seat */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_JOIN_H
#define TURNPOST_HTTP_WEB_JOIN_H

#include "http/http.h"

void web_join_post(struct http_request *rq, struct http_reply *r);

#endif
