/* http/jsonw.h: compact JSON text of a jansson value, written straight into a buffer */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_JSONW_H
#define TURNPOST_HTTP_JSONW_H

#include <jansson.h>

#include "util/buf.h"

enum jsonw_flags {
	JSONW_ANY = 1 << 0 /* like JSON_ENCODE_ANY: a string, number, true, false or null is written too */
};

/*
 * Append the text of v to out: byte for byte what json_dumps(v, JSON_COMPACT)
 * (with JSON_ENCODE_ANY when JSONW_ANY is given) returns, without its
 * per-node allocations (replies are written on every request). Returns 0, or
 * -1 where json_dumps would return NULL (a top-level scalar without
 * JSONW_ANY, a string that is not UTF-8, nesting deeper than 2048); out then
 * holds what it held before. v is borrowed.
 */
int jsonw_dump(struct buf *out, const json_t *v, unsigned flags);

#endif
