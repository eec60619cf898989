/* http/console_form.h: the admin console's forms; every route is ROUTE_WEB | ROUTE_ADMIN */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_CONSOLE_FORM_H
#define TURNPOST_HTTP_CONSOLE_FORM_H

#include "http/http.h"

void console_form_rollback(struct http_request *rq, struct http_reply *r);
void console_form_seat(struct http_request *rq, struct http_reply *r);
void console_form_drop(struct http_request *rq, struct http_reply *r);
void console_form_extend(struct http_request *rq, struct http_reply *r);
void console_form_abort(struct http_request *rq, struct http_reply *r);
void console_form_verify(struct http_request *rq, struct http_reply *r);
void console_form_import(struct http_request *rq, struct http_reply *r);
void console_form_resend(struct http_request *rq, struct http_reply *r);
void console_form_revoke(struct http_request *rq, struct http_reply *r);

#endif
