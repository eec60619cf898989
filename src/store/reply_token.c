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
static struct store__st *prepare(struct store_conn *c, const char *sql, struct err *err)
{
	return store__prepare(c, sql, err);
}

/* Step a statement that returns no rows, then finalize it. */
static int run(struct store_conn *c, struct store__st *st, const char *what, struct err *err)
{
	int rc = 0;

	if (store__step(st) != STORE__DONE)
		rc = store__fail(c, what, err);
	store__finalize(st);
	return rc;
}

int store_reply_token_add(struct store_conn *c, const unsigned char hash[32], int64_t game_id, int seat,
			  int64_t user_id, int64_t now, int64_t expires_at, int64_t *id, struct err *err)
{
	struct store__st *st = prepare(c,
				   "INSERT INTO reply_tokens(hash, game_id, seat, user_id, created_at, expires_at)"
				   " VALUES (?, ?, ?, ?, ?, ?)",
				   err);
	int rc;

	if (id)
		*id = 0;
	if (!st)
		return ERR_STORE;
	store__bind_blob(st, 1, hash, 32);
	store__bind_int64(st, 2, game_id);
	store__bind_int(st, 3, seat);
	store__bind_int64(st, 4, user_id);
	store__bind_int64(st, 5, now);
	store__bind_int64(st, 6, expires_at);
	if ((rc = run(c, st, "add reply token", err)) == 0 && id)
		*id = store__last_id(c);
	return rc;
}

int store_reply_token_get(struct store_conn *c, const unsigned char hash[32], struct store_reply_token *out,
			  struct err *err)
{
	struct store__st *st = prepare(c,
				   "SELECT id, game_id, seat, user_id, created_at, expires_at, coalesce(revoked_at, 0), hash"
				   " FROM reply_tokens WHERE hash = ?",
				   err);
	int r, rc = 0;

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	store__bind_blob(st, 1, hash, 32);
	r = store__step(st);
	if (r == STORE__ROW && store__col_bytes(st, 7) == 32 && token_hash_equal(store__col_blob(st, 7), hash)) {
		out->id = store__col_int64(st, 0);
		out->game_id = store__col_int64(st, 1);
		out->seat = store__col_int(st, 2);
		out->user_id = store__col_int64(st, 3);
		out->created_at = store__col_int64(st, 4);
		out->expires_at = store__col_int64(st, 5);
		out->revoked_at = store__col_int64(st, 6);
	} else if (r == STORE__ROW || r == STORE__DONE) {
		rc = err_set(err, ERR_NOTFOUND, "no such reply address");
	} else {
		rc = store__fail(c, "find reply token", err);
	}
	store__finalize(st);
	return rc;
}

int store_reply_token_prune(struct store_conn *c, int64_t before, int *count, struct err *err)
{
	struct store__st *st = prepare(c, "DELETE FROM reply_tokens WHERE expires_at < ?", err);
	int rc;

	if (count)
		*count = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, before);
	rc = run(c, st, "prune reply tokens", err);
	if (rc == 0 && count)
		*count = store__changes(c);
	return rc;
}

int store_reply_token_revoke_seat(struct store_conn *c, int64_t game_id, int seat, int64_t now, struct err *err)
{
	struct store__st *st = prepare(c,
				   "UPDATE reply_tokens SET revoked_at = ? WHERE game_id = ? AND (? < 0 OR seat = ?)"
				   " AND revoked_at IS NULL",
				   err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, now);
	store__bind_int64(st, 2, game_id);
	store__bind_int(st, 3, seat);
	store__bind_int(st, 4, seat);
	return run(c, st, "revoke reply tokens", err);
}
