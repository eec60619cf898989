/* http/console.h: the admin console's shared parts (console.c); its routes are in console_*.c */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_CONSOLE_H
#define TURNPOST_HTTP_CONSOLE_H

#include "http/http.h"

/* A non-negative integer argument: 0 and *out set, 1 when absent (out untouched), -1 when malformed. */
int console_int_arg(const char *text, long max, long *out);
/* The largest ?limit= of an admin list. */
#define CONSOLE_LIMIT_MAX 1000
/*
 * ?limit= of an admin list, the same for every list: absent gives def, else
 * a whole number from 1 to CONSOLE_LIMIT_MAX. On a bad value it answers 400
 * (code bad_limit) and returns -1.
 */
int console_limit(struct http_request *rq, struct http_reply *r, int def, int *limit);
/* What a finished action of code says on the page it returns to (?done=code); NULL for an unknown code. */
const char *console_done_text(const char *code);
/* A JSON value (borrowed, may be NULL) as short text for a page (new string). */
char *console_short_text(const json_t *v);
/* Set o's key to the human form of the time ms. */
void console_set_when(json_t *o, const char *key, int64_t ms);

#endif
