/* http/web_push.h: web push on the pages: the account page's browsers, the service worker (http/web_push.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_PUSH_H
#define TURNPOST_HTTP_WEB_PUSH_H

#include <jansson.h>
#include <stddef.h>

#include "http/http.h"

/* GET /sw.js: the service worker that shows the notifications (static/sw.js). */
void web_push_worker(struct http_request *rq, struct http_reply *r);
/* POST /account/push: this browser's subscription, from the account page's script (a form with its CSRF token). */
void web_push_add(struct http_request *rq, struct http_reply *r);
/* POST /account/push/{id}/remove: stop notifying one browser. */
void web_push_remove(struct http_request *rq, struct http_reply *r);
/*
 * The account page's data for templates/web/account_push.mustache, set on
 * data as "push": {"key", "subscriptions": [{"id", "label", "service",
 * "since", "last"}], "any"}. Nothing when the key cannot be read.
 */
void web_push_account_data(struct http_request *rq, json_t *data);
/* A short name for a browser from its User-Agent: "Firefox on Android"; "A browser" when unknown. */
void web_push_label(const char *user_agent, char *out, size_t size);

#endif
