/* http/console_act.c: the admin console's JSON actions under /api/v1/admin/, each with a reason for its audit row */
/* SPDX-License-Identifier: MIT */
#include "http/console_act.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/account.h"
#include "engine/engine.h"
#include "engine/outbox.h"
#include "engine/manage.h"
#include "engine/tokens.h"
#include "http/api.h"
#include "util/banned.h"

/* The admin and the reason the route declared (routes.h: ROUTE_JSON | ROUTE_REASON). */
static struct actor actor(const struct http_request *rq)
{
	struct actor a = { .user_id = rq->auth.user_id, .channel = "api", .client = rq->client,
				      .reason = rq->reason };
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

void console_act_rollback(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	struct actor a;
	json_t *body = rq->json, *res = NULL;
	long to;
	int rc;

	if (body_int(body, "to", 1000000000, r, &to) == 0) {
		a = actor(rq);
		rc = manage_rollback(http_store(rq), &a, rq->ids[0], (int)to, &res, &e);
		api_reply_result(r, rc, &e, res);
	}
}

void console_act_seat(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	struct actor a;
	json_t *body = rq->json, *res = NULL, *email;
	const char *name;
	long seat;
	int rc;

	if (body_int(body, "seat", GAME_MAX_SEATS - 1, r, &seat) < 0)
		return;
	name = json_string_value(json_object_get(body, "name"));
	email = json_object_get(body, "email");
	if (name && *name && !account_valid_name(name)) {
		http_reply_problem(r, ERR_INPUT, "bad_name", "a name is 1 to 80 printable characters", NULL);
		return;
	}
	if (email && !json_is_null(email) && (!json_is_string(email) ||
					      (*json_string_value(email) && !account_valid_email(json_string_value(email))))) {
		http_reply_problem(r, ERR_INPUT, "bad_email", "\"email\" must be an email address, or null for no player",
				   NULL);
		return;
	}
	a = actor(rq);
	rc = manage_seat_replace(http_store(rq), &a, rq->ids[0], (int)seat, name, json_string_value(email), &res,
				     &e);
	api_reply_result(r, rc, &e, res);
}

void console_act_drop(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	struct actor a;
	json_t *body = rq->json, *res = NULL;
	long seat;
	int rc;

	if (body_int(body, "seat", GAME_MAX_SEATS - 1, r, &seat) == 0) {
		a = actor(rq);
		rc = manage_drop(http_store(rq), &a, rq->ids[0], (int)seat, &res, &e);
		api_reply_result(r, rc, &e, res);
	}
}

void console_act_extend(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	struct actor a;
	json_t *body = rq->json, *res = NULL, *hours, *minutes;
	long seat;
	double ms;
	int rc;

	if (body_int(body, "seat", GAME_MAX_SEATS - 1, r, &seat) < 0)
		return;
	hours = json_object_get(body, "hours");
	minutes = json_object_get(body, "minutes");
	if ((hours && !json_is_number(hours)) || (minutes && !json_is_number(minutes)) || (!hours && !minutes)) {
		http_reply_problem(r, ERR_INPUT, "bad_field", "give \"hours\" (or \"minutes\"): how much longer", NULL);
		return;
	}
	ms = (hours ? json_number_value(hours) * 3600000.0 : 0) + (minutes ? json_number_value(minutes) * 60000.0 : 0);
	a = actor(rq);
	rc = manage_extend(http_store(rq), &a, rq->ids[0], (int)seat,
			       ms > 0 && ms < 1e15 ? (int64_t)(ms + 0.5) : -1, &res, &e);
	api_reply_result(r, rc, &e, res);
}

/* An action on the path's id that needs nothing but the body's reason. */
typedef int (*id_action)(struct store *s, const struct actor *a, int64_t id, json_t **out,
			 struct err *err);

static void id_action_reply(struct http_request *rq, struct http_reply *r, id_action fn)
{
	struct err e = {0};
	struct actor a;
	json_t *res = NULL;
	int rc;

	a = actor(rq);
	rc = fn(http_store(rq), &a, rq->ids[0], &res, &e);
	api_reply_result(r, rc, &e, res);
}

void console_act_abort(struct http_request *rq, struct http_reply *r)
{
	id_action_reply(rq, r, manage_abort);
}

void console_act_import(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	struct actor a;
	json_t *body = rq->json, *res = NULL, *file;
	int rc;

	file = json_object_get(body, "replay");
	if (!json_is_object(file)) {
		http_reply_problem(r, ERR_INPUT, "bad_field",
				   "send {\"reason\": \"...\", \"replay\": {the replay file from export}}", NULL);
		return;
	}
	a = actor(rq);
	/* nobody is told unless "notify": true (an invitation per seat) */
	rc = manage_import(http_store(rq), &a, file, json_is_true(json_object_get(body, "notify")), &res, &e);
	if (rc == 0) {
		snprintf(r->location, sizeof(r->location), "/api/v1/admin/games/%lld",
			 (long long)json_integer_value(json_object_get(res, "id")));
		http_reply_json(r, 201, res);
	} else {
		api_reply_err(r, rc, &e);
	}
}

void console_act_resend(struct http_request *rq, struct http_reply *r)
{
	id_action_reply(rq, r, outbox_resend);
}

void console_act_revoke(struct http_request *rq, struct http_reply *r)
{
	id_action_reply(rq, r, tokens_revoke);
}

void console_act_verify(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	/* an optional {"reason": "..."} for the audit row (ROUTE_REASON_OPTIONAL) */
	struct actor a = actor(rq);
	int first_bad, rc;

	rc = manage_verify(http_store(rq), &a, rq->ids[0], &first_bad, NULL, &e);
	if (rc == 0)
		http_reply_json(r, 200, json_pack("{s:I,s:b}", "game", (json_int_t)rq->ids[0], "ok", 1));
	else if (rc == ERR_CONFLICT)
		http_reply_json(r, 200, json_pack("{s:I,s:b,s:i,s:s}", "game", (json_int_t)rq->ids[0], "ok", 0,
						  "first_difference", first_bad, "detail", e.msg));
	else
		api_reply_err(r, rc, &e);
}

void console_act_outbox_resend(struct http_request *rq, struct http_reply *r)
{
	/* the older endpoint: the reason may be left out (ROUTE_REASON_OPTIONAL); the console's own re-send requires one */
	struct actor a = actor(rq);
	struct err e = {0};
	json_t *res = NULL;
	int rc;

	a.flags |= ACTOR_REASON_OPTIONAL;
	if ((rc = outbox_resend(http_store(rq), &a, rq->ids[0], &res, &e)) < 0) {
		http_reply_problem(r, rc, rc == ERR_CONFLICT ? "not_dead" : NULL, e.msg, NULL);
		return;
	}
	http_reply_json(r, 200, res);
}
