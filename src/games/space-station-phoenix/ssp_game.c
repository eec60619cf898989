/* games/space-station-phoenix/ssp_game.c: the game_ops table of Space Station Phoenix */
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
	const struct ssp_state *st = state;

	memset(out, 0, sizeof(*out));
	out->seats = ssp_rules_pending(st, out->kind, sizeof(out->kind), out->prompt, sizeof(out->prompt));
	/* a Diplomacy bonus is every qualifying player's decision, on another's turn too */
	if (st->phase == PH_DIPLO)
		out->offturn = out->seats & ~(1u << st->active);
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

static int ssp_bot(const void *state, int seat, int level, struct rng *rng, void **move, struct err *err)
{
	struct ssp_move *out = malloc(sizeof(*out));
	int rc;

	*move = NULL;
	if (!out)
		return err_set(err, ERR_NOMEM, "out of memory");
	rc = ssp_bot_choose(state, seat, level, rng, out, err);
	if (rc < 0) {
		free(out);
		return rc;
	}
	*move = out;
	return 0;
}

static int ssp_describe(const struct game_step_in *in, struct buf *out, struct err *err)
{
	if (!in->before || !in->after || !in->move)
		return err_set(err, ERR_INPUT, "describe needs the positions around the step and the step");
	return ssp_story_describe(in->before, in->after, in->move, in->seat, in->seats, out);
}

static int ssp_position(const struct game_position_in *in, struct buf *out, struct err *err)
{
	if (!in->state)
		return err_set(err, ERR_INPUT, "position needs a position");
	return ssp_story_position(in->state, in->viewer, in->seats, out);
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
	.board = ssp_board,
	.describe = ssp_describe,
	.position = ssp_position,
	.picks = ssp_picks,
};
