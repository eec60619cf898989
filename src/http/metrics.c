/* http/metrics.c: counters served at /metrics in Prometheus text format */
/* SPDX-License-Identifier: MIT */
#include "http/metrics.h"

#include <stdatomic.h>

#include "util/banned.h"

static atomic_ullong requests[6]; /* by status class 1xx..5xx; [0] other */
static atomic_ullong moves;

void metrics_count_request(int status)
{
	int cls = status / 100;

	atomic_fetch_add(&requests[cls >= 1 && cls <= 5 ? cls : 0], 1);
}

void metrics_count_moves(int applied)
{
	atomic_fetch_add(&moves, (unsigned long long)applied);
}

void metrics_render(struct buf *out)
{
	buf_adds(out, "# HELP turnpost_http_requests_total HTTP requests answered, by status class.\n"
		      "# TYPE turnpost_http_requests_total counter\n");
	for (int c = 1; c <= 5; c++)
		buf_addf(out, "turnpost_http_requests_total{class=\"%dxx\"} %llu\n", c,
			 (unsigned long long)atomic_load(&requests[c]));
	buf_adds(out, "# HELP turnpost_moves_total Game steps stored.\n# TYPE turnpost_moves_total counter\n");
	buf_addf(out, "turnpost_moves_total %llu\n", (unsigned long long)atomic_load(&moves));
}
