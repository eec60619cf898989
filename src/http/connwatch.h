/* http/connwatch.h: time limits on a whole request: its headers, then its body, however slowly they trickle */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_CONNWATCH_H
#define TURNPOST_HTTP_CONNWATCH_H

#include "util/err.h"

/*
 * libmicrohttpd's connection timeout is an idle timeout: a client that
 * sends one byte every few seconds keeps a connection (and its slot under
 * --max-connections) for ever. The watch gives each request a deadline for
 * its headers (from the connection's start, or from the previous answer on
 * a kept-alive connection) and one for its body (from the end of the
 * headers); a connection past its deadline is shut down (shutdown(2): the
 * server then sees it end and closes it as usual). A request read whole has
 * no deadline while it is answered (a move waiting for its sync).
 */
struct connwatch;

/* Start the watch (a thread that looks every 250 ms). header_s, body_s: 0 means no limit. */
int connwatch_new(unsigned header_s, unsigned body_s, struct connwatch **out, struct err *err);
/* Stop and free. Accepts NULL. */
void connwatch_free(struct connwatch *w);

/* A connection on socket fd began: *ctx is its entry (the connection's socket context). */
void connwatch_started(struct connwatch *w, int fd, void **ctx);
/* It ended: the entry is freed and *ctx cleared. Accepts *ctx NULL. */
void connwatch_closed(struct connwatch *w, void **ctx);
/* The phases of the request on the connection of ctx (NULL: ignored). */
void connwatch_headers_read(struct connwatch *w, void *ctx);
void connwatch_request_read(struct connwatch *w, void *ctx);
void connwatch_answered(struct connwatch *w, void *ctx);
/* Connections shut down so far for missing a deadline (for tests and the log). */
unsigned long connwatch_cut(const struct connwatch *w);

#endif
