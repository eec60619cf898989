/* http/web_history.h: a game's history page */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_HISTORY_H
#define TURNPOST_HTTP_WEB_HISTORY_H

#include "http/http.h"

void web_history_show(struct http_request *rq, struct http_reply *r);

#endif
