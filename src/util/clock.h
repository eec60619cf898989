/* util/clock.h: the wall clock, injectable for tests */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_CLOCK_H
#define TURNPOST_UTIL_CLOCK_H

#include <stdint.h>

/* Milliseconds since the Unix epoch, from the injected clock when one is set. */
int64_t clock_now_ms(void);
/* Monotonic milliseconds for measuring durations (never injected). */
double clock_mono_ms(void);
/*
 * Inject a fixed clock (tests): every clock_now_ms returns ms until the next
 * call; 0 restores the real clock. The daemon also honours TURNPOST_FAKE_NOW_MS
 * from the environment at start-up (tests only; documented in docs/operations.md).
 */
void clock_set_fake_ms(int64_t ms);
/* A duration for people: "just now", "5 min", "3 h", "2 d". */
void clock_format_ago(int64_t ms, char out[32]);
/*
 * The smallest duration above ms whose clock_format_ago text differs from
 * ms's: a page showing "5 min" ago is the same page until then.
 */
int64_t clock_ago_next(int64_t ms);
/* A time for people: "2026-11-21 23:16 UTC". */
void clock_format_human(int64_t ms, char out[32]);
/* Format ms as RFC 3339 UTC ("2026-11-21T23:16:03Z") into out. */
void clock_format_utc(int64_t ms, char out[32]);

#endif
