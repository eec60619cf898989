/* fuzz_move.c: fuzz target for every game's move text: parse, format, and parse of the format */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/game.h"
#include "engine/registry.h"
#include "engine/rng.h"
#include "fuzz/fuzz.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/banned.h"

const char *const fuzz_corpora[] = { "tests/fuzz/corpus/move", NULL };

/*
 * The first byte picks how far into a game the text is read: after that many
 * steps (each the first legal step of the first seat to act) of a game with
 * every game's default options. The rest is one step of text, as a player
 * types it, given to every seat of every game. Whatever parses must format,
 * the format must parse, and formatting that again must give the same text
 * (the canonical text of docs/engine.md); nothing may crash or leak.
 */
static void fuzz_move_check(const struct game_ops *ops, const void *state, int seat, const char *text)
{
	struct err e = {0};
	struct buf once = BUF_INIT, twice = BUF_INIT;
	void *move = NULL, *again = NULL;

	if (ops->parse(state, seat, text, &move, &e) < 0)
		goto done;
	if (ops->format(state, move, &once, &e) < 0)
		abort(); /* a move that parsed has a text */
	if (ops->parse(state, seat, once.data, &again, &e) < 0)
		abort(); /* the canonical text parses */
	if (ops->format(state, again, &twice, &e) < 0 || strcmp(once.data, twice.data) != 0)
		abort(); /* and is a fixed point */
done:
	if (move)
		ops->move_free(move);
	if (again)
		ops->move_free(again);
	buf_release(&once);
	buf_release(&twice);
}

/* Advance state by up to steps steps; stops early at the end of the game. */
static void fuzz_move_advance(const struct game_ops *ops, void *state, int steps, struct rng *rng)
{
	for (int i = 0; i < steps; i++) {
		struct game_pending p;
		struct err e = {0};
		json_t *legal = NULL;
		void *move = NULL;
		int seat = -1, moved = 0;

		if (ops->pending(state, &p) < 0)
			return;
		for (int s = 0; s < GAME_MAX_SEATS && seat < 0; s++)
			if (p.seats & (1u << s))
				seat = s;
		if (seat < 0 || ops->legal(state, seat, &legal, &e) < 0)
			return;
		if (json_array_size(legal) > 0 &&
		    ops->parse(state, seat, json_string_value(json_array_get(legal, 0)), &move, &e) == 0) {
			moved = ops->apply(state, seat, move, rng, &e) >= 0;
			ops->move_free(move);
		}
		json_decref(legal);
		if (!moved)
			return;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	int steps;

	if (size < 1)
		return 0;
	steps = data[0] % 16;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	for (size_t g = 0; registry_at(g); g++) {
		const struct game_ops *ops = registry_at(g);
		json_t *options = json_object();
		struct err e = {0};
		struct rng rng;
		void *state = NULL;

		rng_seed(&rng, 7);
		if (ops->setup(options, ops->min_players, &rng, &state, &e) == 0) {
			fuzz_move_advance(ops, state, steps, &rng);
			for (int seat = 0; seat < ops->min_players; seat++)
				fuzz_move_check(ops, state, seat, text);
			ops->state_free(state);
		}
		json_decref(options);
	}
	free(text);
	return 0;
}
