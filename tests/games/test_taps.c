/* tests/games/test_taps.c: for every game with picks, the steps taps can build are exactly legal() */
/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../testutil.h"
#include "engine/registry.h"
#include "engine/taps.h"
#include "util/buf.h"
#include "util/svg.h"

#include "util/banned.h"

/* Positions per game: seeds at every player count, each game played by bots up to this many steps. */
#define SEEDS 3
#define STEPS_PER_GAME 600

struct walk {
	json_t *built;   /* text -> true: the steps taps built */
	int failures;
	long nodes;
	const char *game;
};

static void fail(struct walk *w, const char *fmt, const char *a, const char *b)
{
	if (w->failures++ < 12) {
		fprintf(stderr, "\n  %s: ", w->game);
		fprintf(stderr, fmt, a, b);
	}
}

/*
 * Notation a player of the board game would not recognise, in text meant for
 * them: an id ("ice-9", "survey-robot", "transport-2a": lowercase words
 * joined by hyphens) or a seat by number ("p2", "player 2", "seat 0": the
 * engine writes names by GAME_NAME_MARK). The first such token goes into
 * found; 0 when there is none.
 */
static int notation_in(const char *text, char *found, size_t size)
{
	for (const char *p = text; *p; p++) {
		size_t n = 0;
		int hyphen = 0;

		if (p != text && (isalnum((unsigned char)p[-1]) || p[-1] == '-' || p[-1] == '_'))
			continue;
		if (!strncasecmp(p, "player ", 7) && isdigit((unsigned char)p[7]))
			n = 8;
		else if (!strncasecmp(p, "seat ", 5) && isdigit((unsigned char)p[5]))
			n = 6;
		else if (*p == 'p' && isdigit((unsigned char)p[1]) && !isalnum((unsigned char)p[2]))
			n = 2;
		else if (islower((unsigned char)*p)) {
			while (islower((unsigned char)p[n]) || isdigit((unsigned char)p[n]) ||
			       (p[n] == '-' && isalnum((unsigned char)p[n + 1]) && (hyphen = 1)))
				n++;
			if (!hyphen || isalnum((unsigned char)p[n]) || p[n] == '_')
				n = 0;
		}
		if (n) {
			snprintf(found, size, "%.*s", (int)n, p);
			return 1;
		}
	}
	return 0;
}

/*
 * The words an SVG shows or says: each run of text between its tags (titles
 * included) and each aria-label, with entities as spaces, handed to each().
 */
static void svg_words(const char *svg, void (*each)(void *ctx, const char *words), void *ctx)
{
	struct buf b = BUF_INIT;
	const char *p = svg;

	while (*p) {
		if (*p == '<') {
			const char *end = strchr(p, '>'), *al = strstr(p, "aria-label=\"");
			if (!end)
				break;
			if (al && al < end) {
				const char *q = strchr(al + 12, '"');
				buf_reset(&b);
				buf_add(&b, al + 12, (size_t)(q ? q - al - 12 : 0));
				each(ctx, b.data);
			}
			p = end + 1;
			continue;
		}
		buf_reset(&b);
		for (; *p && *p != '<'; p++) {
			if (*p == '&') {
				const char *semi = strchr(p, ';');
				buf_addc(&b, ' ');
				p = semi && semi < p + 10 ? semi : p;
			} else {
				buf_addc(&b, *p);
			}
		}
		if (b.len)
			each(ctx, b.data);
	}
	buf_release(&b);
}
/*
 * Every sequence of taps from chosen[0..n-1] on: the engine's offer over the
 * steps that start with them (taps_offer_find ignores the others, so
 * handing it the subset gives the same offer and keeps the walk linear).
 */
static void walk(struct walk *w, const struct taps_steps *sub, const char **chosen, int n)
{
	struct taps_offer *o = malloc(sizeof(*o));
	struct taps_steps next = { calloc((size_t)sub->n, sizeof(*sub->steps)), 0 };
	char found[48];

	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	w->nodes++;
	CU_ASSERT_EQUAL(taps_offer_find(sub, chosen, n, o), 0);
	CU_ASSERT_FALSE(o->truncated);
	if (o->complete) {
		if (json_object_get(w->built, o->complete->text))
			fail(w, "taps build '%s' twice%s\n", o->complete->text, "");
		json_object_set_new(w->built, o->complete->text, json_true());
	}
	if (!o->complete && !o->nnext)
		fail(w, "taps lead to a dead end after %s%s\n", n ? chosen[n - 1] : "(nothing)", "");
	for (int k = 0; k < o->nnext && n < TAPS_MAX_CHOSEN; k++) {
		if (!o->next[k].label[0])
			fail(w, "the tap %s has no words%s\n", o->next[k].part, "");
		if (notation_in(o->next[k].label, found, sizeof(found)))
			fail(w, "the tap's words are notation, not names: '%s' in %s\n", found, o->next[k].label);
		if (notation_in(o->next[k].cost, found, sizeof(found)))
			fail(w, "the tap's cost is notation, not names: '%s' in %s\n", found, o->next[k].cost);
		next.n = 0;
		for (int i = 0; i < sub->n; i++)
			if (sub->steps[i].npicks > n && !strcmp(sub->steps[i].picks[n].part, o->next[k].part))
				next.steps[next.n++] = sub->steps[i];
		chosen[n] = o->next[k].part;
		walk(w, &next, chosen, n + 1);
	}
	free(next.steps);
	free(o);
}

/* The picks of a step as one string. */
static void key_of(const struct taps_step *st, struct buf *b)
{
	buf_reset(b);
	for (int k = 0; k < st->npicks; k++)
		buf_addf(b, "%s/", st->picks[k].part);
}

/* Every font size the board's SVG names is at least the board's smallest text (11 CSS pixels on a phone). */
static void text_big_enough(struct walk *w, const char *svg)
{
	for (const char *p = strstr(svg, "font-size=\""); p; p = strstr(p + 1, "font-size=\"")) {
		double size = strtod(p + strlen("font-size=\""), NULL);
		if (size < SVG_TEXT) {
			char at[48];
			snprintf(at, sizeof(at), "%.40s", p);
			fail(w, "the board has text under %s units: %s\n", "12", at);
			return;
		}
	}
}

/* A run of the board's words (svg_words): names and words, never notation. */
static void words_not_notation(void *ctx, const char *words)
{
	struct walk *w = ctx;
	char found[48];

	if (notation_in(words, found, sizeof(found)))
		fail(w, "the board shows notation, not names: '%s' in '%s'\n", found, words);
}

/* The board drawn for the offer after chosen: every offered part is a link with its own href, every text big enough. */
static void board_draws_taps(struct walk *w, const struct game_ops *g, const void *st, int seat, int np,
			     const struct taps_steps *steps, const char **chosen, int n)
{
	struct taps_offer *o = malloc(sizeof(*o));
	struct game_tap taps[64];
	char hrefs[64][16];
	struct game_tapset set = { taps, 0, chosen, n };
	json_t *view = NULL, *seats = json_array();
	struct buf svg = BUF_INIT;
	struct err e = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	if (taps_offer_find(steps, chosen, n, o) < 0) {
		free(o);
		json_decref(seats);
		return;
	}
	for (int k = 0; k < o->nnext; k++) {
		snprintf(hrefs[k], sizeof(hrefs[k]), "#t%d", k);
		taps[k] = (struct game_tap){ o->next[k].part, hrefs[k], o->next[k].label, o->next[k].cost };
	}
	set.nnext = o->nnext;
	for (int s = 0; s < np; s++)
		json_array_append_new(seats, json_pack("{s:i,s:s}", "seat", s, "name", s ? "Bob" : "Ann"));
	CU_ASSERT_EQUAL_FATAL(g->view(st, seat, &view, &e), 0);
	{
		struct game_board_in in = { view, seats, seat, &set };
		CU_ASSERT_EQUAL(g->board(&in, &svg, &e), 0);
	}
	for (int k = 0; k < o->nnext; k++) {
		char want[32];

		snprintf(want, sizeof(want), "href=\"%s\"", hrefs[k]);
		if (!strstr(svg.data, want))
			fail(w, "the board draws no tap for %s (after %s)\n", o->next[k].part, n ? chosen[n - 1] : "nothing");
	}
	text_big_enough(w, svg.data);
	svg_words(svg.data, words_not_notation, w);
	buf_release(&svg);
	json_decref(view);
	json_decref(seats);
	free(o);
}

/* One position: the pick sequences differ, and walking the taps builds exactly legal(). */
static void check_position(struct walk *w, const struct game_ops *g, const void *st, int seat, int np,
			   struct rng *pick)
{
	struct err e = { 0 };
	struct taps_steps steps = { 0 };
	json_t *legal = NULL, *keys = json_object(), *v;
	const char *chosen[TAPS_MAX_CHOSEN];
	struct buf b = BUF_INIT;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(g->legal(st, seat, &legal, &e), 0);
	if (!json_array_size(legal))
		goto done;
	if (taps_steps_cut(g, st, seat, legal, &steps, &e) < 0) {
		fail(w, "%s%s\n", e.msg, "");
		goto done;
	}
	CU_ASSERT_EQUAL(steps.n, (int)json_array_size(legal));
	json_array_foreach(legal, i, v) {
		for (size_t j = 0; j < i; j++)
			if (!strcmp(json_string_value(json_array_get(legal, j)), json_string_value(v)))
				fail(w, "legal() lists '%s' twice%s\n", json_string_value(v), "");
	}
	for (int k = 0; k < steps.n; k++) {
		const char *other;

		key_of(&steps.steps[k], &b);
		if ((other = json_string_value(json_object_get(keys, b.data))))
			fail(w, "'%s' and '%s' have the same taps\n", other, steps.steps[k].text);
		json_object_set_new(keys, b.data, json_string(steps.steps[k].text));
	}
	w->built = json_object();
	walk(w, &steps, chosen, 0);
	json_array_foreach(legal, i, v)
		if (!json_object_get(w->built, json_string_value(v)))
			fail(w, "no taps build the legal step '%s'%s\n", json_string_value(v), "");
	if (json_object_size(w->built) != json_array_size(legal))
		fail(w, "taps build steps that are not legal%s%s\n", "", "");
	json_decref(w->built);
	/* the board: the first offer, then along one random step's taps */
	if (g->board) {
		const struct taps_step *one = &steps.steps[rng_below(pick, (uint32_t)steps.n)];

		for (int k = 0; k < one->npicks; k++) {
			board_draws_taps(w, g, st, seat, np, &steps, chosen, k);
			chosen[k] = one->picks[k].part;
		}
	}
done:
	buf_release(&b);
	json_decref(keys);
	json_decref(legal);
	taps_steps_release(&steps);
}

/* The board where the bots stopped (most often the game's end), as each seat sees it with nothing to tap. */
static void final_boards(struct walk *w, const struct game_ops *g, const void *st, int np)
{
	json_t *seats = json_array();

	for (int s = 0; s < np; s++)
		json_array_append_new(seats, json_pack("{s:i,s:s}", "seat", s, "name", s ? "Bob" : "Ann"));
	for (int s = 0; s < np; s++) {
		struct buf svg = BUF_INIT;
		struct err e = { 0 };
		json_t *view = NULL;
		struct game_board_in in = { NULL, seats, s, NULL };

		CU_ASSERT_EQUAL_FATAL(g->view(st, s, &view, &e), 0);
		in.view = view;
		CU_ASSERT_EQUAL(g->board(&in, &svg, &e), 0);
		text_big_enough(w, svg.data);
		svg_words(svg.data, words_not_notation, w);
		buf_release(&svg);
		json_decref(view);
	}
	json_decref(seats);
}

/* Bot games of g (random and greedy players) with every position checked (TAPS_GAME=id: that game's only). */
static void check_game(const struct game_ops *g)
{
	struct walk w = { NULL, 0, 0, g->id };
	long positions = 0;

	for (int np = g->min_players; np <= g->max_players && np <= 4; np++)
		for (uint64_t seed = 1; seed <= SEEDS; seed++) {
			struct rng game_rng, bot_rng, pick;
			struct err e = { 0 };
			void *st = NULL;

			rng_seed(&game_rng, seed * 31 + (uint64_t)np);
			rng_seed(&bot_rng, seed * 97 + 5);
			rng_seed(&pick, seed);
			CU_ASSERT_EQUAL_FATAL(g->setup(NULL, np, &game_rng, &st, &e), 0);
			for (int step = 0; step < STEPS_PER_GAME && !w.failures; step++) {
				struct game_pending pd;
				void *mv = NULL;
				int seat;

				g->pending(st, &pd);
				if (!pd.seats)
					break;
				for (int s = 0; s < np; s++)
					if ((pd.seats >> s) & 1u)
						check_position(&w, g, st, s, np, &pick);
				positions++;
				seat = __builtin_ctz(pd.seats);
				CU_ASSERT_EQUAL_FATAL(g->bot(st, seat, (int)((seed + (uint64_t)seat) % 2), &bot_rng, &mv, &e), 0);
				CU_ASSERT_EQUAL_FATAL(g->apply(st, seat, mv, &game_rng, &e) >= 0, 1);
				g->move_free(mv);
			}
			if (g->board)
				final_boards(&w, g, st, np);
			g->state_free(st);
		}
	if (getenv("TAPS_VERBOSE"))
		fprintf(stderr, "\n  %s: %ld positions, %ld tap choices\n", g->id, positions, w.nodes);
	CU_ASSERT(positions > 100);
	CU_ASSERT_EQUAL(w.failures, 0);
}

static void test_taps__every_game_with_picks(void)
{
	int games = 0;

	for (size_t i = 0; registry_at(i); i++) {
		const struct game_ops *g = registry_at(i);

		if (!g->picks || (getenv("TAPS_GAME") && strcmp(getenv("TAPS_GAME"), g->id)))
			continue;
		CU_ASSERT_PTR_NOT_NULL_FATAL(g->bot);
		check_game(g);
		games++;
	}
	CU_ASSERT(games >= 1);
}

/* The engine's offer on a hand-made set of steps: prefixes, shared parts, a step that extends another. */
static void test_taps__offer(void)
{
	struct taps_step s[3] = { 0 };
	struct taps_steps steps = { s, 3 };
	struct taps_offer *o = malloc(sizeof(*o));
	const char *chosen[4];
	char buf[64];

	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	s[0].text = (char *)"dock solar 3";
	s[0].npicks = 2;
	snprintf(s[0].picks[0].part, 48, "die-3");
	snprintf(s[0].picks[1].part, 48, "fac-solar");
	s[1].text = (char *)"dock solar 3 4";
	s[1].npicks = 3;
	snprintf(s[1].picks[0].part, 48, "die-3");
	snprintf(s[1].picks[1].part, 48, "die-4");
	snprintf(s[1].picks[2].part, 48, "fac-solar");
	s[2].text = (char *)"use warper 3";
	s[2].npicks = 2;
	snprintf(s[2].picks[0].part, 48, "use-warper");
	snprintf(s[2].picks[1].part, 48, "die-3");
	/* at the start: each first part once */
	CU_ASSERT_EQUAL(taps_offer_find(&steps, chosen, 0, o), 0);
	CU_ASSERT_EQUAL(o->nnext, 2);
	ASSERT_STR_EQ(o->next[0].part, "die-3");
	ASSERT_STR_EQ(o->next[1].part, "use-warper");
	CU_ASSERT_PTR_NULL(o->complete);
	/* after die-3: another die or the facility */
	CU_ASSERT_EQUAL(taps_split("die-3", buf, sizeof(buf), chosen, 4), 1);
	CU_ASSERT_EQUAL(taps_offer_find(&steps, chosen, 1, o), 0);
	CU_ASSERT_EQUAL(o->nnext, 2);
	CU_ASSERT_PTR_NULL(o->complete);
	/* a complete step */
	CU_ASSERT_EQUAL(taps_split("die-3.fac-solar", buf, sizeof(buf), chosen, 4), 2);
	CU_ASSERT_EQUAL(taps_offer_find(&steps, chosen, 2, o), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o->complete);
	ASSERT_STR_EQ(o->complete->text, "dock solar 3");
	CU_ASSERT_EQUAL(o->nnext, 0);
	/* a part no step has next: refused, empty */
	CU_ASSERT_EQUAL(taps_split("die-3.fac-mine", buf, sizeof(buf), chosen, 4), 2);
	CU_ASSERT_EQUAL(taps_offer_find(&steps, chosen, 2, o), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(o->nnext, 0);
	CU_ASSERT_PTR_NULL(o->complete);
	/* malformed chosen strings */
	CU_ASSERT_EQUAL(taps_split("", buf, sizeof(buf), chosen, 4), 0);
	CU_ASSERT_EQUAL(taps_split(NULL, buf, sizeof(buf), chosen, 4), 0);
	CU_ASSERT_EQUAL(taps_split("die-3..fac", buf, sizeof(buf), chosen, 4), ERR_INPUT);
	CU_ASSERT_EQUAL(taps_split("Die-3", buf, sizeof(buf), chosen, 4), ERR_INPUT);
	CU_ASSERT_EQUAL(taps_split("a.b.c.d.e", buf, sizeof(buf), chosen, 4), ERR_INPUT);
	CU_ASSERT_EQUAL(taps_split("<script>", buf, sizeof(buf), chosen, 4), ERR_INPUT);
	free(o);
}

int tests_register(void)
{
	static CU_TestInfo cases[] = {
		{ "test_taps__offer", test_taps__offer },
		{ "test_taps__every_game_with_picks", test_taps__every_game_with_picks },
		CU_TEST_INFO_NULL,
	};

	TESTS_SUITE("taps", NULL, NULL, cases);
	return 0;
}
