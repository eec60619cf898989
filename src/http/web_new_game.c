/* http/web_new_game.c: the new-game page: choose a game, its options and clock, invite players */
/* SPDX-License-Identifier: MIT */
#include "http/web_new_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/create.h"
#include "engine/registry.h"
#include "http/form.h"
#include "http/web.h"
#include "util/banned.h"

#define NEW_GAME_ROWS 4

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
		char nf[24], ef[24];
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

/* The time control from the form (clock_mode, clock_hours, clock_increment, clock_timeout) as the engine reads it; *clock NULL for none. */
static int game_clock(struct http_request *rq, json_t **clock, char *msg, size_t size)
{
	const char *mode = form_get(rq->form, "clock_mode"), *hours = form_get(rq->form, "clock_hours");
	const char *inc = form_get(rq->form, "clock_increment"), *action = form_get(rq->form, "clock_timeout");
	char *end;
	double h, i = 0;

	*clock = NULL;
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
	*clock = !strcmp(mode, "bank")
		? json_pack("{s:s,s:f,s:f,s:s}", "mode", "bank", "bank_hours", h, "increment_hours", i, "timeout",
			    action ? action : "notify")
		: json_pack("{s:s,s:f,s:s}", "mode", mode, "turn_hours", h, "timeout", action ? action : "notify");
	return 0;
}

void web_new_game_create(struct http_request *rq, struct http_reply *r)
{
	struct create_player players[NEW_GAME_ROWS];
	struct create_request cr = {0};
	const struct game_ops *ops;
	struct err e = {0};
	json_t *options = NULL, *clock = NULL;
	char msg[200], path[48];
	int64_t id;
	int n = 0;

	/* the form is read here; what it asks for is checked by the engine (create_game), as for the API */
	cr.game = form_get(rq->form, "game");
	ops = cr.game ? registry_find(cr.game) : NULL;
	for (int i = 0; i < NEW_GAME_ROWS; i++) {
		char nf[24], ef[24];
		const char *name, *email;
		snprintf(nf, sizeof(nf), "name%d", i);
		snprintf(ef, sizeof(ef), "email%d", i);
		name = form_get(rq->form, nf);
		email = form_get(rq->form, ef);
		if ((!name || !*name) && (!email || !*email))
			continue;
		players[n].name = name ? name : "";
		players[n].email = email && *email ? email : NULL;
		n++;
	}
	if (ops && (game_options(rq, ops, &options, msg, sizeof(msg)) < 0 || game_clock(rq, &clock, msg, sizeof(msg)) < 0)) {
		json_decref(options);
		new_game_page(rq, r, 400, msg);
		return;
	}
	cr.options = options;
	cr.clock = clock;
	cr.players = players;
	cr.nplayers = n;
	cr.created_by = rq->sess.user_id;
	cr.players_see_emails = form_get(rq->form, "players_see_emails") != NULL;
	if ((!rq->sess.is_admin && http_limited_create(rq, r, rq->sess.user_id, create_invites(&cr), 0)) ||
	    create_game(http_store(rq), &cr, &id, NULL, NULL, &e) < 0) {
		json_decref(options);
		json_decref(clock);
		if (r->status != 429)
			new_game_page(rq, r, 400, e.msg);
		return;
	}
	if (!rq->sess.is_admin)
		http_limited_create(rq, r, rq->sess.user_id, create_invites(&cr), 1);
	json_decref(options);
	json_decref(clock);
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	http_reply_redirect(r, path);
}
