/* http/web_home.h: the home page */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_HOME_H
#define TURNPOST_HTTP_WEB_HOME_H

#include "http/http.h"

void web_home_show(struct http_request *rq, struct http_reply *r);

#endif
