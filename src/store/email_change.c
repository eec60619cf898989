/* store/email_change.c: an account's new email address, waiting for the link sent to it */
/* SPDX-License-Identifier: MIT */
#include "store/email_change.h"

#include <stdio.h>
#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

int store_email_change_put(struct store_conn *c, int64_t user_id, const char *email, int64_t now, struct err *err)
{
	static const char sql[] = "INSERT OR REPLACE INTO email_changes(user_id, email, hash, created_at, expires_at)"
				  " VALUES (?, ?, NULL, ?, NULL)";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, user_id);
	store__bind_text(st, 2, email);
	sqlite3_bind_int64(st, 3, now);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "save email change", err);
	return 0;
}

static void row(sqlite3_stmt *st, struct store_email_change *out)
{
	const unsigned char *e = sqlite3_column_text(st, 1);

	out->user_id = sqlite3_column_int64(st, 0);
	snprintf(out->email, sizeof(out->email), "%s", e ? (const char *)e : "");
	out->created_at = sqlite3_column_int64(st, 2);
	out->expires_at = sqlite3_column_int64(st, 3);
}

int store_email_change_get(struct store_conn *c, int64_t user_id, struct store_email_change *out, struct err *err)
{
	static const char sql[] =
		"SELECT user_id, email, created_at, coalesce(expires_at, 0) FROM email_changes WHERE user_id = ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	int r;

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, user_id);
	if ((r = sqlite3_step(st)) == SQLITE_ROW) {
		row(st, out);
		/* a statement left on a row would hold its read transaction open */
		sqlite3_reset(st);
		return 0;
	}
	if (r != SQLITE_DONE)
		return store__fail(c, "read email change", err);
	return err_set(err, ERR_NOTFOUND, "no email change is waiting");
}

int store_email_change_link(struct store_conn *c, int64_t user_id, const char *email, const unsigned char hash[32],
			    int64_t expires_at, struct err *err)
{
	static const char sql[] =
		"UPDATE email_changes SET hash = ?, expires_at = ? WHERE user_id = ? AND email = ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_blob(st, 1, hash, 32, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, expires_at);
	sqlite3_bind_int64(st, 3, user_id);
	store__bind_text(st, 4, email);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "save email change link", err);
	if (sqlite3_changes(c->db) != 1)
		return err_set(err, ERR_NOTFOUND, "this email change was replaced or is done");
	return 0;
}

int store_email_change_by_hash(struct store_conn *c, const unsigned char hash[32], int64_t now,
			       struct store_email_change *out, struct err *err)
{
	static const char sql[] = "SELECT user_id, email, created_at, coalesce(expires_at, 0) FROM email_changes"
				  " WHERE hash = ? AND expires_at > ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	int r;

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	sqlite3_bind_blob(st, 1, hash, 32, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	if ((r = sqlite3_step(st)) == SQLITE_ROW) {
		row(st, out);
		/* a statement left on a row would hold its read transaction open */
		sqlite3_reset(st);
		return 0;
	}
	if (r != SQLITE_DONE)
		return store__fail(c, "read email change", err);
	return err_set(err, ERR_NOTFOUND, "this link has expired or was replaced");
}

int store_email_change_drop(struct store_conn *c, int64_t user_id, struct err *err)
{
	static const char sql[] = "DELETE FROM email_changes WHERE user_id = ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, user_id);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "drop email change", err);
	return 0;
}
