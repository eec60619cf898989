/* http/api_token.c: the JSON API of tokens: make one, revoke one */
/* SPDX-License-Identifier: MIT */
#include "http/api_token.h"

#include <stdio.h>
#include <string.h>

#include "http/api.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

void api_token_create(struct http_request *rq, struct http_reply *r)
{
	struct store_conn *c;
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX];
	unsigned char hash[32];
	const char *label = json_string_value(json_object_get(rq->json, "label"));
	int64_t id;
	int rc;

	/* an account token and an optional JSON body (routes.h) */
	if (label && strlen(label) > API_MAX_NAME) {
		http_reply_problem(r, ERR_INPUT, "bad_label", "a token label is at most 80 characters", NULL);
		return;
	}
	token_new(tok, hash);
	if ((rc = store_write_begin(http_store(rq), &c, &e)) == 0) {
		rc = store_token_add(c, hash, TOKEN_API, rq->auth.user_id, 0, -1, label ? label : "api", 0, &id, &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	if (rc < 0)
		api_reply_err(r, rc, &e);
	else
		http_reply_json(r, 201, json_pack("{s:I,s:s,s:s?}", "id", (json_int_t)id, "token", tok, "label",
						  label));
}

/* reason (may be NULL): why an admin revokes someone else's token, for the audit row */
static void revoke(struct http_request *rq, struct http_reply *r, int64_t id, const char *reason)
{
	struct store_conn *c;
	struct err e = {0};
	char detail[48];
	int rc;

	snprintf(detail, sizeof(detail), "{\"token\":%lld}", (long long)id);
	if ((rc = store_write_begin(http_store(rq), &c, &e)) == 0) {
		rc = store_token_revoke(c, id, clock_now_ms(), &e);
		if (rc == 0 && rq->auth.is_admin && id != rq->auth.token_id)
			rc = store_audit_add(c, rq->auth.user_id, "api", "token_revoke", 0, reason, -1, -1, detail,
					     clock_now_ms(), &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	if (rc < 0)
		api_reply_err(r, rc, &e);
	else
		http_reply_json(r, 200, json_pack("{s:I,s:b}", "id", (json_int_t)id, "revoked", 1));
}

void api_token_revoke_current(struct http_request *rq, struct http_reply *r)
{
	revoke(rq, r, rq->auth.token_id, NULL);
}

void api_token_revoke(struct http_request *rq, struct http_reply *r)
{
	revoke(rq, r, rq->ids[0], rq->reason);
}
