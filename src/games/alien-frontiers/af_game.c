/* games/alien-frontiers/af_game.c: the game_ops table of Alien Frontiers */
/* SPDX-License-Identifier: MIT */
#include "games/alien-frontiers/alien_frontiers.h"

#include <stdlib.h>
#include <string.h>

#include "games/alien-frontiers/af_internal.h"
#include "util/banned.h"

static json_t *af_options(void)
{
	return json_object();
}

static int af_setup(const json_t *options, int nplayers, struct rng *rng, void **state, struct err *err)
{
	struct af_state *s;

	*state = NULL;
	if (options && !json_is_object(options))
		return err_set(err, ERR_INPUT, "Alien Frontiers options must be a JSON object.");
	if (options && json_object_size(options) > 0)
		return err_set(err, ERR_INPUT, "Alien Frontiers has no options; unknown option '%s'.",
			       json_object_iter_key(json_object_iter((json_t *)options)));
	if (nplayers < 2 || nplayers > AF_MAXP)
		return err_set(err, ERR_INPUT, "Alien Frontiers is for 2 to 4 players, not %d.", nplayers);
	s = malloc(sizeof(*s));
	if (!s)
		return err_set(err, ERR_NOMEM, "out of memory");
	af__setup(s, nplayers, rng);
	*state = s;
	return 0;
}

static void af_state_free(void *state)
{
	free(state);
}

static int af_parse(const void *state, int seat, const char *text, void **move, struct err *err)
{
	struct af_move *m;
	int rc;

	*move = NULL;
	m = malloc(sizeof(*m));
	if (!m)
		return err_set(err, ERR_NOMEM, "out of memory");
	rc = af__parse(state, text ? text : "", m, err);
	if (rc) {
		free(m);
		return rc;
	}
	*move = m;
	return 0;
}

static int af_format(const void *state, const void *move, struct buf *out, struct err *err)
{
	af__format(move, out);
	return 0;
}

static void af_move_free(void *move)
{
	free(move);
}

static int af_apply(void *state, int seat, const void *move, struct rng *rng, struct err *err)
{
	if (!rng)
		return err_set(err, ERR_INTERNAL, "apply needs the game's random number generator");
	return af__step(state, seat, move, rng, err);
}

static int af_pending(const void *state, struct game_pending *out)
{
	af__pending(state, out);
	return 0;
}

static int af_legal(const void *state, int seat, json_t **out, struct err *err)
{
	struct af_move *moves = malloc(sizeof(*moves) * AF_LEGAL_MAX);
	struct buf b = BUF_INIT;
	json_t *a;
	int n;

	*out = NULL;
	if (!moves)
		return err_set(err, ERR_NOMEM, "out of memory");
	n = af__legal(state, seat, moves, AF_LEGAL_MAX);
	a = json_array();
	for (int i = 0; i < n; i++) {
		buf_reset(&b);
		af__format(&moves[i], &b);
		json_array_append_new(a, json_string(b.data));
	}
	buf_release(&b);
	free(moves);
	*out = a;
	return 0;
}

static int af_view(const void *state, int seat, json_t **out, struct err *err)
{
	return af__view(state, seat, out);
}

static json_t *af_result(const void *state)
{
	return af__result(state);
}

static int af_encode(const void *state, json_t **out, struct err *err)
{
	return af__encode(state, out);
}

static int af_decode(const json_t *in, void **state, struct err *err)
{
	struct af_state *s = malloc(sizeof(*s));
	int rc;

	*state = NULL;
	if (!s)
		return err_set(err, ERR_NOMEM, "out of memory");
	rc = af__decode(in, s, err);
	if (rc) {
		free(s);
		return rc;
	}
	*state = s;
	return 0;
}

static int af_bot(const void *state, int seat, int level, struct rng *rng, void **move, struct err *err)
{
	struct af_move *m = malloc(sizeof(*m));
	int rc;

	*move = NULL;
	if (!m)
		return err_set(err, ERR_NOMEM, "out of memory");
	rc = af__bot(state, seat, level, rng, m);
	if (rc) {
		free(m);
		return err_set(err, rc, "@%d has no legal step now.", seat);
	}
	*move = m;
	return 0;
}

static int af_describe(const struct game_step_in *in, struct buf *out, struct err *err)
{
	if (!in->before || !in->after || !in->move)
		return err_set(err, ERR_INPUT, "describe needs the positions around the step and the step");
	return af__describe(in->before, in->after, in->move, in->seat, in->seats, out);
}

static int af_position(const struct game_position_in *in, struct buf *out, struct err *err)
{
	if (!in->state)
		return err_set(err, ERR_INPUT, "position needs a position");
	return af__position(in->state, in->viewer, in->seats, out);
}

const struct game_ops game_alien_frontiers = {
	.version = GAME_OPS_VERSION,
	.id = "alien-frontiers",
	.title = "Alien Frontiers",
	.min_players = 2,
	.max_players = 4,
	.options = af_options,
	.setup = af_setup,
	.state_free = af_state_free,
	.parse = af_parse,
	.format = af_format,
	.move_free = af_move_free,
	.apply = af_apply,
	.pending = af_pending,
	.legal = af_legal,
	.view = af_view,
	.result = af_result,
	.encode = af_encode,
	.decode = af_decode,
	.bot = af_bot,
	.board = af_board,
	.describe = af_describe,
	.position = af_position,
	.picks = af_picks,
};
