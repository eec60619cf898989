/* http/console_api.c: the admin console's JSON reads under /api/v1/admin/ (see docs/admin.md) */
/* SPDX-License-Identifier: MIT */
#include "http/console_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/replay.h"
#include "engine/views.h"
#include "engine/outbox.h"
#include "engine/manage.h"
#include "http/api.h"
#include "http/console.h"
#include "notify/notify.h"
#include "util/clock.h"
#include "util/banned.h"

#define HOUR_MS (3600LL * 1000)
#define MAX_WAIT_DAYS 36600

void console_api_games(struct http_request *rq, struct http_reply *r)
{
	struct store_game_filter f = { .game = http_query(rq, "game"), .status = http_query(rq, "status"),
					.email = http_query(rq, "email") };
	const char *dead = http_query(rq, "dead");
	struct err e = {0};
	json_t *list;
	long days = 0;
	int limit;
	int rc;

	if (console_limit(rq, r, 0, &limit) < 0)
		return;
	if (console_int_arg(http_query(rq, "waiting_days"), MAX_WAIT_DAYS, &days) < 0) {
		http_reply_problem(r, ERR_INPUT, "bad_query", "waiting_days must be a whole number", NULL);
		return;
	}
	if (f.status && *f.status && strcmp(f.status, "active") && strcmp(f.status, "finished") &&
	    strcmp(f.status, "aborted")) {
		http_reply_problem(r, ERR_INPUT, "bad_query", "status must be active, finished or aborted", NULL);
		return;
	}
	if (days > 0)
		f.idle_before = clock_now_ms() - days * 24 * HOUR_MS;
	f.dead = dead && (strcmp(dead, "1") == 0 || strcmp(dead, "true") == 0);
	f.limit = (int)limit;
	if ((rc = manage_games(http_store(rq), &f, &list, &e)) < 0) {
		api_reply_err(r, rc, &e);
		return;
	}
	http_reply_json(r, 200, json_pack("{s:o}", "games", list));
}

void console_api_game(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = manage_game(http_store(rq), rq->ids[0], &o, &e);

	api_reply_result(r, rc, &e, o);
}

void console_api_timeline(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = manage_timeline(http_store(rq), rq->ids[0], &o, &e);

	api_reply_result(r, rc, &e, o);
}

/* Step ?name= of game id, default the current one; replies and returns -1 on a bad value. */
static int query_step(struct http_request *rq, struct http_reply *r, const char *name, int64_t id, int *n)
{
	struct err e = {0};
	long v;
	int rc = console_int_arg(http_query(rq, name), 1000000000, &v);

	if (rc < 0) {
		char detail[96];
		snprintf(detail, sizeof(detail), "?%s= must be a step number (0 is the set-up)", name);
		http_reply_problem(r, ERR_INPUT, "bad_query", detail, NULL);
		return -1;
	}
	if (rc == 0) {
		*n = (int)v;
		return 0;
	}
	if ((rc = views_move_count(http_store(rq), id, n, &e)) < 0) {
		api_reply_err(r, rc, &e);
		return -1;
	}
	return 0;
}

void console_api_position(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int n, rc;

	if (query_step(rq, r, "n", rq->ids[0], &n) < 0)
		return;
	rc = manage_position(http_store(rq), rq->ids[0], n, &o, &e);
	api_reply_result(r, rc, &e, o);
}

void console_api_diff(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *a = NULL, *b = NULL, *changes;
	int from, to, rc;

	if (!http_query(rq, "from")) {
		http_reply_problem(r, ERR_INPUT, "bad_query", "give ?from=A&to=B, two step numbers", NULL);
		return;
	}
	if (query_step(rq, r, "from", rq->ids[0], &from) < 0 || query_step(rq, r, "to", rq->ids[0], &to) < 0)
		return;
	if ((rc = manage_position(http_store(rq), rq->ids[0], from, &a, &e)) < 0 ||
	    (rc = manage_position(http_store(rq), rq->ids[0], to, &b, &e)) < 0) {
		json_decref(a);
		api_reply_err(r, rc, &e);
		return;
	}
	changes = manage_diff(json_object_get(a, "view"), json_object_get(b, "view"), 0);
	http_reply_json(r, 200, json_pack("{s:I,s:i,s:i,s:O,s:O,s:o}", "game", (json_int_t)rq->ids[0], "from", from,
					  "to", to, "from_step", json_object_get(a, "step"), "to_step",
					  json_object_get(b, "step"), "changes", changes));
	json_decref(a);
	json_decref(b);
}

void console_api_notifications(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = manage_game(http_store(rq), rq->ids[0], &o, &e);

	if (rc == 0) {
		json_t *res = json_pack("{s:I,s:O}", "game", (json_int_t)rq->ids[0], "notifications",
					json_object_get(o, "notifications"));
		json_decref(o);
		o = res;
	}
	api_reply_result(r, rc, &e, o);
}

void console_api_chat(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = manage_game(http_store(rq), rq->ids[0], &o, &e);

	if (rc == 0) {
		json_t *res = json_pack("{s:I,s:O}", "game", (json_int_t)rq->ids[0], "chat", json_object_get(o, "chat"));
		json_decref(o);
		o = res;
	}
	api_reply_result(r, rc, &e, o);
}

void console_api_audit(struct http_request *rq, struct http_reply *r)
{
	struct store_audit_filter f = { .action = http_query(rq, "action"), .actor = http_query(rq, "actor") };
	struct err e = {0};
	json_t *list;
	long game = 0, before = 0;
	int limit, rc;

	if (console_limit(rq, r, 0, &limit) < 0)
		return;
	if (console_int_arg(http_query(rq, "game"), 1L << 30, &game) < 0 ||
	    console_int_arg(http_query(rq, "before"), 1L << 30, &before) < 0) {
		http_reply_problem(r, ERR_INPUT, "bad_query", "game and before must be whole numbers", NULL);
		return;
	}
	f.game_id = game;
	f.before_id = before;
	f.limit = (int)limit;
	if ((rc = manage_audit(http_store(rq), &f, &list, &e)) < 0) {
		api_reply_err(r, rc, &e);
		return;
	}
	http_reply_json(r, 200, json_pack("{s:o}", "audit", list));
}

void console_api_outbox(struct http_request *rq, struct http_reply *r)
{
	const char *state = http_query(rq, "state");
	struct err e = {0};
	json_t *list = NULL;
	int limit, rc;

	if (console_limit(rq, r, 500, &limit) < 0)
		return;
	if (!outbox_state_valid(state)) {
		http_reply_problem(r, ERR_INPUT, "bad_state", "?state= must be pending, sent, dead or skipped", NULL);
		return;
	}
	if ((rc = outbox_list(http_store(rq), state, limit, &list, &e)) < 0) {
		http_reply_problem(r, rc, NULL, e.msg, NULL);
		return;
	}
	http_reply_json(r, 200, json_pack("{s:o}", "notifications", list));
}

void console_api_export(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o;
	int rc;

	if ((rc = replay_export(http_store(rq), rq->ids[0], &o, &e)) < 0) {
		api_reply_err(r, rc, &e);
		return;
	}
	http_reply_json(r, 200, o);
}
