/* http/console_web.c: the admin console's list pages: games with filters, the audit log */
/* SPDX-License-Identifier: MIT */
#include "http/console_web.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/manage.h"
#include "engine/registry.h"
#include "http/console.h"
#include "http/web.h"
#include "util/clock.h"
#include "util/banned.h"

#define HOUR_MS (3600LL * 1000)
#define AUDIT_PAGE 100

static const char *const actions[] = { "rollback", "seat_replace", "drop", "extend_deadline", "abort",
				       "outbox_resend", "token_revoke", "import", "verify", NULL };

void console_web_index(struct http_request *rq, struct http_reply *r)
{
	struct store_game_filter f = { .game = http_query(rq, "game"), .status = http_query(rq, "status"),
					.email = http_query(rq, "email") };
	const char *dead = http_query(rq, "dead"), *days_text = http_query(rq, "waiting_days");
	const struct game_ops *ops;
	json_t *games = json_array(), *list = NULL, *g, *data;
	struct err e = {0};
	long days = 0;
	int64_t now = clock_now_ms();
	size_t i;

	for (size_t k = 0; (ops = registry_at(k)); k++)
		json_array_append_new(games, json_pack("{s:s,s:s,s:b}", "id", ops->id, "title", ops->title, "selected",
						       f.game && strcmp(f.game, ops->id) == 0));
	data = json_pack("{s:o,s:s,s:s,s:b,s:b,s:b,s:b}", "games", games, "email", f.email ? f.email : "",
			 "waiting_days", days_text ? days_text : "", "dead", dead && *dead, "st_active",
			 f.status && strcmp(f.status, "active") == 0, "st_finished", f.status && strcmp(f.status, "finished") == 0,
			 "st_aborted", f.status && strcmp(f.status, "aborted") == 0);
	if (days_text && *days_text && console_int_arg(days_text, 36600, &days) < 0) {
		json_object_set_new(data, "error", json_string("Waiting longer than: give a whole number of days."));
		web_render(rq, r, 400, "admin", "Admin", data);
		return;
	}
	if (days > 0)
		f.idle_before = now - days * 24 * HOUR_MS;
	f.dead = dead && *dead;
	if (manage_games(http_store(rq), &f, &list, &e) < 0) {
		json_object_set_new(data, "error", json_string(e.msg));
		web_render(rq, r, 500, "admin", "Admin", data);
		return;
	}
	json_array_foreach(list, i, g) {
		char ago[32], *players;
		struct buf b = BUF_INIT;
		size_t k;
		json_t *s;

		json_array_foreach(json_object_get(g, "seats"), k, s) {
			const char *email = json_string_value(json_object_get(s, "email"));
			buf_addf(&b, "%s%s%s%s%s", k ? ", " : "", json_string_value(json_object_get(s, "name")),
				 email ? " <" : "", email ? email : "", email ? ">" : "");
		}
		players = buf_detach(&b, NULL);
		json_object_set_new(g, "players", json_string(players));
		free(players);
		clock_format_ago(now - json_integer_value(json_object_get(g, "updated_at")), ago);
		json_object_set_new(g, "waited", json_string(ago));
	}
	json_object_set_new(data, "list", list);
	json_object_set_new(data, "count", json_integer((json_int_t)json_array_size(list)));
	json_object_set_new(data, "has_list", json_boolean(json_array_size(list) > 0));
	json_object_set_new(data, "no_match", json_boolean(json_array_size(list) == 0));
	if (console_done_text(http_query(rq, "done")))
		json_object_set_new(data, "flash", json_string(console_done_text(http_query(rq, "done"))));
	web_render(rq, r, 200, "admin", "Admin", data);
}

void console_web_audit(struct http_request *rq, struct http_reply *r)
{
	struct store_audit_filter f = { .action = http_query(rq, "action"), .actor = http_query(rq, "actor"),
					.limit = AUDIT_PAGE };
	const char *game_text = http_query(rq, "game");
	struct err e = {0};
	json_t *list = NULL, *data, *acts = json_array(), *x;
	long game = 0, before = 0;
	size_t i;

	for (int k = 0; actions[k]; k++)
		json_array_append_new(acts, json_pack("{s:s,s:b}", "id", actions[k], "selected",
						      f.action && strcmp(f.action, actions[k]) == 0));
	data = json_pack("{s:o,s:s,s:s}", "actions", acts, "actor", f.actor ? f.actor : "", "game",
			 game_text ? game_text : "");
	if ((game_text && *game_text && console_int_arg(game_text, 1L << 40, &game) < 0) ||
	    console_int_arg(http_query(rq, "before"), 1L << 40, &before) < 0) {
		json_object_set_new(data, "error", json_string("Game: give a game number."));
		web_render(rq, r, 400, "admin_audit", "Audit log", data);
		return;
	}
	f.game_id = game;
	f.before_id = before;
	if (manage_audit(http_store(rq), &f, &list, &e) < 0) {
		json_object_set_new(data, "error", json_string(e.msg));
		web_render(rq, r, 500, "admin_audit", "Audit log", data);
		return;
	}
	json_array_foreach(list, i, x) {
		char *d = console_short_text(json_object_get(x, "detail"));
		json_object_set_new(x, "detail_text", json_string(d));
		free(d);
	}
	if (json_array_size(list) == AUDIT_PAGE) {
		/* the next page: same filters, older rows */
		struct buf q = BUF_INIT;
		json_int_t last = json_integer_value(json_object_get(json_array_get(list, AUDIT_PAGE - 1), "id"));
		buf_addf(&q, "/admin/audit?before=%lld", (long long)last);
		if (game)
			buf_addf(&q, "&game=%ld", game);
		for (int k = 0; f.action && actions[k]; k++)
			if (strcmp(f.action, actions[k]) == 0)
				buf_addf(&q, "&action=%s", actions[k]);
		json_object_set_new(data, "older", json_string(q.data));
		buf_release(&q);
	}
	json_object_set_new(data, "rows", list);
	web_render(rq, r, 200, "admin_audit", "Audit log", data);
}
