/* store/server_key.c: the server's own signing keys */
/* SPDX-License-Identifier: MIT */
#include "store/server_key.h"

#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

int store_server_key_get(struct store_conn *c, const char *name, unsigned char key[STORE_SERVER_KEY_LEN],
			 struct err *err)
{
	struct store__st *st;
	int r, rc = 0;

	memset(key, 0, STORE_SERVER_KEY_LEN);
	/* read once per message composed and per unsubscribe: prepared per call, not cached */
	if (!(st = store__prepare(c, "SELECT secret FROM server_keys WHERE name = ?", err)))
		return ERR_STORE;
	store__bind_text(st, 1, name);
	r = store__step(st);
	if (r == STORE__ROW && store__col_bytes(st, 0) == STORE_SERVER_KEY_LEN)
		memcpy(key, store__col_blob(st, 0), STORE_SERVER_KEY_LEN);
	else if (r == STORE__ROW || r == STORE__DONE)
		rc = err_set(err, ERR_NOTFOUND, "no server key \"%s\"", name);
	else
		rc = store__fail(c, "read server key", err);
	store__finalize(st);
	return rc;
}
