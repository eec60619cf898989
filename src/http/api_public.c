/* http/api_public.c: the JSON API's public routes: liveness, metrics, the catalog */
/* SPDX-License-Identifier: MIT */
#include "http/api_public.h"

#include "engine/health.h"
#include "engine/registry.h"
#include "http/metrics.h"
#include "util/clock.h"
#include "util/version.h"
#include "util/banned.h"

void api_public_healthz(struct http_request *rq, struct http_reply *r)
{
	struct health_status h;
	struct err e = {0};
	json_t *body, *problems = json_array();

	if (health_status(http_store(rq), clock_now_ms(), (int64_t)http_config(rq)->degraded_after_s * 1000, &h,
			  &e) < 0) {
		json_decref(problems);
		http_reply_problem(r, ERR_STORE, "database_unavailable", e.msg, NULL);
		return;
	}
	for (int i = 0; i < h.nproblems; i++)
		json_array_append_new(problems, json_string(h.problems[i]));
	body = json_pack("{s:s,s:i,s:s,s:{s:i,s:i}}", "status", h.nproblems ? "degraded" : "ok", "schema", h.schema,
			 "version", version_text, "notifications", "dead_last_24h", h.dead_recent, "failing",
			 h.failing);
	if (h.nproblems)
		json_object_set_new(body, "problems", problems);
	else
		json_decref(problems);
	http_reply_json(r, 200, body);
}

void api_public_readyz(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int schema;

	if (health_check(http_store(rq), &schema, &e) < 0) {
		http_reply_problem(r, ERR_STORE, "database_unavailable", e.msg, NULL);
		return;
	}
	http_reply_json(r, 200, json_pack("{s:s}", "status", "ready"));
}

void api_public_metrics(struct http_request *rq, struct http_reply *r)
{
	const struct http_config *cfg = http_config(rq);

	switch (metrics_access(rq->client, http_header(rq, "Authorization"), cfg->metrics_allow, cfg->metrics_token)) {
	case 403:
		http_reply_problem(r, ERR_FORBIDDEN, "metrics_forbidden",
				   "/metrics is open only to the addresses of --metrics-allow", NULL);
		return;
	case 401:
		http_reply_problem(r, ERR_UNAUTH, "metrics_unauthorized",
				   "send the token of --metrics-token as \"Authorization: Bearer TOKEN\"", NULL);
		return;
	default:
		break;
	}
	r->status = 200;
	r->content_type = "text/plain; version=0.0.4";
	metrics_render(&r->body, http_store(rq));
}

void api_public_catalog(struct http_request *rq, struct http_reply *r)
{
	json_t *games = json_array();
	const struct game_ops *ops;

	(void)rq;
	for (size_t i = 0; (ops = registry_at(i)); i++) {
		json_t *g = json_object();
		json_object_set_new(g, "id", json_string(ops->id));
		json_object_set_new(g, "title", json_string(ops->title));
		json_object_set_new(g, "min_players", json_integer(ops->min_players));
		json_object_set_new(g, "max_players", json_integer(ops->max_players));
		json_object_set_new(g, "options", ops->options ? ops->options() : json_object());
		json_array_append_new(games, g);
	}
	http_reply_json(r, 200, json_pack("{s:o}", "games", games));
}
