/* http/console_web.h: the admin console's list pages; every route is ROUTE_WEB | ROUTE_ADMIN */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_CONSOLE_WEB_H
#define TURNPOST_HTTP_CONSOLE_WEB_H

#include "http/http.h"

void console_web_index(struct http_request *rq, struct http_reply *r);
void console_web_audit(struct http_request *rq, struct http_reply *r);

#endif
