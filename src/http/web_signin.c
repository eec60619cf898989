/* http/web_signin.c: signing in and out: email links, seat links, sign-out */
/* SPDX-License-Identifier: MIT */
#include "http/web_signin.h"

#include <stdio.h>

#include "engine/signin.h"
#include "http/form.h"
#include "http/session.h"
#include "http/web.h"
#include "util/clock.h"
#include "util/banned.h"

void web_signin_form(struct http_request *rq, struct http_reply *r)
{
	web_render(rq, r, 200, "signin", "Sign in", NULL);
}

void web_signin_send(struct http_request *rq, struct http_reply *r)
{
	const char *email = form_get(rq->form, "email");
	struct err e = {0};
	char key[300];

	/* abuse limits per address asked for and per client, the same whether or not the address has an account */
	snprintf(key, sizeof(key), "%s", email ? email : "");
	for (char *p = key; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	if (http_limited(rq, r, RATELIMIT_SIGNIN_EMAIL, key, 1, 0) ||
	    http_limited(rq, r, RATELIMIT_SIGNIN_CLIENT, rq->client, 1, 0) ||
	    http_limited(rq, r, RATELIMIT_SIGNIN_EMAIL, key, 1, 1) ||
	    http_limited(rq, r, RATELIMIT_SIGNIN_CLIENT, rq->client, 1, 1))
		return;
	/* the same answer whether or not the address has an account: no one learns who plays here */
	if (signin_link_request(http_store(rq), email, clock_now_ms(), &e) == ERR_INPUT) {
		web_render(rq, r, 400, "signin", "Sign in",
			   json_pack("{s:s,s:s}", "email", email ? email : "", "error", e.msg));
		return;
	}
	web_render(rq, r, 200, "signin", "Sign in", json_pack("{s:b,s:s}", "sent", 1, "email", email));
}

void web_signin_confirm(struct http_request *rq, struct http_reply *r)
{
	web_render(rq, r, 200, "signin_confirm", "Sign in", json_pack("{s:s}", "token", rq->param));
}

void web_signin_use(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int64_t user_id;

	if (http_limited(rq, r, RATELIMIT_BAD_TOKEN, rq->client, 1, 0))
		return;
	if (signin_link_use(http_store(rq), rq->param, clock_now_ms(), &user_id, &e) < 0) {
		http_bad_token(rq);
		web_error_page(rq, r, 400, "This sign-in link has expired or was used already. Ask for a new one.");
		return;
	}
	if (session_start(rq, r, user_id, &e) < 0) {
		web_error_page(rq, r, 500, e.msg);
		return;
	}
	http_reply_redirect(r, "/");
}

/* The live seat token of a seat link, with a player; else an error page and -1. */
static int seat_link_token(struct http_request *rq, struct http_reply *r, struct tokens_holder *t)
{
	struct err e = {0};

	if (http_limited(rq, r, RATELIMIT_BAD_TOKEN, rq->client, 1, 0))
		return -1;
	if (signin_seat_link(http_store(rq), rq->param, clock_now_ms(), t, &e) < 0) {
		http_bad_token(rq);
		web_error_page(rq, r, 400, "This link has expired or is not valid. Sign in with your email instead.");
		return -1;
	}
	if (!t->user_id) {
		web_error_page(rq, r, 403, "This seat has no player account yet.");
		return -1;
	}
	return 0;
}

static void to_game(struct http_reply *r, const struct tokens_holder *t)
{
	char path[64];

	snprintf(path, sizeof(path), "/games/%lld?seat=%d", (long long)t->game_id, t->seat);
	http_reply_redirect(r, path);
}

/*
 * GET /s/TOKEN: a seat link gives a session for that seat only
 * (docs/security.md). A GET never changes who is signed in: a browser
 * signed in as another account (or holding a seat link of another
 * player) is asked first, and only the confirmation's POST switches.
 */
void web_signin_seat_link(struct http_request *rq, struct http_reply *r)
{
	const struct web_session *sess = &rq->sess;
	struct tokens_holder t;
	struct err e = {0};
	int64_t who = sess->user_id ? sess->user_id : sess->link_user;

	if (seat_link_token(rq, r, &t) < 0)
		return;
	/* signed in as this player already, or with this very seat's link */
	if ((sess->user_id && sess->user_id == t.user_id) ||
	    (sess->only_game == t.game_id && sess->only_seat == t.seat && sess->link_user == t.user_id)) {
		to_game(r, &t);
		return;
	}
	if (sess->token_id && who != t.user_id) {
		web_render(rq, r, 200, "seat_confirm", "Switch player?",
			   json_pack("{s:s,s:s,s:s}", "token", rq->param, "player", t.name, "current", sess->name));
		return;
	}
	/* signed out, or the same player's link to another of their seats: that seat's session replaces it */
	session_revoke(rq);
	if (session_start_seat(rq, r, &t, &e) < 0) {
		web_error_page(rq, r, 500, e.msg);
		return;
	}
	to_game(r, &t);
}

/* POST /s/TOKEN: the confirmation: this browser's session ends and the seat's begins. */
void web_signin_seat_switch(struct http_request *rq, struct http_reply *r)
{
	struct tokens_holder t;
	struct err e = {0};

	if (seat_link_token(rq, r, &t) < 0)
		return;
	session_revoke(rq);
	if (session_start_seat(rq, r, &t, &e) < 0) {
		web_error_page(rq, r, 500, e.msg);
		return;
	}
	to_game(r, &t);
}

void web_signin_out(struct http_request *rq, struct http_reply *r)
{
	session_end(rq, r);
	http_reply_redirect(r, "/");
}
