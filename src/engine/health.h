/* engine/health.h: what the store says about itself: liveness, counters, and whether a kept answer is current */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_HEALTH_H
#define TURNPOST_ENGINE_HEALTH_H

#include <stdint.h>

#include "store/store.h"
#include "store/stats.h"
#include "util/err.h"

/* The database answers (a cheap query): 0 and *schema (the applied migration), else the store's error (*schema 0). */
int health_check(struct store *s, int *schema, struct err *err);

/*
 * Whether the server does its job, beyond answering: delivery of
 * notifications. problems gets one sentence per trouble ("3 notifications
 * were dead-lettered in the last 24 hours"), empty when none. The store's
 * error when the database does not answer (then nothing else is known).
 */
#define HEALTH_DEAD_WINDOW_MS (24 * 3600 * 1000LL)
struct health_status {
	int schema;
	int dead_recent;        /* notifications dead-lettered in the last HEALTH_DEAD_WINDOW_MS */
	int failing;            /* notifications still pending after a failed attempt */
	int64_t failing_for_ms; /* since the oldest of those was queued */
	char problems[2][160];
	int nproblems;
};
int health_status(struct store *s, int64_t now, int64_t failing_after_ms, struct health_status *out,
		  struct err *err);

/* What the database holds now (outbox, dead letters, active games), for /metrics. The store's error. */
int health_gauges(struct store *s, struct store_stats *out, struct err *err);

/* Counters since the store was opened, for /metrics. */
struct health_counters {
	uint64_t group_commits;  /* commits of transactions shared by concurrent moves */
	uint64_t grouped_writes; /* moves committed in them */
	uint64_t syncs;          /* syncs of the log to disk */
	uint64_t checkpoints;    /* background checkpoints */
	uint64_t head_hits;      /* reads of a game's latest step from memory */
	uint64_t head_misses;    /* ... and from the database */
};
void health_counters(struct store *s, struct health_counters *out);

/*
 * For caches of answers computed from the database: a key unique to this
 * store in this process, the data version (changes with every committed
 * change, by anyone), and whether every commit so far is on disk (an answer
 * read before that may still be taken back).
 */
uint64_t health_store_key(struct store *s);
int health_data_version(struct store *s, uint64_t *version, struct err *err);
int health_synced(struct store *s);

#endif
