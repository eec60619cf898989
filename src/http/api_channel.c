/* http/api_channel.c: the JSON API of chat channels: a game's (Discord, Slack, Matrix) and your own destinations */
/* SPDX-License-Identifier: MIT */
#include "http/api_channel.h"

#include <string.h>

#include "engine/channel.h"
#include "util/clock.h"
#include "util/banned.h"

/* The problem code of a failure: a refused destination is 422 destination_refused. */
static const char *problem_code(int rc)
{
	switch (rc) {
	case ERR_ILLEGAL: return "destination_refused";
	case ERR_INPUT: return "bad_channel";
	case ERR_FORBIDDEN: return "not_the_creator";
	default: return NULL;
	}
}

void api_channel_game_get(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = channel_game_get(http_store(rq), rq->ids[0], rq->auth.user_id, rq->auth.is_admin, rq->param, &o, &e);

	if (rc < 0)
		http_reply_problem(r, rc, problem_code(rc), e.msg, NULL);
	else
		http_reply_json(r, 200, o);
}

void api_channel_game_put(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = channel_game_set(http_store(rq), rq->ids[0], rq->auth.user_id, rq->auth.is_admin, rq->param, rq->json,
				  clock_now_ms(), &o, &e);

	if (rc == ERR_ILLEGAL && json_is_true(json_object_get(rq->json, "dashboard")) && strcmp(rq->param, "slack") == 0)
		http_reply_problem(r, rc, "dashboard_unsupported", e.msg, NULL);
	else if (rc < 0)
		http_reply_problem(r, rc, problem_code(rc), e.msg, NULL);
	else
		http_reply_json(r, 200, o);
}

void api_channel_game_delete(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int rc = channel_game_delete(http_store(rq), rq->ids[0], rq->auth.user_id, rq->auth.is_admin, rq->param, &e);

	if (rc < 0) {
		http_reply_problem(r, rc, problem_code(rc), e.msg, NULL);
		return;
	}
	r->status = 204;
}

void api_channel_me_list(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	int rc = channel_user_list(http_store(rq), rq->auth.user_id, &o, &e);

	if (rc < 0)
		http_reply_problem(r, rc, NULL, e.msg, NULL);
	else
		http_reply_json(r, 200, json_pack("{s:o}", "destinations", o));
}

void api_channel_me_add(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o = NULL;
	const char *kind = json_string_value(json_object_get(rq->json, "kind"));
	int rc = channel_user_add(http_store(rq), rq->auth.user_id, kind ? kind : "", rq->json, clock_now_ms(), &o, &e);

	if (rc < 0)
		http_reply_problem(r, rc, problem_code(rc), e.msg, NULL);
	else
		http_reply_json(r, 201, o);
}

void api_channel_me_put(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *list = NULL, *v, *found = NULL;
	size_t i;
	int rc = channel_user_events(http_store(rq), rq->auth.user_id, rq->ids[0], json_object_get(rq->json, "events"),
				     &e);

	if (rc == 0)
		rc = channel_user_list(http_store(rq), rq->auth.user_id, &list, &e);
	if (rc < 0) {
		http_reply_problem(r, rc, problem_code(rc), e.msg, NULL);
		return;
	}
	json_array_foreach(list, i, v)
		if (json_integer_value(json_object_get(v, "id")) == rq->ids[0])
			found = v;
	http_reply_json(r, 200, json_incref(found ? found : json_object()));
	json_decref(list);
}

void api_channel_me_delete(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int rc = channel_user_delete(http_store(rq), rq->auth.user_id, rq->ids[0], &e);

	if (rc < 0) {
		http_reply_problem(r, rc, NULL, e.msg, NULL);
		return;
	}
	r->status = 204;
}
