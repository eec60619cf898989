/* store/idem.c: idempotency keys: the stored answer to a repeated request */
/* SPDX-License-Identifier: MIT */
#include "store/idem.h"

#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

int store_idem_get(struct store_conn *c, int64_t token_id, const char *key, unsigned char hash[32],
		   int64_t *game_id, int *status, char **body, struct err *err)
{
	static const char sql[] =
		"SELECT request_hash, game_id, status, body FROM idempotency WHERE token_id = ? AND key = ?";
	sqlite3_stmt *st = store__stmt(c, sql, err);
	int r;

	memset(hash, 0, 32);
	*game_id = 0;
	*status = 0;
	*body = NULL;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, token_id);
	store__bind_text(st, 2, key);
	r = sqlite3_step(st);
	if (r == SQLITE_DONE)
		return ERR_NOTFOUND;
	if (r != SQLITE_ROW)
		return store__fail(c, "idempotency lookup", err);
	if (sqlite3_column_bytes(st, 0) == 32)
		memcpy(hash, sqlite3_column_blob(st, 0), 32);
	else
		memset(hash, 0, 32);
	*game_id = sqlite3_column_int64(st, 1);
	*status = sqlite3_column_int(st, 2);
	*body = store__text(st, 3);
	sqlite3_reset(st);
	return 0;
}

int store_idem_put(struct store_conn *c, int64_t token_id, const char *key, const unsigned char hash[32],
		   int64_t game_id, int status, const char *body, int64_t now, struct err *err)
{
	static const char sql[] =
		"INSERT INTO idempotency(token_id, key, request_hash, game_id, status, body, created_at)"
		" VALUES (?,?,?,?,?,?,?)";
	sqlite3_stmt *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_int64(st, 1, token_id);
	store__bind_text(st, 2, key);
	sqlite3_bind_blob(st, 3, hash, 32, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, game_id);
	sqlite3_bind_int(st, 5, status);
	store__bind_text(st, 6, body);
	sqlite3_bind_int64(st, 7, now);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store__fail(c, "store idempotency key", err);
	return 0;
}
