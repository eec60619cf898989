/* store/retention.h: pruning what the server keeps only for a while (store/retention.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_RETENTION_H
#define TURNPOST_STORE_RETENTION_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

/* What store_retention_prune deletes: rows that nothing replays, verifies or delivers any more. */
enum store_retention_kind {
	STORE_RETAIN_IDEMPOTENCY, /* stored answers to Idempotency-Key requests, by when they were stored */
	STORE_RETAIN_OUTBOX,      /* notifications sent or skipped (never pending or dead ones), by their last due time */
	STORE_RETAIN_INBOUND,     /* the Message-IDs of handled inbound mails, by when they were handled */
};

/*
 * Delete at most max rows of kind older than before (ms since the epoch), in
 * the caller's write transaction; *count gets how many went. Small batches
 * keep the writer free for moves between them.
 */
int store_retention_prune(struct store_conn *c, enum store_retention_kind kind, int64_t before, int max, int *count,
			  struct err *err);

#endif
