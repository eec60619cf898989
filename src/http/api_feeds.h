/* http/api_feeds.h: the JSON API of your private feeds' token */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_FEEDS_H
#define TURNPOST_HTTP_API_FEEDS_H

#include "http/http.h"

/* GET /api/v1/me/feed-token: {"exists": bool, "created_at": ms or null}; never the token. */
void api_feeds_token_get(struct http_request *rq, struct http_reply *r);
/*
 * POST /api/v1/me/feed-token: a new feed token, replacing the one before:
 * 201 {"token","created_at","links":{"atom","ics"}}, shown this once.
 */
void api_feeds_token_post(struct http_request *rq, struct http_reply *r);
/* DELETE /api/v1/me/feed-token: revoke it (204; the feeds answer 404 from now on). */
void api_feeds_token_delete(struct http_request *rq, struct http_reply *r);

#endif
