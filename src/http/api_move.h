/* http/api_move.h: moves: steps sent as JSON or text, all or nothing */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_MOVE_H
#define TURNPOST_HTTP_API_MOVE_H

#include "http/http.h"

/* Whether a Prefer header value (RFC 7240) asks for return=minimal. */
int api_move_prefers_minimal(const char *v);

void api_move_post(struct http_request *rq, struct http_reply *r);

#endif
