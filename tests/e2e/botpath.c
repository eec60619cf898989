/* tests/e2e/botpath.c: the step a game's bot would take for a seat of a stored game, and the taps that build it */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/rng.h"
#include "store/game.h"
#include "store/move.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/err.h"

#include "util/banned.h"

/*
 * The browser tests' player (tests/e2e/taps_*.test.mjs) plays whole games
 * by taps on the board. A player tapping at random never ends a game of
 * Space Station Phoenix or Starship Merchants, so it follows a plan: the
 * step the game's own bot takes, cut into the parts to tap (the game's
 * picks). The page still decides what is offered: the test taps the
 * planned part only when the board offers it as a link, and confirms only
 * when the board's confirm button holds the planned step.
 *
 *   botpath DATABASE [LEVEL]
 *
 * reads lines "GAME_ID SEAT" on stdin and answers each with one line
 * "STEP<TAB>PART.PART...", or "error<TAB>MESSAGE". The bot's generator is
 * seeded by the move count and the seat, so the same game (its seed) plays the same.
 * The database is read only, beside a running turnpostd.
 */

static int botpath_answer(struct store *s, int64_t id, int seat, int level, struct buf *out, struct err *err)
{
	struct store_conn *c = NULL;
	struct store_game g = {0};
	struct store_move head = {0};
	struct engine_game eg = {0};
	const struct game_ops *ops = NULL;
	struct game_pick picks[GAME_MAX_PICKS];
	struct rng rng;
	void *mv = NULL;
	int rc, n, i;

	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_head(c, id, &g, &head, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	if (!(ops = engine_ops_find(g.game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	if (!ops->bot || !ops->picks) {
		rc = err_set(err, ERR_INPUT, "%s has no bot or no picks", g.game);
		goto done;
	}
	if ((rc = engine_game_decode(ops, head.snapshot, &eg, err)) < 0)
		goto done;
	rng_seed(&rng, (uint64_t)g.move_count * 1000003u + (uint64_t)seat);
	if ((rc = ops->bot(eg.state, seat, level, &rng, &mv, err)) < 0 ||
	    (rc = ops->format(eg.state, mv, out, err)) < 0)
		goto done;
	if ((n = rc = ops->picks(eg.state, seat, mv, picks, GAME_MAX_PICKS, err)) < 0)
		goto done;
	buf_addc(out, '\t');
	for (i = 0; i < n; i++)
		buf_addf(out, "%s%s", i ? "." : "", picks[i].part);
	rc = 0;
done:
	if (mv)
		ops->move_free(mv);
	if (eg.state)
		engine_game_release(&eg);
	store_move_release(&head);
	store_game_release(&g);
	return rc;
}

int main(int argc, char **argv)
{
	struct store_options opt = { .read_connections = 1 };
	struct store *s = NULL;
	struct err e = {0};
	struct buf out = BUF_INIT;
	char line[256];
	int level, status = 1;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: botpath DATABASE [LEVEL]\n");
		return 2;
	}
	level = argc == 3 ? (int)strtol(argv[2], NULL, 10) : 2;
	if (store_open(argv[1], &opt, &s, &e) < 0) {
		fprintf(stderr, "botpath: %s\n", e.msg);
		goto done;
	}
	while (fgets(line, sizeof(line), stdin)) {
		long long id;
		int seat;

		buf_reset(&out);
		err_clear(&e);
		if (sscanf(line, "%lld %d", &id, &seat) != 2)
			err_set(&e, ERR_INPUT, "give GAME_ID SEAT");
		else
			botpath_answer(s, id, seat, level, &out, &e);
		if (e.code)
			printf("error\t%s\n", e.msg);
		else
			printf("%s\n", out.data);
		fflush(stdout);
	}
	status = 0;
done:
	buf_release(&out);
	store_close(s);
	return status;
}
