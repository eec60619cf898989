/* http/form.h: application/x-www-form-urlencoded bodies and query strings */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_FORM_H
#define TURNPOST_HTTP_FORM_H

#include <stddef.h>

#include "util/err.h"

#define FORM_MAX_FIELDS 64
#define FORM_MAX_VALUE 8192

struct form_field {
	char *name;
	char *value;
};

struct form {
	struct form_field fields[FORM_MAX_FIELDS];
	int n;
};

/*
 * Parse "a=1&b=two+words&c=%C3%A9" (len bytes, need not be NUL-terminated).
 * ERR_INPUT with a message for bad percent escapes, NUL bytes, invalid UTF-8,
 * more than FORM_MAX_FIELDS fields or a value over FORM_MAX_VALUE bytes.
 * *out is new (form_free).
 */
int form_parse(const char *body, size_t len, struct form **out, struct err *err);
/* The same with another limit for one value (uploads). */
int form_parse_max(const char *body, size_t len, size_t max_value, struct form **out, struct err *err);
void form_free(struct form *f);
/* The first value of name, or NULL. Borrowed. */
const char *form_get(const struct form *f, const char *name);

#endif
