/* http/api_notify.c: the JSON API of notifications: preferences, vacations, game clocks, the admin outbox */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/play_admin.h"
#include "http/api.h"
#include "notify/notify.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/banned.h"

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

void api_prefs_get(struct http_request *rq, struct http_reply *r)
{
	if (need_account(rq, r) == 0)
		prefs_reply(rq, r);
}

void api_prefs_put(struct http_request *rq, struct http_reply *r)
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

void api_vacation_get(struct http_request *rq, struct http_reply *r)
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

void api_vacation_post(struct http_request *rq, struct http_reply *r)
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

void api_admin_outbox(struct http_request *rq, struct http_reply *r)
{
	const char *state = http_query(rq, "state");
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	struct err e = {0};
	json_t *list;
	int n = 0, rc;

	if (state && strcmp(state, "pending") && strcmp(state, "sent") && strcmp(state, "dead") &&
	    strcmp(state, "skipped")) {
		http_reply_problem(r, ERR_INPUT, "bad_state", "?state= must be pending, sent, dead or skipped", NULL);
		return;
	}
	if ((rc = store_read_acquire(http_store(rq), &c, &e)) == 0) {
		rc = store_outbox_list(c, state, 0, 500, &rows, &n, &e);
		store_read_release(c);
	}
	if (rc < 0) {
		http_reply_problem(r, rc, NULL, e.msg, NULL);
		return;
	}
	list = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(list, notify_row_json(&rows[i]));
	store_outbox_rows_free(rows, n);
	http_reply_json(r, 200, json_pack("{s:o}", "notifications", list));
}

void api_admin_outbox_resend(struct http_request *rq, struct http_reply *r)
{
	struct store_outbox_row row;
	struct store_conn *c;
	struct err e = {0};
	int64_t now = clock_now_ms();
	json_t *body = NULL;
	const char *reason = NULL;
	char detail[48];
	int rc;

	/* an optional {"reason": "..."} for the audit row (the console's own re-send requires one) */
	if (rq->body.len) {
		body = json_loadb(rq->body.data, rq->body.len, 0, NULL);
		if (!json_is_object(body)) {
			json_decref(body);
			http_reply_problem(r, ERR_INPUT, "malformed_json", "the body, when any, must be a JSON object", NULL);
			return;
		}
		reason = json_string_value(json_object_get(body, "reason"));
	}
	if ((rc = play_admin_reason_check(reason, 0, &e)) < 0) {
		json_decref(body);
		http_reply_problem(r, rc, "bad_reason", e.msg, NULL);
		return;
	}
	if (reason && !*reason)
		reason = NULL;
	snprintf(detail, sizeof(detail), "{\"outbox\":%lld}", (long long)rq->ids[0]);
	if ((rc = store_write_begin(http_store(rq), &c, &e)) == 0) {
		rc = store_outbox_resend(c, rq->ids[0], now, &e);
		if (rc == 0)
			rc = store_audit_add(c, rq->auth.user_id, "api", "outbox_resend", 0, reason, -1, -1, detail, now,
					     &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	json_decref(body);
	if (rc < 0) {
		http_reply_problem(r, rc, rc == ERR_CONFLICT ? "not_dead" : NULL, e.msg, NULL);
		return;
	}
	if ((rc = store_read_acquire(http_store(rq), &c, &e)) == 0) {
		rc = store_outbox_get(c, rq->ids[0], &row, &e);
		store_read_release(c);
	}
	if (rc < 0) {
		http_reply_problem(r, rc, NULL, e.msg, NULL);
		return;
	}
	http_reply_json(r, 200, notify_row_json(&row));
	free(row.payload);
	free(row.last_error);
}
