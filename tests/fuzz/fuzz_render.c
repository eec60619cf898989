/* tests/fuzz/fuzz_render.c: libFuzzer target for the template parser and renderer */
/* SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "fuzz/fuzz.h"
#include "render/render.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/banned.h"

const char *const fuzz_corpora[] = { "tests/fuzz/corpus/render", NULL };

/*
 * The input is a template, optionally followed by "\n---\n" and a second
 * template that every partial name resolves to (so recursion, indentation
 * and delimiter changes inside partials get exercised). Each template is
 * rendered against a fixed context that has strings with characters to
 * escape, numbers, booleans, null, nested objects and arrays, and goes
 * through both render_string and a render_set.
 */
static const char *context_json =
	"{\"s\": \"<a href='x'>&\\\"`</a>\", \"n\": 42, \"r\": 1.5, \"t\": true, \"f\": false,"
	" \"z\": null, \"e\": \"\", \"a\": [1, \"two\", {\"s\": \"three\"}, [4]], \"l\": [],"
	" \"o\": {\"s\": \"inner\", \"o\": {\"n\": 7}, \"a\": [{\"t\": true}]}}";

struct fuzz_partial {
	const char *text;
	size_t len;
};

static int lookup(void *ctx, const char *name, const char **text, size_t *len)
{
	const struct fuzz_partial *p = ctx;

	if (!p->text || name[0] == 'x')
		return ERR_NOTFOUND;
	*text = p->text;
	*len = p->len;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static json_t *ctx;
	const char *in = (const char *)data;
	const char *sep = memmem(in, size, "\n---\n", 5);
	size_t tlen = sep ? (size_t)(sep - in) : size;
	struct fuzz_partial part = { NULL, 0 };
	struct render_partials rp = { lookup, &part };
	struct render_set *set = NULL;
	struct buf out = BUF_INIT;
	struct err e = {0};
	int rc;

	if (!ctx)
		ctx = json_loads(context_json, 0, NULL);
	if (sep) {
		part.text = sep + 5;
		part.len = size - tlen - 5;
	}

	rc = render_string(in, tlen, ctx, &rp, &out, &e);
	if (rc != 0 && out.len != 0)
		__builtin_trap();  /* an error must leave the output untouched */
	buf_reset(&out);

	if (render_set_new(&set) == 0) {
		if (render_set_add(set, "main", in, tlen, &e) == 0 &&
		    (!sep || render_set_add(set, "p", part.text, part.len, &e) == 0)) {
			rc = render_set_render(set, "main", ctx, &out, &e);
			if (rc != 0 && out.len != 0)
				__builtin_trap();
			render_set_verify(set, &e);
		}
		render_set_free(set);
	}
	buf_release(&out);
	return 0;
}
