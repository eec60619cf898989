/* http/web_join.c: taking an open seat from the game page */
/* SPDX-License-Identifier: MIT */
#include "http/web_join.h"

#include <stdio.h>

#include "http/web.h"
#include "util/banned.h"

void web_join_post(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct store_conn *c;
	struct err e = {0};
	char path[48];
	int held, seat, rc;

	if (web_seat(rq, NULL, id, &held) >= 0) {
		web_error_page(rq, r, 409, "You already play in this game.");
		return;
	}
	if ((rc = store_write_begin(http_store(rq), &c, &e)) == 0) {
		rc = store_seat_claim(c, id, rq->sess.user_id, rq->sess.name, rq->sess.email, &seat, &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	if (rc < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	http_reply_redirect(r, path);
}
