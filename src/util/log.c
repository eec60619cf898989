/* util/log.c: log lines on stderr with a UTC time stamp */
/* SPDX-License-Identifier: MIT */
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "util/banned.h"

static enum log_level min_level = LOG_INFO;

void log_set_level(enum log_level level)
{
	min_level = level;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	static const char *const names[] = { "debug", "info", "warn", "error" };
	char line[2048], stamp[32];
	struct timespec ts;
	struct tm tm;
	va_list ap;

	if (level < min_level)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* one write per line, so lines from several threads do not interleave */
	fprintf(stderr, "%s.%03ldZ %s %s\n", stamp, ts.tv_nsec / 1000000, names[level], line);
}
