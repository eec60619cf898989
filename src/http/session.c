/* http/session.c: browser sessions (cookie), sign-in and CSRF tokens */
/* SPDX-License-Identifier: MIT */
#include "http/session.h"

#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "engine/health.h"
#include "engine/signin.h"
#include "engine/tokens.h"
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

/*
 * Looking a session up (a read connection, the token and its account) was a
 * tenth of a game page. What a lookup found is kept, keyed by the token's
 * hash, with the store's data version it was made at
 * (store_data_version, which moves with every commit of any process: a
 * sign-out, a revocation, an account changed), and used only while the
 * version is still that one and the token has not expired: a session that
 * ended stops working at the next request. Failed lookups are not kept.
 */
#define SESSION_SLOTS 4096 /* a power of two */

struct session_slot {
	uint64_t store;
	uint64_t version;
	unsigned char hash[32];
	struct tokens_holder t;
	int used;
};

static struct session_slot session_slots[SESSION_SLOTS];
static pthread_mutex_t session_lock = PTHREAD_MUTEX_INITIALIZER;

static struct session_slot *session_slot(const unsigned char hash[32])
{
	unsigned v;

	memcpy(&v, hash, sizeof(v));
	return &session_slots[v & (SESSION_SLOTS - 1)];
}

/* The session of cookie as signin_session_find finds it, from what was kept at version when it still holds. */
static int session_find(struct store *st, const char *cookie, int versioned, uint64_t version, int64_t now,
			struct tokens_holder *t, struct err *e)
{
	unsigned char hash[32];
	struct session_slot *sl;
	int hashed = versioned && token_hash(cookie, hash) == 0, rc;

	if (hashed) {
		sl = session_slot(hash);
		pthread_mutex_lock(&session_lock);
		if (sl->used && sl->store == health_store_key(st) && sl->version == version &&
		    token_hash_equal(sl->hash, hash) && (!sl->t.expires_at || sl->t.expires_at > now)) {
			*t = sl->t;
			pthread_mutex_unlock(&session_lock);
			return 0;
		}
		pthread_mutex_unlock(&session_lock);
	}
	if ((rc = signin_session_find(st, cookie, now, t, e)) < 0 || !hashed)
		return rc;
	sl = session_slot(hash);
	pthread_mutex_lock(&session_lock);
	sl->store = health_store_key(st);
	sl->version = version;
	memcpy(sl->hash, hash, sizeof(hash));
	sl->t = *t;
	sl->used = 1;
	pthread_mutex_unlock(&session_lock);
	return 0;
}

void session_load(struct http_request *rq)
{
	struct web_session *s = &rq->sess;
	const char *cookie = http_cookie(rq, SESSION_COOKIE);
	const char *dbl = http_cookie(rq, CSRF_COOKIE);
	struct tokens_holder t;
	struct err e = {0};

	memset(s, 0, sizeof(*s));
	s->only_seat = -1;
	/* read before the lookup: what is made from it afterwards is at this version or stale at once */
	if (cookie)
		s->versioned = health_data_version(http_store(rq), &s->version, &e) == 0;
	err_clear(&e);
	if (cookie && session_find(http_store(rq), cookie, s->versioned, s->version, clock_now_ms(), &t, &e) == 0) {
		s->token_id = t.token_id;
		if (t.game_id) {
			/* a seat link's session: signed in nowhere but its game's pages (routes_prepare) */
			s->only_game = t.game_id;
			s->only_seat = t.seat;
			s->link_user = t.user_id;
		} else {
			s->user_id = t.user_id;
			s->is_admin = t.is_admin;
		}
		snprintf(s->name, sizeof(s->name), "%s", t.name);
		snprintf(s->email, sizeof(s->email), "%s", t.email);
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
	int rc;

	if ((rc = signin_session_new(http_store(rq), user_id, clock_now_ms(), tok, err)) < 0)
		return rc;
	http_reply_cookie(r, rq, SESSION_COOKIE, tok, (long)SIGNIN_SESSION_DAYS * 86400);
	sodium_memzero(tok, sizeof(tok));
	return 0;
}

int session_start_seat(struct http_request *rq, struct http_reply *r, const struct tokens_holder *seat,
		       struct err *err)
{
	char tok[TOKEN_TEXT_MAX];
	int64_t now = clock_now_ms(), expires;
	int rc;

	if ((rc = signin_seat_session_new(http_store(rq), seat, now, tok, &expires, err)) < 0)
		return rc;
	http_reply_cookie(r, rq, SESSION_COOKIE, tok, (long)((expires - now) / 1000));
	sodium_memzero(tok, sizeof(tok));
	return 0;
}

void session_revoke(struct http_request *rq)
{
	struct err e = {0};

	if (rq->sess.token_id)
		tokens_revoke_own(http_store(rq), rq->sess.token_id, &e);
}

void session_end(struct http_request *rq, struct http_reply *r)
{
	session_revoke(rq);
	http_reply_cookie(r, rq, SESSION_COOKIE, "", 0);
}

void session_finish_reply(struct http_request *rq, struct http_reply *r)
{
	if (rq->sess.set_csrf_cookie && r->ncookies < 3)
		http_reply_cookie(r, rq, CSRF_COOKIE, rq->sess.csrf, -1);
}
