/* notify/retention.h: the daemon's background pruning of what it keeps only for a while (notify/retention.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_NOTIFY_RETENTION_H
#define TURNPOST_NOTIFY_RETENTION_H

#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/* How long each kind is kept, in days; 0 keeps it for ever. */
struct retention_config {
	unsigned idempotency_days; /* stored answers to Idempotency-Key requests */
	unsigned outbox_days;      /* notifications sent or skipped (pending and dead ones stay) */
	unsigned inbound_days;     /* the Message-IDs of handled inbound mails */
	unsigned mail_files_days;  /* the .eml files the file transport wrote */
	const char *mail_dir;      /* where they are; NULL: none to prune */
	int64_t interval_ms;       /* between rounds; 0 means an hour */
	int64_t first_ms;          /* from the start to the first round; 0 means 2 s */
};

/* What one round pruned. */
struct retention_stats {
	int idempotency, outbox, inbound, mail_files;
};

/*
 * One round at now (ms since the epoch): the database's rows when leading
 * (under PostgreSQL one daemon at a time, the timer leader: store_lead), in
 * batches of their own transactions, and this process's mail files always
 * (each daemon writes its own). Rows of verify and replay (moves, snapshots,
 * games, seats, chat, clocks, audit) are never touched.
 */
int retention_run_once(struct store *s, const struct retention_config *cfg, int64_t now, int leading,
		       struct retention_stats *st, struct err *err);

struct retention;
/* Start the thread: a round first_ms after the start, then every interval_ms. Nothing kept: no thread, *out NULL. */
int retention_start(const struct retention_config *cfg, struct store *s, struct retention **out, struct err *err);
/* Stop the thread (a round in progress ends after its batch) and free. Accepts NULL. */
void retention_stop(struct retention *r);

#endif
