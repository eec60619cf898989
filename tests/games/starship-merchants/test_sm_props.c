/* tests/games/starship-merchants/test_sm_props.c: property tests of Starship Merchants over many bot games */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/starship-merchants/sm_internal.h"
#include "games/starship-merchants/starship_merchants.h"
#include "games/picks_check.h"
#include "sm_testlib.h"
#include "testutil.h"

#include "util/banned.h"

#define MAX_STEPS 30000

/* Bot level for a step: mostly greedy with random steps mixed in, so games both end and wander. */
static int mixed_level(struct rng *br, int seat, int random_share)
{
	(void)seat;
	return (int)rng_below(br, 100) >= random_share;
}

/*
 * Many complete games per player count: every step keeps the invariants,
 * every bot step is in legal, and the game ends with a result.
 */
static void play_many(int n, int games, int random_share)
{
	int failures = 0;
	long steps_total = 0;

	for (int g = 0; g < games && failures < 3; g++) {
		struct rng r, br;
		struct sm_state *s = t_new(n, 9000 + (uint64_t)g * 31 + (uint64_t)n, &r);
		int totals[SM_NKINDS], steps = 0;
		char why[200];
		json_t *res;

		rng_seed(&br, 4242 + (uint64_t)g);
		sm_state_token_totals(s, totals);
		while (s->phase != SM_PH_OVER && steps < MAX_STEPS) {
			struct sm_move m;
			struct err e = { 0 };
			struct game_pending pend;

			game_starship_merchants.pending(s, &pend);
			if (pend.seats != 1u << s->cur) {
				CU_FAIL("pending names a different seat");
				failures++;
				break;
			}
			if (sm_bot_choose(s, s->cur, mixed_level(&br, s->cur, random_share), &br, &m, &e) ||
			    sm_rules_apply(s, s->cur, &m, &r, &e) < 0) {
				fprintf(stderr, "\n  %d players game %d step %d: %s\n", n, g, steps, e.msg);
				CU_FAIL("bot step refused");
				failures++;
				break;
			}
			if (t_invariants(s, totals, why, sizeof(why))) {
				fprintf(stderr, "\n  %d players game %d step %d: %s\n", n, g, steps, why);
				CU_FAIL("invariant broken");
				failures++;
				break;
			}
			steps++;
		}
		steps_total += steps;
		res = game_starship_merchants.result(s);
		if (!res) {
			fprintf(stderr, "\n  %d players game %d did not end in %d steps\n", n, g, steps);
			CU_FAIL("game did not end");
			failures++;
		} else {
			json_t *ranks = json_object_get(res, "ranks");
			int ones = 0;

			CU_ASSERT_EQUAL(json_array_size(json_object_get(res, "scores")), (size_t)n);
			for (size_t i = 0; i < json_array_size(ranks); i++)
				ones += json_integer_value(json_array_get(ranks, i)) == 1;
			CU_ASSERT(ones >= 1);
			CU_ASSERT_EQUAL(json_array_size(json_object_get(res, "winners")), (size_t)ones);
			for (int p = 0; p < n; p++) {
				const struct sm_player *pl = &s->p[p];

				CU_ASSERT(pl->finished && pl->pos == SM_DOCK);
				/* every loan marker the credits cover is paid; the rest counts against the score */
				for (int i = 0; i < pl->nships; i++)
					CU_ASSERT(!pl->ships[i].loans || pl->credits < sm_marker_cost(&pl->ships[i]));
				CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "scores"), p)),
						sm_player_score(pl));
			}
			json_decref(res);
		}
		sm_state_free(s);
	}
	printf("\n  %d players: %d games, %.0f steps on average\n", n, games, (double)steps_total / games);
}

static void test_sm_props__games_2(void)
{
	play_many(2, 1000, 15);
}

static void test_sm_props__games_3(void)
{
	play_many(3, 1000, 15);
}

static void test_sm_props__games_4(void)
{
	play_many(4, 1000, 15);
}

/*
 * Seat balance of the content set: with 15 credits for every seat, greedy
 * bots in every seat win about equally often from every seat (each seat's
 * share within 6 points of 1/n over 1,000 games per player count; the
 * 5,000-game figures are in docs/games/starship-merchants.md).
 */
static void test_sm_props__seat_balance(void)
{
	for (int n = 2; n <= 4; n++) {
		int wins[SM_MAX_PLAYERS] = { 0 }, games = 1000;

		for (int g = 0; g < games; g++) {
			struct rng game, bot;
			struct sm_state *s = NULL;
			struct err e = { 0 };
			int best = 0;

			rng_seed(&game, (uint64_t)g * 6133 + 11 + (uint64_t)n);
			rng_seed(&bot, (uint64_t)g * 3571 + 5);
			CU_ASSERT_FATAL(sm_state_setup(n, &game, &s, &e) == 0);
			for (int steps = 0; s->phase != SM_PH_OVER && steps < 20000; steps++) {
				struct sm_move m;

				CU_ASSERT_FATAL(sm_bot_choose(s, s->cur, 1, &bot, &m, &e) == 0);
				CU_ASSERT_FATAL(sm_rules_apply(s, s->cur, &m, &game, &e) >= 0);
			}
			CU_ASSERT_FATAL(s->phase == SM_PH_OVER);
			for (int p = 1; p < n; p++) {
				int a = sm_player_score(&s->p[p]), b = sm_player_score(&s->p[best]);
				if (a > b || (a == b && s->p[p].dock_at < s->p[best].dock_at))
					best = p;
			}
			wins[best]++;
			sm_state_free(s);
		}
		printf("\n  %d players, wins by seat:", n);
		for (int p = 0; p < n; p++) {
			printf(" %.1f%%", 100.0 * wins[p] / games);
			CU_ASSERT(abs(wins[p] * n * 100 - games * 100) <= 6 * games * n);
		}
	}
}

/* Every move the notation can express, for the equivalence check. */
static int universe(const struct sm_state *s, struct sm_move *mv, int max)
{
	int n = 0;
	const struct sm_player *pl = &s->p[s->cur];
	int nos[SM_MAX_SHIPS + 1], nnos = 0;

	for (int i = 0; i < pl->nships; i++)
		nos[nnos++] = pl->ships[i].no;
	nos[nnos++] = pl->next_no; /* a ship that does not exist */
#define PUT(t, x, y) do { if (n < max) mv[n++] = (struct sm_move){ (t), (x), (y) }; } while (0)
	PUT(SM_MV_STAY, 0, 0);
	PUT(SM_MV_MOVE, 0, 0);
	PUT(SM_MV_PASS, 0, 0);
	PUT(SM_MV_EXPLORE, 0, 0);
	PUT(SM_MV_LOAD, 0, 0);
	PUT(SM_MV_LEAVE, 0, 0);
	PUT(SM_MV_END_GAME, 0, 0);
	PUT(SM_MV_DONE, 0, 0);
	for (int t = 0; t < SM_NTYPES; t++) {
		PUT(SM_MV_BUY_SHIP, t, 0);
		PUT(SM_MV_LEASE_SHIP, t, 0);
	}
	for (int i = 0; i < nnos; i++) {
		PUT(SM_MV_REPAY, nos[i], 0);
		PUT(SM_MV_RUN, nos[i], 0);
	}
	for (int a = 0; a < SM_NCARDS; a++) {
		for (int b = a; b < SM_NCARDS; b++)
			PUT(SM_MV_REPLACE_CARDS, a, b);
		if (sm_cards[a].cat == SM_CARD_REFINERY)
			PUT(SM_MV_BUY_CARD, a, 0);
		for (int i = 0; i < nnos && sm_cards[a].cat != SM_CARD_REFINERY; i++) {
			PUT(SM_MV_BUY_CARD, a, nos[i]);
			PUT(SM_MV_TRANSFER, a, nos[i]);
		}
		PUT(SM_MV_SET_ASIDE, a, 0);
	}
	for (int k = 0; k < SM_NKINDS; k++) {
		PUT(SM_MV_CLAIM, k, 0);
		for (int src = 0; src < SM_SRC_SEAT + s->n; src++)
			if (src != SM_SRC_SEAT + s->cur)
				PUT(SM_MV_PICKUP, k, src);
	}
	for (int d = 0; d < SM_NDESTS; d++) {
		PUT(SM_MV_REPLACE_DEST, d, 0);
		PUT(SM_MV_END_RUN, d, 0);
	}
#undef PUT
	return n;
}

static int in_list(const struct sm_move *mv, int n, const struct sm_move *m)
{
	for (int i = 0; i < n; i++)
		if (mv[i].type == m->type && mv[i].a == m->a && mv[i].b == m->b)
			return 1;
	return 0;
}

/*
 * On random positions: apply accepts exactly the legal steps, every legal
 * text parses back to the same move, and other seats are refused with
 * ERR_FORBIDDEN.
 */
static void test_sm_props__legal_apply_equivalence(void)
{
	static struct sm_move all[4096], legal[SM_MAX_LEGAL];
	int positions = 0, checked = 0;

	for (int g = 0; g < 12; g++) {
		int n = 2 + g % 3;
		struct rng r, br;
		struct sm_state *s = t_new(n, 500 + (uint64_t)g, &r);
		int step = 0;

		rng_seed(&br, 77 + (uint64_t)g);
		while (s->phase != SM_PH_OVER && step < MAX_STEPS) {
			struct sm_move m;
			struct err e = { 0 };

			if (step % 9 == 0) {
				int nl = sm_rules_legal(s, s->cur, legal, SM_MAX_LEGAL);
				int na = universe(s, all, 4096);
				json_t *texts = NULL;

				positions++;
				CU_ASSERT(nl > 0);
				CU_ASSERT_EQUAL(game_starship_merchants.legal(s, s->cur, &texts, &e), 0);
				CU_ASSERT_EQUAL(json_array_size(texts), (size_t)nl);
				for (int i = 0; i < na; i++) {
					struct sm_state copy = *s, *c = &copy;
					struct rng rc = r;
					int ok = sm_rules_apply(c, c->cur, &all[i], &rc, &e) >= 0;

					if (ok != in_list(legal, nl, &all[i])) {
						struct buf b = BUF_INIT;

						sm_move_format(&all[i], &b, &e);
						fprintf(stderr, "\n  \"%s\": apply %s but legal %s (%s)\n", b.data,
							ok ? "accepts" : "refuses", ok ? "omits it" : "has it", e.msg);
						buf_release(&b);
						CU_FAIL("legal and apply disagree");
					}
					if (!ok && e.code != ERR_ILLEGAL) {
						fprintf(stderr, "\n  refused with code %d: %s\n", e.code, e.msg);
						CU_FAIL("refusal is not ERR_ILLEGAL");
					}
					checked++;
				}
				for (int i = 0; i < nl; i++) {
					void *pm = NULL;
					const char *txt = json_string_value(json_array_get(texts, (size_t)i));

					CU_ASSERT_EQUAL(game_starship_merchants.parse(s, s->cur, txt, &pm, &e), 0);
					CU_ASSERT(pm && memcmp(pm, &legal[i], sizeof(struct sm_move)) == 0);
					game_starship_merchants.move_free(pm);
				}
				for (int seat = 0; seat < n; seat++) {
					json_t *other = NULL;

					if (seat == s->cur)
						continue;
					CU_ASSERT_EQUAL(sm_rules_apply(s, seat, &legal[0], &r, &e), ERR_FORBIDDEN);
					game_starship_merchants.legal(s, seat, &other, &e);
					CU_ASSERT_EQUAL(json_array_size(other), 0);
					json_decref(other);
				}
				json_decref(texts);
			}
			CU_ASSERT_EQUAL_FATAL(sm_bot_choose(s, s->cur, mixed_level(&br, s->cur, 30), &br, &m, &e), 0);
			CU_ASSERT_FATAL(sm_rules_apply(s, s->cur, &m, &r, &e) >= 0);
			step++;
		}
		sm_state_free(s);
	}
	printf("\n  %d positions, %d moves checked\n", positions, checked);
}

/*
 * Replay: a game stored as set-up seed plus move texts, replayed through
 * parse/apply from the set-up and through decode of every snapshot,
 * reproduces every snapshot exactly.
 */
static void test_sm_props__replay_roundtrip(void)
{
	for (int g = 0; g < 30; g++) {
		int n = 2 + g % 3, count = 0;
		struct rng r, br, r2;
		struct sm_state *s = t_new(n, 800 + (uint64_t)g, &r);
		struct sm_state *s2 = t_new(n, 800 + (uint64_t)g, &r2);
		json_t *snaps = json_array();
		struct err e = { 0 };

		rng_seed(&br, 3 + (uint64_t)g);
		while (s->phase != SM_PH_OVER && count < MAX_STEPS) {
			struct sm_move m;
			struct buf b = BUF_INIT;
			json_t *a = NULL, *a2 = NULL, *a3 = NULL;
			void *d = NULL;
			int seat = s->cur, rc1, rc2;

			CU_ASSERT_EQUAL_FATAL(sm_bot_choose(s, seat, mixed_level(&br, seat, 20), &br, &m, &e), 0);
			sm_move_format(&m, &b, &e);
			/* the engine's path: decode the latest snapshot, apply to it */
			game_starship_merchants.encode(s, &a, &e);
			CU_ASSERT_EQUAL_FATAL(game_starship_merchants.decode(a, &d, &e), 0);
			{
				struct rng rd = r;
				json_t *ad = NULL;

				rc1 = sm_rules_apply(s, seat, &m, &r, &e);
				rc2 = t_do(d, seat, b.data, &rd, &e);
				CU_ASSERT_EQUAL(rc1, rc2);
				game_starship_merchants.encode(d, &ad, &e);
				game_starship_merchants.encode(s, &a3, &e);
				CU_ASSERT(json_equal(ad, a3));
				json_decref(ad);
			}
			/* a second replay from the set-up with the texts only */
			CU_ASSERT(t_do(s2, seat, b.data, &r2, &e) >= 0);
			game_starship_merchants.encode(s2, &a2, &e);
			CU_ASSERT(json_equal(a2, a3));
			CU_ASSERT(memcmp(r.s, r2.s, sizeof(r.s)) == 0);
			json_array_append_new(snaps, a3);
			json_decref(a);
			json_decref(a2);
			game_starship_merchants.state_free(d);
			buf_release(&b);
			count++;
		}
		CU_ASSERT_EQUAL(s2->phase, SM_PH_OVER);
		json_decref(snaps);
		sm_state_free(s);
		sm_state_free(s2);
	}
}

/*
 * Taps on the board (game_ops.picks): on positions of mixed games every
 * legal step is cut into well-formed parts, no two alike, and the board
 * draws what is offered; stay and move are the quadrants of the circuit,
 * and staying says what it gives or that it is free.
 */
static void test_sm_props__picks(void)
{
	const struct game_ops *g = &game_starship_merchants;
	int faults = 0, turns = 0;

	for (int k = 0; k < 4; k++) {
		struct rng r, br;
		int n = 2 + k % 3, steps = 0;
		struct sm_state *s = t_new(n, 7300 + (uint64_t)k, &r);

		rng_seed(&br, 99 + (uint64_t)k);
		while (s->phase != SM_PH_OVER && steps++ < 4000 && faults < 10) {
			struct sm_move m;
			struct err e = { 0 };
			if (steps % 3 == 0 || s->phase != SM_PH_START)
				faults += picks_check(g, s, s->cur, n);
			if (s->phase == SM_PH_START) {
				char parts[64];
				struct game_pick last;
				CU_ASSERT_EQUAL(picks_of(g, s, s->cur, "stay", parts, sizeof(parts), &last), 0);
				ASSERT_STR_EQ(parts, "act-stay");
				/* staying says what it gives, or that it is free */
				CU_ASSERT(last.cost[0] != '\0');
				turns++;
			}
			if (sm_bot_choose(s, s->cur, mixed_level(&br, s->cur, 20), &br, &m, &e) ||
			    sm_rules_apply(s, s->cur, &m, &r, &e) < 0) {
				CU_FAIL("bot step refused");
				break;
			}
		}
		free(s);
	}
	CU_ASSERT_EQUAL(faults, 0);
	CU_ASSERT(turns > 0);
}

int tests_register(void)
{
	static CU_TestInfo cases[] = {
		{ "test_sm_props__games_2", test_sm_props__games_2 },
		{ "test_sm_props__games_3", test_sm_props__games_3 },
		{ "test_sm_props__games_4", test_sm_props__games_4 },
	{ "test_sm_props__seat_balance", test_sm_props__seat_balance },
		{ "test_sm_props__legal_apply_equivalence", test_sm_props__legal_apply_equivalence },
		{ "test_sm_props__replay_roundtrip", test_sm_props__replay_roundtrip },
		{ "test_sm_props__picks", test_sm_props__picks },
		CU_TEST_INFO_NULL,
	};

	TESTS_SUITE("starship_merchants_props", NULL, NULL, cases);
	return 0;
}
