/* http/console_game.c: the admin console's game pages: seats, timeline, notifications, the board at a step, export */
/* SPDX-License-Identifier: MIT */
#include "http/console_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/replay.h"
#include "engine/views.h"
#include "engine/manage.h"
#include "http/console.h"
#include "http/web.h"
#include "util/clock.h"
#include "util/banned.h"

#define AUDIT_ON_GAME 20

/* The admin page of a game; error (may be NULL) is shown inline, flash too. */
void console_game_page(struct http_request *rq, struct http_reply *r, int64_t id, int status, const char *error,
		      const char *flash)
{
	struct store_audit_filter af = { .game_id = id, .limit = AUDIT_ON_GAME };
	struct err e = {0};
	json_t *g = NULL, *tl = NULL, *audit = NULL, *data, *s, *x, *choices = json_array();
	char title[128];
	size_t i;

	if (manage_game(http_store(rq), id, &g, &e) < 0 || manage_timeline(http_store(rq), id, &tl, &e) < 0 ||
	    manage_audit(http_store(rq), &af, &audit, &e) < 0) {
		json_decref(g);
		json_decref(tl);
		json_decref(choices);
		web_error_page(rq, r, e.code == ERR_NOTFOUND ? 404 : 500, e.code == ERR_NOTFOUND ? "No such game." : e.msg);
		return;
	}
	json_array_foreach(json_object_get(g, "seats"), i, s) {
		json_t *act = json_object_get(g, "active_seats"), *a;
		size_t k;
		json_array_foreach(act, k, a)
			if (json_integer_value(a) == json_integer_value(json_object_get(s, "seat")))
				json_object_set_new(s, "active", json_true());
		json_array_append_new(choices, json_pack("{s:O,s:O}", "seat", json_object_get(s, "seat"), "name",
							 json_object_get(s, "name")));
	}
	json_array_foreach(json_object_get(g, "notifications"), i, x) {
		char *p = console_short_text(json_object_get(x, "payload"));
		json_object_set_new(x, "payload_text", json_string(p));
		json_object_set_new(x, "is_dead", json_boolean(strcmp(json_string_value(json_object_get(x, "state")), "dead") == 0));
		free(p);
	}
	json_array_foreach(audit, i, x) {
		char *d = console_short_text(json_object_get(x, "detail"));
		json_object_set_new(x, "detail_text", json_string(d));
		free(d);
	}
	json_object_set_new(g, "steps", json_incref(json_object_get(tl, "steps")));
	json_object_set_new(g, "last_step", json_integer(json_integer_value(json_object_get(g, "move_count")) - 1 < 0
		? 0 : json_integer_value(json_object_get(g, "move_count")) - 1));
	json_object_set_new(g, "active", json_boolean(strcmp(json_string_value(json_object_get(g, "status")), "active") == 0));
	json_object_set_new(g, "has_steps", json_boolean(json_integer_value(json_object_get(g, "move_count")) > 0));
	console_set_when(g, "created", json_integer_value(json_object_get(g, "created_at")));
	console_set_when(g, "updated", json_integer_value(json_object_get(g, "updated_at")));
	json_object_del(g, "view");
	json_decref(tl);
	data = json_pack("{s:o,s:o,s:o,s:I}", "game", g, "seat_choices", choices, "audit", audit, "gid", (json_int_t)id);
	if (error)
		json_object_set_new(data, "error", json_string(error));
	if (flash)
		json_object_set_new(data, "flash", json_string(flash));
	snprintf(title, sizeof(title), "Admin: %s #%lld", json_string_value(json_object_get(g, "title")), (long long)id);
	web_render(rq, r, status, "admin_game", title, data);
}

void console_game_show(struct http_request *rq, struct http_reply *r)
{
	console_game_page(rq, r, rq->ids[0], 200, NULL, console_done_text(http_query(rq, "done")));
}

static json_t *view_items(const json_t *view)
{
	json_t *items = json_array(), *v;
	const char *key;

	json_object_foreach((json_t *)view, key, v) {
		char *text = console_short_text(v);
		json_array_append_new(items, json_pack("{s:s,s:s}", "key", key, "value", text));
		free(text);
	}
	return items;
}

void console_game_step(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct err e = {0};
	struct buf svg = BUF_INIT;
	json_t *p = NULL, *other = NULL, *data, *changes, *c;
	long n = -1, diff = -1;
	int rc, count;
	char title[128];
	size_t i;

	if ((rc = views_move_count(http_store(rq), id, &count, &e)) < 0) {
		web_error_page(rq, r, rc == ERR_NOTFOUND ? 404 : 500, rc == ERR_NOTFOUND ? "No such game." : e.msg);
		return;
	}
	n = count;
	if (console_int_arg(http_query(rq, "n"), count, &n) < 0 ||
	    console_int_arg(http_query(rq, "diff"), count, &diff) < 0) {
		snprintf(title, sizeof(title), "This game has steps 0 (the set-up) to %d.", count);
		web_error_page(rq, r, 404, title);
		return;
	}
	if ((rc = manage_position(http_store(rq), id, (int)n, &p, &e)) < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	if (web_board(json_string_value(json_object_get(p, "game")), json_object_get(p, "view"), json_object_get(p, "seats"),
		      -1, NULL, &svg) == 0)
		json_object_set_new(p, "board", json_string(svg.data));
	else
		json_object_set_new(p, "view_items", view_items(json_object_get(p, "view")));
	buf_release(&svg);
	if (n > 0) {
		json_object_set_new(p, "first", json_integer(0));
		json_object_set_new(p, "prev", json_integer(n - 1));
	}
	if (n < count) {
		json_object_set_new(p, "next", json_integer(n + 1));
		json_object_set_new(p, "last", json_integer(count));
	}
	if (diff >= 0) {
		if ((rc = manage_position(http_store(rq), id, (int)diff, &other, &e)) < 0) {
			json_decref(p);
			web_error_page(rq, r, http_status_for(rc), e.msg);
			return;
		}
		/* older step first, whichever way round it was asked */
		changes = diff < n ? manage_diff(json_object_get(other, "view"), json_object_get(p, "view"), 0)
				   : manage_diff(json_object_get(p, "view"), json_object_get(other, "view"), 0);
		json_array_foreach(changes, i, c) {
			char *b = console_short_text(json_object_get(c, "before")), *a = console_short_text(json_object_get(c, "after"));
			json_object_set_new(c, "before_text", json_string(b));
			json_object_set_new(c, "after_text", json_string(a));
			free(a);
			free(b);
		}
		json_object_set_new(p, "diff", json_pack("{s:i,s:i,s:o,s:b}", "from", (int)(diff < n ? diff : n), "to",
							 (int)(diff < n ? n : diff), "changes", changes, "none",
							 json_array_size(changes) == 0));
		json_decref(other);
	}
	json_object_set_new(p, "pending_names", json_null());
	{
		struct buf names = BUF_INIT;
		json_t *s;
		json_array_foreach(json_object_get(json_object_get(p, "pending"), "seats"), i, s) {
			json_t *seat = json_array_get(json_object_get(p, "seats"), (size_t)json_integer_value(s));
			buf_addf(&names, "%s%s", i ? ", " : "", json_string_value(json_object_get(seat, "name")));
		}
		if (names.len)
			json_object_set_new(p, "pending_names", json_string(names.data));
		buf_release(&names);
	}
	json_object_del(p, "view");
	data = json_pack("{s:o}", "pos", p);
	snprintf(title, sizeof(title), "Admin: %s #%lld, step %ld", json_string_value(json_object_get(p, "title")),
		 (long long)id, n);
	web_render(rq, r, 200, "admin_step", title, data);
}

void console_game_export(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o;
	char *text;
	int rc = replay_export(http_store(rq), rq->ids[0], &o, &e);

	if (rc < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	text = json_dumps(o, JSON_INDENT(1));
	json_decref(o);
	r->status = 200;
	r->content_type = "application/json";
	buf_adds(&r->body, text ? text : "{}");
	buf_addc(&r->body, '\n');
	free(text);
}
