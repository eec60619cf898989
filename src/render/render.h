/* render/render.h: Mustache templates over jansson values */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_RENDER_RENDER_H
#define TURNPOST_RENDER_RENDER_H

#include <stddef.h>

#include <jansson.h>

#include "util/buf.h"
#include "util/err.h"

/*
 * The Mustache subset of docs/templates.md: interpolation ({{name}} escaped,
 * {{{name}}} and {{& name}} raw), dotted names, the implicit iterator {{.}},
 * sections, inverted sections, comments, partials with standalone
 * indentation and set-delimiter tags, as the official spec describes them.
 * Lambdas and template inheritance are not supported.
 *
 * Errors: a malformed template gives ERR_INPUT and a message with the
 * template name and line ("lobby:12: section 'games' is never closed");
 * too deep partial recursion or nesting, or too much work (sections
 * nested over long arrays), gives ERR_LIMIT; more output than
 * RENDER_MAX_OUTPUT gives ERR_TOOLARGE. On any error nothing is appended
 * to `out` (it keeps its previous length).
 */

/* Partials deeper than this give ERR_LIMIT instead of a stack overflow. */
#define RENDER_MAX_PARTIAL_DEPTH 64
/* Sections nested deeper than this in one template: ERR_LIMIT when compiling. */
#define RENDER_MAX_NESTING 100
/* Nested sections and partials together, while rendering. */
#define RENDER_MAX_DEPTH 512
/* Work per rendering (nodes visited plus section iterations): ERR_LIMIT. */
#define RENDER_MAX_STEPS 10000000
/* Bytes one rendering may produce: ERR_TOOLARGE. */
#define RENDER_MAX_OUTPUT (16 * 1024 * 1024)

/*
 * Where partials come from for render_string. `lookup` returns 0 and sets
 * *text and *len (borrowed; must stay valid until render_string returns), or
 * ERR_NOTFOUND (the partial renders as the empty string, as the spec
 * says), or another negative code, which aborts rendering with that code.
 * `lookup` may be NULL: then every partial is missing.
 */
struct render_partials {
	int (*lookup)(void *ctx, const char *name, const char **text, size_t *len);
	void *ctx;
};

/*
 * Parse and render `tmpl` (len bytes, need not be NUL-terminated) with
 * `data` (borrowed; may be NULL, which renders like an empty object) and
 * append the result to `out`. `p` may be NULL (no partials). Partials are
 * parsed once per call. Use a render_set for templates rendered often.
 * Returns 0, ERR_INPUT (malformed template or partial), ERR_LIMIT,
 * ERR_TOOLARGE, ERR_NOMEM or the lookup's own error code.
 */
int render_string(const char *tmpl, size_t len, const json_t *data,
		  const struct render_partials *p, struct buf *out, struct err *err);

/*
 * A set of named, compiled templates. Build it on one thread with
 * render_set_add / render_set_load_dir; after that it is read-only and any
 * number of threads may call render_set_render on it at once. Partials
 * ({{> name}}) are looked up in the same set.
 */
struct render_set;

/* A new empty set (caller frees with render_set_free). ERR_NOMEM. */
int render_set_new(struct render_set **out);
/* Free the set and its templates. Accepts NULL. */
void render_set_free(struct render_set *set);

/*
 * Compile `text` (len bytes, copied) and add it under `name`. Returns 0,
 * ERR_INPUT (malformed template; the set is unchanged), ERR_CONFLICT (the
 * name is taken) or ERR_NOMEM.
 */
int render_set_add(struct render_set *set, const char *name, const char *text,
		   size_t len, struct err *err);

/*
 * Add every regular file named *.mustache under `dir` (recursively, hidden
 * entries skipped), named by its path relative to `dir` without the
 * suffix: dir/email/turn.mustache becomes "email/turn". Returns 0, ERR_IO
 * (unreadable directory or file), ERR_TOOLARGE (a file over 1 MiB),
 * ERR_INPUT, ERR_CONFLICT or ERR_NOMEM; templates added before a failure
 * stay in the set.
 */
int render_set_load_dir(struct render_set *set, const char *dir, struct err *err);

/* 1 when the set has a template of that name, else 0. */
int render_set_has(const struct render_set *set, const char *name);

/* The number of templates in the set. */
size_t render_set_count(const struct render_set *set);

/*
 * Check that every partial tag in every template names a template of the
 * set (a missing partial renders as nothing, which hides typos). Returns 0
 * or ERR_NOTFOUND naming the template, line and partial.
 */
int render_set_verify(const struct render_set *set, struct err *err);

/*
 * Render template `name` of the set with `data` (borrowed; NULL renders
 * like an empty object), appending to `out`. Returns 0, ERR_NOTFOUND (no
 * such template), ERR_LIMIT (partial recursion too deep, too much work),
 * ERR_TOOLARGE (too much output) or ERR_NOMEM.
 */
int render_set_render(const struct render_set *set, const char *name, const json_t *data,
		      struct buf *out, struct err *err);

/*
 * Append `s` (len bytes) to `out` HTML-escaped the way {{name}} does:
 * & < > " ' ` become &amp; &lt; &gt; &quot; &#39; &#96;. Cannot fail.
 */
void render_escape_html(struct buf *out, const char *s, size_t len);

#endif
