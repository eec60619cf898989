/* engine/health.c: what the store says about itself: liveness, counters, and whether a kept answer is current */
/* SPDX-License-Identifier: MIT */
#include "engine/health.h"

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
