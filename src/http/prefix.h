/* http/prefix.h: a base URL with a path (https://host/turnpost): requests with or without it, links with it (http/prefix.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_PREFIX_H
#define TURNPOST_HTTP_PREFIX_H

#include <stddef.h>

#include "util/buf.h"
#include "util/err.h"

/*
 * The path of base_url ("/turnpost" of https://host/turnpost/; "" when it
 * has none) into out. ERR_INPUT when the path holds a query, a fragment or
 * characters a path segment should not, or when its first segment is also
 * the first segment of a route ("/games", "/api", ...): a request for
 * /games/1 could then not be told from one for /games/1 under the prefix.
 */
int prefix_from_base_url(const char *base_url, char *out, size_t size, struct err *err);
/*
 * The path a request names inside the server: path without the prefix when
 * it starts with it (a proxy that keeps the prefix), path as it is
 * otherwise (a proxy that strips it, or a client on the listening port).
 */
const char *prefix_strip(const char *prefix, const char *path);
/* A Location (or other link) in loc with the prefix put before it when it is a path ("/..."), in place. */
void prefix_path(const char *prefix, char *loc, size_t size);
/*
 * An HTML page's links with the prefix: every href, src, action and
 * formaction whose value is a path on this server ("/..." but not "//...")
 * gets it put before the path. Nothing else changes.
 */
void prefix_html(const char *prefix, struct buf *html);

#endif
