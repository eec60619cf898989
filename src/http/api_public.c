/* http/api_public.c: the JSON API's public routes: liveness, metrics, the catalog */
/* SPDX-License-Identifier: MIT */
#include "http/api_public.h"

#include "engine/health.h"
#include "engine/registry.h"
#include "http/metrics.h"
#include "util/version.h"
#include "util/banned.h"

void api_public_healthz(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int schema;

	if (health_check(http_store(rq), &schema, &e) < 0) {
		http_reply_problem(r, ERR_STORE, "database_unavailable", e.msg, NULL);
		return;
	}
	http_reply_json(r, 200, json_pack("{s:s,s:i,s:s}", "status", "ok", "schema", schema, "version", version_text));
}

void api_public_metrics(struct http_request *rq, struct http_reply *r)
{
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
