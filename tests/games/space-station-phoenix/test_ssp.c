/* tests/games/space-station-phoenix/test_ssp.c: rule cases of Space Station Phoenix (set-up, worked examples, notation) */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "ssp_testlib.h"
#include "testutil.h"
#include "util/banned.h"

#define SHIP(id) ssp_data_ship_find(id)
#define SEC(id) ssp_data_sector_find(id)
#define HUB(id) ssp_data_hub_find(id)

/* Apply and expect success. */
#define DO(st, seat, text) \
	do { \
		struct err e_ = { 0 }; \
		int rc_ = t_do((st), (seat), (text), &rng, &e_); \
		if (rc_ < 0) \
			fprintf(stderr, "\n  %s:%d: \"%s\" refused: %s\n", __FILE__, __LINE__, (text), e_.msg); \
		CU_ASSERT(rc_ >= 0); \
	} while (0)

/* Apply and expect the error code, with a message containing `part`. */
#define REFUSE(st, seat, text, code, part) \
	do { \
		struct err e_ = { 0 }; \
		struct ssp_state *c_ = malloc(sizeof(*c_)); \
		*c_ = *(st); \
		CU_ASSERT_EQUAL(t_do(c_, (seat), (text), &rng, &e_), (code)); \
		if (!strstr(e_.msg, (part))) \
			fprintf(stderr, "\n  %s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, e_.msg, (part)); \
		CU_ASSERT_PTR_NOT_NULL(strstr(e_.msg, (part))); \
		free(c_); \
	} while (0)

static struct rng rng;

static const char *residents_of(const struct ssp_state *st, int id)
{
	static char t[8];
	int idx = SEC(id);

	for (int q = 0; q < ssp_sectors[idx].nq; q++)
		t[q] = ".tbpgh"[st->sec_res[idx][q]];
	t[ssp_sectors[idx].nq] = '\0';
	return t;
}

static void give_ship(struct ssp_state *st, int seat, const char *id)
{
	st->ship_loc[SHIP(id)] = seat;
}

static void set_res(struct ssp_state *st, int seat, int gems, int food, int water, int metal)
{
	st->pl[seat].res[SSP_GEM] = gems;
	st->pl[seat].res[SSP_FOOD] = food;
	st->pl[seat].res[SSP_WATER] = water;
	st->pl[seat].res[SSP_METAL] = metal;
}

/* ------------------------------------------------------------------ set-up */

static void check_setup(int n)
{
	struct ssp_state *st = t_new(n, NULL, 10 + (uint64_t)n, &rng);
	int disp[4][4] = { { 0 } }, al = 0, l3 = 0, own = 0;
	static const int order3[4][8] = { { 0 }, { 0 }, { 0, 1, 1, 0 }, { 0, 1, 2, 2, 1, 0 } };
	json_t *view = NULL;
	struct err e = { 0 };

	CU_ASSERT_EQUAL(st->humans, ssp_humans_by_n[n]);
	for (int k = 0; k < 4; k++)
		al += st->aliens[k];
	CU_ASSERT_EQUAL(al, ssp_aliens_by_n[n]);
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (st->sec_loc[i] == SEC_DISPLAY)
			disp[ssp_sectors[i].level][ssp_sectors[i].colour]++;
	for (int l = 1; l <= 3; l++)
		for (int c = 0; c < 3; c++)
			CU_ASSERT_EQUAL(disp[l][c], n);
	for (int s = 0; s < SSP_NSHIPS; s++) {
		l3 += st->ship_loc[s] == SL_DISPLAY;
		own += st->ship_loc[s] >= 0 && st->ship_loc[s] < n;
	}
	CU_ASSERT_EQUAL(l3, ssp_l3_display_by_n[n]);
	CU_ASSERT_EQUAL(own, 5 * n);
	CU_ASSERT_EQUAL(st->phase, PH_DRAFT3);
	/* the other seats' dealt hubs are hidden */
	CU_ASSERT_EQUAL(G->view(st, 0, &view, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(json_object_get(json_array_get(json_object_get(view, "players"), 0), "dealt_hubs"));
	CU_ASSERT_PTR_NULL(json_object_get(json_array_get(json_object_get(view, "players"), 1), "dealt_hubs"));
	json_decref(view);
	/* Level-3 draft: turn order then reverse */
	for (int i = 0; i < 2 * n; i++) {
		json_t *legal = NULL;
		int seat = t_pending_seat(st);
		int want = n <= 3 ? order3[n][i] : (i < n ? i : 2 * n - 1 - i);
		CU_ASSERT_EQUAL(seat, want);
		REFUSE(st, (seat + 1) % n, "draft construct-3a", ERR_FORBIDDEN, "not your turn");
		G->legal(st, seat, &legal, &e);
		CU_ASSERT_EQUAL((int)json_array_size(legal), ssp_l3_display_by_n[n] - i);
		DO(st, seat, json_string_value(json_array_get(legal, 0)));
		json_decref(legal);
	}
	CU_ASSERT_EQUAL(st->phase, PH_DRAFT2);
	/* Level-2 draft: reverse order first */
	for (int i = 0; i < 2 * n; i++) {
		json_t *legal = NULL;
		int seat = t_pending_seat(st);
		CU_ASSERT_EQUAL(seat, i < n ? n - 1 - i : i - n);
		G->legal(st, seat, &legal, &e);
		DO(st, seat, json_string_value(json_array_get(legal, (size_t)i % json_array_size(legal))));
		json_decref(legal);
	}
	for (int p = 0; p < n; p++) {
		int c2 = 0, c3 = 0;
		for (int s = 0; s < SSP_NSHIPS; s++)
			if (st->ship_loc[s] == p) {
				c2 += ssp_ships[s].level == 2;
				c3 += ssp_ships[s].level == 3;
			}
		CU_ASSERT_EQUAL(c2, 2);
		CU_ASSERT_EQUAL(c3, 2);
	}
	CU_ASSERT_EQUAL(st->phase, PH_HUB);
	/* hub choice in turn order; keeping one reveals it */
	for (int p = 0; p < n; p++) {
		char text[32];
		struct err e2 = { 0 };
		int keep = st->pl[p].dealt[0];
		CU_ASSERT_EQUAL(t_pending_seat(st), p);
		snprintf(text, sizeof(text), "hub %s", ssp_hubs[keep].id);
		CU_ASSERT_EQUAL(t_do(st, p, text, &rng, &e2), GAME_APPLY_REVEAL);
		CU_ASSERT_EQUAL(st->pl[p].hub, keep);
		/* set-up decisions of hubs with choices: take the first legal each time */
		while (st->phase == PH_SETUP) {
			json_t *legal = NULL;
			int seat = t_pending_seat(st);
			if (seat < 0)
				break;
			G->legal(st, seat, &legal, &e);
			DO(st, seat, json_string_value(json_array_get(legal, 0)));
			json_decref(legal);
		}
	}
	CU_ASSERT_EQUAL(st->phase, PH_TURN);
	CU_ASSERT_EQUAL(t_pending_seat(st), 0);
	/* turn-order compensation: P2 +1, P3 +2, P4 +3 (on top of the hub's GEMs) */
	for (int p = 0; p < n; p++)
		CU_ASSERT(st->pl[p].res[SSP_GEM] >= ssp_hubs[st->pl[p].hub].gems + p - 4 * (st->pl[p].hub == HUB("B-6")));
	CU_ASSERT_EQUAL(ssp_rules_check(st, &e), 0);
	free(st);
}

static void test_ssp__setup_2p(void) { check_setup(2); }
static void test_ssp__setup_3p(void) { check_setup(3); }
static void test_ssp__setup_4p(void) { check_setup(4); }

static void test_ssp__setup_compensation(void)
{
	struct ssp_state *st = t_new(4, "{\"first_game\":true}", 3, &rng);

	/* first game: B-1..B-4 have no set-up choices, so play starts at once */
	CU_ASSERT_EQUAL(st->phase, PH_TURN);
	for (int p = 0; p < 4; p++) {
		const struct ssp_hub_info *h = &ssp_hubs[st->pl[p].hub];
		CU_ASSERT_EQUAL(st->pl[p].res[SSP_GEM], h->gems + p);
		CU_ASSERT_EQUAL(st->pl[p].res[SSP_FOOD], h->food);
		CU_ASSERT(st->pl[p].hub <= HUB("B-4"));
	}
	free(st);
}

static void test_ssp__setup_first_game_sets(void)
{
	struct ssp_state *st = t_new(4, "{\"first_game\":true}", 4, &rng);

	for (int p = 0; p < 4; p++) {
		int n2 = 0, n3 = 0, hub = st->pl[p].hub;
		for (int s = 0; s < SSP_NSHIPS; s++)
			if (st->ship_loc[s] == p) {
				n2 += ssp_ships[s].level == 2;
				n3 += ssp_ships[s].level == 3;
			}
		CU_ASSERT_EQUAL(n3, 2);
		CU_ASSERT_EQUAL(n2, hub == HUB("B-2") ? 4 : 2);
	}
	/* only Sectors with index 1..4 are on display */
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (st->sec_loc[i] == SEC_DISPLAY)
			CU_ASSERT(ssp_sectors[i].id % 10 <= 4);
	free(st);
}

static void test_ssp__setup_options(void)
{
	json_t *opt = json_pack("{s:b}", "colour", 1);
	void *st = NULL;
	struct err e = { 0 };

	CU_ASSERT_EQUAL(G->setup(opt, 2, &rng, &st, &e), ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "colour"));
	CU_ASSERT_PTR_NULL(st);
	json_decref(opt);
	CU_ASSERT_EQUAL(G->setup(NULL, 5, &rng, &st, &e), ERR_INPUT);
	opt = G->options();
	CU_ASSERT_PTR_NOT_NULL(json_object_get(opt, "hubs"));
	json_decref(opt);
}

/* ------------------------------------------------------------------ worked examples */

static struct ssp_state *blank(int n)
{
	int hubs[4] = { HUB("B-5"), HUB("B-5"), HUB("B-5"), HUB("B-5") };
	return t_blank(n, hubs);
}

/* Paul dismantles his Level-1 Transport ship with his Level-2 Dismantle ship: 3 GEMs, 6 + 1 metal. */
static void test_ssp__example_dismantle(void)
{
	struct ssp_state *st = blank(2);

	give_ship(st, 0, "dismantle-2a");
	set_res(st, 0, 10, 0, 0, 0);
	REFUSE(st, 0, "dismantle p1-transport", ERR_ILLEGAL, "use a ship");
	DO(st, 0, "use dismantle-2a");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 7);
	REFUSE(st, 0, "dismantle dismantle-2a", ERR_ILLEGAL, "used");
	REFUSE(st, 0, "dismantle p2-transport", ERR_ILLEGAL, "own fleet");
	DO(st, 0, "dismantle p1-transport");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_METAL], 7);
	CU_ASSERT_EQUAL(st->ship_loc[SHIP("p1-transport")], SL_GONE);
	CU_ASSERT_EQUAL(t_pending_seat(st), 1);
	free(st);
}

/* Anna builds Sector 218 (9 metal) with her Level-3 Construction ship (8 GEMs, 2 less metal): pays 7. */
static void test_ssp__example_construction(void)
{
	struct ssp_state *st = blank(2);

	give_ship(st, 0, "construct-3a");
	t_build(st, 0, 116, NULL);
	set_res(st, 0, 8, 0, 0, 10);
	DO(st, 0, "use construct-3a");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 0);
	REFUSE(st, 0, "build 316", ERR_ILLEGAL, "from Level 1 up");
	REFUSE(st, 0, "build 111", ERR_ILLEGAL, "one Sector per level");
	REFUSE(st, 0, "build 999", ERR_INPUT, "Sector number");
	DO(st, 0, "build 218");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_METAL], 3);
	CU_ASSERT_EQUAL(st->sec_loc[SEC(218)], 0);
	free(st);
}

/* Matthew: Level-1 Expedition, 3 GEMs, roll 6 keep 4; a Human die: an ally for food, water, metal or a point. */
static void test_ssp__example_expedition(void)
{
	struct ssp_state *st = blank(2), *copy;

	t_build(st, 0, 101, NULL);
	set_res(st, 0, 10, 0, 0, 1);
	DO(st, 0, "use p1-expedition");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 7);
	CU_ASSERT_EQUAL(st->dice[0] + st->dice[1] + st->dice[2] + st->dice[3], 6);
	CU_ASSERT_EQUAL(st->task[0].kind, TK_DICE);
	CU_ASSERT_EQUAL(st->task[0].a, 4);
	/* the rulebook's roll */
	st->dice[0] = 4;
	st->dice[1] = 1;
	st->dice[2] = 0;
	st->dice[3] = 1;
	REFUSE(st, 0, "keep food food food food water", ERR_ILLEGAL, "capacity is 4");
	REFUSE(st, 0, "keep metal", ERR_ILLEGAL, "0 metal dice");
	copy = malloc(sizeof(*copy));
	*copy = *st;
	DO(copy, 0, "keep food food water observe");
	CU_ASSERT_EQUAL(copy->pl[0].points, 1);
	CU_ASSERT_EQUAL(copy->pl[0].res[SSP_FOOD], 2);
	free(copy);
	/* collected food and water pay for the ally at once */
	DO(st, 0, "keep 2 food, water, ally");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_FOOD], 1);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_WATER], 0);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_METAL], 0);
	ASSERT_STR_EQ(residents_of(st, 101), "h..");
	CU_ASSERT_EQUAL(t_pending_seat(st), 1);
	free(st);
}

/* Sofia: Level-2 Transport (3 GEMs, 4 transactions): pink Alien, gold Alien, trade, buy. */
static void test_ssp__example_transport(void)
{
	struct ssp_state *st = blank(2);

	give_ship(st, 0, "transport-2a");
	t_build(st, 0, 121, NULL);
	t_build(st, 0, 111, NULL);
	set_res(st, 0, 10, 2, 2, 2);
	DO(st, 0, "use transport-2a");
	CU_ASSERT_EQUAL(st->task[0].a, 4);
	REFUSE(st, 0, "done", ERR_ILLEGAL, "at least one transaction");
	REFUSE(st, 0, "alien pink 111", ERR_ILLEGAL, "own colour");
	DO(st, 0, "alien pink 121");
	DO(st, 0, "alien gold 121");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 6);
	REFUSE(st, 0, "trade food water for metal", ERR_ILLEGAL, "to pay");
	DO(st, 0, "trade metal metal for water");
	DO(st, 0, "buy food");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 3);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_FOOD], 1);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_WATER], 1);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_METAL], 0);
	ASSERT_STR_EQ(residents_of(st, 121), "pg.");
	CU_ASSERT_EQUAL(t_pending_seat(st), 1); /* four transactions end the action */
	free(st);
}

/* Kurt: Level-1 Diplomacy (3 GEMs), lobbying 2 GEMs to reach level 1 of Construct. */
static void test_ssp__example_diplomacy(void)
{
	struct ssp_state *st = blank(2), *c;

	set_res(st, 0, 10, 0, 0, 0);
	give_ship(st, 0, "diplomacy-3a");
	c = malloc(sizeof(*c));
	*c = *st;
	DO(st, 0, "use p1-diplomacy");
	REFUSE(st, 0, "advance construct transport", ERR_ILLEGAL, "1 track");
	DO(st, 0, "advance construct");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 5);
	CU_ASSERT_EQUAL(st->pl[0].dip[SSP_CONSTRUCT], 1);
	/* a Level-3 ship: two different tracks, both paid */
	DO(c, 0, "use diplomacy-3a");
	REFUSE(c, 0, "advance construct construct", ERR_ILLEGAL, "2 different tracks");
	DO(c, 0, "advance transport construct");
	CU_ASSERT_EQUAL(c->pl[0].res[SSP_GEM], 0);
	CU_ASSERT_EQUAL(c->pl[0].dip[SSP_CONSTRUCT], 1);
	CU_ASSERT_EQUAL(c->pl[0].dip[SSP_TRANSPORT], 1);
	free(c);
	free(st);
}

/* Jessica's Income: 1 GEM per ship, occupied income quarters only, then a relocation for 1 GEM. */
static void test_ssp__example_income(void)
{
	struct ssp_state *st = blank(2);

	st->pl[0].hub = HUB("B-1");
	give_ship(st, 0, "farm-2a"); /* six ships */
	st->ship_used[SHIP("p1-transport")] = 1;
	t_build(st, 0, 121, "pp");
	t_build(st, 0, 221, "ppp");
	set_res(st, 0, 9, 0, 0, 0);
	DO(st, 0, "income");
	CU_ASSERT_EQUAL(st->ship_used[SHIP("p1-transport")], 0);
	/* 6 (hub) + 121's 2nd quarter (1 GEM; its 3rd, food, is empty) + 221's 2nd and 3rd (1 GEM, 1 food) */
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 9 + 6 + 1 + 1);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_FOOD], 1);
	CU_ASSERT_EQUAL(st->task[0].kind, TK_RELOCATE);
	REFUSE(st, 0, "move teal 221 121", ERR_ILLEGAL, "no teal");
	REFUSE(st, 0, "move pink 221 111", ERR_ILLEGAL, "not on your station");
	DO(st, 0, "move pink 221 121");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 16);
	ASSERT_STR_EQ(residents_of(st, 121), "ppp");
	ASSERT_STR_EQ(residents_of(st, 221), "pp...");
	DO(st, 0, "done");
	CU_ASSERT_EQUAL(t_pending_seat(st), 1);
	free(st);
}

/* Income only with 7 GEMs or fewer, a used ship of one's own, or no usable ship; no passing. */
static void test_ssp__income_eligibility(void)
{
	struct ssp_state *st = blank(2);

	set_res(st, 0, 8, 0, 0, 0);
	REFUSE(st, 0, "income", ERR_ILLEGAL, "more than 7");
	REFUSE(st, 0, "pass", ERR_INPUT, "no passing");
	st->ship_used[SHIP("p1-transport")] = 1;
	CU_ASSERT(t_is_legal(st, 0, "income"));
	st->ship_used[SHIP("p1-transport")] = 0;
	st->pl[0].res[SSP_GEM] = 7;
	CU_ASSERT(t_is_legal(st, 0, "income"));
	/* nobody's ship is usable with 8 GEMs and nothing to do: income is allowed */
	for (int s = 0; s < SSP_NSHIPS; s++)
		st->ship_used[s] = s >= SSP_SHIP_NEUTRAL || st->ship_loc[s] == 1;
	st->pl[0].res[SSP_GEM] = 8;
	for (int s = 0; s < 5; s++)
		st->ship_loc[s] = SL_GONE;
	CU_ASSERT(t_is_legal(st, 0, "income"));
	free(st);
}

/* The Neutral Ship marker: one neutral ship until the next income; no owner's fee; fee to owners otherwise. */
static void test_ssp__neutral_and_fees(void)
{
	struct ssp_state *st = blank(2);

	set_res(st, 0, 20, 0, 0, 0);
	set_res(st, 1, 20, 0, 0, 0);
	DO(st, 0, "use n-expedition");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 16);
	CU_ASSERT_EQUAL(st->pl[0].neutral, SHIP("n-expedition"));
	DO(st, 0, "keep nothing");
	/* seat 1 uses seat 0's transport: cost 2 on the ship, fee 1 to the owner */
	set_res(st, 1, 20, 1, 1, 0);
	t_build(st, 1, 101, NULL);
	DO(st, 1, "use p1-transport");
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_GEM], 17);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 17);
	DO(st, 1, "alien teal 101");
	DO(st, 1, "done");
	REFUSE(st, 0, "use n-diplomacy", ERR_ILLEGAL, "Neutral Ship token");
	REFUSE(st, 0, "use p1-transport", ERR_ILLEGAL, "used");
	/* income frees the token, the neutral ship and seat 0's own ships */
	DO(st, 0, "income");
	DO(st, 0, "done");
	CU_ASSERT_EQUAL(st->pl[0].neutral, -1);
	CU_ASSERT_EQUAL(st->ship_used[SHIP("n-expedition")], 0);
	CU_ASSERT_EQUAL(st->ship_used[SHIP("p1-transport")], 0);
	free(st);
}

/* Sole leader example: Red alone ahead may take its level's bonus or any below; Green only the space below. */
static void test_ssp__example_sole_leader(void)
{
	struct ssp_state *st = blank(4);
	struct game_pending p;

	st->pl[1].dip[SSP_DISMANTLE] = 2; /* Red */
	st->pl[2].dip[SSP_DISMANTLE] = 1; /* Green */
	set_res(st, 0, 10, 0, 0, 0);
	DO(st, 0, "use p1-dismantle");
	DO(st, 0, "dismantle p1-diplomacy");
	G->pending(st, &p);
	CU_ASSERT_EQUAL(p.seats, 1u << 1);
	ASSERT_STR_EQ(p.kind, "diplomacy");
	CU_ASSERT_EQUAL(st->pl[2].res[SSP_GEM], 1); /* Green: only 1 GEM, given at once */
	CU_ASSERT(t_is_legal(st, 1, "bonus point"));
	CU_ASSERT(t_is_legal(st, 1, "bonus 2gems"));
	CU_ASSERT(t_is_legal(st, 1, "bonus gem"));
	REFUSE(st, 1, "bonus metal", ERR_ILLEGAL, "level 2 or lower");
	REFUSE(st, 1, "bonus gem,point", ERR_ILLEGAL, "two bonuses");
	REFUSE(st, 3, "bonus gem", ERR_FORBIDDEN, "not your turn");
	DO(st, 1, "bonus point");
	CU_ASSERT_EQUAL(st->pl[1].points, 1);
	CU_ASSERT_EQUAL(t_pending_seat(st), 1);
	CU_ASSERT_EQUAL(st->phase, PH_TURN);
	free(st);
}

/* Tied leaders example: Red and Blue tied on level 2 take a bonus below their level; Green 1 GEM. */
static void test_ssp__example_tied_leaders(void)
{
	struct ssp_state *st = blank(4);
	json_t *legal = NULL;
	struct err e = { 0 };

	st->pl[1].dip[SSP_EXPEDITION] = 2;
	st->pl[0].dip[SSP_EXPEDITION] = 2;
	st->pl[2].dip[SSP_EXPEDITION] = 1;
	set_res(st, 0, 10, 0, 0, 0);
	DO(st, 0, "use p1-expedition");
	DO(st, 0, "keep nothing");
	G->legal(st, 1, &legal, &e);
	CU_ASSERT_EQUAL(json_array_size(legal), 2);
	ASSERT_STR_EQ(json_string_value(json_array_get(legal, 0)), "bonus gem");
	ASSERT_STR_EQ(json_string_value(json_array_get(legal, 1)), "bonus 2gems");
	json_decref(legal);
	REFUSE(st, 0, "bonus point", ERR_ILLEGAL, "level 1 or lower");
	CU_ASSERT_EQUAL(st->pl[2].res[SSP_GEM], 1);
	DO(st, 0, "bonus 2gems");
	DO(st, 1, "bonus 2gems");
	CU_ASSERT_EQUAL(t_pending_seat(st), 1);
	free(st);
}

/* Standing choices decide for absent players; those without one (or whose choice does not fit) are asked. */
static void test_ssp__standing_choices(void)
{
	struct ssp_state *st = blank(3);
	struct game_pending p;

	st->pl[1].dip[SSP_CONSTRUCT] = 4; /* sole leader on 4: two different bonuses */
	st->pl[2].dip[SSP_CONSTRUCT] = 3;
	st->pl[0].dip[SSP_CONSTRUCT] = 2;
	set_res(st, 0, 10, 0, 0, 10);
	t_build(st, 0, 101, NULL);
	DO(st, 1, "standing diplomacy metal,point");        /* off-turn */
	DO(st, 2, "standing diplomacy metal");              /* does not fit: metal is level 3, seat 2 may take level 2 */
	DO(st, 0, "use p1-construct");
	DO(st, 0, "build 201");
	G->pending(st, &p);
	CU_ASSERT_EQUAL(p.seats, (1u << 0) | (1u << 2));
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_METAL], 1);
	CU_ASSERT_EQUAL(st->pl[1].points, 1);
	/* a standing choice set while being asked decides at once */
	DO(st, 2, "standing diplomacy point");
	G->pending(st, &p);
	CU_ASSERT_EQUAL(p.seats, 1u << 0);
	CU_ASSERT_EQUAL(st->pl[2].points, 1);
	DO(st, 0, "bonus gem");
	DO(st, 1, "standing clear");
	CU_ASSERT_EQUAL(st->pl[1].nstand, 0);
	free(st);
}

/* Residents: aerobic Aliens in their colour, gold and Humans anywhere; Sector 108 opens teal Sectors. */
static void test_ssp__resident_placement(void)
{
	struct ssp_state *st = blank(2), *c;

	give_ship(st, 0, "transport-3a");
	t_build(st, 0, 101, NULL);
	t_build(st, 0, 111, "bbb");
	set_res(st, 0, 20, 5, 5, 0);
	c = malloc(sizeof(*c));
	*c = *st;
	DO(st, 0, "use transport-3a");
	REFUSE(st, 0, "alien brown 101", ERR_ILLEGAL, "own colour");
	REFUSE(st, 0, "alien brown 111", ERR_ILLEGAL, "is full");
	REFUSE(st, 0, "alien gold hub", ERR_ILLEGAL, "no free quarters");
	DO(st, 0, "alien gold 101");
	DO(st, 0, "alien teal 101");
	ASSERT_STR_EQ(residents_of(st, 101), "gt.");
	/* 108 occupied (not this turn): teal Sectors take any Alien */
	t_build(c, 0, 108, "ttt");
	t_build(c, 0, 121, NULL);
	DO(c, 0, "use transport-3a");
	DO(c, 0, "alien pink 101");
	REFUSE(c, 0, "alien brown 108", ERR_ILLEGAL, "is full");
	REFUSE(c, 0, "alien teal 121", ERR_ILLEGAL, "own colour");
	ASSERT_STR_EQ(residents_of(c, 101), "p..");
	free(c);
	free(st);
}

/* Residents placed this turn do not activate their quarter's ability until a later turn. */
static void test_ssp__fresh_residents(void)
{
	struct ssp_state *st = blank(2);

	t_build(st, 0, 107, "tt"); /* 107: +2 GEMs after a Transport ship, on its 3rd quarter */
	set_res(st, 0, 10, 2, 2, 0);
	DO(st, 0, "use p1-transport");
	DO(st, 0, "alien teal 107");
	DO(st, 0, "done");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 8); /* 10 - 2, no bonus */
	st->active = 0;
	st->ship_used[SHIP("p1-transport")] = 0;
	set_res(st, 0, 10, 2, 2, 0);
	DO(st, 0, "use p1-transport");
	DO(st, 0, "trade food water for metal");
	DO(st, 0, "done");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 10); /* 10 - 2 + 2 */
	free(st);
}

/* Rick: Level-1 Transport, 3 transactions (214's +1 is not active), 107 +2 GEMs, 306's free advance, then bonuses. */
static void test_ssp__example_rick(void)
{
	struct ssp_state *st = blank(3);
	struct game_pending p;

	t_build(st, 0, 114, "bb");
	t_build(st, 0, 214, NULL);
	t_build(st, 0, 107, "ttt");
	t_build(st, 0, 207, NULL);
	st->sec_loc[SEC(207)] = SEC_DISPLAY;
	t_build(st, 0, 205, "ttttt");
	t_build(st, 0, 306, "tttgg");
	set_res(st, 0, 10, 2, 2, 0);
	st->pl[0].dip[SSP_TRANSPORT] = 3; /* Rick */
	st->pl[1].dip[SSP_TRANSPORT] = 3; /* Bianca */
	st->pl[2].dip[SSP_TRANSPORT] = 1; /* Yvette */
	DO(st, 0, "use p1-transport");
	CU_ASSERT_EQUAL(st->task[0].a, 3);
	DO(st, 0, "alien gold 214");
	DO(st, 0, "alien brown 214");
	DO(st, 0, "buy metal");
	ASSERT_STR_EQ(residents_of(st, 214), "gb...");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 10 - 2 - 1 - 3 + 2);
	ASSERT_STR_EQ(st->task[0].kind == TK_DIPLO ? "advance" : "?", "advance");
	DO(st, 0, "advance construct");
	CU_ASSERT_EQUAL(st->pl[0].dip[SSP_CONSTRUCT], 1);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 6); /* the advance was free */
	G->pending(st, &p);
	CU_ASSERT_EQUAL(p.seats, (1u << 0) | (1u << 1));
	CU_ASSERT_EQUAL(st->pl[2].res[SSP_GEM], 1); /* Yvette: the level below hers */
	CU_ASSERT(t_is_legal(st, 1, "bonus point"));
	CU_ASSERT(!t_is_legal(st, 1, "bonus water"));
	DO(st, 1, "bonus point");
	DO(st, 0, "bonus 2gems");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 8);
	CU_ASSERT_EQUAL(st->pl[1].points, 1);
	CU_ASSERT_EQUAL(t_pending_seat(st), 1);
	free(st);
}

/* Bianca's Income: 1 GEM per ship, her quarters' income, 218's transaction, 106's GEM; no Transport-ship bonuses. */
static void test_ssp__example_bianca(void)
{
	int hubs[3] = { HUB("B-5"), HUB("B-3"), HUB("B-5") };
	struct ssp_state *st = t_blank(3, hubs);

	st->active = 1;
	st->ship_used[SHIP("p2-transport")] = 1;
	t_build(st, 1, 116, "bbb");
	t_build(st, 1, 218, "bbbbb");
	t_build(st, 1, 106, "ttt");
	t_build(st, 1, 123, NULL);
	set_res(st, 1, 0, 1, 1, 0);
	DO(st, 1, "income");
	/* 5 ships + 116 (1 GEM) + 218 (water, metal, 1 GEM) + 106 (metal) */
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_GEM], 5 + 1 + 1);
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_WATER], 2);
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_METAL], 2);
	CU_ASSERT_EQUAL(st->task[0].kind, TK_TRANSPORT);
	DO(st, 1, "alien pink 123");
	ASSERT_STR_EQ(residents_of(st, 123), "p..");
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_GEM], 8); /* 106: +1 GEM for the Alien */
	CU_ASSERT_EQUAL(st->pl[1].points, 0);      /* 116 needs a Transport ship */
	CU_ASSERT_EQUAL(st->aliens[SSP_PINK - 1], 20 - 1); /* B-3's free Alien needs a Transport ship too */
	/* no relocation is possible, so none is asked */
	CU_ASSERT_EQUAL(t_pending_seat(st), 2);
	free(st);
}

/* Yvette: Level-2 Expedition + 204 (keep 6), a Human ally with 217's resource, 105's GEMs, Hub A-3's transaction. */
static void test_ssp__example_yvette(void)
{
	int hubs[3] = { HUB("B-5"), HUB("B-5"), HUB("A-3") };
	struct ssp_state *st = t_blank(3, hubs);
	struct game_pending p;

	st->active = 2;
	give_ship(st, 2, "expedition-2a");
	t_build(st, 2, 124, NULL);
	t_build(st, 2, 217, "pppp");
	t_build(st, 2, 115, "bb");
	t_build(st, 2, 105, "ttt");
	t_build(st, 2, 204, "tttt");
	set_res(st, 2, 10, 0, 0, 0);
	st->pl[0].dip[SSP_EXPEDITION] = 4; /* Rick leads alone */
	st->pl[1].dip[SSP_EXPEDITION] = 1;
	st->pl[2].dip[SSP_EXPEDITION] = 1;
	DO(st, 2, "use expedition-2a");
	CU_ASSERT_EQUAL(st->pl[2].res[SSP_GEM], 6);
	CU_ASSERT_EQUAL(st->task[0].a, 6);
	CU_ASSERT_EQUAL(st->dice[0] + st->dice[1] + st->dice[2] + st->dice[3], 8);
	st->dice[0] = 2;
	st->dice[1] = 2;
	st->dice[2] = 3;
	st->dice[3] = 1;
	DO(st, 2, "keep metal food food water water ally");
	/* where the Human goes is a choice */
	CU_ASSERT_EQUAL(st->task[0].kind, TK_PLACE);
	DO(st, 2, "place human 124");
	CU_ASSERT_EQUAL(st->task[0].kind, TK_TAKE); /* 217 */
	DO(st, 2, "take metal");
	CU_ASSERT_EQUAL(st->pl[2].points, 0); /* 115's quarter is empty */
	CU_ASSERT_EQUAL(st->pl[2].res[SSP_GEM], 8); /* 105 */
	CU_ASSERT_EQUAL(st->task[0].kind, TK_TRANSPORT); /* Hub A-3 */
	DO(st, 2, "alien pink 124");
	ASSERT_STR_EQ(residents_of(st, 124), "hp.");
	G->pending(st, &p);
	CU_ASSERT_EQUAL(p.seats, 1u << 0);
	CU_ASSERT(t_is_legal(st, 0, "bonus 2gems,food"));
	CU_ASSERT(!t_is_legal(st, 0, "bonus food,metal"));
	DO(st, 0, "bonus 2gems,food");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_FOOD], 1);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 2);
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_GEM], 1);
	CU_ASSERT_EQUAL(st->pl[2].res[SSP_GEM], 9);
	CU_ASSERT_EQUAL(st->pl[2].res[SSP_FOOD] + st->pl[2].res[SSP_WATER], 0);
	CU_ASSERT_EQUAL(st->pl[2].res[SSP_METAL], 1);
	free(st);
}

/* The rulebook's scoring example (Anna, Beth, Connor) from the same end position. */
static void test_ssp__example_scoring(void)
{
	int hubs[3] = { HUB("B-5"), HUB("B-3"), HUB("A-1") };
	struct ssp_state *st = t_blank(3, hubs);
	int sc[SSP_MAXP][SC_NCAT];
	static const int want[3][SC_NCAT] = {
		/* points sectors residents humans gold teal pink brown bonuses leftovers total */
		{ 1, 44, 50, 5, 10, 10, 7, 0, 12, 1, 140 },
		{ 24, 44, 42, 10, 0, 5, 0, 5, 11, 0, 141 },
		{ 9, 60, 50, 0, 5, 0, 7, 10, 15, 3, 159 },
	};
	json_t *res;

	for (int i = 0; i < 4; i++)
		st->aliens[i] = st->alien_total[i] = 40;
	st->humans = st->human_total = 40;
	/* Anna: teal and pink wings complete, a brown Level-1; 25 residents, 6 Sectors full */
	t_build(st, 0, 101, "ttt");
	t_build(st, 0, 201, "ttttg");
	t_build(st, 0, 302, "gggggg");
	t_build(st, 0, 121, "ppp");
	t_build(st, 0, 221, "ppppp");
	t_build(st, 0, 322, NULL);
	t_build(st, 0, 111, "ggh");
	st->pl[0].points = 1;
	set_res(st, 0, 5, 2, 2, 2);
	/* Beth: teal wing with 308 (1 point per Human), brown wing, a pink Level-1; 21 residents */
	t_build(st, 1, 102, "ttt");
	t_build(st, 1, 202, "tthhh");
	t_build(st, 1, 308, "hhhhhh");
	t_build(st, 1, 112, "bbb");
	t_build(st, 1, 212, "bbhh");
	t_build(st, 1, 312, NULL);
	t_build(st, 1, 122, NULL);
	st->pl[1].points = 24;
	set_res(st, 1, 2, 1, 1, 0);
	/* Connor: all nine Sectors, 25 residents, Hub A-1 with one ship left */
	t_build(st, 2, 103, "ttt");
	t_build(st, 2, 203, NULL);
	t_build(st, 2, 303, NULL);
	t_build(st, 2, 113, "bbb");
	t_build(st, 2, 213, "bbbbb");
	t_build(st, 2, 313, "bb");
	t_build(st, 2, 123, "ppp");
	t_build(st, 2, 223, "ppppp");
	t_build(st, 2, 323, "gggg");
	st->pl[2].points = 9;
	set_res(st, 2, 22, 4, 4, 3);
	for (int s = 10; s < 14; s++)
		st->ship_loc[s] = SL_GONE;
	ssp_rules_score(st, sc);
	for (int p = 0; p < 3; p++)
		for (int c = 0; c < SC_NCAT; c++) {
			if (sc[p][c] != want[p][c])
				fprintf(stderr, "\n  seat %d category %d: %d, expected %d\n", p, c, sc[p][c], want[p][c]);
			CU_ASSERT_EQUAL(sc[p][c], want[p][c]);
		}
	st->phase = PH_OVER;
	res = G->result(st);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 2)), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 1)), 2);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 0)), 3);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "winners"), 0)), 2);
	json_decref(res);
	free(st);
}

/* Ties: equal totals go to the most Aliens, then the most Humans, else shared. */
static void test_ssp__tiebreak(void)
{
	int hubs[2] = { HUB("B-3"), HUB("B-3") };
	struct ssp_state *st = t_blank(2, hubs);
	json_t *res;

	t_build(st, 0, 101, "th");
	t_build(st, 1, 111, "bh");
	st->phase = PH_OVER;
	res = G->result(st);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 0)), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 1)), 1);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(res, "winners")), 2);
	json_decref(res);
	st->sec_res[SEC(111)][1] = SSP_GOLD; /* same total (28 each), seat 1 has more Aliens */
	st->humans++;
	st->aliens[3]--;
	res = G->result(st);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 1)), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(res, "ranks"), 0)), 2);
	json_decref(res);
	free(st);
}

/* Game end: 40 points at the end of the active player's own turn; everyone else one more turn. */
static void test_ssp__game_end(void)
{
	int hubs[3] = { HUB("B-3"), HUB("B-3"), HUB("B-3") };
	struct ssp_state *st = t_blank(3, hubs);

	st->pl[1].points = 45; /* reached on someone else's turn: no trigger yet */
	DO(st, 0, "income"); /* nothing to relocate: the turn ends */
	CU_ASSERT_EQUAL(st->end_by, -1);
	DO(st, 1, "income");
	CU_ASSERT_EQUAL(st->end_by, 1);
	DO(st, 2, "income");
	CU_ASSERT(!ssp_rules_over(st));
	st->pl[0].res[SSP_GEM] = 0;
	DO(st, 0, "income");
	CU_ASSERT(ssp_rules_over(st));
	REFUSE(st, 1, "income", ERR_ILLEGAL, "over");
	free(st);
}

/* Four or fewer Aliens left, or nine Sectors built, also end the game. */
static void test_ssp__game_end_aliens(void)
{
	struct ssp_state *st = blank(2);

	st->aliens[0] = 1;
	st->aliens[1] = 1;
	st->aliens[2] = st->aliens[3] = 1;
	for (int k = 0; k < 4; k++)
		st->alien_total[k] = st->aliens[k];
	set_res(st, 0, 5, 0, 0, 0);
	DO(st, 0, "income");
	DO(st, 0, "done");
	CU_ASSERT_EQUAL(st->end_by, 0);
	free(st);
}

/* Farm and Ice Collector ships: their food or water at once; nine Sectors built end the game. */
static void test_ssp__farm_ice_and_nine_sectors(void)
{
	int hubs[2] = { HUB("B-12"), HUB("B-12") }; /* no income step of its own */
	struct ssp_state *st = t_blank(2, hubs);
	static const int nine[9] = { 102, 201, 305, 111, 213, 316, 121, 221, 328 };

	give_ship(st, 0, "farm-2a");
	give_ship(st, 1, "ice-3a");
	set_res(st, 0, 10, 0, 0, 0);
	set_res(st, 1, 10, 0, 0, 0);
	DO(st, 0, "use farm-2a");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_FOOD], 4);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 10 - ssp_ships[SHIP("farm-2a")].cost);
	CU_ASSERT_EQUAL(t_pending_seat(st), 1);
	DO(st, 1, "use ice-3a");
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_WATER], 5);
	CU_ASSERT_EQUAL(t_pending_seat(st), 0);
	CU_ASSERT_EQUAL(st->end_by, -1);
	/* all nine Sectors of seat 0's station: the end is triggered at the end of its turn */
	for (int i = 0; i < 9; i++)
		t_build(st, 0, nine[i], NULL);
	set_res(st, 0, 5, 0, 0, 0);
	DO(st, 0, "income");
	CU_ASSERT_EQUAL(st->end_by, 0);
	CU_ASSERT(!ssp_rules_over(st));
	free(st);
}

/* Sector and hub abilities spot checks: 212/304 metal, 227 Alien, B-1, A-9 order, A-2 discount, 208 extra turn. */
static void test_ssp__abilities(void)
{
	int hubs[2] = { HUB("A-9"), HUB("A-2") };
	struct ssp_state *st = t_blank(2, hubs), *c;

	/* A-9 builds a wing in any order */
	set_res(st, 0, 20, 0, 0, 30);
	DO(st, 0, "use p1-construct");
	DO(st, 0, "build 311");
	CU_ASSERT_EQUAL(st->aliens[SSP_BROWN - 1], 18); /* 311: two brown Aliens at once */
	ASSERT_STR_EQ(residents_of(st, 311), "bb....");
	/* own ships 1 GEM cheaper, others' 2 cheaper (minimum 1) */
	CU_ASSERT_EQUAL(ssp_rules_cost(st, 1, SHIP("p2-construct")), 2);
	CU_ASSERT_EQUAL(ssp_rules_cost(st, 1, SHIP("n-construct")), 2);
	CU_ASSERT_EQUAL(ssp_rules_cost(st, 1, SHIP("p1-transport")), 1);
	/* 212 + 304 on a Dismantle ship: 2 + 3 extra metal */
	c = blank(2);
	t_build(c, 0, 112, NULL);
	t_build(c, 0, 212, "bbbb");
	t_build(c, 0, 312, NULL);
	t_build(c, 0, 314, NULL);
	c->sec_loc[SEC(312)] = SEC_DISPLAY;
	c->sec_loc[SEC(314)] = SEC_DISPLAY;
	t_build(c, 0, 304, "ttttt");
	set_res(c, 0, 10, 0, 0, 0);
	DO(c, 0, "use p1-dismantle");
	DO(c, 0, "dismantle p1-transport");
	CU_ASSERT_EQUAL(c->pl[0].res[SSP_METAL], 6 + 2 + 3);
	free(c);
	/* 208: pay 3 GEMs after a Diplomacy ship for another turn */
	c = blank(2);
	t_build(c, 0, 118, NULL);
	t_build(c, 0, 208, "bbbb");
	set_res(c, 0, 10, 0, 0, 0);
	DO(c, 0, "use p1-diplomacy");
	DO(c, 0, "advance dismantle");
	CU_ASSERT_EQUAL(c->task[0].kind, TK_ACCEPT);
	DO(c, 0, "accept");
	CU_ASSERT_EQUAL(t_pending_seat(c), 0);
	CU_ASSERT_EQUAL(c->pl[0].res[SSP_GEM], 10 - 3 - 2 - 3);
	free(c);
	free(st);
}

/*
 * Ship-triggered abilities, one row each: the same action is played twice from
 * the same position and the same dice, once without and once with the Sector
 * (or hub), and the difference must be exactly the Reference Guide's gain.
 * The wing below the Sector is built with income-only Sectors.
 */
struct ability_row {
	int sector;              /* 0: the hub alone */
	const char *hub;         /* hub of seat 0 (B-12 has no ability these rows use) */
	const char *residents;   /* enough to reach the ability quarter */
	int below[2];            /* income-only Sectors of the same wing below it */
	const char *steps[3];
	const char *more[2];     /* steps only the position with the ability asks for */
	int gems, food, water, metal, points; /* the gain */
	int dice, capacity;      /* Expedition: extra dice rolled, extra capacity */
};

static const struct ability_row ability_rows[] = {
	{ 104, "B-12", "ttt", { 0, 0 }, { "use p1-dismantle", "dismantle p1-transport", NULL }, { NULL, NULL }, 3, 0, 0, 0, 0, 0, 0 },
	{ 105, "B-12", "ttt", { 0, 0 }, { "use p1-expedition", "keep nothing", NULL }, { NULL, NULL }, 2, 0, 0, 0, 0, 0, 0 },
	{ 107, "B-12", "ttt", { 0, 0 }, { "use p1-transport", "buy metal", "done" }, { NULL, NULL }, 2, 0, 0, 0, 0, 0, 0 },
	{ 116, "B-12", "bbb", { 0, 0 }, { "use p1-transport", "buy metal", "done" }, { NULL, NULL }, 0, 0, 0, 0, 1, 0, 0 },
	{ 122, "B-12", "ppp", { 0, 0 }, { "use p1-construct", "build 103", NULL }, { NULL, NULL }, 0, 0, 0, 0, 2, 0, 0 },
	{ 124, "B-12", "ppp", { 0, 0 }, { "use p1-expedition", "keep nothing", NULL }, { NULL, NULL }, 0, 0, 0, 0, 0, 1, 0 },
	{ 204, "B-12", "tttt", { 102, 0 }, { "use p1-expedition", "keep nothing", NULL }, { NULL, NULL }, 0, 0, 0, 0, 0, 0, 1 },
	{ 212, "B-12", "bbbb", { 111, 0 }, { "use p1-dismantle", "dismantle p1-transport", NULL }, { NULL, NULL }, 0, 0, 0, 2, 0, 0, 0 },
	{ 304, "B-12", "ttttt", { 102, 201 }, { "use p1-dismantle", "dismantle p1-transport", NULL }, { NULL, NULL }, 0, 0, 0, 3, 0, 0, 0 },
	{ 312, "B-12", "bbbbb", { 111, 213 }, { "use p1-dismantle", "dismantle p1-transport", NULL }, { NULL, NULL }, 0, 1, 1, 0, 0, 0, 0 },
	{ 314, "B-12", "bbbbb", { 111, 213 }, { "use p1-expedition", "keep nothing", NULL }, { NULL, NULL }, 0, 0, 0, 0, 0, 0, 1 },
	{ 321, "B-12", "ppppp", { 121, 221 }, { "use p1-expedition", "keep nothing", NULL }, { NULL, NULL }, 0, 1, 1, 0, 0, 0, 0 },
	{ 324, "B-12", "ppppp", { 121, 221 }, { "use p1-transport", "buy metal", "done" }, { NULL, NULL }, 0, 1, 1, 0, 0, 0, 0 },
	{ 327, "B-12", "ppppp", { 121, 221 }, { "use p1-expedition", "keep nothing", NULL }, { NULL, NULL }, 0, 0, 0, 0, 0, 2, 0 },
	{ 0, "B-2", NULL, { 0, 0 }, { "use p1-dismantle", "dismantle p1-transport", NULL }, { NULL, NULL }, 0, 1, 1, 1, 0, 0, 0 },
	{ 0, "A-10", NULL, { 0, 0 }, { "use p1-expedition", "keep nothing", NULL }, { NULL, NULL }, 1, 0, 0, 0, 0, 1, 1 },
	/* income abilities (seat 0 has 5 GEMs, so income is allowed); a Sector's difference includes its quarters' income */
	{ 0, "A-2", NULL, { 0, 0 }, { "income", NULL, NULL }, { NULL, NULL }, 3, 0, 0, 0, 0, 0, 0 },
	{ 0, "A-4", NULL, { 0, 0 }, { "income", NULL, NULL }, { NULL, NULL }, 5, 0, 0, 0, 0, 0, 0 },
	{ 0, "A-1", NULL, { 0, 0 }, { "income", NULL, NULL }, { NULL, NULL }, 5, 0, 0, 0, 0, 0, 0 },
	{ 0, "B-6", NULL, { 0, 0 }, { "income", NULL, NULL }, { NULL, NULL }, 0, 0, 0, 0, 1, 0, 0 },
	{ 101, "B-12", "ttt", { 0, 0 }, { "income", NULL, NULL }, { "take food", NULL }, 0, 1, 1, 0, 0, 0, 0 },
	{ 102, "B-12", "ttt", { 0, 0 }, { "income", NULL, NULL }, { NULL, NULL }, 1, 0, 0, 1, 0, 0, 0 },
};

/* Play a row's steps with or without its ability; the dice and capacity after the first step in *dice, *cap. */
static struct ssp_state *ability_run(const struct ability_row *row, int with, int *dice, int *cap)
{
	int hubs[2] = { HUB(with ? row->hub : "B-12"), HUB("B-12") };
	struct ssp_state *st = t_blank(2, hubs);

	rng_seed(&rng, 4242);
	for (int i = 0; i < 2; i++)
		if (row->below[i])
			t_build(st, 0, row->below[i], NULL);
	if (with && row->sector)
		t_build(st, 0, row->sector, row->residents);
	st->sec_loc[SEC(103)] = SEC_DISPLAY;
	set_res(st, 0, strcmp(row->steps[0], "income") ? 10 : 5, 0, 0, 10);
	for (int i = 0; i < 3 && row->steps[i]; i++) {
		DO(st, 0, row->steps[i]);
		if (i == 0) {
			*dice = st->dice[0] + st->dice[1] + st->dice[2] + st->dice[3];
			*cap = st->task[0].kind == TK_DICE ? st->task[0].a : 0;
		}
	}
	for (int i = 0; with && i < 2 && row->more[i]; i++)
		DO(st, 0, row->more[i]);
	CU_ASSERT_EQUAL(t_pending_seat(st), 1); /* the turn is over in both */
	return st;
}

static void test_ssp__ship_abilities_table(void)
{
	for (size_t i = 0; i < sizeof(ability_rows) / sizeof(ability_rows[0]); i++) {
		const struct ability_row *row = &ability_rows[i];
		int d0 = 0, c0 = 0, d1 = 0, c1 = 0;
		struct ssp_state *a = ability_run(row, 0, &d0, &c0), *b = ability_run(row, 1, &d1, &c1);
		int got[5] = { b->pl[0].res[SSP_GEM] - a->pl[0].res[SSP_GEM], b->pl[0].res[SSP_FOOD] - a->pl[0].res[SSP_FOOD],
			       b->pl[0].res[SSP_WATER] - a->pl[0].res[SSP_WATER],
			       b->pl[0].res[SSP_METAL] - a->pl[0].res[SSP_METAL], b->pl[0].points - a->pl[0].points };
		int want[5] = { row->gems, row->food, row->water, row->metal, row->points };

		/* A-10 makes the Expedition ship 1 GEM cheaper: that is its GEM difference */
		if (memcmp(got, want, sizeof(got)) || d1 - d0 != row->dice || c1 - c0 != row->capacity) {
			fprintf(stderr, "\n  ability %d/%s: gained %d GEMs %d food %d water %d metal %d points, %d dice, %d capacity\n",
				row->sector, row->hub, got[0], got[1], got[2], got[3], got[4], d1 - d0, c1 - c0);
			CU_FAIL("ability gain differs from the Reference Guide");
		}
		free(a);
		free(b);
	}
}

/* ------------------------------------------------------------------ notation */

static void test_ssp__notation_round_trip(void)
{
	static const char *const texts[][2] = {
		{ "use p1-transport", "use p1-transport" },
		{ "USE  N-Construct ", "use n-construct" },
		{ "income", "income" },
		{ "income human 214", "income human 214" },
		{ "draft construct-3a", "draft construct-3a" },
		{ "hub b5", "hub B-5" },
		{ "discard farm-2a", "discard farm-2a" },
		{ "advance transport, construct", "advance construct transport" },
		{ "advance terran", "advance expedition" },
		{ "dismantle p2-diplomacy", "dismantle p2-diplomacy" },
		{ "build 218", "build 218" },
		{ "alien Ensaroo 121", "alien pink 121" },
		{ "alien gold hub", "alien gold hub" },
		{ "trade water food for metal", "trade food water for metal" },
		{ "buy metal", "buy metal" },
		{ "done", "done" },
		{ "reroll human metal", "reroll metal human" },
		{ "keep 2 food, water, ally, observe", "keep food food water ally observe" },
		{ "keep none", "keep nothing" },
		{ "place human 124", "place human 124" },
		{ "take water", "take water" },
		{ "take metal food", "take food metal" },
		{ "accept", "accept" },
		{ "skip", "skip" },
		{ "exchange food for water", "exchange food for water" },
		{ "pay water food", "pay food water" },
		{ "pay nothing", "pay nothing" },
		{ "move pink from 221 to 121", "move pink 221 121" },
		{ "return gold 101", "return gold 101" },
		{ "return sector 301", "return sector 301" },
		{ "bonus point", "bonus point" },
		{ "bonus metal, 2gems", "bonus 2gems,metal" },
		{ "sell point", "sell point" },
		{ "convert metal food", "convert metal food" },
		{ "standing diplomacy metal,point", "standing diplomacy metal,point" },
		{ "standing clear", "standing clear" },
	};
	struct ssp_state *st = blank(2);

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct ssp_move m, back;
		struct err e = { 0 };
		struct buf b = BUF_INIT;
		CU_ASSERT_EQUAL(ssp_text_parse(st, texts[i][0], &m, &e), 0);
		ssp_text_format(&m, &b);
		ASSERT_STR_EQ(b.data, texts[i][1]);
		CU_ASSERT_EQUAL(ssp_text_parse(st, b.data, &back, &e), 0);
		CU_ASSERT_EQUAL(memcmp(&m, &back, sizeof(m)), 0);
		buf_release(&b);
	}
	free(st);
}

static void test_ssp__notation_errors(void)
{
	static const char *const bad[][2] = {
		{ "", "expected a move" },
		{ "fly away", "unknown move" },
		{ "use p9-transport", "no ship called" },
		{ "hub C-1", "no Station Hub" },
		{ "build 409", "Sector number" },
		{ "alien human 101", "Alien colour" },
		{ "trade food for metal", "trade <resource>" },
		{ "keep food banana", "dice to keep" },
		{ "bonus cake", "Diplomacy bonuses" },
		{ "standing diplomacy point,point", "named twice" },
		{ "standing maybe", "standing diplomacy" },
	};
	struct ssp_state *st = blank(2);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ssp_move m;
		struct err e = { 0 };
		CU_ASSERT_EQUAL(ssp_text_parse(st, bad[i][0], &m, &e), ERR_INPUT);
		if (!strstr(e.msg, bad[i][1]))
			fprintf(stderr, "\n  \"%s\": message \"%s\" lacks \"%s\"\n", bad[i][0], e.msg, bad[i][1]);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, bad[i][1]));
	}
	free(st);
}

/* The view hides nothing public and shows the pending decision; encode is compact and stable. */
static void test_ssp__view_and_snapshot(void)
{
	struct ssp_state *st = t_new(3, "{\"hubs\":\"advanced\"}", 21, &rng);
	json_t *v = NULL, *s1 = NULL, *s2 = NULL;
	void *dec = NULL;
	struct err e = { 0 };
	char *txt;

	CU_ASSERT_EQUAL(G->view(st, -1, &v, &e), 0);
	CU_ASSERT_PTR_NULL(json_object_get(json_array_get(json_object_get(v, "players"), 0), "dealt_hubs"));
	ASSERT_STR_EQ(json_string_value(json_object_get(v, "decision")), "draft");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(v, "deck"), "level3")), 16 - 7);
	json_decref(v);
	CU_ASSERT_EQUAL(G->encode(st, &s1, &e), 0);
	CU_ASSERT_EQUAL(G->decode(s1, &dec, &e), 0);
	CU_ASSERT_EQUAL(G->encode(dec, &s2, &e), 0);
	CU_ASSERT(json_equal(s1, s2));
	txt = json_dumps(s1, JSON_COMPACT);
	CU_ASSERT(strlen(txt) < 2500);
	free(txt);
	json_object_set_new(s1, "v", json_integer(99));
	G->state_free(dec);
	dec = NULL;
	CU_ASSERT_EQUAL(G->decode(s1, &dec, &e), ERR_INPUT);
	CU_ASSERT_PTR_NULL(dec);
	json_decref(s1);
	json_decref(s2);
	free(st);
}

static CU_TestInfo ssp_cases[] = {
	{ "test_ssp__setup_2p", test_ssp__setup_2p },
	{ "test_ssp__setup_3p", test_ssp__setup_3p },
	{ "test_ssp__setup_4p", test_ssp__setup_4p },
	{ "test_ssp__setup_compensation", test_ssp__setup_compensation },
	{ "test_ssp__setup_first_game_sets", test_ssp__setup_first_game_sets },
	{ "test_ssp__setup_options", test_ssp__setup_options },
	{ "test_ssp__example_dismantle", test_ssp__example_dismantle },
	{ "test_ssp__example_construction", test_ssp__example_construction },
	{ "test_ssp__example_expedition", test_ssp__example_expedition },
	{ "test_ssp__example_transport", test_ssp__example_transport },
	{ "test_ssp__example_diplomacy", test_ssp__example_diplomacy },
	{ "test_ssp__example_income", test_ssp__example_income },
	{ "test_ssp__income_eligibility", test_ssp__income_eligibility },
	{ "test_ssp__neutral_and_fees", test_ssp__neutral_and_fees },
	{ "test_ssp__example_sole_leader", test_ssp__example_sole_leader },
	{ "test_ssp__example_tied_leaders", test_ssp__example_tied_leaders },
	{ "test_ssp__standing_choices", test_ssp__standing_choices },
	{ "test_ssp__resident_placement", test_ssp__resident_placement },
	{ "test_ssp__fresh_residents", test_ssp__fresh_residents },
	{ "test_ssp__example_rick", test_ssp__example_rick },
	{ "test_ssp__example_bianca", test_ssp__example_bianca },
	{ "test_ssp__example_yvette", test_ssp__example_yvette },
	{ "test_ssp__example_scoring", test_ssp__example_scoring },
	{ "test_ssp__tiebreak", test_ssp__tiebreak },
	{ "test_ssp__game_end", test_ssp__game_end },
	{ "test_ssp__game_end_aliens", test_ssp__game_end_aliens },
	{ "test_ssp__abilities", test_ssp__abilities },
	{ "test_ssp__farm_ice_and_nine_sectors", test_ssp__farm_ice_and_nine_sectors },
	{ "test_ssp__ship_abilities_table", test_ssp__ship_abilities_table },
	{ "test_ssp__notation_round_trip", test_ssp__notation_round_trip },
	{ "test_ssp__notation_errors", test_ssp__notation_errors },
	{ "test_ssp__view_and_snapshot", test_ssp__view_and_snapshot },
	CU_TEST_INFO_NULL,
};

int tests_register(void)
{
	rng_seed(&rng, 12345);
	TESTS_SUITE("space_station_phoenix", NULL, NULL, ssp_cases);
	if (ssp_abilities_register() < 0)
		return -1;
	return ssp_play_register();
}
