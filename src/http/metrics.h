/* http/metrics.h: counters served at /metrics in Prometheus text format */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_METRICS_H
#define TURNPOST_HTTP_METRICS_H

#include "util/buf.h"

struct store;

void metrics_count_request(int status);
void metrics_count_moves(int applied);
/* A request answered in ms milliseconds; route is the matched pattern (NULL: none). */
void metrics_observe_request(const char *method, const char *route, double ms);
/* An inbound email's outcome ("accepted", ..., "duplicate", "not_an_email", "unauthorized"). */
void metrics_count_inbound(const char *outcome);
/*
 * May this client read /metrics? allow (addresses and ranges, as
 * --trusted-proxy) and token (a Bearer token) each restrict when set. 0 when
 * it may, 403 (not from an allowed address) or 401 (no or a wrong token).
 */
int metrics_access(const char *client, const char *authorization, const char *allow, const char *token);
/* Append the exposition text; with the store's commit and sync counters unless store is NULL. */
void metrics_render(struct buf *out, struct store *store);

#endif
