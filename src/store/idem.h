/* store/idem.h: idempotency keys: the stored answer to a repeated request (store/idem.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_IDEM_H
#define TURNPOST_STORE_IDEM_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

/* The stored answer for (token, key): ERR_NOTFOUND when none. body is new. */
int store_idem_get(struct store_conn *c, int64_t token_id, const char *key, unsigned char hash[32],
		   int64_t *game_id, int *status, char **body, struct err *err);
int store_idem_put(struct store_conn *c, int64_t token_id, const char *key, const unsigned char hash[32],
		   int64_t game_id, int status, const char *body, int64_t now, struct err *err);

#endif
