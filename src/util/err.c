/* util/err.c: error codes and the caller-owned error message */
/* SPDX-License-Identifier: MIT */
#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int err_set(struct err *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return code;
	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return code;
}

void err_clear(struct err *e)
{
	if (!e)
		return;
	e->code = 0;
	e->msg[0] = '\0';
}

const char *err_code_name(int code)
{
	switch (code) {
	case ERR_OK: return "ok";
	case ERR_NOMEM: return "out_of_memory";
	case ERR_INPUT: return "bad_input";
	case ERR_ILLEGAL: return "illegal_move";
	case ERR_NOTFOUND: return "not_found";
	case ERR_CONFLICT: return "conflict";
	case ERR_FORBIDDEN: return "forbidden";
	case ERR_UNAUTH: return "unauthorized";
	case ERR_TOOLARGE: return "too_large";
	case ERR_LIMIT: return "rate_limited";
	case ERR_STORE: return "storage_error";
	case ERR_INTERNAL: return "internal_error";
	case ERR_IO: return "io_error";
	case ERR_STALE: return "stale_move_count";
	case ERR_UNSUPPORTED: return "unsupported_media_type";
	}
	return "unknown_error";
}
