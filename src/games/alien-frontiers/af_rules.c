/* games/alien-frontiers/af_rules.c: set-up, the turn, facilities, territories, fields and alien tech */
/* SPDX-License-Identifier: MIT */
#include "games/alien-frontiers/af_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/* err may be NULL when only legality matters (legal enumeration): skip formatting then. */
#define FAILC(code, ...) \
	do { \
		if (err) \
			err_set(err, (code), __VA_ARGS__); \
		return (code); \
	} while (0)
#define FAIL(...) FAILC(ERR_ILLEGAL, __VA_ARGS__)

#define FAC_NAME(f) (af_fac_names[(f)].name)
#define TERR_NAME(t) (af_terr_names[(t)].name)
#define CARD_NAME(c) (af_card_names[(c)].name)

void af__move_init(struct af_move *m, int kind)
{
	memset(m, 0, sizeof(*m));
	m->kind = (uint8_t)kind;
	m->fac = m->fac2 = m->card = m->card2 = -1;
	m->terr = m->terr2 = m->seat1 = m->seat2 = m->field = -1;
}

static void sort_u8(uint8_t *a, int n)
{
	for (int i = 1; i < n; i++) {
		uint8_t x = a[i];
		int j = i - 1;

		while (j >= 0 && a[j] > x) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = x;
	}
}

/* Put the order-free parts of a move in canonical order so equal moves compare equal. */
void af__move_canon(struct af_move *m)
{
	if (m->kind == AF_M_DOCK || (m->kind == AF_M_USE && (m->card == AF_WARPER || m->card == AF_CANNON)))
		sort_u8(m->tok, m->n);
	else if (m->kind == AF_M_USE && m->card == AF_TELEPORTER && m->n > 2)
		sort_u8(m->tok + 1, m->n - 1);
	if (m->kind == AF_M_DISCARD && m->card == AF_POLARITY && m->terr > m->terr2) {
		int8_t t = m->terr, o = m->seat1;

		m->terr = m->terr2;
		m->seat1 = m->seat2;
		m->terr2 = t;
		m->seat2 = o;
	}
}

int af__ship_owner(const struct af_state *s, int i)
{
	return i == AF_RELIC ? s->relic_owner : i / AF_SHIPS_PER;
}

int af__caps(const struct af_state *s, int fac)
{
	return af_caps[s->n - 2][fac];
}

int af__has_bonus(const struct af_state *s, int p, int t)
{
	if (s->field[AF_ISOLATION] == t)
		return 0;
	return s->ctl[t] == p || (p == s->cur && s->borrow == t);
}

int af__colonies_left(const struct af_state *s, int p)
{
	return s->supply[p] + (s->hub[p] ? 1 : 0);
}

int af__cards(const struct af_state *s, int p)
{
	return __builtin_popcount(s->hand[p]);
}

static int has_card(const struct af_state *s, int p, int c)
{
	return (s->hand[p] >> c) & 1;
}

int af__recount_vp(const struct af_state *s, int p)
{
	int vp = 0;

	for (int t = 0; t < AF_NTERR; t++)
		vp += s->col[t][p] + (s->ctl[t] == p);
	vp += has_card(s, p, AF_CITY) + has_card(s, p, AF_MONUMENT);
	if (s->field[AF_POSITRON] >= 0 && s->ctl[s->field[AF_POSITRON]] == p)
		vp++;
	return vp;
}

static void relic_home(struct af_state *s)
{
	s->loc[AF_RELIC] = AF_LOC_BURROUGHS;
	s->val[AF_RELIC] = 0;
	s->relic_owner = -1;
}

/*
 * Control is a strict majority of colonies; ties mean nobody. The Relic Ship
 * goes home the moment its owner loses Burroughs Desert or the Isolation
 * Field lands there. Victory points are a snapshot of the board.
 */
void af__refresh(struct af_state *s)
{
	for (int t = 0; t < AF_NTERR; t++) {
		int best = 0, who = -1;

		for (int p = 0; p < s->n; p++) {
			if (s->col[t][p] > best) {
				best = s->col[t][p];
				who = p;
			} else if (s->col[t][p] == best && best > 0) {
				who = -1;
			}
		}
		s->ctl[t] = (int8_t)who;
	}
	if (s->relic_owner >= 0 &&
	    (s->ctl[AF_BURROUGHS] != s->relic_owner || s->field[AF_ISOLATION] == AF_BURROUGHS))
		relic_home(s);
	for (int p = 0; p < AF_MAXP; p++)
		s->vp[p] = p < s->n ? (uint8_t)af__recount_vp(s, p) : 0;
}

static int draw_card(struct af_state *s, struct rng *rng)
{
	int total = 0, r;

	for (int c = 0; c < AF_NCARD; c++)
		total += s->deck[c];
	if (!total) {
		for (int c = 0; c < AF_NCARD; c++) {
			s->deck[c] = s->disc[c];
			s->disc[c] = 0;
			total += s->deck[c];
		}
	}
	if (!total)
		return -1;
	r = (int)rng_below(rng, (uint32_t)total);
	for (int c = 0; c < AF_NCARD; c++) {
		if (r < s->deck[c]) {
			s->deck[c]--;
			return c;
		}
		r -= s->deck[c];
	}
	return -1;
}

static int count_at(const struct af_state *s, int fac)
{
	int k = 0;

	for (int i = 0; i < AF_NSHIPS; i++)
		k += s->loc[i] == AF_LOC_FAC + fac;
	return k;
}

static int own_at(const struct af_state *s, int p, int fac)
{
	int k = 0;

	for (int i = 0; i < AF_NSHIPS; i++)
		k += s->loc[i] == AF_LOC_FAC + fac && af__ship_owner(s, i) == p;
	return k;
}

/* Ships of p's colour not in the stock (on the board, including the Maintenance Bay). */
static int colour_in_play(const struct af_state *s, int p)
{
	int k = 0;

	for (int i = p * AF_SHIPS_PER; i < (p + 1) * AF_SHIPS_PER; i++)
		k += s->loc[i] != AF_LOC_STOCK;
	return k;
}

/* Ships of p's colour on the board that stay: one consumed at the Terraforming Station does not count. */
static int colour_kept(const struct af_state *s, int p)
{
	int k = 0;

	for (int i = p * AF_SHIPS_PER; i < (p + 1) * AF_SHIPS_PER; i++)
		k += s->loc[i] != AF_LOC_STOCK && s->loc[i] != AF_LOC_FAC + AF_TERRA;
	return k;
}

static int stock_ship(const struct af_state *s, int p)
{
	for (int i = p * AF_SHIPS_PER; i < (p + 1) * AF_SHIPS_PER; i++)
		if (s->loc[i] == AF_LOC_STOCK)
			return i;
	return -1;
}

static int discount(const struct af_state *s, int p)
{
	return af__has_bonus(s, p, AF_POHL) ? 1 : 0;
}

static int card_cost(const struct af_state *s, int p, int c, int units)
{
	int cost = af_card_fuel[c] * units - discount(s, p);

	return cost < 0 ? 0 : cost;
}

/* The unplaced ship of p matching token tok, preferring ship `prefer`; -1 if none. */
static int hand_pick(const struct af_state *s, int p, int tok, int prefer)
{
	int v = AF_TOK_VAL(tok);

	if (tok & AF_TOK_RELIC)
		return s->relic_owner == p && s->loc[AF_RELIC] == AF_LOC_HAND && s->val[AF_RELIC] == v ? AF_RELIC : -1;
	if (prefer >= 0 && prefer != AF_RELIC && s->loc[prefer] == AF_LOC_HAND && s->val[prefer] == v &&
	    prefer / AF_SHIPS_PER == p)
		return prefer;
	for (int i = p * AF_SHIPS_PER; i < (p + 1) * AF_SHIPS_PER; i++)
		if (s->loc[i] == AF_LOC_HAND && s->val[i] == v)
			return i;
	return -1;
}

static void tok_text(int tok, char out[8])
{
	if (tok & AF_TOK_RELIC)
		out[0] = 'r', out[1] = (char)('0' + AF_TOK_VAL(tok)), out[2] = 0;
	else
		out[0] = (char)('0' + AF_TOK_VAL(tok)), out[1] = 0;
}

/* Do p's unplaced ships cover these tokens (as a multiset)? */
static int hand_has(const struct af_state *s, int p, const uint8_t *tok, int n, struct err *err)
{
	int need[16] = { 0 }, have[16] = { 0 };

	for (int i = 0; i < AF_NSHIPS; i++) {
		if (s->loc[i] != AF_LOC_HAND || af__ship_owner(s, i) != p)
			continue;
		have[s->val[i] | (i == AF_RELIC ? AF_TOK_RELIC : 0)]++;
	}
	for (int i = 0; i < n; i++) {
		int t = tok[i];

		if (t > 15 || AF_TOK_VAL(t) < 1 || AF_TOK_VAL(t) > 6)
			FAIL("Ship values run from 1 to 6.");
		if (++need[t] > have[t]) {
			char txt[8];

			tok_text(t, txt);
			if (t & AF_TOK_RELIC)
				FAIL("You have no unplaced Relic Ship showing %d.", AF_TOK_VAL(t));
			FAIL("You have %d unplaced ship%s showing %s; you offered %d.", have[t],
			     have[t] == 1 ? "" : "s", txt, need[t]);
		}
	}
	return 0;
}

static int terr_ok(const struct af_state *s, int t, struct err *err)
{
	if (t < 0 || t >= AF_NTERR)
		FAIL("Name the territory where the colony lands (e.g. 'heinlein').");
	if (s->field[AF_REPULSOR] == t)
		FAIL("The Repulsor Field on %s stops colonies from being added there.", TERR_NAME(t));
	return 0;
}

static int colony_available(const struct af_state *s, int p)
{
	return s->supply[p] > 0 || s->hub[p] > 0;
}

static void check_over(struct af_state *s, int p)
{
	if (s->supply[p] == 0 && s->hub[p] == 0) {
		s->over = 1;
		s->ender = (uint8_t)p;
	}
}

/* Land a colony from the supply (or, for the last one, from the Colonist Hub). */
static void land(struct af_state *s, int p, int t)
{
	if (s->supply[p] > 0) {
		s->supply[p]--;
	} else {
		s->hub[p] = 0;
		s->hub_excess = 0;
	}
	s->col[t][p]++;
	af__refresh(s);
	check_over(s, p);
}

static void hub_advance(struct af_state *s, int p, int k)
{
	while (k-- > 0) {
		if (s->hub[p] == 0) {
			if (s->supply[p] > 0) {
				s->supply[p]--;
				s->hub[p] = 1;
			}
		} else if (s->hub[p] < AF_HUB_TOP) {
			s->hub[p]++;
		} else {
			s->hub_excess++;
		}
	}
}

/*
 * Dock the ships named by tok at fac for p (terr: colony target for the
 * Terraforming Station and the Colony Constructor). prefer: the ship to use
 * first for a matching token (the teleported one). commit 0: validate only.
 */
static int dock(struct af_state *s, int p, int fac, const uint8_t *tok, int n, int terr, int prefer, int commit,
		struct err *err)
{
	int vals[AF_MAXHAND], rc, free_ports, sum = 0, relic_in = 0;

	if (fac < 0 || fac >= AF_NFAC)
		FAIL("Name a facility to dock at.");
	if (n < 1 || n > AF_MAXHAND)
		FAIL("Name the values of the ships to dock.");
	rc = hand_has(s, p, tok, n, err);
	if (rc)
		return rc;
	for (int i = 0; i < n; i++) {
		vals[i] = AF_TOK_VAL(tok[i]);
		sum += vals[i];
		relic_in |= (tok[i] & AF_TOK_RELIC) != 0;
	}
	for (int i = 1; i < n; i++) /* ascending values */
		for (int j = i; j > 0 && vals[j - 1] > vals[j]; j--) {
			int x = vals[j];

			vals[j] = vals[j - 1];
			vals[j - 1] = x;
		}
	if (fac == AF_HUB)
		free_ports = af__caps(s, AF_HUB) - own_at(s, p, AF_HUB);
	else
		free_ports = af__caps(s, fac) - count_at(s, fac);
	if (terr >= 0 && fac != AF_TERRA && fac != AF_CONSTRUCTOR)
		FAIL("Only the Terraforming Station and the Colony Constructor land colonies.");

	switch (fac) {
	case AF_SOLAR:
	case AF_ARTIFACT:
		if (n > free_ports)
			FAIL("%s has %d free docking port%s; you offered %d ships.", FAC_NAME(fac), free_ports,
			     free_ports == 1 ? "" : "s", n);
		break;
	case AF_MINE: {
		int hi = 0, first = !s->mine_docked && af__has_bonus(s, p, AF_VANVOGT);

		if (n > free_ports)
			FAIL("Lunar Mine has %d free docking port%s; you offered %d ships.", free_ports,
			     free_ports == 1 ? "" : "s", n);
		for (int i = 0; i < AF_NSHIPS; i++)
			if (s->loc[i] == AF_LOC_FAC + AF_MINE && s->val[i] > hi)
				hi = s->val[i];
		for (int i = 0; i < n; i++) {
			if (first) {
				first = 0; /* Van Vogt Mountains: the first ship of the turn may be any value */
			} else if (vals[i] < hi) {
				FAIL("Lunar Mine needs %d or more: a %d is docked there; you offered a %d.", hi, hi,
				     vals[i]);
			}
			if (vals[i] > hi)
				hi = vals[i];
		}
		break;
	}
	case AF_MARKET:
	case AF_SHIPYARD:
		if (n != 2 || vals[0] != vals[1])
			FAIL("%s takes a pair of ships of equal value (e.g. 'dock %s 3 3').", FAC_NAME(fac),
			     af_fac_names[fac].id);
		if (free_ports < 2)
			FAIL("%s has no free pair of docking ports.", FAC_NAME(fac));
		if (fac == AF_SHIPYARD) {
			int nth = colour_in_play(s, p) + 1, cost = nth - 3;

			if (stock_ship(s, p) < 0)
				FAIL("Shipyard: no ship of your colour is in the ship stock.");
			if (cost < 1)
				cost = 1;
			if (af__has_bonus(s, p, AF_HERBERT))
				cost--;
			if (s->fuel[p] < cost || s->ore[p] < cost)
				FAIL("Shipyard: your ship number %d costs %d fuel and %d ore; you have %d fuel and %d ore.",
				     nth, cost, cost, s->fuel[p], s->ore[p]);
		}
		break;
	case AF_CONSTRUCTOR: {
		int cost = af__has_bonus(s, p, AF_BRADBURY) ? 2 : 3;

		if (n != 3 || vals[0] != vals[2])
			FAIL("Colony Constructor takes three ships of equal value (e.g. 'dock constructor 5 5 5 lem').");
		if (free_ports < 3)
			FAIL("Colony Constructor has no free set of three docking ports.");
		if (s->ore[p] < cost)
			FAIL("Colony Constructor costs %d ore; you have %d.", cost, s->ore[p]);
		if (!colony_available(s, p))
			FAIL("You have no colony left to land.");
		rc = terr_ok(s, terr, err);
		if (rc)
			return rc;
		break;
	}
	case AF_TERRA:
		if (n != 1 || vals[0] != 6)
			FAIL("Terraforming Station needs one ship of value 6; you offered %s%d.", n == 1 ? "a " : "",
			     n == 1 ? vals[0] : n);
		if (free_ports < 1)
			FAIL("Terraforming Station's only docking port is taken.");
		if (s->fuel[p] < 1 || s->ore[p] < 1)
			FAIL("Terraforming Station costs 1 fuel and 1 ore; you have %d fuel and %d ore.", s->fuel[p],
			     s->ore[p]);
		if (!relic_in && colour_in_play(s, p) - 1 < 3)
			FAIL("Terraforming Station would leave you %d ships of your colour; you must keep 3.",
			     colour_in_play(s, p) - 1);
		if (!colony_available(s, p))
			FAIL("You have no colony left to land.");
		rc = terr_ok(s, terr, err);
		if (rc)
			return rc;
		break;
	case AF_HUB:
		if (n > free_ports)
			FAIL("Your Colonist Hub track has %d free docking port%s; you offered %d ships.", free_ports,
			     free_ports == 1 ? "" : "s", n);
		if (!s->hub[p] && !s->supply[p])
			FAIL("Colonist Hub: you have no colony left to put on the track.");
		break;
	case AF_RAIDERS: {
		int there = count_at(s, AF_RAIDERS), old = 0;

		if (n != 3 || vals[1] != vals[0] + 1 || vals[2] != vals[1] + 1)
			FAIL("Raiders' Outpost takes three ships in sequence (e.g. 'dock raiders 2 3 4').");
		for (int i = 0; i < AF_NSHIPS; i++)
			if (s->loc[i] == AF_LOC_FAC + AF_RAIDERS)
				old += s->val[i];
		if (there && sum <= old)
			FAIL("Raiders' Outpost holds a sequence worth %d; yours must be higher, you offered %d-%d-%d (%d).",
			     old, vals[0], vals[1], vals[2], sum);
		break;
	}
	default:
		FAIL("Name a facility to dock at.");
	}
	if (!commit)
		return 0;

	/* commit */
	if (fac == AF_RAIDERS)
		for (int i = 0; i < AF_NSHIPS; i++)
			if (s->loc[i] == AF_LOC_FAC + AF_RAIDERS)
				s->loc[i] = AF_LOC_BAY;
	for (int i = 0; i < n; i++) {
		int ship = hand_pick(s, p, tok[i], prefer);

		s->loc[ship] = (uint8_t)(AF_LOC_FAC + fac);
	}
	switch (fac) {
	case AF_SOLAR:
		for (int i = 0; i < n; i++)
			s->fuel[p] += (int16_t)((vals[i] + 1) / 2 + (af__has_bonus(s, p, AF_LEM) ? 1 : 0));
		break;
	case AF_MINE:
		s->ore[p] += (int16_t)n;
		s->mine_docked = 1;
		break;
	case AF_SHIPYARD: {
		int nth = colour_in_play(s, p) + 1, cost = nth - 3, ship = stock_ship(s, p);

		if (cost < 1)
			cost = 1;
		if (af__has_bonus(s, p, AF_HERBERT))
			cost--;
		s->fuel[p] -= (int16_t)cost;
		s->ore[p] -= (int16_t)cost;
		s->loc[ship] = AF_LOC_BAY;
		s->val[ship] = 0;
		break;
	}
	case AF_CONSTRUCTOR:
		s->ore[p] -= (int16_t)(af__has_bonus(s, p, AF_BRADBURY) ? 2 : 3);
		land(s, p, terr);
		break;
	case AF_TERRA:
		s->fuel[p]--;
		s->ore[p]--;
		land(s, p, terr);
		break;
	case AF_HUB: {
		int adv = n;

		s->hub_docked = (uint8_t)(s->hub_docked + n);
		if (s->hub_docked >= 2 && !s->asimov_done && af__has_bonus(s, p, AF_ASIMOV)) {
			s->asimov_done = 1;
			adv++;
		}
		hub_advance(s, p, adv);
		break;
	}
	case AF_ARTIFACT:
		s->art_sum = (uint8_t)(s->art_sum + sum);
		s->cycles = (uint8_t)(s->cycles + n);
		break;
	case AF_RAIDERS: {
		int any = 0;

		for (int v = 0; v < s->n; v++) {
			if (v == p)
				continue;
			if (s->hand[v])
				any = 1;
			if (!has_card(s, v, AF_DECOY) && s->fuel[v] + s->ore[v] > 0)
				any = 1;
		}
		s->raid = (uint8_t)any;
		break;
	}
	default:
		break;
	}
	return 0;
}

static void start_turn(struct af_state *s, struct rng *rng)
{
	int p = s->cur, odd = 0, even = 0;

	s->used = 0;
	s->discarded = 0;
	s->art_sum = 0;
	s->cycles = 0;
	s->mine_docked = 0;
	s->hub_docked = 0;
	s->asimov_done = 0;
	s->hub_excess = 0;
	s->borrow = -1;
	s->raid = 0;
	s->nrolled = 0;
	memset(s->rolled, 0, sizeof(s->rolled));
	/* the ship consumed at the Terraforming Station goes back to the stock (the Relic Ship home) */
	for (int i = 0; i < AF_NSHIPS; i++) {
		if (s->loc[i] != AF_LOC_FAC + AF_TERRA || af__ship_owner(s, i) != p)
			continue;
		if (i == AF_RELIC) {
			relic_home(s);
		} else {
			s->loc[i] = AF_LOC_STOCK;
			s->val[i] = 0;
		}
	}
	for (int i = 0; i < AF_NSHIPS; i++) {
		if (af__ship_owner(s, i) != p)
			continue;
		if (s->loc[i] == AF_LOC_BAY || s->loc[i] >= AF_LOC_FAC) {
			s->loc[i] = AF_LOC_HAND;
			s->val[i] = (uint8_t)rng_die(rng, 6);
			s->rolled[s->nrolled++] = s->val[i];
			if (s->val[i] & 1)
				odd++;
			else
				even++;
		}
	}
	if (has_card(s, p, AF_CACHE)) {
		if (odd > even) {
			s->ore[p]++;
		} else if (even > odd) {
			s->fuel[p]++;
		} else {
			s->fuel[p]++;
			s->ore[p]++;
			s->hand[p] &= (uint16_t)~(1u << AF_CACHE);
			s->disc[AF_CACHE]++;
		}
	}
	af__refresh(s);
}

int af__setup(struct af_state *s, int n, struct rng *rng)
{
	memset(s, 0, sizeof(*s));
	s->n = (uint8_t)n;
	s->turn = 1;
	s->relic_owner = -1;
	s->loc[AF_RELIC] = AF_LOC_BURROUGHS;
	for (int f = 0; f < AF_NFIELD; f++)
		s->field[f] = -1;
	for (int p = 0; p < n; p++) {
		for (int k = 0; k < 3; k++)
			s->loc[p * AF_SHIPS_PER + k] = AF_LOC_BAY;
		s->fuel[p] = af_start_fuel[p];
		s->ore[p] = af_start_ore[p];
		s->supply[p] = af_colonies[n - 2];
	}
	memcpy(s->deck, af_card_copies, sizeof(s->deck));
	for (int p = 0; p < n; p++)
		s->hand[p] = (uint16_t)(1u << draw_card(s, rng));
	for (int i = 0; i < 3; i++)
		s->disp[i] = (int8_t)draw_card(s, rng);
	s->cur = 0;
	start_turn(s, rng);
	return 0;
}

static int resources(const struct af_state *s, int p)
{
	return s->fuel[p] + s->ore[p];
}

static int use_card(struct af_state *s, int p, const struct af_move *m, struct rng *rng, struct err *err)
{
	int c = m->card, cost, rc;

	if (c < 0 || c >= AF_NCARD)
		FAIL("Name the alien tech card to use.");
	if (!has_card(s, p, c))
		FAIL("You do not have the %s.", CARD_NAME(c));
	if (!af_card_fuel[c])
		FAIL("The %s has no power to use; it works by itself.", CARD_NAME(c));
	if ((s->used >> c) & 1)
		FAIL("You already used the %s this turn; each card works once per turn.", CARD_NAME(c));
	cost = card_cost(s, p, c, 1);

	switch (c) {
	case AF_BOOSTER:
	case AF_STASIS:
	case AF_POLARITY: {
		int v;

		if (m->n != 1)
			FAIL("Name one unplaced ship (e.g. 'use %s 3').", af_card_names[c].id);
		rc = hand_has(s, p, m->tok, 1, err);
		if (rc)
			return rc;
		v = AF_TOK_VAL(m->tok[0]);
		if (c == AF_BOOSTER && v == 6)
			FAIL("Booster Pod cannot raise a 6: ship values never go above 6.");
		if (c == AF_STASIS && v == 1)
			FAIL("Stasis Beam cannot lower a 1: ship values never go below 1.");
		break;
	}
	case AF_GRAVITY:
		if (m->n != 2)
			FAIL("Name the ship to lower and the ship to raise (e.g. 'use gravity-manipulator 2 5').");
		rc = hand_has(s, p, m->tok, 2, err);
		if (rc)
			return rc;
		if (AF_TOK_VAL(m->tok[0]) == 1)
			FAIL("Gravity Manipulator cannot lower a 1: ship values never go below 1.");
		if (AF_TOK_VAL(m->tok[1]) == 6)
			FAIL("Gravity Manipulator cannot raise a 6: ship values never go above 6.");
		break;
	case AF_WARPER:
		if (m->n < 1)
			FAIL("Name the unplaced ships to re-roll (e.g. 'use temporal-warper 1 2').");
		rc = hand_has(s, p, m->tok, m->n, err);
		if (rc)
			return rc;
		break;
	case AF_CRYSTAL: {
		int t = m->terr, k = 0;

		if (t < 0 || t >= AF_NTERR)
			FAIL("Name the territory whose bonus to borrow (e.g. 'use data-crystal heinlein').");
		if (t == AF_BURROUGHS)
			FAIL("Data Crystal cannot borrow Burroughs Desert: its bonus plays out over more than one turn.");
		if (s->field[AF_ISOLATION] == t)
			FAIL("The Isolation Field on %s nullifies its bonus.", TERR_NAME(t));
		if (af__has_bonus(s, p, t))
			FAIL("You already have the %s bonus.", TERR_NAME(t));
		for (int q = 0; q < s->n; q++)
			k += s->col[t][q];
		if (!k)
			FAIL("%s has no colonies, so its bonus cannot be borrowed.", TERR_NAME(t));
		cost = card_cost(s, p, c, k);
		break;
	}
	case AF_CANNON: {
		int here[AF_NSHIPS], nh = 0, used_ship[AF_NSHIPS] = { 0 };

		if (m->fac < 0 || m->fac >= AF_NFAC)
			FAIL("Name the facility to fire at (e.g. 'use plasma-cannon shipyard p2:2 p2:2').");
		if (m->n < 1)
			FAIL("Name the ships to remove (e.g. 'p2:4').");
		for (int i = 0; i < AF_NSHIPS; i++)
			if (s->loc[i] == AF_LOC_FAC + m->fac)
				here[nh++] = i;
		for (int k = 0; k < m->n; k++) {
			int o = m->tok[k] >> 4, t = m->tok[k] & 15, found = -1;

			if (o == p || o >= s->n)
				FAIL("Plasma Cannon fires only at other players' ships.");
			for (int j = 0; j < nh; j++) {
				int i = here[j];

				if (used_ship[j] || af__ship_owner(s, i) != o || s->val[i] != AF_TOK_VAL(t) ||
				    (i == AF_RELIC) != ((t & AF_TOK_RELIC) != 0))
					continue;
				found = j;
				break;
			}
			if (found < 0)
				FAIL("@%d has no%s ship showing %d at %s to remove.", o,
				     (t & AF_TOK_RELIC) ? " Relic" : "", AF_TOK_VAL(t), FAC_NAME(m->fac));
			used_ship[found] = 1;
		}
		cost = card_cost(s, p, c, m->n);
		break;
	}
	case AF_TELEPORTER: {
		struct af_state w;
		int from = m->fac, to = m->fac2, ship = -1, t;

		if (from < 0 || to < 0 || m->n < 1)
			FAIL("Say which docked ship goes where (e.g. 'use orbital-teleporter mine 6 artifact').");
		if (from == AF_TERRA)
			FAIL("Orbital Teleporter cannot move a ship off the Terraforming Station.");
		if (from == to)
			FAIL("Orbital Teleporter must move the ship to a different facility.");
		t = m->tok[0];
		for (int i = 0; i < AF_NSHIPS; i++) {
			if (s->loc[i] == AF_LOC_FAC + from && af__ship_owner(s, i) == p &&
			    s->val[i] == AF_TOK_VAL(t) && (i == AF_RELIC) == ((t & AF_TOK_RELIC) != 0)) {
				ship = i;
				break;
			}
		}
		if (ship < 0)
			FAIL("You have no ship showing %d docked at %s.", AF_TOK_VAL(t), FAC_NAME(from));
		if (s->fuel[p] < cost)
			FAIL("%s costs %d fuel; you have %d.", CARD_NAME(c), cost, s->fuel[p]);
		w = *s;
		w.fuel[p] -= (int16_t)cost;
		w.used |= (uint16_t)(1u << c);
		w.loc[ship] = AF_LOC_HAND;
		rc = dock(&w, p, to, m->tok, m->n, m->terr, ship, rng != NULL, err);
		if (rc)
			return rc;
		if (rng)
			*s = w;
		return 0;
	}
	default:
		FAIL("The %s has no power to use.", CARD_NAME(c));
	}
	if (s->fuel[p] < cost)
		FAIL("%s costs %d fuel; you have %d.", CARD_NAME(c), cost, s->fuel[p]);
	if (!rng)
		return 0;

	s->fuel[p] -= (int16_t)cost;
	s->used |= (uint16_t)(1u << c);
	switch (c) {
	case AF_BOOSTER:
	case AF_STASIS:
	case AF_POLARITY: {
		int i = hand_pick(s, p, m->tok[0], -1), v = s->val[i];

		s->val[i] = (uint8_t)(c == AF_BOOSTER ? v + 1 : c == AF_STASIS ? v - 1 : 7 - v);
		break;
	}
	case AF_GRAVITY: {
		int a = hand_pick(s, p, m->tok[0], -1), b;

		s->loc[a] = AF_LOC_STOCK; /* keep it from being picked twice */
		b = hand_pick(s, p, m->tok[1], -1);
		s->loc[a] = AF_LOC_HAND;
		s->val[a]--;
		s->val[b]++;
		break;
	}
	case AF_WARPER: {
		int picked[AF_MAXHAND];

		for (int k = 0; k < m->n; k++) {
			picked[k] = hand_pick(s, p, m->tok[k], -1);
			s->loc[picked[k]] = AF_LOC_STOCK;
		}
		for (int k = 0; k < m->n; k++) {
			s->loc[picked[k]] = AF_LOC_HAND;
			s->val[picked[k]] = (uint8_t)rng_die(rng, 6);
		}
		break;
	}
	case AF_CRYSTAL:
		s->borrow = m->terr;
		break;
	case AF_CANNON:
		for (int k = 0; k < m->n; k++) {
			int o = m->tok[k] >> 4, t = m->tok[k] & 15;

			for (int i = 0; i < AF_NSHIPS; i++) {
				if (s->loc[i] != AF_LOC_FAC + m->fac || af__ship_owner(s, i) != o ||
				    s->val[i] != AF_TOK_VAL(t) || (i == AF_RELIC) != ((t & AF_TOK_RELIC) != 0))
					continue;
				if (m->fac == AF_TERRA) {
					/* forfeit anyway: straight to the stock (the Relic Ship home) */
					if (i == AF_RELIC) {
						relic_home(s);
					} else {
						s->loc[i] = AF_LOC_STOCK;
						s->val[i] = 0;
					}
				} else {
					s->loc[i] = AF_LOC_BAY;
				}
				break;
			}
		}
		break;
	default:
		break;
	}
	af__refresh(s);
	return 0;
}

static int discard_card(struct af_state *s, int p, const struct af_move *m, struct err *err, int commit)
{
	int c = m->card;

	if (c < 0 || c >= AF_NCARD)
		FAIL("Name the alien tech card to discard.");
	if (!has_card(s, p, c))
		FAIL("You do not have the %s.", CARD_NAME(c));
	if (s->discarded)
		FAIL("You already used a discard power this turn; only one per turn.");
	if ((s->used >> c) & 1)
		FAIL("You used the %s this turn, so you cannot discard it for its power.", CARD_NAME(c));

	switch (c) {
	case AF_BOOSTER:
		if (m->field < 0 || m->field >= AF_NFIELD)
			FAIL("Name the field generator to remove (isolation, positron or repulsor).");
		if (s->field[m->field] < 0)
			FAIL("The %s is not on the planet.", af_field_names[m->field].name);
		break;
	case AF_CRYSTAL:
	case AF_STASIS:
	case AF_GRAVITY: {
		int f = c == AF_CRYSTAL ? AF_POSITRON : c == AF_STASIS ? AF_ISOLATION : AF_REPULSOR;

		if (m->terr < 0 || m->terr >= AF_NTERR)
			FAIL("Name the territory for the %s.", af_field_names[f].name);
		if (s->field[f] == m->terr)
			FAIL("The %s is already on %s; move it to another territory.", af_field_names[f].name,
			     TERR_NAME(m->terr));
		break;
	}
	case AF_TELEPORTER:
		if (m->seat1 < 0 || m->seat1 >= s->n || m->terr < 0 || m->terr2 < 0)
			FAIL("Say whose colony moves from where to where (e.g. 'discard orbital-teleporter p2 lem herbert').");
		if (!s->col[m->terr][m->seat1])
			FAIL("@%d has no colony on %s.", m->seat1, TERR_NAME(m->terr));
		if (m->terr == m->terr2)
			FAIL("The colony must move to another territory.");
		if (s->field[AF_REPULSOR] == m->terr || s->field[AF_REPULSOR] == m->terr2)
			FAIL("The Repulsor Field on %s stops colonies from being added or removed there.",
			     TERR_NAME(s->field[AF_REPULSOR]));
		break;
	case AF_POLARITY:
		if (m->seat1 < 0 || m->seat1 >= s->n || m->seat2 < 0 || m->seat2 >= s->n || m->terr < 0 ||
		    m->terr2 < 0)
			FAIL("Name two colonies to swap (e.g. 'discard polarity-device p1 herbert p2 lem').");
		if (m->terr == m->terr2)
			FAIL("Polarity Device swaps colonies on two different territories.");
		if (m->seat1 == m->seat2)
			FAIL("Swapping two colonies of the same player changes nothing.");
		if (!s->col[m->terr][m->seat1])
			FAIL("@%d has no colony on %s.", m->seat1, TERR_NAME(m->terr));
		if (!s->col[m->terr2][m->seat2])
			FAIL("@%d has no colony on %s.", m->seat2, TERR_NAME(m->terr2));
		if (s->field[AF_REPULSOR] == m->terr || s->field[AF_REPULSOR] == m->terr2)
			FAIL("The Repulsor Field on %s stops colonies from being added or removed there.",
			     TERR_NAME(s->field[AF_REPULSOR]));
		break;
	case AF_CANNON: {
		int o = m->tok[0] >> 4, v = AF_TOK_VAL(m->tok[0]), ship = -1;

		if (m->fac < 0 || m->n != 1)
			FAIL("Name the facility and the ship (e.g. 'discard plasma-cannon mine p2:6').");
		if (o == p || o >= s->n)
			FAIL("Plasma Cannon's discard power returns a ship of another player.");
		if (m->tok[0] & AF_TOK_RELIC) {
			/* the Relic Ship may be the target; it goes home, never to a stock */
			if (s->relic_owner == o && s->loc[AF_RELIC] == AF_LOC_FAC + m->fac && s->val[AF_RELIC] == v)
				ship = AF_RELIC;
		} else {
			for (int i = o * AF_SHIPS_PER; i < (o + 1) * AF_SHIPS_PER; i++)
				if (s->loc[i] == AF_LOC_FAC + m->fac && s->val[i] == v)
					ship = i;
		}
		if (ship < 0)
			FAIL("@%d has no%s ship showing %d at %s.", o,
			     (m->tok[0] & AF_TOK_RELIC) ? " Relic" : "", v, FAC_NAME(m->fac));
		/* the Relic Ship has no colour: it never counts toward this tally */
		if (colour_kept(s, o) <= 3)
			FAIL("@%d has %d ships of their colour on the board; the target needs more than 3.", o,
			     colour_kept(s, o));
		if (commit) {
			if (ship == AF_RELIC) {
				relic_home(s);
			} else {
				s->loc[ship] = AF_LOC_STOCK;
				s->val[ship] = 0;
			}
		}
		break;
	}
	case AF_WARPER:
		if (m->card2 < 0 || m->card2 >= AF_NCARD)
			FAIL("Name the card to take from the discard pile.");
		if (!s->disc[m->card2])
			FAIL("There is no %s in the discard pile.", CARD_NAME(m->card2));
		if (m->card2 != AF_WARPER && has_card(s, p, m->card2))
			FAIL("You already have the %s.", CARD_NAME(m->card2));
		break;
	default:
		FAIL("The %s has no discard power.", CARD_NAME(c));
	}
	if (!commit)
		return 0;

	s->hand[p] &= (uint16_t)~(1u << c);
	s->disc[c]++;
	s->discarded = 1;
	s->used |= (uint16_t)(1u << c);
	switch (c) {
	case AF_BOOSTER:
		s->field[m->field] = -1;
		break;
	case AF_CRYSTAL:
		s->field[AF_POSITRON] = m->terr;
		break;
	case AF_STASIS:
		s->field[AF_ISOLATION] = m->terr;
		break;
	case AF_GRAVITY:
		s->field[AF_REPULSOR] = m->terr;
		break;
	case AF_TELEPORTER:
		s->col[m->terr][m->seat1]--;
		s->col[m->terr2][m->seat1]++;
		break;
	case AF_POLARITY:
		s->col[m->terr][m->seat1]--;
		s->col[m->terr][m->seat2]++;
		s->col[m->terr2][m->seat2]--;
		s->col[m->terr2][m->seat1]++;
		break;
	case AF_WARPER:
		s->disc[m->card2]--;
		s->hand[p] |= (uint16_t)(1u << m->card2);
		break;
	default:
		break;
	}
	af__refresh(s);
	return 0;
}

static int raid(struct af_state *s, int p, const struct af_move *m, struct err *err, int commit)
{
	if (m->card >= 0) {
		int v = m->seat1;

		if (v < 0 || v >= s->n || v == p)
			FAIL("Name the player to steal from (e.g. 'raid p2 plasma-cannon').");
		if (m->card >= AF_NCARD || !has_card(s, v, m->card))
			FAIL("@%d does not have the %s.", v, CARD_NAME(m->card < AF_NCARD ? m->card : 0));
		if (has_card(s, v, AF_DECOY) && m->card != AF_DECOY)
			FAIL("@%d has the Holographic Decoy: you may only take the Decoy from them.", v);
		if (!commit)
			return 0;
		s->hand[v] &= (uint16_t)~(1u << m->card);
		if (has_card(s, p, m->card))
			s->disc[m->card]++; /* a card you already have is discarded */
		else
			s->hand[p] |= (uint16_t)(1u << m->card);
	} else {
		int avail = 0, total = 0, want;

		for (int v = 0; v < s->n; v++) {
			int tf = m->take[v][0], to = m->take[v][1];

			if (v == p || has_card(s, v, AF_DECOY)) {
				if ((tf || to) && v == p)
					FAIL("You cannot raid yourself.");
				if (tf || to)
					FAIL("@%d has the Holographic Decoy: their resources are safe.", v);
				continue;
			}
			avail += s->fuel[v] + s->ore[v];
			if (tf > s->fuel[v] || to > s->ore[v])
				FAIL("@%d has %d fuel and %d ore; you asked for %d fuel and %d ore.", v,
				     s->fuel[v], s->ore[v], tf, to);
			total += tf + to;
		}
		/* four in total, or everything the eligible players hold when that is fewer */
		want = avail < 4 ? avail : 4;
		if (!want)
			FAIL("Nobody has resources you may steal; take an alien tech card instead.");
		if (total < 1)
			FAIL("Say what to steal: 4 resources or one alien tech card.");
		if (total != want && want == 4)
			FAIL("A raid takes 4 resources in all; you asked for %d.", total);
		if (total != want)
			FAIL("A raid takes all %d resources the others hold; you asked for %d.", want, total);
		if (!commit)
			return 0;
		for (int v = 0; v < s->n; v++) {
			s->fuel[v] -= m->take[v][0];
			s->ore[v] -= m->take[v][1];
			s->fuel[p] += m->take[v][0];
			s->ore[p] += m->take[v][1];
		}
	}
	s->raid = 0;
	af__refresh(s);
	return 0;
}

int af__step(struct af_state *s, int seat, const struct af_move *m, struct rng *rng, struct err *err)
{
	int p = s->cur, commit = rng != NULL;

	if (s->over)
		FAILC(ERR_FORBIDDEN, "The game is over.");
	if (seat != p)
		FAILC(ERR_FORBIDDEN, "It is @%d's turn, not yours.", p);
	if (s->raid && m->kind != AF_M_RAID)
		FAIL("Finish your raid first: steal 4 resources or one alien tech card (e.g. 'raid p%d 2 fuel 2 ore').",
		     (p + 1) % s->n + 1);
	switch (m->kind) {
	case AF_M_DOCK:
		return dock(s, p, m->fac, m->tok, m->n, m->terr, -1, commit, err);
	case AF_M_TRADE: {
		int rate = 7, k = m->count;

		for (int i = 0; i < AF_NSHIPS; i++)
			if (s->loc[i] == AF_LOC_FAC + AF_MARKET && af__ship_owner(s, i) == p && s->val[i] < rate)
				rate = s->val[i];
		if (rate == 7)
			FAIL("Trading needs your pair docked at the Orbital Market this turn.");
		if (af__has_bonus(s, p, AF_HEINLEIN))
			rate = 1;
		if (k < 1)
			FAIL("Say how many trades (e.g. 'trade 1').");
		if (s->fuel[p] < rate * k)
			FAIL("Orbital Market: %d trade%s at %d fuel each cost %d fuel; you have %d.", k, k == 1 ? "" : "s",
			     rate, rate * k, s->fuel[p]);
		if (!commit)
			return 0;
		s->fuel[p] -= (int16_t)(rate * k);
		s->ore[p] += (int16_t)k;
		return 0;
	}
	case AF_M_CYCLE:
		if (!s->cycles)
			FAIL("Each ship you dock at the Alien Artifact allows one cycle; you have none left.");
		if (!commit)
			return 0;
		s->cycles--;
		for (int i = 0; i < 3; i++)
			if (s->disp[i] >= 0)
				s->disc[s->disp[i]]++;
		for (int i = 0; i < 3; i++)
			s->disp[i] = (int8_t)draw_card(s, rng);
		return 0;
	case AF_M_CLAIM: {
		int slot = -1;

		if (m->card < 0 || m->card >= AF_NCARD)
			FAIL("Name the card to claim.");
		for (int i = 0; i < 3; i++)
			if (s->disp[i] == m->card)
				slot = i;
		if (slot < 0)
			FAIL("The %s is not on display at the Alien Artifact.", CARD_NAME(m->card));
		if (s->art_sum < 8)
			FAIL("Alien Artifact: claiming needs ships totalling 8 or more docked there since your last claim; you have %d.",
			     s->art_sum);
		if (has_card(s, p, m->card))
			FAIL("You already have the %s.", CARD_NAME(m->card));
		if (!commit)
			return 0;
		s->hand[p] |= (uint16_t)(1u << m->card);
		s->art_sum = 0;
		s->disp[slot] = (int8_t)draw_card(s, rng);
		af__refresh(s);
		return 0;
	}
	case AF_M_LAUNCH: {
		int rc;

		if (s->hub[p] < AF_HUB_TOP)
			FAIL("Your colony on the Colonist Hub is on circle %d; it launches from circle 7.", s->hub[p]);
		if (s->fuel[p] < 1 || s->ore[p] < 1)
			FAIL("Launching costs 1 fuel and 1 ore; you have %d fuel and %d ore.", s->fuel[p], s->ore[p]);
		rc = terr_ok(s, m->terr, err);
		if (rc || !commit)
			return rc;
		s->fuel[p]--;
		s->ore[p]--;
		s->hub[p] = 0;
		s->col[m->terr][p]++;
		if (s->hub_excess && s->supply[p]) {
			s->supply[p]--;
			s->hub[p] = s->hub_excess > AF_HUB_TOP ? AF_HUB_TOP : s->hub_excess;
		}
		s->hub_excess = 0;
		af__refresh(s);
		check_over(s, p);
		return 0;
	}
	case AF_M_BUY:
		if (s->relic_owner >= 0)
			FAIL("The Relic Ship is not on Burroughs Desert.");
		if (s->ctl[AF_BURROUGHS] != p)
			FAIL("Only the player who controls Burroughs Desert may buy the Relic Ship.");
		if (s->field[AF_ISOLATION] == AF_BURROUGHS)
			FAIL("The Isolation Field on Burroughs Desert nullifies its bonus.");
		if (s->fuel[p] < 1 || s->ore[p] < 1)
			FAIL("The Relic Ship costs 1 fuel and 1 ore; you have %d fuel and %d ore.", s->fuel[p], s->ore[p]);
		if (!commit)
			return 0;
		s->fuel[p]--;
		s->ore[p]--;
		s->relic_owner = (int8_t)p;
		s->loc[AF_RELIC] = AF_LOC_BAY;
		s->val[AF_RELIC] = 0;
		return 0;
	case AF_M_USE:
		return use_card(s, p, m, rng, err);
	case AF_M_DISCARD:
		return discard_card(s, p, m, err, commit);
	case AF_M_RAID:
		if (!s->raid)
			FAIL("You can raid only right after docking at the Raiders' Outpost.");
		return raid(s, p, m, err, commit);
	case AF_M_RETURN: {
		int f = m->take[0][0], o = m->take[0][1], excess = resources(s, p) - AF_HAND_LIMIT;

		if (excess <= 0)
			FAIL("You hold %d resources; only more than 8 must be returned.", resources(s, p));
		if (f > s->fuel[p] || o > s->ore[p])
			FAIL("You have %d fuel and %d ore; you offered %d fuel and %d ore.", s->fuel[p], s->ore[p], f, o);
		if (f + o != excess)
			FAIL("You hold %d resources: return exactly %d to keep 8; you offered %d.", resources(s, p), excess,
			     f + o);
		if (!commit)
			return 0;
		s->fuel[p] -= (int16_t)f;
		s->ore[p] -= (int16_t)o;
		return 0;
	}
	case AF_M_END: {
		struct af_move open;

		if (af__open_dock(s, &open)) {
			struct buf b = BUF_INIT;

			if (!err)
				return ERR_ILLEGAL;
			af__format(&open, &b);
			err_set(err, ERR_ILLEGAL, "You must place every ship you can before ending: '%s' is still open.",
				b.data);
			buf_release(&b);
			return ERR_ILLEGAL;
		}
		if (resources(s, p) > AF_HAND_LIMIT)
			FAIL("You hold %d resources: return %d first (e.g. 'return %d %s').", resources(s, p),
			     resources(s, p) - AF_HAND_LIMIT, resources(s, p) - AF_HAND_LIMIT,
			     s->fuel[p] >= resources(s, p) - AF_HAND_LIMIT ? "fuel" : "ore");
		if (!commit)
			return 0;
		for (int i = 0; i < AF_NSHIPS; i++)
			if (s->loc[i] == AF_LOC_HAND)
				s->loc[i] = AF_LOC_BAY;
		s->cur = (uint8_t)((p + 1) % s->n);
		s->turn++;
		start_turn(s, rng);
		return 0;
	}
	default:
		FAILC(ERR_INPUT, "Unknown move.");
	}
}

/* ---- legal move enumeration ---- */

struct sets {
	int n;
	uint8_t tok[128][AF_MAXHAND];
	uint8_t len[128];
};

/* Every non-empty sub-multiset of p's unplaced ships, tokens ascending. */
static void hand_sets(const struct af_state *s, int p, struct sets *out)
{
	int cnt[16] = { 0 }, types[16], nt = 0, k[16] = { 0 };

	for (int i = 0; i < AF_NSHIPS; i++)
		if (s->loc[i] == AF_LOC_HAND && af__ship_owner(s, i) == p)
			cnt[s->val[i] | (i == AF_RELIC ? AF_TOK_RELIC : 0)]++;
	for (int t = 0; t < 16; t++)
		if (cnt[t])
			types[nt++] = t;
	out->n = 0;
	for (;;) {
		int j = 0;

		while (j < nt && k[types[j]] == cnt[types[j]]) {
			k[types[j]] = 0;
			j++;
		}
		if (j == nt)
			break;
		k[types[j]]++;
		{
			int len = 0;

			for (int a = 0; a < nt; a++)
				for (int b = 0; b < k[types[a]]; b++)
					out->tok[out->n][len++] = (uint8_t)types[a];
			out->len[out->n++] = (uint8_t)len;
		}
	}
}

static int fac_size_ok(int fac, int len)
{
	switch (fac) {
	case AF_MARKET:
	case AF_SHIPYARD:
		return len == 2;
	case AF_CONSTRUCTOR:
	case AF_RAIDERS:
		return len == 3;
	case AF_TERRA:
		return len == 1;
	default:
		return 1;
	}
}

static int fac_needs_terr(int fac)
{
	return fac == AF_CONSTRUCTOR || fac == AF_TERRA;
}

struct emit {
	struct af_state *s;
	int seat;
	struct af_move *out;
	int n, max;
	int all; /* 1: collect candidates without validating them */
};

static int try_move(struct emit *e, struct af_move *m)
{
	af__move_canon(m);
	if (!e->all && af__step(e->s, e->seat, m, NULL, NULL) != 0)
		return 0;
	if (e->n < e->max)
		e->out[e->n++] = *m;
	return 1;
}

static void legal_docks(struct emit *e, const struct sets *hs, int stop_first)
{
	for (int f = 0; f < AF_NFAC; f++) {
		for (int i = 0; i < hs->n; i++) {
			struct af_move m;

			if (!fac_size_ok(f, hs->len[i]) || (e->all == 2 && hs->len[i] > 1 && fac_size_ok(f, 1)))
				continue;
			af__move_init(&m, AF_M_DOCK);
			m.fac = (int8_t)f;
			m.n = hs->len[i];
			memcpy(m.tok, hs->tok[i], m.n);
			if (fac_needs_terr(f)) {
				for (int t = 0; t < AF_NTERR; t++) {
					m.terr = (int8_t)t;
					if (try_move(e, &m) && stop_first)
						return;
				}
			} else if (try_move(e, &m) && stop_first) {
				return;
			}
		}
	}
}

int af__open_dock(const struct af_state *s, struct af_move *out)
{
	struct af_state w = *s;
	struct sets hs;
	struct emit e = { &w, s->cur, out, 0, 1, 0 };

	hand_sets(s, s->cur, &hs);
	legal_docks(&e, &hs, 1);
	return e.n;
}

static void legal_cannon(struct emit *e, int p)
{
	const struct af_state *s = e->s;

	for (int f = 0; f < AF_NFAC; f++) {
		int cnt[64] = { 0 }, types[AF_NSHIPS], nt = 0, k[64] = { 0 };

		for (int i = 0; i < AF_NSHIPS; i++) {
			int o;

			if (s->loc[i] != AF_LOC_FAC + f || (o = af__ship_owner(s, i)) == p)
				continue;
			cnt[(o << 4) | s->val[i] | (i == AF_RELIC ? AF_TOK_RELIC : 0)]++;
		}
		for (int t = 0; t < 64; t++)
			if (cnt[t])
				types[nt++] = t;
		for (;;) {
			int j = 0, len = 0;
			struct af_move m;

			while (j < nt && k[types[j]] == cnt[types[j]]) {
				k[types[j]] = 0;
				j++;
			}
			if (j == nt)
				break;
			k[types[j]]++;
			af__move_init(&m, AF_M_USE);
			m.card = AF_CANNON;
			m.fac = (int8_t)f;
			for (int a = 0; a < nt; a++)
				for (int b = 0; b < k[types[a]]; b++)
					m.tok[len++] = (uint8_t)types[a];
			m.n = (uint8_t)len;
			if (len > s->fuel[p] + 1 || (e->all == 2 && len > 1))
				continue;
			try_move(e, &m);
		}
	}
}

static void legal_teleporter(struct emit *e, int p, const struct sets *hs)
{
	const struct af_state *s = e->s;
	int seen[AF_NFAC][16] = { { 0 } };

	for (int i = 0; i < AF_NSHIPS; i++) {
		int from, tok;

		if (s->loc[i] < AF_LOC_FAC || af__ship_owner(s, i) != p)
			continue;
		from = s->loc[i] - AF_LOC_FAC;
		tok = s->val[i] | (i == AF_RELIC ? AF_TOK_RELIC : 0);
		if (from == AF_TERRA || seen[from][tok])
			continue;
		seen[from][tok] = 1;
		for (int to = 0; to < AF_NFAC; to++) {
			if (to == from)
				continue;
			for (int x = -1; x < hs->n; x++) {
				struct af_move m;
				int len = x < 0 ? 0 : hs->len[x];

				if (!fac_size_ok(to, len + 1) || (e->all == 2 && len > 0 && fac_size_ok(to, 1)))
					continue;
				af__move_init(&m, AF_M_USE);
				m.card = AF_TELEPORTER;
				m.fac = (int8_t)from;
				m.fac2 = (int8_t)to;
				m.tok[0] = (uint8_t)tok;
				if (len)
					memcpy(m.tok + 1, hs->tok[x], len);
				m.n = (uint8_t)(len + 1);
				if (fac_needs_terr(to)) {
					for (int t = 0; t < AF_NTERR; t++) {
						m.terr = (int8_t)t;
						try_move(e, &m);
					}
				} else {
					try_move(e, &m);
				}
			}
		}
	}
}

static void legal_raid(struct emit *e, int p)
{
	const struct af_state *s = e->s;
	int bins[8][3], nb = 0, avail = 0, want, k[8] = { 0 };

	for (int v = 0; v < s->n; v++) {
		if (v == p)
			continue;
		for (int c = 0; c < AF_NCARD; c++) {
			struct af_move m;

			if (!has_card(s, v, c))
				continue;
			af__move_init(&m, AF_M_RAID);
			m.seat1 = (int8_t)v;
			m.card = (int8_t)c;
			try_move(e, &m);
		}
		if (has_card(s, v, AF_DECOY))
			continue;
		for (int r = 0; r < 2; r++) {
			int have = r ? s->ore[v] : s->fuel[v];

			if (have <= 0)
				continue;
			bins[nb][0] = v;
			bins[nb][1] = r;
			bins[nb][2] = have < 4 ? have : 4;
			avail += have;
			nb++;
		}
	}
	want = avail < 4 ? avail : 4;
	if (!want)
		return;
	for (;;) {
		int j = 0, total = 0;

		while (j < nb && k[j] == bins[j][2]) {
			k[j] = 0;
			j++;
		}
		if (j == nb)
			break;
		k[j]++;
		for (int b = 0; b < nb; b++)
			total += k[b];
		if (total == want) {
			struct af_move m;

			af__move_init(&m, AF_M_RAID);
			for (int b = 0; b < nb; b++)
				m.take[bins[b][0]][bins[b][1]] = (uint8_t)k[b];
			try_move(e, &m);
		}
	}
}

/*
 * Every legal move for seat (all 0), or candidates that a caller validates
 * itself with af__step: all 1 gives a superset of the legal moves; all 2 a
 * lighter set that docks one ship at a time where a facility takes single
 * ships (the random player draws from it and validates only what it draws).
 */
int af__candidates(const struct af_state *s, int seat, struct af_move *out, int max, int all)
{
	struct af_state w = *s;
	struct emit e = { &w, seat, out, 0, max, all };
	struct sets hs;
	struct af_move m;
	int p = s->cur;

	if (s->over || seat != p)
		return 0;
	if (s->raid) {
		legal_raid(&e, p);
		return e.n;
	}
	hand_sets(s, p, &hs);
	legal_docks(&e, &hs, 0);
	/* trades: every count you can pay for */
	for (int k = 1; k <= s->fuel[p]; k++) {
		af__move_init(&m, AF_M_TRADE);
		m.count = (uint8_t)k;
		if (!try_move(&e, &m) || all)
			break;
	}
	af__move_init(&m, AF_M_CYCLE);
	try_move(&e, &m);
	for (int i = 0; i < 3; i++) {
		/* two copies of a card on display are one step, listed once */
		if (s->disp[i] < 0 || (i > 0 && s->disp[0] == s->disp[i]) || (i > 1 && s->disp[1] == s->disp[i]))
			continue;
		af__move_init(&m, AF_M_CLAIM);
		m.card = s->disp[i];
		try_move(&e, &m);
	}
	for (int t = 0; t < AF_NTERR; t++) {
		af__move_init(&m, AF_M_LAUNCH);
		m.terr = (int8_t)t;
		try_move(&e, &m);
	}
	af__move_init(&m, AF_M_BUY);
	try_move(&e, &m);
	for (int c = 0; c < AF_NCARD; c++) {
		if (!has_card(s, p, c))
			continue;
		switch (c) {
		case AF_BOOSTER:
		case AF_STASIS:
		case AF_POLARITY:
		case AF_WARPER:
			for (int i = 0; i < hs.n; i++) {
				if ((c != AF_WARPER || all == 2) && hs.len[i] != 1)
					continue;
				af__move_init(&m, AF_M_USE);
				m.card = (int8_t)c;
				m.n = hs.len[i];
				memcpy(m.tok, hs.tok[i], m.n);
				try_move(&e, &m);
			}
			break;
		case AF_GRAVITY:
			for (int i = 0; i < hs.n; i++) {
				if (hs.len[i] != 2)
					continue;
				for (int o = 0; o < 2; o++) {
					af__move_init(&m, AF_M_USE);
					m.card = AF_GRAVITY;
					m.n = 2;
					m.tok[0] = hs.tok[i][o];
					m.tok[1] = hs.tok[i][1 - o];
					if (o && m.tok[0] == m.tok[1])
						continue;
					try_move(&e, &m);
				}
			}
			break;
		case AF_CRYSTAL:
			for (int t = 0; t < AF_NTERR; t++) {
				af__move_init(&m, AF_M_USE);
				m.card = AF_CRYSTAL;
				m.terr = (int8_t)t;
				try_move(&e, &m);
			}
			break;
		case AF_CANNON:
			legal_cannon(&e, p);
			break;
		case AF_TELEPORTER:
			legal_teleporter(&e, p, &hs);
			break;
		default:
			break;
		}
		/* discard powers */
		switch (c) {
		case AF_BOOSTER:
			for (int f = 0; f < AF_NFIELD; f++) {
				af__move_init(&m, AF_M_DISCARD);
				m.card = AF_BOOSTER;
				m.field = (int8_t)f;
				try_move(&e, &m);
			}
			break;
		case AF_CRYSTAL:
		case AF_STASIS:
		case AF_GRAVITY:
			for (int t = 0; t < AF_NTERR; t++) {
				af__move_init(&m, AF_M_DISCARD);
				m.card = (int8_t)c;
				m.terr = (int8_t)t;
				try_move(&e, &m);
			}
			break;
		case AF_TELEPORTER:
			for (int o = 0; o < s->n; o++)
				for (int a = 0; a < AF_NTERR; a++) {
					if (!s->col[a][o])
						continue;
					for (int b = 0; b < AF_NTERR; b++) {
						af__move_init(&m, AF_M_DISCARD);
						m.card = AF_TELEPORTER;
						m.seat1 = (int8_t)o;
						m.terr = (int8_t)a;
						m.terr2 = (int8_t)b;
						try_move(&e, &m);
					}
				}
			break;
		case AF_POLARITY:
			for (int a = 0; a < AF_NTERR; a++)
				for (int b = a + 1; b < AF_NTERR; b++)
					for (int o1 = 0; o1 < s->n; o1++)
						for (int o2 = 0; o2 < s->n; o2++) {
							if (!s->col[a][o1] || !s->col[b][o2])
								continue;
							af__move_init(&m, AF_M_DISCARD);
							m.card = AF_POLARITY;
							m.seat1 = (int8_t)o1;
							m.terr = (int8_t)a;
							m.seat2 = (int8_t)o2;
							m.terr2 = (int8_t)b;
							try_move(&e, &m);
						}
			break;
		case AF_CANNON: {
			int seen[AF_NFAC][64] = { { 0 } };

			for (int i = 0; i <= AF_RELIC; i++) {
				int o = af__ship_owner(s, i), key;

				if (o < 0 || o == p || s->loc[i] < AF_LOC_FAC)
					continue;
				key = (o << 4) | s->val[i] | (i == AF_RELIC ? AF_TOK_RELIC : 0);
				if (seen[s->loc[i] - AF_LOC_FAC][key])
					continue;
				seen[s->loc[i] - AF_LOC_FAC][key] = 1;
				af__move_init(&m, AF_M_DISCARD);
				m.card = AF_CANNON;
				m.fac = (int8_t)(s->loc[i] - AF_LOC_FAC);
				m.n = 1;
				m.tok[0] = (uint8_t)key;
				try_move(&e, &m);
			}
			break;
		}
		case AF_WARPER:
			for (int c2 = 0; c2 < AF_NCARD; c2++) {
				af__move_init(&m, AF_M_DISCARD);
				m.card = AF_WARPER;
				m.card2 = (int8_t)c2;
				try_move(&e, &m);
			}
			break;
		default:
			break;
		}
	}
	{
		int ex = s->fuel[p] + s->ore[p] - AF_HAND_LIMIT;

		for (int f = 0; ex > 0 && f <= ex; f++) {
			af__move_init(&m, AF_M_RETURN);
			m.take[0][0] = (uint8_t)f;
			m.take[0][1] = (uint8_t)(ex - f);
			try_move(&e, &m);
		}
	}
	af__move_init(&m, AF_M_END);
	try_move(&e, &m);
	return e.n;
}

int af__legal(const struct af_state *s, int seat, struct af_move *out, int max)
{
	return af__candidates(s, seat, out, max, 0);
}
