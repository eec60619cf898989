/* http/admin.h: the admin console: pages under /admin (admin_web.c) and the JSON API under /api/v1/admin/ (admin_api.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_ADMIN_H
#define TURNPOST_HTTP_ADMIN_H

#include "http/http.h"

/* ---- JSON API (docs/admin.md); every route is ROUTE_ADMIN ---- */
void admin_api_games(struct http_request *rq, struct http_reply *r);
void admin_api_game(struct http_request *rq, struct http_reply *r);
void admin_api_timeline(struct http_request *rq, struct http_reply *r);
void admin_api_position(struct http_request *rq, struct http_reply *r);
void admin_api_diff(struct http_request *rq, struct http_reply *r);
void admin_api_notifications(struct http_request *rq, struct http_reply *r);
void admin_api_chat(struct http_request *rq, struct http_reply *r);
void admin_api_rollback(struct http_request *rq, struct http_reply *r);
void admin_api_seat(struct http_request *rq, struct http_reply *r);
void admin_api_drop(struct http_request *rq, struct http_reply *r);
void admin_api_extend(struct http_request *rq, struct http_reply *r);
void admin_api_abort(struct http_request *rq, struct http_reply *r);
void admin_api_import(struct http_request *rq, struct http_reply *r);
void admin_api_resend(struct http_request *rq, struct http_reply *r);
void admin_api_revoke(struct http_request *rq, struct http_reply *r);
void admin_api_audit(struct http_request *rq, struct http_reply *r);

/* ---- pages; every route is ROUTE_WEB | ROUTE_ADMIN ---- */
void admin_web_index(struct http_request *rq, struct http_reply *r);
void admin_web_audit(struct http_request *rq, struct http_reply *r);
void admin_web_game(struct http_request *rq, struct http_reply *r);
void admin_web_step(struct http_request *rq, struct http_reply *r);
void admin_web_export(struct http_request *rq, struct http_reply *r);
void admin_web_rollback(struct http_request *rq, struct http_reply *r);
void admin_web_seat(struct http_request *rq, struct http_reply *r);
void admin_web_drop(struct http_request *rq, struct http_reply *r);
void admin_web_extend(struct http_request *rq, struct http_reply *r);
void admin_web_abort(struct http_request *rq, struct http_reply *r);
void admin_web_verify(struct http_request *rq, struct http_reply *r);
void admin_web_import(struct http_request *rq, struct http_reply *r);
void admin_web_resend(struct http_request *rq, struct http_reply *r);
void admin_web_revoke(struct http_request *rq, struct http_reply *r);

/* ---- shared by both ---- */

/* A non-negative integer argument: 0 and *out set, 1 when absent (out untouched), -1 when malformed. */
int admin_int_arg(const char *text, long max, long *out);

#endif
