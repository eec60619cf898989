/* http/web_join.c: taking an open seat from the game page */
/* SPDX-License-Identifier: MIT */
#include "http/web_join.h"

#include <stdio.h>

#include "engine/join.h"
#include "http/web.h"
#include "util/banned.h"

void web_join_post(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct err e = {0};
	char path[48];
	int seat, rc;

	if ((rc = join_game(http_store(rq), id, rq->sess.user_id, &seat, &e)) < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	http_reply_redirect(r, path);
}
