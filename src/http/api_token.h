/* http/api_token.h: API tokens: make one, revoke one */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_TOKEN_H
#define TURNPOST_HTTP_API_TOKEN_H

#include "http/http.h"

void api_token_create(struct http_request *rq, struct http_reply *r);
void api_token_revoke_current(struct http_request *rq, struct http_reply *r);
void api_token_revoke(struct http_request *rq, struct http_reply *r);

#endif
