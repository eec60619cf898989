/* games/alien-frontiers/af_bot.c: the random (level 0) and greedy (level 1) players */
/* SPDX-License-Identifier: MIT */
#include "games/alien-frontiers/af_internal.h"

#include <string.h>

#include "util/banned.h"

/* How good the position is for p: points first, then what makes points later. */
static int evaluate(const struct af_state *s, int p)
{
	int score = 100 * s->vp[p], res = s->fuel[p] + s->ore[p], ships = 0, opp = 0;

	if (s->over)
		score += s->ender == p ? 2000 : 0;
	for (int i = p * AF_SHIPS_PER; i < (p + 1) * AF_SHIPS_PER; i++)
		ships += s->loc[i] != AF_LOC_STOCK;
	score += 25 * ships + (s->relic_owner == p ? 20 : 0);
	score += 11 * s->hub[p];
	score += 3 * s->fuel[p] + 4 * s->ore[p];
	if (res > AF_HAND_LIMIT)
		score -= 4 * (res - AF_HAND_LIMIT);
	score += 15 * af__cards(s, p);
	if (p == s->cur)
		score += s->art_sum > 8 ? 8 : s->art_sum;
	for (int q = 0; q < s->n; q++)
		if (q != p)
			opp += 30 * s->vp[q] + s->fuel[q] + s->ore[q];
	return score - opp / (s->n - 1);
}

/*
 * Level 0 picks uniformly among the light candidate steps (ships docked one
 * at a time) that turn out legal: draw one, validate it, drop it if refused. Level 1 plays every candidate on
 * a copy and keeps the one that evaluates best.
 */
int af__bot(const struct af_state *s, int seat, int level, struct rng *rng, struct af_move *m)
{
	/* a bot may look at fewer than all candidates when there are very many: any legal step will do */
	struct af_move moves[AF_BOT_MAX];
	int n, best = -1, best_score = 0, ties = 0;

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
		return ERR_ILLEGAL;
	}
	for (int i = 0; i < n; i++) {
		struct af_state w = *s;
		struct rng r = *rng;
		int sc;

		if (af__step(&w, seat, &moves[i], &r, NULL) != 0)
			continue;
		if (moves[i].kind == AF_M_END)
			sc = evaluate(s, seat); /* the roll that follows is the next player's luck, not ours */
		else
			sc = evaluate(&w, seat);
		if (moves[i].kind == AF_M_USE || moves[i].kind == AF_M_DISCARD || moves[i].kind == AF_M_CYCLE)
			sc -= 1; /* only when it helps at once */
		if (best < 0 || sc > best_score) {
			best = i;
			best_score = sc;
			ties = 1;
		} else if (sc == best_score && rng_below(rng, (uint32_t)++ties) == 0) {
			best = i;
		}
	}
	if (best >= 0)
		*m = moves[best];
	return best >= 0 ? 0 : ERR_ILLEGAL;
}
