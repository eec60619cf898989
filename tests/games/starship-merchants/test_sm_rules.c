/* tests/games/starship-merchants/test_sm_rules.c: Starship Merchants: the rule cases (cases/, one file a topic), set-up, notation, view, snapshots, bots */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "games/starship-merchants/sm_internal.h"
#include "games/starship-merchants/sm_data.h"
#include "games/starship-merchants/starship_merchants.h"
#include "games/cases.h"
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

/* ---- rule cases (tests/games/starship-merchants/cases, one .txt file each; the language in its README) ---- */

static int name_in(const char *const *names, int n, const char *w)
{
	for (int i = 0; w && i < n; i++)
		if (!strcasecmp(names[i], w))
			return i;
	return -1;
}

static const char *const place_slugs[4] = { "shipyard", "market", "belt", "dock" };
static const char *const phase_slugs[SM_PH_COUNT] = { "start", "shipyard", "market", "belt", "run",
						      "explore", "salvage", "trigger", "over" };

static int kind_arg(struct cases_run *run, const char *w)
{
	for (int k = 0; w && k < SM_NKINDS; k++)
		if (!strcmp(sm_kinds[k].slug, w))
			return k;
	cases_fail(run, "unknown token kind '%s'", w ? w : "");
	return -1;
}

static int card_arg(struct cases_run *run, const char *w)
{
	for (int c = 0; w && c < SM_NCARDS; c++)
		if (!strcmp(sm_cards[c].slug, w))
			return c;
	if (w && !strcmp(w, "none"))
		return -1;
	cases_fail(run, "unknown card '%s'", w ? w : "");
	return -2;
}

static int dest_arg(struct cases_run *run, const char *w)
{
	for (int d = 0; w && d < SM_NDESTS; d++)
		if (!strcmp(sm_dests[d].slug, w))
			return d;
	if (w && (!strcmp(w, "none") || !strcmp(w, "-")))
		return -1;
	cases_fail(run, "unknown destination '%s'", w ? w : "");
	return -2;
}

static int place_arg(struct cases_run *run, const char *w)
{
	int p = name_in(place_slugs, 4, w);

	if (p < 0)
		cases_fail(run, "unknown place '%s'", w ? w : "");
	return p;
}

static int seat_of(struct cases_run *run, const struct sm_state *s, const char *w)
{
	int p = cases_seat(w);

	if (p < 0 || p >= s->n) {
		cases_fail(run, "expected a seat p1..p%d, not '%s'", s->n, w ? w : "");
		return -1;
	}
	return p;
}

/* The ship numbered w of seat p, or NULL (reported). */
static struct sm_ship *ship_of(struct cases_run *run, struct sm_state *s, int p, const char *w)
{
	int i = w ? sm_ship_find(&s->p[p], (int)strtol(w, NULL, 10)) : -1;

	if (i < 0) {
		cases_fail(run, "p%d has no ship %s", p + 1, w ? w : "");
		return NULL;
	}
	return &s->p[p].ships[i];
}

/* Set a token count, the difference taken from (or put back into) the bag. */
static void set_tokens(struct sm_state *s, int *where, int k, int n)
{
	s->bag[k] -= n - *where;
	*where = n;
}

static long num(const char *w)
{
	return w ? strtol(w, NULL, 10) : 0;
}

static int sm_case_position(struct cases_run *run, struct sm_state *s, int argc, char **argv)
{
	const char *cmd = argv[0];
	int p = -1, k;
	struct sm_ship *sh;

	if (!strcmp(cmd, "era")) {
		s->era = (int)num(argv[1]);
		return 0;
	}
	if (!strcmp(cmd, "supply")) {
		k = name_in(sm_type_slugs, SM_NTYPES, argv[2]);
		if (k < 0 || num(argv[1]) < 1 || num(argv[1]) > SM_NMARKS)
			cases_fail(run, "supply MARK TYPE N");
		else
			s->supply[num(argv[1]) - 1][k] = (int)num(argv[3]);
		return 0;
	}
	if (!strcmp(cmd, "known")) {
		if ((k = kind_arg(run, argv[1])) >= 0)
			set_tokens(s, &s->known[k], k, (int)num(argv[2]));
		return 0;
	}
	if (!strcmp(cmd, "market") || !strcmp(cmd, "refineries") || !strcmp(cmd, "destination")) {
		/* market SLOT CARD, refineries SLOT CARD, destination SLOT DEST: one slot of a display */
		int slot = (int)num(argv[1]) - 1, v = cmd[0] == 'd' ? dest_arg(run, argv[2]) : card_arg(run, argv[2]);
		int slots = cmd[0] == 'm' ? SM_MARKET_SLOTS : cmd[0] == 'r' ? SM_REFINERY_SLOTS : SM_DEST_SLOTS;

		if (slot < 0 || slot >= slots || v < -1)
			cases_fail(run, "%s SLOT NAME", cmd);
		else if (cmd[0] == 'm')
			s->mdisp[slot] = v;
		else if (cmd[0] == 'r')
			s->rdisp[slot] = v;
		else
			s->ddisp[slot] = v;
		return 0;
	}
	if (!strcmp(cmd, "phase")) {
		if ((k = name_in(phase_slugs, SM_PH_COUNT, argv[1])) < 0)
			cases_fail(run, "unknown phase '%s'", argv[1] ? argv[1] : "");
		else
			s->phase = k;
		return 0;
	}
	/* the rest name a seat first */
	if (strcmp(cmd, "at") && strcmp(cmd, "turn") && strcmp(cmd, "pos") && strcmp(cmd, "credits") &&
	    strcmp(cmd, "ship") && strcmp(cmd, "remove") && strcmp(cmd, "pilot") && strcmp(cmd, "gear") &&
	    strcmp(cmd, "cargo") && strcmp(cmd, "claimed") && strcmp(cmd, "dest") && strcmp(cmd, "local") &&
	    strcmp(cmd, "lclaim") && strcmp(cmd, "nosetup") && strcmp(cmd, "refinery") && strcmp(cmd, "dockat"))
		return 1;
	if ((p = seat_of(run, s, argv[1])) < 0)
		return 0;
	if (!strcmp(cmd, "at")) {
		/* at P PLACE: P is there, about to start a turn (set-up tokens local from the Belt on) */
		int place = place_arg(run, argv[2]);

		if (place < 0)
			return 0;
		s->cur = p;
		s->phase = SM_PH_START;
		s->p[p].pos = place;
		if (place >= SM_BELT) {
			s->p[p].belt_seen = 1;
			for (k = 0; k < SM_NKINDS; k++) {
				s->p[p].local[k] += s->p[p].setup[k];
				s->p[p].setup[k] = 0;
			}
		}
	} else if (!strcmp(cmd, "turn")) {
		s->cur = p;
	} else if (!strcmp(cmd, "pos")) {
		int place = place_arg(run, argv[2]);

		if (place >= 0)
			s->p[p].pos = place;
	} else if (!strcmp(cmd, "credits")) {
		s->p[p].credits = (int)num(argv[2]);
	} else if (!strcmp(cmd, "ship")) {
		/* ship P MARK TYPE [LOANS]: numbered like a bought one */
		int type = name_in(sm_type_slugs, SM_NTYPES, argv[3]);
		struct sm_player *pl = &s->p[p];

		if (type < 0 || num(argv[2]) < 1 || num(argv[2]) > SM_NMARKS || pl->nships >= SM_MAX_SHIPS) {
			cases_fail(run, "ship P MARK scout|tug [LOANS]");
			return 0;
		}
		sh = &pl->ships[pl->nships++];
		memset(sh, 0, sizeof(*sh));
		sh->no = pl->next_no++;
		sh->mark = (int)num(argv[2]);
		sh->type = type;
		sh->loans = (int)num(argv[4]);
		sh->pilot = -1;
		sh->dest = -1;
	} else if (!strcmp(cmd, "remove")) {
		struct sm_player *pl = &s->p[p];

		if ((sh = ship_of(run, s, p, argv[2]))) {
			int i = (int)(sh - pl->ships);

			memmove(&pl->ships[i], &pl->ships[i + 1], (size_t)(pl->nships - i - 1) * sizeof(*sh));
			pl->nships--;
		}
	} else if (!strcmp(cmd, "pilot") || !strcmp(cmd, "gear") || !strcmp(cmd, "dest")) {
		if (!(sh = ship_of(run, s, p, argv[2])))
			return 0;
		if (cmd[0] == 'p') {
			int c = card_arg(run, argv[3]);

			if (c >= -1)
				sh->pilot = c;
		} else if (cmd[0] == 'd') {
			int d = dest_arg(run, argv[3]);

			if (d >= -1)
				sh->dest = d;
		} else {
			sh->ngear = 0;
			for (int i = 3; i < argc && sh->ngear < SM_MAX_GEAR; i++) {
				int c = card_arg(run, argv[i]);

				if (c >= 0)
					sh->gear[sh->ngear++] = c;
			}
		}
	} else if (!strcmp(cmd, "cargo") || !strcmp(cmd, "claimed")) {
		/* cargo P NO KIND N: tokens aboard (from the bag); claimed P NO KIND N: of those, claimed */
		if (!(sh = ship_of(run, s, p, argv[2])) || (k = kind_arg(run, argv[3])) < 0)
			return 0;
		if (cmd[1] == 'a')
			set_tokens(s, &sh->cargo[k], k, (int)num(argv[4]));
		else
			sh->claimed[k] = (int)num(argv[4]);
	} else if (!strcmp(cmd, "local") || !strcmp(cmd, "lclaim")) {
		if ((k = kind_arg(run, argv[2])) >= 0)
			set_tokens(s, cmd[1] == 'o' ? &s->p[p].local[k] : &s->p[p].lclaim[k], k, (int)num(argv[3]));
	} else if (!strcmp(cmd, "nosetup")) {
		/* the set-up tokens go back into the bag and the Belt counts as seen */
		for (k = 0; k < SM_NKINDS; k++) {
			s->bag[k] += s->p[p].setup[k];
			s->p[p].setup[k] = 0;
		}
		s->p[p].belt_seen = 1;
	} else if (!strcmp(cmd, "refinery")) {
		int c = card_arg(run, argv[2]);

		if (c >= 0)
			s->p[p].refinery[c] = argc > 3 ? (int)num(argv[3]) : 1;
	} else if (!strcmp(cmd, "dockat")) {
		/* dockat P N, or next: the next arrival order */
		s->p[p].dock_at = argv[2] && !strcmp(argv[2], "next") ? ++s->dock_seq : (int)num(argv[2]);
	}
	return 0;
}

static const char *yes_no(int v)
{
	return v ? "yes" : "no";
}

/* expect ship P NO WHAT VALUE... */
static void sm_expect_ship(struct cases_run *run, struct sm_state *s, int p, int argc, char **argv)
{
	struct sm_ship *sh = ship_of(run, s, p, argv[3]);
	const char *what = argv[4];
	char got[160];
	int k;

	if (!sh || !what)
		return;
	if (!strcmp(what, "cargo") || !strcmp(what, "claimed")) {
		if ((k = kind_arg(run, argv[5])) >= 0)
			cases_expect_int(run, what, argv[6], what[1] == 'a' ? sh->cargo[k] : sh->claimed[k]);
		return;
	}
	if (!strcmp(what, "gear")) {
		size_t len = 0;

		got[0] = 0;
		for (int i = 0; i < sh->ngear; i++)
			len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s", i ? " " : "", sm_cards[sh->gear[i]].slug);
		if (!sh->ngear)
			snprintf(got, sizeof(got), "none");
		{
			struct buf want = BUF_INIT;

			for (int i = 5; i < argc; i++)
				buf_addf(&want, "%s%s", i > 5 ? " " : "", argv[i]);
			cases_expect_str(run, "gear", want.data, got);
			buf_release(&want);
		}
		return;
	}
	if (!strcmp(what, "pilot"))
		cases_expect_str(run, what, argv[5], sh->pilot >= 0 ? sm_cards[sh->pilot].slug : "none");
	else if (!strcmp(what, "dest"))
		cases_expect_str(run, what, argv[5], sh->dest >= 0 ? sm_dests[sh->dest].slug : "none");
	else if (!strcmp(what, "obsolete"))
		cases_expect_str(run, what, argv[5], yes_no(sm_ship_obsolete(s, sh)));
	else if (!strcmp(what, "worth")) {
		/* what it would earn at the Dock now with one token of each kind aboard */
		struct sm_ship one = *sh;

		for (k = 0; k < SM_NKINDS; k++)
			one.cargo[k] = 1;
		cases_expect_int(run, what, argv[5], sm_ship_payment(s, p, &one));
	} else {
		long v;

		if (!strcmp(what, "mark"))
			v = sh->mark;
		else if (!strcmp(what, "loans"))
			v = sh->loans;
		else if (!strcmp(what, "energy"))
			v = sm_ship_energy(sh);
		else if (!strcmp(what, "capacity"))
			v = sm_ship_capacity(sh);
		else if (!strcmp(what, "load"))
			v = sm_ship_load(sh);
		else {
			cases_fail(run, "unknown ship check '%s'", what);
			return;
		}
		cases_expect_int(run, what, argv[5], v);
	}
}

static int sm_case_expect(struct cases_run *run, struct sm_state *s, int argc, char **argv)
{
	const char *what = argv[1];
	char got[160];
	int p = -1, k;

	/* checks without a seat */
	if (!strcmp(what, "phase"))
		return cases_expect_str(run, what, argv[2], phase_slugs[s->phase]), 0;
	if (!strcmp(what, "era"))
		return cases_expect_int(run, what, argv[2], s->era), 0;
	if (!strcmp(what, "energy"))
		return cases_expect_int(run, what, argv[2], s->energy), 0;
	if (!strcmp(what, "final"))
		return cases_expect_str(run, what, argv[2], yes_no(s->final)), 0;
	if (!strcmp(what, "refineries"))
		return cases_expect_str(run, "refineries open", argv[2], yes_no(s->refineries_open)), 0;
	if (!strcmp(what, "trigger")) {
		snprintf(got, sizeof(got), s->trigger >= 0 ? "p%d" : "none", s->trigger + 1);
		return cases_expect_str(run, what, argv[2], got), 0;
	}
	if (!strcmp(what, "drawn"))
		return cases_expect_str(run, what, argv[2], s->drawn >= 0 ? sm_kinds[s->drawn].slug : "none"), 0;
	if (!strcmp(what, "known")) {
		if ((k = kind_arg(run, argv[2])) >= 0)
			cases_expect_int(run, what, argv[3], s->known[k]);
		return 0;
	}
	if (!strcmp(what, "bag")) {
		long n = 0;

		for (k = 0; k < SM_NKINDS; k++)
			n += s->bag[k];
		return cases_expect_int(run, "tokens in the bag", argv[2], n), 0;
	}
	if (!strcmp(what, "deck")) {
		long n = 0;

		for (int c = 0; c < SM_NCARDS; c++)
			n += s->deck[c];
		return cases_expect_int(run, "cards in the deck", argv[2], n), 0;
	}
	if (!strcmp(what, "discard")) {
		int c = card_arg(run, argv[2]);

		if (c >= 0)
			cases_expect_int(run, "discarded", argv[3], s->disc[c]);
		return 0;
	}
	if (!strcmp(what, "destdiscard")) {
		int d = dest_arg(run, argv[2]);

		if (d >= 0)
			cases_expect_int(run, "destinations discarded", argv[3], s->ddisc[d]);
		return 0;
	}
	if (!strcmp(what, "market") || !strcmp(what, "destination")) {
		/* expect market SLOT CARD|none, expect destination SLOT DEST|none|any */
		int slot = (int)num(argv[2]) - 1, v;

		if (slot < 0 || slot >= (what[0] == 'm' ? SM_MARKET_SLOTS : SM_DEST_SLOTS))
			return cases_fail(run, "expect %s SLOT ...", what), 0;
		v = what[0] == 'm' ? s->mdisp[slot] : s->ddisp[slot];
		if (argv[3] && !strcmp(argv[3], "any"))
			return cases_expect_str(run, what, "any", v >= 0 ? "any" : "none"), 0;
		return cases_expect_str(run, what, argv[3], v < 0 ? "none" : what[0] == 'm' ? sm_cards[v].slug : sm_dests[v].slug), 0;
	}
	if (!strcmp(what, "supply")) {
		k = name_in(sm_type_slugs, SM_NTYPES, argv[3]);
		if (k < 0 || num(argv[2]) < 1 || num(argv[2]) > SM_NMARKS)
			return cases_fail(run, "expect supply MARK TYPE N"), 0;
		return cases_expect_int(run, what, argv[4], s->supply[num(argv[2]) - 1][k]), 0;
	}
	/* checks of a seat */
	if ((p = cases_seat(argv[2])) < 0 || p >= s->n)
		return 1;
	{
		struct sm_player *pl = &s->p[p];

		if (!strcmp(what, "ship")) {
			sm_expect_ship(run, s, p, argc, argv);
		} else if (!strcmp(what, "fleet")) {
			struct buf want = BUF_INIT;
			size_t len = 0;

			got[0] = 0;
			for (int i = 0; i < pl->nships; i++)
				len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%d", i ? " " : "", pl->ships[i].no);
			if (!pl->nships)
				snprintf(got, sizeof(got), "none");
			for (int i = 3; i < argc; i++)
				buf_addf(&want, "%s%s", i > 3 ? " " : "", argv[i]);
			cases_expect_str(run, "fleet", want.data, got);
			buf_release(&want);
		} else if (!strcmp(what, "local") || !strcmp(what, "lclaim") || !strcmp(what, "setup")) {
			if ((k = kind_arg(run, argv[3])) >= 0)
				cases_expect_int(run, what, argv[4],
						 what[1] == 'o' ? pl->local[k] : what[1] == 'c' ? pl->lclaim[k] : pl->setup[k]);
		} else if (!strcmp(what, "pos")) {
			cases_expect_str(run, what, argv[3], place_slugs[pl->pos]);
		} else if (!strcmp(what, "refinery")) {
			int c = card_arg(run, argv[3]);

			if (c >= 0)
				cases_expect_int(run, what, argv[4], pl->refinery[c]);
		} else if (!strcmp(what, "owned")) {
			snprintf(got, sizeof(got), "owned Mark %ld", num(argv[3]));
			cases_expect_int(run, got, argv[4], sm_owned_of_mark(pl, (int)num(argv[3])));
		} else if (!strcmp(what, "finished") || !strcmp(what, "mayleave")) {
			cases_expect_str(run, what, argv[3], yes_no(what[0] == 'f' ? pl->finished : pl->may_leave));
		} else {
			long v;

			if (!strcmp(what, "credits"))
				v = pl->credits;
			else if (!strcmp(what, "aside"))
				v = pl->naside;
			else if (!strcmp(what, "lastpay"))
				v = s->last_pay[p];
			else if (!strcmp(what, "loans"))
				v = sm_player_loans(pl);
			else if (!strcmp(what, "debt"))
				v = sm_player_loan_debt(pl);
			else if (!strcmp(what, "dockat"))
				v = pl->dock_at;
			else
				return 1;
			cases_expect_int(run, what, argv[3], v);
		}
	}
	return 0;
}

static int sm_case_command(struct cases_run *run, void *state, int argc, char **argv, const char *rest)
{
	(void)rest;
	if (!strcmp(argv[0], "expect"))
		return argc > 2 ? sm_case_expect(run, state, argc, argv) : 1;
	return sm_case_position(run, state, argc, argv);
}

static const struct cases_game sm_cases = {
	.ops = &game_starship_merchants,
	.state_size = sizeof(struct sm_state),
	.pure_refusal = 1,
	.command = sm_case_command,
};

static void test_sm__rule_cases(void)
{
	cases_check_dir(&sm_cases, "tests/games/starship-merchants/cases", 10);
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
			int dealt = n * sm_kinds[k].setup;

			/* the later seats' compensation tokens come out of the bag too */
			for (int p = 0; p < n; p++) {
				CU_ASSERT_EQUAL(s->p[p].setup[k], sm_kinds[k].setup + sm_seat_setup[n - 2][p][k]);
				dealt += sm_seat_setup[n - 2][p][k];
			}
			CU_ASSERT_EQUAL(totals[k], sm_kinds[k].bag[n - 2]);
			CU_ASSERT_EQUAL(s->bag[k], sm_kinds[k].bag[n - 2] - dealt);
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

/* A move that does not parse leaves no move behind (its refusal is in cases/18-errors.txt). */
static void test_sm__parse_error_leaves_no_move(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 1, &r);
	struct err e = { 0 };
	void *m = NULL;

	CU_ASSERT_EQUAL(game_starship_merchants.parse(s, 0, "pickup cobalt p9", &m, &e), ERR_INPUT);
	CU_ASSERT_PTR_NULL(m);
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

/*
 * A tap says what its step costs and gives: a lease its loans, a run the
 * energy to spend, a pickup its energy, the last of a run's included (the
 * run then ends by itself).
 */
static void test_sm__tap_costs(void)
{
	struct rng r;
	struct sm_state *s = t_new(2, 3, &r);
	struct game_pick out[8];
	struct err e = { 0 };
	const struct sm_move known = { SM_MV_PICKUP, SM_COBALT, SM_SRC_KNOWN },
			     remote = { SM_MV_PICKUP, SM_COBALT, SM_SRC_SEAT + 1 }, lease = { SM_MV_LEASE_SHIP, SM_SCOUT, 0 };
	int no, n;

	t_ok(s, "stay", &r);
	n = game_starship_merchants.picks(s, 0, &lease, out, 8, &e);
	CU_ASSERT_FATAL(n >= 1);
	ASSERT_STR_EQ(out[n - 1].label, "Lease a Scout");
	ASSERT_STR_EQ(out[n - 1].cost, "pay 4 credits, 2 loans of 4 credits");
	no = t_give_ship(s, 0, 1, SM_SCOUT, 0);
	s->p[0].pos = SM_BELT;
	s->phase = SM_PH_BELT;
	{
		const struct sm_move run = { SM_MV_RUN, no, 0 };

		n = game_starship_merchants.picks(s, 0, &run, out, 8, &e);
		CU_ASSERT_FATAL(n >= 1);
		ASSERT_STR_EQ(out[n - 1].cost, "4 energy to spend");
	}
	s->phase = SM_PH_RUN;
	s->run = sm_ship_find(&s->p[0], no);
	s->known[SM_COBALT] = 1;
	s->p[1].local[SM_COBALT] = 1;
	for (int energy = 4; energy >= 1; energy -= 3) {
		s->energy = energy;
		n = game_starship_merchants.picks(s, 0, &known, out, 8, &e);
		CU_ASSERT_FATAL(n >= 1);
		ASSERT_STR_EQ(out[n - 1].cost, "1 energy");
	}
	s->energy = 3;
	n = game_starship_merchants.picks(s, 0, &remote, out, 8, &e);
	CU_ASSERT_FATAL(n >= 1);
	ASSERT_STR_EQ(out[n - 1].label, "from @1's local space");
	ASSERT_STR_EQ(out[n - 1].cost, "3 energy");
	CU_ASSERT_EQUAL(sm_rules_energy(s, 0, &remote), sm_consts.remote_cost);
	CU_ASSERT_EQUAL(sm_rules_energy(s, 1, &remote), 0);
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
		{ "test_sm__rule_cases", test_sm__rule_cases },
		{ "test_sm__parse_error_leaves_no_move", test_sm__parse_error_leaves_no_move },
		{ "test_sm__notation", test_sm__notation },
		{ "test_sm__view", test_sm__view },
		{ "test_sm__tap_costs", test_sm__tap_costs },
		{ "test_sm__encode_decode", test_sm__encode_decode },
		{ "test_sm__decode_rejects", test_sm__decode_rejects },
		{ "test_sm__bot_greedy_beats_random", test_sm__bot_greedy_beats_random },
		CU_TEST_INFO_NULL,
	};

	TESTS_SUITE("starship_merchants_rules", NULL, NULL, cases);
	return 0;
}
