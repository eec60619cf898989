/* util/err.h: error codes and the caller-owned error message */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_ERR_H
#define TURNPOST_UTIL_ERR_H

/*
 * Functions return int: 0 on success, one of these negative codes on failure.
 * The specific codes are for expected failures; http/ maps them to statuses
 * in one place (http/problem.c).
 */
enum err_code {
	ERR_OK = 0,
	ERR_NOMEM = -1,      /* allocation failed */
	ERR_INPUT = -2,      /* malformed input: bad JSON, unparsable move text */
	ERR_ILLEGAL = -3,    /* well-formed move the rules do not allow now */
	ERR_NOTFOUND = -4,   /* no such game, user, token, ... */
	ERR_CONFLICT = -5,   /* state changed underneath (stale move count) */
	ERR_FORBIDDEN = -6,  /* authenticated, but not allowed (not your turn) */
	ERR_UNAUTH = -7,     /* no or bad credentials */
	ERR_TOOLARGE = -8,   /* input over a configured limit */
	ERR_LIMIT = -9,      /* rate or resource limit reached */
	ERR_STORE = -10,     /* database failure */
	ERR_INTERNAL = -11,  /* a bug or an impossible state */
	ERR_IO = -12,        /* file or network failure */
	ERR_STALE = -13,     /* a precondition (If-Match move count) no longer holds */
	ERR_UNSUPPORTED = -14 /* a body of a media type the request cannot take */
};

/*
 * The message for a failure, set where it happens and passed up unchanged.
 * Never global: handlers run on several threads. Zero-initialise it
 * (struct err e = {0}) before use.
 */
struct err {
	int code;
	char msg[384];
};

/* Set code and a printf-style message; returns code, so `return err_set(...)` works. */
int err_set(struct err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Reset to no error. Accepts NULL. */
void err_clear(struct err *e);

/* A stable lower-case name for a code ("illegal_move", "not_found", ...). */
const char *err_code_name(int code);

#endif
