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

	if (signin_link_use(http_store(rq), rq->param, clock_now_ms(), &user_id, &e) < 0) {
		web_error_page(rq, r, 400, "This sign-in link has expired or was used already. Ask for a new one.");
		return;
	}
	if (session_start(rq, r, user_id, &e) < 0) {
		web_error_page(rq, r, 500, e.msg);
		return;
	}
	http_reply_redirect(r, "/");
}

void web_signin_seat_link(struct http_request *rq, struct http_reply *r)
{
	struct tokens_holder t;
	struct err e = {0};
	char path[64];

	if (signin_seat_link(http_store(rq), rq->param, clock_now_ms(), &t, &e) < 0) {
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
