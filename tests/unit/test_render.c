/* tests/unit/test_render.c: CUnit suite for render/ (the official Mustache spec and our own cases) */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "render/render.h"
#include "testutil.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/banned.h"

/* ---- helpers ---- */

/* Parse a JSON text for a test (NULL text gives NULL data). New reference. */
static json_t *data_of(const char *text)
{
	json_error_t je;
	json_t *v;

	if (!text)
		return NULL;
	v = json_loads(text, JSON_DECODE_ANY, &je);
	if (!v)
		fprintf(stderr, "\n  bad test JSON: %s: %s\n", text, je.text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	return v;
}

/* Partials from a JSON object of name -> template text. */
static int lookup_object(void *ctx, const char *name, const char **text, size_t *len)
{
	const json_t *s = json_object_get(ctx, name);

	if (!json_is_string(s))
		return ERR_NOTFOUND;
	*text = json_string_value(s);
	*len = json_string_length(s);
	return 0;
}

/*
 * Render `tmpl` with JSON `data` and partials from the JSON object text
 * `partials` (may be NULL); returns the code, output in *out.
 */
static int render_json(const char *tmpl, const char *data, const char *partials, struct buf *out,
		       struct err *e)
{
	json_t *d = data_of(data), *p = data_of(partials);
	struct render_partials rp = { lookup_object, p };
	int rc;

	rc = render_string(tmpl, strlen(tmpl), d, &rp, out, e);
	json_decref(d);
	json_decref(p);
	return rc;
}

/* Assert that rendering succeeds with exactly X_. */
#define ASSERT_RENDERS(T_, D_, P_, X_) \
	do { \
		struct buf ob_ = BUF_INIT; \
		struct err er_ = {0}; \
		int rc_ = render_json((T_), (D_), (P_), &ob_, &er_); \
		if (rc_ != 0) \
			fprintf(stderr, "\n  %s:%d: render failed: %s\n", __FILE__, __LINE__, er_.msg); \
		CU_ASSERT_EQUAL(rc_, 0); \
		ASSERT_STR_EQ(ob_.data, (X_)); \
		buf_release(&ob_); \
	} while (0)

/* Assert that rendering fails with code C_, a message containing M_, and no output. */
#define ASSERT_RENDER_FAILS(T_, D_, P_, C_, M_) \
	do { \
		struct buf ob_ = BUF_INIT; \
		struct err er_ = {0}; \
		buf_adds(&ob_, "before|"); \
		int rc_ = render_json((T_), (D_), (P_), &ob_, &er_); \
		CU_ASSERT_EQUAL(rc_, (C_)); \
		CU_ASSERT_EQUAL(er_.code, (C_)); \
		if (!strstr(er_.msg, (M_))) \
			fprintf(stderr, "\n  %s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, \
				er_.msg, (M_)); \
		CU_ASSERT_PTR_NOT_NULL(strstr(er_.msg, (M_))); \
		ASSERT_STR_EQ(ob_.data, "before|"); \
		buf_release(&ob_); \
	} while (0)

/* ---- the official spec ---- */

/*
 * Run every case of one spec file twice, through render_string with a
 * partials callback and through a render_set, as one CUnit assertion per
 * case and path named after the case.
 */
static void run_spec_file(const char *file)
{
	const char *top = getenv("TOP_SRCDIR");
	struct buf path = BUF_INIT;
	json_error_t je;
	json_t *doc, *tests;
	size_t i, failed = 0;
	json_t *tc;

	buf_addf(&path, "%s/tests/data/mustache-spec/%s", top ? top : ".", file);
	doc = json_load_file(path.data, 0, &je);
	if (!doc)
		fprintf(stderr, "\n  cannot load %s: %s (is TOP_SRCDIR set?)\n", path.data, je.text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	tests = json_object_get(doc, "tests");
	CU_ASSERT_TRUE(json_is_array(tests) && json_array_size(tests) > 0);

	json_array_foreach(tests, i, tc) {
		const char *name = json_string_value(json_object_get(tc, "name"));
		const char *tmpl = json_string_value(json_object_get(tc, "template"));
		const char *expected = json_string_value(json_object_get(tc, "expected"));
		json_t *data = json_object_get(tc, "data");
		json_t *partials = json_object_get(tc, "partials");
		struct render_partials rp = { lookup_object, partials };
		struct render_set *set = NULL;
		struct buf out = BUF_INIT, label = BUF_INIT;
		struct err e = {0};
		const char *pname;
		json_t *ptext;
		int rc, ok;

		CU_ASSERT_PTR_NOT_NULL_FATAL(name);
		CU_ASSERT_PTR_NOT_NULL_FATAL(tmpl);
		CU_ASSERT_PTR_NOT_NULL_FATAL(expected);

		/* 1: render_string with the partials callback */
		rc = render_string(tmpl, strlen(tmpl), data, &rp, &out, &e);
		ok = rc == 0 && strcmp(out.data, expected) == 0;
		buf_addf(&label, "spec %s: %s (render_string)", file, name);
		if (!ok) {
			failed++;
			fprintf(stderr, "\n  FAILED %s\n    rc %d %s\n    got      \"%s\"\n    expected \"%s\"\n",
				label.data, rc, e.msg, out.data, expected);
		}
		CU_assertImplementation(ok, __LINE__, label.data, __FILE__, "run_spec_file", CU_FALSE);

		/* 2: a render_set holding the template and the partials */
		buf_reset(&out);
		buf_reset(&label);
		CU_ASSERT_EQUAL_FATAL(render_set_new(&set), 0);
		rc = render_set_add(set, "spec template", tmpl, strlen(tmpl), &e);
		json_object_foreach(partials, pname, ptext) {
			if (rc == 0)
				rc = render_set_add(set, pname, json_string_value(ptext),
						    json_string_length(ptext), &e);
		}
		if (rc == 0)
			rc = render_set_render(set, "spec template", data, &out, &e);
		ok = rc == 0 && strcmp(out.data, expected) == 0;
		buf_addf(&label, "spec %s: %s (render_set)", file, name);
		if (!ok) {
			failed++;
			fprintf(stderr, "\n  FAILED %s\n    rc %d %s\n    got      \"%s\"\n    expected \"%s\"\n",
				label.data, rc, e.msg, out.data, expected);
		}
		CU_assertImplementation(ok, __LINE__, label.data, __FILE__, "run_spec_file", CU_FALSE);
		render_set_free(set);
		buf_release(&out);
		buf_release(&label);
	}
	CU_ASSERT_EQUAL(failed, 0);
	json_decref(doc);
	buf_release(&path);
}

static void test_render__spec_comments(void) { run_spec_file("comments.json"); }
static void test_render__spec_delimiters(void) { run_spec_file("delimiters.json"); }
static void test_render__spec_interpolation(void) { run_spec_file("interpolation.json"); }
static void test_render__spec_inverted(void) { run_spec_file("inverted.json"); }
static void test_render__spec_partials(void) { run_spec_file("partials.json"); }
static void test_render__spec_sections(void) { run_spec_file("sections.json"); }

/* ---- our own cases ---- */

static void test_render__escaping(void)
{
	const char *data = "{\"s\": \"a&b<c>d\\\"e'f`g=h\", \"list\": [\"<i>\", \"'x'\"]}";
	struct buf b = BUF_INIT;

	ASSERT_RENDERS("{{s}}", data, NULL, "a&amp;b&lt;c&gt;d&quot;e&#39;f&#96;g=h");
	ASSERT_RENDERS("{{ s }}", data, NULL, "a&amp;b&lt;c&gt;d&quot;e&#39;f&#96;g=h");
	ASSERT_RENDERS("{{{s}}}", data, NULL, "a&b<c>d\"e'f`g=h");
	ASSERT_RENDERS("{{& s}}", data, NULL, "a&b<c>d\"e'f`g=h");
	ASSERT_RENDERS("{{#list}}[{{.}}]{{/list}}", data, NULL, "[&lt;i&gt;][&#39;x&#39;]");
	ASSERT_RENDERS("{{=<% %>=}}<%s%>|<%{s}%>", data, NULL,
		       "a&amp;b&lt;c&gt;d&quot;e&#39;f&#96;g=h|a&b<c>d\"e'f`g=h");
	/* each dangerous character on its own, and text around it untouched */
	ASSERT_RENDERS("<p title=\"{{s}}\">", "{\"s\": \"\\\"><script>alert(1)</script>\"}", NULL,
		       "<p title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">");
	ASSERT_RENDERS("{{s}}", "{\"s\": \"&amp;\"}", NULL, "&amp;amp;");
	/* template text itself is never escaped, and data is never re-parsed */
	ASSERT_RENDERS("<b>{{s}}</b>", "{\"s\": \"{{s}}\"}", NULL, "<b>{{s}}</b>");
	/* the escaper goes by length: bytes after a NUL are escaped too */
	render_escape_html(&b, "a\0<", 3);
	CU_ASSERT_EQUAL(b.len, 5 + 1);
	CU_ASSERT_EQUAL(memcmp(b.data, "a\0&lt;", 6), 0);
	buf_reset(&b);
	render_escape_html(&b, "&<>\"'`", 6);
	ASSERT_STR_EQ(b.data, "&amp;&lt;&gt;&quot;&#39;&#96;");
	buf_release(&b);
}

static void test_render__values(void)
{
	ASSERT_RENDERS("{{a}}|{{b}}|{{c}}|{{d}}|{{e}}", "{\"a\": 1.0, \"b\": 1.21, \"c\": 100.0, "
		       "\"d\": 0.001, \"e\": -2.5}", NULL, "1|1.21|100|0.001|-2.5");
	ASSERT_RENDERS("{{a}}|{{b}}|{{c}}", "{\"a\": 0.30000000000000004, \"b\": 1e21, \"c\": 1.5e-9}",
		       NULL, "0.30000000000000004|1e+21|1.5e-09");
	ASSERT_RENDERS("{{a}}|{{b}}|{{c}}|{{d}}|{{e}}|{{f}}", "{\"a\": -42, \"b\": 9007199254740993, "
		       "\"c\": 0, \"d\": 9223372036854775807, \"e\": -9223372036854775808, \"f\": 7}",
		       NULL, "-42|9007199254740993|0|9223372036854775807|-9223372036854775808|7");
	ASSERT_RENDERS("{{t}}|{{f}}|{{n}}|{{o}}|{{l}}|{{m}}",
		       "{\"t\": true, \"f\": false, \"n\": null, \"o\": {\"x\": 1}, \"l\": [1]}", NULL,
		       "true|false||||");
	/* truthiness: empty string is falsey, zero and objects are truthy */
	ASSERT_RENDERS("{{#e}}E{{/e}}{{^e}}e{{/e}}{{#z}}Z{{/z}}{{#o}}O{{/o}}{{^l}}l{{/l}}",
		       "{\"e\": \"\", \"z\": 0, \"o\": {}, \"l\": []}", NULL, "eZOl");
	/* NULL data renders like an empty object */
	ASSERT_RENDERS("[{{x}}]{{^x}}none{{/x}}{{#.}}obj{{/.}}", NULL, NULL, "[]noneobj");
	/* a scalar section value is the top of the stack */
	ASSERT_RENDERS("{{#n}}{{.}}!{{/n}}", "{\"n\": 7}", NULL, "7!");
	/* the context stack: inner names shadow outer ones, misses fall through */
	ASSERT_RENDERS("{{#a}}{{x}}{{y}}{{#b}}{{x}}{{y}}{{/b}}{{/a}}",
		       "{\"x\": 1, \"y\": 2, \"a\": {\"x\": 3, \"b\": {\"y\": 4}}}", NULL, "3234");
}

static void test_render__not_nul_terminated(void)
{
	const char tmpl[] = "{{a}}{{b}}";
	struct buf out = BUF_INIT;
	struct err e = {0};
	json_t *d = data_of("{\"a\": \"A\", \"b\": \"B\"}");

	/* only the first five bytes are the template */
	CU_ASSERT_EQUAL(render_string(tmpl, 5, d, NULL, &out, &e), 0);
	ASSERT_STR_EQ(out.data, "A");
	/* a cut-off tag is an error, not a read past the end */
	buf_reset(&out);
	CU_ASSERT_EQUAL(render_string(tmpl, 8, d, NULL, &out, &e), ERR_INPUT);
	ASSERT_STR_EQ(out.data, "");
	json_decref(d);
	buf_release(&out);
}

static void test_render__parse_errors(void)
{
	ASSERT_RENDER_FAILS("a\nb\n{{#games}}\nc\n", "{}", NULL, ERR_INPUT,
			    "template:3: section 'games' is never closed");
	ASSERT_RENDER_FAILS("{{#a}}\n{{#b}}\n{{/a}}\n{{/b}}", "{}", NULL, ERR_INPUT,
			    "template:3: {{/a}} does not match section 'b' opened on line 2");
	ASSERT_RENDER_FAILS("x\n\n{{/a}}", "{}", NULL, ERR_INPUT,
			    "template:3: {{/a}} closes a section that was never opened");
	ASSERT_RENDER_FAILS("ok\n{{=<% =}}", "{}", NULL, ERR_INPUT,
			    "template:2: bad set-delimiter tag");
	ASSERT_RENDER_FAILS("{{=a= b=}}", "{}", NULL, ERR_INPUT, "template:1: bad set-delimiter tag");
	ASSERT_RENDER_FAILS("{{=<% %> x=}}", "{}", NULL, ERR_INPUT, "bad set-delimiter tag");
	ASSERT_RENDER_FAILS("{{=<% %>=}}\n\n<%name", "{}", NULL, ERR_INPUT,
			    "template:3: tag <% is never closed with %>");
	ASSERT_RENDER_FAILS("{{{name}}", "{}", NULL, ERR_INPUT, "template:1: tag {{{ is never closed");
	ASSERT_RENDER_FAILS("\n{{ }}", "{}", NULL, ERR_INPUT, "template:2: empty tag");
	ASSERT_RENDER_FAILS("{{a b}}", "{}", NULL, ERR_INPUT, "'a b' is not a name");
	ASSERT_RENDER_FAILS("{{a..b}}", "{}", NULL, ERR_INPUT, "'a..b' is not a name");
	ASSERT_RENDER_FAILS("{{#.a}}{{/.a}}", "{}", NULL, ERR_INPUT, "'.a' is not a name");
	ASSERT_RENDER_FAILS("{{<parent}}{{/parent}}", "{}", NULL, ERR_INPUT,
			    "template inheritance");
	/* the line counts newlines inside multi-line comments too */
	ASSERT_RENDER_FAILS("{{! one\ntwo\nthree }}\n{{/x}}", "{}", NULL, ERR_INPUT, "template:4:");
	/* an error in a partial names the partial, and nothing is rendered */
	ASSERT_RENDER_FAILS("before {{>p}} after", "{}", "{\"p\": \"one\\n{{#x}}\"}", ERR_INPUT,
			    "p:2: section 'x' is never closed");
	/* too deeply nested sections in one template */
	{
		struct buf t = BUF_INIT;

		for (int i = 0; i <= RENDER_MAX_NESTING; i++)
			buf_adds(&t, "{{#a}}");
		ASSERT_RENDER_FAILS(t.data, "{}", NULL, ERR_LIMIT, "nested more than");
		buf_release(&t);
	}
}

static void test_render__recursion_limit(void)
{
	struct buf t = BUF_INIT;

	/* a partial that includes itself without end */
	ASSERT_RENDER_FAILS("start {{>loop}}", "{}", "{\"loop\": \"x{{>loop}}\"}", ERR_LIMIT,
			    "partials nested more than 64 deep (is 'loop' recursive?)");
	/* mutual recursion */
	ASSERT_RENDER_FAILS("{{>a}}", "{}", "{\"a\": \"{{>b}}\", \"b\": \"{{>a}}\"}", ERR_LIMIT,
			    "partials nested more than 64 deep");
	/*
	 * Recursion that ends inside the limit works. The innermost "c" must be
	 * there: a missing one would resolve to the parent's c (context stack)
	 * and recurse without end.
	 */
	ASSERT_RENDERS("{{>n}}", "{\"v\": 1, \"c\": {\"v\": 2, \"c\": {\"v\": 3, \"c\": null}}}",
		       "{\"n\": \"{{v}}{{#c}}({{>n}}){{/c}}\"}", "1(2(3))");
	/* sections and partials together: 100 nested sections per partial level */
	for (int i = 0; i < RENDER_MAX_NESTING; i++)
		buf_adds(&t, "{{#.}}");
	buf_adds(&t, "{{>deep}}");
	for (int i = 0; i < RENDER_MAX_NESTING; i++)
		buf_adds(&t, "{{/.}}");
	{
		json_t *p = json_pack("{s:s}", "deep", t.data);
		char *ptext = json_dumps(p, 0);

		ASSERT_RENDER_FAILS("{{>deep}}", "{}", ptext, ERR_LIMIT, "nested more than 512 deep");
		free(ptext);
		json_decref(p);
	}
	buf_release(&t);
}

static void test_render__work_limits(void)
{
	struct buf t = BUF_INIT, big = BUF_INIT, out = BUF_INIT;
	struct err e = {0};
	json_t *d;

	/* 12 sections nested over a 4-element array: 4^12 iterations */
	for (int i = 0; i < 12; i++)
		buf_adds(&t, "{{#a}}");
	for (int i = 0; i < 12; i++)
		buf_adds(&t, "{{/a}}");
	ASSERT_RENDER_FAILS(t.data, "{\"a\": [1, 2, 3, 4]}", NULL, ERR_LIMIT,
			    "template: rendering stopped after 10000000 steps");
	/* the same nested 10 deep over a 2-element array is fine */
	buf_reset(&t);
	for (int i = 0; i < 10; i++)
		buf_adds(&t, "{{#a}}");
	buf_adds(&t, "{{.}}");
	for (int i = 0; i < 10; i++)
		buf_adds(&t, "{{/a}}");
	d = data_of("{\"a\": [0, 1]}");
	CU_ASSERT_EQUAL(render_string(t.data, t.len, d, NULL, &out, &e), 0);
	CU_ASSERT_EQUAL(out.len, 1024);
	json_decref(d);

	/* output over RENDER_MAX_OUTPUT */
	for (int i = 0; i < 100000; i++)
		buf_addc(&big, 'x');
	d = json_pack("{s:s,s:[iiiiiiiiii]}", "s", big.data, "a", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	buf_reset(&out);
	buf_adds(&out, "kept");
	buf_reset(&t);
	buf_adds(&t, "{{#a}}{{#a}}{{#a}}{{s}}{{/a}}{{/a}}{{/a}}");
	CU_ASSERT_EQUAL(render_string(t.data, t.len, d, NULL, &out, &e), ERR_TOOLARGE);
	ASSERT_STR_EQ(e.msg, "template: output larger than 16777216 bytes");
	ASSERT_STR_EQ(out.data, "kept");
	json_decref(d);
	buf_release(&t);
	buf_release(&big);
	buf_release(&out);
}

/* ---- template sets ---- */

static void write_file(const char *dir, const char *name, const char *text)
{
	struct buf path = BUF_INIT;
	FILE *f;

	buf_addf(&path, "%s/%s", dir, name);
	f = fopen(path.data, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	buf_release(&path);
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void remove_tree(const char *dir)
{
	CU_ASSERT_EQUAL(nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
}

static void make_dir(const char *dir, const char *sub)
{
	struct buf path = BUF_INIT;

	buf_addf(&path, "%s/%s", dir, sub);
	CU_ASSERT_EQUAL(mkdir(path.data, 0700), 0);
	buf_release(&path);
}

static const char *page_tmpl =
	"<!doctype html>\n"
	"<main>\n"
	"  {{> parts/header}}\n"
	"  <ul>\n"
	"  {{#games}}\n"
	"    {{> parts/game}}\n"
	"  {{/games}}\n"
	"  </ul>\n"
	"</main>\n";
static const char *page_expected =
	"<!doctype html>\n"
	"<main>\n"
	"  <h1>Hello &lt;Ann&gt;</h1>\n"
	"  <ul>\n"
	"    <li>alien-frontiers #7\n"
	"      waiting 3h</li>\n"
	"    <li>starship-merchants #9\n"
	"      your turn</li>\n"
	"  </ul>\n"
	"</main>\n";
static const char *page_data =
	"{\"user\": \"<Ann>\", \"games\": ["
	"{\"game\": \"alien-frontiers\", \"id\": 7, \"wait\": \"3h\"},"
	"{\"game\": \"starship-merchants\", \"id\": 9, \"mine\": true}]}";

static void fill_dir(const char *dir)
{
	make_dir(dir, "parts");
	make_dir(dir, "email");
	write_file(dir, "page.mustache", page_tmpl);
	write_file(dir, "parts/header.mustache", "<h1>Hello {{user}}</h1>\n");
	write_file(dir, "parts/game.mustache",
		   "<li>{{game}} #{{id}}\n  {{#mine}}your turn{{/mine}}{{^mine}}waiting {{wait}}{{/mine}}</li>\n");
	write_file(dir, "email/turn.mustache", "Your turn in {{{game}}}.\n");
	write_file(dir, "notes.txt", "{{#not a template");
	write_file(dir, ".hidden.mustache", "{{#broken");
}

static void test_render__set_from_dir(void)
{
	char dir[] = "/tmp/test_render.XXXXXX";
	struct render_set *set = NULL;
	struct buf out = BUF_INIT;
	struct err e = {0};
	json_t *data = data_of(page_data);

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	fill_dir(dir);
	CU_ASSERT_EQUAL_FATAL(render_set_new(&set), 0);
	CU_ASSERT_EQUAL(render_set_load_dir(set, dir, &e), 0);
	CU_ASSERT_EQUAL(render_set_count(set), 4);
	CU_ASSERT_TRUE(render_set_has(set, "page"));
	CU_ASSERT_TRUE(render_set_has(set, "parts/header"));
	CU_ASSERT_TRUE(render_set_has(set, "email/turn"));
	CU_ASSERT_FALSE(render_set_has(set, "notes"));
	CU_ASSERT_FALSE(render_set_has(set, ".hidden"));
	CU_ASSERT_EQUAL(render_set_verify(set, &e), 0);

	CU_ASSERT_EQUAL(render_set_render(set, "page", data, &out, &e), 0);
	ASSERT_STR_EQ(out.data, page_expected);
	buf_reset(&out);
	CU_ASSERT_EQUAL(render_set_render(set, "email/turn", data, &out, &e), ERR_OK);
	buf_reset(&out);
	{
		json_t *g = data_of("{\"game\": \"A&B\"}");

		CU_ASSERT_EQUAL(render_set_render(set, "email/turn", g, &out, &e), 0);
		ASSERT_STR_EQ(out.data, "Your turn in A&B.\n");
		json_decref(g);
	}

	/* unknown template */
	buf_reset(&out);
	CU_ASSERT_EQUAL(render_set_render(set, "nope", data, &out, &e), ERR_NOTFOUND);
	ASSERT_STR_EQ(e.msg, "no template 'nope'");
	/* duplicates */
	CU_ASSERT_EQUAL(render_set_add(set, "page", "x", 1, &e), ERR_CONFLICT);
	CU_ASSERT_EQUAL(render_set_load_dir(set, dir, &e), ERR_CONFLICT);
	/* a malformed template is refused with its name and line, the set unchanged */
	CU_ASSERT_EQUAL(render_set_add(set, "lobby", "<ul>\n{{#games}}\n<li>\n", 21, &e), ERR_INPUT);
	ASSERT_STR_EQ(e.msg, "lobby:2: section 'games' is never closed ({{/games}} missing)");
	CU_ASSERT_FALSE(render_set_has(set, "lobby"));
	CU_ASSERT_EQUAL(render_set_count(set), 4);
	/* a partial naming no template: renders as nothing, verify reports it */
	CU_ASSERT_EQUAL(render_set_add(set, "typo", "a\nb{{> parts/heder}}c", 21, &e), 0);
	buf_reset(&out);
	CU_ASSERT_EQUAL(render_set_render(set, "typo", data, &out, &e), 0);
	ASSERT_STR_EQ(out.data, "a\nbc");
	CU_ASSERT_EQUAL(render_set_verify(set, &e), ERR_NOTFOUND);
	ASSERT_STR_EQ(e.msg, "typo:2: no template 'parts/heder' for partial");
	render_set_free(set);
	set = NULL;

	/* a malformed file in a directory */
	write_file(dir, "email/bad.mustache", "line one\n{{#x}}{{/y}}\n");
	CU_ASSERT_EQUAL_FATAL(render_set_new(&set), 0);
	CU_ASSERT_EQUAL(render_set_load_dir(set, dir, &e), ERR_INPUT);
	ASSERT_STR_EQ(e.msg, "email/bad:2: {{/y}} does not match section 'x' opened on line 2");
	render_set_free(set);
	set = NULL;

	/* a missing directory */
	CU_ASSERT_EQUAL_FATAL(render_set_new(&set), 0);
	CU_ASSERT_EQUAL(render_set_load_dir(set, "/nonexistent/templates", &e), ERR_IO);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/nonexistent/templates"));
	render_set_free(set);

	remove_tree(dir);
	json_decref(data);
	buf_release(&out);
}

static void test_render__set_nested_indentation(void)
{
	struct render_set *set = NULL;
	struct buf out = BUF_INIT;
	struct err e = {0};
	json_t *data = data_of("{\"v\": \"1\\n2\", \"items\": [\"a\", \"b\"]}");
	const char *outer = "<div>\n  {{> inner}}\n</div>\n";
	const char *inner = "<p>\n  {{> leaf}}\n</p>\n";
	const char *leaf = "{{#items}}\n<i>{{.}}</i>\n{{/items}}\n{{v}} {{> inline}}\n";
	const char *inl = "x\ny";

	CU_ASSERT_EQUAL_FATAL(render_set_new(&set), 0);
	CU_ASSERT_EQUAL(render_set_add(set, "outer", outer, strlen(outer), &e), 0);
	CU_ASSERT_EQUAL(render_set_add(set, "inner", inner, strlen(inner), &e), 0);
	CU_ASSERT_EQUAL(render_set_add(set, "leaf", leaf, strlen(leaf), &e), 0);
	CU_ASSERT_EQUAL(render_set_add(set, "inline", inl, strlen(inl), &e), 0);
	CU_ASSERT_EQUAL(render_set_render(set, "outer", data, &out, &e), 0);
	/*
	 * Indentation adds up through standalone partials, applies to template
	 * lines only (not to the newline inside v), and an inline partial's
	 * later lines get none.
	 */
	ASSERT_STR_EQ(out.data,
		      "<div>\n"
		      "  <p>\n"
		      "    <i>a</i>\n"
		      "    <i>b</i>\n"
		      "    1\n2 x\ny\n"
		      "  </p>\n"
		      "</div>\n");
	render_set_free(set);
	json_decref(data);
	buf_release(&out);
}

/* ---- threads ---- */

struct thread_job {
	const struct render_set *set;
	const json_t *data;
	const char *expected;
	int mismatches;
	int errors;
};

static void *render_thread(void *arg)
{
	struct thread_job *job = arg;
	struct buf out = BUF_INIT;
	struct err e = {0};

	for (int i = 0; i < 2000; i++) {
		buf_reset(&out);
		if (render_set_render(job->set, "page", job->data, &out, &e) != 0)
			job->errors++;
		else if (strcmp(out.data, job->expected) != 0)
			job->mismatches++;
	}
	buf_release(&out);
	return NULL;
}

static void test_render__threads(void)
{
	char dir[] = "/tmp/test_render.XXXXXX";
	struct render_set *set = NULL;
	struct err e = {0};
	json_t *data = data_of(page_data);
	struct thread_job jobs[4];
	pthread_t th[4];

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	fill_dir(dir);
	CU_ASSERT_EQUAL_FATAL(render_set_new(&set), 0);
	CU_ASSERT_EQUAL_FATAL(render_set_load_dir(set, dir, &e), 0);
	for (int i = 0; i < 4; i++) {
		jobs[i] = (struct thread_job){ set, data, page_expected, 0, 0 };
		CU_ASSERT_EQUAL_FATAL(pthread_create(&th[i], NULL, render_thread, &jobs[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(pthread_join(th[i], NULL), 0);
		CU_ASSERT_EQUAL(jobs[i].errors, 0);
		CU_ASSERT_EQUAL(jobs[i].mismatches, 0);
	}
	render_set_free(set);
	remove_tree(dir);
	json_decref(data);
}

static CU_TestInfo render_cases[] = {
	{ "test_render__spec_comments", test_render__spec_comments },
	{ "test_render__spec_delimiters", test_render__spec_delimiters },
	{ "test_render__spec_interpolation", test_render__spec_interpolation },
	{ "test_render__spec_inverted", test_render__spec_inverted },
	{ "test_render__spec_partials", test_render__spec_partials },
	{ "test_render__spec_sections", test_render__spec_sections },
	{ "test_render__escaping", test_render__escaping },
	{ "test_render__values", test_render__values },
	{ "test_render__not_nul_terminated", test_render__not_nul_terminated },
	{ "test_render__parse_errors", test_render__parse_errors },
	{ "test_render__recursion_limit", test_render__recursion_limit },
	{ "test_render__work_limits", test_render__work_limits },
	{ "test_render__set_from_dir", test_render__set_from_dir },
	{ "test_render__set_nested_indentation", test_render__set_nested_indentation },
	{ "test_render__threads", test_render__threads },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("render", NULL, NULL, render_cases);
	return 0;
}
