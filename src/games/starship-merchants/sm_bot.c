/* games/starship-merchants/sm_bot.c: a random and a greedy computer player for Starship Merchants */
/* SPDX-License-Identifier: MIT */
#include "games/starship-merchants/sm_internal.h"

#include <string.h>


#include "util/banned.h"

/*
 * The numbers a greedy merchant decides by. Level 1 plays the first set;
 * level 2 plays the same heuristics with the set tuned against level 1 by
 * bot games (docs/games/starship-merchants.md, "Bots").
 */
struct knobs {
	double explore;    /* weight of a bag draw's average value */
	double ev;         /* credits an extra hold or energy point brings per lap */
	int lap_credits;   /* credits of the leader per lap still to go (laps_left) */
	int laps_max;      /* laps_left at the start */
	int claim_value;   /* claim tokens of at least this value ... */
	int claim_credits; /* ... with at least these credits */
	int buy_margin;    /* stay at the Shipyard to buy with a tug's price plus this */
	int buy_laps;      /* ... while more laps than this are left */
	int ship_minw;     /* a ship's worth: min(energy, cargo) times this ... */
	int ship_ew;       /* ... plus energy times this ... */
	int ship_cw;       /* ... plus cargo times this */
	int belt_stay;     /* stay in the Belt for another run worth this much */
	int lease;         /* lease when no ship is affordable */
	int last_buy;      /* laps_left at or below which no more ships are bought */
};

static const struct knobs level1 = {
	.explore = 1.0, .ev = 3.5, .lap_credits = 30, .laps_max = 4, .claim_value = 5, .claim_credits = 25,
	.buy_margin = 4, .buy_laps = 2, .ship_minw = 4, .ship_ew = 1, .ship_cw = 0, .belt_stay = 4, .lease = 1,
	.last_buy = 1,
};

static const struct knobs level2 = {
	.explore = 0.85, .ev = 0.0, .lap_credits = 50, .laps_max = 4, .claim_value = 5, .claim_credits = 5,
	.buy_margin = 0, .buy_laps = 4, .ship_minw = 4, .ship_ew = 4, .ship_cw = 0, .belt_stay = 1, .lease = 0,
	.last_buy = 3,
};

struct legal {
	int n;
	struct sm_move mv[SM_MAX_LEGAL];
};

static const struct sm_move *find(const struct legal *l, int type, int a, int b)
{
	for (int i = 0; i < l->n; i++)
		if (l->mv[i].type == type && (a < 0 || l->mv[i].a == a) && (b < 0 || l->mv[i].b == b))
			return &l->mv[i];
	return NULL;
}

/* Average credits per token in the bag (the value of exploring). */
static double bag_value(const struct sm_state *s)
{
	int n = 0, v = 0;

	for (int k = 0; k < SM_NKINDS; k++) {
		n += s->bag[k];
		v += s->bag[k] * sm_kinds[k].value;
	}
	return n ? (double)v / n : 0;
}

/* What a token of kind k is worth to this ship at the Dock, before destinations. */
static int token_worth(const struct sm_state *s, int seat, const struct sm_ship *sh, int k)
{
	struct sm_ship probe = *sh;

	memset(probe.cargo, 0, sizeof(probe.cargo));
	probe.dest = -1;
	probe.cargo[k] = 1;
	/* pilot/gear flat bonuses count once per delivery; leave them out of a single token */
	return sm_ship_payment(s, seat, &probe) -
	       (probe.pilot >= 0 ? sm_cards[probe.pilot].b.flat : 0);
}

/* Ships that are worth running: not obsolete and with room. */
static int ship_score(const struct sm_ship *sh)
{
	int e = sm_ship_energy(sh), room = sm_ship_capacity(sh) - sm_ship_load(sh);

	return room < e ? room : e;
}

/*
 * Plan the rest of a run greedily: fill the hold from the cheapest sources
 * (known and own local space at 1 energy, the best value first), then
 * opponents' local space, then exploring, keeping `reserve` energy. Returns
 * the expected credits and the first step in *first.
 */
static double plan_fill(const struct knobs *kn, const struct sm_state *s, int seat, const struct sm_ship *sh, int energy,
			int reserve, struct sm_move *first)
{
	int known[SM_NKINDS], local[SM_NKINDS], opp[SM_MAX_PLAYERS][SM_NKINDS];
	int room = sm_ship_capacity(sh) - sm_ship_load(sh);
	int e = energy - reserve, rc = sm_ship_remote_cost(sh), ec = sm_ship_explore_cost(sh);
	double total = 0, ev = kn->explore * bag_value(s);
	int bag = 0;

	first->type = -1;
	for (int k = 0; k < SM_NKINDS; k++) {
		known[k] = s->known[k];
		local[k] = s->p[seat].local[k] + s->p[seat].lclaim[k];
		bag += s->bag[k];
		for (int o = 0; o < s->n; o++)
			opp[o][k] = o == seat ? 0 : s->p[o].local[k];
	}
	while (room > 0 && e > 0) {
		int bestk = -1, bests = -1, bestv = 0, bestc = 1;
		double bestrate = 0;

		bestrate = -1;
		for (int k = 0; k < SM_NKINDS; k++) {
			int v = token_worth(s, seat, sh, k);

			if (local[k] && v > bestrate) {
				bestk = k, bests = SM_SRC_LOCAL, bestv = v, bestc = 1;
				bestrate = v;
			}
			if (known[k] && v > bestrate) {
				bestk = k, bests = SM_SRC_KNOWN, bestv = v, bestc = 1;
				bestrate = v;
			}
			for (int o = 0; o < s->n; o++)
				if (opp[o][k] && rc <= e && (double)v / rc > bestrate) {
					bestk = k, bests = SM_SRC_SEAT + o, bestv = v, bestc = rc;
					bestrate = (double)v / rc;
				}
		}
		if (bag && ec <= e && ev / ec > bestrate && ev > 0) {
			if (first->type < 0)
				*first = (struct sm_move){ SM_MV_EXPLORE, 0, 0 };
			total += ev;
			e -= ec;
			bag--;
			room--;
			continue;
		}
		if (bestk < 0 || bestc > e)
			break;
		if (first->type < 0)
			*first = (struct sm_move){ SM_MV_PICKUP, bestk, bests };
		total += bestv;
		e -= bestc;
		room--;
		if (bests == SM_SRC_LOCAL)
			local[bestk]--;
		else if (bests == SM_SRC_KNOWN)
			known[bestk]--;
		else
			opp[bests - SM_SRC_SEAT][bestk]--;
	}
	return total;
}

static int bot_run(const struct knobs *kn, const struct sm_state *s, int seat, const struct legal *l, struct sm_move *out)
{
	const struct sm_ship *sh = &s->p[seat].ships[s->run];
	struct sm_move first, best_first = { SM_MV_DONE, 0, 0 };
	double best = plan_fill(kn, s, seat, sh, s->energy, 0, &first);
	int best_dest = -1;

	if (first.type >= 0)
		best_first = first;
	if (sh->dest < 0)
		for (int i = 0; i < SM_DEST_SLOTS; i++) {
			int d = s->ddisp[i];
			double v;
			struct sm_ship proj = *sh;

			if (d < 0 || sm_dests[d].cost > s->energy)
				continue;
			v = plan_fill(kn, s, seat, sh, s->energy, sm_dests[d].cost, &first);
			/* the destination pays on what will be aboard: approximate with the current hold plus the plan */
			proj.dest = d;
			v += sm_ship_payment(s, seat, &proj) - sm_ship_payment(s, seat, sh);
			if (first.type >= 0 || best_dest >= 0 || v > best) {
				if (v > best + 0.01) {
					best = v;
					best_dest = d;
					best_first = first.type >= 0 ? first : (struct sm_move){ SM_MV_END_RUN, d, 0 };
				}
			}
		}
	if (find(l, best_first.type, best_first.a, best_first.b)) {
		*out = best_first;
		return 0;
	}
	*out = (struct sm_move){ SM_MV_DONE, 0, 0 };
	return find(l, SM_MV_DONE, -1, -1) ? 0 : -1;
}

/* Rough credits per lap a card adds to a ship (or, for refineries, the fleet). */
static double card_gain(const struct knobs *kn, const struct sm_state *s, int seat, int c, const struct sm_ship *sh)
{
	const struct sm_bonus *b = &sm_cards[c].b;
	double gain = 0, ev = kn->ev;
	int per_lap = 0;

	if (sm_cards[c].cat == SM_CARD_REFINERY) {
		const struct sm_player *pl = &s->p[seat];

		for (int i = 0; i < pl->nships; i++)
			if (!sm_ship_obsolete(s, &pl->ships[i]))
				per_lap += ship_score(&pl->ships[i]) > 0 ? ship_score(&pl->ships[i]) : 2;
	} else {
		int e = sm_ship_energy(sh), cap = sm_ship_capacity(sh);

		per_lap = e < cap ? e : cap;
		if (b->cargo)
			gain += b->cargo * (cap < e ? ev : 0.8);
		if (b->energy)
			gain += b->energy * (e < cap ? ev : 1.0);
		if (b->explore_off)
			gain += 1.0;
		if (b->remote_off)
			gain += 0.5;
		if (b->flat)
			gain += b->flat;
	}
	gain += per_lap * b->per_token;
	for (int k = 0; k < SM_NKINDS; k++)
		gain += per_lap * b->per_kind[k] * 0.2;
	return gain;
}

static int laps_left(const struct knobs *kn, const struct sm_state *s)
{
	int best = 0, left;

	for (int p = 0; p < s->n; p++)
		if (s->p[p].credits > best)
			best = s->p[p].credits;
	if (s->final)
		return 0;
	left = kn->laps_max - best / kn->lap_credits;
	return left < 1 ? 1 : left;
}

static int bot_market(const struct knobs *kn, const struct sm_state *s, int seat, const struct legal *l,
		      struct sm_move *out)
{
	const struct sm_player *pl = &s->p[seat];
	double best = 0;
	int h = laps_left(kn, s);

	if (s->bought) {
		/* claim the most valuable unclaimed token when rich enough */
		for (int k = SM_NKINDS - 1; k >= 0; k--)
			if (sm_kinds[k].value >= kn->claim_value && pl->credits >= kn->claim_credits &&
			    find(l, SM_MV_CLAIM, k, -1)) {
				*out = (struct sm_move){ SM_MV_CLAIM, k, 0 };
				return 0;
			}
		*out = (struct sm_move){ SM_MV_DONE, 0, 0 };
		return 0;
	}
	*out = (struct sm_move){ SM_MV_DONE, 0, 0 };
	for (int i = 0; i < l->n; i++) {
		const struct sm_move *m = &l->mv[i];
		const struct sm_ship *sh = NULL;
		double v;

		if (m->type != SM_MV_BUY_CARD)
			continue;
		if (sm_cards[m->a].cat != SM_CARD_REFINERY)
			sh = &pl->ships[sm_ship_find(pl, m->b)];
		v = card_gain(kn, s, seat, m->a, sh) * h - sm_cards[m->a].cost;
		if (v > best) {
			best = v;
			*out = *m;
		}
	}
	return 0;
}

static int bot_shipyard(const struct knobs *kn, const struct sm_state *s, int seat, const struct legal *l,
			struct sm_move *out)
{
	const struct sm_player *pl = &s->p[seat];
	int best_t = -1, best_v = -1;

	/* repay every marker we can, cheapest first */
	for (int i = 0; i < l->n; i++)
		if (l->mv[i].type == SM_MV_REPAY) {
			*out = l->mv[i];
			return 0;
		}
	if (laps_left(kn, s) <= kn->last_buy && pl->nships > 0) {
		*out = (struct sm_move){ SM_MV_DONE, 0, 0 };
		return 0;
	}
	for (int t = 0; t < SM_NTYPES; t++) {
		const struct sm_ship_kind *k = &sm_ships[s->era - 1][t];
		int v = (k->energy < k->cargo ? k->energy : k->cargo) * kn->ship_minw + k->energy * kn->ship_ew +
			k->cargo * kn->ship_cw;

		if ((find(l, SM_MV_BUY_SHIP, t, -1) || find(l, SM_MV_LEASE_SHIP, t, -1)) && v > best_v) {
			best_v = v;
			best_t = t;
		}
	}
	if (best_t >= 0 && find(l, SM_MV_BUY_SHIP, best_t, -1)) {
		*out = (struct sm_move){ SM_MV_BUY_SHIP, best_t, 0 };
		return 0;
	}
	for (int t = 0; t < SM_NTYPES; t++)
		if (find(l, SM_MV_BUY_SHIP, t, -1)) {
			*out = (struct sm_move){ SM_MV_BUY_SHIP, t, 0 };
			return 0;
		}
	if (kn->lease && best_t >= 0 && find(l, SM_MV_LEASE_SHIP, best_t, -1)) {
		*out = (struct sm_move){ SM_MV_LEASE_SHIP, best_t, 0 };
		return 0;
	}
	*out = (struct sm_move){ SM_MV_DONE, 0, 0 };
	return 0;
}

/* A ship worth running now: not obsolete, room aboard, and something to load. */
static int best_runner(const struct knobs *kn, const struct sm_state *s, int seat, int *no)
{
	const struct sm_player *pl = &s->p[seat];
	int best = 0;

	*no = -1;
	for (int i = 0; i < pl->nships; i++) {
		const struct sm_ship *sh = &pl->ships[i];
		struct sm_move first;
		double v;

		if (sm_ship_obsolete(s, sh) || sm_ship_load(sh) > 0)
			continue;
		v = plan_fill(kn, s, seat, sh, sm_ship_energy(sh), 0, &first);
		if (v > best) {
			best = (int)v;
			*no = sh->no;
		}
	}
	return best;
}

static int bot_start(const struct knobs *kn, const struct sm_state *s, int seat, const struct legal *l,
		     struct sm_move *out)
{
	const struct sm_player *pl = &s->p[seat];
	int stay = 0, no;

	switch (pl->pos) {
	case SM_SHIPYARD:
		stay = pl->nships == 0 ||
		       (!sm_player_loans(pl) && laps_left(kn, s) > kn->buy_laps &&
			pl->credits >= sm_ships[s->era - 1][SM_TUG].cost + kn->buy_margin &&
			sm_owned_of_mark(pl, s->era) < sm_consts.mark_limit[s->era - 1] &&
			(s->supply[s->era - 1][0] || s->supply[s->era - 1][1]));
		break;
	case SM_BELT:
		stay = best_runner(kn, s, seat, &no) >= kn->belt_stay;
		break;
	case SM_DOCK:
		stay = s->final; /* in the Dock at the trigger: take the 5 credits */
		break;
	default:
		break;
	}
	*out = (struct sm_move){ stay ? SM_MV_STAY : SM_MV_MOVE, 0, 0 };
	if (find(l, out->type, -1, -1))
		return 0;
	*out = l->mv[0];
	return 0;
}

static int bot_salvage(const struct knobs *kn, const struct sm_state *s, int seat, const struct legal *l,
		       struct sm_move *out)
{
	double best = 0;

	*out = (struct sm_move){ SM_MV_DONE, 0, 0 };
	for (int i = 0; i < l->n; i++) {
		const struct sm_move *m = &l->mv[i];
		const struct sm_player *pl = &s->p[seat];
		double v;

		if (m->type != SM_MV_TRANSFER)
			continue;
		v = card_gain(kn, s, seat, m->a, &pl->ships[sm_ship_find(pl, m->b)]) * laps_left(kn, s) -
		    sm_cards[m->a].cost;
		if (v > best) {
			best = v;
			*out = *m;
		}
	}
	return 0;
}

static int bot_greedy(const struct knobs *kn, const struct sm_state *s, int seat, const struct legal *l,
		      struct sm_move *out)
{
	switch (s->phase) {
	case SM_PH_START:
		return bot_start(kn, s, seat, l, out);
	case SM_PH_SHIPYARD:
		return bot_shipyard(kn, s, seat, l, out);
	case SM_PH_MARKET:
		return bot_market(kn, s, seat, l, out);
	case SM_PH_BELT: {
		int no;

		best_runner(kn, s, seat, &no);
		if (no < 0)
			for (int i = 0; i < s->p[seat].nships; i++)
				if (!sm_ship_obsolete(s, &s->p[seat].ships[i]) &&
				    sm_ship_load(&s->p[seat].ships[i]) < sm_ship_capacity(&s->p[seat].ships[i]))
					no = s->p[seat].ships[i].no;
		*out = (struct sm_move){ no >= 0 ? SM_MV_RUN : SM_MV_DONE, no, 0 };
		return 0;
	}
	case SM_PH_RUN:
		return bot_run(kn, s, seat, l, out);
	case SM_PH_EXPLORE:
		*out = (struct sm_move){ find(l, SM_MV_LOAD, -1, -1) ? SM_MV_LOAD : SM_MV_LEAVE, 0, 0 };
		return 0;
	case SM_PH_SALVAGE:
		return bot_salvage(kn, s, seat, l, out);
	case SM_PH_TRIGGER: {
		int lead = 1;

		for (int p = 0; p < s->n; p++)
			if (p != seat && s->p[p].credits >= s->p[seat].credits)
				lead = 0;
		*out = (struct sm_move){ lead ? SM_MV_END_GAME : SM_MV_DONE, 0, 0 };
		return 0;
	}
	default:
		return -1;
	}
}

int sm_bot_choose(const struct sm_state *s, int seat, int level, struct rng *rng, struct sm_move *out,
		  struct err *err)
{
	struct legal lbuf, *l = &lbuf;
	int rc = 0;

	l->n = sm_rules_legal(s, seat, l->mv, SM_MAX_LEGAL);
	if (l->n == 0) {
		rc = err_set(err, ERR_FORBIDDEN, "@%d has nothing to do now", seat);
		goto done;
	}
	if (level <= 0 || bot_greedy(level >= 2 ? &level2 : &level1, s, seat, l, out) ||
	    !find(l, out->type, out->a, out->b))
		*out = l->mv[rng_below(rng, (uint32_t)l->n)];
done:
	return rc;
}
