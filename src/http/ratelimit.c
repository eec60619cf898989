/* http/ratelimit.c: abuse limits: how often one address, account or seat may do one thing */
/* SPDX-License-Identifier: MIT */
#include "http/ratelimit.h"

#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/*
 * Each key's allowance is a generic cell rate (GCRA): COUNT events per
 * PERIOD, all of them at once if need be, one more each PERIOD/COUNT after
 * that. A key needs one number, the time its allowance is whole again
 * (tat). Keys are hashed with a random SipHash key, so nobody can aim
 * collisions at another's slot; when every slot a key may use is taken by
 * live keys the one whose allowance is whole soonest is forgotten (it was
 * the least limited).
 */
#define SLOTS 16384
#define PROBE 8

static const char *const kind_names[RATELIMIT_KINDS] = {
	"signin_email", "signin_client", "create", "invite", "chat", "bad_token"
};

static const char *const kind_messages[RATELIMIT_KINDS] = {
	"Too many sign-in links were asked for this address. Try again later.",
	"Too many sign-in links were asked for from your address. Try again later.",
	"You created many games lately. Try again later.",
	"You invited many players by email lately. Try again later.",
	"You wrote many chat lines in a short time. Wait a little.",
	"Too many tokens or links that did not work came from your address. Try again later."
};

const char *ratelimit_message(enum ratelimit_kind kind)
{
	return kind >= 0 && kind < RATELIMIT_KINDS ? kind_messages[kind] : "Too many requests. Try again later.";
}

struct rule {
	int count;         /* 0: no limit */
	int64_t period_ms;
};

struct slot {
	uint64_t hash; /* 0: free */
	int64_t tat;
};

struct ratelimit {
	struct rule rules[RATELIMIT_KINDS];
	unsigned char key[crypto_shorthash_KEYBYTES];
	pthread_mutex_t lock;
	struct slot slots[SLOTS];
};

static int parse_rule(const char *text, size_t len, struct rule *out, struct err *err)
{
	char buf[32], *end;
	long count, mult = 1;
	int64_t unit;

	if (len >= sizeof(buf))
		return err_set(err, ERR_INPUT, "--rate-limits: \"%.*s\" is not COUNT/PERIOD", (int)len, text);
	memcpy(buf, text, len);
	buf[len] = '\0';
	count = strtol(buf, &end, 10);
	if (end == buf || *end != '/' || count < 0 || count > 1000000)
		return err_set(err, ERR_INPUT, "--rate-limits: \"%s\" is not COUNT/PERIOD (such as 5/h or 30/10m)", buf);
	end++;
	if (*end >= '0' && *end <= '9') {
		mult = strtol(end, &end, 10);
		if (mult <= 0 || mult > 10000)
			return err_set(err, ERR_INPUT, "--rate-limits: the period of \"%s\" is out of range", buf);
	}
	switch (*end) {
	case 's': unit = 1000; break;
	case 'm': unit = 60 * 1000; break;
	case 'h': unit = 3600 * 1000; break;
	case 'd': unit = 86400 * 1000; break;
	default:
		return err_set(err, ERR_INPUT, "--rate-limits: the period of \"%s\" must end in s, m, h or d", buf);
	}
	if (end[1])
		return err_set(err, ERR_INPUT, "--rate-limits: \"%s\" is not COUNT/PERIOD (such as 5/h or 30/10m)", buf);
	out->count = (int)count;
	out->period_ms = mult * unit;
	return 0;
}

static int parse_spec(const char *spec, struct rule rules[RATELIMIT_KINDS], struct err *err)
{
	const char *p = spec;

	if (strcmp(spec, "off") == 0) {
		for (int k = 0; k < RATELIMIT_KINDS; k++)
			rules[k].count = 0;
		return 0;
	}
	while (*p) {
		size_t len = strcspn(p, ","), nlen;
		const char *eq = memchr(p, '=', len);
		int k;
		int rc;

		if (!eq || !len)
			return err_set(err, ERR_INPUT, "--rate-limits: \"%.*s\" is not NAME=COUNT/PERIOD", (int)len, p);
		nlen = (size_t)(eq - p);
		for (k = 0; k < RATELIMIT_KINDS; k++)
			if (strlen(kind_names[k]) == nlen && strncmp(kind_names[k], p, nlen) == 0)
				break;
		if (k == RATELIMIT_KINDS)
			return err_set(err, ERR_INPUT,
				       "--rate-limits: no limit is called \"%.*s\" (signin_email, signin_client, create, "
				       "invite, chat, bad_token)", (int)nlen, p);
		if ((rc = parse_rule(eq + 1, len - nlen - 1, &rules[k], err)) < 0)
			return rc;
		p += len;
		if (*p == ',' && !*++p)
			return err_set(err, ERR_INPUT, "--rate-limits: nothing after the last comma");
	}
	return 0;
}

int ratelimit_new(const char *spec, struct ratelimit **out, struct err *err)
{
	struct ratelimit *rl;
	int rc;

	*out = NULL;
	if (sodium_init() < 0)
		return err_set(err, ERR_INTERNAL, "libsodium cannot start");
	if (!(rl = calloc(1, sizeof(*rl))))
		return err_set(err, ERR_NOMEM, "out of memory");
	if ((rc = parse_spec(RATELIMIT_DEFAULT, rl->rules, err)) < 0 ||
	    (spec && *spec && (rc = parse_spec(spec, rl->rules, err)) < 0)) {
		free(rl);
		return rc;
	}
	crypto_shorthash_keygen(rl->key);
	pthread_mutex_init(&rl->lock, NULL);
	*out = rl;
	return 0;
}

void ratelimit_free(struct ratelimit *rl)
{
	if (!rl)
		return;
	pthread_mutex_destroy(&rl->lock);
	free(rl);
}

static uint64_t key_hash(const struct ratelimit *rl, enum ratelimit_kind kind, const char *key)
{
	unsigned char h[crypto_shorthash_BYTES];
	char buf[320];
	uint64_t v;
	int n = snprintf(buf, sizeof(buf), "%d:%s", (int)kind, key ? key : "");

	crypto_shorthash(h, (const unsigned char *)buf, (unsigned long long)(n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1),
			 rl->key);
	memcpy(&v, h, sizeof(v));
	return v ? v : 1;
}

static int reusable(const struct slot *s, int64_t now)
{
	/* a slot whose allowance is whole again holds nothing worth keeping */
	return !s->hash || s->tat <= now;
}

/* The slot of hash (live or to be used for it); never NULL. Under the lock. */
static struct slot *find(struct ratelimit *rl, uint64_t hash, int64_t now)
{
	struct slot *best = NULL;

	for (int i = 0; i < PROBE; i++) {
		struct slot *s = &rl->slots[(hash + (uint64_t)i) % SLOTS];
		if (s->hash == hash)
			return s;
		if (!best || (!reusable(best, now) && (reusable(s, now) || s->tat < best->tat)))
			best = s;
	}
	best->hash = hash;
	best->tat = now;
	return best;
}

static int take(struct ratelimit *rl, enum ratelimit_kind kind, const char *key, int n, int64_t now,
		int count_it, int *retry_after_s)
{
	const struct rule *r = &rl->rules[kind];
	int64_t interval, tat, next, allowed_at;
	struct slot *s;
	int rc = 0;

	*retry_after_s = 0;
	if (r->count <= 0 || n <= 0)
		return 0;
	if (n > r->count)
		n = r->count;
	interval = r->period_ms / r->count;
	pthread_mutex_lock(&rl->lock);
	s = find(rl, key_hash(rl, kind, key), now);
	tat = s->tat > now ? s->tat : now;
	next = tat + interval * n;
	/* allowed while no more than a whole period's allowance is spent ahead of now */
	allowed_at = next - interval * r->count;
	if (allowed_at > now) {
		int64_t wait = allowed_at - now;
		*retry_after_s = (int)((wait + 999) / 1000);
		rc = ERR_LIMIT;
	} else if (count_it) {
		s->tat = next;
	}
	pthread_mutex_unlock(&rl->lock);
	return rc;
}

int ratelimit_take(struct ratelimit *rl, enum ratelimit_kind kind, const char *key, int n, int64_t now_ms,
		   int *retry_after_s)
{
	*retry_after_s = 0;
	if (!rl)
		return 0;
	return take(rl, kind, key, n, now_ms, 1, retry_after_s);
}

int ratelimit_check(struct ratelimit *rl, enum ratelimit_kind kind, const char *key, int n, int64_t now_ms,
		    int *retry_after_s)
{
	*retry_after_s = 0;
	if (!rl)
		return 0;
	return take(rl, kind, key, n, now_ms, 0, retry_after_s);
}
