/* http/routes.h: the route table: method, path pattern, handler, flags */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_ROUTES_H
#define TURNPOST_HTTP_ROUTES_H

#include "http/http.h"

enum route_flags {
	ROUTE_PUBLIC = 1 << 0, /* no token needed */
	ROUTE_AUTH = 1 << 1,   /* any valid token */
	ROUTE_ADMIN = 1 << 2,  /* an admin's account token */
	ROUTE_BODY = 1 << 3,   /* reads a request body */
	ROUTE_WEB = 1 << 4,    /* an HTML page: session cookie, and a POST must carry the form's CSRF token */
	ROUTE_UPLOAD = 1 << 5, /* the body (and a form field) may be up to ROUTE_UPLOAD_LIMIT: replay file imports */
	ROUTE_INBOUND = 1 << 6 /* inbound mail: the handler checks the shared secret itself (Authorization is no
				  turnpost token); the body may be up to http_config.inbound_body_limit */
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
 * Find the route for method and path, filling rq->ids. *path_known is set when
 * some route matches the path with another method (405 instead of 404).
 */
const struct route *routes_match(const char *method, const char *path, struct http_request *rq,
				 int *path_known);

#endif
