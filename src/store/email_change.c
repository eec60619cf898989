/* store/email_change.c: an account's new email address, waiting for the link sent to it */
/* SPDX-License-Identifier: MIT */
#include "store/email_change.h"

#include <stdio.h>
#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

int store_email_change_put(struct store_conn *c, int64_t user_id, const char *email, int64_t now, struct err *err)
{
	/* an upsert both backends word the same: a newer request replaces the older one and its link */
	static const char sql[] = "INSERT INTO email_changes(user_id, email, hash, created_at, expires_at)"
				  " VALUES (?, ?, NULL, ?, NULL) ON CONFLICT (user_id) DO UPDATE SET email = excluded.email,"
				  " hash = NULL, created_at = excluded.created_at, expires_at = NULL";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	store__bind_text(st, 2, email);
	store__bind_int64(st, 3, now);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "save email change", err);
	return 0;
}

static void row(struct store__st *st, struct store_email_change *out)
{
	const char *e = store__col_text(st, 1);

	out->user_id = store__col_int64(st, 0);
	snprintf(out->email, sizeof(out->email), "%s", e ? e : "");
	out->created_at = store__col_int64(st, 2);
	out->expires_at = store__col_int64(st, 3);
}

int store_email_change_get(struct store_conn *c, int64_t user_id, struct store_email_change *out, struct err *err)
{
	static const char sql[] =
		"SELECT user_id, email, created_at, coalesce(expires_at, 0) FROM email_changes WHERE user_id = ?";
	struct store__st *st = store__stmt(c, sql, err);
	int r;

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	if ((r = store__step(st)) == STORE__ROW) {
		row(st, out);
		/* a statement left on a row would hold its read transaction open */
		store__reset(st);
		return 0;
	}
	if (r != STORE__DONE)
		return store__fail(c, "read email change", err);
	return err_set(err, ERR_NOTFOUND, "no email change is waiting");
}

int store_email_change_link(struct store_conn *c, int64_t user_id, const char *email, const unsigned char hash[32],
			    int64_t expires_at, struct err *err)
{
	static const char sql[] =
		"UPDATE email_changes SET hash = ?, expires_at = ? WHERE user_id = ? AND email = ?";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_blob(st, 1, hash, 32);
	store__bind_int64(st, 2, expires_at);
	store__bind_int64(st, 3, user_id);
	store__bind_text(st, 4, email);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "save email change link", err);
	if (store__changes(c) != 1)
		return err_set(err, ERR_NOTFOUND, "this email change was replaced or is done");
	return 0;
}

int store_email_change_by_hash(struct store_conn *c, const unsigned char hash[32], int64_t now,
			       struct store_email_change *out, struct err *err)
{
	static const char sql[] = "SELECT user_id, email, created_at, coalesce(expires_at, 0) FROM email_changes"
				  " WHERE hash = ? AND expires_at > ?";
	struct store__st *st = store__stmt(c, sql, err);
	int r;

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	store__bind_blob(st, 1, hash, 32);
	store__bind_int64(st, 2, now);
	if ((r = store__step(st)) == STORE__ROW) {
		row(st, out);
		/* a statement left on a row would hold its read transaction open */
		store__reset(st);
		return 0;
	}
	if (r != STORE__DONE)
		return store__fail(c, "read email change", err);
	return err_set(err, ERR_NOTFOUND, "this link has expired or was replaced");
}

int store_email_change_drop(struct store_conn *c, int64_t user_id, struct err *err)
{
	static const char sql[] = "DELETE FROM email_changes WHERE user_id = ?";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "drop email change", err);
	return 0;
}
