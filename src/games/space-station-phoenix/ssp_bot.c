/* games/space-station-phoenix/ssp_bot.c: the random (0), greedy (1) and strong (2) players of Space Station Phoenix */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "games/space-station-phoenix/ssp_internal.h"
#include "util/banned.h"

#define MAXMOVES 2048

/*
 * What the parts of a position are worth to a bot beyond the score sheet as
 * it stands. Level 1 plays the first set. Level 2 plays the same search with
 * the second: an empty living quarter is worth a resident to come, food and
 * water beyond what the next actions use and GEMs beyond a dozen are worth
 * only what they score at the end, and metal, which construction waits for,
 * is worth 1.5 up to the dearest Sector's 14; so it builds its station and
 * fills it, and spends its GEMs, instead of hoarding
 * (docs/games/space-station-phoenix.md, "Bots").
 */
struct weights {
	double quarter;        /* per empty living quarter */
	double food_water;     /* per food and per water, up to cap_fw of each */
	double metal;          /* per metal, up to cap_metal */
	int cap_fw, cap_metal;
	double over;           /* per resource above its cap */
	double gem_lo, gem_hi; /* per GEM up to 12, per GEM beyond */
	double dip;            /* per Diplomacy step */
	double ship;           /* per ship owned */
	double opp;            /* per point of each opponent's score (a cost) */
};

static const struct weights level1 = {
	.quarter = 0.5, .food_water = 0.7, .metal = 1.0, .cap_fw = 1000, .cap_metal = 1000, .over = 0.2,
	.gem_lo = 0.5, .gem_hi = 0.2, .dip = 1.2, .ship = 10.0, .opp = 0.1,
};

static const struct weights level2 = {
	.quarter = 2.0, .food_water = 0.7, .metal = 1.5, .cap_fw = 3, .cap_metal = 14, .over = 0.2,
	.gem_lo = 0.5, .gem_hi = 0.05, .dip = 1.2, .ship = 10.0, .opp = 0.1,
};

/* A rough worth of seat's position: the final score as it stands plus what its goods may become. */
static double worth(const struct weights *w, const struct ssp_state *st, int seat)
{
	int sc[SSP_MAXP][SC_NCAT], ships = 0, dip = 0;
	const struct ssp_player *pl = &st->pl[seat];
	double v;

	ssp_rules_score(st, sc);
	for (int s = 0; s < SSP_NSHIPS; s++)
		ships += st->ship_loc[s] == seat;
	for (int t = 0; t < 4; t++)
		dip += pl->dip[t];
	v = sc[seat][SC_TOTAL] - sc[seat][SC_LEFTOVER];
	/* GEMs pay for every action: the first dozen matter most */
	v += pl->res[SSP_GEM] < 12 ? w->gem_lo * pl->res[SSP_GEM]
				   : 12 * w->gem_lo + w->gem_hi * (pl->res[SSP_GEM] - 12);
	for (int r = SSP_FOOD; r <= SSP_METAL; r++) {
		int cap = r == SSP_METAL ? w->cap_metal : w->cap_fw, have = pl->res[r];
		double each = r == SSP_METAL ? w->metal : w->food_water;

		v += have <= cap ? each * have : each * cap + w->over * (have - cap);
	}
	v += w->dip * dip + w->ship * ships;
	/* empty quarters are where future residents go */
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (st->sec_loc[i] == seat)
			for (int q = 0; q < ssp_sectors[i].nq; q++)
				v += st->sec_res[i][q] ? 0 : w->quarter;
	for (int p = 0; p < st->nplayers; p++)
		if (p != seat) {
			v -= w->opp * sc[p][SC_TOTAL];
			/* never end a game one is losing */
			if (st->end_by == seat && sc[p][SC_TOTAL] >= sc[seat][SC_TOTAL])
				v -= 1000;
		}
	return v;
}

static int waiting_on(const struct ssp_state *st, int seat)
{
	return (ssp_rules_who(st) & (1u << seat)) != 0;
}

/* Greedy one step: the legal move whose result is worth most. */
static int greedy_pick(const struct weights *w, const struct ssp_state *st, int seat, struct rng *rng,
		       const struct ssp_move *m, int n, struct ssp_state *tmp)
{
	double best = -1e18;
	int bi = 0, ties = 0;

	for (int i = 0; i < n; i++) {
		struct rng r = *rng;
		double v;
		*tmp = *st;
		/* no message wanted (NULL): formatting refusals was much of a bot's cost */
		if (ssp_rules_apply(tmp, seat, &m[i], &r, NULL) < 0)
			continue;
		v = worth(w, tmp, seat);
		if (v > best + 1e-9) {
			best = v;
			bi = i;
			ties = 1;
		} else if (v > best - 1e-9 && rng_below(rng, (uint32_t)++ties) == 0) {
			bi = i;
		}
	}
	return bi;
}

/* At the start of a turn: play each choice out greedily to the end of the action, keep the best. */
static int greedy_turn(const struct weights *w, const struct ssp_state *st, int seat, struct rng *rng,
		       const struct ssp_move *m, int n)
{
	struct ssp_state *a = malloc(sizeof(*a)), *tmp = malloc(sizeof(*tmp));
	struct ssp_move *sub = malloc(MAXMOVES * sizeof(*sub));
	double best = -1e18;
	int bi = 0;

	if (!a || !tmp || !sub)
		goto done;
	for (int i = 0; i < n; i++) {
		struct rng r = *rng;
		double v;
		*a = *st;
		if (ssp_rules_apply(a, seat, &m[i], &r, NULL) < 0)
			continue;
		for (int depth = 0; depth < 12 && waiting_on(a, seat) && a->phase == PH_TURN && a->ntask > 0; depth++) {
			/*
			 * The candidates, not the legal steps: greedy_pick applies each
			 * one and skips those refused, which are exactly the ones
			 * ssp_rules_legal leaves out, so the pick is the same at half
			 * the cost (no step is tried twice).
			 */
			int k = ssp_rules_candidates(a, seat, sub, MAXMOVES);
			if (k == 0)
				break;
			k = greedy_pick(w, a, seat, &r, sub, k, tmp);
			if (ssp_rules_apply(a, seat, &sub[k], &r, NULL) < 0)
				break;
		}
		v = worth(w, a, seat) + (rng_below(rng, 1000) / 1e6);
		if (v > best) {
			best = v;
			bi = i;
		}
	}
done:
	free(a);
	free(tmp);
	free(sub);
	return bi;
}

int ssp_bot_choose(const struct ssp_state *st, int seat, int level, struct rng *rng, struct ssp_move *out,
		   struct err *err)
{
	struct ssp_move *m;
	int n, pick = 0;

	if (level <= 0) {
		/* random: one legal step without building the whole list */
		if (ssp_rules_random_legal(st, seat, rng, out) < 0)
			return err_set(err, ERR_FORBIDDEN, "seat %d has nothing to do now", seat);
		return 0;
	}
	m = malloc(MAXMOVES * sizeof(*m));
	if (!m)
		return err_set(err, ERR_NOMEM, "out of memory");
	n = ssp_rules_legal(st, seat, m, MAXMOVES);
	if (n == 0) {
		free(m);
		return err_set(err, ERR_FORBIDDEN, "seat %d has nothing to do now", seat);
	}
	if (st->phase == PH_TURN && st->ntask == 0) {
		pick = greedy_turn(level >= 2 ? &level2 : &level1, st, seat, rng, m, n);
	} else {
		struct ssp_state *tmp = malloc(sizeof(*tmp));
		if (tmp)
			pick = greedy_pick(level >= 2 ? &level2 : &level1, st, seat, rng, m, n, tmp);
		free(tmp);
	}
	*out = m[pick];
	free(m);
	return 0;
}
