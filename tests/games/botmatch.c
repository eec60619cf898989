/* tests/games/botmatch.c: plays bot games of a hosted game and prints win rates, scores, lengths, end reasons and speed */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot_shape.h"
#include "engine/registry.h"

#include "util/banned.h"

/*
 * A tool run by hand (docs/games/<game>.md and docs/performance.md quote it):
 *
 *   botmatch GAME match GAMES [LEVEL [OPPONENT [PLAYERS]]]
 *     For 2, 3 and 4 players (or only PLAYERS): GAMES games with one seat at
 *     LEVEL (default 2), rotating through the seats, the others at OPPONENT
 *     (default 1). Prints how often LEVEL won (a shared first place counts as
 *     a win), the winner's score, the game length and how the games ended.
 *   botmatch GAME speed SECONDS [LEVEL [PLAYERS]]
 *     Complete games with every seat at LEVEL through game_ops (bot + apply),
 *     for SECONDS of this process's CPU time: games and steps per CPU second
 *     (on a busy machine, CPU time varies less than the wall clock).
 *
 * Seeds are fixed, so a run is repeatable. Every step is one call of the
 * bot and one of apply, as the notifier plays a seat after a timeout.
 */

#define MAX_STEPS 100000

/* CPU seconds this process used (one thread). */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Play one game with levels[seat]; fills the result and the shape. 0, or -1
 * with a message on stderr (a bot or apply failed, or the game did not end).
 */
static int play(const struct game_ops *g, int np, const int *levels, uint64_t seed, json_t **result,
		struct bot_shape *sh, long *steps)
{
	struct rng game_rng, bot_rng;
	struct err e = { 0 };
	void *st = NULL;
	int rc = -1;

	*result = NULL;
	rng_seed(&game_rng, seed * 7919 + (uint64_t)np);
	rng_seed(&bot_rng, seed * 104729 + 17);
	if (g->setup(NULL, np, &game_rng, &st, &e)) {
		fprintf(stderr, "setup: %s\n", e.msg);
		return -1;
	}
	for (long n = 0; n < MAX_STEPS; n++) {
		struct game_pending pd;
		void *mv = NULL;
		int seat;

		g->pending(st, &pd);
		if (!pd.seats) {
			*result = g->result(st);
			bot_shape_read(g->id, st, sh);
			rc = 0;
			break;
		}
		seat = __builtin_ctz(pd.seats);
		if (g->bot(st, seat, levels[seat], &bot_rng, &mv, &e) < 0 || g->apply(st, seat, mv, &game_rng, &e) < 0) {
			fprintf(stderr, "seed %llu step %ld seat %d: %s\n", (unsigned long long)seed, n, seat, e.msg);
			g->move_free(mv);
			break;
		}
		g->move_free(mv);
		(*steps)++;
	}
	if (rc < 0 && !*result)
		fprintf(stderr, "seed %llu: no end after %d steps\n", (unsigned long long)seed, MAX_STEPS);
	g->state_free(st);
	return rc;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void dist(const char *what, int *v, int n)
{
	double sum = 0;

	if (n == 0)
		return;
	qsort(v, (size_t)n, sizeof(int), cmp_int);
	for (int i = 0; i < n; i++)
		sum += v[i];
	printf("  %-30s min %4d  p10 %4d  median %4d  p90 %4d  max %4d  mean %6.1f\n", what, v[0], v[n / 10], v[n / 2],
	       v[n * 9 / 10], v[n - 1], sum / n);
}

struct reasons {
	const char *name[8];
	int count[8];
	int n;
};

static void reason_add(struct reasons *r, const char *name)
{
	for (int i = 0; i < r->n; i++)
		if (strcmp(r->name[i], name) == 0) {
			r->count[i]++;
			return;
		}
	if (r->n < 8) {
		r->name[r->n] = name;
		r->count[r->n++] = 1;
	}
}

/* The winner's score sheet, summed per category (games whose result has a "sheet"). */
struct sheet_sum {
	char name[16][24];
	double sum[16];
	int n, games;
};

static void sheet_add(struct sheet_sum *s, json_t *row)
{
	const char *key;
	json_t *v;

	if (!json_is_object(row))
		return;
	s->games++;
	json_object_foreach(row, key, v) {
		int i = 0;

		while (i < s->n && strcmp(s->name[i], key) != 0)
			i++;
		if (i == s->n) {
			if (s->n == 16)
				continue;
			snprintf(s->name[s->n++], sizeof(s->name[0]), "%s", key);
		}
		s->sum[i] += (double)json_integer_value(v);
	}
}

static void sheet_print(const struct sheet_sum *s)
{
	if (!s->games)
		return;
	printf("  winner's sheet (mean):");
	for (int i = 0; i < s->n; i++)
		printf("%s %s %.1f", i ? "," : "", s->name[i], s->sum[i] / s->games);
	printf("\n");
}

static int match(const struct game_ops *g, int ngames, int level, int opp, int np)
{
	int *win = calloc((size_t)ngames, sizeof(int)), *mine = calloc((size_t)ngames, sizeof(int));
	int *len = calloc((size_t)ngames, sizeof(int)), *built = calloc((size_t)ngames * GAME_MAX_SEATS, sizeof(int));
	int *wbuilt = calloc((size_t)ngames, sizeof(int)), *incomes = calloc((size_t)ngames * GAME_MAX_SEATS, sizeof(int));
	int nincomes = 0;
	double goods[4] = { 0 };
	int wins = 0, shared = 0, done = 0, nbuilt = 0, seatwins[GAME_MAX_SEATS] = { 0 }, rc = 0;
	int anywins[GAME_MAX_SEATS] = { 0 };
	struct sheet_sum sheet = { 0 };
	long steps = 0;
	struct reasons why = { 0 };
	const char *unit = "";
	double t0 = now();

	if (!win || !mine || !len || !built || !wbuilt || !incomes) {
		rc = -1;
		goto done;
	}
	for (int i = 0; i < ngames; i++) {
		int levels[GAME_MAX_SEATS], me = i % np, top = -1, nwin;
		struct bot_shape sh;
		json_t *res = NULL, *winners, *scores;

		for (int p = 0; p < np; p++)
			levels[p] = p == me ? level : opp;
		if (play(g, np, levels, (uint64_t)i, &res, &sh, &steps) < 0) {
			json_decref(res);
			rc = -1;
			goto done;
		}
		winners = json_object_get(res, "winners");
		scores = json_object_get(res, "scores");
		nwin = (int)json_array_size(winners);
		for (int k = 0; k < nwin; k++) {
			int w = (int)json_integer_value(json_array_get(winners, (size_t)k));

			anywins[w]++;
			if (w == me) {
				wins++;
				seatwins[me]++;
				shared += nwin > 1;
			}
			if (top < 0)
				top = w;
		}
		sheet_add(&sheet, json_array_get(json_object_get(res, "sheet"), (size_t)(top < 0 ? 0 : top)));
		win[done] = (int)json_integer_value(json_array_get(scores, (size_t)(top < 0 ? 0 : top)));
		mine[done] = (int)json_integer_value(json_array_get(scores, (size_t)me));
		len[done] = sh.length;
		unit = sh.unit;
		if (sh.built[0] >= 0) {
			for (int p = 0; p < np; p++)
				built[nbuilt++] = sh.built[p];
			wbuilt[done] = sh.built[top < 0 ? 0 : top];
		}
		if (sh.incomes[0] >= 0) {
			for (int p = 0; p < np; p++)
				incomes[nincomes++] = sh.incomes[p];
			for (int r = 0; r < 4; r++)
				goods[r] += sh.goods[top < 0 ? 0 : top][r];
		}
		reason_add(&why, sh.end);
		done++;
		json_decref(res);
	}
	printf("%s, %d players: level %d in one seat (rotating) against level %d, %d games\n", g->id, np, level, opp,
	       done);
	printf("  level %d won %d (%.1f%%; %d of them shared); wins by its seat:", level, wins,
	       100.0 * wins / done, shared);
	for (int p = 0; p < np; p++)
		printf(" %d", seatwins[p]);
	printf("\n  wins by seat, all games (a shared first place counts for each):");
	for (int p = 0; p < np; p++)
		printf(" %d (%.1f%%)", anywins[p], 100.0 * anywins[p] / done);
	printf("\n  end:");
	for (int r = 0; r < why.n; r++)
		printf("%s %s %d (%.1f%%)", r ? "," : "", why.name[r], why.count[r], 100.0 * why.count[r] / done);
	printf("\n");
	dist("winner's score", win, done);
	dist("level's own score", mine, done);
	dist(unit, len, done);
	printf("  %-30s %.0f\n", "steps per game", (double)steps / done);
	sheet_print(&sheet);
	if (nbuilt) {
		dist("sectors built, every player", built, nbuilt);
		dist("sectors built, the winner", wbuilt, done);
	}
	if (nincomes) {
		dist("Income actions, every player", incomes, nincomes);
		printf("  winner's goods left (mean): food %.1f, water %.1f, metal %.1f, GEMs %.1f\n", goods[0] / done,
		       goods[1] / done, goods[2] / done, goods[3] / done);
	}
	printf("  (%.1f CPU s)\n", now() - t0);
done:
	free(win);
	free(mine);
	free(len);
	free(built);
	free(wbuilt);
	free(incomes);
	return rc;
}

static int speed(const struct game_ops *g, double secs, int level, int np)
{
	int levels[GAME_MAX_SEATS];
	long games_done = 0, steps = 0;
	double t0 = now(), el;

	for (int p = 0; p < np; p++)
		levels[p] = level;
	do {
		struct bot_shape sh;
		json_t *res = NULL;

		if (play(g, np, levels, (uint64_t)games_done, &res, &sh, &steps) < 0)
			return -1;
		json_decref(res);
		games_done++;
		el = now() - t0;
	} while (el < secs);
	printf("%s, %d players, level %d: %ld games in %.2f CPU s: %.1f games/s, %.0f steps/s (%.1f steps/game)\n", g->id,
	       np, level, games_done, el, (double)games_done / el, (double)steps / el,
	       (double)steps / (double)games_done);
	return 0;
}

int main(int argc, char **argv)
{
	const struct game_ops *g;
	struct bot_shape probe;

	if (argc < 4 || (strcmp(argv[2], "match") != 0 && strcmp(argv[2], "speed") != 0)) {
		fprintf(stderr, "usage: botmatch GAME match GAMES [LEVEL [OPPONENT [PLAYERS]]]\n"
				"       botmatch GAME speed SECONDS [LEVEL [PLAYERS]]\n");
		return 2;
	}
	if (!(g = registry_find(argv[1])) || !g->bot || bot_shape_read(g->id, NULL, &probe) < 0) {
		fprintf(stderr, "botmatch: no game '%s' with a bot\n", argv[1]);
		return 2;
	}
	if (strcmp(argv[2], "speed") == 0) {
		double secs = strtod(argv[3], NULL);
		int level = argc > 4 ? (int)strtol(argv[4], NULL, 10) : 1;
		int np = argc > 5 ? (int)strtol(argv[5], NULL, 10) : 0;

		for (int n = g->min_players; n <= g->max_players; n++)
			if ((np == 0 || n == np) && speed(g, secs, level, n) < 0)
				return 1;
		return 0;
	}
	{
		int ngames = (int)strtol(argv[3], NULL, 10);
		int level = argc > 4 ? (int)strtol(argv[4], NULL, 10) : 2;
		int opp = argc > 5 ? (int)strtol(argv[5], NULL, 10) : 1;
		int np = argc > 6 ? (int)strtol(argv[6], NULL, 10) : 0;

		if (ngames < 1)
			return 2;
		for (int n = g->min_players; n <= g->max_players; n++)
			if ((np == 0 || n == np) && match(g, ngames, level, opp, n) < 0)
				return 1;
	}
	return 0;
}
