/* http/api_game.c: the JSON API of one game: its state (with the answers cache), legal steps, steps so far */
/* SPDX-License-Identifier: MIT */
#include "http/api_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/health.h"
#include "engine/views.h"
#include "http/answers.h"
#include "http/api.h"
#include "notify/notify.h"
#include "util/banned.h"

void api_game_get(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	const char *inm = http_header(rq, "If-None-Match");
	struct store *store = http_store(rq);
	struct err e = {0};
	json_t *o;
	uint64_t v0 = 0, v1 = 0;
	int seat = rq->seat, with_emails = rq->with_emails, rc, count, versioned;
	char etag[32];

	/* the same answer as last time while nothing at all was committed since (http/answers.h) */
	versioned = health_data_version(store, &v0, &e) == 0;
	if (versioned && inm && answers_get(health_store_key(store), id, seat, with_emails, v0, NULL, etag) &&
	    (strcmp(inm, "*") == 0 || api_parse_etag(inm) == (int)strtol(etag, NULL, 10))) {
		snprintf(r->etag, sizeof(r->etag), "%s", etag);
		r->status = 304;
		return;
	}
	if (versioned && answers_get(health_store_key(store), id, seat, with_emails, v0, &r->body, etag)) {
		snprintf(r->etag, sizeof(r->etag), "%s", etag);
		r->status = 200;
		r->content_type = "application/json";
		return;
	}
	err_clear(&e);
	if (inm && views_move_count(http_store(rq), id, &count, &e) == 0 &&
	    (strcmp(inm, "*") == 0 || api_parse_etag(inm) == count)) {
		r->status = 304;
		snprintf(r->etag, sizeof(r->etag), "%d", count);
		/* the ETag alone is kept for the next If-None-Match, under the same rules as a whole answer */
		if (versioned && health_data_version(store, &v1, &e) == 0 && v1 == v0 && health_synced(store))
			answers_put(health_store_key(store), id, seat, with_emails, v0, NULL, 0, r->etag);
		return;
	}
	if ((rc = views_game_json(http_store(rq), id, seat, with_emails, &o, &e)) < 0) {
		api_reply_err(r, rc, &e);
		return;
	}
	{
		json_t *clock = NULL;
		/* an answer missing its clock (a failed read) is sent, not kept */
		if (notify_clock_json(http_store(rq), id, &clock, &e) == 0 && clock)
			json_object_set_new(o, "clock", clock);
		else
			versioned = 0;
	}
	snprintf(r->etag, sizeof(r->etag), "%lld", (long long)json_integer_value(json_object_get(o, "move_count")));
	http_reply_json(r, 200, o);
	/*
	 * Kept only when no commit came between the two versions (then it is the
	 * answer at v0) and everything committed is on disk (so it is not a state
	 * a power loss could take back while the kept text lives on).
	 */
	if (versioned && r->status == 200 && health_data_version(store, &v1, &e) == 0 && v1 == v0 &&
	    health_synced(store))
		answers_put(health_store_key(store), id, seat, with_emails, v0, r->body.data, r->body.len, r->etag);
}

void api_game_legal(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct err e = {0};
	json_t *o;
	int rc;

	if ((rc = views_legal_json(http_store(rq), id, rq->seat, &o, &e)) < 0) {
		api_reply_err(r, rc, &e);
		return;
	}
	snprintf(r->etag, sizeof(r->etag), "%lld", (long long)json_integer_value(json_object_get(o, "move_count")));
	http_reply_json(r, 200, o);
}

void api_game_moves(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct err e = {0};
	json_t *o;
	int rc;

	if ((rc = views_moves_json(http_store(rq), id, &o, &e)) < 0) {
		api_reply_err(r, rc, &e);
		return;
	}
	http_reply_json(r, 200, o);
}
