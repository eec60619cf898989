/* render/compile.c: parse Mustache source into the compiled node array */
/* SPDX-License-Identifier: MIT */
#include "render/tmpl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "util/banned.h"

struct parser {
	struct tmpl *t;
	const char *src;
	size_t len;
	const char *otag, *ctag;  /* current delimiters: "{{" "}}" or slices of src */
	size_t olen, clen;
	size_t line_pos;          /* line counting has reached this offset ... */
	unsigned line;            /* ... which is on this line */
	size_t open[RENDER_MAX_NESTING];  /* node indices of the open sections */
	size_t nopen;
	struct err *err;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The 1-based line of `pos`; positions must be asked for in increasing order. */
static unsigned line_at(struct parser *ps, size_t pos)
{
	const char *nl;

	while (ps->line_pos < pos &&
	       (nl = memchr(ps->src + ps->line_pos, '\n', pos - ps->line_pos))) {
		ps->line++;
		ps->line_pos = (size_t)(nl - ps->src) + 1;
	}
	if (ps->line_pos < pos)
		ps->line_pos = pos;
	return ps->line;
}

static int fail(struct parser *ps, int code, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct parser *ps, int code, unsigned line, const char *fmt, ...)
{
	char what[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return err_set(ps->err, code, "%s:%u: %s", ps->t->name, line, what);
}

static int nomem(struct parser *ps)
{
	return err_set(ps->err, ERR_NOMEM, "%s: out of memory compiling the template", ps->t->name);
}

/* Append a zeroed node; NULL when out of memory. Node pointers die at the next push. */
static struct tmpl_node *node_push(struct parser *ps, enum tmpl_op op, unsigned line)
{
	struct tmpl *t = ps->t;
	struct tmpl_node *nd;

	if (t->nnodes == t->alloc) {
		size_t n = t->alloc ? t->alloc * 2 : 16;
		struct tmpl_node *p = realloc(t->nodes, n * sizeof(*p));

		if (!p)
			return NULL;
		t->nodes = p;
		t->alloc = n;
	}
	nd = &t->nodes[t->nnodes++];
	memset(nd, 0, sizeof(*nd));
	nd->op = op;
	nd->line = line;
	return nd;
}

static int at_line_start(const struct parser *ps, size_t pos)
{
	return pos == 0 || ps->src[pos - 1] == '\n';
}

/*
 * Literal text [a, b), one node per line, with an INDENT node wherever a
 * line starts: an indented standalone partial prefixes each line of its
 * source, and doing it here keeps the indentation out of interpolated data.
 */
static int emit_text(struct parser *ps, size_t a, size_t b)
{
	while (a < b) {
		const char *nl;
		size_t e;
		struct tmpl_node *nd;

		if (at_line_start(ps, a) && !node_push(ps, TMPL_INDENT, 0))
			return nomem(ps);
		nl = memchr(ps->src + a, '\n', b - a);
		e = nl ? (size_t)(nl - ps->src) + 1 : b;
		nd = node_push(ps, TMPL_TEXT, 0);
		if (!nd)
			return nomem(ps);
		nd->text = ps->src + a;
		nd->len = e - a;
		a = e;
	}
	return 0;
}

static void trim(const char *s, size_t *a, size_t *b)
{
	while (*a < *b && is_space(s[*a]))
		(*a)++;
	while (*b > *a && is_space(s[*b - 1]))
		(*b)--;
}

/*
 * Check the tag content [a, b) (already trimmed) as a name and store it in
 * the node (index i). Dotted names are split for lookup unless `plain`.
 */
static int set_name(struct parser *ps, size_t i, size_t a, size_t b, int plain, unsigned line)
{
	const char *s = ps->src + a;
	size_t n = b - a;
	struct tmpl_node *nd = &ps->t->nodes[i];
	unsigned nparts = 1;
	char *mem;

	if (n == 0)
		return fail(ps, ERR_INPUT, line, "empty tag: a name is missing between %.*s and %.*s",
			    (int)ps->olen, ps->otag, (int)ps->clen, ps->ctag);
	for (size_t k = 0; k < n; k++)
		if (is_space(s[k]))
			return fail(ps, ERR_INPUT, line, "'%.*s' is not a name: names have no spaces",
				    n > 60 ? 60 : (int)n, s);
	if (!plain && !(n == 1 && s[0] == '.')) {
		if (s[0] == '.' || s[n - 1] == '.' || memmem(s, n, "..", 2))
			return fail(ps, ERR_INPUT, line,
				    "'%.*s' is not a name: a dotted name has an empty part",
				    n > 60 ? 60 : (int)n, s);
		for (size_t k = 0; k < n; k++)
			nparts += s[k] == '.';
	}
	mem = malloc(2 * (n + 1));
	if (!mem)
		return nomem(ps);
	memcpy(mem, s, n);
	mem[n] = '\0';
	nd->name = mem;
	if (plain)
		return 0;
	if (n == 1 && s[0] == '.') {
		nd->nparts = 0;
		return 0;
	}
	nd->parts = mem + n + 1;
	for (size_t k = 0; k <= n; k++)
		nd->parts[k] = mem[k] == '.' ? '\0' : mem[k];
	nd->nparts = nparts;
	return 0;
}

/*
 * Find the closing delimiter from `from` on. With `before`, it must be
 * preceded by that character (the '}' of {{{x}}}, the '=' of {{=a b=}}),
 * which is then not part of the content. 0 with the content end and the
 * tag end, or -1 when the tag is never closed.
 */
static int find_close(const struct parser *ps, size_t from, char before, size_t *ce, size_t *te)
{
	size_t at = from;

	while (at < ps->len) {
		const char *f = memmem(ps->src + at, ps->len - at, ps->ctag, ps->clen);
		size_t fi;

		if (!f)
			return -1;
		fi = (size_t)(f - ps->src);
		if (!before) {
			*ce = fi;
			*te = fi + ps->clen;
			return 0;
		}
		if (fi > from && ps->src[fi - 1] == before) {
			*ce = fi - 1;
			*te = fi + ps->clen;
			return 0;
		}
		at = fi + 1;
	}
	return -1;
}

/* {{=open close=}}: content [a, b) between the two '='. */
static int set_delimiters(struct parser *ps, size_t a, size_t b, unsigned line)
{
	const char *s = ps->src;
	size_t m, o_end;

	trim(s, &a, &b);
	for (m = a; m < b && !is_space(s[m]); m++)
		;
	o_end = m;
	while (m < b && is_space(s[m]))
		m++;
	if (o_end == a || m == o_end || m == b || memchr(s + a, '=', o_end - a) ||
	    memchr(s + m, '=', b - m))
		goto bad;
	for (size_t k = m; k < b; k++)
		if (is_space(s[k]))
			goto bad;
	ps->otag = s + a;
	ps->olen = o_end - a;
	ps->ctag = s + m;
	ps->clen = b - m;
	return 0;
bad:
	return fail(ps, ERR_INPUT, line,
		    "bad set-delimiter tag: write %.*s=open close=%.*s, two delimiters without spaces or '='",
		    (int)ps->olen, ps->otag, (int)ps->clen, ps->ctag);
}

/* Handle one tag [ts, te) with sigil `sigil` and content [cs, ce). */
static int handle_tag(struct parser *ps, char sigil, size_t cs, size_t ce, unsigned line,
		      int standalone, size_t ind, size_t ind_len)
{
	struct tmpl_node *nd;
	size_t i = ps->t->nnodes;
	enum tmpl_op op;
	int rc;

	trim(ps->src, &cs, &ce);
	switch (sigil) {
	case '!':
		return 0;
	case '/': {
		const struct tmpl_node *open;
		size_t n = ce - cs;

		if (ps->nopen == 0)
			return fail(ps, ERR_INPUT, line, "%.*s/%.*s%.*s closes a section that was never opened",
				    (int)ps->olen, ps->otag, n > 60 ? 60 : (int)n, ps->src + cs,
				    (int)ps->clen, ps->ctag);
		open = &ps->t->nodes[ps->open[ps->nopen - 1]];
		if (strlen(open->name) != n || memcmp(open->name, ps->src + cs, n) != 0)
			return fail(ps, ERR_INPUT, line,
				    "%.*s/%.*s%.*s does not match section '%s' opened on line %u",
				    (int)ps->olen, ps->otag, n > 60 ? 60 : (int)n, ps->src + cs,
				    (int)ps->clen, ps->ctag, open->name, open->line);
		ps->t->nodes[ps->open[--ps->nopen]].end = ps->t->nnodes;
		return 0;
	}
	case '<':
	case '$':
		return fail(ps, ERR_INPUT, line, "template inheritance (%.*s%c) is not supported",
			    (int)ps->olen, ps->otag, sigil);
	case '#':
	case '^':
		if (ps->nopen == RENDER_MAX_NESTING)
			return fail(ps, ERR_LIMIT, line, "sections nested more than %d deep",
				    RENDER_MAX_NESTING);
		op = sigil == '#' ? TMPL_SECTION : TMPL_INVERTED;
		break;
	case '>':
		op = TMPL_PARTIAL;
		break;
	case '&':
	case '{':
		op = TMPL_RAW;
		break;
	default:
		op = TMPL_VAR;
		break;
	}
	nd = node_push(ps, op, line);
	if (!nd)
		return nomem(ps);
	if (op == TMPL_PARTIAL) {
		nd->standalone = standalone;
		nd->text = ps->src + ind;
		nd->len = ind_len;
	}
	rc = set_name(ps, i, cs, ce, op == TMPL_PARTIAL, line);
	if (rc < 0)
		return rc;
	if (op == TMPL_SECTION || op == TMPL_INVERTED)
		ps->open[ps->nopen++] = i;
	return 0;
}

static int parse(struct parser *ps)
{
	const char *src = ps->src;
	size_t len = ps->len;
	size_t p = 0, text_start = 0;
	int rc;

	for (;;) {
		const char *q = memmem(src + p, len - p, ps->otag, ps->olen);
		size_t ts, cs, ce, te, ls, le, j;
		int standalone = 0;
		unsigned line;
		char sigil;

		if (!q)
			break;
		ts = (size_t)(q - src);
		line = line_at(ps, ts);
		cs = ts + ps->olen;
		sigil = cs < len ? src[cs] : '\0';
		if (sigil == '{' || sigil == '=')
			rc = find_close(ps, cs + 1, sigil == '{' ? '}' : '=', &ce, &te);
		else
			rc = find_close(ps, cs, '\0', &ce, &te);
		if (rc < 0)
			return fail(ps, ERR_INPUT, line, "tag %.*s%s is never closed with %s%.*s",
				    (int)ps->olen, ps->otag,
				    sigil == '{' ? "{" : sigil == '=' ? "=" : "",
				    sigil == '{' ? "}" : sigil == '=' ? "=" : "",
				    (int)ps->clen, ps->ctag);
		if (sigil && strchr("#^/>!=&{<$", sigil))
			cs++;
		if (ce < cs)
			ce = cs;

		/*
		 * A standalone tag (section, inverted, close, partial, comment,
		 * delimiter) alone on its line but for blanks takes the whole
		 * line with it, its line ending included.
		 */
		ls = ts;
		le = te;
		if (sigil && strchr("#^/>!=", sigil)) {
			for (j = ts; j > text_start && is_blank(src[j - 1]); j--)
				;
			if (at_line_start(ps, j)) {
				size_t k = te;

				while (k < len && is_blank(src[k]))
					k++;
				if (k == len)
					standalone = 1, le = k;
				else if (src[k] == '\n')
					standalone = 1, le = k + 1;
				else if (src[k] == '\r' && k + 1 < len && src[k + 1] == '\n')
					standalone = 1, le = k + 2;
				if (standalone)
					ls = j;
			}
		}
		rc = emit_text(ps, text_start, ls);
		if (rc < 0)
			return rc;
		if (!standalone && at_line_start(ps, ts) && !node_push(ps, TMPL_INDENT, 0))
			return nomem(ps);
		text_start = le;
		p = le;
		if (sigil == '=') {
			rc = set_delimiters(ps, cs, ce, line);
		} else {
			rc = handle_tag(ps, sigil, cs, ce, line, standalone, ls, ts - ls);
		}
		if (rc < 0)
			return rc;
	}
	rc = emit_text(ps, text_start, len);
	if (rc < 0)
		return rc;
	if (ps->nopen) {
		const struct tmpl_node *open = &ps->t->nodes[ps->open[ps->nopen - 1]];

		return fail(ps, ERR_INPUT, open->line, "section '%s' is never closed (%.*s/%s%.*s missing)",
			    open->name, (int)ps->olen, ps->otag, open->name, (int)ps->clen, ps->ctag);
	}
	return 0;
}

int render__compile(const char *name, const char *text, size_t len, struct tmpl **out,
		    struct err *err)
{
	struct parser ps;
	struct tmpl *t = NULL;
	int rc = ERR_NOMEM;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		goto nomem;
	t->name = strdup(name);
	t->src = malloc(len + 1);
	if (!t->name || !t->src)
		goto nomem;
	if (len)
		memcpy(t->src, text, len);
	t->src[len] = '\0';
	t->srclen = len;

	memset(&ps, 0, sizeof(ps));
	ps.t = t;
	ps.src = t->src;
	ps.len = len;
	ps.otag = "{{";
	ps.olen = 2;
	ps.ctag = "}}";
	ps.clen = 2;
	ps.line = 1;
	ps.err = err;
	rc = parse(&ps);
	if (rc < 0)
		goto done;
	*out = t;
	t = NULL;
	goto done;
nomem:
	rc = err_set(err, ERR_NOMEM, "%s: out of memory compiling the template", name);
done:
	render__tmpl_free(t);
	return rc;
}

void render__tmpl_free(struct tmpl *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nnodes; i++)
		free(t->nodes[i].name);
	free(t->nodes);
	free(t->src);
	free(t->name);
	free(t);
}
