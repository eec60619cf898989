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
static int log_json;
static const char *const level_names[] = { "debug", "info", "warn", "error" };

void log_set_json(int json)
{
	log_json = json;
}

/* The time stamp "2026-11-21T23:27:06.825Z" into out. */
static void log_stamp(char out[32])
{
	struct timespec ts;
	struct tm tm;
	char sec[24];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(sec, sizeof(sec), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, 32, "%.19s.%03dZ", sec, (int)(ts.tv_nsec / 1000000) % 1000);
}

/* s as the inside of a JSON string into out (at most size bytes, cut at a character). */
static void log_json_text(char *out, size_t size, const char *s)
{
	size_t n = 0;

	for (; s && *s && n + 7 < size; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			out[n++] = '\\';
			out[n++] = (char)c;
		} else if (c < 0x20) {
			n += (size_t)snprintf(out + n, size - n, "\\u%04x", c);
		} else {
			out[n++] = (char)c;
		}
	}
	out[n] = '\0';
}

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
	char line[2048], stamp[32];
	va_list ap;

	if (level < min_level)
		return;
	log_stamp(stamp);
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* one write per line, so lines from several threads do not interleave */
	if (log_json) {
		char msg[4096];
		log_json_text(msg, sizeof(msg), line);
		fprintf(stderr, "{\"time\":\"%s\",\"level\":\"%s\",\"msg\":\"%s\"}\n", stamp, level_names[level], msg);
		return;
	}
	fprintf(stderr, "%s %s %s\n", stamp, level_names[level], line);
}

void log_request(const struct log_request *r)
{
	char stamp[32], path[1024], route[256], client[96], id[96], method[32];

	if (LOG_INFO < min_level)
		return;
	log_stamp(stamp);
	if (!log_json) {
		fprintf(stderr, "%s info %s %s%s %d %.1fms %s %s%s\n", stamp, r->method, r->path, r->path_cut ? "…" : "",
			r->status, r->ms, r->client, r->request_id, r->ended_early ? " (connection ended early)" : "");
		return;
	}
	log_json_text(method, sizeof(method), r->method);
	log_json_text(path, sizeof(path), r->path);
	log_json_text(route, sizeof(route), r->route ? r->route : "");
	log_json_text(client, sizeof(client), r->client);
	log_json_text(id, sizeof(id), r->request_id);
	fprintf(stderr,
		"{\"time\":\"%s\",\"level\":\"info\",\"type\":\"request\",\"client\":\"%s\",\"method\":\"%s\","
		"\"route\":\"%s\",\"path\":\"%s%s\",\"status\":%d,\"ms\":%.1f,\"request_id\":\"%s\"%s}\n",
		stamp, client, method, route, path, r->path_cut ? "…" : "", r->status, r->ms, id,
		r->ended_early ? ",\"ended_early\":true" : "");
}
