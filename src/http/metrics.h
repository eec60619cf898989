/* http/metrics.h: counters served at /metrics in Prometheus text format */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_METRICS_H
#define TURNPOST_HTTP_METRICS_H

#include "util/buf.h"

struct store;

void metrics_count_request(int status);
void metrics_count_moves(int applied);
/* Append the exposition text; with the store's commit and sync counters unless store is NULL. */
void metrics_render(struct buf *out, struct store *store);

#endif
