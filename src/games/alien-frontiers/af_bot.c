/* games/alien-frontiers/af_bot.c: the random (level 0), greedy (level 1) and strong (level 2) players */
/* SPDX-License-Identifier: MIT */
#include "games/alien-frontiers/af_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/*
 * The weights a position is judged by. Level 1 plays the first set; level 2
 * the same search with weights tuned against level 1 by bot games, which also
 * count the colonies still to land and what launching one needs
 * (docs/games/alien-frontiers.md, "Bots").
 */
struct weights {
	int vp, ender;          /* per victory point; for having ended the game */
	int ship, relic, hub;   /* per ship in play; the Relic Ship; per Colonist Hub circle */
	int fuel, ore, over;    /* per fuel, per ore; per resource above the hand limit (a cost) */
	int card, art, tech;    /* per tech card; Alien Artifact total this turn; cost of using a power */
	int opp_vp, opp_res;    /* per opponent's point and resource, averaged over the opponents (a cost) */
	int col, opp_col;       /* per colony still to land (a cost); per opponent's colony still to land */
	int ctl, ore3, fuel2;   /* per territory controlled; per ore up to 3 and fuel up to 2 (what a colony needs) */
	int ready;              /* a colony at the top of the Hub with the fuel and ore to launch it */
};

static const struct weights level1 = {
	.vp = 100, .ender = 2000, .ship = 25, .relic = 20, .hub = 11, .fuel = 3, .ore = 4, .over = 4, .card = 15,
	.art = 1, .opp_vp = 30, .opp_res = 1, .col = 0, .opp_col = 0, .tech = 1, .ctl = 0, .ore3 = 0, .fuel2 = 0,
	.ready = 0,
};

static const struct weights level2 = {
	.vp = 100, .ender = 2000, .ship = 47, .relic = 17, .hub = 1, .fuel = 3, .ore = 2, .over = 4, .card = 17,
	.art = 0, .opp_vp = 51, .opp_res = 0, .col = 10, .opp_col = 2, .tech = 4, .ctl = 0, .ore3 = 6, .fuel2 = 2,
	.ready = 2,
};

/* How good the position is for p: points first, then what makes points later. */
static int evaluate(const struct weights *w, const struct af_state *s, int p)
{
	int score = w->vp * s->vp[p], res = s->fuel[p] + s->ore[p], ships = 0, opp = 0;

	if (s->over)
		score += s->ender == p ? w->ender : 0;
	for (int i = p * AF_SHIPS_PER; i < (p + 1) * AF_SHIPS_PER; i++)
		ships += s->loc[i] != AF_LOC_STOCK;
	score += w->ship * ships + (s->relic_owner == p ? w->relic : 0);
	score += w->hub * s->hub[p];
	score += w->fuel * s->fuel[p] + w->ore * s->ore[p];
	if (res > AF_HAND_LIMIT)
		score -= w->over * (res - AF_HAND_LIMIT);
	score += w->card * af__cards(s, p);
	if (p == s->cur)
		score += w->art * (s->art_sum > 8 ? 8 : s->art_sum);
	score -= w->col * af__colonies_left(s, p);
	for (int t = 0; t < AF_NTERR; t++)
		score += s->ctl[t] == p ? w->ctl : 0;
	score += w->ore3 * (s->ore[p] < 3 ? s->ore[p] : 3) + w->fuel2 * (s->fuel[p] < 2 ? s->fuel[p] : 2);
	if (s->hub[p] >= AF_HUB_TOP && s->fuel[p] >= 1 && s->ore[p] >= 1)
		score += w->ready;
	for (int q = 0; q < s->n; q++)
		if (q != p)
			opp += w->opp_vp * s->vp[q] + w->opp_res * (s->fuel[q] + s->ore[q]) -
			       w->opp_col * af__colonies_left(s, q);
	return score - opp / (s->n - 1);
}

/* The step of moves[0..n) that evaluates best for seat (ties drawn at random); -1 when none is legal. */
static int pick_best(const struct af_state *s, int seat, const struct weights *wt, struct rng *rng,
		     const struct af_move *moves, int n)
{
	int best = -1, best_score = 0, ties = 0;

	for (int i = 0; i < n; i++) {
		struct af_state w = *s;
		struct rng r = *rng;
		int sc;

		if (af__step(&w, seat, &moves[i], &r, NULL) != 0)
			continue;
		if (moves[i].kind == AF_M_END)
			sc = evaluate(wt, s, seat); /* the roll that follows is the next player's luck, not ours */
		else
			sc = evaluate(wt, &w, seat);
		if (moves[i].kind == AF_M_USE || moves[i].kind == AF_M_DISCARD || moves[i].kind == AF_M_CYCLE)
			sc -= wt->tech; /* only when it helps at once */
		if (best < 0 || sc > best_score) {
			best = i;
			best_score = sc;
			ties = 1;
		} else if (sc == best_score && rng_below(rng, (uint32_t)++ties) == 0) {
			best = i;
		}
	}
	return best;
}

/*
 * Level 0 picks uniformly among the light candidate steps (ships docked one
 * at a time) that turn out legal: draw one, validate it, drop it if refused.
 * Level 1 and 2 play every candidate on a copy and keep the one that
 * evaluates best. A bot looks at the first AF_BOT_MAX candidates only; when
 * none of those is legal (a hand of tech cards can fill the list with
 * refused combinations before 'end'), it chooses from the whole legal list.
 */
static int bot_weighed(const struct af_state *s, int seat, int level, const struct weights *wt, struct rng *rng,
		       struct af_move *m)
{
	struct af_move moves[AF_BOT_MAX], *all = NULL;
	int n, best = -1;

	n = af__candidates(s, seat, moves, AF_BOT_MAX, level <= 0 ? 2 : 1);
	if (level <= 0) {
		struct af_state w = *s;

		while (n > 0) {
			int i = (int)rng_below(rng, (uint32_t)n);

			if (af__step(&w, seat, &moves[i], NULL, NULL) == 0) {
				*m = moves[i];
				return 0;
			}
			moves[i] = moves[--n];
		}
	} else if ((best = pick_best(s, seat, wt, rng, moves, n)) >= 0) {
		*m = moves[best];
		return 0;
	}
	if (!(all = malloc(AF_LEGAL_MAX * sizeof(*all))))
		return ERR_NOMEM;
	n = af__legal(s, seat, all, AF_LEGAL_MAX);
	if (n > 0)
		best = level <= 0 ? (int)rng_below(rng, (uint32_t)n) : pick_best(s, seat, wt, rng, all, n);
	if (best >= 0)
		*m = all[best];
	free(all);
	return best >= 0 ? 0 : ERR_ILLEGAL;
}
int af__bot(const struct af_state *s, int seat, int level, struct rng *rng, struct af_move *m)
{
	return bot_weighed(s, seat, level, level >= 2 ? &level2 : &level1, rng, m);
}
