/* store/feed_token.c: each account's private feed token, stored as its hash */
/* SPDX-License-Identifier: MIT */
#include "store/feed_token.h"

#include "store/store_int.h"
#include "util/banned.h"

int store_feed_token_put(struct store_conn *c, int64_t user_id, const unsigned char hash[32], int64_t now,
			 struct err *err)
{
	/* an upsert both backends word the same: the new token replaces the old one */
	static const char sql[] = "INSERT INTO feed_tokens(user_id, hash, created_at) VALUES (?, ?, ?)"
				  " ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash,"
				  " created_at = excluded.created_at";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	store__bind_blob(st, 2, hash, 32);
	store__bind_int64(st, 3, now);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "save feed token", err);
	return 0;
}

int store_feed_token_get(struct store_conn *c, int64_t user_id, int64_t *created_at, struct err *err)
{
	static const char sql[] = "SELECT created_at FROM feed_tokens WHERE user_id = ?";
	struct store__st *st = store__stmt(c, sql, err);
	int r;

	*created_at = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	if ((r = store__step(st)) == STORE__ROW) {
		*created_at = store__col_int64(st, 0);
		/* a statement left on a row would hold its read transaction open */
		store__reset(st);
		return 0;
	}
	if (r != STORE__DONE)
		return store__fail(c, "read feed token", err);
	return err_set(err, ERR_NOTFOUND, "no feed token");
}

int store_feed_token_user(struct store_conn *c, const unsigned char hash[32], int64_t *user_id, struct err *err)
{
	static const char sql[] = "SELECT user_id FROM feed_tokens WHERE hash = ?";
	struct store__st *st = store__stmt(c, sql, err);
	int r;

	*user_id = 0;
	if (!st)
		return ERR_STORE;
	store__bind_blob(st, 1, hash, 32);
	if ((r = store__step(st)) == STORE__ROW) {
		*user_id = store__col_int64(st, 0);
		store__reset(st);
		return 0;
	}
	if (r != STORE__DONE)
		return store__fail(c, "read feed token", err);
	return err_set(err, ERR_NOTFOUND, "no such feed");
}

int store_feed_token_drop(struct store_conn *c, int64_t user_id, struct err *err)
{
	static const char sql[] = "DELETE FROM feed_tokens WHERE user_id = ?";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "drop feed token", err);
	return 0;
}
