/* tests/games/space-station-phoenix/ssp_testlib.c: helpers shared by the Space Station Phoenix tests */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssp_testlib.h"
#include "util/banned.h"

struct ssp_state *t_new(int n, const char *options, uint64_t seed, struct rng *rng)
{
	json_t *opt = options ? json_loads(options, 0, NULL) : NULL;
	struct err e = { 0 };
	void *st = NULL;

	rng_seed(rng, seed);
	if (G->setup(opt, n, rng, &st, &e) < 0) {
		fprintf(stderr, "setup failed: %s\n", e.msg);
		abort();
	}
	json_decref(opt);
	return st;
}

int t_do(struct ssp_state *st, int seat, const char *text, struct rng *rng, struct err *err)
{
	void *m = NULL;
	int rc = G->parse(st, seat, text, &m, err);

	if (rc < 0)
		return rc;
	rc = G->apply(st, seat, m, rng, err);
	G->move_free(m);
	return rc;
}

int t_pending_seat(const struct ssp_state *st)
{
	struct game_pending p;

	G->pending(st, &p);
	for (int i = 0; i < st->nplayers; i++)
		if (p.seats == (1u << i))
			return i;
	return -1;
}

int t_is_legal(const struct ssp_state *st, int seat, const char *text)
{
	json_t *a = NULL;
	struct err e = { 0 };
	size_t i;
	json_t *v;
	int found = 0;

	if (G->legal(st, seat, &a, &e) < 0)
		return 0;
	json_array_foreach(a, i, v)
		if (!strcmp(json_string_value(v), text))
			found = 1;
	json_decref(a);
	return found;
}

struct ssp_state *t_blank(int n, const int *hubs)
{
	struct ssp_state *st = calloc(1, sizeof(*st));

	st->nplayers = n;
	st->phase = PH_TURN;
	st->turn = 1;
	st->end_by = -1;
	st->act_ship = -1;
	for (int k = 0; k < 4; k++)
		st->aliens[k] = st->alien_total[k] = 20;
	st->humans = st->human_total = 20;
	for (int p = 0; p < SSP_MAXP; p++) {
		st->pl[p].hub = p < n ? hubs[p] : -1;
		st->pl[p].dealt[0] = st->pl[p].dealt[1] = -1;
		st->pl[p].neutral = -1;
	}
	for (int s = 0; s < SSP_NSHIPS; s++)
		st->ship_loc[s] = s < SSP_SHIP_L2 ? (s / 5 < n ? s / 5 : SL_BOX) : s >= SSP_SHIP_NEUTRAL ? SL_NEUTRAL : SL_BOX;
	for (int i = 0; i < SSP_NSECTORS; i++)
		st->sec_loc[i] = SEC_DISPLAY;
	return st;
}

void t_build(struct ssp_state *st, int seat, int id, const char *residents)
{
	int idx = ssp_data_sector_find(id);
	static const char kinds[] = ".tbpgh";

	st->sec_loc[idx] = seat;
	for (int q = 0; residents && residents[q]; q++) {
		int k = (int)(strchr(kinds, residents[q]) - kinds);
		st->sec_res[idx][q] = k;
		if (k == SSP_HUMAN)
			st->humans--;
		else if (k)
			st->aliens[k - 1]--;
	}
}

int t_play(struct ssp_state *st, const int *levels, struct rng *game_rng, struct rng *bot_rng, int max_steps,
	   int check, struct err *err)
{
	int steps = 0;

	while (!ssp_rules_over(st)) {
		struct game_pending p;
		int seat = -1;
		void *m = NULL;

		if (steps >= max_steps)
			return err_set(err, ERR_INTERNAL, "no end after %d steps (turn %d)", steps, st->turn), -1;
		G->pending(st, &p);
		for (int i = 0; i < st->nplayers; i++)
			if (p.seats & (1u << i)) {
				seat = i;
				break;
			}
		if (seat < 0)
			return err_set(err, ERR_INTERNAL, "nobody to act but the game is not over"), -1;
		if (G->bot(st, seat, levels[seat], bot_rng, &m, err) < 0)
			return -1;
		if (G->apply(st, seat, m, game_rng, err) < 0) {
			struct buf b = BUF_INIT;
			char why[384];
			memcpy(why, err->msg, sizeof(why));
			G->format(st, m, &b, NULL);
			err_set(err, ERR_INTERNAL, "bot move \"%.60s\" refused: %.300s", b.data, why);
			buf_release(&b);
			G->move_free(m);
			return -1;
		}
		G->move_free(m);
		if (check && ssp_rules_check(st, err) < 0)
			return -1;
		steps++;
	}
	return steps;
}
