/* http/web_channel.c: the chat forms of the pages: a game's channels, your chat ids and destinations */
/* SPDX-License-Identifier: MIT */
#include "http/web_channel.h"

#include <stdio.h>
#include <string.h>

#include "engine/account.h"
#include "engine/channel.h"
#include "http/form.h"
#include "http/web.h"
#include "http/web_game.h"
#include "notify/notify.h"
#include "util/clock.h"
#include "util/banned.h"

static const struct {
	const char *kind, *label;
} game_kinds[] = {
	{ "discord", "Discord" }, { "slack", "Slack" }, { "matrix", "Matrix" },
};

static const struct {
	const char *kind, *label;
} dest_kinds[] = {
	{ "discord", "Discord webhook" }, { "slack", "Slack webhook" }, { "matrix", "Matrix room" },
	{ "ntfy", "ntfy topic" },         { "webhook", "Signed webhook" },
};

static const struct {
	const char *id, *label;
} dest_events[] = {
	{ "your_turn", "My turn" }, { "reminder", "A deadline is near" }, { "chat", "Chat" }, { "game_over", "Game over" },
};

void web_channel_game(struct http_request *rq, int64_t id, json_t *game)
{
	struct err e = {0};
	json_t *have = NULL, *kinds = json_array();

	if (!rq->sess.user_id || channel_game_list(http_store(rq), id, rq->sess.user_id, rq->sess.is_admin, &have, &e) < 0) {
		json_decref(kinds);
		return;
	}
	for (size_t i = 0; i < sizeof(game_kinds) / sizeof(game_kinds[0]); i++) {
		int slack = strcmp(game_kinds[i].kind, "slack") == 0;
		json_t *k = json_pack("{s:s,s:s,s:b,s:b,s:b}", "kind", game_kinds[i].kind, "label", game_kinds[i].label,
				      "matrix", strcmp(game_kinds[i].kind, "matrix") == 0, "slack", slack, "can_dashboard",
				      !slack);
		size_t j;
		json_t *c;
		json_array_foreach(have, j, c)
			if (strcmp(json_string_value(json_object_get(c, "kind")), game_kinds[i].kind) == 0) {
				json_object_set(k, "hint", json_object_get(c, "hint"));
				json_object_set(k, "dashboard", json_object_get(c, "dashboard"));
			}
		json_array_append_new(kinds, k);
	}
	json_decref(have);
	json_object_set_new(game, "channels", json_pack("{s:o}", "kinds", kinds));
}

void web_channel_account(struct http_request *rq, json_t *data)
{
	struct err e = {0};
	json_t *acc = NULL, *list = NULL, *ids, *kinds = json_array(), *events = json_array(), *v;
	size_t i;

	if (account_get(http_store(rq), rq->sess.user_id, &acc, &e) < 0 ||
	    channel_user_list(http_store(rq), rq->sess.user_id, &list, &e) < 0) {
		json_decref(acc);
		json_decref(kinds);
		json_decref(events);
		return;
	}
	ids = json_object_get(json_object_get(acc, "prefs"), "chat_ids");
	json_array_foreach(list, i, v) {
		/* the kinds and events in words */
		const char *k = json_string_value(json_object_get(v, "kind"));
		struct buf words = { 0 };
		size_t n;
		json_t *ev;
		buf_init(&words);
		for (size_t j = 0; j < sizeof(dest_kinds) / sizeof(dest_kinds[0]); j++)
			if (strcmp(dest_kinds[j].kind, k) == 0)
				json_object_set_new(v, "label", json_string(dest_kinds[j].label));
		json_array_foreach(json_object_get(v, "events"), n, ev)
			for (size_t j = 0; j < sizeof(dest_events) / sizeof(dest_events[0]); j++)
				if (strcmp(dest_events[j].id, json_string_value(ev)) == 0)
					buf_addf(&words, "%s%s", words.len ? ", " : "", dest_events[j].label);
		json_object_set_new(v, "event_words", json_string(words.len ? words.data : "nothing"));
		buf_release(&words);
	}
	for (size_t j = 0; j < sizeof(dest_kinds) / sizeof(dest_kinds[0]); j++)
		json_array_append_new(kinds, json_pack("{s:s,s:s}", "kind", dest_kinds[j].kind, "label", dest_kinds[j].label));
	for (size_t j = 0; j < sizeof(dest_events) / sizeof(dest_events[0]); j++)
		json_array_append_new(events, json_pack("{s:s,s:s}", "id", dest_events[j].id, "label", dest_events[j].label));
	json_object_set_new(data, "chat",
			    json_pack("{s:O,s:o,s:o,s:o}", "ids", ids ? ids : json_object(), "destinations", list, "kinds",
				      kinds, "events", events));
	json_decref(acc);
}

/* The form's fields for kind as the API's body (new). */
static json_t *form_body(const struct form *f, const char *kind)
{
	json_t *b = json_object();
	static const char *const fields[] = { "webhook_url", "url", "homeserver", "room_id", "access_token" };

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const char *v = form_get(f, fields[i]);
		if (v && *v)
			json_object_set_new(b, fields[i], json_string(v));
	}
	/* one address field on the account page serves every kind but Matrix */
	if ((strcmp(kind, "discord") == 0 || strcmp(kind, "slack") == 0) && !json_object_get(b, "webhook_url") &&
	    json_object_get(b, "url"))
		json_object_set(b, "webhook_url", json_object_get(b, "url"));
	return b;
}

void web_channel_game_post(struct http_request *rq, struct http_reply *r)
{
	const char *kind = form_get(rq->form, "kind"), *remove = form_get(rq->form, "remove");
	struct err e = {0};
	json_t *body = NULL, *out = NULL;
	char path[64];
	int rc;

	if (remove && *remove) {
		rc = channel_game_delete(http_store(rq), rq->ids[0], rq->sess.user_id, rq->sess.is_admin, remove, &e);
	} else {
		const char *dash = form_get(rq->form, "dashboard");
		body = form_body(rq->form, kind ? kind : "");
		/* a checkbox: sent when ticked */
		json_object_set_new(body, "dashboard", json_boolean(dash && *dash));
		rc = channel_game_set(http_store(rq), rq->ids[0], rq->sess.user_id, rq->sess.is_admin, kind ? kind : "",
				      body, clock_now_ms(), &out, &e);
	}
	json_decref(body);
	json_decref(out);
	if (rc == ERR_FORBIDDEN || (rc == ERR_NOTFOUND && !remove)) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	if (rc < 0) {
		web_game_page(rq, r, rq->ids[0], rc == ERR_ILLEGAL ? 422 : 400, json_pack("{s:s}", "detail", e.msg), NULL);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld#channels", (long long)rq->ids[0]);
	http_reply_redirect(r, path);
}

void web_channel_ids_post(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *ids = json_object(), *prefs;
	int rc;

	for (const char *const *k = notify_chat_kinds; *k; k++) {
		const char *v = form_get(rq->form, *k);
		json_object_set_new(ids, *k, json_string(v ? v : ""));
	}
	prefs = json_pack("{s:o}", "chat_ids", ids);
	rc = account_update(http_store(rq), rq->sess.user_id, NULL, NULL, prefs, NULL, &e);
	json_decref(prefs);
	if (rc < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	http_reply_redirect(r, "/account#chat");
}

void web_channel_dest_add(struct http_request *rq, struct http_reply *r)
{
	const char *kind = form_get(rq->form, "kind");
	struct err e = {0};
	json_t *body, *events = json_array(), *out = NULL;
	int rc;

	body = form_body(rq->form, kind ? kind : "");
	for (size_t j = 0; j < sizeof(dest_events) / sizeof(dest_events[0]); j++) {
		char field[32];
		snprintf(field, sizeof(field), "dest_%s", dest_events[j].id);
		if (form_get(rq->form, field))
			json_array_append_new(events, json_string(dest_events[j].id));
	}
	json_object_set_new(body, "events", events);
	rc = channel_user_add(http_store(rq), rq->sess.user_id, kind ? kind : "", body, clock_now_ms(), &out, &e);
	json_decref(body);
	if (rc < 0) {
		web_error_page(rq, r, rc == ERR_ILLEGAL ? 422 : http_status_for(rc), e.msg);
		return;
	}
	if (json_object_get(out, "secret")) {
		/* shown this once */
		web_render(rq, r, 201, "account_secret", "Your webhook's secret",
			   json_pack("{s:O,s:O}", "secret", json_object_get(out, "secret"), "hint",
				     json_object_get(out, "hint")));
		json_decref(out);
		return;
	}
	json_decref(out);
	http_reply_redirect(r, "/account#chat");
}

void web_channel_dest_remove(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int rc = channel_user_delete(http_store(rq), rq->sess.user_id, rq->ids[0], &e);

	if (rc < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	http_reply_redirect(r, "/account#chat");
}
