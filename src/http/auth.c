/* http/auth.c: who is asking: bearer tokens */
/* SPDX-License-Identifier: MIT */
#include "http/auth.h"

#include <string.h>
#include <strings.h>

#include "store/store.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

int auth_request(const struct http_request *rq, struct http_auth *out, struct err *err)
{
	const char *h = http_header(rq, "Authorization");
	struct store_conn *c;
	struct store_token t;
	unsigned char hash[32];
	int rc;

	memset(out, 0, sizeof(*out));
	out->seat = -1;
	if (!h)
		return err_set(err, ERR_UNAUTH, "this needs a token: send \"Authorization: Bearer TOKEN\"");
	if (strncasecmp(h, "Bearer ", 7) != 0)
		return err_set(err, ERR_UNAUTH, "the Authorization header must be \"Bearer TOKEN\"");
	h += 7;
	while (*h == ' ')
		h++;
	if (token_hash(h, hash) < 0)
		return err_set(err, ERR_UNAUTH, "that is not a turnpost token");
	if ((rc = store_read_acquire(http_store(rq), &c, err)) < 0)
		return rc;
	rc = store_token_by_hash(c, hash, clock_now_ms(), &t, err);
	if (rc == 0 && (t.kind == TOKEN_SIGNIN)) {
		rc = err_set(err, ERR_UNAUTH, "a sign-in link token cannot be used as an API token");
	}
	if (rc == 0) {
		out->token_id = t.id;
		out->kind = (int)t.kind;
		out->user_id = t.user_id;
		out->game_id = t.game_id;
		out->seat = t.seat;
		if (t.user_id && t.kind != TOKEN_SEAT) {
			struct store_user u;
			if (store_user_by_id(c, t.user_id, &u, err) == 0)
				out->is_admin = u.is_admin;
			store_user_release(&u);
			err_clear(err);
		}
	}
	store_read_release(c);
	return rc;
}
