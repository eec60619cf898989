/* store/stats.h: how much the database holds right now, for /metrics (store/stats.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_STATS_H
#define TURNPOST_STORE_STATS_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

struct store_stats {
	int64_t outbox_pending;  /* notifications waiting to go out (not those kept for a digest) */
	int64_t outbox_oldest;   /* when the oldest of them was queued (ms); 0 when none */
	int64_t outbox_dead;     /* notifications dead-lettered and not sent again */
	int64_t games_active;    /* games being played */
};

/* One read of the numbers above. */
int store_stats_get(struct store_conn *c, struct store_stats *out, struct err *err);

#endif
