/* http/console_act.h: the admin console's JSON actions; every route is ROUTE_ADMIN */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_CONSOLE_ACT_H
#define TURNPOST_HTTP_CONSOLE_ACT_H

#include "http/http.h"

void console_act_rollback(struct http_request *rq, struct http_reply *r);
void console_act_seat(struct http_request *rq, struct http_reply *r);
void console_act_drop(struct http_request *rq, struct http_reply *r);
void console_act_extend(struct http_request *rq, struct http_reply *r);
void console_act_abort(struct http_request *rq, struct http_reply *r);
void console_act_import(struct http_request *rq, struct http_reply *r);
void console_act_resend(struct http_request *rq, struct http_reply *r);
void console_act_revoke(struct http_request *rq, struct http_reply *r);
void console_act_verify(struct http_request *rq, struct http_reply *r);
void console_act_outbox_resend(struct http_request *rq, struct http_reply *r);

#endif
