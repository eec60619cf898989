/* http/web_signin.h: signing in and out: email links, seat links, sign-out */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_SIGNIN_H
#define TURNPOST_HTTP_WEB_SIGNIN_H

#include "http/http.h"

void web_signin_form(struct http_request *rq, struct http_reply *r);
void web_signin_send(struct http_request *rq, struct http_reply *r);
void web_signin_confirm(struct http_request *rq, struct http_reply *r);
void web_signin_use(struct http_request *rq, struct http_reply *r);
void web_signin_seat_link(struct http_request *rq, struct http_reply *r);
void web_signin_seat_switch(struct http_request *rq, struct http_reply *r);
void web_signin_out(struct http_request *rq, struct http_reply *r);

#endif
