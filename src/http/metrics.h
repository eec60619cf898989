/* http/metrics.h: counters served at /metrics in Prometheus text format */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_METRICS_H
#define TURNPOST_HTTP_METRICS_H

#include "util/buf.h"

void metrics_count_request(int status);
void metrics_count_moves(int applied);
/* Append the exposition text. */
void metrics_render(struct buf *out);

#endif
