/* util/log.c: log lines on stderr with a UTC time stamp */
/* SPDX-License-Identifier: MIT */
#include "util/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/banned.h"

static enum log_level min_level = LOG_INFO;
static char log_path[512]; /* "" while the log is stderr */

/* Open path and put it in place of stderr: lines in flight go to one file or the other, never lost. */
static int log_swap(const char *path, struct err *err)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);

	if (fd < 0)
		return err_set(err, ERR_IO, "cannot open the log %s: %s", path, strerror(errno));
	fflush(stderr);
	if (dup2(fd, STDERR_FILENO) < 0) {
		int saved = errno;
		close(fd);
		return err_set(err, ERR_IO, "cannot write the log to %s: %s", path, strerror(saved));
	}
	close(fd);
	return 0;
}

int log_open(const char *path, struct err *err)
{
	int rc;

	if (!path || !*path) {
		log_path[0] = '\0';
		return 0;
	}
	if (strlen(path) >= sizeof(log_path))
		return err_set(err, ERR_INPUT, "the log file's name is too long");
	if ((rc = log_swap(path, err)) < 0)
		return rc;
	memcpy(log_path, path, strlen(path) + 1);
	return 0;
}

int log_reopen(struct err *err)
{
	return log_path[0] ? log_swap(log_path, err) : 0;
}

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
