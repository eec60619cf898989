/* http/api_feeds.c: the JSON API of your private feeds' token */
/* SPDX-License-Identifier: MIT */
#include "http/api_feeds.h"

#include "engine/feeds.h"
#include "util/clock.h"
#include "util/banned.h"

void api_feeds_token_get(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int64_t since = 0;
	int rc;

	if ((rc = feeds_token_state(http_store(rq), rq->auth.user_id, &since, &e)) < 0) {
		http_reply_problem(r, rc, NULL, e.msg, NULL);
		return;
	}
	http_reply_json(r, 200, json_pack("{s:b,s:o}", "exists", since != 0, "created_at",
					  since ? json_integer(since) : json_null()));
}

void api_feeds_token_post(struct http_request *rq, struct http_reply *r)
{
	char tok[TOKEN_TEXT_MAX];
	struct err e = {0};
	struct buf atom = BUF_INIT, ics = BUF_INIT;
	int64_t now = clock_now_ms();
	int rc;

	if ((rc = feeds_token_new(http_store(rq), rq->auth.user_id, now, tok, &e)) < 0) {
		http_reply_problem(r, rc, NULL, e.msg, NULL);
		return;
	}
	buf_addf(&atom, "%s/feeds/%s/games.atom", http_base_url(rq), tok);
	buf_addf(&ics, "%s/feeds/%s/deadlines.ics", http_base_url(rq), tok);
	http_reply_json(r, 201, json_pack("{s:s,s:I,s:{s:s,s:s}}", "token", tok, "created_at", (json_int_t)now, "links",
					  "atom", atom.data, "ics", ics.data));
	buf_release(&atom);
	buf_release(&ics);
}

void api_feeds_token_delete(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int rc;

	if ((rc = feeds_token_revoke(http_store(rq), rq->auth.user_id, &e)) < 0) {
		http_reply_problem(r, rc, NULL, e.msg, NULL);
		return;
	}
	r->status = 204;
}
