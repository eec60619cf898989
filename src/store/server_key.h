/* store/server_key.h: the server's own signing keys (store/server_key.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_SERVER_KEY_H
#define TURNPOST_STORE_SERVER_KEY_H

#include "util/err.h"

struct store_conn;

#define STORE_SERVER_KEY_LEN 32

/*
 * The 32-byte secret named name ("unsubscribe"), made by the migrations.
 * ERR_NOTFOUND when there is no such key (key zeroed).
 */
int store_server_key_get(struct store_conn *c, const char *name, unsigned char key[STORE_SERVER_KEY_LEN],
			 struct err *err);

#endif
