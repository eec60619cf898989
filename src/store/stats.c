/* store/stats.c: how much the database holds right now, for /metrics */
/* SPDX-License-Identifier: MIT */
#include "store/stats.h"

#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

int store_stats_get(struct store_conn *c, struct store_stats *out, struct err *err)
{
	static const char sql[] =
		"SELECT (SELECT count(*) FROM outbox WHERE state = 'pending' AND digest = 0),"
		" (SELECT coalesce(min(created_at), 0) FROM outbox WHERE state = 'pending' AND digest = 0),"
		" (SELECT count(*) FROM outbox WHERE state = 'dead'),"
		" (SELECT count(*) FROM games WHERE status = 'active')";
	struct store__st *st = store__stmt(c, sql, err);

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	if (store__step(st) != STORE__ROW)
		return store__fail(c, "count the outbox and the games", err);
	out->outbox_pending = store__col_int64(st, 0);
	out->outbox_oldest = store__col_int64(st, 1);
	out->outbox_dead = store__col_int64(st, 2);
	out->games_active = store__col_int64(st, 3);
	store__reset(st);
	return 0;
}
