/* http/admin_api.c: the admin console's JSON API under /api/v1/admin/ (see docs/admin.md) */
/* SPDX-License-Identifier: MIT */
#include "http/admin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/play.h"
#include "engine/play_admin.h"
#include "http/api.h"
#include "util/clock.h"
#include "util/banned.h"

#define HOUR_MS (3600LL * 1000)
#define MAX_WAIT_DAYS 36600

int admin_int_arg(const char *text, long max, long *out)
{
	char *end;
	long v;

	if (!text)
		return 1;
	if (*text < '0' || *text > '9')
		return -1;
	v = strtol(text, &end, 10);
	if (*end || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

static void reply_err(struct http_reply *r, int rc, const struct err *e)
{
	http_reply_problem(r, rc, NULL, e->msg, NULL);
}

/* The body as a JSON object; replies 400 and returns NULL when it is not one. */
static json_t *body_object(struct http_request *rq, struct http_reply *r)
{
	json_error_t jerr;
	json_t *v;

	if (!rq->body.len) {
		http_reply_problem(r, ERR_INPUT, "empty_body", "this needs a JSON object with at least a \"reason\"", NULL);
		return NULL;
	}
	v = json_loadb(rq->body.data, rq->body.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!json_is_object(v)) {
		char detail[256];
		snprintf(detail, sizeof(detail), "the body must be a JSON object%s%s", v ? "" : ": ", v ? "" : jerr.text);
		json_decref(v);
		http_reply_problem(r, ERR_INPUT, "malformed_json", detail, NULL);
		return NULL;
	}
	return v;
}

static struct play_admin_actor actor(const struct http_request *rq, const json_t *body)
{
	struct play_admin_actor a = { .user_id = rq->auth.user_id, .channel = "api", .client = rq->client,
				      .reason = json_string_value(json_object_get(body, "reason")) };
	return a;
}

/* An integer field of the body in [0, max]; replies 400 and returns -1 when missing or out of range. */
static int body_int(const json_t *body, const char *name, long max, struct http_reply *r, long *out)
{
	const json_t *v = json_object_get(body, name);
	char detail[128];

	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= max) {
		*out = (long)json_integer_value(v);
		return 0;
	}
	snprintf(detail, sizeof(detail), "\"%s\" must be a whole number from 0 to %ld", name, max);
	http_reply_problem(r, ERR_INPUT, "bad_field", detail, NULL);
	return -1;
}

/* Reply with an action's outcome. */
static void done(struct http_reply *r, int rc, const struct err *e, json_t *res)
{
	if (rc < 0)
		reply_err(r, rc, e);
	else
		http_reply_json(r, 200, res);
}

void admin_api_games(struct http_request *rq, struct http_reply *r)
{
	struct store_admin_filter f = { .game = http_query(rq, "game"), .status = http_query(rq, "status"),
					.email = http_query(rq, "email") };
	const char *dead = http_query(rq, "dead");
	struct err e = {0};
	json_t *list;
	long days = 0, limit = 0;
	int rc;

	if (admin_int_arg(http_query(rq, "waiting_days"), MAX_WAIT_DAYS, &days) < 0 ||
	    admin_int_arg(http_query(rq, "limit"), 1000, &limit) < 0) {
		http_reply_problem(r, ERR_INPUT, "bad_query", "waiting_days and limit must be whole numbers", NULL);
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
	if ((rc = play_admin_games(http_store(rq), &f, &list, &e)) < 0) {
		reply_err(r, rc, &e);
		return;
	}
	http_reply_json(r, 200, json_pack("{s:o}", "games", list));
}

void admin_api_game(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = play_admin_game(http_store(rq), rq->ids[0], &o, &e);

	done(r, rc, &e, o);
}

void admin_api_timeline(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = play_admin_timeline(http_store(rq), rq->ids[0], &o, &e);

	done(r, rc, &e, o);
}

/* Step ?name= of game id, default the current one; replies and returns -1 on a bad value. */
static int query_step(struct http_request *rq, struct http_reply *r, const char *name, int64_t id, int *n)
{
	struct err e = {0};
	long v;
	int rc = admin_int_arg(http_query(rq, name), 1000000000, &v);

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
	if ((rc = play_move_count(http_store(rq), id, n, &e)) < 0) {
		reply_err(r, rc, &e);
		return -1;
	}
	return 0;
}

void admin_api_position(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int n, rc;

	if (query_step(rq, r, "n", rq->ids[0], &n) < 0)
		return;
	rc = play_admin_position(http_store(rq), rq->ids[0], n, &o, &e);
	done(r, rc, &e, o);
}

void admin_api_diff(struct http_request *rq, struct http_reply *r)
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
	if ((rc = play_admin_position(http_store(rq), rq->ids[0], from, &a, &e)) < 0 ||
	    (rc = play_admin_position(http_store(rq), rq->ids[0], to, &b, &e)) < 0) {
		json_decref(a);
		reply_err(r, rc, &e);
		return;
	}
	changes = play_admin_diff(json_object_get(a, "view"), json_object_get(b, "view"), 0);
	http_reply_json(r, 200, json_pack("{s:I,s:i,s:i,s:O,s:O,s:o}", "game", (json_int_t)rq->ids[0], "from", from,
					  "to", to, "from_step", json_object_get(a, "step"), "to_step",
					  json_object_get(b, "step"), "changes", changes));
	json_decref(a);
	json_decref(b);
}

void admin_api_notifications(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = play_admin_game(http_store(rq), rq->ids[0], &o, &e);

	if (rc == 0) {
		json_t *res = json_pack("{s:I,s:O}", "game", (json_int_t)rq->ids[0], "notifications",
					json_object_get(o, "notifications"));
		json_decref(o);
		o = res;
	}
	done(r, rc, &e, o);
}

void admin_api_chat(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = play_admin_game(http_store(rq), rq->ids[0], &o, &e);

	if (rc == 0) {
		json_t *res = json_pack("{s:I,s:O}", "game", (json_int_t)rq->ids[0], "chat", json_object_get(o, "chat"));
		json_decref(o);
		o = res;
	}
	done(r, rc, &e, o);
}

void admin_api_rollback(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	struct play_admin_actor a;
	json_t *body = body_object(rq, r), *res = NULL;
	long to;
	int rc;

	if (!body)
		return;
	if (body_int(body, "to", 1000000000, r, &to) == 0) {
		a = actor(rq, body);
		rc = play_admin_rollback(http_store(rq), &a, rq->ids[0], (int)to, &res, &e);
		done(r, rc, &e, res);
	}
	json_decref(body);
}

void admin_api_seat(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	struct play_admin_actor a;
	json_t *body = body_object(rq, r), *res = NULL, *email;
	const char *name;
	long seat;
	int rc;

	if (!body)
		return;
	if (body_int(body, "seat", GAME_MAX_SEATS - 1, r, &seat) < 0)
		goto out;
	name = json_string_value(json_object_get(body, "name"));
	email = json_object_get(body, "email");
	if (name && *name && !api_valid_name(name)) {
		http_reply_problem(r, ERR_INPUT, "bad_name", "a name is 1 to 80 printable characters", NULL);
		goto out;
	}
	if (email && !json_is_null(email) && (!json_is_string(email) ||
					      (*json_string_value(email) && !api_valid_email(json_string_value(email))))) {
		http_reply_problem(r, ERR_INPUT, "bad_email", "\"email\" must be an email address, or null for no player",
				   NULL);
		goto out;
	}
	a = actor(rq, body);
	rc = play_admin_seat_replace(http_store(rq), &a, rq->ids[0], (int)seat, name, json_string_value(email), &res,
				     &e);
	done(r, rc, &e, res);
out:
	json_decref(body);
}

void admin_api_drop(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	struct play_admin_actor a;
	json_t *body = body_object(rq, r), *res = NULL;
	long seat;
	int rc;

	if (!body)
		return;
	if (body_int(body, "seat", GAME_MAX_SEATS - 1, r, &seat) == 0) {
		a = actor(rq, body);
		rc = play_admin_drop(http_store(rq), &a, rq->ids[0], (int)seat, &res, &e);
		done(r, rc, &e, res);
	}
	json_decref(body);
}

void admin_api_extend(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	struct play_admin_actor a;
	json_t *body = body_object(rq, r), *res = NULL, *hours, *minutes;
	long seat;
	double ms;
	int rc;

	if (!body)
		return;
	if (body_int(body, "seat", GAME_MAX_SEATS - 1, r, &seat) < 0)
		goto out;
	hours = json_object_get(body, "hours");
	minutes = json_object_get(body, "minutes");
	if ((hours && !json_is_number(hours)) || (minutes && !json_is_number(minutes)) || (!hours && !minutes)) {
		http_reply_problem(r, ERR_INPUT, "bad_field", "give \"hours\" (or \"minutes\"): how much longer", NULL);
		goto out;
	}
	ms = (hours ? json_number_value(hours) * 3600000.0 : 0) + (minutes ? json_number_value(minutes) * 60000.0 : 0);
	a = actor(rq, body);
	rc = play_admin_extend(http_store(rq), &a, rq->ids[0], (int)seat,
			       ms > 0 && ms < 1e15 ? (int64_t)(ms + 0.5) : -1, &res, &e);
	done(r, rc, &e, res);
out:
	json_decref(body);
}

/* An action on the path's id that needs nothing but the body's reason. */
typedef int (*id_action)(struct store *s, const struct play_admin_actor *a, int64_t id, json_t **out,
			 struct err *err);

static void id_action_reply(struct http_request *rq, struct http_reply *r, id_action fn)
{
	struct err e = {0};
	struct play_admin_actor a;
	json_t *body = body_object(rq, r), *res = NULL;
	int rc;

	if (!body)
		return;
	a = actor(rq, body);
	rc = fn(http_store(rq), &a, rq->ids[0], &res, &e);
	done(r, rc, &e, res);
	json_decref(body);
}

void admin_api_abort(struct http_request *rq, struct http_reply *r)
{
	id_action_reply(rq, r, play_admin_abort);
}

void admin_api_import(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	struct play_admin_actor a;
	json_t *body = body_object(rq, r), *res = NULL, *file;
	int rc;

	if (!body)
		return;
	file = json_object_get(body, "replay");
	if (!json_is_object(file)) {
		http_reply_problem(r, ERR_INPUT, "bad_field",
				   "send {\"reason\": \"...\", \"replay\": {the replay file from export}}", NULL);
		json_decref(body);
		return;
	}
	a = actor(rq, body);
	rc = play_admin_import(http_store(rq), &a, file, &res, &e);
	if (rc == 0) {
		snprintf(r->location, sizeof(r->location), "/api/v1/admin/games/%lld",
			 (long long)json_integer_value(json_object_get(res, "id")));
		http_reply_json(r, 201, res);
	} else {
		reply_err(r, rc, &e);
	}
	json_decref(body);
}

void admin_api_resend(struct http_request *rq, struct http_reply *r)
{
	id_action_reply(rq, r, play_admin_resend);
}

void admin_api_revoke(struct http_request *rq, struct http_reply *r)
{
	id_action_reply(rq, r, play_admin_revoke);
}

void admin_api_audit(struct http_request *rq, struct http_reply *r)
{
	struct store_audit_filter f = { .action = http_query(rq, "action"), .actor = http_query(rq, "actor") };
	struct err e = {0};
	json_t *list;
	long game = 0, before = 0, limit = 0;
	int rc;

	if (admin_int_arg(http_query(rq, "game"), 1L << 30, &game) < 0 ||
	    admin_int_arg(http_query(rq, "before"), 1L << 30, &before) < 0 ||
	    admin_int_arg(http_query(rq, "limit"), 1000, &limit) < 0) {
		http_reply_problem(r, ERR_INPUT, "bad_query", "game, before and limit must be whole numbers", NULL);
		return;
	}
	f.game_id = game;
	f.before_id = before;
	f.limit = (int)limit;
	if ((rc = play_admin_audit(http_store(rq), &f, &list, &e)) < 0) {
		reply_err(r, rc, &e);
		return;
	}
	http_reply_json(r, 200, json_pack("{s:o}", "audit", list));
}
