/* tests/games/space-station-phoenix/test_ssp.c: Space Station Phoenix: set-up, the rule cases (cases/, one file a topic), notation, view */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "games/cases.h"
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
	/* no hidden information: the other seats' dealt hubs are shown too */
	CU_ASSERT_EQUAL(G->view(st, 0, &view, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(json_object_get(json_array_get(json_object_get(view, "players"), 0), "dealt_hubs"));
	CU_ASSERT_PTR_NOT_NULL(json_object_get(json_array_get(json_object_get(view, "players"), 1), "dealt_hubs"));
	json_decref(view);
	/* Level-3 draft: turn order then reverse */
	for (int i = 0; i < 2 * n; i++) {
		json_t *legal = NULL;
		int seat = t_pending_seat(st);
		int want = n <= 3 ? order3[n][i] : (i < n ? i : 2 * n - 1 - i);
		CU_ASSERT_EQUAL(seat, want);
		REFUSE(st, (seat + 1) % n, "draft construct-3a", ERR_FORBIDDEN, "not your turn");
		G->legal(st, seat, &legal, &e);
		/* one draft per card on display, two same cards (construct-3a, construct-3b) once */
		{
			int cards = 0, left = 0;
			for (int s = 0; s < SSP_NSHIPS; s++) {
				left += st->ship_loc[s] == SL_DISPLAY;
				cards += st->ship_loc[s] == SL_DISPLAY && ssp_rules_first_card(st, s) == s;
			}
			CU_ASSERT_EQUAL(left, ssp_l3_display_by_n[n] - i);
			CU_ASSERT_EQUAL((int)json_array_size(legal), cards);
		}
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

static struct ssp_state *blank(int n)
{
	int hubs[4] = { HUB("B-5"), HUB("B-5"), HUB("B-5"), HUB("B-5") };
	return t_blank(n, hubs);
}

/* ------------------------------------------------------------------ rule cases */

/*
 * The rule cases (tests/games/space-station-phoenix/cases, one .txt file a
 * topic; the language in its README). A position starts empty in the middle
 * of a game (t_blank: p1 to play, every hub B-5, five Level-1 ships each).
 */

/* What "measure" compares between two runs of the same play. */
enum { MS_GEM, MS_FOOD, MS_WATER, MS_METAL, MS_POINTS, MS_TEAL, MS_BROWN, MS_PINK, MS_GOLD, MS_HUMAN,
       MS_ADVANCES, MS_SECTORS, MS_ROLLED, MS_KEEP, MS_N };
static const char *const measure_names[MS_N] = { "gems", "food", "water", "metal", "points", "teal", "brown",
						  "pink", "gold", "human", "advances", "sectors", "rolled", "keep" };

struct ssp_case_extra {
	int measuring;            /* 0: none, 1: the first run, 2: the second */
	struct ssp_state mark;    /* where the first run began ("back" returns here) */
	struct rng mark_rng;
	int start[SSP_MAXP][MS_N];/* the current run's start */
	int first[SSP_MAXP][MS_N];/* the first run's gains */
	int steps;                /* steps of the current run so far */
};

/* One extra per program: the cases run one after the other. */
static struct ssp_case_extra case_extra;

static int ssp_case_players(struct cases_run *run, int n, void **state)
{
	int hubs[4] = { HUB("B-5"), HUB("B-5"), HUB("B-5"), HUB("B-5") };

	if (n < 2 || n > SSP_MAXP) {
		cases_fail(run, "players: 2 to 4, not %d", n);
		return -1;
	}
	memset(&case_extra, 0, sizeof(case_extra));
	*state = t_blank(n, hubs);
	return 0;
}

static void measure_now(const struct ssp_state *st, int out[SSP_MAXP][MS_N])
{
	for (int p = 0; p < st->nplayers; p++) {
		int count[6];

		out[p][MS_GEM] = st->pl[p].res[SSP_GEM];
		out[p][MS_FOOD] = st->pl[p].res[SSP_FOOD];
		out[p][MS_WATER] = st->pl[p].res[SSP_WATER];
		out[p][MS_METAL] = st->pl[p].res[SSP_METAL];
		out[p][MS_POINTS] = st->pl[p].points;
		ssp_rules_residents(st, p, count);
		for (int k = 1; k <= 5; k++)
			out[p][MS_TEAL + k - 1] = count[k];
		out[p][MS_ADVANCES] = st->pl[p].dip[0] + st->pl[p].dip[1] + st->pl[p].dip[2] + st->pl[p].dip[3];
		out[p][MS_SECTORS] = ssp_rules_nsectors(st, p);
		out[p][MS_ROLLED] = out[p][MS_KEEP] = 0;
	}
}

/* After each accepted step: the first step's dice and capacity are part of the measure. */
static void ssp_case_after_step(struct cases_run *run, void *state)
{
	const struct ssp_state *st = state;
	struct ssp_case_extra *x = &case_extra;

	/* counted for the seat that played the first step */
	if (x->measuring && x->steps++ == 0) {
		x->start[run->last_seat][MS_ROLLED] = -(st->dice[0] + st->dice[1] + st->dice[2] + st->dice[3]);
		x->start[run->last_seat][MS_KEEP] = -(st->ntask && st->task[0].kind == TK_DICE ? st->task[0].a : 0);
	}
}

/* The gains of the current run: now less its start (rolled and keep: at the first step). */
static void run_gains(const struct ssp_state *st, int out[SSP_MAXP][MS_N])
{
	measure_now(st, out);
	for (int p = 0; p < st->nplayers; p++)
		for (int i = 0; i < MS_N; i++)
			out[p][i] -= case_extra.start[p][i];
}

static int resident_kind(const char c)
{
	const char *k = strchr(".tbpgh", c);

	return c && k ? (int)(k - ".tbpgh") : -1;
}

static int track_of(const char *w)
{
	for (int t = 0; w && t < 4; t++)
		if (!strcmp(ssp_text_track(t), w))
			return t;
	return -1;
}

static int sector_arg(struct cases_run *run, const char *w)
{
	int idx = w ? ssp_data_sector_find((int)strtol(w, NULL, 10)) : -1;

	if (idx < 0)
		cases_fail(run, "no Sector %s", w ? w : "");
	return idx;
}

static int ship_arg(struct cases_run *run, const char *w)
{
	int s = w ? ssp_data_ship_find(w) : -1;

	if (s < 0)
		cases_fail(run, "no ship %s", w ? w : "");
	return s;
}

static int hub_arg(struct cases_run *run, const char *w)
{
	int h = w ? ssp_data_hub_find(w) : -1;

	if (h < 0)
		cases_fail(run, "no hub %s", w ? w : "");
	return h;
}

static const char *place_text(int loc, char *buf, size_t size, int sector)
{
	if (loc >= 0 && loc < SSP_MAXP)
		snprintf(buf, size, "p%d", loc + 1);
	else if (sector && loc >= SEC_PRIVATE)
		snprintf(buf, size, "private-p%d", loc - SEC_PRIVATE + 1);
	else if (!sector && loc >= SL_DRAWN)
		snprintf(buf, size, "drawn-p%d", loc - SL_DRAWN + 1);
	else if (sector)
		snprintf(buf, size, "%s", loc == SEC_BOX ? "box" : loc == SEC_DISPLAY ? "display" : loc == SEC_GONE ? "gone" : "?");
	else
		snprintf(buf, size, "%s", loc == SL_BOX ? "box" : loc == SL_DISPLAY ? "display" : loc == SL_NEUTRAL ? "neutral" :
					  loc == SL_GONE ? "gone" : loc == SL_DECK ? "deck" : "?");
	return buf;
}

static const char *const task_names[] = { "none", "dismantle", "build", "transport", "dice", "diplomacy", "place",
					  "take", "accept", "buy2", "exchange", "human2", "relocate", "return",
					  "discard", "a11", "after" };
static const char *const phase_names[] = { "draft3", "draft2", "hub", "setup", "turn", "diplomacy", "over" };
static const char *const score_names[SC_NCAT] = { "points", "sectors", "residents", "humans", "gold", "teal",
						   "pink", "brown", "bonuses", "leftovers", "total" };

static int ssp_case_position(struct cases_run *run, struct ssp_state *st, int argc, char **argv)
{
	const char *cmd = argv[0];
	int p = cases_seat(argv[1]), k;

	if (!strcmp(cmd, "phase")) {
		for (k = 0; k < (int)(sizeof(phase_names) / sizeof(phase_names[0])); k++)
			if (argv[1] && !strcmp(argv[1], phase_names[k]))
				return st->phase = k, 0;
		return cases_fail(run, "unknown phase '%s'", argv[1] ? argv[1] : ""), 0;
	}
	if (!strcmp(cmd, "display") || !strcmp(cmd, "gone") || !strcmp(cmd, "used") || !strcmp(cmd, "unused")) {
		/* display SECTOR...: back on display; gone SHIP...: dismantled; used / unused SHIP... */
		for (int i = 1; i < argc; i++) {
			int x = cmd[0] == 'd' ? sector_arg(run, argv[i]) : ship_arg(run, argv[i]);

			if (x < 0)
				continue;
			if (cmd[0] == 'd')
				st->sec_loc[x] = SEC_DISPLAY;
			else if (cmd[0] == 'g')
				st->ship_loc[x] = SL_GONE;
			else
				st->ship_used[x] = cmd[0] == 'u' && cmd[1] == 's' ? 1 : 0;
		}
		return 0;
	}
	if (!strcmp(cmd, "dice")) {
		/* dice F W M H: the Expedition dice now showing food, water, metal, Human */
		if (argc != 5 || !st->ntask || st->task[0].kind != TK_DICE)
			return cases_fail(run, "dice F W M H needs four numbers and dice rolled"), 0;
		for (int i = 0; i < 4; i++)
			st->dice[i] = (int)strtol(argv[i + 1], NULL, 10);
		return 0;
	}
	if (!strcmp(cmd, "supply")) {
		/* supply KIND N: residents of that kind in the game (and in the supply) */
		k = argv[1] ? resident_kind(argv[1][0]) : -1;
		if (k <= 0 || argc != 3)
			return cases_fail(run, "supply teal|brown|pink|gold|human N"), 0;
		if (k == SSP_HUMAN)
			st->humans = st->human_total = (int)strtol(argv[2], NULL, 10);
		else
			st->aliens[k - 1] = st->alien_total[k - 1] = (int)strtol(argv[2], NULL, 10);
		return 0;
	}
	if (!strcmp(cmd, "resident")) {
		/* resident SECTOR Q KIND: quarter Q (1..) holds KIND (. for empty), taken from the supply */
		int idx = sector_arg(run, argv[1]), q = argv[2] ? (int)strtol(argv[2], NULL, 10) - 1 : -1;
		int kind = argv[3] ? resident_kind(argv[3][0]) : -1, old;

		if (idx < 0 || q < 0 || q >= ssp_sectors[idx].nq || kind < 0)
			return cases_fail(run, "resident SECTOR QUARTER KIND"), 0;
		old = st->sec_res[idx][q];
		if (old == SSP_HUMAN)
			st->humans++;
		else if (old)
			st->aliens[old - 1]++;
		if (kind == SSP_HUMAN)
			st->humans--;
		else if (kind)
			st->aliens[kind - 1]--;
		st->sec_res[idx][q] = kind;
		return 0;
	}
	if (!strcmp(cmd, "measure")) {
		/* the start of a measured run; the first one is also where "back" returns */
		struct ssp_case_extra *x = &case_extra;

		if (x->measuring == 0 || x->measuring == 3) {
			x->mark = *st;
			x->mark_rng = run->rng;
			x->measuring = 1;
		} else {
			x->measuring = 2;
		}
		measure_now(st, x->start);
		x->steps = 0;
		return 0;
	}
	if (!strcmp(cmd, "baseline")) {
		struct ssp_case_extra *x = &case_extra;

		if (x->measuring != 1)
			return cases_fail(run, "baseline without a first measured run"), 0;
		run_gains(st, x->first);
		x->measuring = 3;
		return 0;
	}
	if (!strcmp(cmd, "back")) {
		struct ssp_case_extra *x = &case_extra;

		if (x->measuring != 3)
			return cases_fail(run, "back needs measure and baseline first"), 0;
		*st = x->mark;
		run->rng = x->mark_rng;
		x->measuring = 2;
		return 0;
	}
	/* the rest name a seat first */
	if (strcmp(cmd, "hub") && strcmp(cmd, "build") && strcmp(cmd, "private") && strcmp(cmd, "ship") &&
	    strcmp(cmd, "res") && strcmp(cmd, "gems") && strcmp(cmd, "points") && strcmp(cmd, "dip") && strcmp(cmd, "standing") &&
	    strcmp(cmd, "active") && strcmp(cmd, "hubq") && strcmp(cmd, "incomes"))
		return 1;
	if (p < 0 || p >= st->nplayers)
		return cases_fail(run, "%s: expected a seat p1..p%d, not '%s'", cmd, st->nplayers, argv[1] ? argv[1] : ""), 0;
	if (!strcmp(cmd, "hub")) {
		if ((k = hub_arg(run, argv[2])) >= 0)
			st->pl[p].hub = k;
	} else if (!strcmp(cmd, "build")) {
		/* build P SECTOR [RESIDENTS]: built on P's station, residents as text ("tbp", '.' empty) */
		int idx = sector_arg(run, argv[2]);

		if (idx >= 0)
			t_build(st, p, ssp_sectors[idx].id, argv[3]);
	} else if (!strcmp(cmd, "private")) {
		int idx = sector_arg(run, argv[2]);

		if (idx >= 0)
			st->sec_loc[idx] = SEC_PRIVATE + p;
	} else if (!strcmp(cmd, "ship")) {
		for (int i = 2; i < argc; i++)
			if ((k = ship_arg(run, argv[i])) >= 0)
				st->ship_loc[k] = p;
	} else if (!strcmp(cmd, "res")) {
		/* res P GEMS FOOD WATER METAL */
		if (argc != 6)
			return cases_fail(run, "res P GEMS FOOD WATER METAL"), 0;
		st->pl[p].res[SSP_GEM] = (int)strtol(argv[2], NULL, 10);
		st->pl[p].res[SSP_FOOD] = (int)strtol(argv[3], NULL, 10);
		st->pl[p].res[SSP_WATER] = (int)strtol(argv[4], NULL, 10);
		st->pl[p].res[SSP_METAL] = (int)strtol(argv[5], NULL, 10);
	} else if (!strcmp(cmd, "gems")) {
		st->pl[p].res[SSP_GEM] = (int)strtol(argv[2], NULL, 10);
	} else if (!strcmp(cmd, "points")) {
		st->pl[p].points = (int)strtol(argv[2], NULL, 10);
	} else if (!strcmp(cmd, "incomes")) {
		st->pl[p].incomes = (int)strtol(argv[2], NULL, 10);
	} else if (!strcmp(cmd, "dip")) {
		/* dip P TRACK N, or dip P all N */
		int all = argv[2] && !strcmp(argv[2], "all"), t = track_of(argv[2]);

		if (!all && t < 0)
			return cases_fail(run, "unknown track '%s'", argv[2] ? argv[2] : ""), 0;
		for (int i = 0; i < 4; i++)
			if (all || i == t)
				st->pl[p].dip[i] = (int)strtol(argv[3] ? argv[3] : "0", NULL, 10);
	} else if (!strcmp(cmd, "standing")) {
		/* standing P BONUS...: P's standing Diplomacy choices, in order */
		st->pl[p].nstand = 0;
		for (int i = 2; i < argc && st->pl[p].nstand < 6; i++) {
			for (k = 0; k < 6; k++)
				if (!strcmp(ssp_text_bonus(k), argv[i]))
					break;
			if (k == 6)
				return cases_fail(run, "unknown bonus '%s'", argv[i]), 0;
			st->pl[p].stand[st->pl[p].nstand++] = k;
		}
	} else if (!strcmp(cmd, "active")) {
		st->active = p;
	} else if (!strcmp(cmd, "hubq")) {
		/* hubq P TEXT: the hub quarters ("p....": one pink), residents taken from the supply */
		for (int q = 0; q < 5; q++) {
			int kind = argv[2] && q < (int)strlen(argv[2]) ? resident_kind(argv[2][q]) : 0;

			if (kind < 0)
				return cases_fail(run, "hubq P TEXT of .tbpgh"), 0;
			if (kind == SSP_HUMAN)
				st->humans--;
			else if (kind)
				st->aliens[kind - 1]--;
			st->pl[p].hubq[q] = kind;
		}
	}
	return 0;
}

/* expect gain P [WHAT N]... | expect gain P none: the second run against the first, the rest unchanged */
static void expect_gain(struct cases_run *run, const struct ssp_state *st, int p, int argc, char **argv)
{
	int now[SSP_MAXP][MS_N], want[MS_N] = { 0 };

	if (case_extra.measuring != 2) {
		cases_fail(run, "expect gain needs measure, baseline, back and measure first");
		return;
	}
	for (int i = 3; i < argc; i += 2) {
		int m = 0;

		if (!strcmp(argv[i], "none"))
			break;
		while (m < MS_N && strcmp(measure_names[m], argv[i]))
			m++;
		if (m == MS_N || i + 1 >= argc) {
			cases_fail(run, "expect gain: '%s' needs one of gems ... keep and a number", argv[i]);
			return;
		}
		want[m] = (int)strtol(argv[i + 1], NULL, 10);
	}
	run_gains(st, now);
	for (int m = 0; m < MS_N; m++)
		if (now[p][m] - case_extra.first[p][m] != want[m])
			cases_fail(run, "expected a gain of %d %s for p%d, got %d", want[m], measure_names[m], p + 1,
				   now[p][m] - case_extra.first[p][m]);
}

static int ssp_case_expect(struct cases_run *run, struct ssp_state *st, int argc, char **argv)
{
	const char *what = argv[1];
	char got[128];
	int p = cases_seat(argv[2]);

	if (!strcmp(what, "residents")) {
		int idx = sector_arg(run, argv[2]);

		if (idx >= 0) {
			for (int q = 0; q < ssp_sectors[idx].nq; q++)
				got[q] = ".tbpgh"[st->sec_res[idx][q]];
			got[ssp_sectors[idx].nq] = 0;
			cases_expect_str(run, "residents", argv[3], got);
		}
	} else if (!strcmp(what, "sector")) {
		int idx = sector_arg(run, argv[2]);

		if (idx >= 0)
			cases_expect_str(run, "Sector at", argv[3], place_text(st->sec_loc[idx], got, sizeof(got), 1));
	} else if (!strcmp(what, "ship")) {
		int s = ship_arg(run, argv[2]);

		if (s >= 0)
			cases_expect_str(run, "ship at", argv[3], place_text(st->ship_loc[s], got, sizeof(got), 0));
	} else if (!strcmp(what, "used")) {
		int s = ship_arg(run, argv[2]);

		if (s >= 0)
			cases_expect_str(run, "used", argv[3], st->ship_used[s] ? "yes" : "no");
	} else if (!strcmp(what, "rolled")) {
		cases_expect_int(run, "dice rolled", argv[2], st->dice[0] + st->dice[1] + st->dice[2] + st->dice[3]);
	} else if (!strcmp(what, "task")) {
		/* expect task none | expect task KIND [A [B]] (the front of the queue) */
		if (!strcmp(argv[2], "none"))
			return cases_expect_int(run, "tasks", "0", st->ntask), 0;
		cases_expect_str(run, "task", argv[2], st->ntask ? task_names[st->task[0].kind] : "none");
		if (argc > 3 && strcmp(argv[3], "-"))
			cases_expect_int(run, "task a", argv[3], st->task[0].a);
		if (argc > 4)
			cases_expect_int(run, "task b", argv[4], st->task[0].b);
	} else if (!strcmp(what, "phase")) {
		cases_expect_str(run, what, argv[2], phase_names[st->phase]);
	} else if (!strcmp(what, "dipmask")) {
		cases_seats_text((unsigned)st->dip_mask, got, sizeof(got));
		{
			struct buf want = BUF_INIT;

			for (int i = 2; i < argc; i++)
				buf_addf(&want, "%s%s", i > 2 ? " " : "", argv[i]);
			cases_expect_str(run, "seats choosing a bonus", want.data, got);
			buf_release(&want);
		}
	} else if (!strcmp(what, "endby")) {
		snprintf(got, sizeof(got), st->end_by >= 0 ? "p%d" : "none", st->end_by + 1);
		cases_expect_str(run, "end triggered by", argv[2], got);
	} else if (!strcmp(what, "over")) {
		cases_expect_str(run, what, argv[2], ssp_rules_over(st) ? "yes" : "no");
	} else if (!strcmp(what, "supply")) {
		int k = argv[2] ? resident_kind(argv[2][0]) : -1;

		if (k <= 0)
			return cases_fail(run, "expect supply KIND N"), 0;
		cases_expect_int(run, "supply", argv[3], k == SSP_HUMAN ? st->humans : st->aliens[k - 1]);
	} else if (p < 0 || p >= st->nplayers) {
		return 1;
	} else if (!strcmp(what, "gems") || !strcmp(what, "food") || !strcmp(what, "water") || !strcmp(what, "metal") ||
		   !strcmp(what, "points") || !strcmp(what, "incomes")) {
		int v = what[0] == 'g' ? st->pl[p].res[SSP_GEM] : what[0] == 'f' ? st->pl[p].res[SSP_FOOD] :
			what[0] == 'w' ? st->pl[p].res[SSP_WATER] : what[0] == 'm' ? st->pl[p].res[SSP_METAL] :
			what[0] == 'p' ? st->pl[p].points : st->pl[p].incomes;

		cases_expect_int(run, what, argv[3], v);
	} else if (!strcmp(what, "dip")) {
		int t = track_of(argv[3]);

		if (t < 0)
			return cases_fail(run, "unknown track '%s'", argv[3] ? argv[3] : ""), 0;
		cases_expect_int(run, "Diplomacy level", argv[4], st->pl[p].dip[t]);
	} else if (!strcmp(what, "neutral")) {
		cases_expect_str(run, "Neutral Ship token on", argv[3], st->pl[p].neutral >= 0 ? ssp_ships[st->pl[p].neutral].id : "none");
	} else if (!strcmp(what, "hubq")) {
		for (int q = 0; q < 5; q++)
			got[q] = ".tbpgh"[st->pl[p].hubq[q]];
		got[5] = 0;
		cases_expect_str(run, "hub quarters", argv[3], got);
	} else if (!strcmp(what, "standing")) {
		size_t len = 0;

		got[0] = 0;
		for (int i = 0; i < st->pl[p].nstand; i++)
			len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s", i ? "," : "", ssp_text_bonus(st->pl[p].stand[i]));
		cases_expect_str(run, what, argv[3], len ? got : "none");
	} else if (!strcmp(what, "cost")) {
		int s = ship_arg(run, argv[3]);

		if (s >= 0)
			cases_expect_int(run, "cost", argv[4], ssp_rules_cost(st, p, s));
	} else if (!strcmp(what, "score") || !strcmp(what, "scores")) {
		/* expect score P CATEGORY N; expect scores P N... (every category, score-sheet order) */
		int sc[SSP_MAXP][SC_NCAT];

		ssp_rules_score(st, sc);
		if (what[5] == 's') {
			size_t len = 0;
			struct buf want = BUF_INIT;

			for (int c = 0; c < SC_NCAT; c++)
				len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%d", c ? " " : "", sc[p][c]);
			for (int i = 3; i < argc; i++)
				buf_addf(&want, "%s%s", i > 3 ? " " : "", argv[i]);
			cases_expect_str(run, "scores", want.data, got);
			buf_release(&want);
		} else {
			int c = 0;

			while (c < SC_NCAT && (!argv[3] || strcmp(score_names[c], argv[3])))
				c++;
			if (c == SC_NCAT)
				return cases_fail(run, "unknown score category '%s'", argv[3] ? argv[3] : ""), 0;
			cases_expect_int(run, score_names[c], argv[4], sc[p][c]);
		}
	} else if (!strcmp(what, "gain")) {
		expect_gain(run, st, p, argc, argv);
	} else {
		return 1;
	}
	return 0;
}

static int ssp_case_command(struct cases_run *run, void *state, int argc, char **argv, const char *rest)
{
	(void)rest;
	if (!strcmp(argv[0], "expect"))
		return argc > 2 ? ssp_case_expect(run, state, argc, argv) : 1;
	return ssp_case_position(run, state, argc, argv);
}

static const struct cases_game ssp_case_game = {
	.ops = &game_space_station_phoenix,
	.state_size = sizeof(struct ssp_state),
	/* a refused step may change the state (game.h allows it: the engine applies to a copy) */
	.pure_refusal = 0,
	.players = ssp_case_players,
	.command = ssp_case_command,
	.after_step = ssp_case_after_step,
};

static void test_ssp__rule_cases(void)
{
	cases_check_dir(&ssp_case_game, "tests/games/space-station-phoenix/cases", 10);
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
	/* no hidden information: a spectator sees the hubs dealt to every player */
	CU_ASSERT_EQUAL(json_array_size(json_object_get(json_array_get(json_object_get(v, "players"), 0), "dealt_hubs")), 2);
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
	{ "test_ssp__rule_cases", test_ssp__rule_cases },
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
