/* games/space-station-phoenix/ssp_game.c: the game_ops of Space Station Phoenix and its bots */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "games/space-station-phoenix/space_station_phoenix.h"
#include "games/space-station-phoenix/ssp_internal.h"
#include "util/banned.h"

#define MAXMOVES 2048

static json_t *ssp_options(void)
{
	return json_pack("{s:{s:s,s:b,s:s},s:{s:s,s:s,s:s,s:[s,s]},s:{s:s,s:b,s:s}}",
			 "first_game", "type", "boolean", "default", 0, "description",
			 "the rulebook's first game: Sectors 1-4 only, the four predefined hub and ship sets, no drafts",
			 "hubs", "type", "string", "default", "basic", "description",
			 "basic: Station Hubs B-1..B-12; advanced: all 24", "enum", "basic", "advanced",
			 "friendly", "type", "boolean", "default", 0, "description",
			 "friendly variant: one more Sector of each colour and level in the display");
}

static int ssp_setup(const json_t *options, int nplayers, struct rng *rng, void **state, struct err *err)
{
	struct ssp_state *st;
	int first = 0, adv = 0, friendly = 0, rc;
	const char *key;
	json_t *val;

	*state = NULL;
	if (options && !json_is_object(options))
		return err_set(err, ERR_INPUT, "options must be an object");
	if (options) {
		json_object_foreach((json_t *)options, key, val) {
			if (!strcmp(key, "first_game") && json_is_boolean(val)) {
				first = json_is_true(val);
			} else if (!strcmp(key, "friendly") && json_is_boolean(val)) {
				friendly = json_is_true(val);
			} else if (!strcmp(key, "hubs") && json_is_string(val) &&
				   (!strcmp(json_string_value(val), "basic") || !strcmp(json_string_value(val), "advanced"))) {
				adv = !strcmp(json_string_value(val), "advanced");
			} else {
				return err_set(err, ERR_INPUT,
					       "unknown or bad option \"%s\" (first_game: boolean, hubs: \"basic\"|\"advanced\", friendly: boolean)",
					       key);
			}
		}
	}
	st = malloc(sizeof(*st));
	if (!st)
		return err_set(err, ERR_NOMEM, "out of memory");
	rc = ssp_rules_setup(st, nplayers, first, adv, friendly, rng, err);
	if (rc < 0) {
		free(st);
		return rc;
	}
	*state = st;
	return 0;
}

static void ssp_state_free(void *state)
{
	free(state);
}

static int ssp_parse(const void *state, int seat, const char *text, void **move, struct err *err)
{
	struct ssp_move *m = malloc(sizeof(*m));
	int rc;

	(void)seat;
	*move = NULL;
	if (!m)
		return err_set(err, ERR_NOMEM, "out of memory");
	rc = ssp_text_parse(state, text, m, err);
	if (rc < 0) {
		free(m);
		return rc;
	}
	*move = m;
	return 0;
}

static int ssp_format(const void *state, const void *move, struct buf *out, struct err *err)
{
	(void)state;
	(void)err;
	ssp_text_format(move, out);
	return 0;
}

static void ssp_move_free(void *move)
{
	free(move);
}

static int ssp_apply(void *state, int seat, const void *move, struct rng *rng, struct err *err)
{
	return ssp_rules_apply(state, seat, move, rng, err);
}

static int ssp_pending(const void *state, struct game_pending *out)
{
	memset(out, 0, sizeof(*out));
	out->seats = ssp_rules_pending(state, out->kind, sizeof(out->kind), out->prompt, sizeof(out->prompt));
	return 0;
}

static int ssp_legal(const void *state, int seat, json_t **out, struct err *err)
{
	struct ssp_move *m = malloc(MAXMOVES * sizeof(*m));
	json_t *a;
	int n;

	*out = NULL;
	if (!m)
		return err_set(err, ERR_NOMEM, "out of memory");
	n = ssp_rules_legal(state, seat, m, MAXMOVES);
	a = json_array();
	for (int i = 0; i < n; i++) {
		struct buf b = BUF_INIT;
		ssp_text_format(&m[i], &b);
		json_array_append_new(a, json_string(b.data));
		buf_release(&b);
	}
	free(m);
	*out = a;
	return 0;
}

static int ssp_view(const void *state, int seat, json_t **out, struct err *err)
{
	return ssp_json_view(state, seat, out, err);
}

static json_t *ssp_result(const void *state)
{
	return ssp_json_result(state);
}

static int ssp_encode(const void *state, json_t **out, struct err *err)
{
	return ssp_json_encode(state, out, err);
}

static int ssp_decode(const json_t *in, void **state, struct err *err)
{
	struct ssp_state *st = malloc(sizeof(*st));
	int rc;

	*state = NULL;
	if (!st)
		return err_set(err, ERR_NOMEM, "out of memory");
	rc = ssp_json_decode(in, st, err);
	if (rc < 0) {
		free(st);
		return rc;
	}
	*state = st;
	return 0;
}

/* ------------------------------------------------------------------ bots */

/* A rough worth of seat's position: the final score as it stands plus what its goods may become. */
static double worth(const struct ssp_state *st, int seat)
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
	v += pl->res[SSP_GEM] < 12 ? 0.5 * pl->res[SSP_GEM] : 6.0 + 0.2 * (pl->res[SSP_GEM] - 12);
	v += 0.7 * (pl->res[SSP_FOOD] + pl->res[SSP_WATER]) + 1.0 * pl->res[SSP_METAL];
	v += 1.2 * dip + 10.0 * ships;
	/* empty quarters are where future residents go */
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (st->sec_loc[i] == seat)
			for (int q = 0; q < ssp_sectors[i].nq; q++)
				v += st->sec_res[i][q] ? 0 : 0.5;
	for (int p = 0; p < st->nplayers; p++)
		if (p != seat) {
			v -= 0.1 * sc[p][SC_TOTAL];
			/* never end a game one is losing */
			if (st->end_by == seat && sc[p][SC_TOTAL] >= sc[seat][SC_TOTAL])
				v -= 1000;
		}
	return v;
}

static int waiting_on(const struct ssp_state *st, int seat)
{
	char k[32], pr[200];
	return (ssp_rules_pending(st, k, sizeof(k), pr, sizeof(pr)) & (1u << seat)) != 0;
}

/* Greedy one step: the legal move whose result is worth most. */
static int greedy_pick(const struct ssp_state *st, int seat, struct rng *rng, const struct ssp_move *m, int n,
		       struct ssp_state *tmp)
{
	double best = -1e18;
	int bi = 0, ties = 0;

	for (int i = 0; i < n; i++) {
		struct err e = { 0 };
		struct rng r = *rng;
		double v;
		*tmp = *st;
		if (ssp_rules_apply(tmp, seat, &m[i], &r, &e) < 0)
			continue;
		v = worth(tmp, seat);
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
static int greedy_turn(const struct ssp_state *st, int seat, struct rng *rng, const struct ssp_move *m, int n)
{
	struct ssp_state *a = malloc(sizeof(*a)), *tmp = malloc(sizeof(*tmp));
	struct ssp_move *sub = malloc(MAXMOVES * sizeof(*sub));
	double best = -1e18;
	int bi = 0;

	if (!a || !tmp || !sub)
		goto done;
	for (int i = 0; i < n; i++) {
		struct err e = { 0 };
		struct rng r = *rng;
		double v;
		*a = *st;
		if (ssp_rules_apply(a, seat, &m[i], &r, &e) < 0)
			continue;
		for (int depth = 0; depth < 12 && waiting_on(a, seat) && a->phase == PH_TURN && a->ntask > 0; depth++) {
			int k = ssp_rules_legal(a, seat, sub, MAXMOVES);
			if (k == 0)
				break;
			k = greedy_pick(a, seat, &r, sub, k, tmp);
			if (ssp_rules_apply(a, seat, &sub[k], &r, &e) < 0)
				break;
		}
		v = worth(a, seat) + (rng_below(rng, 1000) / 1e6);
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

static int ssp_bot(const void *state, int seat, int level, struct rng *rng, void **move, struct err *err)
{
	const struct ssp_state *st = state;
	struct ssp_move *m, *out = malloc(sizeof(*out));
	int n, pick = 0;

	*move = NULL;
	if (out && level <= 0) {
		/* random: one legal step without building the whole list */
		if (ssp_rules_random_legal(st, seat, rng, out) < 0) {
			free(out);
			return err_set(err, ERR_FORBIDDEN, "seat %d has nothing to do now", seat);
		}
		*move = out;
		return 0;
	}
	m = malloc(MAXMOVES * sizeof(*m));
	if (!m || !out) {
		free(m);
		free(out);
		return err_set(err, ERR_NOMEM, "out of memory");
	}
	n = ssp_rules_legal(st, seat, m, MAXMOVES);
	if (n == 0) {
		free(m);
		free(out);
		return err_set(err, ERR_FORBIDDEN, "seat %d has nothing to do now", seat);
	}
	if (st->phase == PH_TURN && st->ntask == 0) {
		pick = greedy_turn(st, seat, rng, m, n);
	} else {
		struct ssp_state *tmp = malloc(sizeof(*tmp));
		if (tmp)
			pick = greedy_pick(st, seat, rng, m, n, tmp);
		free(tmp);
	}
	*out = m[pick];
	free(m);
	*move = out;
	return 0;
}

const struct game_ops game_space_station_phoenix = {
	.version = GAME_OPS_VERSION,
	.id = "space-station-phoenix",
	.title = "Space Station Phoenix",
	.min_players = 2,
	.max_players = 4,
	.options = ssp_options,
	.setup = ssp_setup,
	.state_free = ssp_state_free,
	.parse = ssp_parse,
	.format = ssp_format,
	.move_free = ssp_move_free,
	.apply = ssp_apply,
	.pending = ssp_pending,
	.legal = ssp_legal,
	.view = ssp_view,
	.result = ssp_result,
	.encode = ssp_encode,
	.decode = ssp_decode,
	.bot = ssp_bot,
};
