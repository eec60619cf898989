/* http/web_signin.c: signing in and out: email links, seat links, sign-out */
/* SPDX-License-Identifier: MIT */
#include "http/web_signin.h"

#include <stdio.h>

#include "http/api.h"
#include "http/form.h"
#include "http/session.h"
#include "http/web.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

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
			rc = store_outbox_add(c, "signin", 0, -1, u.id, NULL, clock_now_ms(), NULL, &e);
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

void web_signin_seat_link(struct http_request *rq, struct http_reply *r)
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

void web_signin_out(struct http_request *rq, struct http_reply *r)
{
	session_end(rq, r);
	http_reply_redirect(r, "/");
}
