/* store/copy.h: a whole site copied from one store to another (turnpost migrate-db) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_COPY_H
#define TURNPOST_STORE_COPY_H

#include <stdint.h>

#include "util/err.h"

struct store;

struct store_copy_stats {
	int tables;
	int64_t rows, users, games, moves;
};

/*
 * Copy every row of every table of from (users, tokens, games, seats,
 * moves with their snapshots, chat, idempotency answers, outbox, audit,
 * clocks, vacations, reply tokens, inbound mails, e-mail changes, push
 * subscriptions, the server's signing keys) into to, keeping every id:
 * one read transaction of from, one transaction of to, so to gets all of it
 * or nothing. Either may be SQLite or PostgreSQL. Refused: two schemas of
 * different versions (ERR_INPUT), a destination holding any row
 * (ERR_CONFLICT; the keys the destination's migrations made do not count,
 * and are replaced by the source's, so signed links stay valid). Each
 * table's count is compared after its copy. stats:
 * what was copied (zeroed on failure).
 */
int store_copy(struct store *from, struct store *to, struct store_copy_stats *stats, struct err *err);

#endif
