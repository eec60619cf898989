/* fuzz_form.c: fuzz target for form bodies and query strings (http/form.c) */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "http/form.h"
#include "util/err.h"
#include "util/banned.h"

const char *const fuzz_corpora[] = { "tests/fuzz/corpus/form", NULL };

/* Valid UTF-8 without NUL (a byte count of n) or abort: what form_parse promises of every name and value. */
static void fuzz_form_utf8(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	while (*u) {
		size_t n = *u < 0x80 ? 1 : (*u & 0xE0) == 0xC0 ? 2 : (*u & 0xF0) == 0xE0 ? 3 : (*u & 0xF8) == 0xF0 ? 4 : 0;
		if (!n)
			abort();
		for (size_t i = 1; i < n; i++)
			if ((u[i] & 0xC0) != 0x80)
				abort();
		u += n;
	}
}

static void fuzz_form_check(const struct form *f, size_t max_value)
{
	if (f->n < 0 || f->n > FORM_MAX_FIELDS)
		abort();
	for (int i = 0; i < f->n; i++) {
		fuzz_form_utf8(f->fields[i].name);
		fuzz_form_utf8(f->fields[i].value);
		if (strlen(f->fields[i].value) > max_value)
			abort();
		/* the first value of a name is found by it */
		if (!form_get(f, f->fields[i].name))
			abort();
	}
}

/*
 * The input is a body as a browser sends it (not NUL-terminated: form_parse
 * takes a length). It is parsed with the ordinary limit and with a small
 * one; what parses must hold valid UTF-8 names and values within the limit.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct form *f = NULL;
	struct err e = {0};

	if (form_parse((const char *)data, size, &f, &e) == 0) {
		fuzz_form_check(f, FORM_MAX_VALUE);
		form_free(f);
		f = NULL;
	} else if (!e.msg[0]) {
		abort(); /* a refusal says why */
	}
	err_clear(&e);
	if (form_parse_max((const char *)data, size, 16, &f, &e) == 0) {
		fuzz_form_check(f, 16);
		form_free(f);
	}
	return 0;
}
