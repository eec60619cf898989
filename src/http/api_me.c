/* http/api_me.c: the JSON API of your account: who you are, notification preferences, vacations */
/* SPDX-License-Identifier: MIT */
#include "http/api_me.h"

#include <stdlib.h>

#include "engine/account.h"
#include "notify/notify.h"
#include "util/clock.h"
#include "util/banned.h"

void api_me_get(struct http_request *rq, struct http_reply *r)
{
	const struct http_auth *a = &rq->auth;
	json_t *o = json_object(), *acc = NULL;
	struct err e = {0};

	json_object_set_new(o, "token_id", json_integer(a->token_id));
	json_object_set_new(o, "kind", json_string(a->kind == TOKEN_SEAT ? "seat" : "account"));
	json_object_set_new(o, "admin", json_boolean(a->is_admin));
	if (a->kind == TOKEN_SEAT) {
		json_object_set_new(o, "game", json_integer(a->game_id));
		json_object_set_new(o, "seat", json_integer(a->seat));
	}
	if (a->user_id && account_get(http_store(rq), a->user_id, &acc, &e) == 0)
		json_object_set_new(o, "user", json_pack("{s:O,s:O,s:O}", "id", json_object_get(acc, "id"), "email",
							 json_object_get(acc, "email"), "name", json_object_get(acc, "name")));
	json_decref(acc);
	http_reply_json(r, 200, o);
}

void api_me_prefs_get(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *acc = NULL;
	int rc = account_get(http_store(rq), rq->auth.user_id, &acc, &e);

	if (rc < 0)
		http_reply_problem(r, rc, NULL, e.msg, NULL);
	else
		http_reply_json(r, 200, json_incref(json_object_get(acc, "prefs")));
	json_decref(acc);
}

void api_me_prefs_put(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *prefs = NULL;
	int rc = account_update(http_store(rq), rq->auth.user_id, NULL, NULL, rq->json, &prefs, &e);

	if (rc < 0)
		http_reply_problem(r, rc, rc == ERR_INPUT ? "bad_preferences" : NULL, e.msg, NULL);
	else
		http_reply_json(r, 200, prefs);
}

void api_me_vacation_get(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o;
	int rc;

	if ((rc = notify_vacation_json(http_store(rq), rq->auth.user_id, clock_now_ms(), &o, &e)) < 0)
		http_reply_problem(r, rc, NULL, e.msg, NULL);
	else
		http_reply_json(r, 200, o);
}

void api_me_vacation_post(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *days = json_object_get(rq->json, "days"), *o;
	int64_t now = clock_now_ms();
	int rc;

	if (!json_is_number(days) || json_number_value(days) < 0 || json_number_value(days) > 366) {
		http_reply_problem(r, ERR_INPUT, "bad_vacation",
				   "\"days\" must be a number of days from 0 (end the vacation now) to 366", NULL);
		return;
	}
	rc = notify_vacation_set(http_store(rq), rq->auth.user_id, json_number_value(days), now, &e);
	if (rc < 0) {
		/* the allowance is a state of the account, not a rate: 409 */
		http_reply_problem(r, rc == ERR_LIMIT ? ERR_CONFLICT : rc, rc == ERR_LIMIT ? "vacation_allowance_used" : NULL,
				   e.msg, NULL);
		return;
	}
	if ((rc = notify_vacation_json(http_store(rq), rq->auth.user_id, now, &o, &e)) < 0)
		http_reply_problem(r, rc, NULL, e.msg, NULL);
	else
		http_reply_json(r, 200, o);
}
