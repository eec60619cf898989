/* http/api.h: the JSON API v1's shared parts (see docs/api.md); each group of routes has its api_*.c */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_H
#define TURNPOST_HTTP_API_H

#include "http/http.h"


/* Reply with the problem of an error code and its message. */
void api_reply_err(struct http_reply *r, int rc, const struct err *e);
/* Reply with an action's outcome: its error, or 200 with res (stolen). */
void api_reply_result(struct http_reply *r, int rc, const struct err *e, json_t *res);
/* Parse an entity tag "N" (also W/"N" or bare N); -1 when it is not one. */
int api_parse_etag(const char *v);
/* The ?seat= argument into *wanted (-1 when absent); replies 400 and returns -1 when malformed. */
int api_seat_query(struct http_request *rq, struct http_reply *r, int *wanted);
/*
 * Which seat of game id the caller acts as: a seat token's own seat; for an
 * account token the seat wanted (-1: the user's only seat). Admins without a
 * seat see as spectators (-1). Replies and returns <0 when the caller has no
 * business with this game.
 */
int api_seat_resolve(struct http_request *rq, struct http_reply *r, int64_t id, int wanted, int *seat,
		     int *with_emails);

#endif
