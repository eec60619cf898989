/* http/routes.h: the route table: method, path pattern, handler, flags */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_ROUTES_H
#define TURNPOST_HTTP_ROUTES_H

#include "http/http.h"

/*
 * What a route needs, declared once here and prepared by the dispatcher
 * before the handler runs (as tmux's cmd_entry declares a command's
 * arguments): a handler finds its body, reason and seat in the request and
 * repeats no checks. tests/http/test_admin.c walks the table and proves
 * every declaration refuses the same way on every route.
 */
enum route_flags {
	ROUTE_PUBLIC = 1 << 0, /* no token needed */
	ROUTE_AUTH = 1 << 1,   /* any valid token */
	ROUTE_ADMIN = 1 << 2,  /* an admin's account token (pages: an admin's session); 403 admin_only */
	ROUTE_BODY = 1 << 3,   /* reads a raw request body (ROUTE_JSON routes need not say it) */
	ROUTE_WEB = 1 << 4,    /* an HTML page: session cookie, and a POST must carry the form's CSRF token */
	ROUTE_UPLOAD = 1 << 5, /* the body (and a form field) may be up to ROUTE_UPLOAD_LIMIT: replay file imports */
	ROUTE_INBOUND = 1 << 6, /* inbound mail: the handler checks the shared secret itself (Authorization is no
				   turnpost token); the body may be up to http_config.inbound_body_limit */
	ROUTE_JSON = 1 << 7,   /* the body is a JSON object, parsed into rq->json; else 400 empty_body or
				  malformed_json */
	ROUTE_JSON_OPTIONAL = 1 << 8, /* with ROUTE_JSON: an empty body is fine (rq->json NULL) */
	ROUTE_TEXT = 1 << 9,   /* with ROUTE_JSON: a text/plain body is left as it is (rq->json NULL) */
	ROUTE_ACCOUNT = 1 << 10, /* an account token: a seat token, or one without a user, gets 403
				    account_token_needed */
	ROUTE_SEAT = 1 << 11,  /* ids[0] is a game: the caller's seat into rq->seat (API: ?seat= or the body's
				  "seat"; pages: ?seat= or the form's). API: 403/404 when the caller has no
				  business with the game; pages: 403 unless a player or an admin */
	ROUTE_PLAYER = 1 << 12, /* with ROUTE_SEAT: a spectator (an admin without a seat) gets 403 not_a_player */
	ROUTE_REASON = 1 << 13, /* an admin action: a reason (the form's "reason", the JSON body's "reason", else
				   ?reason=) is required and checked into rq->reason; else 400 bad_reason */
	ROUTE_REASON_OPTIONAL = 1 << 14, /* as ROUTE_REASON, but it may be missing */
	ROUTE_USER = 1 << 15,  /* a page for a signed-in user: others are sent to /signin (303) */
	ROUTE_SEAT_LINK = 1 << 16, /* a page of game ids[0] that a seat link's session of that game may use too
				     (playing, chat, history); everywhere else such a session is signed out */
	ROUTE_OWN_SECRET = 1 << 17 /* with ROUTE_PUBLIC: Authorization carries a secret the handler checks itself
				      (--metrics-token), no turnpost token */
};

/* The body limit of ROUTE_UPLOAD routes (when larger than the configured body limit). */
#define ROUTE_UPLOAD_LIMIT ((size_t)8 * 1024 * 1024)

typedef void (*route_handler)(struct http_request *rq, struct http_reply *reply);

struct route {
	const char *method;
	const char *pattern; /* "{id}" matches a positive decimal integer */
	route_handler handler;
	unsigned flags;
	const char *summary; /* one line for docs and 405/404 hints */
};

/* The static table, terminated by an entry with method NULL. */
extern const struct route routes[];

/*
 * Prepare what rt declares (see enum route_flags), after the dispatcher's
 * token, session, CSRF and admin checks: 0, or -1 with the refusal in r.
 * What it fills in rq is released with the request.
 */
int routes_prepare(const struct route *rt, struct http_request *rq, struct http_reply *r);

/*
 * Find the route for method and path, filling rq->ids. *path_known is set when
 * some route matches the path with another method (405 instead of 404).
 */
const struct route *routes_match(const char *method, const char *path, struct http_request *rq,
				 int *path_known);

#endif
