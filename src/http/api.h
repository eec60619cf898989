/* http/api.h: the JSON API v1 handlers (see docs/api.md) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_H
#define TURNPOST_HTTP_API_H

#include "http/http.h"

/* A player name: 1 to 80 characters, no control characters. */
int api_valid_name(const char *s);
/* An email address we accept: one @, no spaces or quoting, at most 254 characters. */
int api_valid_email(const char *s);
/* Whether a Prefer header value (RFC 7240) asks for return=minimal. */
int api_prefers_minimal(const char *v);

void api_healthz(struct http_request *rq, struct http_reply *r);
void api_metrics(struct http_request *rq, struct http_reply *r);
void api_catalog(struct http_request *rq, struct http_reply *r);
void api_me(struct http_request *rq, struct http_reply *r);
void api_token_create(struct http_request *rq, struct http_reply *r);
void api_token_revoke_current(struct http_request *rq, struct http_reply *r);
void api_token_revoke(struct http_request *rq, struct http_reply *r);
void api_games_list(struct http_request *rq, struct http_reply *r);
void api_games_create(struct http_request *rq, struct http_reply *r);
void api_game_get(struct http_request *rq, struct http_reply *r);
void api_game_legal(struct http_request *rq, struct http_reply *r);
void api_game_moves(struct http_request *rq, struct http_reply *r);
void api_game_move(struct http_request *rq, struct http_reply *r);
void api_prefs_get(struct http_request *rq, struct http_reply *r);
void api_prefs_put(struct http_request *rq, struct http_reply *r);
void api_vacation_get(struct http_request *rq, struct http_reply *r);
void api_vacation_post(struct http_request *rq, struct http_reply *r);
void api_admin_outbox(struct http_request *rq, struct http_reply *r);
void api_admin_outbox_resend(struct http_request *rq, struct http_reply *r);
void api_admin_export(struct http_request *rq, struct http_reply *r);
void api_admin_verify(struct http_request *rq, struct http_reply *r);

#endif
