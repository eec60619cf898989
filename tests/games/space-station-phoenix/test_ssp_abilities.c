/* tests/games/space-station-phoenix/test_ssp_abilities.c: every Station Hub's starting bonuses (the abilities' rule cases are in cases/) */
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

static CU_TestInfo ability_cases[] = {
	{ "test_ssp__hub_starting_bonuses", test_ssp__hub_starting_bonuses },
	CU_TEST_INFO_NULL,
};

int ssp_abilities_register(void)
{
	rng_seed(&rng, 4711);
	TESTS_SUITE("space_station_phoenix_abilities", NULL, NULL, ability_cases);
	return 0;
}
