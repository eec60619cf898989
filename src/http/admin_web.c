/* http/admin_web.c: the admin console's pages under /admin: games, a game's timeline, steps, actions, audit log */
/* SPDX-License-Identifier: MIT */
#include "http/admin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/play.h"
#include "engine/play_admin.h"
#include "engine/registry.h"
#include "http/api.h"
#include "http/board.h"
#include "http/form.h"
#include "http/web.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/banned.h"

#define HOUR_MS (3600LL * 1000)
#define VALUE_SHOWN 300
#define AUDIT_ON_GAME 20
#define AUDIT_PAGE 100

/* What a finished action says on the page it returns to (?done=...): fixed texts, never taken from the URL. */
static const struct {
	const char *code;
	const char *text;
} done_texts[] = {
	{ "rollback", "Rolled back. The players were told by email." },
	{ "seat", "The seat has its new player; the old links no longer work." },
	{ "drop", "The player was dropped and told by email." },
	{ "extend", "The deadline was extended." },
	{ "abort", "The game was aborted. The players were told by email." },
	{ "import", "The replay file was imported and verified." },
	{ "resend", "The notification is queued again." },
	{ "revoke", "The token was revoked." },
};

static const char *const actions[] = { "rollback", "seat_replace", "drop", "extend_deadline", "abort",
				       "outbox_resend", "token_revoke", "import", "verify", NULL };

static struct play_admin_actor actor(const struct http_request *rq)
{
	struct play_admin_actor a = { .user_id = rq->sess.user_id, .channel = "web", .client = rq->client,
				      .reason = form_get(rq->form, "reason") };
	return a;
}

/* A JSON value as short text for a page. */
static char *short_text(const json_t *v)
{
	char *text;

	if (!v)
		return strdup("(none)");
	if (json_is_string(v))
		text = strdup(json_string_value(v));
	else
		text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	if (text && strlen(text) > VALUE_SHOWN)
		memcpy(text + VALUE_SHOWN - 3, "...", 4);
	return text ? text : strdup("?");
}

static void set_when(json_t *o, const char *key, int64_t ms)
{
	char t[32];

	clock_format_human(ms, t);
	json_object_set_new(o, key, json_string(t));
}

/* ---- the games list ---- */

void admin_web_index(struct http_request *rq, struct http_reply *r)
{
	struct store_admin_filter f = { .game = http_query(rq, "game"), .status = http_query(rq, "status"),
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
	if (days_text && *days_text && admin_int_arg(days_text, 36600, &days) < 0) {
		json_object_set_new(data, "error", json_string("Waiting longer than: give a whole number of days."));
		web_render(rq, r, 400, "admin", "Admin", data);
		return;
	}
	if (days > 0)
		f.idle_before = now - days * 24 * HOUR_MS;
	f.dead = dead && *dead;
	if (play_admin_games(http_store(rq), &f, &list, &e) < 0) {
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
	for (size_t k = 0; k < sizeof(done_texts) / sizeof(done_texts[0]); k++)
		if (http_query(rq, "done") && strcmp(http_query(rq, "done"), done_texts[k].code) == 0)
			json_object_set_new(data, "flash", json_string(done_texts[k].text));
	web_render(rq, r, 200, "admin", "Admin", data);
}

/* ---- one game ---- */

/* The admin page of a game; error (may be NULL) is shown inline, flash too. */
static void game_page(struct http_request *rq, struct http_reply *r, int64_t id, int status, const char *error,
		      const char *flash)
{
	struct store_audit_filter af = { .game_id = id, .limit = AUDIT_ON_GAME };
	struct err e = {0};
	json_t *g = NULL, *tl = NULL, *audit = NULL, *data, *s, *x, *choices = json_array();
	char title[128];
	size_t i;

	if (play_admin_game(http_store(rq), id, &g, &e) < 0 || play_admin_timeline(http_store(rq), id, &tl, &e) < 0 ||
	    play_admin_audit(http_store(rq), &af, &audit, &e) < 0) {
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
		char *p = short_text(json_object_get(x, "payload"));
		json_object_set_new(x, "payload_text", json_string(p));
		json_object_set_new(x, "is_dead", json_boolean(strcmp(json_string_value(json_object_get(x, "state")), "dead") == 0));
		free(p);
	}
	json_array_foreach(audit, i, x) {
		char *d = short_text(json_object_get(x, "detail"));
		json_object_set_new(x, "detail_text", json_string(d));
		free(d);
	}
	json_object_set_new(g, "steps", json_incref(json_object_get(tl, "steps")));
	json_object_set_new(g, "last_step", json_integer(json_integer_value(json_object_get(g, "move_count")) - 1 < 0
		? 0 : json_integer_value(json_object_get(g, "move_count")) - 1));
	json_object_set_new(g, "active", json_boolean(strcmp(json_string_value(json_object_get(g, "status")), "active") == 0));
	json_object_set_new(g, "has_steps", json_boolean(json_integer_value(json_object_get(g, "move_count")) > 0));
	set_when(g, "created", json_integer_value(json_object_get(g, "created_at")));
	set_when(g, "updated", json_integer_value(json_object_get(g, "updated_at")));
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

void admin_web_game(struct http_request *rq, struct http_reply *r)
{
	const char *done = http_query(rq, "done"), *flash = NULL;

	for (size_t k = 0; done && k < sizeof(done_texts) / sizeof(done_texts[0]); k++)
		if (strcmp(done, done_texts[k].code) == 0)
			flash = done_texts[k].text;
	game_page(rq, r, rq->ids[0], 200, NULL, flash);
}

/* After an action on game id: back to its page with the outcome, or the page with the error. */
static void after_action(struct http_request *rq, struct http_reply *r, int64_t id, int rc, const struct err *e,
			 const char *code)
{
	char path[96];

	if (rc < 0) {
		game_page(rq, r, id, http_status_for(rc), e->msg, NULL);
		return;
	}
	snprintf(path, sizeof(path), "/admin/games/%lld?done=%s", (long long)id, code);
	http_reply_redirect(r, path);
}

/* A whole-number form field; -1 with the page answered when malformed. */
static int form_int(struct http_request *rq, struct http_reply *r, int64_t id, const char *name, long max, long *out)
{
	const char *v = form_get(rq->form, name);
	char msg[96];

	if (v && admin_int_arg(v, max, out) == 0)
		return 0;
	snprintf(msg, sizeof(msg), "\"%s\" must be a whole number from 0 to %ld.", name, max);
	game_page(rq, r, id, 400, msg, NULL);
	return -1;
}

void admin_web_rollback(struct http_request *rq, struct http_reply *r)
{
	struct play_admin_actor a = actor(rq);
	struct err e = {0};
	long to;

	if (form_int(rq, r, rq->ids[0], "to", 1000000000, &to) < 0)
		return;
	after_action(rq, r, rq->ids[0], play_admin_rollback(http_store(rq), &a, rq->ids[0], (int)to, NULL, &e), &e,
		     "rollback");
}

void admin_web_seat(struct http_request *rq, struct http_reply *r)
{
	struct play_admin_actor a = actor(rq);
	const char *name = form_get(rq->form, "name"), *email = form_get(rq->form, "email");
	struct err e = {0};
	long seat;

	if (form_int(rq, r, rq->ids[0], "seat", GAME_MAX_SEATS - 1, &seat) < 0)
		return;
	if (name && *name && !api_valid_name(name)) {
		game_page(rq, r, rq->ids[0], 400, "A name is 1 to 80 printable characters.", NULL);
		return;
	}
	if (email && *email && !api_valid_email(email)) {
		game_page(rq, r, rq->ids[0], 400, "That is not an email address.", NULL);
		return;
	}
	after_action(rq, r, rq->ids[0],
		     play_admin_seat_replace(http_store(rq), &a, rq->ids[0], (int)seat, name, email, NULL, &e), &e, "seat");
}

void admin_web_drop(struct http_request *rq, struct http_reply *r)
{
	struct play_admin_actor a = actor(rq);
	struct err e = {0};
	long seat;

	if (form_int(rq, r, rq->ids[0], "seat", GAME_MAX_SEATS - 1, &seat) < 0)
		return;
	after_action(rq, r, rq->ids[0], play_admin_drop(http_store(rq), &a, rq->ids[0], (int)seat, NULL, &e), &e, "drop");
}

void admin_web_extend(struct http_request *rq, struct http_reply *r)
{
	struct play_admin_actor a = actor(rq);
	struct err e = {0};
	long seat, hours;

	if (form_int(rq, r, rq->ids[0], "seat", GAME_MAX_SEATS - 1, &seat) < 0 ||
	    form_int(rq, r, rq->ids[0], "hours", 366 * 24, &hours) < 0)
		return;
	after_action(rq, r, rq->ids[0],
		     play_admin_extend(http_store(rq), &a, rq->ids[0], (int)seat, hours * HOUR_MS, NULL, &e), &e, "extend");
}

void admin_web_abort(struct http_request *rq, struct http_reply *r)
{
	struct play_admin_actor a = actor(rq);
	struct err e = {0};

	after_action(rq, r, rq->ids[0], play_admin_abort(http_store(rq), &a, rq->ids[0], NULL, &e), &e, "abort");
}

void admin_web_verify(struct http_request *rq, struct http_reply *r)
{
	struct play_admin_actor a = actor(rq);
	struct err e = {0};
	char msg[sizeof(e.msg) + 64];
	int first_bad, rc = play_admin_verify(http_store(rq), &a, rq->ids[0], &first_bad, NULL, &e);

	if (rc == 0) {
		game_page(rq, r, rq->ids[0], 200, NULL,
			  "Verified: a replay from the set-up and the log gives every stored snapshot.");
	} else if (rc == ERR_CONFLICT) {
		snprintf(msg, sizeof(msg), "Verify found a difference at step %d: %s", first_bad, e.msg);
		game_page(rq, r, rq->ids[0], 200, msg, NULL);
	} else {
		game_page(rq, r, rq->ids[0], http_status_for(rc), e.msg, NULL);
	}
}

void admin_web_export(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o;
	char *text;
	int rc = play_export(http_store(rq), rq->ids[0], &o, &e);

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

void admin_web_import(struct http_request *rq, struct http_reply *r)
{
	struct play_admin_actor a = actor(rq);
	const char *text = form_get(rq->form, "replay");
	json_error_t jerr;
	struct err e = {0};
	json_t *file, *res = NULL, *data;
	char path[64], msg[300];
	int rc;

	file = text ? json_loads(text, 0, &jerr) : NULL;
	if (!file) {
		snprintf(msg, sizeof(msg), "The replay file is not JSON%s%s.", text ? ": " : "", text ? jerr.text : "");
		data = json_pack("{s:s,s:s}", "import_error", msg, "reason", a.reason ? a.reason : "");
		web_render(rq, r, 400, "admin", "Admin", data);
		return;
	}
	rc = play_admin_import(http_store(rq), &a, file, &res, &e);
	json_decref(file);
	if (rc < 0) {
		data = json_pack("{s:s,s:s}", "import_error", e.msg, "reason", a.reason ? a.reason : "");
		web_render(rq, r, http_status_for(rc), "admin", "Admin", data);
		return;
	}
	snprintf(path, sizeof(path), "/admin/games/%lld?done=import", (long long)json_integer_value(json_object_get(res, "id")));
	json_decref(res);
	http_reply_redirect(r, path);
}

/* Where a form of the games list or of a game page returns to: its "game" field, else the list. */
static void back_to(struct http_request *rq, struct http_reply *r, int rc, const struct err *e, const char *code)
{
	long game = 0;
	char path[96];

	if (admin_int_arg(form_get(rq->form, "game"), 1L << 40, &game) == 0 && game > 0) {
		after_action(rq, r, game, rc, e, code);
		return;
	}
	if (rc < 0) {
		web_error_page(rq, r, http_status_for(rc), e->msg);
		return;
	}
	snprintf(path, sizeof(path), "/admin?done=%s", code);
	http_reply_redirect(r, path);
}

void admin_web_resend(struct http_request *rq, struct http_reply *r)
{
	struct play_admin_actor a = actor(rq);
	struct err e = {0};

	back_to(rq, r, play_admin_resend(http_store(rq), &a, rq->ids[0], NULL, &e), &e, "resend");
}

void admin_web_revoke(struct http_request *rq, struct http_reply *r)
{
	struct play_admin_actor a = actor(rq);
	struct err e = {0};
	long id;
	int rc;

	if (admin_int_arg(form_get(rq->form, "token"), 1L << 40, &id) < 0 || id <= 0) {
		e.code = ERR_INPUT;
		snprintf(e.msg, sizeof(e.msg), "Give the number of the token to revoke.");
		back_to(rq, r, ERR_INPUT, &e, "revoke");
		return;
	}
	rc = play_admin_revoke(http_store(rq), &a, id, NULL, &e);
	back_to(rq, r, rc, &e, "revoke");
}

/* ---- the position at a step ---- */

static json_t *view_items(const json_t *view)
{
	json_t *items = json_array(), *v;
	const char *key;

	json_object_foreach((json_t *)view, key, v) {
		char *text = short_text(v);
		json_array_append_new(items, json_pack("{s:s,s:s}", "key", key, "value", text));
		free(text);
	}
	return items;
}

void admin_web_step(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct err e = {0};
	struct buf svg = BUF_INIT;
	json_t *p = NULL, *other = NULL, *data, *changes, *c;
	long n = -1, diff = -1;
	int rc, count;
	char title[128];
	size_t i;

	if ((rc = play_move_count(http_store(rq), id, &count, &e)) < 0) {
		web_error_page(rq, r, rc == ERR_NOTFOUND ? 404 : 500, rc == ERR_NOTFOUND ? "No such game." : e.msg);
		return;
	}
	n = count;
	if (admin_int_arg(http_query(rq, "n"), count, &n) < 0 ||
	    admin_int_arg(http_query(rq, "diff"), count, &diff) < 0) {
		snprintf(title, sizeof(title), "This game has steps 0 (the set-up) to %d.", count);
		web_error_page(rq, r, 404, title);
		return;
	}
	if ((rc = play_admin_position(http_store(rq), id, (int)n, &p, &e)) < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	if (board_svg(json_string_value(json_object_get(p, "game")), json_object_get(p, "view"), json_object_get(p, "seats"),
		      -1, &svg) == 0)
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
		if ((rc = play_admin_position(http_store(rq), id, (int)diff, &other, &e)) < 0) {
			json_decref(p);
			web_error_page(rq, r, http_status_for(rc), e.msg);
			return;
		}
		/* older step first, whichever way round it was asked */
		changes = diff < n ? play_admin_diff(json_object_get(other, "view"), json_object_get(p, "view"), 0)
				   : play_admin_diff(json_object_get(p, "view"), json_object_get(other, "view"), 0);
		json_array_foreach(changes, i, c) {
			char *b = short_text(json_object_get(c, "before")), *a = short_text(json_object_get(c, "after"));
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

/* ---- the audit log ---- */

void admin_web_audit(struct http_request *rq, struct http_reply *r)
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
	if ((game_text && *game_text && admin_int_arg(game_text, 1L << 40, &game) < 0) ||
	    admin_int_arg(http_query(rq, "before"), 1L << 40, &before) < 0) {
		json_object_set_new(data, "error", json_string("Game: give a game number."));
		web_render(rq, r, 400, "admin_audit", "Audit log", data);
		return;
	}
	f.game_id = game;
	f.before_id = before;
	if (play_admin_audit(http_store(rq), &f, &list, &e) < 0) {
		json_object_set_new(data, "error", json_string(e.msg));
		web_render(rq, r, 500, "admin_audit", "Audit log", data);
		return;
	}
	json_array_foreach(list, i, x) {
		char *d = short_text(json_object_get(x, "detail"));
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
