/* util/clock.c: the wall clock, injectable for tests */
/* SPDX-License-Identifier: MIT */
#include "util/clock.h"

#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "util/banned.h"

static _Atomic int64_t fake_ms;

int64_t clock_now_ms(void)
{
	struct timespec ts;
	int64_t f = atomic_load(&fake_ms);

	if (f)
		return f;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

double clock_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

void clock_set_fake_ms(int64_t ms)
{
	atomic_store(&fake_ms, ms);
}

void clock_format_utc(int64_t ms, char out[32])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void clock_format_ago(int64_t ms, char out[32])
{
	int64_t min = ms / 60000;

	if (min < 1)
		snprintf(out, 32, "just now");
	else if (min < 60)
		snprintf(out, 32, "%lld min", (long long)min);
	else if (min < 48 * 60)
		snprintf(out, 32, "%lld h", (long long)(min / 60));
	else
		snprintf(out, 32, "%lld d", (long long)(min / 1440));
}

int64_t clock_ago_next(int64_t ms)
{
	int64_t min = ms / 60000;

	if (min < 1)
		return 60000;
	if (min < 60)
		return (min + 1) * 60000;
	if (min < 48 * 60)
		return (min / 60 + 1) * 3600000;
	return (min / 1440 + 1) * 86400000;
}

void clock_format_human(int64_t ms, char out[32])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%d %H:%M UTC", &tm);
}
