/* tests/games/starship-merchants/test_sm_rules.c: one CUnit case per rule of Starship Merchants */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/starship-merchants/sm_internal.h"
#include "games/starship-merchants/sm_data.h"
#include "games/starship-merchants/starship_merchants.h"
#include "sm_testlib.h"
#include "testutil.h"

#include "util/banned.h"

static int card_id(const char *slug)
{
	for (int c = 0; c < SM_NCARDS; c++)
		if (!strcmp(sm_cards[c].slug, slug))
			return c;
	CU_FAIL("unknown card");
	return 0;
}

static int dest_id(const char *slug)
{
	for (int d = 0; d < SM_NDESTS; d++)
		if (!strcmp(sm_dests[d].slug, slug))
			return d;
	CU_FAIL("unknown destination");
	return 0;
}

/* Put seat at place, about to start its turn. */
static void at(struct sm_state *s, int seat, int place)
{
	s->cur = seat;
	s->phase = SM_PH_START;
	s->p[seat].pos = place;
	if (place >= SM_BELT)
		s->p[seat].belt_seen = 1;
	for (int k = 0; k < SM_NKINDS && place >= SM_BELT; k++) {
		s->p[seat].local[k] += s->p[seat].setup[k];
		s->p[seat].setup[k] = 0;
	}
}

static int refused(struct sm_state *s, const char *text, int code, const char *needle, struct rng *rng)
{
	struct err e = { 0 };
	int rc = t_do(s, s->cur, text, rng, &e);

	if (rc != code || (needle && !strstr(e.msg, needle)))
		fprintf(stderr, "\n  \"%s\": got %d \"%s\", expected %d containing \"%s\"\n", text, rc, e.msg, code,
			needle ? needle : "");
	return rc == code && (!needle || strstr(e.msg, needle));
}

static void test_sm__setup_2_3_4(void)
{
	for (int n = 2; n <= 4; n++) {
		struct rng r;
		struct sm_state *s = t_new(n, 7, &r);
		struct game_pending pend;
		json_t *legal = NULL;
		struct err e = { 0 };
		int totals[SM_NKINDS];

		CU_ASSERT_FATAL(s != NULL);
		CU_ASSERT_EQUAL(s->n, n);
		CU_ASSERT_EQUAL(s->era, 1);
		for (int p = 0; p < n; p++) {
			/* every player starts with 15 credits (the published game) */
			CU_ASSERT_EQUAL(s->p[p].credits, 15);
			CU_ASSERT_EQUAL(sm_start_credits(n, p), 15);
			CU_ASSERT_EQUAL(s->p[p].pos, SM_SHIPYARD);
			CU_ASSERT_EQUAL(s->p[p].nships, 0);
			CU_ASSERT_EQUAL(s->p[p].setup[SM_COBALT], 1);
		}
		sm_state_token_totals(s, totals);
		for (int k = 0; k < SM_NKINDS; k++) {
			CU_ASSERT_EQUAL(totals[k], sm_kinds[k].bag[n - 2]);
			CU_ASSERT_EQUAL(s->bag[k], sm_kinds[k].bag[n - 2] - n * sm_kinds[k].setup);
		}
		for (int m = 0; m < SM_NMARKS; m++)
			for (int t = 0; t < SM_NTYPES; t++)
				CU_ASSERT_EQUAL(s->supply[m][t], sm_ships[m][t].supply[n - 2]);
		for (int i = 0; i < SM_MARKET_SLOTS; i++)
			CU_ASSERT(s->mdisp[i] >= 0 && sm_cards[s->mdisp[i]].cat != SM_CARD_REFINERY);
		for (int i = 0; i < SM_REFINERY_SLOTS; i++)
			CU_ASSERT(s->rdisp[i] >= 0 && sm_cards[s->rdisp[i]].cat == SM_CARD_REFINERY);
		for (int i = 0; i < SM_DEST_SLOTS; i++)
			CU_ASSERT(s->ddisp[i] >= 0);
		game_starship_merchants.pending(s, &pend);
		CU_ASSERT_EQUAL(pend.seats, 1u);
		ASSERT_STR_EQ(pend.kind, "turn");
		CU_ASSERT_EQUAL(game_starship_merchants.legal(s, 0, &legal, &e), 0);
		CU_ASSERT_EQUAL(json_array_size(legal), 3);
		ASSERT_STR_EQ(json_string_value(json_array_get(legal, 0)), "stay");
		ASSERT_STR_EQ(json_string_value(json_array_get(legal, 1)), "move");
		ASSERT_STR_EQ(json_string_value(json_array_get(legal, 2)), "pass");
		json_decref(legal);
		CU_ASSERT_EQUAL(game_starship_merchants.legal(s, 1, &legal, &e), 0);
		CU_ASSERT_EQUAL(json_array_size(legal), 0);
		json_decref(legal);
		CU_ASSERT_PTR_NULL(game_starship_merchants.result(s));
		sm_state_free(s);
	}
}

static void test_sm__setup_rejects(void)
{
	struct rng r;
	void *s = NULL;
	struct err e = { 0 };
	json_t *opt = json_pack("{s:i}", "speed", 2), *empty = json_object();

	rng_seed(&r, 1);
	CU_ASSERT_EQUAL(game_starship_merchants.setup(NULL, 1, &r, &s, &e), ERR_INPUT);
	CU_ASSERT_PTR_NULL(s);
	CU_ASSERT_EQUAL(game_starship_merchants.setup(NULL, 5, &r, &s, &e), ERR_INPUT);
	CU_ASSERT(strstr(e.msg, "2 to 4") != NULL);
	CU_ASSERT_EQUAL(game_starship_merchants.setup(opt, 2, &r, &s, &e), ERR_INPUT);
	CU_ASSERT(strstr(e.msg, "speed") != NULL);
	CU_ASSERT_EQUAL(game_starship_merchants.setup(empty, 2, &r, &s, &e), 0);
	game_starship_merchants.state_free(s);
	json_decref(opt);
	json_decref(empty);
}

static void test_sm__turn_options(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 3, &r);

	/* act here */
	t_ok(s, "stay", &r);
	CU_ASSERT_EQUAL(s->phase, SM_PH_SHIPYARD);
	t_ok(s, "buy tug", &r);
	CU_ASSERT_EQUAL(s->cur, 1);
	/* move on and act: arriving at the Market */
	t_ok(s, "move", &r);
	CU_ASSERT_EQUAL(s->p[1].pos, SM_MARKET);
	CU_ASSERT_EQUAL(s->phase, SM_PH_MARKET);
	CU_ASSERT(t_legal_has(s, 1, "done"));
	t_ok(s, "done", &r);
	CU_ASSERT_EQUAL(s->cur, 0);
	/* move on and pass */
	t_ok(s, "pass", &r);
	CU_ASSERT_EQUAL(s->p[0].pos, SM_MARKET);
	CU_ASSERT_EQUAL(s->cur, 1);
	CU_ASSERT_EQUAL(s->phase, SM_PH_START);
	sm_state_free(s);
}

static void test_sm__shipyard_buy(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 3, &r);
	const struct sm_ship_kind *k = &sm_ships[0][SM_SCOUT];

	t_ok(s, "stay", &r);
	t_ok(s, "buy scout", &r);
	CU_ASSERT_EQUAL(s->p[0].nships, 1);
	CU_ASSERT_EQUAL(s->p[0].credits, 15 - k->cost);
	CU_ASSERT_EQUAL(s->p[0].ships[0].no, 1);
	CU_ASSERT_EQUAL(s->p[0].ships[0].mark, 1);
	CU_ASSERT_EQUAL(s->p[0].ships[0].loans, 0);
	CU_ASSERT_EQUAL(sm_ship_energy(&s->p[0].ships[0]), k->energy);
	CU_ASSERT_EQUAL(sm_ship_capacity(&s->p[0].ships[0]), k->cargo);
	CU_ASSERT_EQUAL(s->supply[0][SM_SCOUT], k->supply[0] - 1);
	/* only one ship per action: the turn ended */
	CU_ASSERT_EQUAL(s->cur, 1);
	/* not enough credits: the message names the numbers */
	s->p[1].credits = 5;
	t_ok(s, "stay", &r);
	CU_ASSERT(refused(s, "buy tug", ERR_ILLEGAL, "costs 8 credits; you have 5", &r));
	CU_ASSERT(t_legal_has(s, 1, "lease tug"));
	/* nothing affordable: the action ends by itself */
	at(s, 1, SM_SHIPYARD);
	s->p[1].credits = 3;
	t_ok(s, "stay", &r);
	CU_ASSERT_EQUAL(s->cur, 0);
	CU_ASSERT_EQUAL(s->p[1].nships, 0);
	sm_state_free(s);
}

static void test_sm__lease_and_loan_arithmetic(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 3, &r);
	int cost = sm_ships[0][SM_SCOUT].cost;

	t_ok(s, "stay", &r);
	t_ok(s, "lease scout", &r);
	CU_ASSERT_EQUAL(s->p[0].credits, 15 - cost / 2);
	CU_ASSERT_EQUAL(s->p[0].ships[0].loans, 2);
	CU_ASSERT_EQUAL(sm_player_loan_debt(&s->p[0]), cost);
	/* back at the Shipyard: two markers at half price each */
	at(s, 0, SM_DOCK);
	s->p[0].credits = 20;
	t_ok(s, "move", &r);
	t_ok(s, "repay ship 1", &r);
	CU_ASSERT_EQUAL(s->p[0].credits, 20 - cost / 2);
	CU_ASSERT_EQUAL(s->phase, SM_PH_SHIPYARD); /* may repay more */
	t_ok(s, "repay ship 1", &r);
	CU_ASSERT_EQUAL(s->p[0].credits, 20 - cost);
	CU_ASSERT_EQUAL(s->p[0].ships[0].loans, 0);
	/* nothing more to do at the Shipyard after repaying: the turn ended */
	CU_ASSERT_EQUAL(s->cur, 1);
	/* in all: half price now plus two half-price markers = 150% */
	CU_ASSERT_EQUAL(cost / 2 + cost / 2 + cost / 2, cost * 3 / 2);
	sm_state_free(s);
}

static void test_sm__forced_repayment(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 3, &r);

	t_give_ship(s, 0, 1, SM_TUG, 2);
	t_give_ship(s, 0, 1, SM_SCOUT, 1);
	at(s, 0, SM_DOCK);
	s->p[0].credits = 30;
	CU_ASSERT(refused(s, "pass", ERR_ILLEGAL, "must repay at least one", &r));
	t_ok(s, "move", &r);
	CU_ASSERT(!t_legal_has(s, 0, "buy tug"));
	CU_ASSERT(!t_legal_has(s, 0, "done"));
	CU_ASSERT(refused(s, "buy tug", ERR_ILLEGAL, "repaying is your whole action", &r));
	CU_ASSERT(refused(s, "done", ERR_ILLEGAL, "must repay at least one", &r));
	t_ok(s, "repay ship 2", &r);
	CU_ASSERT(t_legal_has(s, 0, "done"));
	CU_ASSERT(t_legal_has(s, 0, "repay ship 1"));
	/* any number of markers in the one action, but no ship afterwards */
	t_ok(s, "repay ship 1", &r);
	t_ok(s, "repay ship 1", &r);
	CU_ASSERT_EQUAL(sm_player_loans(&s->p[0]), 0);
	CU_ASSERT_EQUAL(s->p[0].credits, 30 - 3 * 4);
	CU_ASSERT_EQUAL(s->p[0].nships, 2);
	CU_ASSERT_EQUAL(s->cur, 1);
	/* staying at the Shipyard with loans is a repayment too */
	at(s, 1, SM_SHIPYARD);
	t_give_ship(s, 1, 1, SM_TUG, 2);
	t_ok(s, "stay", &r);
	CU_ASSERT(refused(s, "lease tug", ERR_ILLEGAL, "repaying", &r));
	sm_state_free(s);
}

static void test_sm__forced_repayment_unaffordable(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 3, &r);

	t_give_ship(s, 0, 1, SM_TUG, 2);
	at(s, 0, SM_DOCK);
	s->p[0].credits = 3; /* a marker costs 4 */
	CU_ASSERT(t_legal_has(s, 0, "pass"));
	t_ok(s, "move", &r);
	/* nothing is possible: the action ends by itself, loans unchanged */
	CU_ASSERT_EQUAL(s->cur, 1);
	CU_ASSERT_EQUAL(s->p[0].ships[0].loans, 2);
	CU_ASSERT_EQUAL(s->p[0].credits, 3);
	sm_state_free(s);
}

static void test_sm__mark_progression(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 3, &r);

	s->supply[0][SM_SCOUT] = 0;
	s->supply[0][SM_TUG] = 1;
	t_ok(s, "stay", &r);
	CU_ASSERT(refused(s, "buy scout", ERR_ILLEGAL, "no Mark 1 scouts are left", &r));
	t_ok(s, "buy tug", &r);
	CU_ASSERT_EQUAL(s->era, 2);
	CU_ASSERT_EQUAL(s->p[0].ships[0].mark, 1);
	t_ok(s, "stay", &r);
	t_ok(s, "buy tug", &r);
	CU_ASSERT_EQUAL(s->p[1].ships[0].mark, 2);
	CU_ASSERT_EQUAL(s->p[1].credits, 15 - sm_ships[1][SM_TUG].cost);
	CU_ASSERT_EQUAL(s->supply[1][SM_TUG], sm_ships[1][SM_TUG].supply[0] - 1);
	sm_state_free(s);
}

static void test_sm__ownership_limits(void)
{
	struct rng r;
	struct sm_state *s = t_new(4, 3, &r);

	for (int i = 0; i < 4; i++)
		t_give_ship(s, 0, 1, i % 2, 0);
	s->p[0].credits = 100;
	t_ok(s, "stay", &r);
	/* nothing is allowed, so the action ended by itself */
	CU_ASSERT_EQUAL(s->cur, 1);
	s->cur = 0;
	s->phase = SM_PH_SHIPYARD;
	CU_ASSERT(refused(s, "buy tug", ERR_ILLEGAL, "you already own 4 Mark 1 ships, the limit is 4", &r));
	CU_ASSERT(refused(s, "lease scout", ERR_ILLEGAL, "the limit is 4", &r));
	/* Mark 4 allows two */
	s->era = 4;
	t_give_ship(s, 0, 4, SM_TUG, 0);
	t_give_ship(s, 0, 4, SM_TUG, 0);
	CU_ASSERT(refused(s, "buy scout", ERR_ILLEGAL, "the limit is 2", &r));
	s->p[0].nships--;
	t_ok(s, "buy scout", &r);
	CU_ASSERT_EQUAL(sm_owned_of_mark(&s->p[0], 4), 2);
	sm_state_free(s);
}

static void test_sm__obsolescence_and_scrapping(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 3, &r);
	struct sm_player *pl = &s->p[0];
	int old, young, broker = card_id("cobalt-broker"), grapples = card_id("grapples");
	int before;

	old = t_give_ship(s, 0, 1, SM_TUG, 2);
	young = t_give_ship(s, 0, 3, SM_TUG, 0);
	pl->ships[0].pilot = broker;
	pl->ships[0].gear[0] = pl->ships[0].gear[1] = pl->ships[0].gear[2] = grapples;
	pl->ships[0].ngear = 3;
	pl->ships[0].cargo[SM_COBALT] = 2;
	s->bag[SM_COBALT] -= 2;
	s->era = 3;
	CU_ASSERT(sm_ship_obsolete(s, &pl->ships[0]));
	CU_ASSERT(!sm_ship_obsolete(s, &pl->ships[1]));
	/* an obsolete ship cannot run */
	at(s, 0, SM_BELT);
	t_ok(s, "stay", &r);
	CU_ASSERT(refused(s, "run ship 1", ERR_ILLEGAL, "obsolete (Mark 1 in the Mark 3 era)", &r));
	CU_ASSERT(t_legal_has(s, 0, "run ship 2"));
	/* paid at the Dock, then scrapped with its loans paid in full */
	at(s, 0, SM_BELT);
	pl->credits = 40;
	t_ok(s, "move", &r);
	before = 40 + 2 * 4 + 2 * 2; /* two cobalt plus the broker's bonus */
	CU_ASSERT_EQUAL(s->last_pay[0], 2 * 4 + 2 * 2);
	CU_ASSERT_EQUAL(pl->credits, before - 2 * (sm_ships[0][SM_TUG].cost / 2));
	CU_ASSERT_EQUAL(pl->nships, 1);
	CU_ASSERT_EQUAL(pl->ships[0].no, young);
	CU_ASSERT_EQUAL(pl->local[SM_COBALT], 2); /* its tokens were unloaded */
	CU_ASSERT_EQUAL(s->phase, SM_PH_SALVAGE);
	/* one pilot and two gear at their original cost */
	before = pl->credits;
	t_ok(s, "transfer cobalt-broker ship 2", &r);
	CU_ASSERT_EQUAL(pl->ships[0].pilot, broker);
	CU_ASSERT_EQUAL(pl->credits, before - sm_cards[broker].cost);
	t_ok(s, "transfer grapples ship 2", &r);
	t_ok(s, "set aside grapples", &r);
	CU_ASSERT_EQUAL(pl->naside, 1);
	CU_ASSERT_EQUAL(pl->credits, before - sm_cards[broker].cost - 2 * sm_cards[grapples].cost);
	/* the third grapples stays behind: nothing more is allowed, so the Dock action went on */
	CU_ASSERT_EQUAL(s->cur, 1);
	CU_ASSERT_EQUAL(s->disc[grapples], 1);
	(void)old;
	/* the set-aside card goes onto the next ship */
	at(s, 0, SM_SHIPYARD);
	pl->credits = 40;
	t_ok(s, "stay", &r);
	t_ok(s, "buy tug", &r);
	CU_ASSERT_EQUAL(pl->nships, 2);
	CU_ASSERT_EQUAL(pl->ships[1].ngear, 1);
	CU_ASSERT_EQUAL(pl->ships[1].gear[0], grapples);
	CU_ASSERT_EQUAL(pl->naside, 0);
	sm_state_free(s);
}

static void test_sm__salvage_limits(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 5, &r);
	struct sm_player *pl = &s->p[0];

	t_give_ship(s, 0, 2, SM_SCOUT, 0);
	t_give_ship(s, 0, 4, SM_TUG, 0);
	pl->ships[0].pilot = card_id("ice-jockey");
	pl->ships[1].pilot = card_id("fuel-runner");
	pl->ships[0].gear[0] = card_id("fusion-booster");
	pl->ships[0].ngear = 1;
	s->era = 4;
	at(s, 0, SM_BELT);
	pl->credits = 50;
	t_ok(s, "move", &r);
	CU_ASSERT_EQUAL(s->phase, SM_PH_SALVAGE);
	CU_ASSERT(refused(s, "transfer ice-jockey ship 2", ERR_ILLEGAL, "already has a pilot", &r));
	CU_ASSERT(refused(s, "transfer grapples ship 2", ERR_ILLEGAL, "not on a ship you scrapped", &r));
	t_ok(s, "set aside ice-jockey", &r);
	t_ok(s, "done", &r);
	CU_ASSERT_EQUAL(s->cur, 1);
	CU_ASSERT_EQUAL(pl->naside, 1);
	CU_ASSERT_EQUAL(s->disc[card_id("fusion-booster")], 1);
	sm_state_free(s);
}

static void test_sm__market_replace(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 9, &r);
	int a, b, deck = 0, after = 0;
	char line[128];

	t_give_ship(s, 0, 1, SM_TUG, 0);
	s->mdisp[0] = card_id("grapples");
	s->mdisp[1] = card_id("survey-robot");
	s->mdisp[2] = card_id("ice-jockey");
	s->mdisp[3] = card_id("cargo-pod");
	a = card_id("grapples");
	b = card_id("survey-robot");
	for (int c = 0; c < SM_NCARDS; c++)
		deck += s->deck[c];
	at(s, 0, SM_SHIPYARD);
	t_ok(s, "move", &r);
	CU_ASSERT_EQUAL(s->phase, SM_PH_MARKET);
	snprintf(line, sizeof(line), "replace %s %s", sm_cards[b].slug, sm_cards[a].slug);
	CU_ASSERT_EQUAL(t_ok(s, line, &r), GAME_APPLY_REVEAL);
	for (int c = 0; c < SM_NCARDS; c++)
		after += s->deck[c];
	CU_ASSERT_EQUAL(after, deck - 2);
	CU_ASSERT_EQUAL(s->disc[a], 1);
	CU_ASSERT_EQUAL(s->disc[b], 1);
	CU_ASSERT_EQUAL(s->mdisp[2], card_id("ice-jockey"));
	CU_ASSERT(refused(s, "replace ice-jockey cargo-pod", ERR_ILLEGAL, "already replaced", &r));
	/* staying at the Market is no arrival */
	at(s, 0, SM_MARKET);
	t_ok(s, "stay", &r);
	CU_ASSERT(refused(s, "replace ice-jockey cargo-pod", ERR_ILLEGAL, "only on arrival", &r));
	sm_state_free(s);
}

static void test_sm__market_pilots_and_gear(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 9, &r);
	struct sm_player *pl = &s->p[0];
	int jockey = card_id("ice-jockey"), grapples = card_id("grapples");

	t_give_ship(s, 0, 1, SM_TUG, 0);
	pl->credits = 100;
	pl->local[SM_COBALT] = 1; /* a claim stays possible after the purchase */
	s->mdisp[0] = jockey;
	s->mdisp[1] = grapples;
	at(s, 0, SM_MARKET);
	t_ok(s, "stay", &r);
	t_ok(s, "buy ice-jockey ship 1", &r);
	CU_ASSERT_EQUAL(pl->ships[0].pilot, jockey);
	CU_ASSERT_EQUAL(pl->credits, 100 - sm_cards[jockey].cost);
	CU_ASSERT(refused(s, "buy grapples ship 1", ERR_ILLEGAL, "already bought a card", &r));
	t_ok(s, "done", &r);
	/* one pilot per ship */
	at(s, 0, SM_MARKET);
	s->mdisp[0] = card_id("fuel-runner");
	t_ok(s, "stay", &r);
	CU_ASSERT(refused(s, "buy fuel-runner ship 1", ERR_ILLEGAL, "already has a pilot", &r));
	/* six gear per ship */
	pl->ships[0].ngear = 6;
	for (int i = 0; i < 6; i++)
		pl->ships[0].gear[i] = grapples;
	s->mdisp[1] = grapples;
	CU_ASSERT(refused(s, "buy grapples ship 1", ERR_ILLEGAL, "already carries 6 gear", &r));
	pl->ships[0].ngear = 5;
	t_ok(s, "buy grapples ship 1", &r);
	CU_ASSERT_EQUAL(pl->ships[0].ngear, 6);
	CU_ASSERT_EQUAL(sm_ship_capacity(&pl->ships[0]), sm_ships[0][SM_TUG].cargo + 6);
	sm_state_free(s);
}

static void test_sm__refinery_timing(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 9, &r);
	struct sm_player *pl = &s->p[0];
	int ref = s->rdisp[0];
	char line[80];

	t_give_ship(s, 0, 1, SM_TUG, 0);
	t_give_ship(s, 0, 1, SM_SCOUT, 0);
	pl->credits = 100;
	snprintf(line, sizeof(line), "buy %s", sm_cards[ref].slug);
	at(s, 0, SM_MARKET);
	t_ok(s, "stay", &r);
	CU_ASSERT(!t_legal_has(s, 0, line));
	CU_ASSERT(refused(s, line, ERR_ILLEGAL, "once a player has left the Dock", &r));
	t_ok(s, "done", &r);
	/* p2 leaves the Dock */
	at(s, 1, SM_DOCK);
	t_ok(s, "pass", &r);
	CU_ASSERT(s->refineries_open);
	at(s, 0, SM_MARKET);
	t_ok(s, "stay", &r);
	CU_ASSERT(t_legal_has(s, 0, line));
	t_ok(s, line, &r);
	CU_ASSERT_EQUAL(pl->refinery[ref], 1);
	CU_ASSERT_EQUAL(pl->credits, 100 - sm_cards[ref].cost);
	/* it pays for every ship */
	{
		struct sm_ship a = pl->ships[0], b = pl->ships[1];
		int with_a, with_b;

		for (int k = 0; k < SM_NKINDS; k++)
			a.cargo[k] = b.cargo[k] = 1;
		with_a = sm_ship_payment(s, 0, &a);
		with_b = sm_ship_payment(s, 0, &b);
		pl->refinery[ref] = 0;
		CU_ASSERT(with_a > sm_ship_payment(s, 0, &a));
		CU_ASSERT(with_b > sm_ship_payment(s, 0, &b));
	}
	sm_state_free(s);
}

static void test_sm__mine_claim(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 9, &r);
	struct sm_player *pl = &s->p[0];

	t_give_ship(s, 0, 1, SM_TUG, 0);
	pl->credits = 30;
	s->mdisp[0] = card_id("grapples");
	at(s, 0, SM_BELT); /* set-up tokens are now local */
	at(s, 0, SM_MARKET);
	t_ok(s, "stay", &r);
	CU_ASSERT(refused(s, "claim cobalt", ERR_ILLEGAL, "only with a market or refinery purchase", &r));
	t_ok(s, "buy grapples ship 1", &r);
	CU_ASSERT(refused(s, "claim iridium", ERR_ILLEGAL, "no unclaimed Iridium", &r));
	t_ok(s, "claim cobalt", &r);
	CU_ASSERT_EQUAL(pl->credits, 30 - sm_cards[card_id("grapples")].cost - 6);
	CU_ASSERT_EQUAL(pl->local[SM_COBALT], 0);
	CU_ASSERT_EQUAL(pl->lclaim[SM_COBALT], 1);
	CU_ASSERT_EQUAL(s->cur, 1);
	sm_state_free(s);
}

static void test_sm__belt_setup_tokens(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 9, &r);

	s->p[0].pos = SM_MARKET;
	CU_ASSERT_EQUAL(s->p[0].local[SM_ICE9], 0);
	t_ok(s, "pass", &r);
	CU_ASSERT_EQUAL(s->p[0].pos, SM_BELT);
	CU_ASSERT_EQUAL(s->p[0].local[SM_ICE9], 1);
	CU_ASSERT_EQUAL(s->p[0].local[SM_DEUTERIUM], 1);
	CU_ASSERT_EQUAL(s->p[0].local[SM_COBALT], 1);
	CU_ASSERT_EQUAL(s->p[0].setup[SM_COBALT], 0);
	/* only the first arrival */
	s->p[0].pos = SM_MARKET;
	s->cur = 0;
	t_ok(s, "pass", &r);
	CU_ASSERT_EQUAL(s->p[0].local[SM_COBALT], 1);
	sm_state_free(s);
}

static void test_sm__pickups(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 9, &r);
	struct sm_player *pl = &s->p[0];
	int e;

	t_give_ship(s, 0, 3, SM_SCOUT, 0); /* Mark 3 scout: energy 7 */
	s->era = 3;
	s->known[SM_XENITE] = 1;
	s->bag[SM_XENITE]--;
	s->p[1].local[SM_COBALT] = 1;
	s->p[1].lclaim[SM_IRIDIUM] = 1;
	s->bag[SM_COBALT]--;
	s->bag[SM_IRIDIUM]--;
	at(s, 0, SM_BELT);
	t_ok(s, "stay", &r);
	t_ok(s, "run ship 1", &r);
	e = sm_ships[2][SM_SCOUT].energy;
	CU_ASSERT_EQUAL(s->energy, e);
	t_ok(s, "pickup xenite known", &r);
	CU_ASSERT_EQUAL(s->energy, e - 1);
	CU_ASSERT_EQUAL(s->known[SM_XENITE], 0);
	CU_ASSERT(refused(s, "pickup iridium p2", ERR_ILLEGAL, "claimed tokens cannot be taken", &r));
	CU_ASSERT(refused(s, "pickup xenite known", ERR_ILLEGAL, "no Xenite in known space", &r));
	t_ok(s, "pickup ice-9 local", &r);
	CU_ASSERT_EQUAL(s->energy, e - 2);
	t_ok(s, "pickup cobalt p2", &r);
	CU_ASSERT_EQUAL(s->energy, e - 2 - 3);
	CU_ASSERT_EQUAL(pl->ships[0].cargo[SM_COBALT], 1);
	CU_ASSERT_EQUAL(s->p[1].local[SM_COBALT], 0);
	CU_ASSERT_EQUAL(s->p[1].lclaim[SM_IRIDIUM], 1);
	sm_state_free(s);
}

static void test_sm__claimed_local_pickup(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 9, &r);
	struct sm_player *pl = &s->p[0];

	t_give_ship(s, 0, 1, SM_TUG, 0);
	at(s, 0, SM_BELT);
	pl->local[SM_COBALT] = 0;
	pl->lclaim[SM_COBALT] = 1;
	t_ok(s, "stay", &r);
	t_ok(s, "run ship 1", &r);
	t_ok(s, "pickup cobalt local", &r);
	CU_ASSERT_EQUAL(pl->ships[0].claimed[SM_COBALT], 1);
	t_ok(s, "done", &r);
	/* delivered and unloaded, it stays claimed */
	at(s, 0, SM_BELT);
	t_ok(s, "move", &r);
	CU_ASSERT_EQUAL(pl->lclaim[SM_COBALT], 1);
	CU_ASSERT_EQUAL(pl->ships[0].cargo[SM_COBALT], 0);
	sm_state_free(s);
}

static void test_sm__cargo_limit_and_exploration(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 9, &r);
	struct sm_player *pl = &s->p[0];
	int bag = 0, after = 0, rc;

	t_give_ship(s, 0, 1, SM_SCOUT, 0); /* energy 4, cargo 2 */
	at(s, 0, SM_BELT);
	for (int k = 0; k < SM_NKINDS; k++)
		bag += s->bag[k];
	t_ok(s, "stay", &r);
	t_ok(s, "run ship 1", &r);
	t_ok(s, "pickup ice-9 local", &r);
	rc = t_ok(s, "explore", &r);
	CU_ASSERT_EQUAL(rc, GAME_APPLY_REVEAL);
	CU_ASSERT_EQUAL(s->phase, SM_PH_EXPLORE);
	CU_ASSERT_EQUAL(s->energy, 4 - 1 - 2);
	for (int k = 0; k < SM_NKINDS; k++)
		after += s->bag[k];
	CU_ASSERT_EQUAL(after, bag - 1);
	CU_ASSERT(s->drawn >= 0);
	t_ok(s, "load", &r);
	CU_ASSERT_EQUAL(sm_ship_load(&pl->ships[0]), 2);
	CU_ASSERT(refused(s, "pickup cobalt local", ERR_ILLEGAL, "ship 1 is full (2 of 2 cargo)", &r));
	sm_state_free(s);

	/* a full hold: the explored token goes to local space */
	s = t_new(2, 11, &r);
	pl = &s->p[0];
	t_give_ship(s, 0, 1, SM_SCOUT, 0);
	at(s, 0, SM_BELT);
	t_ok(s, "stay", &r);
	t_ok(s, "run ship 1", &r);
	t_ok(s, "pickup ice-9 local", &r);
	t_ok(s, "pickup cobalt local", &r);
	t_ok(s, "explore", &r);
	{
		int k = s->drawn, before = pl->local[k];

		CU_ASSERT(refused(s, "load", ERR_ILLEGAL, "full", &r));
		CU_ASSERT(!t_legal_has(s, 0, "load"));
		t_ok(s, "leave", &r);
		CU_ASSERT_EQUAL(pl->local[k], before + 1);
	}
	/* loaded tokens are never dropped: still two aboard, and the run ended (energy spent) */
	CU_ASSERT_EQUAL(sm_ship_load(&pl->ships[0]), 2);
	CU_ASSERT_EQUAL(s->cur, 1);
	sm_state_free(s);
}

static void test_sm__destinations(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 9, &r);
	struct sm_player *pl = &s->p[0];
	int foundry = dest_id("foundry"), hub = dest_id("trade-hub"), way = dest_id("waystation");
	int e;

	t_give_ship(s, 0, 3, SM_SCOUT, 0); /* energy 7 */
	s->era = 3;
	s->ddisp[0] = foundry;
	s->ddisp[1] = hub;
	s->ddisp[2] = way;
	at(s, 0, SM_BELT);
	t_ok(s, "stay", &r);
	t_ok(s, "run ship 1", &r);
	e = s->energy;
	CU_ASSERT_EQUAL(t_ok(s, "replace waystation", &r), GAME_APPLY_REVEAL);
	CU_ASSERT_EQUAL(s->energy, e - 1);
	CU_ASSERT_EQUAL(s->ddisc[way], 1);
	/* as often as you like */
	if (s->ddisp[2] != foundry && s->ddisp[2] != hub) {
		char line[64];

		snprintf(line, sizeof(line), "replace %s", sm_dests[s->ddisp[2]].slug);
		t_ok(s, line, &r);
		CU_ASSERT_EQUAL(s->energy, e - 2);
	}
	t_ok(s, "pickup cobalt local", &r);
	t_ok(s, "end run foundry", &r);
	/* the run is over, the rest of the energy is lost */
	CU_ASSERT_EQUAL(s->cur, 1);
	CU_ASSERT_EQUAL(pl->ships[0].dest, foundry);
	CU_ASSERT(s->ddisp[0] != -1);
	/* paid at the Dock and discarded */
	at(s, 0, SM_BELT);
	t_ok(s, "move", &r);
	CU_ASSERT_EQUAL(s->last_pay[0], 4 + 2);
	CU_ASSERT_EQUAL(pl->ships[0].dest, -1);
	CU_ASSERT(s->ddisc[foundry] >= 1);
	/* only one destination aboard at a time */
	at(s, 0, SM_BELT);
	pl->ships[0].dest = hub;
	t_ok(s, "stay", &r);
	t_ok(s, "run ship 1", &r);
	s->ddisp[0] = way;
	CU_ASSERT(refused(s, "end run waystation", ERR_ILLEGAL, "already carries a destination", &r));
	sm_state_free(s);
}

static void test_sm__dock_payment_and_unload(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 9, &r);
	struct sm_player *pl = &s->p[0];
	struct sm_ship *sh;

	t_give_ship(s, 0, 1, SM_TUG, 0);
	sh = &pl->ships[0];
	sh->pilot = card_id("ice-jockey");
	sh->gear[0] = card_id("assay-scanner");
	sh->ngear = 1;
	sh->cargo[SM_ICE9] = 2;
	sh->cargo[SM_COBALT] = 1;
	sh->claimed[SM_COBALT] = 1;
	sh->dest = dest_id("trade-hub");
	pl->refinery[card_id("ice-9-refinery")] = 1;
	pl->local[SM_DEUTERIUM] = 1;
	s->bag[SM_ICE9] -= 2;
	s->bag[SM_COBALT] -= 1;
	s->bag[SM_DEUTERIUM] -= 1;
	pl->belt_seen = 1;
	for (int k = 0; k < SM_NKINDS; k++)
		s->bag[k] += pl->setup[k], pl->setup[k] = 0;
	pl->credits = 10;
	at(s, 0, SM_BELT);
	t_ok(s, "move", &r);
	/* tokens 2+2+4, pilot 2x2, scanner 3x1, refinery 2x1, trade hub 3x1 */
	CU_ASSERT_EQUAL(s->last_pay[0], 8 + 4 + 3 + 2 + 3);
	CU_ASSERT_EQUAL(pl->credits, 10 + 20);
	/* the unclaimed local token went to known space before unloading */
	CU_ASSERT_EQUAL(s->known[SM_DEUTERIUM], 1);
	CU_ASSERT_EQUAL(pl->local[SM_DEUTERIUM], 0);
	CU_ASSERT_EQUAL(pl->local[SM_ICE9], 2);
	CU_ASSERT_EQUAL(pl->lclaim[SM_COBALT], 1);
	CU_ASSERT_EQUAL(sm_ship_load(sh), 0);
	CU_ASSERT_EQUAL(sh->dest, -1);
	CU_ASSERT_EQUAL(s->ddisc[dest_id("trade-hub")], 1);
	CU_ASSERT(pl->dock_at > 0);
	sm_state_free(s);
}

/* p1 arrives in the Dock with 10 credits worth of cargo. */
static struct sm_state *dock_arrival(int n, int credits, int loans, struct rng *r)
{
	struct sm_state *s = t_new(n, 21, r);
	struct sm_player *pl = &s->p[0];

	t_give_ship(s, 0, 1, SM_TUG, loans);
	pl->ships[0].cargo[SM_XENITE] = 1;
	pl->ships[0].cargo[SM_DEUTERIUM] = 1;
	s->bag[SM_XENITE]--;
	s->bag[SM_DEUTERIUM]--;
	pl->credits = credits;
	at(s, 0, SM_BELT);
	return s;
}

static void test_sm__optional_trigger(void)
{
	struct rng r;
	struct sm_state *s = dock_arrival(3, 92, 0, &r);

	s->p[1].pos = SM_DOCK;
	s->p[2].pos = SM_MARKET;
	t_ok(s, "move", &r);
	CU_ASSERT_EQUAL(s->p[0].credits, 102);
	CU_ASSERT_EQUAL(s->phase, SM_PH_TRIGGER);
	CU_ASSERT(t_legal_has(s, 0, "end game"));
	CU_ASSERT(t_legal_has(s, 0, "done"));
	t_ok(s, "end game", &r);
	CU_ASSERT(s->final);
	CU_ASSERT_EQUAL(s->trigger, 0);
	CU_ASSERT_EQUAL(s->p[0].credits, 112);
	CU_ASSERT(s->p[0].finished);
	CU_ASSERT_EQUAL(sm_ship_load(&s->p[0].ships[0]), 2); /* tokens stay aboard */
	CU_ASSERT(s->p[1].may_leave);
	CU_ASSERT(!s->p[2].may_leave);
	CU_ASSERT_EQUAL(s->cur, 1);
	sm_state_free(s);

	/* declining unloads as usual */
	s = dock_arrival(2, 92, 0, &r);
	t_ok(s, "move", &r);
	t_ok(s, "done", &r);
	CU_ASSERT(!s->final);
	CU_ASSERT_EQUAL(s->p[0].local[SM_XENITE], 1);
	sm_state_free(s);

	/* with a loan there is no choice */
	s = dock_arrival(2, 92, 1, &r);
	t_ok(s, "move", &r);
	CU_ASSERT(!s->final);
	CU_ASSERT_EQUAL(s->cur, 1);
	sm_state_free(s);
}

static void test_sm__forced_trigger(void)
{
	struct rng r;
	struct sm_state *s = dock_arrival(2, 145, 2, &r);

	t_ok(s, "move", &r);
	/* 145 + 10 = 155 >= 150: triggered at once, loans paid (2 x 4), +10 */
	CU_ASSERT(s->final);
	CU_ASSERT_EQUAL(s->trigger, 0);
	CU_ASSERT_EQUAL(sm_player_loans(&s->p[0]), 0);
	CU_ASSERT_EQUAL(s->p[0].credits, 155 - 8 + 10);
	CU_ASSERT_EQUAL(sm_ship_load(&s->p[0].ships[0]), 2);
	CU_ASSERT_EQUAL(s->cur, 1);
	sm_state_free(s);
}

static void test_sm__final_circuit(void)
{
	struct rng r;
	struct sm_state *s = dock_arrival(3, 145, 0, &r);
	json_t *res;
	int c0;

	s->p[1].pos = SM_DOCK;
	s->p[1].dock_at = ++s->dock_seq;
	s->p[2].pos = SM_MARKET;
	t_give_ship(s, 2, 1, SM_TUG, 2);
	s->p[2].credits = 40;
	t_ok(s, "move", &r); /* p1 triggers (forced) */
	CU_ASSERT(s->final);
	/* p2 was in the Dock: may advance to the Shipyard */
	CU_ASSERT_EQUAL(s->cur, 1);
	CU_ASSERT(t_legal_has(s, 1, "stay"));
	t_ok(s, "pass", &r);
	CU_ASSERT_EQUAL(s->p[1].pos, SM_SHIPYARD);
	CU_ASSERT(!s->p[1].may_leave);
	/* p3 at the Market goes on to the Belt, running is allowed */
	CU_ASSERT_EQUAL(s->cur, 2);
	c0 = s->p[0].credits;
	t_ok(s, "pass", &r);
	/* p1 is in the Dock for good: 5 credits instead of a turn */
	CU_ASSERT_EQUAL(s->p[0].credits, c0 + 5);
	CU_ASSERT_EQUAL(s->cur, 1);
	t_ok(s, "pass", &r); /* p2 to the Market */
	t_ok(s, "move", &r); /* p3 into the Dock: paid, loans paid off, done */
	CU_ASSERT(s->p[2].finished);
	CU_ASSERT_EQUAL(sm_player_loans(&s->p[2]), 0);
	CU_ASSERT_EQUAL(s->p[2].credits, 40 - 8);
	CU_ASSERT_EQUAL(s->p[0].credits, c0 + 10);
	CU_ASSERT_EQUAL(s->cur, 1);
	/* final-circuit Dock: tokens stay aboard and obsolete ships stay */
	t_give_ship(s, 1, 1, SM_SCOUT, 0);
	s->p[1].ships[0].cargo[SM_ICE9] = 1;
	s->bag[SM_ICE9]--;
	s->era = 3;
	t_ok(s, "pass", &r); /* Belt */
	CU_ASSERT(s->phase != SM_PH_OVER);
	t_ok(s, "move", &r); /* Dock */
	CU_ASSERT_EQUAL(s->phase, SM_PH_OVER);
	CU_ASSERT_EQUAL(s->p[1].nships, 1);
	CU_ASSERT_EQUAL(s->p[1].ships[0].cargo[SM_ICE9], 1);
	CU_ASSERT_EQUAL(s->last_pay[1], 2);
	res = game_starship_merchants.result(s);
	CU_ASSERT_FATAL(res != NULL);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "winners"), 0)), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 0)), 1);
	json_decref(res);
	sm_state_free(s);
}

/*
 * Final circuit: the Dock pays out first and the loan markers are paid off
 * after, from the credits the player then has ("Loan Markers MUST be all paid
 * off"). p2 arrives with 0 credits, a leased Mark 1 tug (two markers of 4) and
 * two Cobalt aboard (8 credits).
 */
static void test_sm__final_dock_pays_before_loans(void)
{
	struct rng r;
	struct sm_state *s = dock_arrival(2, 145, 0, &r);
	struct sm_player *pl = &s->p[1];

	t_give_ship(s, 1, 1, SM_TUG, 2);
	pl->ships[0].cargo[SM_COBALT] = 2;
	s->bag[SM_COBALT] -= 2;
	pl->credits = 0;
	t_ok(s, "move", &r); /* p1 triggers (forced) */
	CU_ASSERT_FATAL(s->final);
	at(s, 1, SM_BELT);
	t_ok(s, "move", &r); /* into the Dock: paid 8, then the two markers (8) */
	CU_ASSERT_EQUAL(s->last_pay[1], 8);
	CU_ASSERT_EQUAL(sm_player_loans(pl), 0);
	CU_ASSERT_EQUAL(pl->credits, 0);
	CU_ASSERT_EQUAL(s->phase, SM_PH_OVER);
	sm_state_free(s);
}

/*
 * Loans that the payout does not cover are not forgiven: the markers stay,
 * later credits go to them, and what is still owed at the end is taken off the
 * player's final credits (the score may go below zero). A late Mark 4 lease
 * is no free money.
 */
static void test_sm__final_unpaid_loans_count_against_score(void)
{
	struct rng r;
	struct sm_state *s = dock_arrival(3, 145, 0, &r);
	struct sm_player *pl = &s->p[1];
	json_t *res, *v, *seat;
	struct err e = { 0 };
	int c0;

	s->era = 4;
	t_give_ship(s, 1, 4, SM_SCOUT, 2); /* two markers of 16 */
	pl->ships[0].cargo[SM_ICE9] = 1;
	s->bag[SM_ICE9]--;
	pl->credits = 3;
	s->p[2].pos = SM_MARKET;
	t_ok(s, "move", &r); /* p1 triggers (forced) */
	CU_ASSERT_FATAL(s->final);
	at(s, 1, SM_BELT);
	t_ok(s, "move", &r); /* Dock: paid 2, 5 credits pay no 16-credit marker */
	CU_ASSERT(pl->finished);
	CU_ASSERT_EQUAL(s->last_pay[1], 2);
	CU_ASSERT_EQUAL(pl->credits, 5);
	CU_ASSERT_EQUAL(sm_player_loans(pl), 2);
	/* the view says what is owed */
	CU_ASSERT_FATAL(game_starship_merchants.view(s, 1, &v, &e) == 0);
	seat = json_array_get(json_object_get(v, "seats"), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(seat, "debt")), 32);
	json_decref(v);
	/* p3 goes round; the waiting turns' 5 credits go to the markers */
	c0 = pl->credits;
	CU_ASSERT_EQUAL(s->cur, 2);
	t_ok(s, "pass", &r); /* Belt */
	CU_ASSERT_EQUAL(s->cur, 2);
	CU_ASSERT_EQUAL(pl->credits + 16 * (2 - sm_player_loans(pl)), c0 + 5);
	t_ok(s, "pass", &r); /* Dock: p3 done, the game is over */
	CU_ASSERT_FATAL(s->phase == SM_PH_OVER);
	res = game_starship_merchants.result(s);
	CU_ASSERT_FATAL(res != NULL);
	/* p2 ends with 10 credits and both 16-credit markers unpaid: 10 - 32 */
	CU_ASSERT_EQUAL(pl->credits, 10);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "scores"), 1)), 10 - 32);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 1)), 3);
	json_decref(res);
	sm_state_free(s);
}

static void test_sm__final_dock_stay(void)
{
	struct rng r;
	struct sm_state *s = dock_arrival(2, 145, 0, &r);
	int c1;

	s->p[1].pos = SM_DOCK;
	s->p[1].dock_at = ++s->dock_seq;
	c1 = s->p[1].credits;
	t_ok(s, "move", &r);
	CU_ASSERT(s->p[1].may_leave);
	t_ok(s, "stay", &r);
	CU_ASSERT_EQUAL(s->p[1].credits, c1 + 5);
	CU_ASSERT_EQUAL(s->phase, SM_PH_OVER);
	sm_state_free(s);
}

static void test_sm__tiebreak(void)
{
	struct rng r;
	struct sm_state *s = t_new(3, 1, &r);
	json_t *res;

	s->phase = SM_PH_OVER;
	s->p[0].credits = 120;
	s->p[1].credits = 120;
	s->p[2].credits = 90;
	s->p[0].dock_at = 7;
	s->p[1].dock_at = 5;
	s->p[2].dock_at = 6;
	res = game_starship_merchants.result(s);
	CU_ASSERT_FATAL(res != NULL);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 0)), 2);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 1)), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 2)), 3);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(res, "winners")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "winners"), 0)), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "scores"), 2)), 90);
	ASSERT_STR_EQ(json_string_value(json_object_get(res, "tiebreak")),
		      "tied on 120 credits: p1, p2; p2 was earliest into the Dock");
	json_decref(res);
	sm_state_free(s);
}

static void test_sm__errors(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 1, &r);
	struct err e = { 0 };
	void *m = NULL;

	CU_ASSERT_EQUAL(t_do(s, 1, "stay", &r, &e), ERR_FORBIDDEN);
	CU_ASSERT(strstr(e.msg, "p1's turn") != NULL);
	CU_ASSERT_EQUAL(t_do(s, 0, "fly to the moon", &r, &e), ERR_INPUT);
	CU_ASSERT(strstr(e.msg, "expected") != NULL);
	CU_ASSERT_EQUAL(t_do(s, 0, "", &r, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(t_do(s, 0, "buy tug please", &r, &e), ERR_INPUT);
	CU_ASSERT(strstr(e.msg, "please") != NULL);
	CU_ASSERT_EQUAL(t_do(s, 0, "run ship", &r, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(t_do(s, 0, "buy tug", &r, &e), ERR_ILLEGAL);
	CU_ASSERT(strstr(e.msg, "stay, move or pass") != NULL);
	CU_ASSERT_EQUAL(game_starship_merchants.parse(s, 0, "pickup cobalt p9", &m, &e), ERR_INPUT);
	CU_ASSERT_PTR_NULL(m);
	CU_ASSERT_EQUAL(t_do(s, 5, "stay", &r, &e), ERR_FORBIDDEN);
	sm_state_free(s);
}

static void test_sm__notation(void)
{
	static const char *const cases[][2] = {
		{ "  STAY ", "stay" },
		{ "Move on", "move" },
		{ "move and pass", "pass" },
		{ "Buy   Tug", "buy tug" },
		{ "lease scout", "lease scout" },
		{ "repay s2", "repay ship 2" },
		{ "pay ship 3", "repay ship 3" },
		{ "buy Survey Robot on ship 1", "buy survey-robot ship 1" },
		{ "buy ice 9 refinery", "buy ice-9-refinery" },
		{ "replace grapples, ice-jockey", "replace ice-jockey grapples" },
		{ "claim Ice-9", "claim ice-9" },
		{ "run #2", "run ship 2" },
		{ "pick up Ice 9 from known space", "pickup ice-9 known" },
		{ "pickup cobalt from my local space", "pickup cobalt local" },
		{ "pickup xenite from player 2", "pickup xenite p2" },
		{ "pickup xenite p1", "pickup xenite local" },
		{ "explore", "explore" },
		{ "keep", "load" },
		{ "leave", "leave" },
		{ "replace Capital World", "replace capital-world" },
		{ "end run at the foundry", "end run foundry" },
		{ "transfer cargo pod to ship 4", "transfer cargo-pod ship 4" },
		{ "set aside veteran captain", "set aside veteran-captain" },
		{ "END GAME", "end game" },
		{ "done.", "done" },
	};
	struct rng r;
	struct sm_state *s = t_new(2, 1, &r);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *m = NULL, *m2 = NULL;
		struct err e = { 0 };
		struct buf b = BUF_INIT;

		if (game_starship_merchants.parse(s, 0, cases[i][0], &m, &e)) {
			fprintf(stderr, "\n  cannot parse \"%s\": %s\n", cases[i][0], e.msg);
			CU_FAIL("parse");
			continue;
		}
		CU_ASSERT_EQUAL(game_starship_merchants.format(s, m, &b, &e), 0);
		ASSERT_STR_EQ(b.data, cases[i][1]);
		CU_ASSERT_EQUAL(game_starship_merchants.parse(s, 0, b.data, &m2, &e), 0);
		CU_ASSERT(m2 && memcmp(m, m2, sizeof(struct sm_move)) == 0);
		game_starship_merchants.move_free(m);
		game_starship_merchants.move_free(m2);
		buf_release(&b);
	}
	sm_state_free(s);
}

static void test_sm__view(void)
{
	struct rng r;
	struct sm_state *s = t_new(3, 1, &r);
	json_t *v = NULL, *belt;
	struct err e = { 0 };

	t_ok(s, "stay", &r);
	t_ok(s, "buy tug", &r);
	CU_ASSERT_EQUAL(game_starship_merchants.view(s, 1, &v, &e), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(v, "you")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(v, "turn")), 1);
	ASSERT_STR_EQ(json_string_value(json_object_get(v, "phase")), "start");
	belt = json_object_get(v, "belt");
	/* the bag is a count only: its contents stay hidden */
	CU_ASSERT(json_is_integer(json_object_get(belt, "bag")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(belt, "destinations")), 3);
	CU_ASSERT(json_is_integer(json_object_get(json_object_get(v, "market"), "deck")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(v, "seats")), 3);
	{
		json_t *ship = json_array_get(json_object_get(json_array_get(json_object_get(v, "seats"), 0), "ships"), 0);

		ASSERT_STR_EQ(json_string_value(json_object_get(ship, "type")), "tug");
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(ship, "capacity")), sm_ships[0][SM_TUG].cargo);
	}
	json_decref(v);
	CU_ASSERT_EQUAL(game_starship_merchants.view(s, -1, &v, &e), 0);
	CU_ASSERT(json_is_null(json_object_get(v, "you")));
	json_decref(v);
	sm_state_free(s);
}

static void test_sm__encode_decode(void)
{
	struct rng r, br;
	struct sm_state *s = t_new(4, 77, &r);
	struct err e = { 0 };

	rng_seed(&br, 5);
	for (int i = 0; i < 300 && s->phase != SM_PH_OVER; i++) {
		json_t *a = NULL, *b = NULL;
		void *d = NULL;
		struct sm_move m;

		CU_ASSERT_EQUAL_FATAL(game_starship_merchants.encode(s, &a, &e), 0);
		CU_ASSERT_EQUAL_FATAL(game_starship_merchants.decode(a, &d, &e), 0);
		CU_ASSERT_EQUAL(game_starship_merchants.encode(d, &b, &e), 0);
		CU_ASSERT(json_equal(a, b));
		json_decref(a);
		json_decref(b);
		sm_state_free(d);
		CU_ASSERT_EQUAL_FATAL(sm_bot_choose(s, s->cur, 1, &br, &m, &e), 0);
		CU_ASSERT_FATAL(sm_rules_apply(s, s->cur, &m, &r, &e) >= 0);
	}
	sm_state_free(s);
}

static void test_sm__decode_rejects(void)
{
	static const char *const bad[] = {
		"[]", "{}", "{\"v\":1,\"n\":9}",
	};
	struct rng r;
	struct sm_state *s = t_new(2, 1, &r);
	struct err e = { 0 };
	json_t *a = NULL;
	void *d = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *j = json_loads(bad[i], 0, NULL);

		CU_ASSERT_EQUAL(game_starship_merchants.decode(j, &d, &e), ERR_INPUT);
		CU_ASSERT_PTR_NULL(d);
		json_decref(j);
	}
	/* an index out of range */
	game_starship_merchants.encode(s, &a, &e);
	json_array_set_new(json_object_get(a, "mdisp"), 0, json_integer(99));
	CU_ASSERT_EQUAL(game_starship_merchants.decode(a, &d, &e), ERR_INPUT);
	json_array_set_new(json_object_get(a, "mdisp"), 0, json_integer(card_id("central-refinery")));
	CU_ASSERT_EQUAL(game_starship_merchants.decode(a, &d, &e), ERR_INPUT);
	CU_ASSERT_PTR_NULL(d);
	json_decref(a);
	sm_state_free(s);
}

/* Greedy against random in two-player games, alternating seats. */
static void test_sm__bot_greedy_beats_random(void)
{
	int wins = 0, games = 60;

	for (int g = 0; g < games; g++) {
		struct rng r, br;
		struct sm_state *s = t_new(2, 1000 + (uint64_t)g, &r);
		int greedy = g % 2, steps = 0;
		json_t *res;

		rng_seed(&br, 50 + (uint64_t)g);
		while (s->phase != SM_PH_OVER && steps++ < 20000) {
			struct sm_move m;
			struct err e = { 0 };

			CU_ASSERT_EQUAL_FATAL(sm_bot_choose(s, s->cur, s->cur == greedy, &br, &m, &e), 0);
			CU_ASSERT_FATAL(sm_rules_apply(s, s->cur, &m, &r, &e) >= 0);
		}
		res = game_starship_merchants.result(s);
		CU_ASSERT_FATAL(res != NULL);
		wins += json_integer_value(json_array_get(json_object_get(res, "winners"), 0)) == greedy;
		json_decref(res);
		sm_state_free(s);
	}
	printf("\n  greedy won %d of %d two-player games against random\n", wins, games);
	CU_ASSERT(wins >= games * 9 / 10);
}

int tests_register(void)
{
	static CU_TestInfo cases[] = {
		{ "test_sm__setup_2_3_4", test_sm__setup_2_3_4 },
		{ "test_sm__setup_rejects", test_sm__setup_rejects },
		{ "test_sm__turn_options", test_sm__turn_options },
		{ "test_sm__shipyard_buy", test_sm__shipyard_buy },
		{ "test_sm__lease_and_loan_arithmetic", test_sm__lease_and_loan_arithmetic },
		{ "test_sm__forced_repayment", test_sm__forced_repayment },
		{ "test_sm__forced_repayment_unaffordable", test_sm__forced_repayment_unaffordable },
		{ "test_sm__mark_progression", test_sm__mark_progression },
		{ "test_sm__ownership_limits", test_sm__ownership_limits },
		{ "test_sm__obsolescence_and_scrapping", test_sm__obsolescence_and_scrapping },
		{ "test_sm__salvage_limits", test_sm__salvage_limits },
		{ "test_sm__market_replace", test_sm__market_replace },
		{ "test_sm__market_pilots_and_gear", test_sm__market_pilots_and_gear },
		{ "test_sm__refinery_timing", test_sm__refinery_timing },
		{ "test_sm__mine_claim", test_sm__mine_claim },
		{ "test_sm__belt_setup_tokens", test_sm__belt_setup_tokens },
		{ "test_sm__pickups", test_sm__pickups },
		{ "test_sm__claimed_local_pickup", test_sm__claimed_local_pickup },
		{ "test_sm__cargo_limit_and_exploration", test_sm__cargo_limit_and_exploration },
		{ "test_sm__destinations", test_sm__destinations },
		{ "test_sm__dock_payment_and_unload", test_sm__dock_payment_and_unload },
		{ "test_sm__optional_trigger", test_sm__optional_trigger },
		{ "test_sm__forced_trigger", test_sm__forced_trigger },
		{ "test_sm__final_circuit", test_sm__final_circuit },
		{ "test_sm__final_dock_stay", test_sm__final_dock_stay },
		{ "test_sm__final_dock_pays_before_loans", test_sm__final_dock_pays_before_loans },
		{ "test_sm__final_unpaid_loans_count_against_score", test_sm__final_unpaid_loans_count_against_score },
		{ "test_sm__tiebreak", test_sm__tiebreak },
		{ "test_sm__errors", test_sm__errors },
		{ "test_sm__notation", test_sm__notation },
		{ "test_sm__view", test_sm__view },
		{ "test_sm__encode_decode", test_sm__encode_decode },
		{ "test_sm__decode_rejects", test_sm__decode_rejects },
		{ "test_sm__bot_greedy_beats_random", test_sm__bot_greedy_beats_random },
		CU_TEST_INFO_NULL,
	};

	TESTS_SUITE("starship_merchants_rules", NULL, NULL, cases);
	return 0;
}
