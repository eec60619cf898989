/* tests/games/space-station-phoenix/test_ssp_play.c: property tests of Space Station Phoenix (bot games, legal/apply, replay) */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "games/picks_check.h"
#include "ssp_testlib.h"
#include "testutil.h"
#include "util/banned.h"

static int env_int(const char *name, int dflt)
{
	const char *v = getenv(name);
	return v && *v ? (int)strtol(v, NULL, 10) : dflt;
}

static const char *const option_sets[] = { NULL, "{\"hubs\":\"advanced\"}", "{\"first_game\":true}",
					   "{\"hubs\":\"advanced\",\"friendly\":true}" };

/* The result object is well formed: scores, 1-based ranks with shared ties, winners = rank 1. */
static int result_ok(const struct ssp_state *st)
{
	json_t *r = G->result(st), *s, *k, *w;
	int ok = 1, n = st->nplayers;

	if (!r)
		return 0;
	s = json_object_get(r, "scores");
	k = json_object_get(r, "ranks");
	w = json_object_get(r, "winners");
	if (json_array_size(s) != (size_t)n || json_array_size(k) != (size_t)n || json_array_size(w) < 1 ||
	    !json_is_string(json_object_get(r, "tiebreak")))
		ok = 0;
	for (int p = 0; ok && p < n; p++) {
		int rank = (int)json_integer_value(json_array_get(k, (size_t)p)), better = 0;
		for (int q = 0; q < n; q++)
			better += json_integer_value(json_array_get(s, (size_t)q)) >
				  json_integer_value(json_array_get(s, (size_t)p));
		if (rank < 1 || rank > n || rank < better + 1)
			ok = 0;
	}
	for (size_t i = 0; ok && i < json_array_size(w); i++)
		if (json_integer_value(json_array_get(k, (size_t)json_integer_value(json_array_get(w, i)))) != 1)
			ok = 0;
	json_decref(r);
	return ok;
}

/* Steps a game may take; STARVED steps in a row without a ship action end a random game's play early. */
#define MAX_STEPS 20000
#define STARVED 1000

/* Decisions seen outside a seat's own turn (Diplomacy bonuses for the others), by play() with checks. */
static int offturn_seen;

/*
 * Play with bots of the given levels until the end, max steps, or (starve
 * not 0) STARVED steps without a ship action; the step of the last ship
 * action in *last_use (-1: none). Returns the steps, or -1 on a refused move
 * or a broken invariant (message in err).
 */
static int play(struct ssp_state *st, const int *lv, struct rng *r, struct rng *b, int max, int check, int starve,
		int *last_use, struct err *e)
{
	int steps = 0;

	*last_use = -1;
	while (!ssp_rules_over(st) && steps < max && !(starve && steps - *last_use > STARVED)) {
		struct game_pending p;
		void *m = NULL;
		int seat = 0;

		G->pending(st, &p);
		/* only Diplomacy bonuses are decided off one's turn ("your decision"), by the others who qualify */
		if (check && p.offturn != (st->phase == PH_DIPLO ? p.seats & ~(1u << st->active) : 0u))
			return err_set(e, ERR_INTERNAL, "off-turn seats %#x for seats %#x in phase %d", p.offturn,
				       p.seats, (int)st->phase), -1;
		if (check && p.offturn)
			offturn_seen++;
		while (seat < st->nplayers && !(p.seats & (1u << seat)))
			seat++;
		if (seat == st->nplayers)
			return err_set(e, ERR_INTERNAL, "nobody to act but the game is not over"), -1;
		if (G->bot(st, seat, lv[seat], b, &m, e) < 0)
			return -1;
		if (((const struct ssp_move *)m)->kind == MV_USE)
			*last_use = steps;
		if (G->apply(st, seat, m, r, e) < 0) {
			G->move_free(m);
			return -1;
		}
		G->move_free(m);
		if (check && ssp_rules_check(st, e) < 0)
			return -1;
		steps++;
	}
	return steps;
}

/*
 * A game that the dead-position rule ended really was dead: played on with
 * the rule held off (stalled far below zero), nobody ever uses a ship.
 */
static int really_dead(const struct ssp_state *end, struct rng *r, struct rng *b)
{
	struct ssp_state *st = malloc(sizeof(*st));
	int lv[4] = { 0, 0, 0, 0 }, last = -1, s;
	struct err e = { 0 };

	*st = *end;
	st->phase = PH_TURN;
	st->stalled = -1000000;
	s = play(st, lv, r, b, 50 * st->nplayers, 1, 0, &last, &e);
	free(st);
	return s >= 0 && last < 0;
}

/*
 * Random games. The rulebook's ends (40 points, 9 Sectors, 4 or fewer Aliens)
 * or the dead-position rule end most; the dead-position rule only where
 * nobody could ever act again (checked by playing on). Random players can
 * also dismantle every ship and leave no GEM income at all: the rulebook has
 * no end for that ("extremely rare"), so such a game goes on; the test stops
 * playing after STARVED steps without a ship action (no rule ends it). A few
 * random games are live but slower than MAX_STEPS; they must stay few.
 */
static void bot_games(int n, int games)
{
	int finished = 0, failures = 0, dead = 0, starved = 0, rulebook = 0, slow = 0;
	long steps = 0;

	for (int g = 0; g < games; g++) {
		struct rng r, b;
		struct err e = { 0 };
		struct ssp_state *st = t_new(n, option_sets[g % 4], 5000 + (uint64_t)g * 7 + (uint64_t)n, &r);
		int lv[4] = { 0, 0, 0, 0 }, s, last;
		rng_seed(&b, 900 + (uint64_t)g);
		s = play(st, lv, &r, &b, MAX_STEPS, 1, 1, &last, &e);
		if (s < 0) {
			failures++;
			fprintf(stderr, "\n  %dp game %d: %s\n", n, g, e.msg);
		} else if (!ssp_rules_over(st)) {
			if (s - last > STARVED)
				starved++;
			else
				slow++;
		} else if (result_ok(st)) {
			finished++;
			steps += s;
			if (st->end_by >= 0) {
				rulebook++;
			} else {
				dead++;
				CU_ASSERT(really_dead(st, &r, &b));
			}
		}
		if (ssp_rules_over(st)) {
			struct game_pending p;
			G->pending(st, &p);
			CU_ASSERT_EQUAL(p.seats, 0);
		}
		free(st);
	}
	CU_ASSERT_EQUAL(failures, 0);
	CU_ASSERT_EQUAL(finished + starved + slow, games);
	CU_ASSERT(slow * 50 <= games);
	if (getenv("SSP_VERBOSE"))
		fprintf(stderr, "\n  %dp: %d random games: %d by the rulebook, %d dead positions, %d starved, %d live after %d steps; %.0f steps per finished game\n",
			n, games, rulebook, dead, starved, slow, MAX_STEPS, finished ? (double)steps / finished : 0.0);
}

/* Greedy bots (level 1) in every seat: every game ends by the rulebook, never by the dead-position rule. */
static void test_ssp__greedy_games_end_by_rulebook(void)
{
	int games = env_int("SSP_GREEDY_END_GAMES", 6);

	for (int n = 2; n <= 4; n++)
		for (int g = 0; g < games; g++) {
			struct rng r, b;
			struct err e = { 0 };
			struct ssp_state *st = t_new(n, option_sets[g % 4], 8100 + (uint64_t)g * 13 + (uint64_t)n, &r);
			int lv[4] = { 1, 1, 1, 1 }, last;
			rng_seed(&b, 77 + (uint64_t)g);
			CU_ASSERT(play(st, lv, &r, &b, MAX_STEPS, 0, 0, &last, &e) > 0);
			CU_ASSERT(ssp_rules_over(st));
			CU_ASSERT(st->end_by >= 0);
			free(st);
		}
}

static void test_ssp__bot_games_2p(void)
{
	bot_games(2, env_int("SSP_GAMES", 400));
}

static void test_ssp__bot_games_3p(void)
{
	bot_games(3, env_int("SSP_GAMES", 400));
}

static void test_ssp__bot_games_4p(void)
{
	bot_games(4, env_int("SSP_GAMES", 400));
	/* the checked games above reached Diplomacy bonuses decided by players off their turn */
	CU_ASSERT(offturn_seen > 0);
}

static int same_move(const struct ssp_move *a, const struct ssp_move *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

/* At this position: legal moves apply and round-trip through text; other candidates are refused. */
static void check_position(const struct ssp_state *st, int *checked)
{
	static struct ssp_move cand[4096], legal[4096];
	struct ssp_state *t = malloc(sizeof(*t));
	struct game_pending p;

	G->pending(st, &p);
	for (int seat = 0; seat < st->nplayers; seat++) {
		int nc = ssp_rules_candidates(st, seat, cand, 4096), nl = ssp_rules_legal(st, seat, legal, 4096);
		if (!(p.seats & (1u << seat))) {
			CU_ASSERT_EQUAL(nl, 0);
			for (int i = 0; i < nc && i < 3; i++) {
				struct err e = { 0 };
				struct rng r;
				rng_seed(&r, 1);
				*t = *st;
				CU_ASSERT_EQUAL(ssp_rules_apply(t, seat, &cand[i], &r, &e), ERR_FORBIDDEN);
			}
			continue;
		}
		CU_ASSERT(nl > 0);
		for (int i = 0; i < nl; i++) {
			struct buf b = BUF_INIT;
			struct ssp_move back;
			struct err e = { 0 };
			struct rng r;
			ssp_text_format(&legal[i], &b);
			CU_ASSERT_EQUAL(ssp_text_parse(st, b.data, &back, &e), 0);
			if (!same_move(&back, &legal[i]))
				fprintf(stderr, "\n  round trip of \"%s\" differs\n", b.data);
			CU_ASSERT(same_move(&back, &legal[i]));
			buf_release(&b);
			rng_seed(&r, 2);
			*t = *st;
			CU_ASSERT(ssp_rules_apply(t, seat, &legal[i], &r, &e) >= 0);
			CU_ASSERT_EQUAL(ssp_rules_check(t, &e), 0);
		}
		for (int i = 0; i < nc; i++) {
			int is_legal = 0;
			struct err e = { 0 };
			struct rng r;
			for (int j = 0; j < nl && !is_legal; j++)
				is_legal = same_move(&cand[i], &legal[j]);
			if (is_legal)
				continue;
			rng_seed(&r, 3);
			*t = *st;
			{
				int rc = ssp_rules_apply(t, seat, &cand[i], &r, &e);
				CU_ASSERT(rc == ERR_ILLEGAL);
				if (rc == ERR_ILLEGAL)
					CU_ASSERT(strlen(e.msg) > 10);
			}
		}
		(*checked)++;
	}
	free(t);
}

static void test_ssp__legal_apply_agree(void)
{
	int checked = 0, games = env_int("SSP_CHECK_GAMES", 14);

	for (int g = 0; g < games; g++) {
		struct rng r, b;
		struct ssp_state *st = t_new(2 + g % 3, option_sets[g % 4], 777 + (uint64_t)g, &r);
		rng_seed(&b, 31 + (uint64_t)g);
		for (int steps = 0; !ssp_rules_over(st) && steps < 20000; steps++) {
			struct game_pending p;
			void *m = NULL;
			struct err e = { 0 };
			int seat = 0;
			if (steps % 7 == 0)
				check_position(st, &checked);
			G->pending(st, &p);
			while (!(p.seats & (1u << seat)))
				seat++;
			if (G->bot(st, seat, 0, &b, &m, &e) < 0 || G->apply(st, seat, m, &r, &e) < 0) {
				CU_FAIL("bot move refused");
				G->move_free(m);
				break;
			}
			G->move_free(m);
		}
		free(st);
	}
	CU_ASSERT(checked > 100);
}

/* Replay: the same seed and move texts give the same snapshots; each snapshot decoded and advanced gives the next. */
static void test_ssp__replay_snapshots(void)
{
	int games = env_int("SSP_REPLAY_GAMES", 8);

	for (int g = 0; g < games; g++) {
		struct rng r, b, r2;
		int n = 2 + g % 3;
		struct ssp_state *st = t_new(n, option_sets[(g + 1) % 4], 4242 + (uint64_t)g, &r), *re;
		json_t *snaps = json_array(), *moves = json_array(), *prev = NULL;
		struct err e = { 0 };
		rng_seed(&b, 99 + (uint64_t)g);
		G->encode(st, &prev, &e);
		json_array_append(snaps, prev);
		json_decref(prev);
		int last_use = -1;
		while (!ssp_rules_over(st) && json_array_size(moves) < MAX_STEPS &&
		       (int)json_array_size(moves) - last_use <= STARVED) {
			struct game_pending p;
			void *m = NULL;
			struct buf txt = BUF_INIT;
			json_t *snap = NULL, *again = NULL;
			void *dec = NULL;
			int seat = 0;
			char rngtxt[96];
			G->pending(st, &p);
			while (!(p.seats & (1u << seat)))
				seat++;
			if (G->bot(st, seat, json_array_size(moves) % 3 == 0 ? 1 : 0, &b, &m, &e) < 0)
				break;
			if (((const struct ssp_move *)m)->kind == MV_USE)
				last_use = (int)json_array_size(moves);
			G->format(st, m, &txt, &e);
			/* decode the previous snapshot and apply the same text: the server's path */
			CU_ASSERT_EQUAL(G->decode(json_array_get(snaps, json_array_size(snaps) - 1), &dec, &e), 0);
			r2 = r;
			CU_ASSERT(t_do(dec, seat, txt.data, &r2, &e) >= 0);
			CU_ASSERT(G->apply(st, seat, m, &r, &e) >= 0);
			G->move_free(m);
			G->encode(st, &snap, &e);
			G->encode(dec, &again, &e);
			CU_ASSERT(json_equal(snap, again));
			G->state_free(dec);
			json_decref(again);
			/* decode(encode(s)) re-encodes identically */
			CU_ASSERT_EQUAL(G->decode(snap, &dec, &e), 0);
			G->encode(dec, &again, &e);
			CU_ASSERT(json_equal(snap, again));
			G->state_free(dec);
			json_decref(again);
			rng_encode(&r, rngtxt);
			json_array_append_new(moves, json_pack("{s:i,s:s}", "seat", seat, "text", txt.data));
			json_array_append_new(snaps, snap);
			buf_release(&txt);
		}
		/* over, or starved (see bot_games) */
		CU_ASSERT(ssp_rules_over(st) || (int)json_array_size(moves) - last_use > STARVED);
		/* a full replay from the seed through the texts reproduces every snapshot */
		re = t_new(n, option_sets[(g + 1) % 4], 4242 + (uint64_t)g, &r2);
		for (size_t i = 0; i < json_array_size(moves); i++) {
			json_t *mv = json_array_get(moves, i), *snap = NULL;
			int rc = t_do(re, (int)json_integer_value(json_object_get(mv, "seat")),
				      json_string_value(json_object_get(mv, "text")), &r2, &e);
			CU_ASSERT(rc >= 0);
			G->encode(re, &snap, &e);
			CU_ASSERT(json_equal(snap, json_array_get(snaps, i + 1)));
			json_decref(snap);
			if (rc < 0)
				break;
		}
		{
			char *a = json_dumps(json_array_get(snaps, json_array_size(snaps) - 1), JSON_COMPACT);
			if (getenv("SSP_VERBOSE"))
				fprintf(stderr, "\n  snapshot %zu bytes after %zu moves\n", strlen(a), json_array_size(moves));
			CU_ASSERT(strlen(a) < 4000);
			free(a);
		}
		free(re);
		free(st);
		json_decref(snaps);
		json_decref(moves);
	}
}

/* The greedy bot (level 1) beats the random bot (level 0) in most two-player games. */
static void test_ssp__greedy_beats_random(void)
{
	int games = env_int("SSP_GREEDY_GAMES", 40), wins = 0;

	for (int g = 0; g < games; g++) {
		struct rng r, b;
		struct err e = { 0 };
		struct ssp_state *st = t_new(2, g % 2 ? "{\"hubs\":\"advanced\"}" : NULL, 31337 + (uint64_t)g, &r);
		int greedy = g % 2, lv[4] = { 0, 0, 0, 0 };
		json_t *res;
		lv[greedy] = 1;
		rng_seed(&b, 555 + (uint64_t)g);
		{
			int last;
			/* a game the random player starves (see bot_games) is no win */
			CU_ASSERT(play(st, lv, &r, &b, MAX_STEPS, 0, 1, &last, &e) > 0);
		}
		res = G->result(st);
		if (res && json_integer_value(json_array_get(json_object_get(res, "ranks"), (size_t)greedy)) == 1)
			wins++;
		json_decref(res);
		free(st);
	}
	if (getenv("SSP_VERBOSE"))
		fprintf(stderr, "\n  greedy won %d of %d two-player games against random\n", wins, games);
	/*
	 * level 1 wins about 69 % (138 and 139 of 200 games, before and after
	 * two same ship cards became one choice); 40 games vary by about 7 %
	 * around it (28 and 24 of 40), so the bar is 55 %
	 */
	CU_ASSERT(wins * 20 >= games * 11);
}

/*
 * Taps on the board (game_ops.picks): on positions of random and greedy
 * games every legal step is cut into well-formed parts, no two alike, and
 * the board draws what is offered; a few cuts by name.
 */
static void test_ssp__picks(void)
{
	int faults = 0, games = env_int("SSP_PICKS_GAMES", 4), trades = 0, priced = 0, grouped = 0;

	for (int g = 0; g < games; g++) {
		struct rng r, b;
		int n = 2 + g % 3;
		struct ssp_state *st = t_new(n, option_sets[g % 4], 9100 + (uint64_t)g, &r);
		rng_seed(&b, 17 + (uint64_t)g);
		for (int steps = 0; !ssp_rules_over(st) && steps < 3000 && faults < 10; steps++) {
			struct game_pending p;
			void *m = NULL;
			struct err e = { 0 };
			int seat = 0;
			G->pending(st, &p);
			while (!(p.seats & (1u << seat)))
				seat++;
			if (steps % 5 == 0 || strcmp(p.kind, "turn"))
				faults += picks_check(G, st, seat, n);
			if (!strcmp(p.kind, "transport")) {
				struct game_pick last;
				char parts[128];
				/*
				 * a trade is the pair given then the resource got, priced on the second,
				 * after "Trade two resources for one" when two pairs or more can be given
				 */
				if (picks_of(G, st, seat, "trade food water for metal", parts, sizeof(parts), &last) == 0) {
					if (strcmp(parts, "give-food-water get-metal"))
						ASSERT_STR_EQ(parts, "trade give-food-water get-metal");
					grouped += !strncmp(parts, "trade ", 6);
					/* priced when the player can pay */
					if (st->pl[seat].res[SSP_FOOD] && st->pl[seat].res[SSP_WATER]) {
						/* the last transaction ends the action: what follows it at once (a sole 1-GEM bonus) too */
						CU_ASSERT(!strncmp(last.cost, "pay 1 food, 1 water: ", 21) && strstr(last.cost, "+1 metal"));
						trades++;
					}
				}
				/* the first tap of a trade or an Alien says what it takes, wherever the step goes on */
				{
					struct ssp_move lm[256];
					struct game_pick o[GAME_MAX_PICKS];
					struct err e2 = { 0 };
					int nl = ssp_rules_legal(st, seat, lm, 256);
					for (int i = 0; i < nl; i++) {
						const struct ssp_move *x = &lm[i];
						char want[64];
						if (x->kind == MV_ALIEN)
							snprintf(want, sizeof(want), "pay %s1 food, 1 water", x->a == SSP_GOLD ? "1 GEM, " : "");
						else if (x->kind == MV_TRADE && x->a == x->b)
							snprintf(want, sizeof(want), "pay 2 %s", ssp_text_res(x->a));
						else if (x->kind == MV_TRADE)
							snprintf(want, sizeof(want), "pay 1 %s, 1 %s", ssp_text_res(x->a), ssp_text_res(x->b));
						else
							continue;
						{
							int np = ssp_picks(st, seat, x, o, GAME_MAX_PICKS, &e2);
							int k = np == 3 && !strcmp(o[0].part, "trade");
							CU_ASSERT_FATAL(np == 2 + k);
							ASSERT_STR_EQ(o[k].cost, want);
							if (k)
								ASSERT_STR_EQ(o[0].cost, "pay 2 resources: +1 resource");
						}
						priced++;
					}
				}
				/* one that gives back what it takes is no choice at all */
				if (G->parse(st, seat, "trade food water for food", &m, &e) == 0) {
					struct ssp_state copy = *st;
					CU_ASSERT_EQUAL(G->apply(&copy, seat, m, &r, &e), ERR_ILLEGAL);
					CU_ASSERT(strstr(e.msg, "gives back what it takes") != NULL);
					G->move_free(m);
					m = NULL;
				}
			}
			if (G->bot(st, seat, g % 2, &b, &m, &e) < 0 || G->apply(st, seat, m, &r, &e) < 0) {
				CU_FAIL("bot move refused");
				G->move_free(m);
				break;
			}
			G->move_free(m);
		}
		free(st);
	}
	CU_ASSERT_EQUAL(faults, 0);
	CU_ASSERT(trades > 0);
	CU_ASSERT(priced > 0);
	CU_ASSERT(grouped > 0);
}

/* The first tap of a cut had every ship been a first tap: the ship's card after its kind. */
static const char *flat(const struct game_pick *cut)
{
	return strncmp(cut[0].part, "ships-", 6) ? cut[0].part : cut[1].part;
}

/*
 * The first level of choice at a turn's start (issue: about a dozen controls
 * before you start choosing). At every turn's start of bot games the legal
 * steps are cut into taps and the distinct first taps counted: at most 12
 * (there were 20 when every ship was a first tap).
 * A kind of ship is a tap of its own only when it leads to two ships or
 * more, and says the same (count, prices) whichever ship's cut offers it.
 * SSP_START_GAMES sets the games; the counts are printed.
 */
static void test_ssp__turn_start_taps(void)
{
	int games = env_int("SSP_START_GAMES", 12), starts = 0, most = 0, faults = 0, flat_most = 0;
	long taps = 0, steps = 0, grouped = 0, flat_taps = 0;
	struct ssp_move *legal = malloc(1024 * sizeof(*legal));
	struct game_pick(*cut)[GAME_MAX_PICKS] = malloc(1024 * sizeof(*cut));
	int *np = malloc(1024 * sizeof(*np));

	CU_ASSERT_FATAL(legal != NULL && cut != NULL && np != NULL);
	for (int g = 0; g < games && faults < 10; g++) {
		struct rng r, b;
		int n = 2 + g % 3;
		struct ssp_state *st = t_new(n, option_sets[g % 4], 7300 + (uint64_t)g, &r);
		rng_seed(&b, 31 + (uint64_t)g);
		for (int k = 0; !ssp_rules_over(st) && k < 3000 && faults < 10; k++) {
			struct game_pending p;
			int seat = 0, nl, first = 0, flat_first = 0;
			void *m = NULL;
			struct err e = { 0 };
			G->pending(st, &p);
			while (!(p.seats & (1u << seat)))
				seat++;
			if (st->phase == PH_TURN && !st->ntask && !st->acting && seat == st->active) {
				nl = ssp_rules_legal(st, seat, legal, 1024);
				for (int i = 0; i < nl; i++) {
					np[i] = ssp_picks(st, seat, &legal[i], cut[i], GAME_MAX_PICKS, &e);
					if (np[i] < 1) {
						fprintf(stderr, "\n  turn start: a step is not cut: %s\n", e.msg);
						faults++;
					}
				}
				for (int i = 0; i < nl; i++) {
					int dup = 0, same = 0, dup1 = 0;
					/* the first taps had every ship been one (as before the kinds): for the figures */
					for (int j = 0; j < i && !dup1; j++)
						dup1 = np[j] > 0 && np[i] > 0 && !strcmp(flat(cut[j]), flat(cut[i]));
					flat_first += np[i] > 0 && !dup1;
					for (int j = 0; j < i && !dup; j++)
						dup = np[j] > 0 && !strcmp(cut[j][0].part, cut[i][0].part);
					if (np[i] < 1 || dup)
						continue;
					first++;
					if (strncmp(cut[i][0].part, "ships-", 6))
						continue;
					/* a kind leads to two ships or more, each cut offering it alike */
					for (int j = i; j < nl; j++) {
						if (np[j] < 1 || strcmp(cut[j][0].part, cut[i][0].part))
							continue;
						same++;
						if (np[j] != 2 || strcmp(cut[j][0].label, cut[i][0].label) ||
						    strcmp(cut[j][0].cost, cut[i][0].cost))
							faults++;
					}
					grouped += same;
					if (same < 2) {
						fprintf(stderr, "\n  turn start: %s leads to %d ship\n", cut[i][0].part, same);
						faults++;
					}
				}
				starts++;
				steps += nl;
				taps += first;
				most = first > most ? first : most;
				flat_taps += flat_first;
				flat_most = flat_first > flat_most ? flat_first : flat_most;
			}
			/* the greedy levels play as people do: a random player starves and only takes income */
			if (G->bot(st, seat, 1 + (g + seat) % 2, &b, &m, &e) < 0 || G->apply(st, seat, m, &r, &e) < 0) {
				CU_FAIL("bot move refused");
				G->move_free(m);
				break;
			}
			G->move_free(m);
		}
		free(st);
	}
	free(legal);
	free(cut);
	free(np);
	if (starts)
		fprintf(stderr, "\n  %d turn starts in %d games: %.1f legal steps, %.1f first taps on average, %d at most"
				" (%.1f and %d with every ship a first tap); %.1f steps start with a kind of ship\n",
			starts, games, (double)steps / starts, (double)taps / starts, most, (double)flat_taps / starts,
			flat_most, (double)grouped / starts);
	CU_ASSERT(starts > 10 * games);
	CU_ASSERT_EQUAL(faults, 0);
	CU_ASSERT(most <= 12);
}

/* st with ships a and b swapped: what one card's state is, the other's (the same card: see ssp_rules_first_card). */
static void swap_cards(struct ssp_state *st, int a, int b)
{
	int l = st->ship_loc[a], u = st->ship_used[a];

	st->ship_loc[a] = st->ship_loc[b];
	st->ship_used[a] = st->ship_used[b];
	st->ship_loc[b] = l;
	st->ship_used[b] = u;
	if (st->act_ship == a || st->act_ship == b)
		st->act_ship = st->act_ship == a ? b : a;
}

/* The step m with its ship replaced by ship (for the kinds of step that name a ship). */
static int names_ship(const struct ssp_move *m)
{
	return m->kind == MV_USE || m->kind == MV_DISMANTLE || m->kind == MV_DISCARD || m->kind == MV_DRAFT;
}

/*
 * Equivalent choices (issue: not offered as separate choices). On positions
 * of bot games at 2 to 4 players:
 * - legal() names one of two same cards (the same printed values, one
 *   place, used alike: transport-2a and transport-2b of one owner, both
 *   unused), the first; a step naming the other is accepted as that card
 *   and leaves the position the first one leaves, with the two cards'
 *   places swapped;
 * - no two legal steps leave the same position (and draw the same);
 * - a trade that gives back what it takes is never legal.
 * The counts are printed: the steps the same cards no longer add, and the
 * keeps that leave a resource die unkept though room is left (allowed by
 * the rulebook's "up to", so they stay).
 */
static void test_ssp__same_cards_one_choice(void)
{
	int games = env_int("SSP_SAME_GAMES", 6), faults = 0;
	long positions = 0, twins = 0, same = 0, fewer = 0, giveback = 0, steps = 0;
	struct ssp_move *legal = malloc(1024 * sizeof(*legal));
	struct ssp_state *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	uint64_t *h = malloc(1024 * sizeof(*h));

	CU_ASSERT_FATAL(legal != NULL && a != NULL && b != NULL && h != NULL);
	for (int g = 0; g < games && faults < 10; g++) {
		struct rng r, bot;
		int n = 2 + g % 3;
		struct ssp_state *st = t_new(n, option_sets[g % 4], 8800 + (uint64_t)g, &r);
		rng_seed(&bot, 71 + (uint64_t)g);
		for (int k = 0; !ssp_rules_over(st) && k < 3000 && faults < 10; k++) {
			struct game_pending p;
			int seat = 0, nl;
			void *m = NULL;
			struct err e = { 0 };
			G->pending(st, &p);
			while (!(p.seats & (1u << seat)))
				seat++;
			nl = ssp_rules_legal(st, seat, legal, 1024);
			positions++;
			steps += nl;
			for (int i = 0; i < nl; i++) {
				const struct ssp_move *x = &legal[i];
				struct rng r1;
				/* each legal step's position, hashed (FNV-1a over the plain state) */
				*a = *st;
				rng_seed(&r1, 5);
				CU_ASSERT(ssp_rules_apply(a, seat, x, &r1, NULL) >= 0);
				h[i] = 14695981039346656037ull;
				for (size_t j = 0; j < sizeof(*a); j++)
					h[i] = (h[i] ^ ((const unsigned char *)a)[j]) * 1099511628211ull;
				h[i] ^= r1.draws;
				for (int j = 0; j < i; j++)
					if (h[j] == h[i]) {
						if (same++ < 3)
							fprintf(stderr, "\n  two legal steps leave the same position (%d, %d)\n", j, i);
					}
				if (x->kind == MV_TRADE && (x->c == x->a || x->c == x->b))
					giveback++;
				if (x->kind == MV_KEEP) {
					int kept = 0;
					for (int v = 0; v < 5; v++)
						kept += x->v[v];
					for (int f = 0; f < 3; f++)
						if (kept < st->task[0].a && x->v[f] < st->dice[f]) {
							fewer++;
							break;
						}
				}
				if (!names_ship(x))
					continue;
				CU_ASSERT_EQUAL(ssp_rules_first_card(st, x->a), x->a);
				/* every other card the same as this one: not listed, accepted as itself, the same position */
				for (int o = x->a + 1; o < SSP_NSHIPS; o++) {
					struct ssp_move y = *x;
					struct rng r2;
					struct err e2 = { 0 };
					if (ssp_rules_first_card(st, o) != x->a)
						continue;
					twins++;
					y.a = o;
					for (int j = 0; j < nl; j++)
						if (!memcmp(&legal[j], &y, sizeof(y))) {
							fprintf(stderr, "\n  %s and %s are both listed\n", ssp_ships[x->a].id, ssp_ships[o].id);
							faults++;
						}
					*b = *st;
					rng_seed(&r2, 5);
					if (ssp_rules_apply(b, seat, &y, &r2, &e2) < 0) {
						fprintf(stderr, "\n  the same card %s is refused: %s\n", ssp_ships[o].id, e2.msg);
						faults++;
						continue;
					}
					swap_cards(b, x->a, o);
					if (memcmp(a, b, sizeof(*a)) || r1.draws != r2.draws) {
						fprintf(stderr, "\n  %s and %s leave different positions\n", ssp_ships[x->a].id,
							ssp_ships[o].id);
						faults++;
					}
				}
			}
			if (G->bot(st, seat, (g + seat + k) % 3, &bot, &m, &e) < 0 || G->apply(st, seat, m, &r, &e) < 0) {
				CU_FAIL("bot move refused");
				G->move_free(m);
				break;
			}
			G->move_free(m);
		}
		free(st);
	}
	free(legal);
	free(a);
	free(b);
	free(h);
	fprintf(stderr, "\n  %ld positions in %d games, %ld legal steps: %ld steps naming a same card are no longer listed"
			" (%.1f %%), %ld pairs of steps leave one position, %ld trades give back what they take;"
			" %ld keeps leave a resource die unkept with room left\n",
		positions, games, steps, twins, steps ? 100.0 * (double)twins / (double)(steps + twins) : 0.0, same,
		giveback, fewer);
	CU_ASSERT(positions > 100 * games);
	CU_ASSERT(twins > 0);
	CU_ASSERT_EQUAL(faults, 0);
	CU_ASSERT_EQUAL(same, 0);
	CU_ASSERT_EQUAL(giveback, 0);
}

/*
 * The first level of every decision, not only of a turn's start (issue: a
 * dozen taps at most before you start choosing). At every decision of bot
 * games at 2 to 4 players (turn starts, each step of an action, set-up
 * drafts and hubs, Diplomacy bonuses, for every seat asked) the legal steps
 * are cut into taps and the distinct first taps counted, by the kind of
 * decision: at most 12 each (the dice of an Expedition came to 21, the
 * Sectors of a Construction to 15, a Transport's transactions to 14). At a
 * turn's start every first tap says what it costs or gives.
 * SSP_DECISION_GAMES sets the games; the counts are printed.
 */
#define NKINDS 24
static void test_ssp__decision_taps(void)
{
	int games = env_int("SSP_DECISION_GAMES", 12), faults = 0, nk = 0, unpriced = 0, with_human = 0;
	struct {
		char kind[32];
		long seen, taps;
		int most;
	} k[NKINDS];
	long all = 0, all_taps = 0;
	int all_most = 0;
	struct ssp_move *legal = malloc(1024 * sizeof(*legal));
	struct game_pick(*cut)[GAME_MAX_PICKS] = malloc(1024 * sizeof(*cut));

	CU_ASSERT_FATAL(legal != NULL && cut != NULL);
	memset(k, 0, sizeof(k));
	for (int g = 0; g < games && faults < 10; g++) {
		struct rng r, b;
		int n = 2 + g % 3;
		struct ssp_state *st = t_new(n, option_sets[g % 4], 5100 + (uint64_t)g, &r);
		rng_seed(&b, 61 + (uint64_t)g);
		for (int step = 0; !ssp_rules_over(st) && step < 3000 && faults < 10; step++) {
			struct game_pending p;
			int seat = 0;
			void *m = NULL;
			struct err e = { 0 };
			G->pending(st, &p);
			for (int s = 0; s < n; s++) {
				int nl, first = 0, ki, start;
				if (!(p.seats & (1u << s)))
					continue;
				start = st->phase == PH_TURN && !st->ntask && !st->acting && s == st->active;
				nl = ssp_rules_legal(st, s, legal, 1024);
				for (int i = 0; i < nl; i++) {
					int np = ssp_picks(st, s, &legal[i], cut[i], GAME_MAX_PICKS, &e), dup = 0;
					if (np < 1) {
						fprintf(stderr, "\n  %s: a step is not cut: %s\n", p.kind, e.msg);
						faults++;
						cut[i][0].part[0] = '\0';
						continue;
					}
					for (int j = 0; j < i && !dup; j++)
						dup = !strcmp(cut[j][0].part, cut[i][0].part);
					if (dup)
						continue;
					first++;
					/* what the first tap offers (the first step's cut of that part) costs or gives something */
					if (start && !cut[i][0].cost[0]) {
						if (unpriced++ < 5)
							fprintf(stderr, "\n  turn start: no price on %s (%s)\n", cut[i][0].part,
								cut[i][0].label);
					}
					/* Hub A-8's Income with a Human: the Human's price and the income, wherever it goes */
					if (start && !strcmp(cut[i][0].part, "act-income-human")) {
						with_human++;
						CU_ASSERT(strstr(cut[i][0].cost, "for the Human") || strstr(cut[i][0].cost, "income"));
					}
				}
				for (ki = 0; ki < nk && strcmp(k[ki].kind, start ? "turn start" : p.kind); ki++)
					;
				if (ki == nk && nk < NKINDS)
					snprintf(k[nk++].kind, sizeof(k[0].kind), "%s", start ? "turn start" : p.kind);
				if (ki < nk) {
					k[ki].seen++;
					k[ki].taps += first;
					k[ki].most = first > k[ki].most ? first : k[ki].most;
				}
				all++;
				all_taps += first;
				all_most = first > all_most ? first : all_most;
			}
			while (!(p.seats & (1u << seat)))
				seat++;
			/* the greedy levels play as people do: a random player starves and only takes income */
			if (G->bot(st, seat, 1 + (g + seat) % 2, &b, &m, &e) < 0 || G->apply(st, seat, m, &r, &e) < 0) {
				CU_FAIL("bot move refused");
				G->move_free(m);
				break;
			}
			G->move_free(m);
		}
		free(st);
	}
	free(legal);
	free(cut);
	fprintf(stderr, "\n  %ld decisions in %d games: %.1f first taps on average, %d at most; %d turn starts offered"
			" Income with a Human\n", all, games, all ? (double)all_taps / all : 0.0, all_most, with_human);
	for (int i = 0; i < nk; i++) {
		fprintf(stderr, "    %-12s %6ld decisions, %4.1f first taps on average, %2d at most\n", k[i].kind, k[i].seen,
			(double)k[i].taps / k[i].seen, k[i].most);
		CU_ASSERT(k[i].most <= 12);
	}
	CU_ASSERT(all > 100 * games);
	CU_ASSERT_EQUAL(faults, 0);
	CU_ASSERT_EQUAL(unpriced, 0);
	CU_ASSERT(all_most <= 12);
	/* bot games reach Hub A-8 now and then (not in these): one position by hand too */
	{
		static const int hubs[2] = { 11 + 8, 4 }; /* A-8, B-5 */
		struct ssp_state *st = t_blank(2, hubs);
		struct ssp_move x = { .kind = MV_INCOME };
		struct game_pick o[GAME_MAX_PICKS];
		struct err e = { 0 };
		t_build(st, 0, 101, "..");
		t_build(st, 0, 111, "t..");
		for (int r = 0; r < 3; r++)
			st->pl[0].res[r] = 2;
		x.a = ssp_data_sector_find(101);
		CU_ASSERT_FATAL(t_is_legal(st, 0, "income human 101"));
		CU_ASSERT_EQUAL_FATAL(ssp_picks(st, 0, &x, o, GAME_MAX_PICKS, &e), 2);
		ASSERT_STR_EQ(o[0].part, "act-income-human");
		CU_ASSERT(!strncmp(o[0].cost, "pay 1 food, 1 water, 1 metal for the Human: income +", 52));
		fprintf(stderr, "  Income with a Human (by hand): %s\n", o[0].cost);
		free(st);
	}
}

static CU_TestInfo play_cases[] = {
	{ "test_ssp__bot_games_2p", test_ssp__bot_games_2p },
	{ "test_ssp__bot_games_3p", test_ssp__bot_games_3p },
	{ "test_ssp__bot_games_4p", test_ssp__bot_games_4p },
	{ "test_ssp__legal_apply_agree", test_ssp__legal_apply_agree },
	{ "test_ssp__replay_snapshots", test_ssp__replay_snapshots },
	{ "test_ssp__greedy_beats_random", test_ssp__greedy_beats_random },
	{ "test_ssp__greedy_games_end_by_rulebook", test_ssp__greedy_games_end_by_rulebook },
	{ "test_ssp__picks", test_ssp__picks },
	{ "test_ssp__turn_start_taps", test_ssp__turn_start_taps },
	{ "test_ssp__decision_taps", test_ssp__decision_taps },
	{ "test_ssp__same_cards_one_choice", test_ssp__same_cards_one_choice },
	CU_TEST_INFO_NULL,
};

int ssp_play_register(void)
{
	TESTS_SUITE("space_station_phoenix_play", NULL, NULL, play_cases);
	return 0;
}
