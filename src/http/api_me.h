/* http/api_me.h: your account: who you are, preferences, vacations */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_ME_H
#define TURNPOST_HTTP_API_ME_H

#include "http/http.h"

void api_me_get(struct http_request *rq, struct http_reply *r);
void api_me_prefs_get(struct http_request *rq, struct http_reply *r);
void api_me_prefs_put(struct http_request *rq, struct http_reply *r);
void api_me_vacation_get(struct http_request *rq, struct http_reply *r);
void api_me_vacation_post(struct http_request *rq, struct http_reply *r);

#endif
