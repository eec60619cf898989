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
	struct store__st *st = store__stmt(c, sql, err);
	int r;

	memset(hash, 0, 32);
	*game_id = 0;
	*status = 0;
	*body = NULL;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, token_id);
	store__bind_text(st, 2, key);
	r = store__step(st);
	if (r == STORE__DONE)
		return ERR_NOTFOUND;
	if (r != STORE__ROW)
		return store__fail(c, "idempotency lookup", err);
	if (store__col_bytes(st, 0) == 32)
		memcpy(hash, store__col_blob(st, 0), 32);
	else
		memset(hash, 0, 32);
	*game_id = store__col_int64(st, 1);
	*status = store__col_int(st, 2);
	*body = store__text(st, 3);
	store__reset(st);
	return 0;
}

int store_idem_put(struct store_conn *c, int64_t token_id, const char *key, const unsigned char hash[32],
		   int64_t game_id, int status, const char *body, int64_t now, struct err *err)
{
	static const char sql[] =
		"INSERT INTO idempotency(token_id, key, request_hash, game_id, status, body, created_at)"
		" VALUES (?,?,?,?,?,?,?)";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, token_id);
	store__bind_text(st, 2, key);
	store__bind_blob(st, 3, hash, 32);
	store__bind_int64(st, 4, game_id);
	store__bind_int(st, 5, status);
	store__bind_text(st, 6, body);
	store__bind_int64(st, 7, now);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "store idempotency key", err);
	return 0;
}
