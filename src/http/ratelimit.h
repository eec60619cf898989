/* http/ratelimit.h: abuse limits: how often one address, account or seat may do one thing */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_RATELIMIT_H
#define TURNPOST_HTTP_RATELIMIT_H

#include <stdint.h>

#include "util/err.h"

/* What is limited, and whose: the names in --rate-limits (docs/security.md, "Abuse limits"). */
enum ratelimit_kind {
	RATELIMIT_SIGNIN_EMAIL,  /* sign-in emails asked for one address */
	RATELIMIT_SIGNIN_CLIENT, /* sign-in emails asked for from one client address */
	RATELIMIT_CREATE,        /* games created by one account */
	RATELIMIT_INVITE,        /* players invited by email by one account */
	RATELIMIT_CHAT,          /* chat lines of one seat */
	RATELIMIT_BAD_TOKEN,     /* unknown, expired or revoked tokens and links from one client address */
	RATELIMIT_KINDS
};

/* The default --rate-limits: for a small community server. */
#define RATELIMIT_DEFAULT "signin_email=5/h,signin_client=20/h,create=20/d,invite=100/d,chat=30/10m,bad_token=30/m"

struct ratelimit;

/*
 * A limiter from spec: comma-separated NAME=COUNT/PERIOD (PERIOD: N s, m,
 * h or d, as "10m" or "h"; COUNT 0: no limit), names as in
 * RATELIMIT_DEFAULT; a name not given keeps its default. NULL or "" is the
 * default; "off" turns every limit off. ERR_INPUT with a message when spec
 * is malformed. *out is new (ratelimit_free).
 */
int ratelimit_new(const char *spec, struct ratelimit **out, struct err *err);
void ratelimit_free(struct ratelimit *rl);

/*
 * Count n events of kind by key (an address, an account or seat id as
 * text) at now_ms, when the limit allows all of them: 0. Else nothing is
 * counted, ERR_LIMIT, and *retry_after_s is when enough of them are
 * allowed again (at least 1 second). Thread-safe.
 */
int ratelimit_take(struct ratelimit *rl, enum ratelimit_kind kind, const char *key, int n, int64_t now_ms,
		   int *retry_after_s);
/* As ratelimit_take, without counting: whether n more events would be allowed now. */
int ratelimit_check(struct ratelimit *rl, enum ratelimit_kind kind, const char *key, int n, int64_t now_ms,
		    int *retry_after_s);

/* What to tell someone who reached the limit of kind (a static string). */
const char *ratelimit_message(enum ratelimit_kind kind);

#endif
