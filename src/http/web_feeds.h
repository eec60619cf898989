/* http/web_feeds.h: a user's private feeds: the Atom feed of games, the calendar of deadlines, and their token */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_FEEDS_H
#define TURNPOST_HTTP_WEB_FEEDS_H

#include <jansson.h>

#include "http/http.h"
#include "util/buf.h"

/*
 * GET /feeds/{token}/games.atom: the games waiting for the token's account
 * and its finished games, as Atom (RFC 4287). No sign-in: the feed token
 * is the authority, and it opens nothing but the feeds. 404 for any other
 * token (revoked, replaced, or one of another kind).
 */
void web_feeds_atom(struct http_request *rq, struct http_reply *r);
/* GET /feeds/{token}/deadlines.ics: the account's running turn deadlines as iCalendar (RFC 5545); 404 as above. */
void web_feeds_ics(struct http_request *rq, struct http_reply *r);
/*
 * POST /account/feed-token: a new feed token (replacing the one before),
 * whose links the page shows once; with action=revoke, revoke it and go
 * back to the account page.
 */
void web_feeds_token_post(struct http_request *rq, struct http_reply *r);
/* The account page's part: "feed": {"since"} when the account has a feed token (data borrowed, changed). */
void web_feeds_account(struct http_request *rq, json_t *data);

/* The Atom document of user_id's games (name: the account's, for the title) into out; 0 or a negative ERR_*. */
int web_feeds_atom_write(struct http_request *rq, int64_t user_id, const char *name, struct buf *out,
			 struct err *err);
/* The iCalendar document of user_id's deadlines into out; 0 or a negative ERR_*. */
int web_feeds_ics_write(struct http_request *rq, int64_t user_id, struct buf *out, struct err *err);

#endif
