/* bench/storegen.c: tp-storegen, fills a database with finished Alien Frontiers games through the store API */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/create.h"
#include "engine/submit.h"
#include "engine/registry.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/token.h"
#include "util/banned.h"

/*
 * Usage: tp-storegen DB GAMES [PLAYERS] [MAX_MOVES].
 * Creates GAMES games the way the server does (create_setup), plays
 * each to its end with random legal steps (the level-0 bot, as af-bench),
 * and stores every step as submit_steps would (canonical text, snapshot,
 * undo links, then the game row), one transaction per game. Stops early
 * once MAX_MOVES steps are stored (0: no limit). Then prints the moves
 * stored, the bytes on disk per move, and the time store_open takes on the
 * result (the daemon's start-up work on the database).
 */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long long file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
}

/* Play one game to its end and store it; *steps gets how many steps. */
static int one_game(struct store *s, int nplayers, uint64_t seed, struct rng *bot_rng, long *steps,
		    struct err *err)
{
	const struct game_ops *ops = registry_find("alien-frontiers");
	struct create_player players[4] = { { "Ann", NULL }, { "Bob", NULL }, { "Cy", NULL }, { "Di", NULL } };
	struct create_spec ng = { .game = "alien-frontiers", .players = players, .nplayers = nplayers,
				    .seed = seed, .have_seed = 1, .quiet = 1 };
	struct engine_game eg = {0};
	struct store_conn *c = NULL;
	struct buf text = BUF_INIT, canon = BUF_INIT;
	struct game_pending p;
	json_t *result = NULL;
	char *result_text = NULL;
	int64_t id, at = 1795300000000LL;
	int n = 0, rc;

	*steps = 0;
	if ((rc = create_setup(s, &ng, &id, NULL, err)) < 0)
		return rc;
	if ((rc = engine_game_setup(ops, NULL, nplayers, seed, &eg, err)) < 0)
		return rc;
	if ((rc = store_write_begin(s, &c, err)) < 0)
		goto done;
	for (;;) {
		struct store_move m = {0};
		void *mv = NULL;
		int seat, revealed;

		engine_game_pending(&eg, &p);
		if (!p.seats)
			break;
		seat = __builtin_ctz(p.seats);
		buf_reset(&text);
		buf_reset(&canon);
		if ((rc = ops->bot(eg.state, seat, 0, bot_rng, &mv, err)) < 0)
			goto done;
		rc = ops->format(eg.state, mv, &text, err);
		ops->move_free(mv);
		if (rc < 0 || (rc = engine_game_step(&eg, seat, text.data, &canon, &revealed, err)) < 0)
			goto done;
		m.n = ++n;
		m.seat = seat;
		m.text = canon.data;
		snprintf(m.via, sizeof(m.via), "api");
		m.at = at + n * 1000;
		m.back = n - 1;
		m.undo_seat = revealed ? -1 : seat;
		if ((rc = engine_game_encode(&eg, &m.snapshot, err)) < 0)
			goto done;
		rc = store_move_append(c, id, &m, err);
		free(m.snapshot);
		if (rc < 0)
			goto done;
	}
	result = ops->result(eg.state);
	result_text = result ? json_dumps(result, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	if ((rc = store_game_update(c, id, n, p.seats, result ? "finished" : "active", result_text, at + n * 1000,
				    err)) < 0)
		goto done;
	rc = store_write_commit(c, err);
	c = NULL;
	*steps = n;
done:
	if (c)
		store_write_rollback(c);
	json_decref(result);
	free(result_text);
	buf_release(&text);
	buf_release(&canon);
	engine_game_release(&eg);
	return rc;
}

int main(int argc, char **argv)
{
	struct store *s = NULL;
	struct err e = {0};
	struct rng bot_rng;
	char wal[600];
	long games, max_moves, total = 0, made = 0;
	int nplayers;
	double t0, t_gen, t_open;
	long long bytes;

	if (argc < 3) {
		fprintf(stderr, "usage: tp-storegen DB GAMES [PLAYERS] [MAX_MOVES]\n");
		return 2;
	}
	games = strtol(argv[2], NULL, 10);
	nplayers = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 4;
	max_moves = argc > 4 ? strtol(argv[4], NULL, 10) : 0;
	token_init();
	rng_seed(&bot_rng, 777);
	if (store_open(argv[1], NULL, &s, &e) < 0) {
		fprintf(stderr, "tp-storegen: %s\n", e.msg);
		return 1;
	}
	t0 = now_s();
	for (long g = 0; g < games && (!max_moves || total < max_moves); g++) {
		long steps;
		if (one_game(s, nplayers, 1000 + (uint64_t)g, &bot_rng, &steps, &e) < 0) {
			fprintf(stderr, "tp-storegen: game %ld: %s\n", g, e.msg);
			store_close(s);
			return 1;
		}
		total += steps;
		made++;
	}
	t_gen = now_s() - t0;
	store_close(s); /* checkpoints: the WAL is folded into the file */
	snprintf(wal, sizeof(wal), "%s-wal", argv[1]);
	bytes = file_size(argv[1]) + file_size(wal);
	t0 = now_s();
	if (store_open(argv[1], NULL, &s, &e) < 0) {
		fprintf(stderr, "tp-storegen: reopen: %s\n", e.msg);
		return 1;
	}
	t_open = now_s() - t0;
	store_close(s);
	printf("storage: %ld finished games of %d players, %ld moves (%.0f moves/s written in game-sized transactions)\n",
	       made, nplayers, total, (double)total / t_gen);
	printf("  %lld bytes on disk: %.0f bytes per move (%.0f per game); store_open on it: %.1f ms\n", bytes,
	       (double)bytes / (double)total, (double)bytes / (double)made, t_open * 1e3);
	printf("RESULT storage games=%ld moves=%ld bytes=%lld bytes_per_move=%.0f open_ms=%.1f\n", made, total, bytes,
	       (double)bytes / (double)total, t_open * 1e3);
	return 0;
}
