/* http/console_form.c: the admin console's forms: rollback, seat, drop, extend, abort, verify, import, re-send, revoke */
/* SPDX-License-Identifier: MIT */
#include "http/console_form.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/account.h"
#include "engine/outbox.h"
#include "engine/tokens.h"
#include "engine/engine.h"
#include "engine/manage.h"
#include "http/api.h"
#include "http/console.h"
#include "http/console_game.h"
#include "http/form.h"
#include "http/web.h"
#include "util/banned.h"

#define HOUR_MS (3600LL * 1000)

static struct actor actor(const struct http_request *rq)
{
	struct actor a = { .user_id = rq->sess.user_id, .channel = "web", .client = rq->client,
				      .reason = rq->reason };
	return a;
}

/* After an action on game id: back to its page with the outcome, or the page with the error. */
static void after_action(struct http_request *rq, struct http_reply *r, int64_t id, int rc, const struct err *e,
			 const char *code)
{
	char path[96];

	if (rc < 0) {
		console_game_page(rq, r, id, http_status_for(rc), e->msg, NULL);
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

	if (v && console_int_arg(v, max, out) == 0)
		return 0;
	snprintf(msg, sizeof(msg), "\"%s\" must be a whole number from 0 to %ld.", name, max);
	console_game_page(rq, r, id, 400, msg, NULL);
	return -1;
}

void console_form_rollback(struct http_request *rq, struct http_reply *r)
{
	struct actor a = actor(rq);
	struct err e = {0};
	long to;

	if (form_int(rq, r, rq->ids[0], "to", 1000000000, &to) < 0)
		return;
	after_action(rq, r, rq->ids[0], manage_rollback(http_store(rq), &a, rq->ids[0], (int)to, NULL, &e), &e,
		     "rollback");
}

void console_form_seat(struct http_request *rq, struct http_reply *r)
{
	struct actor a = actor(rq);
	const char *name = form_get(rq->form, "name"), *email = form_get(rq->form, "email");
	struct err e = {0};
	long seat;

	if (form_int(rq, r, rq->ids[0], "seat", GAME_MAX_SEATS - 1, &seat) < 0)
		return;
	if (name && *name && !account_valid_name(name)) {
		console_game_page(rq, r, rq->ids[0], 400, "A name is 1 to 80 printable characters.", NULL);
		return;
	}
	if (email && *email && !account_valid_email(email)) {
		console_game_page(rq, r, rq->ids[0], 400, "That is not an email address.", NULL);
		return;
	}
	after_action(rq, r, rq->ids[0],
		     manage_seat_replace(http_store(rq), &a, rq->ids[0], (int)seat, name, email, NULL, &e), &e, "seat");
}

void console_form_drop(struct http_request *rq, struct http_reply *r)
{
	struct actor a = actor(rq);
	struct err e = {0};
	long seat;

	if (form_int(rq, r, rq->ids[0], "seat", GAME_MAX_SEATS - 1, &seat) < 0)
		return;
	after_action(rq, r, rq->ids[0], manage_drop(http_store(rq), &a, rq->ids[0], (int)seat, NULL, &e), &e, "drop");
}

void console_form_extend(struct http_request *rq, struct http_reply *r)
{
	struct actor a = actor(rq);
	struct err e = {0};
	long seat, hours;

	if (form_int(rq, r, rq->ids[0], "seat", GAME_MAX_SEATS - 1, &seat) < 0 ||
	    form_int(rq, r, rq->ids[0], "hours", 366 * 24, &hours) < 0)
		return;
	after_action(rq, r, rq->ids[0],
		     manage_extend(http_store(rq), &a, rq->ids[0], (int)seat, hours * HOUR_MS, NULL, &e), &e, "extend");
}

void console_form_abort(struct http_request *rq, struct http_reply *r)
{
	struct actor a = actor(rq);
	struct err e = {0};

	after_action(rq, r, rq->ids[0], manage_abort(http_store(rq), &a, rq->ids[0], NULL, &e), &e, "abort");
}

void console_form_verify(struct http_request *rq, struct http_reply *r)
{
	struct actor a = actor(rq);
	struct err e = {0};
	char msg[sizeof(e.msg) + 64];
	int first_bad, rc = manage_verify(http_store(rq), &a, rq->ids[0], &first_bad, NULL, &e);

	if (rc == 0) {
		console_game_page(rq, r, rq->ids[0], 200, NULL,
			  "Verified: a replay from the set-up and the log gives every stored snapshot.");
	} else if (rc == ERR_CONFLICT) {
		snprintf(msg, sizeof(msg), "Verify found a difference at step %d: %s", first_bad, e.msg);
		console_game_page(rq, r, rq->ids[0], 200, msg, NULL);
	} else {
		console_game_page(rq, r, rq->ids[0], http_status_for(rc), e.msg, NULL);
	}
}

void console_form_import(struct http_request *rq, struct http_reply *r)
{
	struct actor a = actor(rq);
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
	rc = manage_import(http_store(rq), &a, file, form_get(rq->form, "notify") != NULL, &res, &e);
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

	if (console_int_arg(form_get(rq->form, "game"), 1L << 40, &game) == 0 && game > 0) {
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

void console_form_resend(struct http_request *rq, struct http_reply *r)
{
	struct actor a = actor(rq);
	struct err e = {0};

	back_to(rq, r, outbox_resend(http_store(rq), &a, rq->ids[0], NULL, &e), &e, "resend");
}

void console_form_revoke(struct http_request *rq, struct http_reply *r)
{
	struct actor a = actor(rq);
	struct err e = {0};
	long id;
	int rc;

	if (console_int_arg(form_get(rq->form, "token"), 1L << 40, &id) < 0 || id <= 0) {
		e.code = ERR_INPUT;
		snprintf(e.msg, sizeof(e.msg), "Give the number of the token to revoke.");
		back_to(rq, r, ERR_INPUT, &e, "revoke");
		return;
	}
	rc = tokens_revoke(http_store(rq), &a, id, NULL, &e);
	back_to(rq, r, rc, &e, "revoke");
}
