/* store/reply_token.c: reply tokens: the secret of a play-by-email reply address */
/* SPDX-License-Identifier: MIT */
#include "store/reply_token.h"

#include <string.h>

#include "util/token.h"

#include "store/store_int.h"
#include "util/banned.h"

/*
 * These statements run a few times per email, so they are prepared per call
 * rather than taking slots of the connection's statement cache.
 */
static sqlite3_stmt *prepare(struct store_conn *c, const char *sql, struct err *err)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
		store__fail(c, "prepare", err);
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* Step a statement that returns no rows, then finalize it. */
static int run(struct store_conn *c, sqlite3_stmt *st, const char *what, struct err *err)
{
	int rc = 0;

	if (sqlite3_step(st) != SQLITE_DONE)
		rc = store__fail(c, what, err);
	sqlite3_finalize(st);
	return rc;
}

int store_reply_token_add(struct store_conn *c, const unsigned char hash[32], int64_t game_id, int seat,
			  int64_t user_id, int64_t now, int64_t expires_at, int64_t *id, struct err *err)
{
	sqlite3_stmt *st = prepare(c,
				   "INSERT INTO reply_tokens(hash, game_id, seat, user_id, created_at, expires_at)"
				   " VALUES (?, ?, ?, ?, ?, ?)",
				   err);
	int rc;

	if (id)
		*id = 0;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_blob(st, 1, hash, 32, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, game_id);
	sqlite3_bind_int(st, 3, seat);
	sqlite3_bind_int64(st, 4, user_id);
	sqlite3_bind_int64(st, 5, now);
	sqlite3_bind_int64(st, 6, expires_at);
	if ((rc = run(c, st, "add reply token", err)) == 0 && id)
		*id = sqlite3_last_insert_rowid(c->db);
	return rc;
}

int store_reply_token_get(struct store_conn *c, const unsigned char hash[32], struct store_reply_token *out,
			  struct err *err)
{
	sqlite3_stmt *st = prepare(c,
				   "SELECT id, game_id, seat, user_id, created_at, expires_at, coalesce(revoked_at, 0), hash"
				   " FROM reply_tokens WHERE hash = ?",
				   err);
	int r, rc = 0;

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	sqlite3_bind_blob(st, 1, hash, 32, SQLITE_TRANSIENT);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW && sqlite3_column_bytes(st, 7) == 32 && token_hash_equal(sqlite3_column_blob(st, 7), hash)) {
		out->id = sqlite3_column_int64(st, 0);
		out->game_id = sqlite3_column_int64(st, 1);
		out->seat = sqlite3_column_int(st, 2);
		out->user_id = sqlite3_column_int64(st, 3);
		out->created_at = sqlite3_column_int64(st, 4);
		out->expires_at = sqlite3_column_int64(st, 5);
		out->revoked_at = sqlite3_column_int64(st, 6);
	} else if (r == SQLITE_ROW || r == SQLITE_DONE) {
		rc = err_set(err, ERR_NOTFOUND, "no such reply address");
	} else {
		rc = store__fail(c, "find reply token", err);
	}
	sqlite3_finalize(st);
	return rc;
}

int store_reply_token_prune(struct store_conn *c, int64_t before, int *count, struct err *err)
{
	sqlite3_stmt *st = prepare(c, "DELETE FROM reply_tokens WHERE expires_at < ?", err);
	int rc;

	if (count)
		*count = 0;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, before);
	rc = run(c, st, "prune reply tokens", err);
	if (rc == 0 && count)
		*count = sqlite3_changes(c->db);
	return rc;
}

int store_reply_token_revoke_seat(struct store_conn *c, int64_t game_id, int seat, int64_t now, struct err *err)
{
	sqlite3_stmt *st = prepare(c,
				   "UPDATE reply_tokens SET revoked_at = ? WHERE game_id = ? AND (? < 0 OR seat = ?)"
				   " AND revoked_at IS NULL",
				   err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, game_id);
	sqlite3_bind_int(st, 3, seat);
	sqlite3_bind_int(st, 4, seat);
	return run(c, st, "revoke reply tokens", err);
}
