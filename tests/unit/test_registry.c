/* tests/unit/test_registry.c: the game registry and the build agree, and every game passes a smoke test */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/registry.h"
#include "testutil.h"
#include "util/banned.h"

#define MAX_GAMES 16
#define MAX_FILES 64

/*
 * The layout every game folder follows (docs/engine.md): the public header
 * <id with _ for ->.h, and files <p>_<role>.c / <p>_<role>.h with one prefix
 * p per folder. Roles marked required must be there; bot, board, story
 * (describe) and picks are there exactly when the game_ops table has the method.
 */
static const struct {
	const char *role; /* "game.c" */
	int required;
} roles[] = {
	{ "game.c", 1 }, { "rules.c", 1 }, { "text.c", 1 }, { "view.c", 1 }, { "data.c", 1 },
	{ "data.h", 1 }, { "internal.h", 1 }, { "bot.c", 0 }, { "board.c", 0 }, { "state.c", 0 },
	{ "story.c", 0 }, { "picks.c", 0 }, { NULL, 0 }
};

static const char *top(void)
{
	const char *t = getenv("TOP_SRCDIR");
	return t && *t ? t : ".";
}

/* The whole file, NUL-terminated (caller frees), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		s = malloc((size_t)n + 1);
		if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
			free(s);
			s = NULL;
		} else if (s) {
			s[n] = '\0';
		}
	}
	fclose(f);
	return s;
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Names of the entries of dir (not . and ..), sorted; dirs 1: only directories. Returns the count. */
static int list_dir(const char *dir, int dirs, char names[][256], int max)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4096];
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (is_dir(path) != dirs)
			continue;
		snprintf(names[n++], 256, "%s", de->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), cmp_name);
	return n;
}

static int game_folders(char names[][256], int max)
{
	char dir[2048];

	snprintf(dir, sizeof(dir), "%s/src/games", top());
	return list_dir(dir, 1, names, max);
}

static void test_registry__every_folder_is_built_and_registered(void)
{
	char names[MAX_GAMES][256], path[4096], line[256];
	char *am;
	int n = game_folders(names, MAX_GAMES);

	snprintf(path, sizeof(path), "%s/Makefile.am", top());
	am = slurp(path);
	CU_ASSERT_FATAL(am != NULL);
	CU_ASSERT_FATAL(n >= 3);
	for (int i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "\ninclude src/games/%s/local.mk\n", names[i]);
		if (!strstr(am, line))
			fprintf(stderr, "\n  Makefile.am does not include src/games/%s/local.mk", names[i]);
		CU_ASSERT(strstr(am, line) != NULL);
		if (!registry_find(names[i]))
			fprintf(stderr, "\n  src/games/%s/ has no entry in engine/registry.c", names[i]);
		CU_ASSERT(registry_find(names[i]) != NULL);
	}
	free(am);
}

static void test_registry__every_game_has_a_folder(void)
{
	char path[4096];
	const struct game_ops *ops;
	size_t i;

	for (i = 0; (ops = registry_at(i)); i++) {
		snprintf(path, sizeof(path), "%s/src/games/%s/local.mk", top(), ops->id);
		if (!is_file(path))
			fprintf(stderr, "\n  game %s is registered but has no src/games/%s/local.mk", ops->id, ops->id);
		CU_ASSERT(is_file(path));
		CU_ASSERT(registry_find(ops->id) == ops);
	}
	CU_ASSERT(i >= 3);
}

/* The game's prefix p: the folder's file named <p>_game.c. */
static int folder_prefix(char files[][256], int n, char *p, size_t psz)
{
	for (int i = 0; i < n; i++) {
		size_t len = strlen(files[i]);
		if (len > 7 && strcmp(files[i] + len - 7, "_game.c") == 0) {
			snprintf(p, psz, "%.*s", (int)(len - 7), files[i]);
			return 0;
		}
	}
	return -1;
}

static void test_registry__folders_share_one_layout(void)
{
	char names[MAX_GAMES][256], files[MAX_FILES][256], dir[2048], p[64], pub[300], path[4096];
	int n = game_folders(names, MAX_GAMES);

	for (int g = 0; g < n; g++) {
		const struct game_ops *ops = registry_find(names[g]);
		int nf, seen[16] = { 0 };
		char *mk;

		snprintf(dir, sizeof(dir), "%s/src/games/%s", top(), names[g]);
		nf = list_dir(dir, 0, files, MAX_FILES);
		if (nf <= 0 || folder_prefix(files, nf, p, sizeof(p)) < 0) {
			fprintf(stderr, "\n  src/games/%s/ has no <p>_game.c", names[g]);
			CU_FAIL("a game folder without its <p>_game.c");
			continue;
		}
		snprintf(pub, sizeof(pub), "%s.h", names[g]);
		for (char *c = pub; *c; c++)
			if (*c == '-')
				*c = '_';
		snprintf(path, sizeof(path), "%s/local.mk", dir);
		mk = slurp(path);
		if (!mk) {
			fprintf(stderr, "\n  src/games/%s/ has no local.mk", names[g]);
			CU_FAIL("a game folder without its local.mk");
			continue;
		}
		for (int f = 0; f < nf; f++) {
			size_t plen = strlen(p);
			int known = 0;
			char listed[300];

			if (strcmp(files[f], "local.mk") == 0)
				continue;
			/* every source file of the folder is built */
			snprintf(listed, sizeof(listed), "src/games/%s/%s", names[g], files[f]);
			if (!strstr(mk, listed))
				fprintf(stderr, "\n  %s/local.mk does not list %s", names[g], files[f]);
			CU_ASSERT(strstr(mk, listed) != NULL);
			if (strcmp(files[f], pub) == 0)
				continue;
			if (strncmp(files[f], p, plen) == 0 && files[f][plen] == '_')
				for (int r = 0; roles[r].role; r++)
					if (strcmp(files[f] + plen + 1, roles[r].role) == 0) {
						seen[r] = known = 1;
						break;
					}
			if (!known)
				fprintf(stderr, "\n  src/games/%s/%s is not one of the layout's files (%s_<role>.c)", names[g],
					files[f], p);
			CU_ASSERT(known);
		}
		/* the folder's local.mk names no source of another folder */
		for (const char *s = mk; (s = strstr(s, "src/")); s++) {
			char own[200];
			snprintf(own, sizeof(own), "src/games/%s/", names[g]);
			if (strncmp(s, own, strlen(own)) != 0)
				fprintf(stderr, "\n  %s/local.mk lists %.40s", names[g], s);
			CU_ASSERT(strncmp(s, own, strlen(own)) == 0);
		}
		free(mk);
		snprintf(path, sizeof(path), "%s/%s", dir, pub);
		CU_ASSERT(is_file(path));
		for (int r = 0; roles[r].role; r++) {
			int want = roles[r].required;
			if (strcmp(roles[r].role, "bot.c") == 0)
				want = ops && ops->bot;
			else if (strcmp(roles[r].role, "board.c") == 0)
				want = ops && ops->board;
			else if (strcmp(roles[r].role, "story.c") == 0)
				want = ops && ops->describe;
			else if (strcmp(roles[r].role, "picks.c") == 0)
				want = ops && ops->picks;
			else if (!roles[r].required)
				continue;
			if (want != seen[r])
				fprintf(stderr, "\n  src/games/%s/%s_%s: %s", names[g], p, roles[r].role,
					want ? "missing" : "there, but the game_ops has no such method");
			CU_ASSERT_EQUAL(seen[r], want);
		}
	}
}

/* encode, decode and encode again give the same JSON. */
static void round_trip(const struct game_ops *ops, const void *st)
{
	struct err e = { 0 };
	json_t *a = NULL, *b = NULL;
	void *copy = NULL;

	CU_ASSERT_EQUAL_FATAL(ops->encode(st, &a, &e), 0);
	CU_ASSERT_EQUAL_FATAL(ops->decode(a, &copy, &e), 0);
	CU_ASSERT_EQUAL_FATAL(ops->encode(copy, &b, &e), 0);
	CU_ASSERT(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	ops->state_free(copy);
}

/* A view for every seat and a spectator, and the board drawn from each when the game draws one. */
static void views_and_boards(const struct game_ops *ops, const void *st, int n)
{
	json_t *seats = json_array();

	for (int s = 0; s < n; s++)
		json_array_append_new(seats, json_pack("{s:i,s:s}", "seat", s, "name", "Ann <&>"));
	for (int seat = -1; seat < n; seat++) {
		struct err e = { 0 };
		json_t *view = NULL;

		CU_ASSERT_EQUAL_FATAL(ops->view(st, seat, &view, &e), 0);
		CU_ASSERT(json_is_object(view));
		if (ops->board) {
			struct game_board_in in = { .view = view, .seats = seats, .seat = seat };
			struct buf svg = BUF_INIT;
			CU_ASSERT_EQUAL(ops->board(&in, &svg, &e), 0);
			CU_ASSERT(strncmp(svg.data, "<svg ", 5) == 0);
			CU_ASSERT(strstr(svg.data, "Ann <&>") == NULL);
			buf_release(&svg);
		}
		json_decref(view);
	}
	json_decref(seats);
}

/* A game set up for n players: legal steps, one applied, round trips and views before and after. */
static void smoke(const struct game_ops *ops, int n)
{
	struct err e = { 0 };
	struct rng g;
	json_t *opts = json_object(), *legal = NULL, *none = NULL, *res;
	struct game_pending pend;
	void *st = NULL, *m = NULL;
	struct buf text = BUF_INIT;
	int seat = 0, rc;

	rng_seed(&g, 1234 + (uint64_t)n);
	CU_ASSERT_EQUAL_FATAL(ops->setup(opts, n, &g, &st, &e), 0);
	CU_ASSERT_EQUAL_FATAL(ops->pending(st, &pend), 0);
	CU_ASSERT_FATAL(pend.seats != 0);
	CU_ASSERT(pend.kind[0] != '\0');
	CU_ASSERT(pend.prompt[0] != '\0');
	res = ops->result(st);
	CU_ASSERT(res == NULL);
	json_decref(res);
	round_trip(ops, st);
	views_and_boards(ops, st, n);
	while (!(pend.seats & (1u << seat)))
		seat++;
	CU_ASSERT_FATAL(seat < n);
	CU_ASSERT_EQUAL_FATAL(ops->legal(st, seat, &legal, &e), 0);
	CU_ASSERT_FATAL(json_is_array(legal) && json_array_size(legal) > 0);
	/* a seat that has nothing to do has no legal steps */
	for (int s = 0; s < n; s++)
		if (!(pend.seats & (1u << s))) {
			CU_ASSERT_EQUAL(ops->legal(st, s, &none, &e), 0);
			CU_ASSERT(json_is_array(none) && json_array_size(none) == 0);
			json_decref(none);
			none = NULL;
		}
	/* the first legal step reads back to its own canonical text and applies */
	CU_ASSERT_EQUAL_FATAL(ops->parse(st, seat, json_string_value(json_array_get(legal, 0)), &m, &e), 0);
	CU_ASSERT_EQUAL(ops->format(st, m, &text, &e), 0);
	CU_ASSERT_STRING_EQUAL(text.data, json_string_value(json_array_get(legal, 0)));
	rc = ops->apply(st, seat, m, &g, &e);
	if (rc < 0)
		fprintf(stderr, "\n  %s: %s refused: %s", ops->id, text.data, e.msg);
	CU_ASSERT(rc >= 0);
	ops->move_free(m);
	m = NULL;
	/* a step that cannot be read is refused with a message */
	e.msg[0] = '\0';
	CU_ASSERT(ops->parse(st, seat, "\x01 not a step \x02", &m, &e) < 0);
	CU_ASSERT(m == NULL);
	CU_ASSERT(e.msg[0] != '\0');
	round_trip(ops, st);
	views_and_boards(ops, st, n);
	if (ops->bot) {
		struct rng b;
		rng_seed(&b, 99);
		CU_ASSERT_EQUAL(ops->pending(st, &pend), 0);
		for (seat = 0; seat < n && !(pend.seats & (1u << seat)); seat++)
			;
		if (seat < n) {
			CU_ASSERT_EQUAL(ops->bot(st, seat, 0, &b, &m, &e), 0);
			CU_ASSERT(m != NULL && ops->apply(st, seat, m, &g, &e) >= 0);
			ops->move_free(m);
		}
	}
	buf_release(&text);
	json_decref(legal);
	json_decref(opts);
	ops->state_free(st);
}

static void test_registry__every_game_passes_a_smoke_test(void)
{
	const struct game_ops *ops;

	for (size_t i = 0; (ops = registry_at(i)); i++) {
		json_t *o;
		CU_ASSERT_EQUAL(ops->version, GAME_OPS_VERSION);
		CU_ASSERT(ops->id && ops->id[0] && ops->title && ops->title[0]);
		CU_ASSERT(ops->min_players >= 1 && ops->min_players <= ops->max_players &&
			  ops->max_players <= GAME_MAX_SEATS);
		/* the required methods (options, bot and board may be NULL) */
		CU_ASSERT_FATAL(ops->setup && ops->state_free && ops->parse && ops->format && ops->move_free &&
				ops->apply && ops->pending && ops->legal && ops->view && ops->result && ops->encode &&
				ops->decode);
		if (ops->options) {
			o = ops->options();
			CU_ASSERT(json_is_object(o));
			json_decref(o);
		}
		smoke(ops, ops->min_players);
		smoke(ops, ops->max_players);
	}
}

static CU_TestInfo registry_cases[] = {
	{ "test_registry__every_folder_is_built_and_registered", test_registry__every_folder_is_built_and_registered },
	{ "test_registry__every_game_has_a_folder", test_registry__every_game_has_a_folder },
	{ "test_registry__folders_share_one_layout", test_registry__folders_share_one_layout },
	{ "test_registry__every_game_passes_a_smoke_test", test_registry__every_game_passes_a_smoke_test },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("registry", NULL, NULL, registry_cases);
	return 0;
}
