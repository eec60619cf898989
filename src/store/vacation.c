/* store/vacation.c: players' vacations, which stop their clocks */
/* SPDX-License-Identifier: MIT */
#include "store/vacation.h"



#include "store/store_int.h"
#include "util/banned.h"

int store_vacation_add(struct store_conn *c, int64_t user_id, int64_t start, int64_t end, int64_t now,
		       struct err *err)
{
	static const char sql[] = "INSERT INTO vacations(user_id, start_at, end_at, created_at) VALUES (?,?,?,?)";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	store__bind_int64(st, 2, start);
	store__bind_int64(st, 3, end);
	store__bind_int64(st, 4, now);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "save vacation", err);
	return 0;
}

int store_vacation_end(struct store_conn *c, int64_t user_id, int64_t now, int *ended, struct err *err)
{
	/* a running vacation ends now; planned ones that have not begun are dropped */
	static const char sql[] = "UPDATE vacations SET end_at = max(start_at, ?2) WHERE user_id = ?1 AND end_at > ?2";
	static const char pg_sql[] =
		"UPDATE vacations SET end_at = GREATEST(start_at, ?2) WHERE user_id = ?1 AND end_at > ?2";
	struct store__st *st = store__stmt(c, STORE__SQL(c, sql, pg_sql), err);

	if (ended)
		*ended = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	store__bind_int64(st, 2, now);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "end vacation", err);
	if (ended)
		*ended = store__changes(c);
	return 0;
}

int store_vacation_summary(struct store_conn *c, int64_t user_id, int64_t from, int64_t to, int64_t now,
			   int64_t *used_ms, int64_t *cur_start, int64_t *cur_end, struct err *err)
{
	static const char sql[] =
		"SELECT coalesce(sum(max(0, min(end_at, ?3) - max(start_at, ?2))), 0),"
		" (SELECT max(start_at) FROM vacations WHERE user_id = ?1 AND start_at <= ?4 AND end_at > ?4),"
		" (SELECT max(end_at) FROM vacations WHERE user_id = ?1 AND start_at <= ?4 AND end_at > ?4)"
		" FROM vacations WHERE user_id = ?1";
	static const char pg_sql[] =
		"SELECT coalesce(sum(GREATEST(0, LEAST(end_at, ?3) - GREATEST(start_at, ?2))), 0),"
		" (SELECT max(start_at) FROM vacations WHERE user_id = ?1 AND start_at <= ?4 AND end_at > ?4),"
		" (SELECT max(end_at) FROM vacations WHERE user_id = ?1 AND start_at <= ?4 AND end_at > ?4)"
		" FROM vacations WHERE user_id = ?1";
	struct store__st *st = store__stmt(c, STORE__SQL(c, sql, pg_sql), err);

	*used_ms = 0;
	*cur_start = 0;
	*cur_end = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	store__bind_int64(st, 2, from);
	store__bind_int64(st, 3, to);
	store__bind_int64(st, 4, now);
	if (store__step(st) != STORE__ROW)
		return store__fail(c, "read vacations", err);
	*used_ms = store__col_int64(st, 0);
	*cur_start = store__col_int64(st, 1);
	*cur_end = store__col_int64(st, 2);
	store__reset(st);
	return 0;
}
