/* http/api_token.c: the JSON API of tokens: make one, revoke one */
/* SPDX-License-Identifier: MIT */
#include "http/api_token.h"

#include <string.h>

#include "engine/tokens.h"
#include "http/api.h"
#include "util/token.h"
#include "util/banned.h"

void api_token_create(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX];
	const char *label = json_string_value(json_object_get(rq->json, "label"));
	int64_t id;
	int rc;

	/* an account token and an optional JSON body (routes.h) */
	rc = tokens_api_new(http_store(rq), rq->auth.user_id, label, tok, &id, &e);
	if (rc == ERR_INPUT)
		http_reply_problem(r, rc, "bad_label", e.msg, NULL);
	else if (rc < 0)
		api_reply_err(r, rc, &e);
	else
		http_reply_json(r, 201, json_pack("{s:I,s:s,s:s?}", "id", (json_int_t)id, "token", tok, "label",
						  label));
	memset(tok, 0, sizeof(tok));
}

void api_token_revoke_current(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int rc = tokens_revoke_own(http_store(rq), rq->auth.token_id, &e);

	if (rc < 0)
		api_reply_err(r, rc, &e);
	else
		http_reply_json(r, 200, json_pack("{s:I,s:b}", "id", (json_int_t)rq->auth.token_id, "revoked", 1));
}

/* An admin revokes any token; the reason (?reason=, optional here) goes to the audit row. */
void api_token_revoke(struct http_request *rq, struct http_reply *r)
{
	struct actor a = { .user_id = rq->auth.user_id, .channel = "api", .client = rq->client, .reason = rq->reason,
			   .flags = ACTOR_REASON_OPTIONAL };
	struct err e = {0};
	json_t *res = NULL;
	int rc = tokens_revoke(http_store(rq), &a, rq->ids[0], &res, &e);

	api_reply_result(r, rc, &e, res);
}
