/* http/web_account.c: the account page: name, email and notification preferences */
/* SPDX-License-Identifier: MIT */
#include "http/web_account.h"

#include <stdio.h>
#include <string.h>

#include "engine/account.h"
#include "engine/account_email.h"
#include "http/form.h"
#include "http/web_feeds.h"
#include "http/web.h"
#include "http/web_channel.h"
#include "http/web_push.h"
#include "util/clock.h"
#include "util/banned.h"

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

static int pref_on(json_t *prefs, const char *event)
{
	json_t *v = json_object_get(json_object_get(prefs, "events"), event);
	return v ? json_is_true(v) : 1;
}

static void account_page(struct http_request *rq, struct http_reply *r, int status, const char *error, int saved)
{
	struct err e = {0};
	json_t *acc = NULL, *prefs, *events = json_array(), *data;
	const char *name;
	char pending[256];

	account_get(http_store(rq), rq->sess.user_id, &acc, &e);
	prefs = json_object_get(acc, "prefs");
	name = json_string_value(json_object_get(acc, "name"));
	for (size_t i = 0; i < sizeof(pref_events) / sizeof(pref_events[0]); i++)
		json_array_append_new(events, json_pack("{s:s,s:s,s:b}", "id", pref_events[i].id, "label",
							pref_events[i].label, "on", pref_on(prefs, pref_events[i].id)));
	data = json_pack("{s:s,s:s,s:o,s:b,s:b}", "name", name ? name : rq->sess.name, "email", rq->sess.email,
			 "events", events, "digest", json_is_true(json_object_get(prefs, "digest")), "saved", saved);
	if (error)
		json_object_set_new(data, "error", json_string(error));
	if (account_email_pending(http_store(rq), rq->sess.user_id, pending, &e) == 0 && pending[0])
		json_object_set_new(data, "pending", json_string(pending));
	web_feeds_account(rq, data);
	json_decref(acc);
	web_channel_account(rq, data);
	/* this browser's notifications (templates/web/account_push.mustache) */
	web_push_account_data(rq, data);
	web_render(rq, r, status, "account", "Your account", data);
}

void web_account_show(struct http_request *rq, struct http_reply *r)
{
	account_page(rq, r, 200, NULL, 0);
}

void web_account_save(struct http_request *rq, struct http_reply *r)
{
	const char *name = form_get(rq->form, "name");
	const char *email = form_get(rq->form, "email");
	const char *delivery = form_get(rq->form, "delivery");
	struct err e = {0};
	json_t *prefs, *events;
	int rc, queued = 0;

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
	/*
	 * a new address waits for the link sent to it (docs/security.md); it is
	 * asked for first, so a refused one leaves the rest of the form unsaved too
	 */
	rc = email ? account_email_request(http_store(rq), rq->sess.user_id, email, clock_now_ms(), &queued, &e) : 0;
	/* the form always names the account: a missing name is an empty one */
	if (rc == 0)
		rc = account_update(http_store(rq), rq->sess.user_id, name ? name : "", NULL, prefs, NULL, &e);
	json_decref(prefs);
	if (rc < 0) {
		account_page(rq, r, rc == ERR_CONFLICT || rc == ERR_INPUT ? 400 : 500, e.msg, 0);
		return;
	}
	snprintf(rq->sess.name, sizeof(rq->sess.name), "%s", name ? name : "");
	account_page(rq, r, 200, NULL, 1);
}

void web_account_email_confirm(struct http_request *rq, struct http_reply *r)
{
	web_render(rq, r, 200, "account_email", "Confirm your address", json_pack("{s:s}", "token", rq->param));
}

void web_account_email_use(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int rc;

	rc = account_email_confirm(http_store(rq), rq->sess.user_id, rq->param, clock_now_ms(), NULL, &e);
	if (rc < 0) {
		web_error_page(rq, r, rc == ERR_UNAUTH ? 400 : http_status_for(rc), e.msg);
		return;
	}
	http_reply_redirect(r, "/account");
}
