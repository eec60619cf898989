/* http/web.c: the HTML pages: home, sign-in, games, history, chat, account */
/* SPDX-License-Identifier: MIT */
#include "http/web.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/play.h"
#include "engine/play_admin.h"
#include "engine/registry.h"
#include "http/api.h"
#include "http/board.h"
#include "http/form.h"
#include "http/session.h"
#include "notify/notify.h"
#include "util/clock.h"
#include "util/embed.h"
#include "util/log.h"
#include "util/token.h"
#include "util/banned.h"

#define CHAT_MAX 1000
#define CHAT_SHOWN 50
#define GAMES_SHOWN 200
#define NEW_GAME_ROWS 4

static const struct {
	const char *id;
	const char *label;
} pref_events[] = {
	{ "your_turn", "It is my turn" },
	{ "invite", "I am invited to a game" },
	{ "game_over", "A game of mine is over" },
	{ "chat", "Someone writes in a game's chat" },
	{ "reminder", "A deadline is near" },
};

void web_render(struct http_request *rq, struct http_reply *r, int status, const char *name, const char *title,
		json_t *data)
{
	struct err e = {0};

	if (!data)
		data = json_object();
	json_object_set_new(data, "title", json_string(title));
	json_object_set_new(data, "csrf", json_string(rq->sess.csrf));
	if (rq->sess.user_id)
		json_object_set_new(data, "user", json_pack("{s:s,s:s,s:b}", "name", rq->sess.name, "email",
							    rq->sess.email, "admin", rq->sess.is_admin));
	buf_reset(&r->body);
	if (render_set_render(http_pages(rq), name, data, &r->body, &e) < 0) {
		log_error("rendering %s: %s", name, e.msg);
		buf_reset(&r->body);
		buf_adds(&r->body, "<!DOCTYPE html><title>Error</title><p>This page could not be drawn.</p>");
		status = 500;
	}
	json_decref(data);
	r->status = status;
	r->content_type = "text/html; charset=utf-8";
}

void web_error_page(struct http_request *rq, struct http_reply *r, int status, const char *message)
{
	const char *title = status == 404 ? "Not found" : status == 403 ? "Not allowed" : status == 401 ? "Sign in"
		: status >= 500 ? "Something went wrong" : "That did not work";

	web_render(rq, r, status, "error", title, json_pack("{s:s}", "message", message));
}

static int need_user(struct http_request *rq, struct http_reply *r)
{
	if (rq->sess.user_id)
		return 0;
	http_reply_redirect(r, "/signin");
	return -1;
}

void web_static(struct http_request *rq, struct http_reply *r)
{
	for (const struct embed_file *f = embed_static; f->name; f++) {
		size_t n = strlen(f->name);
		if (strcmp(f->name, rq->param) != 0)
			continue;
		r->status = 200;
		r->content_type = n > 4 && strcmp(f->name + n - 4, ".css") == 0 ? "text/css; charset=utf-8"
			: "text/javascript; charset=utf-8";
		r->cache = 1;
		buf_adds(&r->body, f->text);
		return;
	}
	web_error_page(rq, r, 404, "No such file.");
}

/* "Ann, Bob, Cy" */
static char *players_text(const struct store_seat *seats, int n)
{
	struct buf b = BUF_INIT;

	for (int i = 0; i < n; i++)
		buf_addf(&b, "%s%s%s", i ? ", " : "", seats[i].name, seats[i].user_id ? "" : " (open)");
	return buf_detach(&b, NULL);
}

static const char *game_title(const char *id)
{
	const struct game_ops *ops = registry_find(id);
	return ops ? ops->title : id;
}

void web_home(struct http_request *rq, struct http_reply *r)
{
	json_t *data = json_object(), *waiting = json_array(), *others = json_array(), *open = json_array();
	struct store_conn *c;
	struct err e = {0};
	int64_t *ids = NULL, *open_ids = NULL, now = clock_now_ms();
	int n = 0, nopen = 0;

	if (rq->sess.user_id && store_read_acquire(http_store(rq), &c, &e) == 0) {
		store_game_ids(c, rq->sess.user_id, GAMES_SHOWN, &ids, &n, &e);
		store_games_open(c, rq->sess.user_id, 20, &open_ids, &nopen, &e);
		store_read_release(c);
	}
	for (int i = 0; i < n + nopen; i++) {
		int64_t id = i < n ? ids[i] : open_ids[i - n];
		struct store_game g;
		struct store_seat *seats = NULL;
		int nseats = 0, mine_waiting = 0;
		char ago[32], *players;
		json_t *o;

		if (play_game_info(http_store(rq), id, &g, &seats, &nseats, &e) < 0) {
			store_game_release(&g);
			continue;
		}
		for (int k = 0; k < nseats; k++)
			if (seats[k].user_id == rq->sess.user_id && (g.active_seats & (1u << seats[k].seat)))
				mine_waiting = 1;
		players = players_text(seats, nseats);
		clock_format_ago(now - g.updated_at, ago);
		o = json_pack("{s:I,s:s,s:s,s:s}", "id", (json_int_t)g.id, "title", game_title(g.game), "players",
			      players, "waited", ago);
		if (i >= n) {
			json_array_append_new(open, o);
		} else if (mine_waiting && strcmp(g.status, "active") == 0) {
			json_array_append_new(waiting, o);
		} else {
			char state[64];
			snprintf(state, sizeof(state), "%s, %s ago", strcmp(g.status, "active") ? g.status : "their turn",
				 ago);
			json_object_set_new(o, "state", json_string(state));
			json_array_append_new(others, o);
		}
		free(players);
		store_seats_free(seats, nseats);
		store_game_release(&g);
	}
	free(ids);
	free(open_ids);
	json_object_set_new(data, "has_waiting", json_boolean(json_array_size(waiting)));
	json_object_set_new(data, "has_others", json_boolean(json_array_size(others)));
	json_object_set_new(data, "has_open", json_boolean(json_array_size(open)));
	json_object_set_new(data, "no_games", json_boolean(!json_array_size(waiting) && !json_array_size(others)));
	json_object_set_new(data, "waiting", waiting);
	json_object_set_new(data, "others", others);
	json_object_set_new(data, "open", open);
	web_render(rq, r, 200, "home", rq->sess.user_id ? "Your games" : "Welcome", data);
}

void web_signin_form(struct http_request *rq, struct http_reply *r)
{
	web_render(rq, r, 200, "signin", "Sign in", NULL);
}

void web_signin_send(struct http_request *rq, struct http_reply *r)
{
	const char *email = form_get(rq->form, "email");
	struct store_conn *c;
	struct store_user u = {0};
	struct err e = {0};

	if (!email || !api_valid_email(email)) {
		web_render(rq, r, 400, "signin", "Sign in",
			   json_pack("{s:s,s:s}", "email", email ? email : "", "error",
				     "That does not look like an email address."));
		return;
	}
	/* The same answer whether or not the address has an account: no one learns who plays here. */
	if (store_write_begin(http_store(rq), &c, &e) == 0) {
		int rc = store_user_by_email(c, email, &u, &e);
		if (rc == 0)
			rc = store_outbox_add(c, "signin", 0, -1, u.id, NULL, clock_now_ms(), &e);
		if (rc == 0)
			store_write_commit(c, &e);
		else
			store_write_rollback(c);
		store_user_release(&u);
	}
	web_render(rq, r, 200, "signin", "Sign in", json_pack("{s:b,s:s}", "sent", 1, "email", email));
}

void web_signin_confirm(struct http_request *rq, struct http_reply *r)
{
	web_render(rq, r, 200, "signin_confirm", "Sign in", json_pack("{s:s}", "token", rq->param));
}

void web_signin_use(struct http_request *rq, struct http_reply *r)
{
	unsigned char hash[32];
	struct store_conn *c;
	struct store_token t;
	struct err e = {0};
	int rc = ERR_UNAUTH;

	if (token_hash(rq->param, hash) == 0 && store_write_begin(http_store(rq), &c, &e) == 0) {
		rc = store_token_by_hash(c, hash, clock_now_ms(), &t, &e);
		if (rc == 0 && (t.kind != TOKEN_SIGNIN || !t.user_id))
			rc = ERR_UNAUTH;
		/* single use: spent before the session starts */
		if (rc == 0)
			rc = store_token_revoke(c, t.id, clock_now_ms(), &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	if (rc < 0) {
		web_error_page(rq, r, 400, "This sign-in link has expired or was used already. Ask for a new one.");
		return;
	}
	if (session_start(rq, r, t.user_id, &e) < 0) {
		web_error_page(rq, r, 500, e.msg);
		return;
	}
	http_reply_redirect(r, "/");
}

void web_seat_link(struct http_request *rq, struct http_reply *r)
{
	unsigned char hash[32];
	struct store_conn *c;
	struct store_token t = {0};
	struct err e = {0};
	char path[64];
	int rc = ERR_UNAUTH;

	if (token_hash(rq->param, hash) == 0 && store_read_acquire(http_store(rq), &c, &e) == 0) {
		rc = store_token_by_hash(c, hash, clock_now_ms(), &t, &e);
		store_read_release(c);
		if (rc == 0 && t.kind != TOKEN_SEAT)
			rc = ERR_UNAUTH;
	}
	if (rc < 0) {
		web_error_page(rq, r, 400, "This link has expired or is not valid. Sign in with your email instead.");
		return;
	}
	if (!t.user_id) {
		web_error_page(rq, r, 403, "This seat has no player account yet.");
		return;
	}
	if (rq->sess.user_id != t.user_id && session_start(rq, r, t.user_id, &e) < 0) {
		web_error_page(rq, r, 500, e.msg);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld?seat=%d", (long long)t.game_id, t.seat);
	http_reply_redirect(r, path);
}

void web_signout(struct http_request *rq, struct http_reply *r)
{
	session_end(rq, r);
	http_reply_redirect(r, "/");
}

static int pref_on(json_t *prefs, const char *event)
{
	json_t *v = json_object_get(json_object_get(prefs, "events"), event);
	return v ? json_is_true(v) : 1;
}

static void account_page(struct http_request *rq, struct http_reply *r, int status, const char *error, int saved)
{
	struct store_conn *c;
	struct store_user u = {0};
	struct err e = {0};
	json_t *prefs = NULL, *events = json_array(), *data;

	if (store_read_acquire(http_store(rq), &c, &e) == 0) {
		store_user_by_id(c, rq->sess.user_id, &u, &e);
		store_read_release(c);
	}
	prefs = u.prefs ? json_loads(u.prefs, 0, NULL) : NULL;
	for (size_t i = 0; i < sizeof(pref_events) / sizeof(pref_events[0]); i++)
		json_array_append_new(events, json_pack("{s:s,s:s,s:b}", "id", pref_events[i].id, "label",
							pref_events[i].label, "on", pref_on(prefs, pref_events[i].id)));
	data = json_pack("{s:s,s:s,s:o,s:b,s:b}", "name", u.name ? u.name : rq->sess.name, "email", rq->sess.email,
			 "events", events, "digest", json_is_true(json_object_get(prefs, "digest")), "saved", saved);
	if (error)
		json_object_set_new(data, "error", json_string(error));
	json_decref(prefs);
	store_user_release(&u);
	web_render(rq, r, status, "account", "Your account", data);
}

void web_account(struct http_request *rq, struct http_reply *r)
{
	if (need_user(rq, r) < 0)
		return;
	account_page(rq, r, 200, NULL, 0);
}

void web_account_save(struct http_request *rq, struct http_reply *r)
{
	const char *name = form_get(rq->form, "name");
	const char *email = form_get(rq->form, "email");
	const char *delivery = form_get(rq->form, "delivery");
	struct store_conn *c;
	struct err e = {0};
	json_t *prefs, *events;
	char *text = NULL;
	int rc;

	if (need_user(rq, r) < 0)
		return;
	if (!api_valid_name(name)) {
		account_page(rq, r, 400, "Your name must be 1 to 80 characters.", 0);
		return;
	}
	if (email && !api_valid_email(email)) {
		account_page(rq, r, 400, "That does not look like an email address.", 0);
		return;
	}
	if (delivery && strcmp(delivery, "immediate") != 0 && strcmp(delivery, "digest") != 0) {
		account_page(rq, r, 400, "Choose right away or a daily digest.", 0);
		return;
	}
	events = json_object();
	for (size_t i = 0; i < sizeof(pref_events) / sizeof(pref_events[0]); i++) {
		char field[32];
		snprintf(field, sizeof(field), "ev_%s", pref_events[i].id);
		json_object_set_new(events, pref_events[i].id, json_boolean(form_get(rq->form, field) != NULL));
	}
	prefs = json_pack("{s:o,s:b}", "events", events, "digest", delivery && strcmp(delivery, "digest") == 0);
	/* merged into what is stored, so settings this form does not show (the digest hour) stay */
	if ((rc = store_write_begin(http_store(rq), &c, &e)) == 0) {
		struct store_user u = {0};
		rc = store_user_by_id(c, rq->sess.user_id, &u, &e);
		if (rc == 0)
			rc = notify_prefs_merge(u.prefs, prefs, &text, &e);
		if (rc == 0)
			rc = store_user_update(c, rq->sess.user_id, name, text, &e);
		if (rc == 0 && email && strcasecmp(email, u.email) != 0)
			rc = store_user_set_email(c, rq->sess.user_id, email, &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
		store_user_release(&u);
	}
	json_decref(prefs);
	free(text);
	if (rc < 0) {
		account_page(rq, r, rc == ERR_CONFLICT || rc == ERR_INPUT ? 400 : 500, e.msg, 0);
		return;
	}
	snprintf(rq->sess.name, sizeof(rq->sess.name), "%s", name);
	if (email)
		snprintf(rq->sess.email, sizeof(rq->sess.email), "%s", email);
	account_page(rq, r, 200, NULL, 1);
}

static void new_game_page(struct http_request *rq, struct http_reply *r, int status, const char *error)
{
	json_t *games = json_array(), *rows = json_array(), *data;
	const char *chosen = rq->form ? form_get(rq->form, "game") : NULL;
	const struct game_ops *ops;

	for (size_t i = 0; (ops = registry_at(i)); i++) {
		json_t *g = json_pack("{s:s,s:s,s:i,s:i,s:b}", "id", ops->id, "title", ops->title, "min_players",
				      ops->min_players, "max_players", ops->max_players, "selected",
				      chosen && !strcmp(chosen, ops->id));
		json_t *schema = ops->options ? ops->options() : NULL, *opt, *list = json_array();
		const char *key;

		json_object_foreach(schema, key, opt) {
			const char *type = json_string_value(json_object_get(opt, "type"));
			char field[96];
			json_t *o, *choices = json_object_get(opt, "enum"), *c;
			const char *posted;
			size_t k;

			snprintf(field, sizeof(field), "opt_%s_%s", ops->id, key);
			posted = rq->form ? form_get(rq->form, field) : NULL;
			o = json_pack("{s:s,s:s,s:s}", "field", field, "name", key, "description",
				      json_string_value(json_object_get(opt, "description")) ? json_string_value(json_object_get(opt, "description")) : key);
			if (type && !strcmp(type, "boolean")) {
				json_object_set_new(o, "boolean", json_true());
				json_object_set_new(o, "checked", json_boolean(rq->form ? posted != NULL
										: json_is_true(json_object_get(opt, "default"))));
			} else if (json_is_array(choices)) {
				json_t *cl = json_array();
				json_array_foreach(choices, k, c) {
					const char *v = json_string_value(c);
					const char *def = json_string_value(json_object_get(opt, "default"));
					json_array_append_new(cl, json_pack("{s:s,s:b}", "value", v ? v : "", "selected",
									    posted ? v && !strcmp(posted, v) : v && def && !strcmp(v, def)));
				}
				json_object_set_new(o, "choices", cl);
				json_object_set_new(o, "select", json_true());
			} else {
				char *def = json_dumps(json_object_get(opt, "default"), JSON_ENCODE_ANY);
				json_object_set_new(o, "input", json_true());
				json_object_set_new(o, "number", json_boolean(type && !strcmp(type, "integer")));
				json_object_set_new(o, "value", json_string(posted ? posted
									 : json_is_string(json_object_get(opt, "default"))
									 ? json_string_value(json_object_get(opt, "default"))
									 : def ? def : ""));
				free(def);
			}
			json_array_append_new(list, o);
		}
		json_decref(schema);
		json_object_set_new(g, "has_options", json_boolean(json_array_size(list) > 0));
		json_object_set_new(g, "options", list);
		json_array_append_new(games, g);
	}
	for (int i = 0; i < NEW_GAME_ROWS; i++) {
		char nf[16], ef[16];
		const char *name, *email;
		snprintf(nf, sizeof(nf), "name%d", i);
		snprintf(ef, sizeof(ef), "email%d", i);
		name = rq->form ? form_get(rq->form, nf) : NULL;
		email = rq->form ? form_get(rq->form, ef) : NULL;
		if (!rq->form && i == 0) {
			name = rq->sess.name;
			email = rq->sess.email;
		}
		json_array_append_new(rows, json_pack("{s:i,s:i,s:s,s:s}", "i", i, "n", i + 1, "name", name ? name : "",
						      "email", email ? email : ""));
	}
	data = json_pack("{s:o,s:o}", "games", games, "rows", rows);
	{
		const char *mode = rq->form ? form_get(rq->form, "clock_mode") : NULL;
		const char *hours = rq->form ? form_get(rq->form, "clock_hours") : NULL;
		const char *inc = rq->form ? form_get(rq->form, "clock_increment") : NULL;
		const char *action = rq->form ? form_get(rq->form, "clock_timeout") : NULL;
		json_object_set_new(data, "clock", json_pack("{s:b,s:b,s:b,s:s,s:s,s:b,s:b,s:b}",
			"none", !mode || !strcmp(mode, "none"), "per_turn", mode && !strcmp(mode, "per_turn"),
			"bank", mode && !strcmp(mode, "bank"), "hours", hours ? hours : "72", "increment", inc ? inc : "24",
			"bot", !action || !strcmp(action, "bot"), "drop", action && !strcmp(action, "drop"),
			"notify", action && !strcmp(action, "notify")));
	}
	if (error)
		json_object_set_new(data, "error", json_string(error));
	web_render(rq, r, status, "new_game", "New game", data);
}

void web_new_game_form(struct http_request *rq, struct http_reply *r)
{
	if (need_user(rq, r) < 0)
		return;
	new_game_page(rq, r, 200, NULL);
}

/* The chosen game's options from the form's opt_<game>_<name> fields, typed by the game's schema. */
static int game_options(struct http_request *rq, const struct game_ops *ops, json_t **out, char *msg, size_t size)
{
	json_t *schema = ops->options ? ops->options() : NULL, *opt;
	const char *key;
	int rc = 0;

	*out = json_object();
	json_object_foreach(schema, key, opt) {
		const char *type = json_string_value(json_object_get(opt, "type"));
		const char *v;
		char field[96];

		snprintf(field, sizeof(field), "opt_%s_%s", ops->id, key);
		v = form_get(rq->form, field);
		if (type && !strcmp(type, "boolean")) {
			json_object_set_new(*out, key, json_boolean(v != NULL));
		} else if (!v || !*v) {
			continue;
		} else if (type && !strcmp(type, "integer")) {
			char *end;
			long long n = strtoll(v, &end, 10);
			if (*end) {
				snprintf(msg, size, "Option %s must be a whole number.", key);
				rc = -1;
				break;
			}
			json_object_set_new(*out, key, json_integer(n));
		} else {
			json_object_set_new(*out, key, json_string(v));
		}
	}
	json_decref(schema);
	return rc;
}

/* The time control from the form (clock_mode, clock_hours, clock_increment, clock_timeout). */
static int game_clock(struct http_request *rq, const struct game_ops *ops, struct store_clock *clock, int *have,
		      char *msg, size_t size)
{
	const char *mode = form_get(rq->form, "clock_mode"), *hours = form_get(rq->form, "clock_hours");
	const char *inc = form_get(rq->form, "clock_increment"), *action = form_get(rq->form, "clock_timeout");
	struct err e = {0};
	json_t *c;
	char *end;
	double h, i = 0;
	int rc;

	*have = 0;
	if (!mode || !strcmp(mode, "none"))
		return 0;
	h = hours ? strtod(hours, &end) : 0;
	if (!hours || *end || h <= 0) {
		snprintf(msg, size, "The time for a turn must be a number of hours.");
		return -1;
	}
	if (inc && *inc) {
		i = strtod(inc, &end);
		if (*end || i < 0) {
			snprintf(msg, size, "The increment must be a number of hours.");
			return -1;
		}
	}
	if (action && (!strcmp(action, "bot") || !strcmp(action, "drop")) && !ops->bot) {
		snprintf(msg, size, "%s has no bot to play for a player who runs out of time.", ops->title);
		return -1;
	}
	c = !strcmp(mode, "bank")
		? json_pack("{s:s,s:f,s:f,s:s}", "mode", "bank", "bank_hours", h, "increment_hours", i, "timeout",
			    action ? action : "notify")
		: json_pack("{s:s,s:f,s:s}", "mode", mode, "turn_hours", h, "timeout", action ? action : "notify");
	rc = notify_clock_parse(c, clock, &e);
	json_decref(c);
	if (rc < 0) {
		snprintf(msg, size, "%.190s", e.msg);
		return -1;
	}
	*have = 1;
	return 0;
}

void web_new_game(struct http_request *rq, struct http_reply *r)
{
	struct play_player players[GAME_MAX_SEATS];
	struct play_new_game ng = {0};
	struct store_clock clock;
	const struct game_ops *ops;
	struct err e = {0};
	json_t *options = NULL;
	char msg[200], path[48];
	int64_t id;
	int n = 0, have_clock = 0;

	if (need_user(rq, r) < 0)
		return;
	ng.game = form_get(rq->form, "game");
	if (!ng.game || !(ops = registry_find(ng.game))) {
		new_game_page(rq, r, 400, "Choose one of the games.");
		return;
	}
	for (int i = 0; i < NEW_GAME_ROWS; i++) {
		char nf[16], ef[16];
		const char *name, *email;
		snprintf(nf, sizeof(nf), "name%d", i);
		snprintf(ef, sizeof(ef), "email%d", i);
		name = form_get(rq->form, nf);
		email = form_get(rq->form, ef);
		if ((!name || !*name) && (!email || !*email))
			continue;
		if (!api_valid_name(name)) {
			snprintf(msg, sizeof(msg), "Player %d needs a name of 1 to 80 characters.", i + 1);
			new_game_page(rq, r, 400, msg);
			return;
		}
		if (email && *email && !api_valid_email(email)) {
			snprintf(msg, sizeof(msg), "Player %d: \"%.60s\" is not an email address.", i + 1, email);
			new_game_page(rq, r, 400, msg);
			return;
		}
		players[n].name = name;
		players[n].email = email && *email ? email : NULL;
		n++;
	}
	if (n < ops->min_players || n > ops->max_players) {
		snprintf(msg, sizeof(msg), "%s needs %d to %d players; you listed %d.", ops->title, ops->min_players,
			 ops->max_players, n);
		new_game_page(rq, r, 400, msg);
		return;
	}
	if (game_options(rq, ops, &options, msg, sizeof(msg)) < 0 || game_clock(rq, ops, &clock, &have_clock, msg,
											  sizeof(msg)) < 0) {
		json_decref(options);
		new_game_page(rq, r, 400, msg);
		return;
	}
	ng.options = options;
	ng.clock = have_clock ? &clock : NULL;
	ng.players = players;
	ng.nplayers = n;
	ng.created_by = rq->sess.user_id;
	if (play_game_create(http_store(rq), &ng, &id, NULL, &e) < 0) {
		json_decref(options);
		new_game_page(rq, r, 400, e.msg);
		return;
	}
	json_decref(options);
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	http_reply_redirect(r, path);
}

/* The seat this browser plays in the game: ?seat= or the form's seat when the user holds it, else their first. */
static int web_seat(struct http_request *rq, const json_t *seats_full, int64_t game_id, int *held)
{
	const char *want = rq->form ? form_get(rq->form, "seat") : http_query(rq, "seat");
	struct store_game g;
	struct store_seat *seats = NULL;
	struct err e = {0};
	int nseats = 0, found = -1, wanted = want ? (int)strtol(want, NULL, 10) : -1;

	(void)seats_full;
	*held = 0;
	if (!rq->sess.user_id || play_game_info(http_store(rq), game_id, &g, &seats, &nseats, &e) < 0) {
		store_game_release(&g);
		return -1;
	}
	for (int i = 0; i < nseats; i++) {
		if (seats[i].user_id != rq->sess.user_id)
			continue;
		(*held)++;
		if (found < 0 || seats[i].seat == wanted)
			found = seats[i].seat;
	}
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return found;
}

/* Legal steps as tap buttons: groups of at most this many before a group is split by its next word. */
#define GROUP_MAX 16
/* Sets of at most this many steps stay with their parent group when it is split. */
#define GROUP_SMALL 4

/* The n-th space-separated word of t (0-based) into word; 0, or -1 when t has fewer words. */
static int nth_word(const char *t, int n, char *word, size_t size)
{
	size_t len;

	for (; n > 0; n--) {
		t = strchr(t, ' ');
		if (!t)
			return -1;
		t++;
	}
	len = strcspn(t, " ");
	if (!len)
		return -1;
	snprintf(word, size, "%.*s", (int)(len < size - 1 ? len : size - 1), t);
	return 0;
}

/*
 * A button's label: the step with runs of the same word counted
 * ("keep food food food water" -> "keep 3×food water"). The canonical text
 * stays the submitted value.
 */
static char *step_label(const char *t)
{
	struct buf b = BUF_INIT;

	while (*t) {
		size_t len = strcspn(t, " ");
		int run = 1;
		const char *next = t + len;
		while (*next == ' ' && !strncmp(next + 1, t, len) && (next[1 + len] == ' ' || next[1 + len] == '\0')) {
			run++;
			next += 1 + len;
		}
		if (b.len)
			buf_addc(&b, ' ');
		if (run > 1)
			buf_addf(&b, "%d\xc3\x97", run);
		buf_add(&b, t, len);
		t = next;
		while (*t == ' ')
			t++;
	}
	return buf_detach(&b, NULL);
}

static void group_add(json_t *groups, const char *name, const json_t *texts)
{
	json_t *moves = json_array(), *m;
	size_t i;

	json_array_foreach(texts, i, m) {
		char *label = step_label(json_string_value(m));
		json_array_append_new(moves, json_pack("{s:O,s:s}", "value", m, "label", label));
		free(label);
	}
	{
		char *title = step_label(name);
		json_array_append_new(groups, json_pack("{s:s,s:o,s:I}", "name", title, "moves", moves, "count",
							 (json_int_t)json_array_size(texts)));
		free(title);
	}
}

/*
 * Steps sharing the first `depth` words (prefix) as one group, or, when
 * there are more than GROUP_MAX and the next word sorts them into a few
 * sets, as one group per big set (recursively), the rest kept together.
 */
static void group_split(json_t *groups, const char *prefix, const json_t *texts, int depth)
{
	json_t *byword = json_object(), *order = json_array(), *m, *key;
	size_t i, n = json_array_size(texts);

	if (n > GROUP_MAX && depth < 12) {
		json_array_foreach(texts, i, m) {
			char word[64] = "";
			json_t *set;
			nth_word(json_string_value(m), depth, word, sizeof(word));
			set = json_object_get(byword, word);
			if (!set) {
				set = json_array();
				json_object_set_new(byword, word, set);
				json_array_append_new(order, json_string(word));
			}
			json_array_append(set, m);
		}
	}
	if (json_array_size(order) < 2 || json_array_size(order) > n / 2) {
		group_add(groups, prefix, texts);
	} else {
		/* the steps that end here and the small sets stay in this group; big sets become their own */
		json_t *here = json_array();
		json_array_foreach(texts, i, m) {
			char word[64] = "";
			nth_word(json_string_value(m), depth, word, sizeof(word));
			if (!*word || json_array_size(json_object_get(byword, word)) <= GROUP_SMALL)
				json_array_append(here, m);
		}
		if (json_array_size(here))
			group_add(groups, prefix, here);
		json_decref(here);
		json_array_foreach(order, i, key) {
			const char *w = json_string_value(key);
			json_t *set = json_object_get(byword, w);
			struct buf b = BUF_INIT;
			if (!*w || json_array_size(set) <= GROUP_SMALL)
				continue;
			buf_addf(&b, "%s %s", prefix, w);
			group_split(groups, b.data, set, depth + 1);
			buf_release(&b);
		}
	}
	json_decref(byword);
	json_decref(order);
}

/*
 * The legal steps as groups for the page: by first word, long groups split
 * by the following words; each step {"value": canonical text, "label"}.
 */
static json_t *legal_groups(json_t *moves)
{
	json_t *groups = json_array(), *byname = json_object(), *order = json_array(), *m;
	size_t i;

	json_array_foreach(moves, i, m) {
		char word[32] = "";
		json_t *set;

		nth_word(json_string_value(m), 0, word, sizeof(word));
		set = json_object_get(byname, word);
		if (!set) {
			set = json_array();
			json_object_set_new(byname, word, set);
			json_array_append_new(order, json_string(word));
		}
		json_array_append(set, m);
	}
	json_array_foreach(order, i, m)
		group_split(groups, json_string_value(m), json_object_get(byname, json_string_value(m)), 1);
	json_array_foreach(groups, i, m) {
		json_int_t count = json_integer_value(json_object_get(m, "count"));
		json_object_set_new(m, "open", json_boolean(json_array_size(groups) <= 2 || count <= 8));
	}
	json_decref(byname);
	json_decref(order);
	return groups;
}

static json_t *view_items(json_t *view)
{
	json_t *items = json_array(), *v;
	const char *key;

	json_object_foreach(view, key, v) {
		char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		if (text && strlen(text) > 400)
			memcpy(text + 396, "...", 4);
		json_array_append_new(items, json_pack("{s:s,s:s}", "key", key, "value", text ? text : ""));
		free(text);
	}
	return items;
}

static char *result_text(json_t *result, json_t *seats)
{
	struct buf b = BUF_INIT;
	json_t *w;
	size_t i;

	buf_adds(&b, json_array_size(json_object_get(result, "winners")) > 1 ? "Shared win: " : "Winner: ");
	json_array_foreach(json_object_get(result, "winners"), i, w) {
		json_int_t seat = json_integer_value(w);
		json_t *score = json_array_get(json_object_get(result, "scores"), (size_t)seat);
		const char *name = json_string_value(json_object_get(json_array_get(seats, (size_t)seat), "name"));
		buf_addf(&b, "%s%s", i ? ", " : "", name ? name : "?");
		if (json_is_integer(score))
			buf_addf(&b, " (%lld)", (long long)json_integer_value(score));
	}
	if (json_string_value(json_object_get(result, "tiebreak")))
		buf_addf(&b, ". %s", json_string_value(json_object_get(result, "tiebreak")));
	return buf_detach(&b, NULL);
}

/* Render the game page; error (stolen, may be NULL) is shown inline. */
static void game_page(struct http_request *rq, struct http_reply *r, int64_t id, int status, json_t *error,
		      const char *typed)
{
	struct err e = {0};
	json_t *g = NULL, *legal = NULL, *chat = json_array(), *data, *seats, *s;
	struct store_chat *msgs = NULL;
	struct store_conn *c;
	struct buf svg = BUF_INIT;
	int held, seat, nmsgs = 0, active;
	size_t i;
	char path[48];

	seat = web_seat(rq, NULL, id, &held);
	if (play_game_json(http_store(rq), id, seat, seat >= 0 || rq->sess.is_admin, &g, &e) < 0) {
		json_decref(error);
		web_error_page(rq, r, e.code == ERR_NOTFOUND ? 404 : 500, e.code == ERR_NOTFOUND ? "No such game." : e.msg);
		return;
	}
	active = !strcmp(json_string_value(json_object_get(g, "status")), "active");
	if (seat >= 0 && active && play_legal_json(http_store(rq), id, seat, &legal, &e) == 0 &&
	    json_array_size(json_object_get(legal, "moves"))) {
		json_object_set_new(g, "your_turn", json_true());
		json_object_set_new(g, "groups", legal_groups(json_object_get(legal, "moves")));
	}
	json_decref(legal);
	json_object_set_new(g, "can_undo", json_boolean(seat >= 0 && json_integer_value(json_object_get(g, "undo_seat")) == seat));
	json_object_set_new(g, "finished", json_boolean(!active));
	json_object_set_new(g, "prompt", json_incref(json_object_get(json_object_get(g, "pending"), "prompt")));
	seats = json_object_get(g, "seats");
	json_array_foreach(seats, i, s) {
		json_int_t n = json_integer_value(json_object_get(s, "seat"));
		json_t *act = json_object_get(g, "active_seats");
		size_t k;
		json_t *a;
		json_array_foreach(act, k, a)
			if (json_integer_value(a) == n)
				json_object_set_new(s, "active", json_true());
		if (n == seat)
			json_object_set_new(s, "you", json_true());
		json_object_del(s, "email");
	}
	if (!active && json_is_object(json_object_get(g, "result"))) {
		char *t = result_text(json_object_get(g, "result"), seats);
		json_object_set_new(g, "result_text", json_string(t));
		free(t);
	}
	if (board_svg(json_string_value(json_object_get(g, "game")), json_object_get(g, "view"), seats, seat, &svg) == 0)
		json_object_set_new(g, "board", json_string(svg.data));
	else
		json_object_set_new(g, "view_items", view_items(json_object_get(g, "view")));
	buf_release(&svg);
	json_object_del(g, "view");
	if (store_read_acquire(http_store(rq), &c, &e) == 0) {
		store_chat_list(c, id, CHAT_SHOWN, &msgs, &nmsgs, &e);
		store_read_release(c);
	}
	for (int k = 0; k < nmsgs; k++) {
		char when[32];
		clock_format_human(msgs[k].at, when);
		json_array_append_new(chat, json_pack("{s:s,s:s,s:s}", "name", msgs[k].name, "text", msgs[k].text,
						      "time", when));
	}
	store_chats_free(msgs, nmsgs);
	json_object_set_new(g, "chat", chat);
	json_object_set_new(g, "can_chat", json_boolean(seat >= 0));
	{
		int any_open = 0;
		json_array_foreach(seats, i, s)
			any_open |= json_is_true(json_object_get(s, "open"));
		json_object_set_new(g, "join", json_boolean(rq->sess.user_id && seat < 0 && active && !held && any_open));
	}
	data = json_pack("{s:o}", "game", g);
	if (error)
		json_object_set_new(data, "error", error);
	if (typed)
		json_object_set_new(data, "typed", json_string(typed));
	snprintf(path, sizeof(path), "%s #%lld", json_string_value(json_object_get(g, "title")), (long long)id);
	web_render(rq, r, status, "game", path, data);
}

void web_game(struct http_request *rq, struct http_reply *r)
{
	if (need_user(rq, r) < 0)
		return;
	game_page(rq, r, rq->ids[0], 200, NULL, NULL);
}

/* Lines of a textarea: blank and # comment lines skipped. */
static int split_lines(char *text, const char **lines, int max)
{
	int n = 0;

	for (char *line = text; line && *line;) {
		char *next = strchr(line, '\n'), *p = line;
		if (next)
			*next++ = '\0';
		line[strcspn(line, "\r")] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p && *p != '#') {
			if (n == max)
				return -1;
			lines[n++] = p;
		}
		line = next;
	}
	return n;
}

/* The answer to a move from the form: the game page with the error (lines: the steps, for the failed one), or back to the game. */
static void web_move_reply(struct http_request *rq, struct http_reply *r, int64_t id, int seat, int held, int rc,
			   const struct play_outcome *out, const struct err *e, const char *const *lines,
			   const char *typed)
{
	char path[48];

	if (rc < 0) {
		json_t *error = json_pack("{s:s}", "detail",
					  rc == ERR_STALE ? "The game moved on while you were looking; here is the new "
							    "position. Nothing of yours was applied."
							  : e->msg);
		if (out->failed_line && lines) {
			json_object_set_new(error, "line", json_integer(out->failed_line));
			json_object_set_new(error, "text", json_string(lines[out->failed_line - 1]));
		}
		game_page(rq, r, id, http_status_for(rc), error, typed);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	if (held > 1)
		snprintf(path, sizeof(path), "/games/%lld?seat=%d", (long long)id, seat);
	http_reply_redirect(r, path);
}

/* A move from the form whose write waits for its commit and sync. */
struct web_move_wait {
	struct play_pending *pending;
	int64_t id;
	int seat, held;
};

static void web_move_finish(struct http_request *rq, struct http_reply *r, void *ctx)
{
	struct web_move_wait *mv = ctx;
	struct play_outcome out;
	struct err e = {0};
	json_t *res = NULL;
	int rc;

	rc = play_submit_finish(mv->pending, &res, &out, &e);
	json_decref(res);
	web_move_reply(rq, r, mv->id, mv->seat, mv->held, rc, &out, &e, NULL, form_get(rq->form, "moves"));
	free(mv);
}

void web_game_move(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	const char *one = form_get(rq->form, "move"), *typed = form_get(rq->form, "moves");
	const char *mc = form_get(rq->form, "mc");
	const char *lines[PLAY_MAX_LINES];
	struct play_submit sub = { .game_id = id, .via = "web", .client = rq->client, .if_match = -1 };
	struct play_outcome out;
	struct web_move_wait *mv;
	struct err e = {0};
	char *copy = NULL;
	int held, seat, n = 0, rc;

	if (need_user(rq, r) < 0)
		return;
	seat = web_seat(rq, NULL, id, &held);
	if (seat < 0) {
		web_error_page(rq, r, 403, "You hold no seat in this game.");
		return;
	}
	if (one && *one) {
		lines[n++] = one;
	} else if (typed) {
		copy = strdup(typed);
		n = split_lines(copy, lines, PLAY_MAX_LINES);
	}
	if (n <= 0) {
		game_page(rq, r, id, 400,
			  json_pack("{s:s}", "detail", n < 0 ? "At most 64 steps at once." : "Choose a step or type one."),
			  typed);
		free(copy);
		return;
	}
	sub.seat = seat;
	sub.lines = lines;
	sub.nlines = n;
	if (mc && *mc)
		sub.if_match = (int)strtol(mc, NULL, 10);
	if (!(mv = calloc(1, sizeof(*mv)))) {
		web_error_page(rq, r, 503, "Out of memory; try again.");
		free(copy);
		return;
	}
	mv->id = id;
	mv->seat = seat;
	mv->held = held;
	/* as for the API: the thread serves others while the move waits for the disk */
	rc = play_submit_start(http_store(rq), &sub, http_wake, rq, &mv->pending, &out, &e);
	if (rc < 0) {
		web_move_reply(rq, r, id, seat, held, rc, &out, &e, lines, typed);
		free(mv);
	} else {
		http_defer(rq, r, web_move_finish, mv);
	}
	free(copy);
}

void web_game_chat(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	const char *text = form_get(rq->form, "text");
	struct store_seat *seats = NULL;
	struct store_game g;
	struct store_conn *c;
	struct err e = {0};
	char path[48];
	int held, seat, nseats = 0, rc;
	size_t len = text ? strlen(text) : 0;

	if (need_user(rq, r) < 0)
		return;
	seat = web_seat(rq, NULL, id, &held);
	if (seat < 0) {
		web_error_page(rq, r, 403, "Only the players of a game can write in its chat.");
		return;
	}
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	if (!len || len > CHAT_MAX) {
		game_page(rq, r, id, 400, json_pack("{s:s}", "detail", "A chat message is 1 to 1000 characters."), NULL);
		return;
	}
	if ((rc = play_game_info(http_store(rq), id, &g, &seats, &nseats, &e)) == 0 &&
	    (rc = store_write_begin(http_store(rq), &c, &e)) == 0) {
		char *msg = strndup(text, len);
		int64_t now = clock_now_ms();
		rc = store_chat_add(c, id, seat, rq->sess.user_id, msg, now, &e);
		for (int i = 0; rc == 0 && i < nseats; i++)
			if (seats[i].user_id && seats[i].user_id != rq->sess.user_id)
				rc = store_outbox_add(c, "chat", id, seats[i].seat, seats[i].user_id, NULL, now, &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
		free(msg);
	}
	store_seats_free(seats, nseats);
	store_game_release(&g);
	if (rc < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	http_reply_redirect(r, path);
}

void web_game_join(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct store_conn *c;
	struct err e = {0};
	char path[48];
	int held, seat, rc;

	if (need_user(rq, r) < 0)
		return;
	if (web_seat(rq, NULL, id, &held) >= 0) {
		web_error_page(rq, r, 409, "You already play in this game.");
		return;
	}
	if ((rc = store_write_begin(http_store(rq), &c, &e)) == 0) {
		rc = store_seat_claim(c, id, rq->sess.user_id, rq->sess.name, rq->sess.email, &seat, &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	if (rc < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	http_reply_redirect(r, path);
}

void web_history(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct store_game g;
	struct store_seat *seats = NULL;
	struct err e = {0};
	json_t *moves = NULL, *list = json_array(), *m;
	int nseats = 0, held;
	size_t i;

	if (need_user(rq, r) < 0)
		return;
	if (play_game_info(http_store(rq), id, &g, &seats, &nseats, &e) < 0) {
		store_game_release(&g);
		json_decref(list);
		web_error_page(rq, r, 404, "No such game.");
		return;
	}
	if (web_seat(rq, NULL, id, &held) < 0 && !rq->sess.is_admin) {
		store_seats_free(seats, nseats);
		store_game_release(&g);
		json_decref(list);
		web_error_page(rq, r, 403, "Only the players of a game can read its history.");
		return;
	}
	/* the timeline names who sat in the seat at each step, across seat replacements and drops */
	play_admin_timeline(http_store(rq), id, &moves, &e);
	json_array_foreach(json_object_get(moves, "steps"), i, m) {
		char when[32];
		clock_format_human(json_integer_value(json_object_get(m, "at")), when);
		json_array_append_new(list, json_pack("{s:O,s:O,s:O,s:s,s:O}", "n", json_object_get(m, "n"), "player",
						      json_object_get(m, "player"), "text", json_object_get(m, "text"),
						      "time", when, "via", json_object_get(m, "via")));
	}
	json_decref(moves);
	web_render(rq, r, 200, "history", "History",
		   json_pack("{s:I,s:s,s:o}", "id", (json_int_t)id, "game_title", game_title(g.game), "moves", list));
	store_seats_free(seats, nseats);
	store_game_release(&g);
}
