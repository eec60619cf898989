/* http/api_me.c: the JSON API of your account: who you are, notification preferences, vacations */
/* SPDX-License-Identifier: MIT */
#include "http/api_me.h"

#include <stdlib.h>

#include "notify/notify.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/banned.h"

void api_me_get(struct http_request *rq, struct http_reply *r)
{
	const struct http_auth *a = &rq->auth;
	json_t *o = json_object();
	struct store_conn *c;
	struct err e = {0};

	json_object_set_new(o, "token_id", json_integer(a->token_id));
	json_object_set_new(o, "kind", json_string(a->kind == TOKEN_SEAT ? "seat" : "account"));
	json_object_set_new(o, "admin", json_boolean(a->is_admin));
	if (a->kind == TOKEN_SEAT) {
		json_object_set_new(o, "game", json_integer(a->game_id));
		json_object_set_new(o, "seat", json_integer(a->seat));
	}
	if (a->user_id && store_read_acquire(http_store(rq), &c, &e) == 0) {
		struct store_user u;
		if (store_user_by_id(c, a->user_id, &u, &e) == 0) {
			json_object_set_new(o, "user", json_pack("{s:I,s:s,s:s}", "id", (json_int_t)u.id, "email",
								 u.email, "name", u.name));
		}
		store_user_release(&u);
		store_read_release(c);
	}
	http_reply_json(r, 200, o);
}

static json_t *object_body(struct http_request *rq, struct http_reply *r)
{
	json_error_t jerr;
	json_t *v = rq->body.len ? json_loadb(rq->body.data, rq->body.len, JSON_REJECT_DUPLICATES, &jerr) : NULL;

	if (!json_is_object(v)) {
		json_decref(v);
		http_reply_problem(r, ERR_INPUT, "malformed_json", "the body must be a JSON object", NULL);
		return NULL;
	}
	return v;
}

static int need_account(struct http_request *rq, struct http_reply *r)
{
	if (rq->auth.kind == TOKEN_SEAT || !rq->auth.user_id) {
		http_reply_problem(r, ERR_FORBIDDEN, "account_token_needed", "this needs your account token", NULL);
		return -1;
	}
	return 0;
}

static void prefs_reply(struct http_request *rq, struct http_reply *r)
{
	struct store_conn *c;
	struct store_user u = {0};
	struct err e = {0};
	int rc;

	if ((rc = store_read_acquire(http_store(rq), &c, &e)) == 0) {
		rc = store_user_by_id(c, rq->auth.user_id, &u, &e);
		store_read_release(c);
	}
	if (rc < 0)
		http_reply_problem(r, rc, NULL, e.msg, NULL);
	else
		http_reply_json(r, 200, notify_prefs_get(u.prefs));
	store_user_release(&u);
}

void api_me_prefs_get(struct http_request *rq, struct http_reply *r)
{
	if (need_account(rq, r) == 0)
		prefs_reply(rq, r);
}

void api_me_prefs_put(struct http_request *rq, struct http_reply *r)
{
	struct store_conn *c;
	struct store_user u = {0};
	struct err e = {0};
	json_t *body;
	char *merged = NULL;
	int rc;

	if (need_account(rq, r) < 0 || !(body = object_body(rq, r)))
		return;
	/* read, merge and write under the writer, so two changes at once both count */
	if ((rc = store_write_begin(http_store(rq), &c, &e)) == 0) {
		rc = store_user_by_id(c, rq->auth.user_id, &u, &e);
		if (rc == 0)
			rc = notify_prefs_merge(u.prefs, body, &merged, &e);
		if (rc == 0)
			rc = store_user_set_prefs(c, rq->auth.user_id, merged, &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	json_decref(body);
	free(merged);
	store_user_release(&u);
	if (rc < 0) {
		http_reply_problem(r, rc, rc == ERR_INPUT ? "bad_preferences" : NULL, e.msg, NULL);
		return;
	}
	prefs_reply(rq, r);
}

void api_me_vacation_get(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o;
	int rc;

	if (need_account(rq, r) < 0)
		return;
	if ((rc = notify_vacation_json(http_store(rq), rq->auth.user_id, clock_now_ms(), &o, &e)) < 0)
		http_reply_problem(r, rc, NULL, e.msg, NULL);
	else
		http_reply_json(r, 200, o);
}

void api_me_vacation_post(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *body, *days, *o;
	int64_t now = clock_now_ms();
	int rc;

	if (need_account(rq, r) < 0 || !(body = object_body(rq, r)))
		return;
	days = json_object_get(body, "days");
	if (!json_is_number(days) || json_number_value(days) < 0 || json_number_value(days) > 366) {
		json_decref(body);
		http_reply_problem(r, ERR_INPUT, "bad_vacation",
				   "\"days\" must be a number of days from 0 (end the vacation now) to 366", NULL);
		return;
	}
	rc = notify_vacation_set(http_store(rq), rq->auth.user_id, json_number_value(days), now, &e);
	json_decref(body);
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
