/* http/api_story.c: the story of a game in the JSON API: its log in words */
/* SPDX-License-Identifier: MIT */
#include "http/api_story.h"

#include "engine/story.h"
#include "engine/views.h"
#include "http/api.h"
#include "util/banned.h"

void api_story_log(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *entries = NULL;
	int rc, count = 0;

	/* the count first: a step stored in between is then in the log, never missing from it */
	if ((rc = views_move_count(http_store(rq), rq->ids[0], &count, &e)) < 0 ||
	    (rc = story_log(http_store(rq), rq->ids[0], rq->seat, &entries, &e)) < 0) {
		api_reply_err(r, rc, &e);
		return;
	}
	http_reply_json(r, 200, json_pack("{s:i,s:o}", "move_count", count, "entries", entries));
}
