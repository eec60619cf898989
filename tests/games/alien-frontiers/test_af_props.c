/* tests/games/alien-frontiers/test_af_props.c: property tests: bot games, invariants, replay, legal/apply, bot strength */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "af_test.h"
#include "games/alien-frontiers/alien_frontiers.h"
#include "testutil.h"
#include "util/banned.h"

#define MAX_STEPS 20000

static int env_count(const char *name, int dflt)
{
	const char *v = getenv(name);

	return v && *v ? (int)strtol(v, NULL, 10) : dflt;
}

/*
 * One complete game with bots of the given level per seat. Checks every
 * invariant after every step, that decode(encode) gives the same state and
 * re-encodes to an equal snapshot, and then replays the move texts from the
 * same seed and compares every snapshot. Returns the number of steps, or -1
 * after a failure (reported on stderr).
 */
static int play_checked(int n, uint64_t seed, const int *levels, int *winner_out)
{
	struct af_state s, r;
	struct rng grng, brng;
	int supply0[AF_MAXP], steps = 0, ok = 1;
	char **texts = malloc(sizeof(char *) * MAX_STEPS);
	json_t **snaps = malloc(sizeof(json_t *) * MAX_STEPS);
	struct af_state *states = malloc(sizeof(struct af_state) * MAX_STEPS);

	rng_seed(&grng, seed);
	rng_seed(&brng, seed ^ 0x9e3779b97f4a7c15ULL);
	af__setup(&s, n, &grng);
	for (int p = 0; p < n; p++)
		supply0[p] = s.supply[p];
	while (!s.over && steps < MAX_STEPS) {
		struct af_move m;
		struct err e = { 0 };
		struct buf b = BUF_INIT;
		const char *bad;
		struct af_state d;
		json_t *again;
		int prev = s.cur;

		if (af__bot(&s, s.cur, levels[s.cur], &brng, &m) != 0) {
			fprintf(stderr, "\n  seed %llu: no legal step for player %d\n", (unsigned long long)seed, s.cur + 1);
			ok = 0;
			break;
		}
		af__format(&m, &b);
		texts[steps] = buf_detach(&b, NULL);
		if (af__step(&s, s.cur, &m, &grng, &e) != 0) {
			fprintf(stderr, "\n  seed %llu: bot step '%s' refused: %s\n", (unsigned long long)seed, texts[steps],
				e.msg);
			free(texts[steps]);
			ok = 0;
			break;
		}
		if (!s.over && s.cur != prev && s.fuel[prev] + s.ore[prev] > AF_HAND_LIMIT) {
			fprintf(stderr, "\n  seed %llu: player %d ended with more than 8 resources\n",
				(unsigned long long)seed, prev + 1);
			ok = 0;
		}
		if ((bad = af_test_invariants(&s, supply0))) {
			fprintf(stderr, "\n  seed %llu step %d '%s': %s\n", (unsigned long long)seed, steps, texts[steps], bad);
			ok = 0;
		}
		if (steps % 401 == 0 || s.over) {
			/* the view is public: the same for every seat but "you"; pending names the seat on turn */
			struct game_pending pd;
			json_t *v1, *v2;

			af__view(&s, s.cur, &v1);
			af__view(&s, -1, &v2);
			json_object_del(v1, "you");
			json_object_del(v2, "you");
			if (!json_equal(v1, v2)) {
				fprintf(stderr, "\n  seed %llu: views differ between seats\n", (unsigned long long)seed);
				ok = 0;
			}
			json_decref(v1);
			json_decref(v2);
			af__pending(&s, &pd);
			if (pd.seats != (s.over ? 0u : 1u << s.cur)) {
				fprintf(stderr, "\n  seed %llu: pending names the wrong seats\n", (unsigned long long)seed);
				ok = 0;
			}
		}
		states[steps] = s;
		af__encode(&s, &snaps[steps]);
		if (af__decode(snaps[steps], &d, &e) != 0) {
			fprintf(stderr, "\n  seed %llu: decode failed: %s\n", (unsigned long long)seed, e.msg);
			ok = 0;
		} else {
			af__encode(&d, &again);
			if (!json_equal(again, snaps[steps]) || memcmp(&d, &s, sizeof(d))) {
				fprintf(stderr, "\n  seed %llu: decode(encode) differs at step %d\n", (unsigned long long)seed,
					steps);
				ok = 0;
			}
			json_decref(again);
		}
		steps++;
		if (!ok)
			break;
	}
	if (ok && !s.over) {
		fprintf(stderr, "\n  seed %llu: no end after %d steps\n", (unsigned long long)seed, steps);
		ok = 0;
	}
	if (ok) {
		json_t *res = af__result(&s);

		if (!res) {
			ok = 0;
		} else {
			if (winner_out)
				*winner_out = (int)json_integer_value(json_array_get(json_object_get(res, "winners"), 0));
			if (json_array_size(json_object_get(res, "winners")) > 1 && winner_out)
				*winner_out = -1;
			json_decref(res);
		}
	}
	/* replay the texts from the seed: every state again, so every snapshot again */
	if (ok) {
		rng_seed(&grng, seed);
		af__setup(&r, n, &grng);
		for (int i = 0; i < steps && ok; i++) {
			struct err e = { 0 };
			if (af_test_step(&r, texts[i], &grng, &e) != 0) {
				fprintf(stderr, "\n  seed %llu: replay of '%s' refused: %s\n", (unsigned long long)seed, texts[i],
					e.msg);
				ok = 0;
				break;
			}
			if (memcmp(&r, &states[i], sizeof(r))) {
				fprintf(stderr, "\n  seed %llu: replay differs at step %d\n", (unsigned long long)seed, i);
				ok = 0;
			}
		}
	}
	for (int i = 0; i < steps; i++) {
		free(texts[i]);
		json_decref(snaps[i]);
	}
	free(texts);
	free(snaps);
	free(states);
	return ok ? steps : -1;
}

static void games_for(int n)
{
	int games = env_count("AF_PROPERTY_GAMES", 1000), failed = 0;
	long steps = 0;

	for (int g = 0; g < games; g++) {
		int levels[AF_MAXP], k;

		/* mostly random players, with some greedy ones so every kind of position shows up */
		for (int p = 0; p < n; p++)
			levels[p] = (g + p) % 4 == 0;
		k = play_checked(n, (uint64_t)(1000 * n + g), levels, NULL);
		if (k < 0)
			failed++;
		else
			steps += k;
		if (failed > 3)
			break;
	}
	CU_ASSERT(games > 0);
	CU_ASSERT_EQUAL(failed, 0);
	if (getenv("AF_VERBOSE"))
		fprintf(stderr, "\n  %d players: %d games, %ld steps\n", n, games, steps);
}

static void test_af__property_2p(void)
{
	games_for(2);
}

static void test_af__property_3p(void)
{
	games_for(3);
}

static void test_af__property_4p(void)
{
	games_for(4);
}

/*
 * legal and apply agree: on positions from random games, every listed step
 * is accepted, and random steps built from the notation's parts are accepted
 * exactly when legal lists them.
 */
static void random_move(const struct af_state *s, struct rng *r, struct af_move *m)
{
	int kind = (int)rng_below(r, AF_M_NKIND);

	af__move_init(m, kind);
	switch (kind) {
	case AF_M_DOCK:
		m->fac = (int8_t)rng_below(r, AF_NFAC);
		m->n = (uint8_t)rng_range(r, 1, 3);
		for (int i = 0; i < m->n; i++)
			m->tok[i] = (uint8_t)(rng_die(r, 6) | (rng_below(r, 8) == 0 ? AF_TOK_RELIC : 0));
		if (m->fac == AF_TERRA || m->fac == AF_CONSTRUCTOR)
			m->terr = (int8_t)rng_below(r, AF_NTERR);
		break;
	case AF_M_TRADE:
		m->count = (uint8_t)rng_range(r, 1, 3);
		break;
	case AF_M_CLAIM:
		m->card = (int8_t)rng_below(r, AF_NCARD);
		break;
	case AF_M_LAUNCH:
		m->terr = (int8_t)rng_below(r, AF_NTERR);
		break;
	case AF_M_USE:
	case AF_M_DISCARD: {
		static const int8_t powers[] = { AF_BOOSTER, AF_CRYSTAL, AF_GRAVITY, AF_TELEPORTER,
						 AF_CANNON, AF_POLARITY, AF_STASIS, AF_WARPER };
		int c = powers[rng_below(r, 8)];

		m->card = (int8_t)c;
		m->fac = (int8_t)rng_below(r, AF_NFAC);
		m->terr = (int8_t)rng_below(r, AF_NTERR);
		m->n = 1;
		m->tok[0] = (uint8_t)rng_die(r, 6);
		if (kind == AF_M_USE) {
			if (c == AF_CRYSTAL) {
				m->fac = -1;
				m->n = 0;
				m->tok[0] = 0;
			} else if (c == AF_CANNON) {
				m->terr = -1;
				m->tok[0] = (uint8_t)((rng_below(r, s->n) << 4) | (unsigned)rng_die(r, 6));
			} else if (c == AF_TELEPORTER) {
				m->fac2 = (int8_t)rng_below(r, AF_NFAC);
				if (m->fac2 != AF_TERRA && m->fac2 != AF_CONSTRUCTOR)
					m->terr = -1;
				if (m->fac2 == AF_MARKET || m->fac2 == AF_SHIPYARD) {
					m->n = 2;
					m->tok[1] = m->tok[0];
				}
			} else {
				m->fac = -1;
				m->terr = -1;
				if (c == AF_GRAVITY) {
					m->n = 2;
					m->tok[1] = (uint8_t)rng_die(r, 6);
				}
			}
		} else {
			m->fac = -1;
			m->n = 0;
			m->tok[0] = 0;
			if (c == AF_BOOSTER) {
				m->terr = -1;
				m->field = (int8_t)rng_below(r, AF_NFIELD);
			} else if (c == AF_TELEPORTER || c == AF_POLARITY) {
				m->seat1 = (int8_t)rng_below(r, s->n);
				m->terr2 = (int8_t)rng_below(r, AF_NTERR);
				if (c == AF_POLARITY)
					m->seat2 = (int8_t)rng_below(r, s->n);
			} else if (c == AF_CANNON) {
				m->terr = -1;
				m->fac = (int8_t)rng_below(r, AF_NFAC);
				m->n = 1;
				m->tok[0] = (uint8_t)((rng_below(r, s->n) << 4) | (unsigned)rng_die(r, 6));
			} else if (c == AF_WARPER) {
				m->terr = -1;
				m->card2 = (int8_t)rng_below(r, AF_NCARD);
			}
		}
		break;
	}
	case AF_M_RAID:
		if (rng_below(r, 2)) {
			m->seat1 = (int8_t)rng_below(r, s->n);
			m->card = (int8_t)rng_below(r, AF_NCARD);
		} else {
			for (int k = 0; k < 4; k++)
				m->take[rng_below(r, s->n)][rng_below(r, 2)]++;
		}
		break;
	case AF_M_RETURN:
		m->take[0][0] = (uint8_t)rng_below(r, 4);
		m->take[0][1] = (uint8_t)rng_below(r, 4);
		break;
	default:
		break;
	}
	af__move_canon(m);
}

static void test_af__legal_apply_agree(void)
{
	int positions = env_count("AF_LEGAL_POSITIONS", 3000), checked = 0, accepted_random = 0, bad = 0;
	struct af_move *mv = malloc(sizeof(*mv) * AF_LEGAL_MAX);
	struct rng brng, mrng;

	rng_seed(&brng, 4242);
	rng_seed(&mrng, 77);
	for (int g = 0; checked < positions && g < 10000; g++) {
		struct af_state s;
		struct rng grng;
		int n = 2 + g % 3;

		rng_seed(&grng, (uint64_t)g + 500000);
		af__setup(&s, n, &grng);
		while (!s.over && checked < positions) {
			struct af_move m;
			int k = af__legal(&s, s.cur, mv, AF_LEGAL_MAX);

			checked++;
			CU_ASSERT(k > 0);
			/* other seats have nothing to do */
			CU_ASSERT_EQUAL(af__legal(&s, (s.cur + 1) % n, mv + k, 1), 0);
			for (int i = 0; i < k; i++) {
				struct af_state w = s;
				struct rng r2 = grng;
				struct err e = { 0 };
				struct buf b = BUF_INIT;
				struct af_move back;

				af__format(&mv[i], &b);
				if (af__parse(&s, b.data, &back, &e) != 0 || memcmp(&back, &mv[i], sizeof(back))) {
					fprintf(stderr, "\n  legal text '%s' does not parse back\n", b.data);
					bad++;
				} else if (af_test_step(&w, b.data, &r2, &e) != 0) {
					fprintf(stderr, "\n  legal step '%s' refused: %s\n", b.data, e.msg);
					bad++;
				}
				buf_release(&b);
			}
			for (int t = 0; t < 40; t++) {
				struct af_state w = s;
				struct rng r2 = grng;
				struct err e = { 0 };
				int listed = 0, rc;

				random_move(&s, &mrng, &m);
				for (int i = 0; i < k && !listed; i++)
					listed = !memcmp(&mv[i], &m, sizeof(m));
				rc = af__step(&w, s.cur, &m, &r2, &e);
				if ((rc == 0) != listed) {
					struct buf b = BUF_INIT;

					af__format(&m, &b);
					fprintf(stderr, "\n  '%s': apply %s but legal %s it\n", b.data, rc ? "refuses" : "accepts",
						listed ? "lists" : "does not list");
					buf_release(&b);
					bad++;
				}
				if (rc == 0)
					accepted_random++;
				else
					CU_ASSERT(e.code == ERR_ILLEGAL && e.msg[0]);
			}
			if (bad > 5)
				break;
			CU_ASSERT_EQUAL_FATAL(af__bot(&s, s.cur, (int)rng_below(&brng, 2), &brng, &m), 0);
			CU_ASSERT_EQUAL_FATAL(af__step(&s, s.cur, &m, &grng, NULL), 0);
		}
		if (bad > 5)
			break;
	}
	free(mv);
	CU_ASSERT(checked > 0);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(accepted_random > 0);
}

static void test_af__greedy_beats_random(void)
{
	int games = env_count("AF_BOT_GAMES", 500), wins = 0;

	for (int g = 0; g < games; g++) {
		int levels[2], greedy = g % 2, w = -2;
		struct af_state s;
		struct rng grng, brng;
		int steps = 0;

		levels[greedy] = 1;
		levels[1 - greedy] = 0;
		rng_seed(&grng, (uint64_t)g + 77000);
		rng_seed(&brng, (uint64_t)g + 99000);
		af__setup(&s, 2, &grng);
		while (!s.over && steps++ < MAX_STEPS) {
			struct af_move m;

			CU_ASSERT_EQUAL_FATAL(af__bot(&s, s.cur, levels[s.cur], &brng, &m), 0);
			CU_ASSERT_EQUAL_FATAL(af__step(&s, s.cur, &m, &grng, NULL), 0);
		}
		if (s.over) {
			json_t *res = af__result(&s);

			if (json_array_size(json_object_get(res, "winners")) == 1)
				w = (int)json_integer_value(json_array_get(json_object_get(res, "winners"), 0));
			json_decref(res);
		}
		wins += w == greedy;
	}
	if (getenv("AF_VERBOSE"))
		fprintf(stderr, "\n  greedy won %d of %d\n", wins, games);
	CU_ASSERT(games > 0 && wins * 100 >= games * 80);
}

/* Random lines from the notation's words: parse never crashes, and what it reads formats back to itself. */
/*
 * A turn whose tech cards fill the bot's first candidates with refused
 * combinations, 'end' being the only legal step: every level still finds a
 * legal step (the bots once answered that nothing was legal).
 */
static void test_af__bot_finds_end_past_many_candidates(void)
{
	static const char snap[] = "{\"v\":1,\"n\":4,\"t\":48,\"b\":\"306000305020006000a3a4a5000000a4a314b50000a5a3a4000000"
				   "b24400b30000a22241113470100020101001020100010000010001000000000001000100111000111079cw0g810Kj3"
				   "2438z100000010\"}";
	json_t *j = json_loads(snap, 0, NULL);
	struct af_state s;
	struct err e = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL_FATAL(af__decode(j, &s, &e), 0);
	json_decref(j);
	for (int level = 0; level <= 2; level++) {
		struct af_state w = s;
		struct af_move m;
		struct rng r;

		rng_seed(&r, 1);
		CU_ASSERT_EQUAL_FATAL(af__bot(&s, s.cur, level, &r, &m), 0);
		CU_ASSERT_EQUAL(m.kind, AF_M_END);
		CU_ASSERT_EQUAL(af__step(&w, s.cur, &m, &r, &e), 0);
	}
}

static void test_af__parse_random_lines(void)
{
	static const char *const words[] = {
		"dock", "use", "discard", "raid", "return", "trade", "cycle", "claim", "launch", "buy", "end",
		"relic", "solar", "mine", "lunar", "market", "shipyard", "constructor", "terraforming", "hub",
		"artifact", "raiders", "lem", "van", "vogt", "heinlein", "pohl", "burroughs", "plasma-cannon",
		"booster-pod", "orbital-teleporter", "polarity-device", "data-crystal", "temporal-warper",
		"gravity-manipulator", "stasis-beam", "isolation", "positron", "p1", "p2", "p3", "p4", "p2:3",
		"p3:r6", "1", "2", "3", "4", "5", "6", "r6", "7", "0", "fuel", "ore", "#", ",", "x", "  ",
	};
	struct af_state s;
	struct rng r;
	int read = 0;

	rng_seed(&r, 2024);
	af__setup(&s, 3, &r);
	for (int i = 0; i < 20000; i++) {
		struct buf line = BUF_INIT, out = BUF_INIT;
		struct af_move m, m2;
		struct err e = { 0 };
		int n = rng_range(&r, 1, 7), rc;

		for (int k = 0; k < n; k++)
			buf_addf(&line, "%s%s", k ? " " : "", words[rng_below(&r, sizeof(words) / sizeof(words[0]))]);
		rc = af__parse(&s, line.data, &m, &e);
		if (rc == 0) {
			read++;
			af__format(&m, &out);
			CU_ASSERT_EQUAL(af__parse(&s, out.data, &m2, &e), 0);
			CU_ASSERT_EQUAL(memcmp(&m, &m2, sizeof(m)), 0);
		} else {
			CU_ASSERT_EQUAL(rc, ERR_INPUT);
			CU_ASSERT(e.msg[0] != 0);
		}
		buf_release(&line);
		buf_release(&out);
	}
	CU_ASSERT(read > 100);
}

static CU_TestInfo prop_cases[] = {
	{ "test_af__parse_random_lines", test_af__parse_random_lines },
	{ "test_af__property_2p", test_af__property_2p },
	{ "test_af__property_3p", test_af__property_3p },
	{ "test_af__property_4p", test_af__property_4p },
	{ "test_af__legal_apply_agree", test_af__legal_apply_agree },
	{ "test_af__greedy_beats_random", test_af__greedy_beats_random },
	{ "test_af__bot_finds_end_past_many_candidates", test_af__bot_finds_end_past_many_candidates },
	CU_TEST_INFO_NULL,
};

int af_test_register_suites(void)
{
	TESTS_SUITE("alien_frontiers_props", NULL, NULL, prop_cases);
	return 0;
}
