/* http/api_push.c: the JSON API of web push subscriptions: list, add, remove */
/* SPDX-License-Identifier: MIT */
#include "http/api_push.h"

#include "http/api.h"
#include "http/web_push.h"
#include "notify/push.h"
#include "util/clock.h"
#include "util/banned.h"

void api_push_list(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = notify_push_list_json(http_store(rq), rq->auth.user_id, &o, &e);

	api_reply_result(r, rc, &e, o);
}

/* The problem code of a refused subscription: an address refused is 422 destination_refused, as a channel's. */
static const char *problem_code(int rc)
{
	switch (rc) {
	case ERR_INPUT: return "bad_subscription";
	case ERR_LIMIT: return "too_many_subscriptions";
	case ERR_ILLEGAL: return "destination_refused";
	default: return NULL;
	}
}

void api_push_add(struct http_request *rq, struct http_reply *r)
{
	const json_t *keys = json_object_get(rq->json, "keys");
	const char *endpoint = json_string_value(json_object_get(rq->json, "endpoint"));
	const char *label = json_string_value(json_object_get(rq->json, "label"));
	char ua[96];
	struct err e = {0};
	json_t *o = NULL;
	int64_t id = 0;
	int rc;

	if (!label) {
		web_push_label(http_header(rq, "User-Agent"), ua, sizeof(ua));
		label = ua;
	}
	rc = notify_push_subscribe(http_store(rq), rq->auth.user_id, endpoint,
				   json_string_value(json_object_get(keys, "p256dh")),
				   json_string_value(json_object_get(keys, "auth")), label, clock_now_ms(), &id, &e);
	if (rc < 0) {
		/* too many browsers is a state of the account, not a rate: 409 */
		http_reply_problem(r, rc == ERR_LIMIT ? ERR_CONFLICT : rc, problem_code(rc), e.msg, NULL);
		return;
	}
	if ((rc = notify_push_list_json(http_store(rq), rq->auth.user_id, &o, &e)) < 0) {
		api_reply_err(r, rc, &e);
		return;
	}
	json_object_set_new(o, "id", json_integer(id));
	http_reply_json(r, 201, o);
}

void api_push_remove(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int rc = notify_push_remove(http_store(rq), rq->auth.user_id, rq->ids[0], &e);

	if (rc < 0)
		api_reply_err(r, rc, &e);
	else
		http_reply_json(r, 200, json_pack("{s:I,s:b}", "id", (json_int_t)rq->ids[0], "removed", 1));
}
