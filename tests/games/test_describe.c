/* tests/games/test_describe.c: every step of whole bot games reads as a sentence with names, every position in words, for every reader */
/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../testutil.h"
#include "engine/registry.h"
#include "util/buf.h"

#include "util/banned.h"

#define MAX_STEPS 20000

static const char *const names[GAME_MAX_SEATS] = { "Ann", "Zed", "Yara", "Bodo", "Eve", "Fay", "Gus", "Hal" };

/*
 * What a game's sentences are held to besides the common rules. The words
 * of its notation that are also English (or the first word of a name, as
 * "lem" of Lem Badlands) may appear in a sentence; every other word of a
 * step's canonical text (ids such as "booster-pod", seats such as "p2",
 * targets such as "p2:4") must not.
 */
struct words_game {
	const char *id;
	const char *const *english; /* NULL-terminated */
	/*
	 * 1 when some reader may be told less than another. None of the hosted
	 * games hides anything its view() shows to one seat from another (each
	 * <p>_view.c says so), so every reader must get the same sentence.
	 */
	int hides;
};

static const char *const af_english[] = {
	"dock", "solar", "mine", "market", "shipyard", "constructor", "terraforming", "hub", "artifact", "raiders",
	"trade", "cycle", "claim", "launch", "buy", "relic", "use", "discard", "raid", "return", "end", "fuel",
	"ore", "asimov", "bradbury", "burroughs", "heinlein", "herbert", "lem", "pohl", "isolation", "positron",
	"repulsor", NULL
};

static const struct words_game af = { .id = "alien-frontiers", .english = af_english, .hides = 0 };

static const char *const sm_english[] = {
	"stay", "move", "pass", "buy", "scout", "tug", "lease", "repay", "ship", "replace", "claim", "run", "pickup",
	"known", "local", "explore", "load", "leave", "end", "transfer", "set", "aside", "game", "done", "ice-9",
	"deuterium", "cobalt", "iridium", "xenite", "grapples", "foundry", "waystation", NULL
};

static const struct words_game sm = { .id = "starship-merchants", .english = sm_english, .hides = 0 };

/* Hub names are their ids (Station Hub B-1): every "a-N" and "b-N" is allowed as well. */
static const char *const ssp_english[] = {
	"draft", "hub", "discard", "advance", "skip", "use", "income", "human", "sell", "point", "convert", "metal",
	"dismantle", "build", "alien", "place", "teal", "brown", "pink", "gold", "trade", "for", "buy", "done",
	"reroll", "keep", "food", "water", "ally", "take", "accept", "exchange", "pay", "nothing", "move", "return",
	"sector", "bonus", "gem", "standing", "diplomacy", "clear", "construct", "transport", "expedition",
	"a-1", "a-2", "a-3", "a-4", "a-5", "a-6", "a-7", "a-8", "a-9", "a-10", "a-11", "a-12",
	"b-1", "b-2", "b-3", "b-4", "b-5", "b-6", "b-7", "b-8", "b-9", "b-10", "b-11", "b-12", NULL
};

static const struct words_game ssp = { .id = "space-station-phoenix", .english = ssp_english, .hides = 0 };

/* Is w one of the list (ignoring case)? */
static int in_list(const char *const *list, const char *w)
{
	for (; list && *list; list++)
		if (!strcasecmp(*list, w))
			return 1;
	return 0;
}

/* Does text hold word as a whole word, ignoring case? (Word characters: letters, digits, '-', ':'.) */
static int has_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *t = text; *t; t++) {
		if (strncasecmp(t, word, n))
			continue;
		if (t > text && (isalnum((unsigned char)t[-1]) || t[-1] == '-' || t[-1] == ':'))
			continue;
		if (isalnum((unsigned char)t[n]) || t[n] == '-' || t[n] == ':')
			continue;
		return 1;
	}
	return 0;
}

/* The failures of one sentence, printed with where it came from. */
static int check_sentence(const struct words_game *wg, const char *text, const char *canon, int seat,
			  const char *where)
{
	char words[512], *save = NULL;
	int bad = 0;

#define BAD(...) \
	do { \
		fprintf(stderr, "\n  %s: '%s' (step '%s'): ", where, text, canon); \
		fprintf(stderr, __VA_ARGS__); \
		bad++; \
	} while (0)
	if (!*text)
		BAD("empty");
	if (!strstr(text, names[seat]))
		BAD("without the name %s", names[seat]);
	if (has_word(text, "seat") || has_word(text, "seats"))
		BAD("says seat");
	for (int i = 1; i <= GAME_MAX_SEATS; i++) {
		char w[16];

		snprintf(w, sizeof(w), "p%d", i);
		if (has_word(text, w))
			BAD("names a seat as %s", w);
		snprintf(w, sizeof(w), "%d", i);
		for (const char *t = text; (t = strchr(t, w[0])); t++)
			if (t - text >= 7 && !strncasecmp(t - 7, "player ", 7))
				BAD("names a seat as player %d", i);
	}
	snprintf(words, sizeof(words), "%s", canon);
	for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		int number = 1;

		for (char *c = w; *c; c++)
			number &= isdigit((unsigned char)*c) != 0;
		if (number || in_list(wg->english, w))
			continue;
		if (has_word(text, w))
			BAD("holds the notation word '%s'", w);
	}
#undef BAD
	return bad;
}

/* A copy of st through its snapshot. */
static void *copy_state(const struct game_ops *g, const void *st)
{
	struct err e = { 0 };
	json_t *snap = NULL;
	void *copy = NULL;

	CU_ASSERT_EQUAL_FATAL(g->encode(st, &snap, &e), 0);
	CU_ASSERT_EQUAL_FATAL(g->decode(snap, &copy, &e), 0);
	json_decref(snap);
	return copy;
}

/*
 * The position after the step in words for viewer (game_ops.position): whole
 * lines, no notation marks or numbered players, the reader called "You" (and
 * a spectator or an admin never). Returns the failures.
 */
static int check_position(const struct game_ops *g, const void *st, int viewer, const json_t *seats,
			  const char *where)
{
	struct game_position_in in = { .state = st, .viewer = viewer, .seats = seats };
	struct buf text = BUF_INIT;
	struct err e = { 0 };
	int bad = 0;

	if (!g->position)
		return 0;
	if (g->position(&in, &text, &e)) {
		fprintf(stderr, "\n  %s: position failed: %s", where, e.msg);
		bad = 1;
	} else if (text.len < 20 || text.data[text.len - 1] != '\n' || strchr(text.data, '@') ||
		   strstr(text.data, "Player ") || strstr(text.data, "Someone") ||
		   (viewer >= 0) != (strstr(text.data, "\nYou: ") != NULL) ||
		   (viewer < 0 && (strstr(text.data, "you") || strstr(text.data, "You")))) {
		fprintf(stderr, "\n  %s: position for reader %d reads\n%s", where, viewer, text.data);
		bad = 1;
	}
	if (getenv("POSITION_PRINT") && viewer == 0)
		fprintf(stderr, "%s\n", text.data);
	buf_release(&text);
	return bad;
}

/*
 * Play one whole game of bots and describe every step for every reader: an
 * admin, a spectator and each seat. Returns the failures (it stops at 20).
 */
static int play_described(const struct words_game *wg, int np, uint64_t seed)
{
	const struct game_ops *g = registry_find(wg->id);
	struct rng game_rng, bot_rng;
	struct err e = { 0 };
	json_t *seats = json_array();
	void *st = NULL;
	int failures = 0, steps = 0, levels[GAME_MAX_SEATS];

	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g->describe);
	for (int i = 0; i < np; i++) {
		json_array_append_new(seats, json_pack("{s:i,s:s}", "seat", i, "name", names[i]));
		levels[i] = (int)((seed + (uint64_t)i) % 3);
	}
	rng_seed(&game_rng, seed * 7919 + (uint64_t)np);
	rng_seed(&bot_rng, seed * 104729 + 17);
	CU_ASSERT_EQUAL_FATAL(g->setup(NULL, np, &game_rng, &st, &e), 0);
	for (; steps < MAX_STEPS && failures < 20; steps++) {
		struct game_pending pd;
		struct buf canon = BUF_INIT, first = BUF_INIT;
		void *mv = NULL, *before;
		int seat;

		g->pending(st, &pd);
		if (!pd.seats)
			break;
		seat = __builtin_ctz(pd.seats);
		CU_ASSERT_EQUAL_FATAL(g->bot(st, seat, levels[seat], &bot_rng, &mv, &e), 0);
		CU_ASSERT_EQUAL_FATAL(g->format(st, mv, &canon, &e), 0);
		before = copy_state(g, st);
		CU_ASSERT_FATAL(g->apply(st, seat, mv, &game_rng, &e) >= 0);
		/* an admin first, then a spectator (-1) and each seat */
		for (int viewer = GAME_VIEWER_ALL; viewer < np; viewer++) {
			struct game_step_in in = { .before = before, .after = st, .move = mv, .seat = seat,
						   .viewer = viewer, .seats = seats };
			struct buf text = BUF_INIT;
			char where[160];

			snprintf(where, sizeof(where), "%s, %d players, seed %llu, step %d, reader %d", wg->id, np,
				 (unsigned long long)seed, steps, viewer);
			if (g->describe(&in, &text, &e)) {
				fprintf(stderr, "\n  %s: describe failed: %s", where, e.msg);
				failures++;
			} else {
				failures += check_sentence(wg, text.data, canon.data, seat, where);
				if (viewer == GAME_VIEWER_ALL && getenv("DESCRIBE_PRINT")) /* to read a whole game */
					fprintf(stderr, "%s | %s\n", canon.data, text.data);
				if (viewer == GAME_VIEWER_ALL)
					buf_adds(&first, text.data);
				else if (!wg->hides && strcmp(first.data, text.data)) {
					fprintf(stderr, "\n  %s: '%s' differs from the admin's '%s' in a game that hides nothing",
						where, text.data, first.data);
					failures++;
				}
			}
			buf_release(&text);
			failures += check_position(g, st, viewer, seats, where);
		}
		g->state_free(before);
		g->move_free(mv);
		buf_release(&canon);
		buf_release(&first);
	}
	CU_ASSERT(steps < MAX_STEPS);
	g->state_free(st);
	json_decref(seats);
	return failures;
}

static void play_all(const struct words_game *wg, int nseeds)
{
	const struct game_ops *g = registry_find(wg->id);

	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	for (int np = g->min_players; np <= g->max_players; np++)
		for (int seed = 1; seed <= nseeds; seed++)
			CU_ASSERT_EQUAL(play_described(wg, np, (uint64_t)seed), 0);
}

static void test_describe__alien_frontiers(void)
{
	play_all(&af, 3);
}

static void test_describe__starship_merchants(void)
{
	play_all(&sm, 3);
}

static void test_describe__space_station_phoenix(void)
{
	play_all(&ssp, 2);
}

/* A seat without a name is called by its colour, never by a number; the engine may pass no seats at all. */
static void test_describe__no_names(void)
{
	const struct game_ops *g = registry_find("alien-frontiers");
	struct rng r;
	struct err e = { 0 };
	struct buf text = BUF_INIT;
	void *st = NULL, *before = NULL, *mv = NULL;
	json_t *seats = json_pack("[{s:i,s:s}]", "seat", 0, "name", "");

	rng_seed(&r, 5);
	CU_ASSERT_EQUAL_FATAL(g->setup(NULL, 2, &r, &st, &e), 0);
	before = copy_state(g, st);
	CU_ASSERT_EQUAL_FATAL(g->bot(st, 0, 0, &r, &mv, &e), 0);
	CU_ASSERT_FATAL(g->apply(st, 0, mv, &r, &e) >= 0);
	{
		struct game_step_in in = { .before = before, .after = st, .move = mv, .seat = 0, .viewer = 1,
					   .seats = seats };

		CU_ASSERT_EQUAL(g->describe(&in, &text, &e), 0);
		CU_ASSERT(strncmp(text.data, "Red ", 4) == 0);
		buf_reset(&text);
		in.seats = NULL;
		CU_ASSERT_EQUAL(g->describe(&in, &text, &e), 0);
		CU_ASSERT(strncmp(text.data, "Red ", 4) == 0);
		buf_reset(&text);
		in.before = NULL; /* a caller's mistake is an error, not a crash */
		CU_ASSERT_EQUAL(g->describe(&in, &text, &e), ERR_INPUT);
	}
	buf_release(&text);
	g->move_free(mv);
	g->state_free(before);
	g->state_free(st);
	json_decref(seats);
}

int tests_register(void)
{
	static CU_TestInfo cases[] = {
		{ "test_describe__alien_frontiers", test_describe__alien_frontiers },
		{ "test_describe__starship_merchants", test_describe__starship_merchants },
		{ "test_describe__space_station_phoenix", test_describe__space_station_phoenix },
		{ "test_describe__no_names", test_describe__no_names },
		CU_TEST_INFO_NULL,
	};

	TESTS_SUITE("describe", NULL, NULL, cases);
	return 0;
}
