/* engine/health.c: what the store says about itself: liveness, counters, and whether a kept answer is current */
/* SPDX-License-Identifier: MIT */
#include "engine/health.h"

#include <stdio.h>
#include <string.h>

#include "util/banned.h"

int health_check(struct store *s, int *schema, struct err *err)
{
	int rc;

	*schema = 0;
	if ((rc = store_ping(s, err)) < 0)
		return rc;
	*schema = store_schema_version(s);
	return 0;
}

int health_status(struct store *s, int64_t now, int64_t failing_after_ms, struct health_status *out,
		  struct err *err)
{
	struct store_outbox_health oh;
	struct store_conn *c;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = health_check(s, &out->schema, err)) < 0)
		return rc;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_outbox_health(c, now - HEALTH_DEAD_WINDOW_MS, &oh, err);
	store_read_release(c);
	if (rc < 0)
		return rc;
	out->dead_recent = oh.dead_recent;
	out->failing = oh.failing;
	out->failing_for_ms = oh.failing ? now - oh.failing_since : 0;
	if (out->dead_recent)
		snprintf(out->problems[out->nproblems++], sizeof(out->problems[0]),
			 "%d notification%s dead-lettered in the last 24 hours (turnpost outbox list --dead)",
			 out->dead_recent, out->dead_recent == 1 ? " was" : "s were");
	if (out->failing && out->failing_for_ms >= failing_after_ms)
		snprintf(out->problems[out->nproblems++], sizeof(out->problems[0]),
			 "delivery has failed for %lld minute%s (%d notification%s waiting for a retry)",
			 (long long)(out->failing_for_ms / 60000), out->failing_for_ms / 60000 == 1 ? "" : "s",
			 out->failing, out->failing == 1 ? "" : "s");
	return 0;
}

int health_gauges(struct store *s, struct store_stats *out, struct err *err)
{
	struct store_conn *c;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_stats_get(c, out, err);
	store_read_release(c);
	return rc;
}

void health_counters(struct store *s, struct health_counters *out)
{
	memset(out, 0, sizeof(*out));
	store_write_group_stats(s, &out->group_commits, &out->grouped_writes);
	out->syncs = store_sync_count(s);
	out->checkpoints = store_checkpoint_count(s);
	store_game_head_stats(s, &out->head_hits, &out->head_misses);
}

uint64_t health_store_key(struct store *s)
{
	return store_id(s);
}

int health_data_version(struct store *s, uint64_t *version, struct err *err)
{
	int rc = store_data_version(s, version, err);

	if (rc < 0)
		*version = 0;
	return rc;
}

int health_synced(struct store *s)
{
	return store_synced(s);
}
