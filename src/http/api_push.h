/* http/api_push.h: the JSON API of web push subscriptions (http/api_push.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_PUSH_H
#define TURNPOST_HTTP_API_PUSH_H

#include "http/http.h"

/* GET /api/v1/me/push-subscriptions: the VAPID public key and your browsers. */
void api_push_list(struct http_request *rq, struct http_reply *r);
/* POST /api/v1/me/push-subscriptions: a browser's PushSubscription.toJSON(), and an optional "label". */
void api_push_add(struct http_request *rq, struct http_reply *r);
/* DELETE /api/v1/me/push-subscriptions/{id}: stop notifying that browser. */
void api_push_remove(struct http_request *rq, struct http_reply *r);

#endif
