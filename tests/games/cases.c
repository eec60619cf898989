/* tests/games/cases.c: the rule-case language the games' tests share: line reading, steps through game_ops, failures with file:line */
/* SPDX-License-Identifier: MIT */
#include "cases.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "engine/engine.h"

#include "util/banned.h"

#define CASES_MAXW 48
#define CASES_LINE 1024

void cases_fail(struct cases_run *run, const char *fmt, ...)
{
	va_list ap;

	buf_addf(run->report, "  %s:%d: ", run->file, run->line);
	va_start(ap, fmt);
	buf_vaddf(run->report, fmt, ap);
	va_end(ap);
	buf_addc(run->report, '\n');
	run->failures++;
}

int cases_seat(const char *word)
{
	if (word && word[0] == 'p' && word[1] >= '1' && word[1] <= '9' && !word[2])
		return word[1] - '1';
	return -1;
}

void cases_seats_text(unsigned seats, char *out, size_t size)
{
	size_t len = 0;

	out[0] = 0;
	for (int i = 0; i < 9 && len < size; i++)
		if (seats & (1u << i))
			len += (size_t)snprintf(out + len, size - len, "%sp%d", len ? " " : "", i + 1);
	if (!seats)
		snprintf(out, size, "none");
}

int cases_expect_int(struct cases_run *run, const char *what, const char *want, long got)
{
	char *end = NULL;
	long w;

	if (!want) {
		cases_fail(run, "expect %s: the expected number is missing", what);
		return -1;
	}
	w = strtol(want, &end, 10);
	if (end == want || *end) {
		cases_fail(run, "expect %s: '%s' is not a number (got %ld)", what, want, got);
		return -1;
	}
	if (w != got) {
		cases_fail(run, "expected %s %ld, got %ld", what, w, got);
		return -1;
	}
	return 0;
}

int cases_expect_str(struct cases_run *run, const char *what, const char *want, const char *got)
{
	if (!want) {
		cases_fail(run, "expect %s: the expected value is missing", what);
		return -1;
	}
	if (strcmp(want, got)) {
		cases_fail(run, "expected %s %s, got %s", what, want, got);
		return -1;
	}
	return 0;
}

/* The seat a step without "pN:" is played for: the lowest pending one (seat 0 when nobody is). */
static int pending_seat(const struct cases_run *run)
{
	struct game_pending pd;

	memset(&pd, 0, sizeof(pd));
	run->game->ops->pending(run->state, &pd);
	for (int i = 0; i < 32; i++)
		if (pd.seats & (1u << i))
			return i;
	return 0;
}

/* Split an optional leading "pN:" off a step's text; the seat it names or the pending one. */
static int step_seat(const struct cases_run *run, const char **text)
{
	const char *t = *text;

	if (t[0] == 'p' && t[1] >= '1' && t[1] <= '9' && t[2] == ':') {
		*text = t + 3;
		while (**text == ' ' || **text == '\t')
			(*text)++;
		return t[1] - '1';
	}
	return pending_seat(run);
}

static int do_step(struct cases_run *run, void *state, int seat, const char *text, struct err *e)
{
	const struct game_ops *g = run->game->ops;
	void *mv = NULL;
	int rc;

	err_clear(e);
	rc = g->parse(state, seat, text, &mv, e);
	if (rc == 0) {
		rc = g->apply(state, seat, mv, &run->rng, e);
		g->move_free(mv);
	}
	/* messages read as a player reads them: seats without names are "Player n" */
	if (rc < 0)
		engine_names_err(e, NULL);
	return rc;
}

/* 1 when the legal list of seat holds text (compared as canonical text: parsed and formatted). */
static int legal_has(struct cases_run *run, int seat, const char *text)
{
	const struct game_ops *g = run->game->ops;
	struct err e = { 0 };
	struct buf canon = BUF_INIT;
	json_t *list = NULL;
	void *mv = NULL;
	int found = 0;

	if (g->parse(run->state, seat, text, &mv, &e) == 0 && g->format(run->state, mv, &canon, &e) == 0)
		text = canon.data;
	if (g->legal(run->state, seat, &list, &e) == 0)
		for (size_t i = 0; i < json_array_size(list); i++)
			if (!strcmp(json_string_value(json_array_get(list, i)), text))
				found = 1;
	json_decref(list);
	g->move_free(mv);
	buf_release(&canon);
	return found;
}

static const struct {
	const char *name;
	int code;
} codes[] = {
	{ "input", ERR_INPUT },
	{ "illegal", ERR_ILLEGAL },
	{ "forbidden", ERR_FORBIDDEN },
	{ "notfound", ERR_NOTFOUND },
	{ "conflict", ERR_CONFLICT },
};

static const char *code_name(int code)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].code == code)
			return codes[i].name;
	return code >= 0 ? "none (accepted)" : "another error";
}

/* A copy of a position: the bytes of a flat state, else through its snapshot. NULL when that fails. */
static void *copy_state(const struct cases_run *run, const void *state)
{
	const struct cases_game *game = run->game;
	struct err e = { 0 };
	json_t *snap = NULL;
	void *copy = NULL;

	if (game->state_size) {
		copy = malloc(game->state_size);
		memcpy(copy, state, game->state_size);
		return copy;
	}
	if (game->ops->encode(state, &snap, &e) == 0 && game->ops->decode(snap, &copy, &e) != 0)
		copy = NULL;
	json_decref(snap);
	return copy;
}

/* 1 when two positions are the same: their bytes, else their snapshots. */
static int same_state(const struct cases_run *run, const void *a, const void *b)
{
	const struct cases_game *game = run->game;
	struct err e = { 0 };
	json_t *ja = NULL, *jb = NULL;
	int same;

	if (game->state_size)
		return !memcmp(a, b, game->state_size);
	same = game->ops->encode(a, &ja, &e) == 0 && game->ops->encode(b, &jb, &e) == 0 && json_equal(ja, jb);
	json_decref(ja);
	json_decref(jb);
	return same;
}

/* fail [pN:] TEXT => [code] PART */
static void cmd_fail(struct cases_run *run, char *rest)
{
	char *sep = strstr(rest, "=>"), *want;
	const char *text = rest;
	int seat, rc, code = 0;
	struct err e = { 0 };
	void *copy;

	if (!sep) {
		cases_fail(run, "a fail line needs '=> message part'");
		return;
	}
	*sep = 0;
	for (char *end = sep - 1; end >= rest && (*end == ' ' || *end == '\t'); end--)
		*end = 0;
	want = sep + 2;
	while (*want == ' ' || *want == '\t')
		want++;
	if (*want == '[') {
		char *close = strchr(want, ']');

		if (!close) {
			cases_fail(run, "a fail line's code needs its ']'");
			return;
		}
		*close = 0;
		code = -1;
		for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
			if (!strcmp(want + 1, codes[i].name))
				code = codes[i].code;
		if (code == -1) {
			cases_fail(run, "unknown error code [%s]", want + 1);
			return;
		}
		want = close + 1;
		while (*want == ' ' || *want == '\t')
			want++;
	}
	seat = step_seat(run, &text);
	if (!(copy = copy_state(run, run->state))) {
		cases_fail(run, "cannot copy the position");
		return;
	}
	rc = do_step(run, copy, seat, text, &e);
	if (rc >= 0)
		cases_fail(run, "'%s' was accepted; expected a refusal with '%s'", text, want);
	else if (code && rc != code)
		cases_fail(run, "'%s' was refused as %s ('%s'); expected %s", text, code_name(rc), e.msg, code_name(code));
	else if (!strstr(e.msg, want))
		cases_fail(run, "refusal message '%s' lacks '%s'", e.msg, want);
	else if (run->game->pure_refusal && !same_state(run, copy, run->state))
		cases_fail(run, "refused '%s' changed the state", text);
	if (rc < 0 && legal_has(run, seat, text))
		cases_fail(run, "'%s' is refused but listed by legal", text);
	run->game->ops->state_free(copy);
}

/* expect legal [pN:] A | B | ...: the whole list, in order ("none" for an empty one) */
static void expect_legal_list(struct cases_run *run, const char *rest)
{
	const struct game_ops *g = run->game->ops;
	int seat = step_seat(run, &rest);
	struct buf got = BUF_INIT;
	struct err e = { 0 };
	json_t *list = NULL;

	if (g->legal(run->state, seat, &list, &e) == 0)
		for (size_t i = 0; i < json_array_size(list); i++)
			buf_addf(&got, "%s%s", i ? " | " : "", json_string_value(json_array_get(list, i)));
	if (!got.len)
		buf_adds(&got, "none");
	cases_expect_str(run, "legal", rest, got.data);
	json_decref(list);
	buf_release(&got);
}

/* expect result none | expect result KEY JSON */
static void expect_result(struct cases_run *run, int argc, char **argv, const char *rest)
{
	json_t *res = run->game->ops->result(run->state);
	char *got = NULL;

	if (argc < 4) {
		cases_expect_str(run, "result", argv[2], res ? "a result" : "none");
	} else if (!res) {
		cases_fail(run, "expected a result with %s, the game is not over", argv[2]);
	} else {
		const char *want = strstr(rest + strlen("result"), argv[2]) + strlen(argv[2]);
		char what[64];

		while (*want == ' ' || *want == '\t')
			want++;
		engine_names_key(res, "tiebreak", NULL);
		got = json_dumps(json_object_get(res, argv[2]), JSON_COMPACT | JSON_ENCODE_ANY);
		snprintf(what, sizeof(what), "result %s", argv[2]);
		cases_expect_str(run, what, want, got ? got : "(missing)");
	}
	free(got);
	json_decref(res);
}

/* expect view pN|spectator PATH JSON: a part of what the seat sees (PATH: keys and indexes joined by '.') */
static void expect_view(struct cases_run *run, int argc, char **argv, const char *rest)
{
	int seat = argc > 2 && !strcmp(argv[2], "spectator") ? -1 : cases_seat(argv[2]);
	struct err e = { 0 };
	json_t *view = NULL, *at;
	char path[256], *save = NULL, *got = NULL;
	const char *want;

	if (argc < 5 || (seat < 0 && strcmp(argv[2], "spectator"))) {
		cases_fail(run, "expect view pN|spectator PATH JSON");
		return;
	}
	if (run->game->ops->view(run->state, seat, &view, &e)) {
		cases_fail(run, "no view for %s: %s", argv[2], e.msg);
		return;
	}
	snprintf(path, sizeof(path), "%s", argv[3]);
	at = view;
	for (char *k = strtok_r(path, ".", &save); k && at; k = strtok_r(NULL, ".", &save))
		at = json_is_array(at) ? json_array_get(at, strtoul(k, NULL, 10)) : json_object_get(at, k);
	want = strstr(rest, argv[3]) + strlen(argv[3]);
	while (*want == ' ' || *want == '\t')
		want++;
	got = at ? json_dumps(at, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	snprintf(path, sizeof(path), "view %s", argv[3]);
	cases_expect_str(run, path, want, got ? got : "(missing)");
	free(got);
	json_decref(view);
}

const char *const cases_names[4] = { "Ann", "Zed", "Yara", "Bo" };

/* expect describe pN|spectator|all TEXT: the last accepted step in words, as that reader reads it */
static void expect_describe(struct cases_run *run, int argc, char **argv, const char *rest)
{
	const struct game_ops *g = run->game->ops;
	int viewer = argc > 2 && !strcmp(argv[2], "spectator") ? -1
		     : argc > 2 && !strcmp(argv[2], "all")     ? GAME_VIEWER_ALL
								 : cases_seat(argv[2]);
	struct buf got = BUF_INIT;
	struct err e = { 0 };
	json_t *seats = json_array();
	const char *want;

	if (argc < 4 || (viewer == -1 && strcmp(argv[2], "spectator"))) {
		cases_fail(run, "expect describe pN|spectator|all TEXT");
		goto done;
	}
	if (!g->describe) {
		cases_fail(run, "expect describe: the game has no describe");
		goto done;
	}
	if (!run->before) {
		cases_fail(run, "expect describe: no step was accepted yet");
		goto done;
	}
	for (int i = 0; i < 4; i++)
		json_array_append_new(seats, json_pack("{s:i,s:s}", "seat", i, "name", cases_names[i]));
	want = strstr(rest + strlen("describe"), argv[2]) + strlen(argv[2]);
	while (*want == ' ' || *want == '\t')
		want++;
	{
		struct game_step_in in = { .before = run->before, .after = run->state, .move = run->last_move,
					   .seat = run->last_seat, .viewer = viewer, .seats = seats };

		if (g->describe(&in, &got, &e)) {
			cases_fail(run, "describe failed: %s", e.msg);
			goto done;
		}
	}
	if (strcmp(want, got.data))
		cases_fail(run, "expected describe %s '%s', got '%s'", argv[2], want, got.data);
done:
	json_decref(seats);
	buf_release(&got);
}

/* The checks every game shares; 1 when the name is not one of them. */
static int generic_expect(struct cases_run *run, int argc, char **argv, const char *rest)
{
	struct game_pending pd;
	char got[64];
	const char *after = rest + strlen(argv[1]);

	while (*after == ' ' || *after == '\t')
		after++;
	memset(&pd, 0, sizeof(pd));
	run->game->ops->pending(run->state, &pd);
	if (!strcmp(argv[1], "pending")) {
		cases_seats_text(pd.seats, got, sizeof(got));
		cases_expect_str(run, "pending", after, got);
	} else if (!strcmp(argv[1], "decision")) {
		cases_expect_str(run, "decision", argv[2], pd.kind);
	} else if (!strcmp(argv[1], "reveal")) {
		cases_expect_str(run, "reveal", argv[2], run->last_rc & GAME_APPLY_REVEAL ? "yes" : "no");
	} else if (!strcmp(argv[1], "legal")) {
		expect_legal_list(run, after);
	} else if (!strcmp(argv[1], "result")) {
		expect_result(run, argc, argv, rest);
	} else if (!strcmp(argv[1], "view")) {
		expect_view(run, argc, argv, rest);
	} else if (!strcmp(argv[1], "describe")) {
		expect_describe(run, argc, argv, rest);
	} else {
		return 1;
	}
	return 0;
}

/* Drop the kept position and step of the last accepted step. */
static void forget_step(struct cases_run *run)
{
	if (run->before)
		run->game->ops->state_free(run->before);
	if (run->last_move)
		run->game->ops->move_free(run->last_move);
	run->before = run->last_move = NULL;
}

static void cmd_players(struct cases_run *run, int argc, char **argv)
{
	const struct cases_game *game = run->game;
	int n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 0;
	struct err e = { 0 };
	void *st = NULL;

	rng_seed(&run->rng, argc > 2 ? (uint64_t)strtoull(argv[2], NULL, 10) : 1);
	if (run->state)
		game->ops->state_free(run->state);
	run->state = NULL;
	forget_step(run);
	if (game->players) {
		if (game->players(run, n, &st))
			return;
	} else if (game->ops->setup(NULL, n, &run->rng, &st, &e)) {
		cases_fail(run, "set-up for %d players failed: %s", n, e.msg);
		return;
	}
	run->state = st;
}

/* One line of a case file. */
static void run_line(struct cases_run *run, char *line)
{
	const struct cases_game *game = run->game;
	/* words past the last are NULL: a game may look at argv[i] for any i < CASES_MAXW */
	char words[CASES_LINE], *argv[CASES_MAXW + 1] = { 0 }, *save = NULL, *rest, *hash;
	int argc = 0;

	if ((hash = strchr(line, '#')))
		*hash = 0;
	line[strcspn(line, "\r\n")] = 0;
	snprintf(words, sizeof(words), "%s", line);
	for (char *t = strtok_r(words, " \t", &save); t && argc < CASES_MAXW; t = strtok_r(NULL, " \t", &save))
		argv[argc++] = t;
	if (!argc)
		return;
	rest = line + (argv[0] - words) + strlen(argv[0]);
	while (*rest == ' ' || *rest == '\t')
		rest++;
	for (char *end = rest + strlen(rest); end > rest && (end[-1] == ' ' || end[-1] == '\t');)
		*--end = 0;

	if (!strcmp(argv[0], "players")) {
		cmd_players(run, argc, argv);
		return;
	}
	if (!strcmp(argv[0], "seed")) {
		rng_seed(&run->rng, argc > 1 ? (uint64_t)strtoull(argv[1], NULL, 10) : 0);
		return;
	}
	if (!run->state) {
		cases_fail(run, "'%s' before any 'players' line", argv[0]);
		return;
	}
	if (game->refresh)
		game->refresh(run->state);
	if (!strcmp(argv[0], "ok")) {
		const char *text = rest;
		struct err e = { 0 };
		int seat = step_seat(run, &text);
		void *before = copy_state(run, run->state), *mv = NULL;
		int rc = do_step(run, run->state, seat, text, &e);

		if (rc < 0) {
			cases_fail(run, "'%s' was refused: %s", text, e.msg);
			if (before)
				game->ops->state_free(before);
		} else {
			run->last_rc = rc;
			run->last_seat = seat;
			forget_step(run);
			if (before && game->ops->parse(before, seat, text, &mv, &e) == 0) {
				run->before = before;
				run->last_move = mv;
			} else if (before) {
				game->ops->state_free(before);
			}
			if (game->after_step)
				game->after_step(run, run->state);
		}
	} else if (!strcmp(argv[0], "fail")) {
		cmd_fail(run, rest);
	} else if (!strcmp(argv[0], "legal") || !strcmp(argv[0], "notlegal")) {
		const char *text = rest;
		int seat = step_seat(run, &text), has = legal_has(run, seat, text);

		if (has != (argv[0][0] == 'l'))
			cases_fail(run, "'%s' %s", text, has ? "is listed by legal" : "is not listed by legal");
	} else if (!strcmp(argv[0], "expect") && argc > 1 && generic_expect(run, argc, argv, rest) == 0) {
		/* done */
	} else if (game->command(run, run->state, argc, argv, rest) != 0) {
		if (!strcmp(argv[0], "expect"))
			cases_fail(run, "unknown expectation '%s'", argc > 1 ? argv[1] : "");
		else
			cases_fail(run, "unknown command '%s'", argv[0]);
		return;
	}
	if (game->refresh)
		game->refresh(run->state);
}

int cases_run_text(const struct cases_game *game, const char *name, const char *text, struct buf *report)
{
	struct cases_run run;
	char line[CASES_LINE];

	memset(&run, 0, sizeof(run));
	run.game = game;
	run.file = name;
	run.report = report;
	rng_seed(&run.rng, 1);
	while (*text) {
		size_t len = strcspn(text, "\n");

		run.line++;
		if (len >= sizeof(line)) {
			cases_fail(&run, "line longer than %zu characters", sizeof(line) - 1);
		} else {
			memcpy(line, text, len);
			line[len] = 0;
			run_line(&run, line);
		}
		text += len + (text[len] == '\n');
	}
	forget_step(&run);
	if (run.state)
		game->ops->state_free(run.state);
	return run.failures;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_file(const struct cases_game *game, const char *path, const char *name, struct buf *report)
{
	struct buf text = BUF_INIT;
	char chunk[4096];
	size_t got;
	int failures;
	FILE *f = fopen(path, "r");

	if (!f) {
		buf_addf(report, "  cannot open %s\n", path);
		return 1;
	}
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&text, chunk, got);
	fclose(f);
	failures = cases_run_text(game, name, text.data, report);
	buf_release(&text);
	return failures;
}

int cases_run_dir(const struct cases_game *game, const char *subdir, int *nfiles, struct buf *report)
{
	const char *top = getenv("TOP_SRCDIR");
	char dir[1024], path[1400];
	char **names = NULL;
	size_t n = 0, cap = 0;
	int failures = 0;
	struct dirent *de;
	DIR *d;

	*nfiles = 0;
	snprintf(dir, sizeof(dir), "%s/%s", top ? top : ".", subdir);
	if (!(d = opendir(dir))) {
		buf_addf(report, "  cannot read the directory %s\n", dir);
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l <= 4 || strcmp(de->d_name + l - 4, ".txt"))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			names = realloc(names, cap * sizeof(*names));
		}
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		failures += run_file(game, path, names[i], report);
		free(names[i]);
	}
	free(names);
	*nfiles = (int)n;
	return failures;
}

void cases_check_dir(const struct cases_game *game, const char *subdir, int min_files)
{
	struct buf report = BUF_INIT;
	int nfiles = 0, failures = cases_run_dir(game, subdir, &nfiles, &report);

	if (report.len)
		fprintf(stderr, "\n%s", report.data);
	CU_ASSERT_EQUAL(failures, 0);
	CU_ASSERT(nfiles >= min_files);
	buf_release(&report);
}
