/* engine/engine.h: a decoded game (ops, state, RNG) and its snapshot format */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_ENGINE_H
#define TURNPOST_ENGINE_ENGINE_H

#include <jansson.h>
#include <stdint.h>

#include "engine/game.h"

/*
 * A running game in memory. The snapshot stored after every step is the
 * compact JSON {"rng":"<rng_encode>","state":<ops->encode>}: the RNG lives
 * inside the game's snapshot, so a replay draws the same numbers.
 */
struct engine_game {
	const struct game_ops *ops;
	void *state;
	struct rng rng;
	int nplayers;
};

/* Set up a new game from a seed. options may be NULL (= {}). */
int engine_game_setup(const struct game_ops *ops, const json_t *options, int nplayers, uint64_t seed,
		      struct engine_game *out, struct err *err);
/* Decode a snapshot text. */
int engine_game_decode(const struct game_ops *ops, const char *snapshot, struct engine_game *out,
		       struct err *err);
/* Encode into a new compact JSON string (caller frees). */
int engine_game_encode(const struct engine_game *g, char **snapshot, struct err *err);
void engine_game_release(struct engine_game *g);

/*
 * Parse, apply and format one line for seat. On success *canonical holds the
 * canonical text (appended) and *revealed says whether the step revealed
 * hidden information (drew from the RNG or the game said so): such a step
 * cannot be undone. A failing step may leave the state changed.
 */
int engine_game_step(struct engine_game *g, int seat, const char *line, struct buf *canonical,
		     int *revealed, struct err *err);

/* The game's pending decision; seats is 0 once the game is over. */
void engine_game_pending(const struct engine_game *g, struct game_pending *out);

/* Is this line the engine's own "undo" (any case, surrounding space allowed)? */
int engine_line_is_undo(const char *line);

/* A new seed from libsodium's random source. */
uint64_t engine_new_seed(void);

/* Two snapshot texts describe the same position (JSON equality). */
int engine_snapshot_equal(const char *a, const char *b);

/* The seats of a mask as a new JSON array of numbers ([0, 2]). */
json_t *engine_seats_json(unsigned mask);
/*
 * A pending decision as a new object {"seats","kind","prompt","offturn"}, the
 * prompt's names filled from names (see engine_names_fill).
 */
json_t *engine_pending_json(const struct game_pending *p, const char *const *names);

/*
 * text with every GAME_NAME_MARK and seat digit n replaced by names[n],
 * appended to out. names has GAME_MAX_SEATS entries (NULL entries, or names
 * NULL: "Player n+1"). NULL text appends nothing.
 */
void engine_names_fill(struct buf *out, const char *text, const char *const *names);
/* The same into a new string (NULL only when out of memory). */
char *engine_names_text(const char *text, const char *const *names);
/* The same in place in an error message (cut to fit). */
void engine_names_err(struct err *err, const char *const *names);
/*
 * names[seat] (borrowed) from a seats array [{"seat": n, "name": "..."}]
 * (may be NULL); seats without a name stay NULL.
 */
void engine_names_json(const json_t *seats, const char *names[GAME_MAX_SEATS]);
/*
 * The string at obj's key with names filled, in place (obj may be NULL or not
 * an object): a result's "tiebreak", a view's "prompt".
 */
void engine_names_key(json_t *obj, const char *key, const char *const *names);
/* A game's view with names filled in its prompts (its "prompt" and its "pending" object's), in place. */
void engine_names_view(json_t *view, const char *const *names);
/* The hosted game id, or NULL with ERR_NOTFOUND ("no game called ... is hosted here") in err. */
const struct game_ops *engine_ops_find(const char *id, struct err *err);
/* A seed as decimal text (new; NULL when out of memory), and back: 0, or ERR_INPUT (*seed 0) when text is not a number. */
char *engine_seed_text(uint64_t seed);
int engine_seed_parse(const char *text, uint64_t *seed);

#endif
