/* http/auth.c: who is asking: bearer tokens, with a short-lived cache of recent lookups */
/* SPDX-License-Identifier: MIT */
#include "http/auth.h"

#include <pthread.h>
#include <string.h>
#include <strings.h>

#include "engine/tokens.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

/*
 * Every API request names its token, and looking it up (hash, a read
 * connection, one or two statements) was a visible share of a request. The
 * cache keeps what a successful lookup found, keyed by the token's hash, for
 * at most AUTH_CACHE_MS; an entry is only used while this process has
 * committed no change to an existing token, user or seat since it was filled
 * (store_change_generation: revoking a token, replacing a seat, changing a
 * user; a new game's rows do not count), so a revocation made here takes
 * effect at once, and one made by another process (the turnpost command)
 * within AUTH_CACHE_MS. Failed lookups are never cached.
 */
#define AUTH_CACHE_SLOTS 8192
#define AUTH_CACHE_MS 1000.0

struct auth_slot {
	unsigned char hash[32];
	const struct store *store;
	uint64_t generation;
	double filled_ms;
	int64_t expires_at;
	struct http_auth auth;
	int used;
};

static struct auth_slot slots[AUTH_CACHE_SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static int cache_off;

void auth_cache_enable(int on)
{
	pthread_mutex_lock(&slots_lock);
	cache_off = !on;
	memset(slots, 0, sizeof(slots));
	pthread_mutex_unlock(&slots_lock);
}

static struct auth_slot *slot_for(const unsigned char hash[32])
{
	unsigned v;

	memcpy(&v, hash, sizeof(v));
	return &slots[v % AUTH_CACHE_SLOTS];
}

static int cache_find(const struct store *s, const unsigned char hash[32], struct http_auth *out)
{
	struct auth_slot *sl = slot_for(hash);
	int hit = 0;

	pthread_mutex_lock(&slots_lock);
	if (!cache_off && sl->used && sl->store == s && token_hash_equal(sl->hash, hash) &&
	    sl->generation == tokens_generation() && clock_mono_ms() - sl->filled_ms < AUTH_CACHE_MS &&
	    (!sl->expires_at || sl->expires_at > clock_now_ms())) {
		*out = sl->auth;
		hit = 1;
	}
	pthread_mutex_unlock(&slots_lock);
	return hit;
}

static void cache_fill(const struct store *s, const unsigned char hash[32], uint64_t generation,
		       double filled_ms, int64_t expires_at, const struct http_auth *a)
{
	struct auth_slot *sl = slot_for(hash);

	pthread_mutex_lock(&slots_lock);
	if (!cache_off) {
		memcpy(sl->hash, hash, 32);
		sl->store = s;
		sl->generation = generation;
		sl->filled_ms = filled_ms;
		sl->expires_at = expires_at;
		sl->auth = *a;
		sl->used = 1;
	}
	pthread_mutex_unlock(&slots_lock);
}

int auth_request(const struct http_request *rq, struct http_auth *out, struct err *err)
{
	const char *h = http_header(rq, "Authorization");
	struct store *s = http_store(rq);
	struct tokens_holder t;
	unsigned char hash[32];
	uint64_t generation;
	double filled_ms;
	int rc;

	memset(out, 0, sizeof(*out));
	out->seat = -1;
	if (!h)
		return err_set(err, ERR_UNAUTH, "this needs a token: send \"Authorization: Bearer TOKEN\"");
	if (strncasecmp(h, "Bearer ", 7) != 0)
		return err_set(err, ERR_UNAUTH, "the Authorization header must be \"Bearer TOKEN\"");
	h += 7;
	while (*h == ' ')
		h++;
	if (token_hash(h, hash) < 0)
		return err_set(err, ERR_UNAUTH, "that is not a turnpost token");
	if (cache_find(s, hash, out))
		return 0;
	/* taken before the read, so a change committed meanwhile makes the new entry stale at once */
	generation = tokens_generation();
	filled_ms = clock_mono_ms();
	rc = tokens_lookup(s, hash, clock_now_ms(), &t, err);
	if (rc == 0 && t.kind == TOKEN_SIGNIN)
		rc = err_set(err, ERR_UNAUTH, "a sign-in link token cannot be used as an API token");
	/* a browser's session cookie only works with its CSRF check, in the browser (docs/security.md) */
	if (rc == 0 && t.kind == TOKEN_SESSION)
		rc = err_set(err, ERR_UNAUTH, "a web session cookie cannot be used as an API token");
	if (rc == 0) {
		out->token_id = t.token_id;
		out->kind = (int)t.kind;
		out->user_id = t.user_id;
		out->game_id = t.game_id;
		out->seat = t.seat;
		/* a seat token never makes its holder an admin (tokens_lookup) */
		out->is_admin = t.is_admin;
	}
	if (rc == 0)
		cache_fill(s, hash, generation, filled_ms, t.expires_at, out);
	return rc;
}
