/* tests/games/alien-frontiers/test_af.c: CUnit suites for Alien Frontiers: set-up, rule cases, notation, view, result */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "af_test.h"
#include "games/cases.h"
#include "games/alien-frontiers/alien_frontiers.h"
#include "testutil.h"
#include "util/banned.h"

int af_test_step(struct af_state *s, const char *text, struct rng *rng, struct err *e)
{
	struct af_move m;
	int rc;

	err_clear(e);
	rc = af__parse(s, text, &m, e);
	if (rc)
		return rc;
	return af__step(s, s->cur, &m, rng, e);
}

int af_test_vp(const struct af_state *s, int p)
{
	int vp = 0;

	for (int t = 0; t < AF_NTERR; t++) {
		int mine = s->col[t][p], more = 1;

		vp += mine;
		for (int q = 0; q < s->n; q++)
			if (q != p && s->col[t][q] >= mine)
				more = 0;
		if (mine > 0 && more) {
			vp++;
			if (s->field[AF_POSITRON] == t)
				vp++;
		}
	}
	vp += ((s->hand[p] >> AF_CITY) & 1) + ((s->hand[p] >> AF_MONUMENT) & 1);
	return vp;
}

const char *af_test_invariants(const struct af_state *s, const int *supply0)
{
	int hubships[AF_MAXP] = { 0 }, cards = 0;

	for (int p = 0; p < s->n; p++) {
		int placed = 0, inplay = 0, ts = 0;

		if (s->fuel[p] < 0 || s->ore[p] < 0)
			return "negative resources";
		if (p != s->cur && !s->over && s->fuel[p] + s->ore[p] > AF_HAND_LIMIT && !s->raid)
			return "more than 8 resources after a turn";
		if (s->vp[p] != af_test_vp(s, p))
			return "VP differ from a recount";
		for (int t = 0; t < AF_NTERR; t++)
			placed += s->col[t][p];
		if (placed + s->supply[p] + (s->hub[p] ? 1 : 0) != supply0[p])
			return "colonies not conserved";
		for (int i = p * AF_SHIPS_PER; i < (p + 1) * AF_SHIPS_PER; i++) {
			inplay += s->loc[i] != AF_LOC_STOCK;
			ts += s->loc[i] == AF_LOC_FAC + AF_TERRA;
			if (s->loc[i] == AF_LOC_HAND && p != s->cur)
				return "unplaced ship of a player not on turn";
			if (s->loc[i] == AF_LOC_BURROUGHS)
				return "colour ship on Burroughs";
		}
		if (inplay - ts < 3)
			return "fewer than 3 ships of a colour in play";
	}
	if (s->relic_owner >= 0 && (s->ctl[AF_BURROUGHS] != s->relic_owner || s->field[AF_ISOLATION] == AF_BURROUGHS))
		return "Relic Ship owned without control of Burroughs Desert";
	if ((s->relic_owner < 0) != (s->loc[AF_RELIC] == AF_LOC_BURROUGHS))
		return "Relic Ship place and owner disagree";
	for (int f = 0; f < AF_NFAC; f++) {
		int k = 0;

		for (int i = 0; i < AF_NSHIPS; i++) {
			if (s->loc[i] != AF_LOC_FAC + f)
				continue;
			k++;
			if (s->val[i] < 1 || s->val[i] > 6)
				return "docked ship without a value";
			if (f == AF_HUB)
				hubships[af__ship_owner(s, i)]++;
		}
		if (f != AF_HUB && k > af__caps(s, f))
			return "more ships docked than ports";
	}
	for (int p = 0; p < s->n; p++)
		if (hubships[p] > 3)
			return "more than 3 ships on a Colonist Hub track";
	for (int c = 0; c < AF_NCARD; c++) {
		int k = s->deck[c] + s->disc[c];

		for (int i = 0; i < 3; i++)
			k += s->disp[i] == c;
		for (int p = 0; p < s->n; p++)
			k += (s->hand[p] >> c) & 1;
		if (k != af_card_copies[c])
			return "alien tech cards not conserved";
		cards += k;
	}
	if (cards != 22)
		return "not 22 alien tech cards";
	return NULL;
}

/* ---- set-up ---- */

static void test_af__setup_counts(void)
{
	static const int cols[3] = { 8, 7, 6 };

	for (int n = 2; n <= 4; n++) {
		struct af_state s;
		struct rng r;
		int supply0[AF_MAXP];

		rng_seed(&r, (uint64_t)n);
		af__setup(&s, n, &r);
		CU_ASSERT_EQUAL(s.cur, 0);
		CU_ASSERT_EQUAL(s.relic_owner, -1);
		CU_ASSERT_EQUAL(s.loc[AF_RELIC], AF_LOC_BURROUGHS);
		for (int p = 0; p < n; p++) {
			int bay = 0, stock = 0, hand = 0;

			supply0[p] = cols[n - 2];
			CU_ASSERT_EQUAL(s.supply[p], cols[n - 2]);
			CU_ASSERT_EQUAL(__builtin_popcount(s.hand[p]), 1);
			for (int i = p * 6; i < p * 6 + 6; i++) {
				bay += s.loc[i] == AF_LOC_BAY;
				stock += s.loc[i] == AF_LOC_STOCK;
				hand += s.loc[i] == AF_LOC_HAND;
			}
			CU_ASSERT_EQUAL(stock, 3);
			/* the first player's three ships are already rolled */
			CU_ASSERT_EQUAL(p == 0 ? hand : bay, 3);
		}
		CU_ASSERT_EQUAL(s.nrolled, 3);
		/* starting resources by seat (before any Resource Cache income of seat 1) */
		if (!((s.hand[0] >> AF_CACHE) & 1)) {
			CU_ASSERT_EQUAL(s.fuel[0] + s.ore[0], 0);
		}
		CU_ASSERT_EQUAL(s.fuel[1], 1);
		CU_ASSERT_EQUAL(s.ore[1], 0);
		if (n >= 3) {
			CU_ASSERT_EQUAL(s.fuel[2], 0);
			CU_ASSERT_EQUAL(s.ore[2], 1);
		}
		if (n == 4) {
			CU_ASSERT_EQUAL(s.fuel[3], 1);
			CU_ASSERT_EQUAL(s.ore[3], 1);
		}
		for (int i = 0; i < 3; i++)
			CU_ASSERT(s.disp[i] >= 0);
		{
			int deck = 0;

			for (int c = 0; c < AF_NCARD; c++)
				deck += s.deck[c];
			CU_ASSERT_EQUAL(deck, 22 - 3 - n);
		}
		CU_ASSERT_PTR_NULL(af_test_invariants(&s, supply0));
	}
	/* docking ports per player count */
	CU_ASSERT_EQUAL(af_caps[0][AF_SOLAR], 7);
	CU_ASSERT_EQUAL(af_caps[0][AF_MINE], 3);
	CU_ASSERT_EQUAL(af_caps[0][AF_MARKET], 2);
	CU_ASSERT_EQUAL(af_caps[0][AF_CONSTRUCTOR], 3);
	CU_ASSERT_EQUAL(af_caps[0][AF_SHIPYARD], 2);
	CU_ASSERT_EQUAL(af_caps[1][AF_SOLAR], 7);
	CU_ASSERT_EQUAL(af_caps[1][AF_MINE], 4);
	CU_ASSERT_EQUAL(af_caps[1][AF_MARKET], 2);
	CU_ASSERT_EQUAL(af_caps[1][AF_SHIPYARD], 4);
	CU_ASSERT_EQUAL(af_caps[1][AF_CONSTRUCTOR], 6);
	CU_ASSERT_EQUAL(af_caps[2][AF_SOLAR], 8);
	CU_ASSERT_EQUAL(af_caps[2][AF_MINE], 5);
	CU_ASSERT_EQUAL(af_caps[2][AF_MARKET], 4);
	CU_ASSERT_EQUAL(af_caps[2][AF_SHIPYARD], 6);
	CU_ASSERT_EQUAL(af_caps[2][AF_CONSTRUCTOR], 6);
}

static void test_af__setup_ops(void)
{
	const struct game_ops *g = &game_alien_frontiers;
	struct err e = { 0 };
	struct rng r;
	void *st = (void *)1;
	json_t *opt;

	rng_seed(&r, 5);
	ASSERT_STR_EQ(g->id, "alien-frontiers");
	CU_ASSERT_EQUAL(g->setup(NULL, 5, &r, &st, &e), ERR_INPUT);
	CU_ASSERT_PTR_NULL(st);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "2 to 4"));
	opt = json_pack("{s:b}", "bogus", 1);
	CU_ASSERT_EQUAL(g->setup(opt, 2, &r, &st, &e), ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "bogus"));
	json_decref(opt);
	CU_ASSERT_EQUAL(g->setup(NULL, 3, &r, &st, &e), 0);
	CU_ASSERT_PTR_NULL(g->result(st));
	g->state_free(st);
}

/* ---- data-driven rule cases (tests/games/alien-frontiers/cases, one .txt file each) ---- */

static int name_idx(const struct af_name *tab, int n, const char *w)
{
	for (int i = 0; i < n; i++) {
		if (!strcmp(tab[i].id, w))
			return i;
		for (int a = 0; a < 4 && tab[i].alias[a]; a++)
			if (!strcmp(tab[i].alias[a], w))
				return i;
	}
	return -1;
}

/* Take a colour ship of p from the stock (or any place but the board) and put it at loc with value v. */
static int place_ship(struct af_state *s, int p, int loc, int v)
{
	for (int i = p * 6; i < p * 6 + 6; i++) {
		if (s->loc[i] == AF_LOC_STOCK) {
			s->loc[i] = (uint8_t)loc;
			s->val[i] = (uint8_t)v;
			return i;
		}
	}
	return -1;
}

/* An empty board for n players (the hook of "players N"). */
static int af_case_players(struct cases_run *run, int n, void **state)
{
	struct af_state *s;

	if (n < 2 || n > AF_MAXP) {
		cases_fail(run, "players: 2 to %d, not %d", AF_MAXP, n);
		return -1;
	}
	s = malloc(sizeof(*s));
	rng_seed(&run->rng, 99);
	af__setup(s, n, &run->rng);
	for (int i = 0; i < AF_RELIC; i++) {
		s->loc[i] = AF_LOC_STOCK;
		s->val[i] = 0;
	}
	s->loc[AF_RELIC] = AF_LOC_BURROUGHS;
	s->val[AF_RELIC] = 0;
	s->relic_owner = -1;
	memcpy(s->deck, af_card_copies, sizeof(s->deck));
	memset(s->disc, 0, sizeof(s->disc));
	memset(s->hand, 0, sizeof(s->hand));
	for (int i = 0; i < 3; i++)
		s->disp[i] = -1;
	for (int p = 0; p < n; p++) {
		s->fuel[p] = s->ore[p] = 0;
	}
	s->nrolled = 0;
	s->turn = 1;
	s->cur = 0;
	af__refresh(s);
	*state = s;
	return 0;
}

/* Take a card out of the deck (or the discard pile) to place it elsewhere. */
static int take_from_deck(struct af_state *s, int c)
{
	if (s->deck[c]) {
		s->deck[c]--;
		return 1;
	}
	if (s->disc[c]) {
		s->disc[c]--;
		return 1;
	}
	return 0;
}

static int seat_arg(const char *w)
{
	return w && w[0] == 'p' ? (int)strtol(w + 1, NULL, 10) - 1 : (w ? (int)strtol(w, NULL, 10) - 1 : -1);
}

static int count_unplaced(const struct af_state *s, char *out, size_t cap)
{
	int vals[AF_NSHIPS], n = 0;
	size_t len = 0;

	for (int i = 0; i < AF_NSHIPS; i++)
		if (s->loc[i] == AF_LOC_HAND)
			vals[n++] = s->val[i] + (i == AF_RELIC ? 10 : 0);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && vals[j - 1] > vals[j]; j--) {
			int x = vals[j];

			vals[j] = vals[j - 1];
			vals[j - 1] = x;
		}
	out[0] = 0;
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(out + len, cap - len, "%s%s%d", i ? " " : "", vals[i] > 10 ? "r" : "",
					vals[i] % 10);
	return n;
}

/* A command of a case file (see cases/README); the steps and the shared checks are tests/games/cases.c's. */
static int af_case_command(struct cases_run *run, void *state, int nw, char **w, const char *rest)
{
	struct af_state *s = state;
	struct err e = { 0 };

	if (!strcmp(w[0], "turn")) {
		s->cur = (uint8_t)seat_arg(w[1]);
	} else if (!strcmp(w[0], "roll") || !strcmp(w[0], "ships") || !strcmp(w[0], "bay")) {
		/* roll P v...: unplaced ships of P; ships P FAC v...: docked; bay P k: k ships in the bay */
		int p = seat_arg(w[1]);

		if (!strcmp(w[0], "bay")) {
			for (int k = (int)strtol(w[2], NULL, 10); k > 0; k--)
				place_ship(s, p, AF_LOC_BAY, 0);
		} else {
			int loc = AF_LOC_HAND, from = 2;

			if (!strcmp(w[0], "ships")) {
				loc = AF_LOC_FAC + name_idx(af_fac_names, AF_NFAC, w[2]);
				from = 3;
			}
			for (int k = from; k < nw; k++) {
				if (w[k][0] == 'r') {
					s->relic_owner = (int8_t)p;
					s->loc[AF_RELIC] = (uint8_t)loc;
					s->val[AF_RELIC] = (uint8_t)(w[k][1] - '0');
				} else if (place_ship(s, p, loc, (int)strtol(w[k], NULL, 10)) < 0) {
					cases_fail(run, "no ship left in the stock for %s", w[1]);
				}
			}
		}
	} else if (!strcmp(w[0], "res")) {
		int p = seat_arg(w[1]);

		s->fuel[p] = (int16_t)strtol(w[2], NULL, 10);
		s->ore[p] = (int16_t)strtol(w[3], NULL, 10);
	} else if (!strcmp(w[0], "colonies")) {
		/* colonies P TERR k: k landed colonies (taken from the supply) */
		int p = seat_arg(w[1]), t = name_idx(af_terr_names, AF_NTERR, w[2]), k = (int)strtol(w[3], NULL, 10);

		s->supply[p] = (uint8_t)(s->supply[p] + s->col[t][p] - k);
		s->col[t][p] = (uint8_t)k;
	} else if (!strcmp(w[0], "supply")) {
		s->supply[seat_arg(w[1])] = (uint8_t)strtol(w[2], NULL, 10);
	} else if (!strcmp(w[0], "hubat")) {
		int p = seat_arg(w[1]), k = (int)strtol(w[2], NULL, 10);

		if (k && !s->hub[p])
			s->supply[p]--;
		s->hub[p] = (uint8_t)k;
	} else if (!strcmp(w[0], "card")) {
		int c = name_idx(af_card_names, AF_NCARD, w[2]);

		if (c < 0 || !take_from_deck(s, c))
			cases_fail(run, "no card %s in the deck", w[2]);
		else
			s->hand[seat_arg(w[1])] |= (uint16_t)(1u << c);
	} else if (!strcmp(w[0], "display") || !strcmp(w[0], "discardpile")) {
		if (w[0][1] == 'i' && w[0][2] == 's' && w[0][3] == 'p')
			for (int i = 0; i < 3; i++)
				if (s->disp[i] >= 0) {
					s->deck[s->disp[i]]++;
					s->disp[i] = -1;
				}
		for (int k = 1; k < nw; k++) {
			int c = name_idx(af_card_names, AF_NCARD, w[k]);

			if (c < 0 || !take_from_deck(s, c)) {
				cases_fail(run, "no card %s in the deck", w[k]);
				continue;
			}
			if (w[0][1] == 'i' && w[0][2] == 's' && w[0][3] == 'p')
				s->disp[k - 1] = (int8_t)c;
			else
				s->disc[c]++;
		}
	} else if (!strcmp(w[0], "deck")) {
		/* deck C...: the draw pile holds exactly these; every other free card goes to the discard pile */
		for (int c = 0; c < AF_NCARD; c++) {
			s->disc[c] = (uint8_t)(s->disc[c] + s->deck[c]);
			s->deck[c] = 0;
		}
		for (int k = 1; k < nw; k++) {
			int c = name_idx(af_card_names, AF_NCARD, w[k]);

			if (c < 0 || !s->disc[c]) {
				cases_fail(run, "no card %s left for the deck", w[k]);
				continue;
			}
			s->disc[c]--;
			s->deck[c]++;
		}
	} else if (!strcmp(w[0], "field")) {
		s->field[name_idx(af_field_names, AF_NFIELD, w[1])] = (int8_t)name_idx(af_terr_names, AF_NTERR, w[2]);
	} else if (!strcmp(w[0], "bots")) {
		/* bots P: random players act until it is P's turn */
		struct rng br;
		int guard = 0;

		rng_seed(&br, 5);
		af__refresh(s);
		while (!s->over && s->cur != seat_arg(w[1]) && guard++ < 1000) {
			struct af_move m;

			if (af__bot(s, s->cur, 0, &br, &m) || af__step(s, s->cur, &m, &run->rng, &e)) {
				cases_fail(run, "bot step failed: %s", e.msg);
				return 0;
			}
		}
	} else if (!strcmp(w[0], "expect")) {
		char got[128] = "";
		const char *want = NULL;
		const char *what = w[1];
		int p = nw > 2 ? seat_arg(w[2]) : -1;

		af__refresh(s);
		if (!strcmp(what, "fuel") || !strcmp(what, "ore") || !strcmp(what, "vp") || !strcmp(what, "hub") ||
		    !strcmp(what, "supply") || !strcmp(what, "left")) {
			int v = what[0] == 'f' ? s->fuel[p] : what[0] == 'o' ? s->ore[p] : what[0] == 'v' ? s->vp[p] :
				what[0] == 'h' ? s->hub[p] : what[0] == 's' ? s->supply[p] : af__colonies_left(s, p);

			if (v != af_test_vp(s, p) && what[0] == 'v')
				cases_fail(run, "stored VP differ from the recount");
			snprintf(got, sizeof(got), "%d", v);
			want = w[3];
		} else if (!strcmp(what, "docked") || !strcmp(what, "bay") || !strcmp(what, "stock")) {
			/* expect docked P FAC v...: P's ships there (values ascending, '-' for none) */
			int loc = what[0] == 'd' ? AF_LOC_FAC + name_idx(af_fac_names, AF_NFAC, w[3]) :
				  what[0] == 'b' ? AF_LOC_BAY : AF_LOC_STOCK;
			int vals[8], n = 0;
			size_t len = 0;

			for (int i = 0; i < AF_NSHIPS; i++)
				if (s->loc[i] == loc && af__ship_owner(s, i) == p)
					vals[n++] = what[0] == 'd' ? s->val[i] : 0;
			if (what[0] != 'd') {
				snprintf(got, sizeof(got), "%d", n);
				want = w[3];
			} else {
				for (int i = 1; i < n; i++)
					for (int j = i; j > 0 && vals[j - 1] > vals[j]; j--) {
						int x = vals[j];

						vals[j] = vals[j - 1];
						vals[j - 1] = x;
					}
				for (int i = 0; i < n; i++)
					len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%d", i ? " " : "", vals[i]);
				if (!n)
					snprintf(got, sizeof(got), "-");
				want = strstr(rest, w[3]) + strlen(w[3]);
				while (*want == ' ')
					want++;
			}
		} else if (!strcmp(what, "control")) {
			int t = name_idx(af_terr_names, AF_NTERR, w[2]);

			if (s->ctl[t] >= 0)
				snprintf(got, sizeof(got), "p%d", s->ctl[t] + 1);
			else
				snprintf(got, sizeof(got), "none");
			want = w[3];
		} else if (!strcmp(what, "colonies")) {
			snprintf(got, sizeof(got), "%d", s->col[name_idx(af_terr_names, AF_NTERR, w[3])][p]);
			want = w[4];
		} else if (!strcmp(what, "card") || !strcmp(what, "nocard")) {
			int c = name_idx(af_card_names, AF_NCARD, w[3]);

			snprintf(got, sizeof(got), "%s", (s->hand[p] >> c) & 1 ? "card" : "nocard");
			want = w[1];
		} else if (!strcmp(what, "discardpile")) {
			int c = name_idx(af_card_names, AF_NCARD, w[2]);

			snprintf(got, sizeof(got), "%d", s->disc[c]);
			want = w[3];
		} else if (!strcmp(what, "unplaced")) {
			count_unplaced(s, got, sizeof(got));
			if (!got[0])
				snprintf(got, sizeof(got), "-");
			want = rest + strlen("unplaced");
			while (*want == ' ')
				want++;
		} else if (!strcmp(what, "relic")) {
			if (s->relic_owner >= 0)
				snprintf(got, sizeof(got), "p%d", s->relic_owner + 1);
			else
				snprintf(got, sizeof(got), "%s", s->loc[AF_RELIC] == AF_LOC_BURROUGHS ? "burroughs" : "?");
			want = w[2];
		} else if (!strcmp(what, "field")) {
			int f = name_idx(af_field_names, AF_NFIELD, w[2]);

			snprintf(got, sizeof(got), "%s", s->field[f] >= 0 ? af_terr_names[s->field[f]].id : "none");
			want = w[3];
		} else if (!strcmp(what, "turn")) {
			snprintf(got, sizeof(got), "p%d", s->cur + 1);
			want = w[2];
		} else if (!strcmp(what, "over")) {
			snprintf(got, sizeof(got), "%s", s->over ? "yes" : "no");
			want = w[2];
		} else if (!strcmp(what, "decksize")) {
			int k = 0;

			for (int c = 0; c < AF_NCARD; c++)
				k += s->deck[c];
			snprintf(got, sizeof(got), "%d", k);
			want = w[2];
		} else if (!strcmp(what, "artifact")) {
			snprintf(got, sizeof(got), "%d", s->art_sum);
			want = w[2];
		} else if (!strcmp(what, "display")) {
			size_t len = 0;

			for (int i = 0; i < 3; i++)
				len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s", i ? " " : "",
							s->disp[i] >= 0 ? af_card_names[s->disp[i]].id : "-");
			want = rest + strlen("display");
			while (*want == ' ')
				want++;
		} else {
			return 1;
		}
		if (!want || strcmp(got, want))
			cases_fail(run, "expected %s %s, got %s", what, want ? want : "(missing)", got);
		return 0;
	} else {
		return 1;
	}
	return 0;
}


static void af_case_refresh(void *state)
{
	af__refresh(state);
}

static const struct cases_game af_case_game = {
	.ops = &game_alien_frontiers,
	.state_size = sizeof(struct af_state),
	.pure_refusal = 1,
	.players = af_case_players,
	.command = af_case_command,
	.refresh = af_case_refresh,
};

static void test_af__rule_cases(void)
{
	cases_check_dir(&af_case_game, "tests/games/alien-frontiers/cases", 10);
}

/* ---- notation ---- */

static void test_af__parse_forms(void)
{
	static const char *const pairs[][2] = {
		{ "dock solar 4 3", "dock solar 3 4" },
		{ "  DOCK   Lunar Mine 6  # the six ", "dock mine 6" },
		{ "dock terra 6 Heinlein Plains", "dock terraforming 6 heinlein" },
		{ "dock cc 5 5 5 van vogt", "dock constructor 5 5 5 van-vogt" },
		{ "dock raiders 4 2 3", "dock raiders 2 3 4" },
		{ "dock hub r3 2", "dock hub 2 r3" },
		{ "trade", "trade 1" },
		{ "trade 2", "trade 2" },
		{ "cycle", "cycle" },
		{ "claim Plasma Cannon", "claim plasma-cannon" },
		{ "take cannon", "claim plasma-cannon" },
		{ "launch heinlein", "launch heinlein" },
		{ "buy relic ship", "buy relic" },
		{ "use booster 3", "use booster-pod 3" },
		{ "use gravity 5 2", "use gravity-manipulator 5 2" },
		{ "use warper 2 1", "use temporal-warper 1 2" },
		{ "use data crystal heinlein plains", "use data-crystal heinlein" },
		{ "use cannon shipyard p3:1 p2:2", "use plasma-cannon shipyard p2:2 p3:1" },
		{ "use teleporter mine 6 artifact", "use orbital-teleporter mine 6 artifact" },
		{ "use teleporter mine 6 terra lem", "use orbital-teleporter mine 6 terraforming lem" },
		{ "use teleporter solar 3 shipyard 3", "use orbital-teleporter solar 3 shipyard 3" },
		{ "discard stasis-beam lem", "discard stasis-beam lem" },
		{ "discard booster isolation field", "discard booster-pod isolation" },
		{ "discard teleporter p2 van vogt lem", "discard orbital-teleporter p2 van-vogt lem" },
		{ "discard polarity p2 lem p1 herbert", "discard polarity-device p1 herbert p2 lem" },
		{ "discard cannon mine p2:6", "discard plasma-cannon mine p2:6" },
		{ "discard warper city", "discard temporal-warper alien-city" },
		{ "raid p2 2 fuel p2 1 ore p3 1 o", "raid p2 2 fuel 1 ore p3 1 ore" },
		{ "raid p3 decoy", "raid p3 holographic-decoy" },
		{ "return 1 ore 2 fuel", "return 2 fuel 1 ore" },
		{ "End turn", "end" },
	};
	struct af_state s;
	struct rng r;

	rng_seed(&r, 3);
	af__setup(&s, 3, &r);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		struct af_move m, m2;
		struct err e = { 0 };
		struct buf b = BUF_INIT;

		CU_ASSERT_EQUAL(af__parse(&s, pairs[i][0], &m, &e), 0);
		if (e.code)
			fprintf(stderr, "\n  %s: %s\n", pairs[i][0], e.msg);
		af__format(&m, &b);
		ASSERT_STR_EQ(b.data, pairs[i][1]);
		CU_ASSERT_EQUAL(af__parse(&s, b.data, &m2, &e), 0);
		CU_ASSERT_EQUAL(memcmp(&m, &m2, sizeof(m)), 0);
		buf_release(&b);
	}
}

static void test_af__parse_errors(void)
{
	static const char *const bad[][2] = {
		{ "", "Empty move" },
		{ "# only a comment", "Empty move" },
		{ "fly solar 3", "Unknown step 'fly'" },
		{ "dock moon 3", "Expected a facility" },
		{ "dock solar", "Expected ship values" },
		{ "dock solar 7", "Expected ship values" },
		{ "dock terraforming 6 atlantis", "Unexpected 'atlantis'" },
		{ "claim banana", "Expected an alien tech card" },
		{ "use plasma-cannon shipyard red", "p<seat>:<value>" },
		{ "use plasma-cannon shipyard p9:3", "p<seat>:<value>" },
		{ "raid 2 fuel", "Expected a player first" },
		{ "raid p2 9 fuel", "at most 4" },
		{ "raid p2 3 fuel 2 fuel", "at most 4 resources" },
		{ "raid p2 plasma-cannon 1 fuel", "either resources or one card" },
		{ "return 2 apples", "Expected 'fuel' or 'ore'" },
		{ "dock hub 1 2 3 4 5 6 1 2", "Too many ships" },
		{ "use alien-city", "has no power" },
		{ "discard resource-cache", "has no discard power" },
		{ "trade x", "number of trades" },
		{ "end now", "Unexpected 'now'" },
	};
	struct af_state s;
	struct rng r;

	rng_seed(&r, 3);
	af__setup(&s, 2, &r);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct af_move m;
		struct err e = { 0 };

		CU_ASSERT_EQUAL(af__parse(&s, bad[i][0], &m, &e), ERR_INPUT);
		if (!strstr(e.msg, bad[i][1]))
			fprintf(stderr, "\n  '%s' -> '%s', expected '%s'\n", bad[i][0], e.msg, bad[i][1]);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, bad[i][1]));
	}
}

static void test_af__forbidden_and_over(void)
{
	const struct game_ops *g = &game_alien_frontiers;
	struct err e = { 0 };
	struct rng r;
	void *st, *mv;
	struct af_state *s;

	rng_seed(&r, 11);
	CU_ASSERT_EQUAL_FATAL(g->setup(NULL, 2, &r, &st, &e), 0);
	CU_ASSERT_EQUAL_FATAL(g->parse(st, 1, "end", &mv, &e), 0);
	CU_ASSERT_EQUAL(g->apply(st, 1, mv, &r, &e), ERR_FORBIDDEN);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "@0's turn"));
	s = st;
	s->over = 1;
	CU_ASSERT_EQUAL(g->apply(st, 0, mv, &r, &e), ERR_FORBIDDEN);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "over"));
	{
		json_t *l = NULL;

		CU_ASSERT_EQUAL(g->legal(st, 0, &l, &e), 0);
		CU_ASSERT_EQUAL(json_array_size(l), 0);
		json_decref(l);
	}
	g->move_free(mv);
	g->state_free(st);
}

/* ---- result and tie-breaks ---- */

static json_t *finished(struct af_state *s, const int *vpcols, const int *cards, const int *ore, const int *fuel)
{
	struct rng r;

	rng_seed(&r, 1);
	af__setup(s, 3, &r);
	memset(s->hand, 0, sizeof(s->hand));
	memset(s->col, 0, sizeof(s->col));
	for (int p = 0; p < 3; p++) {
		/* vpcols[p] colonies spread one per territory, each shared so nobody controls */
		for (int k = 0; k < vpcols[p]; k++)
			s->col[k][p] = 1;
		s->fuel[p] = (int16_t)fuel[p];
		s->ore[p] = (int16_t)ore[p];
		for (int c = 0; c < cards[p]; c++)
			s->hand[p] |= (uint16_t)(1u << (AF_BOOSTER + c));
	}
	s->over = 1;
	s->ender = 0;
	af__refresh(s);
	return af__result(s);
}

static void test_af__tiebreaks(void)
{
	struct af_state s;
	json_t *r;
	char *txt;

	/* controlled territories count: p1 alone on Asimov controls it */
	{
		int v[3] = { 3, 2, 2 }, c[3] = { 0, 0, 0 }, o[3] = { 0, 0, 0 }, f[3] = { 0, 0, 0 };

		r = finished(&s, v, c, o, f);
		txt = json_dumps(r, JSON_COMPACT);
		ASSERT_STR_EQ(txt, "{\"scores\":[4,2,2],\"ranks\":[1,2,2],\"winners\":[0],"
				   "\"tiebreak\":\"@0 landed their last colony; most victory points (4) wins.\"}");
		free(txt);
		json_decref(r);
	}
	/* tie on points: most tech cards wins */
	{
		int v[3] = { 2, 2, 1 }, c[3] = { 1, 2, 0 }, o[3] = { 5, 0, 0 }, f[3] = { 5, 0, 0 };

		r = finished(&s, v, c, o, f);
		CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(r, "winners"), 0)), 1);
		CU_ASSERT_EQUAL(json_array_size(json_object_get(r, "winners")), 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r, "tiebreak")), "alien tech cards"));
		json_decref(r);
	}
	/* then ore */
	{
		int v[3] = { 2, 2, 1 }, c[3] = { 1, 1, 0 }, o[3] = { 3, 4, 0 }, f[3] = { 9, 0, 0 };

		r = finished(&s, v, c, o, f);
		CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(r, "winners"), 0)), 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r, "tiebreak")), "by ore"));
		json_decref(r);
	}
	/* then fuel */
	{
		int v[3] = { 2, 2, 1 }, c[3] = { 1, 1, 0 }, o[3] = { 3, 3, 0 }, f[3] = { 2, 1, 0 };

		r = finished(&s, v, c, o, f);
		CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(r, "winners"), 0)), 0);
		CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(r, "ranks"), 1)), 2);
		CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r, "tiebreak")), "by fuel"));
		json_decref(r);
	}
	/* still tied: shared */
	{
		int v[3] = { 2, 2, 1 }, c[3] = { 1, 1, 0 }, o[3] = { 3, 3, 0 }, f[3] = { 2, 2, 0 };

		r = finished(&s, v, c, o, f);
		txt = json_dumps(json_object_get(r, "ranks"), JSON_COMPACT);
		ASSERT_STR_EQ(txt, "[1,1,3]");
		free(txt);
		CU_ASSERT_EQUAL(json_array_size(json_object_get(r, "winners")), 2);
		CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r, "tiebreak")), "share the win"));
		json_decref(r);
	}
}

/* ---- view, pending, snapshot ---- */

static void test_af__view_shape(void)
{
	struct af_state s;
	struct rng r;
	json_t *v, *v2;
	struct game_pending pd;
	char *a, *b;

	rng_seed(&r, 21);
	af__setup(&s, 4, &r);
	CU_ASSERT_EQUAL(af__view(&s, 2, &v), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(v, "you")), 2);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(v, "facilities")), 9);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(v, "territories")), 8);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(v, "player_state")), 4);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(json_object_get(v, "this_turn"), "unplaced")), 3);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(json_object_get(v, "tech"), "display")), 3);
	CU_ASSERT_PTR_NULL(json_object_get(json_object_get(v, "tech"), "deck"));
	ASSERT_STR_EQ(json_string_value(json_object_get(json_object_get(v, "relic_ship"), "where")), "burroughs");
	/* the same for every seat but "you" */
	CU_ASSERT_EQUAL(af__view(&s, -1, &v2), 0);
	CU_ASSERT(json_is_null(json_object_get(v2, "you")));
	json_object_del(v, "you");
	json_object_del(v2, "you");
	a = json_dumps(v, JSON_SORT_KEYS);
	b = json_dumps(v2, JSON_SORT_KEYS);
	ASSERT_STR_EQ(a, b);
	free(a);
	free(b);
	json_decref(v);
	json_decref(v2);
	af__pending(&s, &pd);
	CU_ASSERT_EQUAL(pd.seats, 1u);
	ASSERT_STR_EQ(pd.kind, "turn");
	CU_ASSERT_PTR_NOT_NULL(strstr(pd.prompt, "@0: dock your ships"));
}

/* Alien City: one copy; setting its deck count to 2 breaks conservation */
#define AF_CARD_TEST AF_CITY

static void test_af__snapshot(void)
{
	const struct game_ops *g = &game_alien_frontiers;
	struct af_state s, s2;
	struct rng r;
	struct err e = { 0 };
	json_t *j, *j2;
	char *txt;

	rng_seed(&r, 8);
	af__setup(&s, 4, &r);
	CU_ASSERT_EQUAL(af__encode(&s, &j), 0);
	txt = json_dumps(j, JSON_COMPACT);
	CU_ASSERT(strlen(txt) < 300);
	free(txt);
	CU_ASSERT_EQUAL(af__decode(j, &s2, &e), 0);
	CU_ASSERT_EQUAL(af__encode(&s2, &j2), 0);
	CU_ASSERT(json_equal(j, j2));
	CU_ASSERT_EQUAL(memcmp(&s, &s2, sizeof(s)), 0);
	json_decref(j2);
	/* broken snapshots are refused with a reason */
	json_object_set_new(j, "n", json_integer(7));
	{
		void *st = NULL;

		CU_ASSERT_EQUAL(g->decode(j, &st, &e), ERR_INPUT);
		CU_ASSERT_PTR_NULL(st);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "'n'"));
	}
	json_object_set_new(j, "n", json_integer(4));
	CU_ASSERT_EQUAL(af__decode(j, &s2, &e), 0);
	{
		char *b = strdup(json_string_value(json_object_get(j, "b")));

		/* a second Alien City: seat and end 2 digits, resources 16, ships 50, relic 1, colonies 8 + 32,
		 * fields 3, then the deck */
		b[2 + 16 + 2 * AF_NSHIPS + 1 + 8 + 32 + 3 + AF_CARD_TEST] = '2';
		json_object_set_new(j, "b", json_string(b));
		CU_ASSERT_EQUAL(af__decode(j, &s2, &e), ERR_INPUT);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "copies of"));
		b[3] = '*';
		json_object_set_new(j, "b", json_string(b));
		CU_ASSERT_EQUAL(af__decode(j, &s2, &e), ERR_INPUT);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "base-64"));
		b[10] = 0;
		json_object_set_new(j, "b", json_string(b));
		CU_ASSERT_EQUAL(af__decode(j, &s2, &e), ERR_INPUT);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "characters"));
		free(b);
	}
	json_decref(j);
}


/* Dock all unplaced ships of the player on turn at one facility and end the turn. */
static void dock_all_and_end(struct af_state *s, struct rng *r, const char *fac)
{
	struct buf b = BUF_INIT;
	struct err e = { 0 };

	buf_addf(&b, "dock %s", fac);
	for (int i = 0; i < AF_NSHIPS; i++)
		if (s->loc[i] == AF_LOC_HAND)
			buf_addf(&b, " %s%d", i == AF_RELIC ? "r" : "", s->val[i]);
	CU_ASSERT_EQUAL(af_test_step(s, b.data, r, &e), 0);
	if (s->fuel[s->cur] + s->ore[s->cur] > 8) {
		buf_reset(&b);
		buf_addf(&b, "return %d fuel", s->fuel[s->cur] + s->ore[s->cur] - 8);
		CU_ASSERT_EQUAL(af_test_step(s, b.data, r, &e), 0);
	}
	CU_ASSERT_EQUAL(af_test_step(s, "end", r, &e), 0);
	buf_release(&b);
}

/* Resource Cache: more odd dice give an ore, more even a fuel, a tie both and the card is discarded. */
static void test_af__resource_cache(void)
{
	int seen[3] = { 0, 0, 0 };

	for (uint64_t seed = 1; seed <= 60; seed++) {
		struct af_state s;
		struct rng r;
		int odd = 0, even = 0, f0, o0;

		rng_seed(&r, seed);
		af__setup(&s, 2, &r);
		for (int p = 0; p < 2; p++) {
			for (int c = 0; c < AF_NCARD; c++)
				if ((s.hand[p] >> c) & 1)
					s.deck[c]++;
			s.hand[p] = 0;
		}
		s.deck[AF_CACHE]--;
		s.hand[1] = 1u << AF_CACHE;
		s.loc[6 + 3] = AF_LOC_BAY; /* a fourth ship: ties become possible */
		f0 = s.fuel[1];
		o0 = s.ore[1];
		dock_all_and_end(&s, &r, "solar");
		CU_ASSERT_EQUAL_FATAL(s.cur, 1);
		CU_ASSERT_EQUAL(s.nrolled, 4);
		for (int i = 0; i < s.nrolled; i++) {
			if (s.rolled[i] & 1)
				odd++;
			else
				even++;
		}
		if (odd > even) {
			seen[0]++;
			CU_ASSERT(s.ore[1] == o0 + 1 && s.fuel[1] == f0);
			CU_ASSERT(s.hand[1] & (1u << AF_CACHE));
		} else if (even > odd) {
			seen[1]++;
			CU_ASSERT(s.fuel[1] == f0 + 1 && s.ore[1] == o0);
			CU_ASSERT(s.hand[1] & (1u << AF_CACHE));
		} else {
			seen[2]++;
			CU_ASSERT(s.fuel[1] == f0 + 1 && s.ore[1] == o0 + 1);
			CU_ASSERT_FALSE(s.hand[1] & (1u << AF_CACHE));
			CU_ASSERT_EQUAL(s.disc[AF_CACHE], 1);
		}
	}
	CU_ASSERT(seen[0] && seen[1] && seen[2]);
}

/* end rolls the next player's fleet at once; their ships come back from the board */
static void test_af__next_turn_rolls(void)
{
	const struct game_ops *g = &game_alien_frontiers;
	struct af_state s;
	struct rng r;
	struct game_pending pd;
	uint64_t before;
	json_t *legal = NULL;
	struct err e = { 0 };

	rng_seed(&r, 31);
	af__setup(&s, 3, &r);
	before = r.draws;
	dock_all_and_end(&s, &r, "solar");
	CU_ASSERT_EQUAL(s.cur, 1);
	CU_ASSERT_EQUAL(s.turn, 2);
	CU_ASSERT_EQUAL(s.nrolled, 3);
	CU_ASSERT(r.draws >= before + 3);
	g->pending(&s, &pd);
	CU_ASSERT_EQUAL(pd.seats, 2u);
	CU_ASSERT_PTR_NOT_NULL(strstr(pd.prompt, "@1: dock your ships (to place:"));
	/* the prompt lists the roll lowest first, as the board lines the dice up, the Relic Ship last */
	{
		struct af_state t = s;

		t.val[6] = 6;
		t.val[7] = 2;
		t.val[8] = 4;
		t.loc[AF_RELIC] = AF_LOC_HAND;
		t.val[AF_RELIC] = 1;
		g->pending(&t, &pd);
		ASSERT_STR_EQ(pd.prompt, "@1: dock your ships (to place: 2 4 6 Relic Ship 1)");
		/* the Colonist Hub's tap says where the colony goes on its track, of the 7 it climbs */
		{
			struct game_pick picks[8];
			void *mv = NULL;
			int n;

			CU_ASSERT_EQUAL_FATAL(g->parse(&t, 1, "dock hub 2", &mv, &e), 0);
			n = g->picks(&t, 1, mv, picks, 8, &e);
			CU_ASSERT_FATAL(n >= 2);
			ASSERT_STR_EQ(picks[n - 1].cost, "Hub track 1 of 7");
			g->move_free(mv);
		}
	}
	/* player 1's ships stay docked until their next turn */
	CU_ASSERT_EQUAL(s.loc[0], AF_LOC_FAC + AF_SOLAR);
	dock_all_and_end(&s, &r, "solar");
	dock_all_and_end(&s, &r, "artifact");
	CU_ASSERT_EQUAL(s.cur, 0);
	CU_ASSERT_EQUAL(s.loc[0], AF_LOC_HAND);
	/* legal through the interface: canonical texts, nothing for other seats */
	CU_ASSERT_EQUAL(g->legal(&s, 0, &legal, &e), 0);
	CU_ASSERT(json_array_size(legal) > 3);
	for (size_t i = 0; i < json_array_size(legal); i++) {
		void *mv = NULL;
		struct buf b = BUF_INIT;
		const char *t = json_string_value(json_array_get(legal, i));

		CU_ASSERT_EQUAL_FATAL(g->parse(&s, 0, t, &mv, &e), 0);
		g->format(&s, mv, &b, &e);
		ASSERT_STR_EQ(b.data, t);
		buf_release(&b);
		g->move_free(mv);
	}
	json_decref(legal);
	CU_ASSERT_EQUAL(g->legal(&s, 2, &legal, &e), 0);
	CU_ASSERT_EQUAL(json_array_size(legal), 0);
	json_decref(legal);
}

/* the bots through the interface: a legal step for the seat on turn, an error for the others */
static void test_af__bot_ops(void)
{
	const struct game_ops *g = &game_alien_frontiers;
	struct rng r, br;
	struct err e = { 0 };
	void *st = NULL, *mv = NULL;

	rng_seed(&r, 12);
	rng_seed(&br, 13);
	CU_ASSERT_EQUAL_FATAL(g->setup(NULL, 3, &r, &st, &e), 0);
	for (int i = 0; i < 60; i++) {
		struct game_pending pd;
		int seat;

		g->pending(st, &pd);
		seat = __builtin_ctz(pd.seats);
		CU_ASSERT_EQUAL(g->bot(st, (seat + 1) % 3, 0, &br, &mv, &e), ERR_ILLEGAL);
		CU_ASSERT_PTR_NULL(mv);
		CU_ASSERT_EQUAL_FATAL(g->bot(st, seat, i % 2, &br, &mv, &e), 0);
		CU_ASSERT_EQUAL_FATAL(g->apply(st, seat, mv, &r, &e), 0);
		g->move_free(mv);
		mv = NULL;
	}
	g->state_free(st);
}

static CU_TestInfo af_cases[] = {
	{ "test_af__setup_counts", test_af__setup_counts },
	{ "test_af__setup_ops", test_af__setup_ops },
	{ "test_af__rule_cases", test_af__rule_cases },
	{ "test_af__parse_forms", test_af__parse_forms },
	{ "test_af__parse_errors", test_af__parse_errors },
	{ "test_af__forbidden_and_over", test_af__forbidden_and_over },
	{ "test_af__tiebreaks", test_af__tiebreaks },
	{ "test_af__view_shape", test_af__view_shape },
	{ "test_af__snapshot", test_af__snapshot },
	{ "test_af__resource_cache", test_af__resource_cache },
	{ "test_af__next_turn_rolls", test_af__next_turn_rolls },
	{ "test_af__bot_ops", test_af__bot_ops },
	CU_TEST_INFO_NULL,
};

int tests_register(void)
{
	TESTS_SUITE("alien_frontiers", NULL, NULL, af_cases);
	return af_test_register_suites();
}
