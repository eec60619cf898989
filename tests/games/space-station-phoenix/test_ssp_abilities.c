/* tests/games/space-station-phoenix/test_ssp_abilities.c: every Sector and Station Hub ability of the Reference Guide, measured */
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

static struct rng rng;

/* Apply and expect success (the row or line named in the message). */
static int do_ok(struct ssp_state *st, int seat, const char *text, const char *where)
{
	struct err e = { 0 };
	int rc = t_do(st, seat, text, &rng, &e);

	if (rc < 0)
		fprintf(stderr, "\n  %s: \"%s\" refused: %s\n", where, text, e.msg);
	CU_ASSERT(rc >= 0);
	return rc;
}

#define DO(st, seat, text) do_ok((st), (seat), (text), __func__)

/* Apply to a copy and expect the error code, with a message containing `part`. */
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

static void set_res(struct ssp_state *st, int seat, int gems, int food, int water, int metal)
{
	st->pl[seat].res[SSP_GEM] = gems;
	st->pl[seat].res[SSP_FOOD] = food;
	st->pl[seat].res[SSP_WATER] = water;
	st->pl[seat].res[SSP_METAL] = metal;
}

static const char *residents_of(const struct ssp_state *st, int id)
{
	static char t[8];
	int idx = SEC(id);

	for (int q = 0; q < ssp_sectors[idx].nq; q++)
		t[q] = ".tbpgh"[st->sec_res[idx][q]];
	t[ssp_sectors[idx].nq] = '\0';
	return t;
}

/*
 * One ability per row. The row is played twice from the same position and
 * the same dice: without the ability (base steps) and with it (with steps).
 * The differences of seat 0's resources, points, residents by kind,
 * Diplomacy advances and Sectors must be exactly the Reference Guide's
 * effect. Seat 1 stands on level 1 of every track and takes 1 GEM by a
 * standing choice, so a Diplomacy bonus wrongly triggered by a bonus action
 * shows as a difference of seat 1's GEMs (which must be none).
 *
 * Sector rows build the Sector (with residents up to its ability quarter)
 * only in the run with it; both runs have the same hub. Hub rows (sector 0)
 * compare the hub with `base` (B-12 when NULL). Immediate rows (sector 0,
 * same hub) compare building a Level-3 Sector with an immediate effect
 * against one of the same colour and cost without.
 */
struct row {
	const char *name;
	int sector;
	const char *residents;
	const char *hub, *base;
	int other[3];             /* Sectors in both runs */
	const char *ores[3];      /* their residents */
	int res[4];               /* seat 0 at the start: GEMs, food, water, metal */
	int dice[4];              /* every roll shows these (food, water, metal, Human), when any is set */
	int dip0[4];              /* seat 0's Diplomacy levels */
	const char *base_steps[7];
	const char *with_steps[8];
	int gems, food, water, metal, points;
	int dres[6];              /* residents gained, by kind (index 1..5) */
	int ddip, dsec;           /* Diplomacy advances, Sectors built */
	int extra;                /* 1: the run with it gives seat 0 another turn */
	int rolled, cap;          /* Expedition: extra dice and capacity of the first roll */
};

#define B(...) { __VA_ARGS__ }
#define NR { 0, 0, 0, 0, 0, 0 }

static const struct row rows[] = {
	/* ------------------------------------------------ Level-1 Sectors */
	{ "106 Alien gives 1 GEM", 106, "ttt", NULL, NULL, { 111 }, { NULL }, { 10, 1, 1, 0 }, { 0 }, { 0 },
	  B("use p1-transport", "alien brown 111", "done"), B("use p1-transport", "alien brown 111", "done"),
	  1, 0, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "112 Diplomacy ship: 1 resource", 112, "bbb", "B-5", NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-diplomacy", "advance dismantle"), B("use p1-diplomacy", "advance dismantle", "take metal"),
	  0, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "115 Human gives 1 point", 115, "bbb", NULL, NULL, { 101 }, { NULL }, { 10, 1, 1, 1 }, { 0, 0, 0, 1 }, { 0 },
	  B("use p1-expedition", "keep ally"), B("use p1-expedition", "keep ally"),
	  0, 0, 0, 0, 1, NR, 0, 0, 0, 0, 0 },
	{ "117 second Diplomacy action for 3 GEMs", 117, "bbb", "B-5", NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-diplomacy", "advance dismantle"), B("use p1-diplomacy", "advance dismantle", "advance construct"),
	  -5, 0, 0, 0, 0, NR, 1, 0, 0, 0, 0 },
	{ "118 metal for 2 GEMs", 118, "bbb", NULL, NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-transport", "buy metal", "done"), B("use p1-transport", "buy metal", "done", "accept"),
	  -2, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "125 Dismantle: food or water", 125, "ppp", NULL, NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-dismantle", "dismantle p1-transport"), B("use p1-dismantle", "dismantle p1-transport", "take water"),
	  0, 0, 1, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "126 Human gives 2 GEMs", 126, "ppp", NULL, NULL, { 101 }, { NULL }, { 10, 1, 1, 1 }, { 0, 0, 0, 1 }, { 0 },
	  B("use p1-expedition", "keep ally"), B("use p1-expedition", "keep ally"),
	  2, 0, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "128 income exchange", 128, "ppp", NULL, NULL, { 0 }, { NULL }, { 5, 1, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income", "exchange food for water"),
	  0, -1, 1, 1, 0, NR, 0, 0, 0, 0, 0 },
	/* ------------------------------------------------ Level-2 Sectors */
	{ "206 Diplomacy ship: a transaction", 206, "tttt", "B-5", NULL, { 101 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-diplomacy", "advance dismantle"), B("use p1-diplomacy", "advance dismantle", "buy metal"),
	  -3, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "206's transaction does not trigger Hub B-3", 206, "tttt", "B-3", NULL, { 101 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-diplomacy", "advance dismantle"), B("use p1-diplomacy", "advance dismantle", "buy metal"),
	  -3, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "207 fourth Alien free", 207, "tttt", NULL, NULL, { 101 }, { NULL }, { 10, 3, 3, 0 }, { 0 }, { 0 },
	  B("use p1-transport", "alien teal 101", "alien teal 101", "alien teal 101"),
	  B("use p1-transport", "alien teal 101", "alien teal 101", "alien teal 101"),
	  0, 0, 0, 0, 0, B(0, 1, 0, 0, 0, 0), 0, 0, 0, 0, 0 },
	{ "211 Construction 1 metal less", 211, "bbbb", NULL, NULL, { 111 }, { NULL }, { 10, 0, 0, 10 }, { 0 }, { 0 },
	  B("use p1-construct", "build 121"), B("use p1-construct", "build 121"),
	  0, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "214 +1 transaction", 214, "bbbb", NULL, NULL, { 111 }, { NULL }, { 20, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-transport", "buy metal", "buy metal", "buy metal"),
	  B("use p1-transport", "buy metal", "buy metal", "buy metal", "buy metal"),
	  -3, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "215 Human 1 resource less", 215, "bbbb", NULL, NULL, { 111, 101 }, { NULL }, { 10, 1, 1, 1 }, { 0, 0, 0, 1 }, { 0 },
	  B("use p1-expedition", "keep ally", "place human 101"), B("use p1-expedition", "keep ally", "place human 101"),
	  0, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "217 Human gives a resource", 217, "bbbb", NULL, NULL, { 101 }, { NULL }, { 10, 1, 1, 1 }, { 0, 0, 0, 1 }, { 0 },
	  B("use p1-expedition", "keep ally"), B("use p1-expedition", "keep ally", "place human 101", "take food"),
	  0, 1, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "222 income Human for 6 GEMs", 222, "ppppp", NULL, NULL, { 121 }, { NULL }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income", "accept", "done"),
	  -6, 1, 1, 1, 0, B(0, 0, 0, 0, 0, 1), 0, 0, 0, 0, 0 },
	{ "225 income Expedition 2 dice keep 1", 225, "ppppp", NULL, NULL, { 0 }, { NULL }, { 5, 0, 0, 0 }, { 0, 1, 1, 0 }, { 0 },
	  B("income"), B("income", "keep metal"),
	  1, 1, 1, 1, 0, NR, 0, 0, 0, 2, 1 },
	{ "226 income points for level-3 tokens", 226, "ppppp", NULL, NULL, { 0 }, { NULL }, { 5, 0, 0, 0 }, { 0 }, { 3, 4, 5, 0 },
	  B("income"), B("income"),
	  0, 1, 1, 1, 2, NR, 0, 0, 0, 0, 0 },
	{ "227 Construction gives an Alien", 227, "pppp", NULL, NULL, { 0 }, { NULL }, { 10, 0, 0, 10 }, { 0 }, { 0 },
	  B("use p1-construct", "build 121"), B("use p1-construct", "build 121", "place pink 121"),
	  0, 0, 0, 0, 0, B(0, 0, 0, 1, 0, 0), 0, 0, 0, 0, 0 },
	{ "228 income 2 resources for 4 GEMs", 228, "ppppp", NULL, NULL, { 0 }, { NULL }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income", "take food water"),
	  1 - 4, 1 + 1, 1, 1, 0, NR, 0, 0, 0, 0, 0 },
	/* ------------------------------------------------ Level-3 Sectors, ongoing */
	{ "301 Expedition: a transaction", 301, "ttttt", NULL, NULL, { 101, 201 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-expedition", "keep nothing"), B("use p1-expedition", "keep nothing", "buy metal"),
	  -3, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "303 Transport: a free Human", 303, "ttttt", NULL, NULL, { 101, 201 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-transport", "buy metal", "done"), B("use p1-transport", "buy metal", "done", "place human 101"),
	  0, 0, 0, 0, 0, B(0, 0, 0, 0, 0, 1), 0, 0, 0, 0, 0 },
	{ "306 Transport: a free advance", 306, "ttttt", NULL, NULL, { 101, 201 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-transport", "buy metal", "done"), B("use p1-transport", "buy metal", "done", "advance construct"),
	  0, 0, 0, 0, 0, NR, 1, 0, 0, 0, 0 },
	{ "307 income: 2 resources for a Human", 307, "ttttt", NULL, NULL, { 101, 201 }, { NULL }, { 5, 1, 1, 0 }, { 0 }, { 0 },
	  B("income"), B("income", "pay food water", "place human 101", "done"),
	  3, 0, -1, 0, 0, B(0, 0, 0, 0, 0, 1), 0, 0, 0, 0, 0 },
	{ "308 income 1 GEM per 2 Humans", 308, "hhhhh", NULL, NULL, { 0 }, { NULL }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income"),
	  2 + 2, 1, 1, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "315 one reroll", 315, "bbbbb", NULL, NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0, 0, 1, 0 }, { 0 },
	  B("use p1-expedition", "keep metal"), B("use p1-expedition", "reroll metal", "keep metal"),
	  0, 0, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "318 Diplomacy ship: a Human", 318, "bbbbb", "B-5", NULL, { 111, 213 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-diplomacy", "advance dismantle"), B("use p1-diplomacy", "advance dismantle", "place human 111"),
	  0, 0, 0, 0, 0, B(0, 0, 0, 0, 0, 1), 0, 0, 0, 0, 0 },
	{ "322 Expedition: a Human for 4 GEMs", 322, "ppppp", NULL, NULL, { 121, 221 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-expedition", "keep nothing"), B("use p1-expedition", "keep nothing", "accept", "place human 121"),
	  -4, 0, 0, 0, 0, B(0, 0, 0, 0, 0, 1), 0, 0, 0, 0, 0 },
	{ "324 not triggered by Hub A-3's transaction", 324, "ppppp", "A-3", NULL, { 121, 221 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-expedition", "keep nothing", "buy metal"), B("use p1-expedition", "keep nothing", "buy metal"),
	  0, 0, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "325 Transport: a free Alien of any colour", 325, "ppppp", NULL, NULL, { 121, 221 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-transport", "buy metal", "done"), B("use p1-transport", "buy metal", "done", "place gold 121"),
	  0, 0, 0, 0, 0, B(0, 0, 0, 0, 1, 0), 0, 0, 0, 0, 0 },
	{ "326 Construction 2 metal less", 326, "ppppp", NULL, NULL, { 121, 221 }, { NULL }, { 10, 0, 0, 10 }, { 0 }, { 0 },
	  B("use p1-construct", "build 101"), B("use p1-construct", "build 101"),
	  0, 0, 0, 2, 0, NR, 0, 0, 0, 0, 0 },
	/* ------------------------------------------------ Level-3 Sectors, immediate (against a Sector of the same colour and cost) */
	{ "301 built: another turn", 0, NULL, NULL, NULL, { 101, 201 }, { NULL }, { 10, 0, 0, 20 }, { 0 }, { 0 },
	  B("use p1-construct", "build 305"), B("use p1-construct", "build 301"),
	  0, 0, 0, 0, 0, NR, 0, 0, 1, 0, 0 },
	{ "302 built: 5 points", 0, NULL, NULL, NULL, { 101, 201 }, { NULL }, { 10, 0, 0, 20 }, { 0 }, { 0 },
	  B("use p1-construct", "build 306"), B("use p1-construct", "build 302"),
	  0, 0, 0, 0, 5, NR, 0, 0, 0, 0, 0 },
	{ "307 built: a Human", 0, NULL, NULL, NULL, { 101, 201 }, { NULL }, { 10, 0, 0, 20 }, { 0 }, { 0 },
	  B("use p1-construct", "build 305"), B("use p1-construct", "build 307", "place human 307"),
	  0, 0, 0, 0, 0, B(0, 0, 0, 0, 0, 1), 0, 0, 0, 0, 0 },
	{ "311 built: 2 brown Aliens", 0, NULL, NULL, NULL, { 111, 213 }, { NULL }, { 10, 0, 0, 20 }, { 0 }, { 0 },
	  B("use p1-construct", "build 315"), B("use p1-construct", "build 311", "place brown 311", "place brown 111"),
	  0, 0, 0, 0, 0, B(0, 0, 2, 0, 0, 0), 0, 0, 0, 0, 0 },
	{ "313 built: 5 points", 0, NULL, NULL, NULL, { 111, 213 }, { NULL }, { 10, 0, 0, 20 }, { 0 }, { 0 },
	  B("use p1-construct", "build 315"), B("use p1-construct", "build 313"),
	  0, 0, 0, 0, 5, NR, 0, 0, 0, 0, 0 },
	{ "317 built: 10 points", 0, NULL, NULL, NULL, { 111, 213 }, { NULL }, { 10, 0, 0, 20 }, { 0 }, { 0 },
	  B("use p1-construct", "build 315"), B("use p1-construct", "build 317"),
	  0, 0, 0, 0, 10, NR, 0, 0, 0, 0, 0 },
	{ "318 built: a Human", 0, NULL, NULL, NULL, { 111, 213 }, { NULL }, { 10, 0, 0, 20 }, { 0 }, { 0 },
	  B("use p1-construct", "build 316"), B("use p1-construct", "build 318", "place human 111"),
	  0, 0, 0, 0, 0, B(0, 0, 0, 0, 0, 1), 0, 0, 0, 0, 0 },
	{ "321 built: 7 dice, keep 5, no bonuses", 0, NULL, NULL, NULL, { 121, 221 }, { NULL }, { 10, 0, 0, 20 }, { 2, 2, 2, 1 }, { 0 },
	  B("use p1-construct", "build 325"), B("use p1-construct", "build 321", "keep food food water water metal"),
	  0, 2, 2, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "323 built: another turn", 0, NULL, NULL, NULL, { 121, 221 }, { NULL }, { 10, 0, 0, 20 }, { 0 }, { 0 },
	  B("use p1-construct", "build 325"), B("use p1-construct", "build 323"),
	  0, 0, 0, 0, 0, NR, 0, 0, 1, 0, 0 },
	{ "324 built: 2 pink Aliens", 0, NULL, NULL, NULL, { 121, 221 }, { NULL }, { 10, 0, 0, 20 }, { 0 }, { 0 },
	  B("use p1-construct", "build 328"), B("use p1-construct", "build 324", "place pink 324", "place pink 121"),
	  0, 0, 0, 0, 0, B(0, 0, 0, 2, 0, 0), 0, 0, 0, 0, 0 },
	{ "326 built: a free Level-1 Sector", 0, NULL, NULL, NULL, { 121, 221 }, { NULL }, { 10, 0, 0, 20 }, { 0 }, { 0 },
	  B("use p1-construct", "build 328"), B("use p1-construct", "build 326", "build 111"),
	  0, 0, 0, 0, 0, NR, 0, 1, 0, 0, 0 },
	/* ------------------------------------------------ Basic hubs */
	{ "B-1 Construction gives an Alien", 0, NULL, "B-1", NULL, { 0 }, { NULL }, { 10, 0, 0, 10 }, { 0 }, { 0 },
	  B("use p1-construct", "build 121"), B("use p1-construct", "build 121"),
	  0, 0, 0, 0, 0, B(0, 0, 0, 1, 0, 0), 0, 0, 0, 0, 0 },
	{ "B-3 Transport: a free Alien", 0, NULL, "B-3", NULL, { 101 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-transport", "buy metal", "done"), B("use p1-transport", "buy metal", "done", "place gold 101"),
	  0, 0, 0, 0, 0, B(0, 0, 0, 0, 1, 0), 0, 0, 0, 0, 0 },
	{ "B-4 income 1 GEM per 2 Humans", 0, NULL, "B-4", NULL, { 102 }, { "hhh" }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income"),
	  1, 0, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "B-4 one reroll", 0, NULL, "B-4", NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0, 0, 1, 0 }, { 0 },
	  B("use p1-expedition", "keep metal"), B("use p1-expedition", "reroll metal", "keep metal"),
	  0, 0, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "B-5 income transaction", 0, NULL, "B-5", NULL, { 0 }, { NULL }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income", "buy metal"),
	  -3, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "B-7 income 1 water per 4 brown", 0, NULL, "B-7", NULL, { 111, 213 }, { "bbb", "bbbbb" }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income"),
	  0, 0, 2, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "B-8 income food or water", 0, NULL, "B-8", NULL, { 0 }, { NULL }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income", "take water"),
	  0, 0, 1, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "B-9 income 1 food per 4 teal", 0, NULL, "B-9", NULL, { 102, 201 }, { "ttt", "ttttt" }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income"),
	  0, 2, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "B-10 income 1 GEM per 2 pink", 0, NULL, "B-10", NULL, { 121, 223 }, { "ppp", "pp" }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income", "done"), B("income", "done"),
	  2, 0, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "B-12 Diplomacy ship: a Human", 0, NULL, "B-12", "B-5", { 101 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-diplomacy", "advance dismantle"), B("use p1-diplomacy", "advance dismantle"),
	  0, 0, 0, 0, 0, B(0, 0, 0, 0, 0, 1), 0, 0, 0, 0, 0 },
	/* ------------------------------------------------ Advanced hubs */
	{ "A-3 Transport: 3 dice keep 2", 0, NULL, "A-3", NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 1, 1, 1, 0 }, { 0 },
	  B("use p1-transport", "buy metal", "done"), B("use p1-transport", "buy metal", "done", "keep food water"),
	  0, 1, 1, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "A-3 Expedition: a transaction", 0, NULL, "A-3", NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-expedition", "keep nothing"), B("use p1-expedition", "keep nothing", "buy metal"),
	  -3, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "A-5 another's ship 1 GEM cheaper", 0, NULL, "A-5", NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p2-transport", "buy metal", "done"), B("use p2-transport", "buy metal", "done"),
	  1, 0, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "A-5 neutral ship 1 GEM cheaper", 0, NULL, "A-5", NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use n-transport", "buy metal", "done"), B("use n-transport", "buy metal", "done"),
	  1, 0, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "A-5 own ship full price", 0, NULL, "A-5", NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-transport", "buy metal", "done"), B("use p1-transport", "buy metal", "done"),
	  0, 0, 0, 0, 0, NR, 0, 0, 0, 0, 0 },
	{ "A-6 Construction 1 metal less", 0, NULL, "A-6", NULL, { 0 }, { NULL }, { 10, 0, 0, 10 }, { 0 }, { 0 },
	  B("use p1-construct", "build 121"), B("use p1-construct", "build 121"),
	  0, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "A-7 Diplomacy ship: 1 point", 0, NULL, "A-7", "B-5", { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-diplomacy", "advance dismantle"), B("use p1-diplomacy", "advance dismantle"),
	  0, 0, 0, 0, 1, NR, 0, 0, 0, 0, 0 },
	{ "A-7 neutral Diplomacy ship 2 GEMs cheaper", 0, NULL, "A-7", "B-5", { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use n-diplomacy", "advance dismantle"), B("use n-diplomacy", "advance dismantle"),
	  2, 0, 0, 0, 1, NR, 0, 0, 0, 0, 0 },
	{ "A-7 another's Diplomacy ship 2 GEMs cheaper", 0, NULL, "A-7", "B-5", { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p2-diplomacy", "advance dismantle"), B("use p2-diplomacy", "advance dismantle"),
	  2, 0, 0, 0, 1, NR, 0, 0, 0, 0, 0 },
	{ "A-7 income Diplomacy action", 0, NULL, "A-7", NULL, { 0 }, { NULL }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income", "advance construct"),
	  -2, 0, 0, 0, 0, NR, 1, 0, 0, 0, 0 },
	{ "A-8 Expedition roll +1 keep +1", 0, NULL, "A-8", NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-expedition", "keep nothing"), B("use p1-expedition", "keep nothing"),
	  0, 0, 0, 0, 0, NR, 0, 0, 0, 1, 1 },
	{ "A-8 a Human, then income", 0, NULL, "A-8", NULL, { 102 }, { "h" }, { 5, 1, 1, 1 }, { 0 }, { 0 },
	  B("income"), B("income human 102"),
	  0, -1, -1, -1 + 1, 0, B(0, 0, 0, 0, 0, 1), 0, 0, 0, 0, 0 },
	{ "A-10 Human 1 resource less", 0, NULL, "A-10", NULL, { 101 }, { NULL }, { 10, 1, 1, 1 }, { 0, 0, 0, 1 }, { 0 },
	  B("use p1-expedition", "keep ally"), B("use p1-expedition", "keep ally"),
	  1, 0, 0, 1, 0, NR, 0, 0, 0, 1, 1 },
	{ "A-12 Dismantle +1 metal", 0, NULL, "A-12", NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-dismantle", "dismantle p1-transport"), B("use p1-dismantle", "dismantle p1-transport"),
	  0, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "A-12 Transport +1 transaction", 0, NULL, "A-12", NULL, { 0 }, { NULL }, { 20, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-transport", "buy metal", "buy metal", "buy metal"),
	  B("use p1-transport", "buy metal", "buy metal", "buy metal", "buy metal"),
	  -3, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "A-12 Construction 1 metal less", 0, NULL, "A-12", NULL, { 0 }, { NULL }, { 10, 0, 0, 10 }, { 0 }, { 0 },
	  B("use p1-construct", "build 121"), B("use p1-construct", "build 121"),
	  0, 0, 0, 1, 0, NR, 0, 0, 0, 0, 0 },
	{ "A-12 Expedition keep +1", 0, NULL, "A-12", NULL, { 0 }, { NULL }, { 10, 0, 0, 0 }, { 0 }, { 0 },
	  B("use p1-expedition", "keep nothing"), B("use p1-expedition", "keep nothing"),
	  0, 0, 0, 0, 0, NR, 0, 0, 0, 0, 1 },
	{ "A-12 income: return a resident", 0, NULL, "A-12", NULL, { 102 }, { "tt" }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income", "return teal 102"),
	  0, 0, 0, 0, 0, B(0, -1, 0, 0, 0, 0), 0, 0, 0, 0, 0 },
	{ "A-12 income: nothing to return, 5 points lost", 0, NULL, "A-12", NULL, { 0 }, { NULL }, { 5, 0, 0, 0 }, { 0 }, { 0 },
	  B("income"), B("income"),
	  0, 0, 0, 0, -5, NR, 0, 0, 0, 0, 0 },
};

static struct ssp_state *row_run(const struct row *r, int with, int *rolled, int *cap)
{
	const char *hub = r->hub ? r->hub : "B-12";
	int hubs[2];
	struct ssp_state *st;
	const char *const *steps = with ? r->with_steps : r->base_steps;
	int any_dice = r->dice[0] + r->dice[1] + r->dice[2] + r->dice[3];

	if (!with && !r->sector && r->hub)
		hub = r->base ? r->base : "B-12";
	hubs[0] = HUB(hub);
	hubs[1] = HUB("B-12");
	st = t_blank(2, hubs);
	rng_seed(&rng, 777);
	for (int i = 0; i < 3; i++)
		if (r->other[i])
			t_build(st, 0, r->other[i], r->ores[i]);
	if (with && r->sector)
		t_build(st, 0, r->sector, r->residents);
	set_res(st, 0, r->res[0], r->res[1], r->res[2], r->res[3]);
	for (int t = 0; t < 4; t++) {
		st->pl[0].dip[t] = r->dip0[t];
		st->pl[1].dip[t] = 1;
	}
	st->pl[1].nstand = 1;
	st->pl[1].stand[0] = BN_GEM;
	for (int i = 0; i < 8 && steps[i]; i++) {
		char where[120];
		snprintf(where, sizeof(where), "row \"%s\" (%s)", r->name, with ? "with" : "without");
		if (do_ok(st, 0, steps[i], where) < 0)
			break;
		if (i == 0) {
			*rolled = st->dice[0] + st->dice[1] + st->dice[2] + st->dice[3];
			*cap = st->ntask && st->task[0].kind == TK_DICE ? st->task[0].a : 0;
		}
		if (any_dice && st->ntask && st->task[0].kind == TK_DICE)
			memcpy(st->dice, r->dice, sizeof(st->dice));
	}
	return st;
}

static void test_ssp__abilities_measured(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		int r0 = 0, c0 = 0, r1 = 0, c1 = 0, ca[6], cb[6], dk[6] = { 0 }, dip_a = 0, dip_b = 0, ok = 1;
		struct ssp_state *a = row_run(r, 0, &r0, &c0), *b = row_run(r, 1, &r1, &c1);
		int got[5] = { b->pl[0].res[SSP_GEM] - a->pl[0].res[SSP_GEM], b->pl[0].res[SSP_FOOD] - a->pl[0].res[SSP_FOOD],
			       b->pl[0].res[SSP_WATER] - a->pl[0].res[SSP_WATER],
			       b->pl[0].res[SSP_METAL] - a->pl[0].res[SSP_METAL], b->pl[0].points - a->pl[0].points };
		int want[5] = { r->gems, r->food, r->water, r->metal, r->points };

		ssp_rules_residents(a, 0, ca);
		ssp_rules_residents(b, 0, cb);
		for (int t = 0; t < 4; t++) {
			dip_a += a->pl[0].dip[t];
			dip_b += b->pl[0].dip[t];
		}
		if (memcmp(got, want, sizeof(got)))
			ok = 0;
		for (int k = 1; k <= 5; k++) {
			dk[k] = cb[k] - ca[k];
			/* the Sector's own residents are there only with it */
			if (r->sector)
				for (const char *p = r->residents; *p; p++)
					dk[k] -= ".tbpgh"[k] == *p;
			if (dk[k] != r->dres[k])
				ok = 0;
		}
		if (dip_b - dip_a != r->ddip)
			ok = 0;
		if (ssp_rules_nsectors(b, 0) - ssp_rules_nsectors(a, 0) - (r->sector ? 1 : 0) != r->dsec)
			ok = 0;
		if (r1 - r0 != r->rolled || c1 - c0 != r->cap)
			ok = 0;
		if (t_pending_seat(a) != 1 || t_pending_seat(b) != (r->extra ? 0 : 1) || b->ntask || a->ntask)
			ok = 0;
		/* seat 1's Diplomacy bonus is the same in both: bonus actions trigger no track */
		if (memcmp(a->pl[1].res, b->pl[1].res, sizeof(a->pl[1].res)) || a->pl[1].points != b->pl[1].points)
			ok = 0;
		if (!ok) {
			fprintf(stderr,
				"\n  row \"%s\": gained %d GEMs %d food %d water %d metal %d points, residents t%d b%d p%d g%d h%d,"
				" %d advances, %d Sectors, %d dice, %d capacity; next seat %d/%d"
				" (tasks %d/%d); seat 1 GEMs %d/%d\n",
				r->name, got[0], got[1], got[2], got[3], got[4], dk[1], dk[2], dk[3], dk[4], dk[5], dip_b - dip_a,
				ssp_rules_nsectors(b, 0) - ssp_rules_nsectors(a, 0) - (r->sector ? 1 : 0),
				r1 - r0, c1 - c0, t_pending_seat(a), t_pending_seat(b), a->ntask, b->ntask,
				a->pl[1].res[SSP_GEM], b->pl[1].res[SSP_GEM]);
			CU_FAIL("ability effect differs from the Reference Guide");
		}
		free(a);
		free(b);
	}
}

/* ------------------------------------------------------------------ set-up bonuses */

/* The first legal move of seat (written into buf); 0 or -1 when none. */
static int first_legal(const struct ssp_state *st, int seat, char *buf, size_t sz)
{
	json_t *a = NULL;
	struct err e = { 0 };
	int rc = -1;

	if (G->legal(st, seat, &a, &e) == 0 && json_array_size(a) > 0) {
		snprintf(buf, sz, "%s", json_string_value(json_array_get(a, 0)));
		rc = 0;
	}
	json_decref(a);
	return rc;
}

/* Every hub's starting bonuses (the back side) for seat 0, with no Diplomacy bonus for the free advances. */
static void test_ssp__hub_starting_bonuses(void)
{
	for (int h = 0; h < SSP_NHUBS; h++) {
		const struct ssp_hub_info *hi = &ssp_hubs[h];
		struct ssp_state *st = t_new(2, "{\"hubs\":\"advanced\"}", 90 + (uint64_t)h, &rng);
		char mv[64], want_hub[16];
		int guard = 0, ships = 0, l1dip = 0, l2 = 0, sec_own = 0, sec_priv = 0, dip = 0, colour = -1;
		int want_ships = 9, want_dip = hi->dip[0] + hi->dip[1] + hi->dip[2] + hi->dip[3] + hi->dip_any;
		int seat1_before[4];

		while (st->phase == PH_DRAFT3 || st->phase == PH_DRAFT2) {
			int seat = t_pending_seat(st);
			CU_ASSERT_FATAL(seat >= 0 && first_legal(st, seat, mv, sizeof(mv)) == 0);
			DO(st, seat, mv);
		}
		CU_ASSERT_EQUAL_FATAL(st->phase, PH_HUB);
		st->pl[0].dealt[0] = h;
		st->pl[0].dealt[1] = h == 0 ? 1 : 0;
		if (st->pl[1].dealt[0] == h || st->pl[1].dealt[1] == h)
			st->pl[1].dealt[0] = st->pl[1].dealt[1] = h == 23 ? 22 : 23;
		snprintf(want_hub, sizeof(want_hub), "hub %s", hi->id);
		DO(st, 0, want_hub);
		memcpy(seat1_before, st->pl[1].res, sizeof(seat1_before));
		while (st->phase != PH_TURN && guard++ < 40) {
			int seat = t_pending_seat(st);
			CU_ASSERT_FATAL(seat >= 0);
			if (seat == 0 && st->phase == PH_SETUP && st->task[0].kind == TK_DIPLO)
				DO(st, 0, "advance construct");
			else if (first_legal(st, seat, mv, sizeof(mv)) == 0)
				DO(st, seat, mv);
			else
				CU_FAIL_FATAL("nothing to do in set-up");
		}
		CU_ASSERT_EQUAL(st->pl[0].hub, h);
		/* goods exactly (seat 0 has no turn-order GEMs), advances without bonuses */
		CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], hi->gems);
		CU_ASSERT_EQUAL(st->pl[0].res[SSP_FOOD], hi->food);
		CU_ASSERT_EQUAL(st->pl[0].res[SSP_WATER], hi->water);
		CU_ASSERT_EQUAL(st->pl[0].res[SSP_METAL], hi->metal);
		CU_ASSERT_EQUAL(st->pl[0].points, 0);
		for (int t = 0; t < 4; t++) {
			dip += st->pl[0].dip[t];
			if (t != SSP_CONSTRUCT)
				CU_ASSERT_EQUAL(st->pl[0].dip[t], hi->dip[t]);
		}
		CU_ASSERT_EQUAL(st->pl[0].dip[SSP_CONSTRUCT], hi->dip[SSP_CONSTRUCT] + hi->dip_any);
		CU_ASSERT_EQUAL(dip, want_dip);
		/* ships: extra Level-2 draws (B-2 keeps 2 of 3, A-1 and A-8 1 of 2), discards (B-6, A-4, A-5, A-9) */
		for (int s = 0; s < SSP_NSHIPS; s++)
			if (st->ship_loc[s] == 0) {
				ships++;
				l1dip += s < SSP_SHIP_L2 && ssp_ships[s].type == SSP_DIPLOMACY;
				l2 += ssp_ships[s].level == 2;
			}
		if (!strcmp(hi->id, "B-2"))
			want_ships += 2;
		if (!strcmp(hi->id, "A-1") || !strcmp(hi->id, "A-8"))
			want_ships += 1;
		if (!strcmp(hi->id, "B-6") || !strcmp(hi->id, "A-4") || !strcmp(hi->id, "A-5"))
			want_ships -= 1;
		if (!strcmp(hi->id, "A-5") || !strcmp(hi->id, "A-9"))
			want_ships -= 1;
		if (ships != want_ships)
			fprintf(stderr, "\n  hub %s: %d ships, expected %d\n", hi->id, ships, want_ships);
		CU_ASSERT_EQUAL(ships, want_ships);
		CU_ASSERT_EQUAL(l1dip, !strcmp(hi->id, "B-6") || !strcmp(hi->id, "A-4") || !strcmp(hi->id, "A-5") ? 0 : 1);
		CU_ASSERT_EQUAL(l2, 2 + (!strcmp(hi->id, "B-2") ? 2 : 0) + (!strcmp(hi->id, "A-1") || !strcmp(hi->id, "A-8") ? 1 : 0) -
					    (!strcmp(hi->id, "A-5") || !strcmp(hi->id, "A-9") ? 1 : 0));
		/* Sectors: a free Level-1 of the hub's colour; A-6 a private one of each colour and level */
		for (int i = 0; i < SSP_NSECTORS; i++) {
			if (st->sec_loc[i] == 0) {
				sec_own++;
				CU_ASSERT_EQUAL(ssp_sectors[i].level, 1);
				colour = ssp_sectors[i].colour;
			}
			sec_priv += st->sec_loc[i] == SEC_PRIVATE;
		}
		if (!strcmp(hi->id, "B-6") || !strcmp(hi->id, "B-7")) {
			CU_ASSERT_EQUAL(sec_own, 1);
			CU_ASSERT_EQUAL(colour, 1);
		} else if (!strcmp(hi->id, "B-8") || !strcmp(hi->id, "B-9")) {
			CU_ASSERT_EQUAL(sec_own, 1);
			CU_ASSERT_EQUAL(colour, 0);
		} else if (!strcmp(hi->id, "B-10") || !strcmp(hi->id, "B-11")) {
			CU_ASSERT_EQUAL(sec_own, 1);
			CU_ASSERT_EQUAL(colour, 2);
		} else {
			CU_ASSERT_EQUAL(sec_own, 0);
		}
		CU_ASSERT_EQUAL(sec_priv, !strcmp(hi->id, "A-6") ? 9 : 0);
		if (!strcmp(hi->id, "A-6"))
			for (int l = 1; l <= 3; l++)
				for (int c = 0; c < 3; c++) {
					int n = 0;
					for (int i = 0; i < SSP_NSECTORS; i++)
						n += st->sec_loc[i] == SEC_PRIVATE && ssp_sectors[i].level == l && ssp_sectors[i].colour == c;
					CU_ASSERT_EQUAL(n, 1);
				}
		/* residents on the hub: B-11 three pink, A-11 one of each kind */
		if (!strcmp(hi->id, "B-11")) {
			CU_ASSERT_EQUAL(st->pl[0].hubq[0], SSP_PINK);
			CU_ASSERT_EQUAL(st->pl[0].hubq[1], SSP_PINK);
			CU_ASSERT_EQUAL(st->pl[0].hubq[2], SSP_PINK);
		} else if (!strcmp(hi->id, "A-11")) {
			for (int k = 1; k <= 5; k++)
				CU_ASSERT_EQUAL(st->pl[0].hubq[k - 1], k);
		} else {
			for (int q = 0; q < 5; q++)
				CU_ASSERT_EQUAL(st->pl[0].hubq[q], 0);
		}
		CU_ASSERT_EQUAL(ssp_rules_check(st, NULL), 0);
		free(st);
	}
}

/* ------------------------------------------------------------------ Diplomacy cases */

/* Behind the leader, on the start space, and the two-bonus top levels (sole on 4, tied on 4, tied on 5). */
static void test_ssp__diplomacy_levels(void)
{
	int hubs[4] = { HUB("B-12"), HUB("B-12"), HUB("B-12"), HUB("B-12") };
	struct ssp_state *st = t_blank(4, hubs), *c;

	/* Dismantle track: seat 1 alone on 4, seat 2 behind on 3, seat 3 behind on 2, seat 0 on the start space */
	st->pl[1].dip[SSP_DISMANTLE] = 4;
	st->pl[2].dip[SSP_DISMANTLE] = 3;
	st->pl[3].dip[SSP_DISMANTLE] = 2;
	set_res(st, 0, 10, 0, 0, 0);
	c = malloc(sizeof(*c));
	*c = *st;
	DO(st, 0, "use p1-dismantle");
	DO(st, 0, "dismantle p1-diplomacy");
	CU_ASSERT_EQUAL(st->phase, PH_DIPLO);
	CU_ASSERT_EQUAL(st->dip_mask, (1u << 1) | (1u << 2) | (1u << 3)); /* seat 0: nothing on the start space */
	/* sole leader on 4: two different bonuses from the first four spaces */
	CU_ASSERT(t_is_legal(st, 1, "bonus point,metal"));
	CU_ASSERT(t_is_legal(st, 1, "bonus gem,2gems"));
	REFUSE(st, 1, "bonus metal,metal", ERR_ILLEGAL, "different");
	REFUSE(st, 1, "bonus water,point", ERR_ILLEGAL, "metal");
	/* behind on 3: any single space below level 3 (point at most) */
	CU_ASSERT(t_is_legal(st, 2, "bonus point"));
	REFUSE(st, 2, "bonus metal", ERR_ILLEGAL, "level 2 or lower");
	REFUSE(st, 2, "bonus metal,point", ERR_ILLEGAL, "two bonuses");
	/* behind on 2: 2 GEMs at most */
	CU_ASSERT(t_is_legal(st, 3, "bonus 2gems"));
	REFUSE(st, 3, "bonus point", ERR_ILLEGAL, "level 1 or lower");
	DO(st, 1, "bonus metal,point");
	DO(st, 2, "bonus point");
	DO(st, 3, "bonus 2gems");
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_METAL], 1);
	CU_ASSERT_EQUAL(st->pl[1].points, 1);
	CU_ASSERT_EQUAL(st->pl[2].points, 1);
	CU_ASSERT_EQUAL(st->pl[3].res[SSP_GEM], 2);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 10 - 2);
	CU_ASSERT_EQUAL(st->pl[0].points, 0);
	CU_ASSERT_EQUAL(t_pending_seat(st), 1);
	/* tied on 4: one single bonus below level 4 (the track's resource at most) */
	c->pl[2].dip[SSP_DISMANTLE] = 4;
	*st = *c;
	DO(st, 0, "use p1-dismantle");
	DO(st, 0, "dismantle p1-diplomacy");
	CU_ASSERT(t_is_legal(st, 1, "bonus metal"));
	REFUSE(st, 1, "bonus metal,point", ERR_ILLEGAL, "two bonuses");
	CU_ASSERT(t_is_legal(st, 2, "bonus metal"));
	/* tied on 5: two different bonuses each */
	c->pl[1].dip[SSP_DISMANTLE] = 5;
	c->pl[2].dip[SSP_DISMANTLE] = 5;
	*st = *c;
	DO(st, 0, "use p1-dismantle");
	DO(st, 0, "dismantle p1-diplomacy");
	CU_ASSERT(t_is_legal(st, 1, "bonus point,metal"));
	CU_ASSERT(t_is_legal(st, 2, "bonus gem,metal"));
	REFUSE(st, 1, "bonus metal,metal", ERR_ILLEGAL, "different");
	/* sole on 5: two as well */
	c->pl[2].dip[SSP_DISMANTLE] = 4;
	*st = *c;
	DO(st, 0, "use p1-dismantle");
	DO(st, 0, "dismantle p1-diplomacy");
	CU_ASSERT(t_is_legal(st, 1, "bonus 2gems,point"));
	CU_ASSERT(!t_is_legal(st, 2, "bonus 2gems,point"));
	free(c);
	free(st);
}

/* Bonus actions trigger no further bonuses and no Diplomacy: Hub A-3's transaction after an Expedition. */
static void test_ssp__bonus_actions_trigger_nothing(void)
{
	int hubs[2] = { HUB("A-3"), HUB("B-12") };
	struct ssp_state *st = t_blank(2, hubs);

	t_build(st, 0, 107, "ttt");  /* +2 GEMs with a Transport ship */
	t_build(st, 0, 116, "bbb");  /* +1 point with a Transport ship */
	t_build(st, 0, 214, "bbbb"); /* +1 transaction */
	t_build(st, 0, 121, NULL);
	st->pl[1].dip[SSP_TRANSPORT] = 2; /* would take a bonus from a Transport ship */
	st->pl[1].dip[SSP_EXPEDITION] = 1;
	st->pl[1].nstand = 1;
	st->pl[1].stand[0] = BN_GEM;
	set_res(st, 0, 10, 1, 1, 0);
	DO(st, 0, "use p1-expedition");
	DO(st, 0, "keep nothing");
	CU_ASSERT_EQUAL(st->task[0].kind, TK_TRANSPORT);
	CU_ASSERT_EQUAL(st->task[0].a, 1); /* 214 does not add to it */
	DO(st, 0, "alien pink 121");
	/* no 107 GEMs, no 116 point, no B-3-like Alien; seat 1: the Expedition track's GEM only */
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 10 - 3);
	CU_ASSERT_EQUAL(st->pl[0].points, 0);
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_GEM], 1);
	CU_ASSERT_EQUAL(st->pl[1].points, 0);
	CU_ASSERT_EQUAL(t_pending_seat(st), 1);
	free(st);
}

/* Sector 321 built: 7 dice, keep 5, whatever Expedition bonuses the station has (A-10, 204, 105). */
static void test_ssp__sector_321_no_bonuses(void)
{
	int hubs[2] = { HUB("A-10"), HUB("B-12") };
	struct ssp_state *st = t_blank(2, hubs);

	t_build(st, 0, 121, "ppp");
	t_build(st, 0, 221, NULL);
	t_build(st, 0, 204, "tttt");
	t_build(st, 0, 105, "ttt");
	st->pl[1].dip[SSP_EXPEDITION] = 1;
	set_res(st, 0, 10, 0, 0, 14);
	DO(st, 0, "use p1-construct");
	DO(st, 0, "build 321");
	CU_ASSERT_EQUAL(st->task[0].kind, TK_DICE);
	CU_ASSERT_EQUAL(st->task[0].a, 5);
	CU_ASSERT_EQUAL(st->task[0].b, 0);
	CU_ASSERT_EQUAL(st->dice[0] + st->dice[1] + st->dice[2] + st->dice[3], 7);
	st->dice[0] = 6;
	st->dice[1] = 1;
	st->dice[2] = st->dice[3] = 0;
	REFUSE(st, 0, "keep 6 food", ERR_ILLEGAL, "capacity is 5");
	DO(st, 0, "keep 5 food");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_FOOD], 5);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 10 - 3); /* no 105 GEMs */
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_GEM], 0);      /* no Expedition track bonus */
	CU_ASSERT_EQUAL(t_pending_seat(st), 1);
	free(st);
}

/* Hub B-4 and Sector 315 together: two rerolls. */
static void test_ssp__reroll_twice(void)
{
	int hubs[2] = { HUB("B-4"), HUB("B-12") };
	struct ssp_state *st = t_blank(2, hubs);

	t_build(st, 0, 111, NULL);
	t_build(st, 0, 213, NULL);
	t_build(st, 0, 315, "bbbbb");
	set_res(st, 0, 10, 0, 0, 0);
	DO(st, 0, "use p1-expedition");
	CU_ASSERT_EQUAL(st->task[0].b, 2);
	st->dice[0] = 6;
	st->dice[1] = st->dice[2] = st->dice[3] = 0;
	DO(st, 0, "reroll 2 food");
	CU_ASSERT_EQUAL(st->dice[0] + st->dice[1] + st->dice[2] + st->dice[3], 6);
	DO(st, 0, "reroll food");
	REFUSE(st, 0, "reroll food", ERR_ILLEGAL, "no reroll left");
	free(st);
}

/* Hub B-11: three hub quarters for pink, gold and Humans (not teal or brown); pink on it score the end bonus. */
static void test_ssp__hub_b11_quarters(void)
{
	int hubs[2] = { HUB("B-11"), HUB("B-12") };
	struct ssp_state *st = t_blank(2, hubs);
	int sc[SSP_MAXP][SC_NCAT];

	st->pl[0].hubq[0] = SSP_PINK;
	st->aliens[SSP_PINK - 1]--;
	t_build(st, 0, 101, NULL);
	set_res(st, 0, 10, 3, 3, 0);
	DO(st, 0, "use p1-transport");
	REFUSE(st, 0, "alien teal hub", ERR_ILLEGAL, "no free quarters");
	DO(st, 0, "alien gold hub");
	DO(st, 0, "alien pink hub");
	REFUSE(st, 0, "alien gold hub", ERR_ILLEGAL, "no free quarters");
	CU_ASSERT_EQUAL(st->pl[0].hubq[1], SSP_GOLD);
	CU_ASSERT_EQUAL(st->pl[0].hubq[2], SSP_PINK);
	DO(st, 0, "alien teal 101");
	ssp_rules_score(st, sc);
	CU_ASSERT_EQUAL(sc[0][SC_BONUS], 2); /* 1 point per pink Alien */
	free(st);
}

/* Hub A-11: its quarters' income, and the first five incomes move one hub resident to a Sector. */
static void test_ssp__hub_a11(void)
{
	int hubs[2] = { HUB("A-11"), HUB("B-12") };
	struct ssp_state *st = t_blank(2, hubs);

	for (int k = 1; k <= 5; k++)
		st->pl[0].hubq[k - 1] = k;
	st->humans--;
	for (int k = 0; k < 4; k++)
		st->aliens[k]--;
	t_build(st, 0, 101, NULL);
	set_res(st, 0, 5, 0, 0, 0);
	DO(st, 0, "income");
	/* 5 ships + teal 1 food, brown 1 water, pink 1 metal, gold 2 GEMs, Human 2 GEMs */
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_GEM], 5 + 5 + 2 + 2);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_FOOD], 1);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_WATER], 1);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_METAL], 1);
	DO(st, 0, "done"); /* the paid relocation comes first */
	CU_ASSERT_EQUAL(st->task[0].kind, TK_A11);
	REFUSE(st, 0, "place brown 101", ERR_ILLEGAL, "own colour");
	DO(st, 0, "place gold 101");
	CU_ASSERT_EQUAL(st->pl[0].hubq[3], 0);
	CU_ASSERT_EQUAL(st->pl[0].hubq[4], SSP_HUMAN); /* no shift left on this hub */
	ASSERT_STR_EQ(residents_of(st, 101), "g..");
	CU_ASSERT_EQUAL(st->pl[0].incomes, 1);
	CU_ASSERT_EQUAL(t_pending_seat(st), 1);
	/* after five incomes nothing moves any more */
	st->active = 0;
	st->pl[0].incomes = 5;
	st->pl[0].res[SSP_GEM] = 0;
	DO(st, 0, "income");
	DO(st, 0, "done");
	CU_ASSERT_EQUAL(st->ntask, 0);
	CU_ASSERT_EQUAL(st->pl[0].hubq[4], SSP_HUMAN);
	free(st);
}

/* Hub A-6: private Sectors only its owner builds. */
static void test_ssp__hub_a6_private(void)
{
	int hubs[2] = { HUB("A-6"), HUB("B-12") };
	struct ssp_state *st = t_blank(2, hubs);

	st->sec_loc[SEC(103)] = SEC_PRIVATE + 0;
	set_res(st, 0, 10, 0, 0, 5);
	set_res(st, 1, 10, 0, 0, 10);
	st->active = 1;
	DO(st, 1, "use p2-construct");
	REFUSE(st, 1, "build 103", ERR_ILLEGAL, "not in the supply");
	DO(st, 1, "build 101");
	DO(st, 0, "use p1-construct");
	DO(st, 0, "build 103");
	CU_ASSERT_EQUAL(st->sec_loc[SEC(103)], 0);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_METAL], 5 - (6 - 1));
	free(st);
}

/* Hub A-1 converts 1 metal a turn; Hub B-6 sells points for 4 GEMs, any number of times. */
static void test_ssp__hub_a1_b6_any_time(void)
{
	int hubs[2] = { HUB("A-1"), HUB("B-6") };
	struct ssp_state *st = t_blank(2, hubs);

	set_res(st, 0, 10, 0, 0, 2);
	DO(st, 0, "convert metal water");
	REFUSE(st, 0, "convert metal food", ERR_ILLEGAL, "one conversion per turn");
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_WATER], 1);
	CU_ASSERT_EQUAL(st->pl[0].res[SSP_METAL], 1);
	REFUSE(st, 1, "convert metal food", ERR_FORBIDDEN, "");
	DO(st, 0, "use p1-dismantle");
	DO(st, 0, "dismantle p1-transport");
	st->pl[1].points = 2;
	set_res(st, 1, 0, 0, 0, 0);
	DO(st, 1, "sell point");
	DO(st, 1, "sell point");
	CU_ASSERT_EQUAL(st->pl[1].res[SSP_GEM], 8);
	CU_ASSERT_EQUAL(st->pl[1].points, 0);
	REFUSE(st, 1, "sell point", ERR_ILLEGAL, "no point to sell");
	REFUSE(st, 0, "sell point", ERR_FORBIDDEN, "");
	free(st);
}

/* End-of-game bonuses of every hub and Sector that has one, each against the same station without it. */
static void test_ssp__end_bonuses(void)
{
	static const struct {
		const char *hub;
		int sector;
		int want;
	} cases[] = {
		{ "B-1", 0, 2 * 1 },   /* 2 per Level-3 Sector (302) */
		{ "B-4", 0, 3 },       /* 1 per Human */
		{ "B-5", 0, 2 * 2 },   /* 2 per full Sector (101, 111) */
		{ "B-6", 0, 4 },       /* 1 per brown Alien */
		{ "B-7", 0, 4 },
		{ "B-8", 0, 5 },       /* 1 per teal Alien */
		{ "B-9", 0, 5 },
		{ "B-10", 0, 2 },      /* 1 per pink Alien */
		{ "B-11", 0, 2 },
		{ "B-12", 0, 3 },      /* 1 per Human */
		{ "A-1", 0, 10 },      /* two ships left: 10 */
		{ "A-4", 0, 2 * 2 },   /* 2 per ship left */
		{ "A-6", 0, 6 },       /* 1 per Sector */
		{ "B-3", 305, 4 },     /* 1 per 3 metal (13 metal) */
		{ "B-3", 306, 5 },     /* 1 per teal */
		{ "B-3", 308, 3 },     /* 1 per Human */
		{ "B-3", 316, 4 },     /* 1 per brown */
		{ "B-3", 325, 2 },     /* 1 per pink */
		{ "B-3", 327, 3 },     /* 1 per Human */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int hubs[2] = { HUB(cases[i].hub), HUB("B-3") }, base_hubs[2] = { HUB("B-3"), HUB("B-3") };
		struct ssp_state *a = t_blank(2, cases[i].sector ? hubs : base_hubs), *b = t_blank(2, hubs);
		int sa[SSP_MAXP][SC_NCAT], sb[SSP_MAXP][SC_NCAT];
		struct ssp_state *both[2] = { a, b };

		for (int j = 0; j < 2; j++) {
			struct ssp_state *st = both[j];
			t_build(st, 0, 101, "tth");
			t_build(st, 0, 201, "ttt");
			t_build(st, 0, 302, "h");
			t_build(st, 0, 111, "bbh");
			t_build(st, 0, 211, "bb");
			t_build(st, 0, 121, "pp");
			set_res(st, 0, 0, 0, 0, 13);
			for (int s = 2; s < 5; s++)
				st->ship_loc[s] = SL_GONE;
		}
		/* the end quarter occupied in the run with the Sector (those residents are not the counted kinds) */
		if (cases[i].sector)
			t_build(b, 0, cases[i].sector, "gggggg");
		ssp_rules_score(a, sa);
		ssp_rules_score(b, sb);
		if (sb[0][SC_BONUS] - sa[0][SC_BONUS] != cases[i].want)
			fprintf(stderr, "\n  end bonus of %s %d: %d, expected %d\n", cases[i].hub, cases[i].sector,
				sb[0][SC_BONUS] - sa[0][SC_BONUS], cases[i].want);
		CU_ASSERT_EQUAL(sb[0][SC_BONUS] - sa[0][SC_BONUS], cases[i].want);
		free(a);
		free(b);
	}
}

static CU_TestInfo ability_cases[] = {
	{ "test_ssp__abilities_measured", test_ssp__abilities_measured },
	{ "test_ssp__hub_starting_bonuses", test_ssp__hub_starting_bonuses },
	{ "test_ssp__diplomacy_levels", test_ssp__diplomacy_levels },
	{ "test_ssp__bonus_actions_trigger_nothing", test_ssp__bonus_actions_trigger_nothing },
	{ "test_ssp__sector_321_no_bonuses", test_ssp__sector_321_no_bonuses },
	{ "test_ssp__reroll_twice", test_ssp__reroll_twice },
	{ "test_ssp__hub_b11_quarters", test_ssp__hub_b11_quarters },
	{ "test_ssp__hub_a11", test_ssp__hub_a11 },
	{ "test_ssp__hub_a6_private", test_ssp__hub_a6_private },
	{ "test_ssp__hub_a1_b6_any_time", test_ssp__hub_a1_b6_any_time },
	{ "test_ssp__end_bonuses", test_ssp__end_bonuses },
	CU_TEST_INFO_NULL,
};

int ssp_abilities_register(void)
{
	rng_seed(&rng, 4711);
	TESTS_SUITE("space_station_phoenix_abilities", NULL, NULL, ability_cases);
	return 0;
}
