/* http/metrics.c: counters served at /metrics in Prometheus text format */
/* SPDX-License-Identifier: MIT */
#include "http/metrics.h"

#include <stdatomic.h>

#include "http/answers.h"
#include "engine/health.h"
#include "util/version.h"

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

void metrics_render(struct buf *out, struct store *store)
{
	struct health_counters hc;
	uint64_t hits = 0, misses = 0;

	/* the version as git describe or the release gives it: no quote or backslash to escape */
	buf_addf(out, "# HELP turnpost_build_info The running build: its version (git describe, or the release).\n"
		      "# TYPE turnpost_build_info gauge\nturnpost_build_info{version=\"%s\"} 1\n", version_text);
	buf_adds(out, "# HELP turnpost_http_requests_total HTTP requests answered, by status class.\n"
		      "# TYPE turnpost_http_requests_total counter\n");
	for (int c = 1; c <= 5; c++)
		buf_addf(out, "turnpost_http_requests_total{class=\"%dxx\"} %llu\n", c,
			 (unsigned long long)atomic_load(&requests[c]));
	buf_adds(out, "# HELP turnpost_moves_total Game steps stored.\n# TYPE turnpost_moves_total counter\n");
	buf_addf(out, "turnpost_moves_total %llu\n", (unsigned long long)atomic_load(&moves));
	answers_stats(&hits, &misses);
	buf_addf(out,
		 "# HELP turnpost_game_answers_total Game reads, by whether the kept answer was still current.\n"
		 "# TYPE turnpost_game_answers_total counter\n"
		 "turnpost_game_answers_total{kept=\"yes\"} %llu\n"
		 "turnpost_game_answers_total{kept=\"no\"} %llu\n",
		 (unsigned long long)hits, (unsigned long long)misses);
	if (!store)
		return;
	health_counters(store, &hc);
	buf_addf(out,
		 "# HELP turnpost_store_group_commits_total Commits of transactions shared by concurrent moves.\n"
		 "# TYPE turnpost_store_group_commits_total counter\n"
		 "turnpost_store_group_commits_total %llu\n"
		 "# HELP turnpost_store_grouped_writes_total Moves committed in shared transactions.\n"
		 "# TYPE turnpost_store_grouped_writes_total counter\n"
		 "turnpost_store_grouped_writes_total %llu\n"
		 "# HELP turnpost_store_syncs_total Syncs of the database's log to disk.\n"
		 "# TYPE turnpost_store_syncs_total counter\n"
		 "turnpost_store_syncs_total %llu\n"
		 "# HELP turnpost_store_checkpoints_total Checkpoints of the log into the database, in the background.\n"
		 "# TYPE turnpost_store_checkpoints_total counter\n"
		 "turnpost_store_checkpoints_total %llu\n",
		 (unsigned long long)hc.group_commits, (unsigned long long)hc.grouped_writes,
		 (unsigned long long)hc.syncs, (unsigned long long)hc.checkpoints);
	hits = hc.head_hits;
	misses = hc.head_misses;
	buf_addf(out,
		 "# HELP turnpost_store_head_reads_total Reads of a game's latest step, by whether it was remembered.\n"
		 "# TYPE turnpost_store_head_reads_total counter\n"
		 "turnpost_store_head_reads_total{remembered=\"yes\"} %llu\n"
		 "turnpost_store_head_reads_total{remembered=\"no\"} %llu\n",
		 (unsigned long long)hits, (unsigned long long)misses);
}
