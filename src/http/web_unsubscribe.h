/* http/web_unsubscribe.h: the one-click unsubscribe links of the emails (RFC 8058) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_UNSUBSCRIBE_H
#define TURNPOST_HTTP_WEB_UNSUBSCRIBE_H

#include "http/http.h"

/* GET /unsubscribe/{token}: the page: that kind of email is on or off now, a button to change it. Changes nothing. */
void web_unsubscribe_show(struct http_request *rq, struct http_reply *r);
/*
 * POST /unsubscribe/{token}: no sign-in, no CSRF token (the signed link is
 * the authority, and it can do nothing but this). The mail client's
 * one-click POST (List-Unsubscribe=One-Click) and the page's button turn
 * that kind off; the page's undo ("action=on") turns it back on.
 */
void web_unsubscribe_post(struct http_request *rq, struct http_reply *r);

#endif
