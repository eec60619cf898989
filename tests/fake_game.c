/* tests/fake_game.c: a tiny game that exercises the engine core without the real games */
/* SPDX-License-Identifier: MIT */
#include "fake_game.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/banned.h"

struct fake_state {
	int n;
	int turn;
	int target;
	int acted;   /* steps this turn */
	int winner;  /* -1 while running */
	int total[GAME_MAX_SEATS];
};

enum fake_kind { FAKE_ADD, FAKE_ROLL, FAKE_END };

struct fake_move {
	enum fake_kind kind;
	int amount;
};

static json_t *fake_options(void)
{
	json_t *o = json_object();
	json_t *t = json_object();

	json_object_set_new(t, "type", json_string("integer"));
	json_object_set_new(t, "default", json_integer(10));
	json_object_set_new(t, "description", json_string("points needed to win"));
	json_object_set_new(o, "target", t);
	return o;
}

static int fake_setup(const json_t *options, int nplayers, struct rng *rng, void **state, struct err *err)
{
	struct fake_state *s;
	const char *key;
	json_t *v;

	(void)rng;
	json_object_foreach((json_t *)options, key, v) {
		if (strcmp(key, "target") != 0)
			return err_set(err, ERR_INPUT, "unknown option \"%s\"", key);
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 1000)
			return err_set(err, ERR_INPUT, "option target must be an integer from 1 to 1000");
	}
	s = calloc(1, sizeof(*s));
	s->n = nplayers;
	s->target = json_is_integer(json_object_get(options, "target"))
		? (int)json_integer_value(json_object_get(options, "target")) : 10;
	s->winner = -1;
	*state = s;
	return 0;
}

static void fake_free(void *state)
{
	free(state);
}

static int fake_parse(const void *state, int seat, const char *text, void **move, struct err *err)
{
	struct fake_move m = {0};
	char word[16] = "";
	int amount = 0, used = 0;

	(void)state;
	(void)seat;
	if (sscanf(text, " %15s %n", word, &used) < 1)
		return err_set(err, ERR_INPUT, "empty step: expected add N, roll or end");
	if (strcasecmp(word, "add") == 0) {
		char extra;
		if (sscanf(text + used, "%d %c", &amount, &extra) != 1)
			return err_set(err, ERR_INPUT, "expected \"add N\" with N from 1 to 3");
		m.kind = FAKE_ADD;
		m.amount = amount;
	} else if (strcasecmp(word, "roll") == 0 && !text[used]) {
		m.kind = FAKE_ROLL;
	} else if (strcasecmp(word, "end") == 0 && !text[used]) {
		m.kind = FAKE_END;
	} else {
		return err_set(err, ERR_INPUT, "unknown step \"%s\": expected add N, roll or end", text);
	}
	*move = malloc(sizeof(m));
	memcpy(*move, &m, sizeof(m));
	return 0;
}

static int fake_format(const void *state, const void *move, struct buf *out, struct err *err)
{
	const struct fake_move *m = move;

	(void)state;
	(void)err;
	if (m->kind == FAKE_ADD)
		buf_addf(out, "add %d", m->amount);
	else
		buf_adds(out, m->kind == FAKE_ROLL ? "roll" : "end");
	return 0;
}

static int fake_apply(void *state, int seat, const void *move, struct rng *rng, struct err *err)
{
	struct fake_state *s = state;
	const struct fake_move *m = move;

	if (s->winner >= 0)
		return err_set(err, ERR_FORBIDDEN, "the game is over");
	if (seat != s->turn)
		return err_set(err, ERR_FORBIDDEN, "it is seat %d's turn, not yours", s->turn);
	switch (m->kind) {
	case FAKE_ADD:
		if (m->amount < 1 || m->amount > 3)
			return err_set(err, ERR_ILLEGAL, "you may add 1 to 3, not %d", m->amount);
		s->total[seat] += m->amount;
		s->acted++;
		return 0;
	case FAKE_ROLL:
		s->total[seat] += rng_die(rng, 6);
		s->acted++;
		return 0;
	case FAKE_END:
		if (!s->acted)
			return err_set(err, ERR_ILLEGAL, "add or roll at least once before you end your turn");
		if (s->total[seat] >= s->target)
			s->winner = seat;
		s->acted = 0;
		s->turn = (s->turn + 1) % s->n;
		return 0;
	}
	return err_set(err, ERR_INTERNAL, "bad move");
}

static int fake_pending(const void *state, struct game_pending *out)
{
	const struct fake_state *s = state;

	memset(out, 0, sizeof(*out));
	if (s->winner >= 0)
		return 0;
	out->seats = 1u << s->turn;
	snprintf(out->kind, sizeof(out->kind), "turn");
	snprintf(out->prompt, sizeof(out->prompt), "seat %d: add, roll or end", s->turn);
	return 0;
}

static int fake_legal(const void *state, int seat, json_t **out, struct err *err)
{
	const struct fake_state *s = state;

	(void)err;
	*out = json_array();
	if (s->winner >= 0 || seat != s->turn)
		return 0;
	for (int i = 1; i <= 3; i++) {
		char t[16];
		snprintf(t, sizeof(t), "add %d", i);
		json_array_append_new(*out, json_string(t));
	}
	json_array_append_new(*out, json_string("roll"));
	if (s->acted)
		json_array_append_new(*out, json_string("end"));
	return 0;
}

static int fake_encode(const void *state, json_t **out, struct err *err)
{
	const struct fake_state *s = state;
	json_t *t = json_array();

	(void)err;
	for (int i = 0; i < s->n; i++)
		json_array_append_new(t, json_integer(s->total[i]));
	*out = json_pack("{s:i,s:i,s:i,s:i,s:i,s:o}", "n", s->n, "turn", s->turn, "target", s->target, "acted",
			 s->acted, "winner", s->winner, "total", t);
	return 0;
}

static int fake_decode(const json_t *in, void **state, struct err *err)
{
	struct fake_state *s = calloc(1, sizeof(*s));
	json_t *t = NULL;

	if (json_unpack((json_t *)in, "{s:i,s:i,s:i,s:i,s:i,s:o}", "n", &s->n, "turn", &s->turn, "target",
			&s->target, "acted", &s->acted, "winner", &s->winner, "total", &t) < 0 ||
	    s->n < 1 || s->n > GAME_MAX_SEATS || (int)json_array_size(t) != s->n) {
		free(s);
		return err_set(err, ERR_INPUT, "bad fake game snapshot");
	}
	for (int i = 0; i < s->n; i++)
		s->total[i] = (int)json_integer_value(json_array_get(t, (size_t)i));
	*state = s;
	return 0;
}

static int fake_view(const void *state, int seat, json_t **out, struct err *err)
{
	(void)seat;
	return fake_encode(state, out, err);
}

static json_t *fake_result(const void *state)
{
	const struct fake_state *s = state;
	json_t *scores, *ranks;

	if (s->winner < 0)
		return NULL;
	scores = json_array();
	ranks = json_array();
	for (int i = 0; i < s->n; i++) {
		json_array_append_new(scores, json_integer(s->total[i]));
		json_array_append_new(ranks, json_integer(i == s->winner ? 1 : 2));
	}
	return json_pack("{s:o,s:o,s:[i],s:s}", "scores", scores, "ranks", ranks, "winners", s->winner,
			 "tiebreak", "first to reach the target");
}

static int fake_bot(const void *state, int seat, int level, struct rng *rng, void **move, struct err *err)
{
	const struct fake_state *s = state;
	struct fake_move m = { .kind = FAKE_ADD, .amount = 1 + (int)rng_below(rng, 3) };

	(void)level;
	if (seat != s->turn || s->winner >= 0)
		return err_set(err, ERR_FORBIDDEN, "not your turn");
	if (s->acted)
		m.kind = FAKE_END;
	*move = malloc(sizeof(m));
	memcpy(*move, &m, sizeof(m));
	return 0;
}

const struct game_ops fake_game = {
	.version = GAME_OPS_VERSION,
	.id = "counting-race",
	.title = "Counting Race (test game)",
	.min_players = 1,
	.max_players = 4,
	.options = fake_options,
	.setup = fake_setup,
	.state_free = fake_free,
	.parse = fake_parse,
	.format = fake_format,
	.move_free = free,
	.apply = fake_apply,
	.pending = fake_pending,
	.legal = fake_legal,
	.view = fake_view,
	.result = fake_result,
	.encode = fake_encode,
	.decode = fake_decode,
	.bot = fake_bot,
};
