/* store/retention.c: pruning what the server keeps only for a while (idempotency answers, delivered notifications, inbound mails) */
/* SPDX-License-Identifier: MIT */
#include "store/retention.h"

#include "store/store_int.h"
#include "util/banned.h"

/*
 * Each statement deletes one batch found through an index (sql/010_retention.sql,
 * and outbox_due for the outbox): the writer is held for a batch, not a table
 * scan. Nothing here is read by verify, replay or export: the log, the
 * snapshots, the games, the chat and the audit log are never pruned.
 */
static const char *const prune_sql[] = {
	[STORE_RETAIN_IDEMPOTENCY] =
		"DELETE FROM idempotency WHERE (token_id, key) IN"
		" (SELECT token_id, key FROM idempotency WHERE created_at < ? ORDER BY created_at LIMIT ?)",
	[STORE_RETAIN_OUTBOX] =
		"DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE state = 'sent' AND next_at < ?1"
		" UNION ALL SELECT id FROM outbox WHERE state = 'skipped' AND next_at < ?1 LIMIT ?2)",
	[STORE_RETAIN_INBOUND] =
		"DELETE FROM inbound_mail WHERE message_id IN"
		" (SELECT message_id FROM inbound_mail WHERE created_at < ? ORDER BY created_at LIMIT ?)",
};

static const char *const prune_what[] = {
	[STORE_RETAIN_IDEMPOTENCY] = "prune idempotency answers",
	[STORE_RETAIN_OUTBOX] = "prune delivered notifications",
	[STORE_RETAIN_INBOUND] = "prune inbound mails",
};

int store_retention_prune(struct store_conn *c, enum store_retention_kind kind, int64_t before, int max, int *count,
			  struct err *err)
{
	struct store__st *st;

	*count = 0;
	if ((unsigned)kind > STORE_RETAIN_INBOUND)
		return err_set(err, ERR_INPUT, "no such kind of kept rows");
	if (!(st = store__stmt(c, prune_sql[kind], err)))
		return ERR_STORE;
	store__bind_int64(st, 1, before);
	store__bind_int(st, 2, max);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, prune_what[kind], err);
	*count = (int)store__changes(c);
	return 0;
}
