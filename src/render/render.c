/* render/render.c: render compiled Mustache templates over jansson values; template sets */
/* SPDX-License-Identifier: MIT */
#include "render/render.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render/tmpl.h"
#include "util/banned.h"

#define TEMPLATE_SUFFIX ".mustache"
#define TEMPLATE_MAX_SIZE (1024 * 1024)

struct render_set {
	struct tmpl **tmpls;  /* sorted by name */
	size_t n;
	size_t alloc;
};

/* Partials compiled during one render_string call. */
struct pcache {
	char *name;
	struct tmpl *t;       /* NULL: the lookup said there is no such partial */
	struct pcache *next;
};

/* The state of one rendering; nothing in it is shared between calls. */
struct rstate {
	const json_t *stack[RENDER_MAX_DEPTH + 2];  /* the context stack, top last */
	size_t depth;
	unsigned level;             /* nested sections and partials being rendered */
	unsigned partials;          /* nested partials being rendered */
	unsigned long steps;        /* nodes and section iterations so far */
	struct buf *out;
	size_t out_start;           /* out->len before this rendering */
	struct buf indent;          /* the current indentation is indent[indent_start..len) */
	size_t indent_start;
	const struct render_set *set;
	const struct render_partials *cb;
	struct pcache *cache;
	struct err *err;
};

void render_escape_html(struct buf *out, const char *s, size_t len)
{
	buf_add_html(out, s, len);
}

/*
 * A real the way the spec (and JavaScript) writes it: the fewest
 * significant digits that read back as the same double, no trailing
 * zeros, no exponent for ordinary magnitudes (1.21, 1, 100, 0.001).
 */
static void add_real(struct buf *out, double v)
{
	char sci[40], fix[400];
	int prec, exp10;
	const char *e;

	for (prec = 1; prec < 17; prec++) {
		snprintf(sci, sizeof(sci), "%.*e", prec - 1, v);
		if (strtod(sci, NULL) == v)
			break;
	}
	snprintf(sci, sizeof(sci), "%.*e", prec - 1, v);
	e = strchr(sci, 'e');
	exp10 = e ? (int)strtol(e + 1, NULL, 10) : 0;
	if (exp10 > -7 && exp10 < 21) {
		int decimals = prec - 1 - exp10;

		snprintf(fix, sizeof(fix), "%.*f", decimals > 0 ? decimals : 0, v);
		buf_adds(out, fix);
		return;
	}
	buf_adds(out, sci);
}

/* Integers are most of what pages show; printf is slow enough to matter here. */
static void add_integer(struct buf *out, json_int_t v)
{
	char digits[24];
	size_t i = sizeof(digits);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do {
		digits[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		digits[--i] = '-';
	buf_add(out, digits + i, sizeof(digits) - i);
}

static void add_value(struct rstate *st, const json_t *v, int escape)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		if (escape)
			render_escape_html(st->out, json_string_value(v), json_string_length(v));
		else
			buf_add(st->out, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		add_integer(st->out, json_integer_value(v));
		break;
	case JSON_REAL:
		add_real(st->out, json_real_value(v));
		break;
	case JSON_TRUE:
		buf_adds(st->out, "true");
		break;
	case JSON_FALSE:
		buf_adds(st->out, "false");
		break;
	default:
		/* null, objects and arrays interpolate as nothing */
		break;
	}
}

/* Falsey: missing, null, false, an empty array or an empty string. */
static int truthy(const json_t *v)
{
	if (!v)
		return 0;
	switch (json_typeof(v)) {
	case JSON_NULL:
	case JSON_FALSE:
		return 0;
	case JSON_ARRAY:
		return json_array_size(v) > 0;
	case JSON_STRING:
		return json_string_length(v) > 0;
	default:
		return 1;
	}
}

/*
 * Resolve a name: "." is the top of the stack; otherwise the first part is
 * looked up from the top of the stack down, each further part only in the
 * value the previous one found. Borrowed, or NULL when it does not resolve.
 */
static const json_t *lookup(const struct rstate *st, const struct tmpl_node *nd)
{
	const json_t *v = NULL;
	const char *part;

	if (nd->nparts == 0)
		return st->stack[st->depth - 1];
	part = nd->parts;
	for (size_t d = st->depth; d-- > 0;) {
		if (json_is_object(st->stack[d]) &&
		    (v = json_object_get(st->stack[d], part)) != NULL)
			break;
	}
	for (unsigned i = 1; v && i < nd->nparts; i++) {
		part += strlen(part) + 1;
		v = json_is_object(v) ? json_object_get(v, part) : NULL;
	}
	return v;
}

static int find_partial(struct rstate *st, const char *name, const struct tmpl **out);
static int render_nodes(struct rstate *st, const struct tmpl *t, size_t begin, size_t end);

static int enter(struct rstate *st, const struct tmpl *t, const struct tmpl_node *nd)
{
	if (st->level >= RENDER_MAX_DEPTH)
		return err_set(st->err, ERR_LIMIT,
			       "%s:%u: sections and partials nested more than %d deep",
			       t->name, nd->line, RENDER_MAX_DEPTH);
	st->level++;
	return 0;
}

static int render_section(struct rstate *st, const struct tmpl *t, size_t i)
{
	const struct tmpl_node *nd = &t->nodes[i];
	const json_t *v = lookup(st, nd);
	int rc = enter(st, t, nd);

	if (rc < 0)
		return rc;
	if (nd->op == TMPL_INVERTED) {
		if (!truthy(v))
			rc = render_nodes(st, t, i + 1, nd->end);
	} else if (truthy(v) && json_is_array(v)) {
		for (size_t k = 0; rc == 0 && k < json_array_size(v); k++) {
			st->stack[st->depth++] = json_array_get(v, k);
			rc = render_nodes(st, t, i + 1, nd->end);
			st->depth--;
		}
	} else if (truthy(v)) {
		st->stack[st->depth++] = v;
		rc = render_nodes(st, t, i + 1, nd->end);
		st->depth--;
	}
	st->level--;
	return rc;
}

static int render_partial(struct rstate *st, const struct tmpl *t, const struct tmpl_node *nd)
{
	const struct tmpl *p = NULL;
	size_t saved_start = st->indent_start, saved_len = st->indent.len;
	int rc;

	rc = find_partial(st, nd->name, &p);
	if (rc < 0 || !p)
		return rc;
	if (st->partials >= RENDER_MAX_PARTIAL_DEPTH)
		return err_set(st->err, ERR_LIMIT,
			       "%s:%u: partials nested more than %d deep (is '%s' recursive?)",
			       t->name, nd->line, RENDER_MAX_PARTIAL_DEPTH, nd->name);
	rc = enter(st, t, nd);
	if (rc < 0)
		return rc;
	/*
	 * A standalone partial's lines get the current indentation plus its
	 * own; an inline one starts with none. Either way the new indentation
	 * ends the buffer, so leaving just truncates it.
	 */
	if (nd->standalone)
		buf_add(&st->indent, nd->text, nd->len);
	else
		st->indent_start = st->indent.len;
	st->partials++;
	rc = render_nodes(st, p, 0, p->nnodes);
	st->partials--;
	st->level--;
	if (st->indent.alloc)
		buf_setlen(&st->indent, saved_len);
	st->indent_start = saved_start;
	return rc;
}

static int too_long(struct rstate *st, const struct tmpl *t)
{
	return err_set(st->err, ERR_LIMIT,
		       "%s: rendering stopped after %d steps (sections nested over long arrays?)",
		       t->name, RENDER_MAX_STEPS);
}

static int render_nodes(struct rstate *st, const struct tmpl *t, size_t begin, size_t end)
{
	int rc = 0;

	/* an (empty) section iteration counts as a step too */
	if (++st->steps > RENDER_MAX_STEPS)
		return too_long(st, t);
	for (size_t i = begin; rc == 0 && i < end; i++) {
		const struct tmpl_node *nd = &t->nodes[i];

		if (++st->steps > RENDER_MAX_STEPS)
			return too_long(st, t);
		if (st->out->len - st->out_start > RENDER_MAX_OUTPUT)
			return err_set(st->err, ERR_TOOLARGE, "%s: output larger than %d bytes",
				       t->name, RENDER_MAX_OUTPUT);
		switch (nd->op) {
		case TMPL_TEXT:
			buf_add(st->out, nd->text, nd->len);
			break;
		case TMPL_INDENT:
			buf_add(st->out, st->indent.data + st->indent_start,
				st->indent.len - st->indent_start);
			break;
		case TMPL_VAR:
		case TMPL_RAW: {
			const json_t *v = lookup(st, nd);

			if (v)
				add_value(st, v, nd->op == TMPL_VAR);
			break;
		}
		case TMPL_SECTION:
		case TMPL_INVERTED:
			rc = render_section(st, t, i);
			i = nd->end - 1;
			break;
		case TMPL_PARTIAL:
			rc = render_partial(st, t, nd);
			break;
		}
	}
	return rc;
}

static void cache_free(struct pcache *c)
{
	while (c) {
		struct pcache *next = c->next;

		render__tmpl_free(c->t);
		free(c->name);
		free(c);
		c = next;
	}
}

static int tmpl_cmp(const void *key, const void *elem)
{
	return strcmp(key, (*(struct tmpl *const *)elem)->name);
}

static const struct tmpl *set_find(const struct render_set *set, const char *name)
{
	struct tmpl *const *t;

	if (!set->n)
		return NULL;
	t = bsearch(name, set->tmpls, set->n, sizeof(*set->tmpls), tmpl_cmp);
	return t ? *t : NULL;
}

/* The compiled partial `name`, or *out = NULL when there is none. */
static int find_partial(struct rstate *st, const char *name, const struct tmpl **out)
{
	struct pcache *c;
	const char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if (st->set) {
		*out = set_find(st->set, name);
		return 0;
	}
	for (c = st->cache; c; c = c->next) {
		if (strcmp(c->name, name) == 0) {
			*out = c->t;
			return 0;
		}
	}
	rc = st->cb && st->cb->lookup ? st->cb->lookup(st->cb->ctx, name, &text, &len)
				      : ERR_NOTFOUND;
	if (rc < 0 && rc != ERR_NOTFOUND)
		return err_set(st->err, rc, "partial '%s': lookup failed (%s)", name,
			       err_code_name(rc));
	c = calloc(1, sizeof(*c));
	if (!c || !(c->name = strdup(name))) {
		free(c);
		return err_set(st->err, ERR_NOMEM, "partial '%s': out of memory", name);
	}
	if (rc == 0) {
		rc = render__compile(name, text ? text : "", len, &c->t, st->err);
		if (rc < 0) {
			cache_free(c);
			return rc;
		}
	}
	c->next = st->cache;
	st->cache = c;
	*out = c->t;
	return 0;
}

static int render_run(struct rstate *st, const struct tmpl *t, const json_t *data)
{
	size_t start = st->out->len;
	json_t *empty = NULL;
	int rc;

	st->out_start = start;
	if (!data) {
		empty = json_object();
		if (!empty)
			return err_set(st->err, ERR_NOMEM, "out of memory");
		data = empty;
	}
	st->stack[0] = data;
	st->depth = 1;
	rc = render_nodes(st, t, 0, t->nnodes);
	if (rc < 0 && st->out->alloc)
		buf_setlen(st->out, start);
	buf_release(&st->indent);
	cache_free(st->cache);
	st->cache = NULL;
	json_decref(empty);
	return rc;
}

int render_string(const char *tmpl, size_t len, const json_t *data,
		  const struct render_partials *p, struct buf *out, struct err *err)
{
	struct rstate *st = NULL;
	struct tmpl *t = NULL;
	int rc;

	rc = render__compile("template", tmpl, len, &t, err);
	if (rc < 0)
		goto done;
	st = calloc(1, sizeof(*st));
	if (!st) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	buf_init(&st->indent);
	st->out = out;
	st->cb = p;
	st->err = err;
	rc = render_run(st, t, data);
done:
	free(st);
	render__tmpl_free(t);
	return rc;
}

int render_set_new(struct render_set **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : ERR_NOMEM;
}

void render_set_free(struct render_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++)
		render__tmpl_free(set->tmpls[i]);
	free(set->tmpls);
	free(set);
}

int render_set_add(struct render_set *set, const char *name, const char *text, size_t len,
		   struct err *err)
{
	struct tmpl *t = NULL;
	size_t lo = 0, hi = set->n;
	int rc;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, set->tmpls[mid]->name);

		if (c == 0)
			return err_set(err, ERR_CONFLICT, "template '%s' is defined twice", name);
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (set->n == set->alloc) {
		size_t n = set->alloc ? set->alloc * 2 : 16;
		struct tmpl **p = realloc(set->tmpls, n * sizeof(*p));

		if (!p)
			return err_set(err, ERR_NOMEM, "out of memory adding template '%s'", name);
		set->tmpls = p;
		set->alloc = n;
	}
	rc = render__compile(name, text, len, &t, err);
	if (rc < 0)
		return rc;
	memmove(set->tmpls + lo + 1, set->tmpls + lo, (set->n - lo) * sizeof(*set->tmpls));
	set->tmpls[lo] = t;
	set->n++;
	return 0;
}

static int read_file(const char *path, struct buf *out, struct err *err)
{
	FILE *f = NULL;
	char chunk[8192];
	size_t n;
	int rc = 0;

	f = fopen(path, "rb");
	if (!f)
		return err_set(err, ERR_IO, "cannot open template %s: %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (out->len + n > TEMPLATE_MAX_SIZE) {
			rc = err_set(err, ERR_TOOLARGE, "template %s is larger than %d bytes", path,
				     TEMPLATE_MAX_SIZE);
			goto done;
		}
		buf_add(out, chunk, n);
	}
	if (ferror(f))
		rc = err_set(err, ERR_IO, "cannot read template %s", path);
done:
	fclose(f);
	return rc;
}

/* Load the templates under dir/rel (rel is "" or ends with '/'). */
static int load_dir(struct render_set *set, const char *dir, struct buf *rel, int depth,
		    struct err *err)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	struct dirent **ents = NULL;
	int n = -1, rc = 0;

	if (depth > 16)
		return err_set(err, ERR_LIMIT, "template directory %s/%s is nested too deep", dir,
			       rel->data);
	buf_addf(&path, "%s/%s", dir, rel->data);
	n = scandir(path.data, &ents, NULL, alphasort);
	if (n < 0) {
		rc = err_set(err, ERR_IO, "cannot read template directory %s: %s", path.data,
			     strerror(errno));
		goto done;
	}
	for (int i = 0; i < n && rc == 0; i++) {
		const char *nm = ents[i]->d_name;
		size_t nlen = strlen(nm), slen = strlen(TEMPLATE_SUFFIX), rlen = rel->len;
		struct stat sb;

		if (nm[0] == '.')
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s%s", dir, rel->data, nm);
		if (stat(path.data, &sb) != 0) {
			rc = err_set(err, ERR_IO, "cannot stat %s: %s", path.data, strerror(errno));
			break;
		}
		if (S_ISDIR(sb.st_mode)) {
			buf_addf(rel, "%s/", nm);
			rc = load_dir(set, dir, rel, depth + 1, err);
			buf_setlen(rel, rlen);
			continue;
		}
		if (!S_ISREG(sb.st_mode) || nlen <= slen ||
		    strcmp(nm + nlen - slen, TEMPLATE_SUFFIX) != 0)
			continue;
		buf_reset(&text);
		rc = read_file(path.data, &text, err);
		if (rc < 0)
			break;
		buf_add(rel, nm, nlen - slen);
		rc = render_set_add(set, rel->data, text.data, text.len, err);
		buf_setlen(rel, rlen);
	}
done:
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	buf_release(&path);
	buf_release(&text);
	return rc;
}

int render_set_load_dir(struct render_set *set, const char *dir, struct err *err)
{
	struct buf rel = BUF_INIT;
	int rc;

	rc = load_dir(set, dir, &rel, 0, err);
	buf_release(&rel);
	return rc;
}

int render_set_has(const struct render_set *set, const char *name)
{
	return set_find(set, name) != NULL;
}

size_t render_set_count(const struct render_set *set)
{
	return set->n;
}

int render_set_verify(const struct render_set *set, struct err *err)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct tmpl *t = set->tmpls[i];

		for (size_t k = 0; k < t->nnodes; k++)
			if (t->nodes[k].op == TMPL_PARTIAL && !set_find(set, t->nodes[k].name))
				return err_set(err, ERR_NOTFOUND, "%s:%u: no template '%s' for partial",
					       t->name, t->nodes[k].line, t->nodes[k].name);
	}
	return 0;
}

int render_set_render(const struct render_set *set, const char *name, const json_t *data,
		      struct buf *out, struct err *err)
{
	const struct tmpl *t = set_find(set, name);
	struct rstate *st;
	int rc;

	if (!t)
		return err_set(err, ERR_NOTFOUND, "no template '%s'", name);
	st = calloc(1, sizeof(*st));
	if (!st)
		return err_set(err, ERR_NOMEM, "out of memory rendering '%s'", name);
	buf_init(&st->indent);
	st->out = out;
	st->set = set;
	st->err = err;
	rc = render_run(st, t, data);
	free(st);
	return rc;
}
