/* games/starship-merchants/sm_game.c: the game_ops table of Starship Merchants */
/* SPDX-License-Identifier: MIT */
#include "games/starship-merchants/starship_merchants.h"

#include <stdlib.h>
#include <string.h>

#include "games/starship-merchants/sm_internal.h"

#include "util/banned.h"

static int sm_setup(const json_t *options, int nplayers, struct rng *rng, void **state, struct err *err)
{
	struct sm_state *s = NULL;
	int rc;

	*state = NULL;
	if (options && !json_is_object(options))
		return err_set(err, ERR_INPUT, "Starship Merchants options must be a JSON object");
	if (options && json_object_size(options)) {
		const char *key = json_object_iter_key(json_object_iter((json_t *)options));

		return err_set(err, ERR_INPUT, "Starship Merchants has no option \"%s\"", key ? key : "");
	}
	rc = sm_state_setup(nplayers, rng, &s, err);
	if (rc)
		return rc;
	*state = s;
	return 0;
}

static void sm_free(void *state)
{
	sm_state_free(state);
}

static int sm_parse(const void *state, int seat, const char *text, void **move, struct err *err)
{
	struct sm_move *m;
	int rc;

	*move = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return err_set(err, ERR_NOMEM, "out of memory");
	rc = sm_move_parse(state, seat, text, m, err);
	if (rc) {
		free(m);
		return rc;
	}
	*move = m;
	return 0;
}

static int sm_format(const void *state, const void *move, struct buf *out, struct err *err)
{
	(void)state;
	return sm_move_format(move, out, err);
}

static void sm_move_free(void *move)
{
	free(move);
}

static int sm_apply(void *state, int seat, const void *move, struct rng *rng, struct err *err)
{
	struct sm_state *s = state;

	if (seat < 0 || seat >= s->n)
		return err_set(err, ERR_FORBIDDEN, "seat %d does not play in this game", seat);
	return sm_rules_apply(s, seat, move, rng, err);
}

static int sm_pending(const void *state, struct game_pending *out)
{
	return sm_rules_pending(state, out);
}

static int sm_legal(const void *state, int seat, json_t **out, struct err *err)
{
	const struct sm_state *s = state;
	struct sm_move *mv;
	json_t *arr;
	struct buf b = BUF_INIT;
	int n;

	*out = NULL;
	mv = malloc(SM_MAX_LEGAL * sizeof(*mv));
	if (!mv)
		return err_set(err, ERR_NOMEM, "out of memory");
	n = seat >= 0 && seat < s->n ? sm_rules_legal(s, seat, mv, SM_MAX_LEGAL) : 0;
	arr = json_array();
	for (int i = 0; i < n; i++) {
		buf_reset(&b);
		if (sm_move_format(&mv[i], &b, err)) {
			json_decref(arr);
			buf_release(&b);
			free(mv);
			return err->code;
		}
		json_array_append_new(arr, json_string(b.data));
	}
	buf_release(&b);
	free(mv);
	*out = arr;
	return 0;
}

static int sm_view(const void *state, int seat, json_t **out, struct err *err)
{
	(void)err;
	*out = sm_view_build(state, seat);
	return 0;
}

static json_t *sm_result(const void *state)
{
	return sm_view_result(state);
}

static int sm_encode(const void *state, json_t **out, struct err *err)
{
	return sm_state_encode(state, out, err);
}

static int sm_decode(const json_t *in, void **state, struct err *err)
{
	struct sm_state *s = NULL;
	int rc = sm_state_decode(in, &s, err);

	*state = s;
	return rc;
}

static int sm_bot(const void *state, int seat, int level, struct rng *rng, void **move, struct err *err)
{
	struct sm_move *m;
	int rc;

	*move = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return err_set(err, ERR_NOMEM, "out of memory");
	rc = sm_bot_choose(state, seat, level, rng, m, err);
	if (rc) {
		free(m);
		return rc;
	}
	*move = m;
	return 0;
}

static int sm_describe(const struct game_step_in *in, struct buf *out, struct err *err)
{
	if (!in->before || !in->after || !in->move)
		return err_set(err, ERR_INPUT, "describe needs the positions around the step and the step");
	return sm_story_describe(in->before, in->after, in->move, in->seat, in->seats, out);
}

static int sm_position(const struct game_position_in *in, struct buf *out, struct err *err)
{
	if (!in->state)
		return err_set(err, ERR_INPUT, "position needs a position");
	return sm_story_position(in->state, in->viewer, in->seats, out);
}

const struct game_ops game_starship_merchants = {
	.version = GAME_OPS_VERSION,
	.id = "starship-merchants",
	.title = "Starship Merchants",
	.min_players = SM_MIN_PLAYERS,
	.max_players = SM_MAX_PLAYERS,
	.options = NULL,
	.setup = sm_setup,
	.state_free = sm_free,
	.parse = sm_parse,
	.format = sm_format,
	.move_free = sm_move_free,
	.apply = sm_apply,
	.pending = sm_pending,
	.legal = sm_legal,
	.view = sm_view,
	.result = sm_result,
	.encode = sm_encode,
	.decode = sm_decode,
	.bot = sm_bot,
	.board = sm_board,
	.describe = sm_describe,
	.position = sm_position,
	.picks = sm_picks,
};
