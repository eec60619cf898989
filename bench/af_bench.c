/* bench/af_bench.c: af-bench, random 4-player games per second on one core */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "games/alien-frontiers/alien_frontiers.h"
#include "util/banned.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Usage: af-bench [seconds] [players] [level]. Plays complete games with the
 * bot of that level (0 random, 1 greedy) through the game_ops interface
 * (bot + apply, one step at a time) and prints games/s and steps/s.
 */
int main(int argc, char **argv)
{
	const struct game_ops *g = &game_alien_frontiers;
	double secs = argc > 1 ? strtod(argv[1], NULL) : 3.0, t0, el;
	int np = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 4;
	int level = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 0;
	long games = 0, steps = 0;
	struct rng game_rng, bot_rng;

	rng_seed(&game_rng, 12345);
	rng_seed(&bot_rng, 777);
	t0 = now();
	do {
		struct err e = { 0 };
		void *st = NULL;
		json_t *res;

		if (g->setup(NULL, np, &game_rng, &st, &e)) {
			fprintf(stderr, "setup: %s\n", e.msg);
			return 1;
		}
		for (;;) {
			struct game_pending pd;
			void *mv = NULL;
			int seat;

			g->pending(st, &pd);
			if (!pd.seats)
				break;
			seat = __builtin_ctz(pd.seats);
			if (g->bot(st, seat, level, &bot_rng, &mv, &e) || g->apply(st, seat, mv, &game_rng, &e) < 0) {
				fprintf(stderr, "step failed: %s\n", e.msg);
				return 1;
			}
			g->move_free(mv);
			steps++;
		}
		res = g->result(st);
		json_decref(res);
		g->state_free(st);
		games++;
		el = now() - t0;
	} while (el < secs);
	printf("%d players, level %d: %ld games in %.2f s: %.1f games/s, %.0f steps/s (%.1f steps/game)\n", np, level,
	       games, el, (double)games / el, (double)steps / el, (double)steps / (double)games);
	return 0;
}
