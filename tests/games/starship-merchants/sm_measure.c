/* tests/games/starship-merchants/sm_measure.c: plays bot games of Starship Merchants and prints length and score figures */
/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/starship-merchants/sm_internal.h"

#include "util/banned.h"

/*
 * Usage: sm_measure [games [level-of-seat-0 [level-of-others]]]
 * For 2, 3 and 4 players: laps of the trigger player, turns per player,
 * winning and losing scores (credits less unpaid loans; min / median / max),
 * the win rate of seat 0 and the wins by seat.
 */
static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void stats(const char *what, int *v, int n)
{
	double sum = 0;

	qsort(v, (size_t)n, sizeof(int), cmp);
	for (int i = 0; i < n; i++)
		sum += v[i];
	printf("  %-22s min %4d  p10 %4d  median %4d  p90 %4d  max %4d  mean %6.1f\n", what, v[0], v[n / 10],
	       v[n / 2], v[n * 9 / 10], v[n - 1], sum / n);
}

int main(int argc, char **argv)
{
	int games = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 200;
	int lv0 = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 1;
	int lvo = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 1;

	for (int n = 2; n <= 4; n++) {
		int *laps = calloc((size_t)games, sizeof(int)), *turns = calloc((size_t)games, sizeof(int));
		int *win = calloc((size_t)games, sizeof(int)), *lose = calloc((size_t)games, sizeof(int));
		int *ships = calloc((size_t)games, sizeof(int)), *eras = calloc((size_t)games, sizeof(int));
		int wins0 = 0, unfinished = 0, done = 0, firstwins[SM_MAX_PLAYERS] = { 0 };
		int triggers[SM_MAX_PLAYERS] = { 0 };
		long seatsum[SM_MAX_PLAYERS] = { 0 };

		for (int g = 0; g < games; g++) {
			struct rng game, bot;
			struct sm_state *s = NULL;
			struct err e = { 0 };
			int steps = 0;

			rng_seed(&game, (uint64_t)g * 7919 + (uint64_t)n);
			rng_seed(&bot, (uint64_t)g * 104729 + 17);
			if (sm_state_setup(n, &game, &s, &e))
				return 1;
			while (s->phase != SM_PH_OVER && steps < 20000) {
				struct sm_move m;
				int seat = s->cur;

				if (sm_bot_choose(s, seat, seat == 0 ? lv0 : lvo, &bot, &m, &e) ||
				    sm_rules_apply(s, seat, &m, &game, &e) < 0) {
					fprintf(stderr, "game %d: %s\n", g, e.msg);
					return 1;
				}
				steps++;
			}
			if (s->phase != SM_PH_OVER) {
				unfinished++;
				sm_state_free(s);
				continue;
			}
			{
				int best = 0, bi = 0, second = INT_MIN, maxlap = 0, nt = 0, nsh = 0;

				for (int p = 0; p < n; p++) {
					int sc = sm_player_score(&s->p[p]);

					if (p == 0 || sc > best || (sc == best && s->p[p].dock_at < s->p[bi].dock_at)) {
						if (p > 0)
							second = second > best ? second : best;
						best = sc;
						bi = p;
					} else if (sc > second) {
						second = sc;
					}
					if (s->p[p].laps > maxlap)
						maxlap = s->p[p].laps;
					nt += s->p[p].turns;
					nsh += s->p[p].nships;
				}
				laps[done] = s->p[s->trigger].laps;
				turns[done] = nt / n;
				win[done] = best;
				lose[done] = second;
				ships[done] = nsh / n;
				eras[done] = s->era;
				wins0 += bi == 0;
				triggers[s->trigger]++;
				for (int p = 0; p < n; p++)
					seatsum[p] += sm_player_score(&s->p[p]);
				firstwins[bi]++;
				done++;
			}
			sm_state_free(s);
		}
		printf("%d players, %d games finished (%d unfinished), seat 0 level %d vs level %d: seat 0 won %d (%.0f%%)\n",
		       n, done, unfinished, lv0, lvo, wins0, done ? 100.0 * wins0 / done : 0);
		printf("  wins by seat:");
		for (int p = 0; p < n; p++)
			printf(" %d (%.1f%%)", firstwins[p], done ? 100.0 * firstwins[p] / done : 0);
		printf("; triggers by seat:");
		for (int p = 0; p < n; p++)
			printf(" %d", triggers[p]);
		printf("; mean score by seat:");
		for (int p = 0; p < n; p++)
			printf(" %.1f", done ? (double)seatsum[p] / done : 0);
		printf("\n");
		if (done) {
			stats("laps (trigger player)", laps, done);
			stats("turns per player", turns, done);
			stats("winning credits", win, done);
			stats("runner-up credits", lose, done);
			stats("ships at the end", ships, done);
			stats("era at the end", eras, done);
		}
		free(laps);
		free(turns);
		free(win);
		free(lose);
		free(ships);
		free(eras);
	}
	return 0;
}
