/* http/session.c: browser sessions (cookie), sign-in and CSRF tokens */
/* SPDX-License-Identifier: MIT */
#include "http/session.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "store/store.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

static void csrf_from_session(const char *session_token, char out[48])
{
	unsigned char mac[24];

	crypto_generichash(mac, sizeof(mac), (const unsigned char *)"turnpost-csrf", 13,
			   (const unsigned char *)session_token, strlen(session_token));
	sodium_bin2base64(out, 48, mac, sizeof(mac), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

static int csrf_cookie_valid(const char *v)
{
	size_t n = v ? strlen(v) : 0;

	if (n != 32)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= 'A' && v[i] <= 'Z') || (v[i] >= '0' && v[i] <= '9') ||
		      v[i] == '-' || v[i] == '_'))
			return 0;
	return 1;
}

void session_load(struct http_request *rq)
{
	struct web_session *s = &rq->sess;
	const char *cookie = http_cookie(rq, SESSION_COOKIE);
	const char *dbl = http_cookie(rq, CSRF_COOKIE);
	unsigned char hash[32];
	struct store_conn *c;
	struct store_token t;
	struct err e = {0};

	memset(s, 0, sizeof(*s));
	if (cookie && token_hash(cookie, hash) == 0 && store_read_acquire(http_store(rq), &c, &e) == 0) {
		if (store_token_by_hash(c, hash, clock_now_ms(), &t, &e) == 0 && t.kind == TOKEN_SESSION &&
		    t.user_id) {
			struct store_user u;
			if (store_user_by_id(c, t.user_id, &u, &e) == 0) {
				s->token_id = t.id;
				s->user_id = u.id;
				s->is_admin = u.is_admin;
				snprintf(s->name, sizeof(s->name), "%s", u.name);
				snprintf(s->email, sizeof(s->email), "%s", u.email);
			}
			store_user_release(&u);
		}
		store_read_release(c);
	}
	if (s->token_id) {
		csrf_from_session(cookie, s->csrf);
	} else if (csrf_cookie_valid(dbl)) {
		snprintf(s->csrf, sizeof(s->csrf), "%s", dbl);
	} else {
		unsigned char raw[24];
		randombytes_buf(raw, sizeof(raw));
		sodium_bin2base64(s->csrf, sizeof(s->csrf), raw, sizeof(raw), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
		s->set_csrf_cookie = 1;
	}
}

int session_csrf_ok(const struct http_request *rq, const char *presented)
{
	size_t n = strlen(rq->sess.csrf);

	if (!presented || !n || strlen(presented) != n)
		return 0;
	/* signed out, the token is only good if the browser also sent it as a cookie */
	if (!rq->sess.token_id && rq->sess.set_csrf_cookie)
		return 0;
	return sodium_memcmp(presented, rq->sess.csrf, n) == 0;
}

int session_start(struct http_request *rq, struct http_reply *r, int64_t user_id, struct err *err)
{
	char tok[TOKEN_TEXT_MAX];
	unsigned char hash[32];
	struct store_conn *c;
	int rc;

	token_new(tok, hash);
	if ((rc = store_write_begin(http_store(rq), &c, err)) < 0)
		return rc;
	rc = store_token_add(c, hash, TOKEN_SESSION, user_id, 0, -1, "web",
			     clock_now_ms() + (int64_t)SESSION_DAYS * 86400 * 1000, NULL, err);
	if (rc < 0) {
		store_write_rollback(c);
		return rc;
	}
	if ((rc = store_write_commit(c, err)) < 0)
		return rc;
	http_reply_cookie(r, rq, SESSION_COOKIE, tok, (long)SESSION_DAYS * 86400);
	sodium_memzero(tok, sizeof(tok));
	return 0;
}

void session_end(struct http_request *rq, struct http_reply *r)
{
	struct store_conn *c;
	struct err e = {0};

	if (rq->sess.token_id && store_write_begin(http_store(rq), &c, &e) == 0) {
		if (store_token_revoke(c, rq->sess.token_id, clock_now_ms(), &e) == 0)
			store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	http_reply_cookie(r, rq, SESSION_COOKIE, "", 0);
}

void session_finish_reply(struct http_request *rq, struct http_reply *r)
{
	if (rq->sess.set_csrf_cookie && r->ncookies < 3)
		http_reply_cookie(r, rq, CSRF_COOKIE, rq->sess.csrf, -1);
}
