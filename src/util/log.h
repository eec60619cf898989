/* util/log.h: log lines on stderr with a UTC time stamp */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_LOG_H
#define TURNPOST_UTIL_LOG_H

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

#include "util/err.h"

/*
 * Send the log (everything written to stderr, the library's messages too)
 * to path, appended, created 0640; NULL or "" keeps stderr. 0 or a negative
 * ERR_* with the reason.
 */
int log_open(const char *path, struct err *err);
/*
 * Open the log file again by its name (after logrotate moved it): lines
 * written from now go to the new file. 0 (also when the log is stderr) or a
 * negative ERR_*, and the old file stays in use.
 */
int log_reopen(struct err *err);

/*
 * One JSON object per line instead of text: {"time","level","msg"}, and for
 * requests the fields of log_request. Set once at start-up.
 */
void log_set_json(int json);

/* One served request: a text line, or a JSON line with one field per item. */
struct log_request {
	const char *method;
	const char *path;  /* already cut before any secret (http/server.c) */
	int path_cut;      /* 1: the path went on (a token): "…" in text */
	const char *route; /* the route's pattern, "/api/v1/games/{id}"; NULL: none matched */
	int status;
	double ms;
	const char *client;
	const char *request_id;
	int ended_early; /* the connection ended before the answer was sent */
};
void log_request(const struct log_request *r);

/* Lines below this level are dropped (default LOG_INFO). */
void log_set_level(enum log_level level);
void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)

#endif
