/* tests/games/test_bots.c: the bots of every hosted game play legal, repeatable steps and their games end by the rules */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../testutil.h"
#include "bot_shape.h"
#include "engine/registry.h"
#include "util/buf.h"

#include "util/banned.h"

#define MAX_STEPS 20000

/* Is text one of the strings of the JSON array? */
static int listed(const json_t *legal, const char *text)
{
	size_t i;
	json_t *v;

	json_array_foreach(legal, i, v)
		if (strcmp(json_string_value(v), text) == 0)
			return 1;
	return 0;
}

/*
 * Play one game with levels[seat] through game_ops, as the notifier does
 * after a timeout. Every step: the bot's choice, asked twice from the same
 * generator, is the same step; it is among legal(); apply takes it. The game
 * must end, and by one of the rule text's own ends. Returns the failures.
 */
static int play_checked(const struct game_ops *g, int np, const int *levels, uint64_t seed)
{
	struct rng game_rng, bot_rng;
	struct err e = { 0 };
	struct bot_shape sh;
	void *st = NULL;
	int failures = 0, steps = 0;

	rng_seed(&game_rng, seed * 7919 + (uint64_t)np);
	rng_seed(&bot_rng, seed * 104729 + 17);
	CU_ASSERT_EQUAL_FATAL(g->setup(NULL, np, &game_rng, &st, &e), 0);
	for (; steps < MAX_STEPS; steps++) {
		struct game_pending pd;
		struct buf a = BUF_INIT, b = BUF_INIT;
		struct rng again = bot_rng;
		void *mv = NULL, *mv2 = NULL;
		json_t *legal = NULL;
		int seat, ok;

		g->pending(st, &pd);
		if (!pd.seats)
			break;
		seat = __builtin_ctz(pd.seats);
		ok = g->bot(st, seat, levels[seat], &bot_rng, &mv, &e) == 0 &&
		     g->bot(st, seat, levels[seat], &again, &mv2, &e) == 0 && g->format(st, mv, &a, &e) == 0 &&
		     g->format(st, mv2, &b, &e) == 0 && g->legal(st, seat, &legal, &e) == 0;
		if (!ok || strcmp(a.data, b.data) != 0 || !listed(legal, a.data)) {
			fprintf(stderr, "\n  %s, %d players, seed %llu, step %d, seat %d at level %d: bot chose '%s' then '%s'%s (%s)\n",
				g->id, np, (unsigned long long)seed, steps, seat, levels[seat], a.data, b.data,
				legal && !listed(legal, a.data) ? ", not a legal step" : "", e.msg);
			failures++;
		} else if (g->apply(st, seat, mv, &game_rng, &e) < 0) {
			fprintf(stderr, "\n  %s: apply refused the bot's '%s': %s\n", g->id, a.data, e.msg);
			failures++;
		}
		json_decref(legal);
		buf_release(&a);
		buf_release(&b);
		g->move_free(mv);
		g->move_free(mv2);
		if (failures)
			break;
	}
	if (!failures) {
		CU_ASSERT_EQUAL(bot_shape_read(g->id, st, &sh), 0);
		if (steps >= MAX_STEPS || !sh.rulebook) {
			fprintf(stderr, "\n  %s, %d players, seed %llu: %s after %d steps\n", g->id, np,
				(unsigned long long)seed, steps >= MAX_STEPS ? "no end" : sh.end, steps);
			failures++;
		}
	}
	g->state_free(st);
	return failures;
}

/* games per player count: level 2 in one seat (rotating), level 1 in the others; the last game all level 2 */
static void play_games(const char *id, int per_count)
{
	const struct game_ops *g = registry_find(id);

	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g->bot);
	for (int np = g->min_players; np <= g->max_players; np++)
		for (int i = 0; i < per_count; i++) {
			int levels[GAME_MAX_SEATS];

			for (int p = 0; p < np; p++)
				levels[p] = i == per_count - 1 || p == i % np ? 2 : 1;
			CU_ASSERT_EQUAL(play_checked(g, np, levels, (uint64_t)(1000 * np + i)), 0);
		}
}

static void test_bots__alien_frontiers(void)
{
	play_games("alien-frontiers", 8);
}

static void test_bots__space_station_phoenix(void)
{
	play_games("space-station-phoenix", 2);
}

static void test_bots__starship_merchants(void)
{
	play_games("starship-merchants", 8);
}

/* A level above the strongest plays the strongest: the same step from the same generator. */
static void test_bots__levels_above_two_play_level_two(void)
{
	for (size_t i = 0; registry_at(i); i++) {
		const struct game_ops *g = registry_at(i);
		struct rng game_rng, r2, r9;
		struct err e = { 0 };
		struct buf a = BUF_INIT, b = BUF_INIT;
		void *st = NULL, *m2 = NULL, *m9 = NULL;
		struct game_pending pd;

		if (!g->bot)
			continue;
		rng_seed(&game_rng, 5);
		rng_seed(&r2, 6);
		r9 = r2;
		CU_ASSERT_EQUAL_FATAL(g->setup(NULL, g->min_players, &game_rng, &st, &e), 0);
		g->pending(st, &pd);
		CU_ASSERT_EQUAL(g->bot(st, __builtin_ctz(pd.seats), 2, &r2, &m2, &e), 0);
		CU_ASSERT_EQUAL(g->bot(st, __builtin_ctz(pd.seats), 9, &r9, &m9, &e), 0);
		if (m2 && m9) {
			g->format(st, m2, &a, &e);
			g->format(st, m9, &b, &e);
			ASSERT_STR_EQ(b.data, a.data);
		}
		buf_release(&a);
		buf_release(&b);
		g->move_free(m2);
		g->move_free(m9);
		g->state_free(st);
	}
}

int tests_register(void)
{
	static CU_TestInfo cases[] = {
		{ "test_bots__alien_frontiers", test_bots__alien_frontiers },
		{ "test_bots__space_station_phoenix", test_bots__space_station_phoenix },
		{ "test_bots__starship_merchants", test_bots__starship_merchants },
		{ "test_bots__levels_above_two_play_level_two", test_bots__levels_above_two_play_level_two },
		CU_TEST_INFO_NULL,
	};

	TESTS_SUITE("bots", NULL, NULL, cases);
	return 0;
}
