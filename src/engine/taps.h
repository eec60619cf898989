/* engine/taps.h: a step built by taps on the board: what can be tapped next, and the step once complete */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_TAPS_H
#define TURNPOST_ENGINE_TAPS_H

#include <jansson.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/game.h"
#include "store/store.h"
#include "util/err.h"

/*
 * A game with picks() cuts each legal step into the board parts a player
 * taps (engine/game.h). This module is the one place that turns those cuts
 * into a choice: given the parts chosen so far, the parts that can be
 * tapped next (each the next part of some legal step that starts with the
 * chosen ones) and the step the chosen parts complete, if any. So the
 * steps taps can build are exactly legal(), and a step whose parts are a
 * prefix of another's can be confirmed or extended.
 *
 * The chosen parts travel in the page's URL as one string, the parts
 * joined by TAPS_SEP; a part is made of [a-z0-9-] only.
 */
#define TAPS_SEP '.'
#define TAPS_MAX_CHOSEN GAME_MAX_PICKS

/* One legal step with its picks. */
struct taps_step {
	char *text; /* canonical text (owned) */
	struct game_pick picks[GAME_MAX_PICKS];
	int npicks;
};

/* Every legal step of a position, cut into picks. */
struct taps_steps {
	struct taps_step *steps;
	int n;
};

/*
 * Cut every step of legal (a JSON array of canonical texts, borrowed) with
 * ops->picks for seat in state. ERR_NOTFOUND when ops has no picks; a step
 * that does not parse, or whose picks fail or have a part that is empty or
 * not made of [a-z0-9-], is an ERR_INTERNAL naming it. On failure *out is
 * empty. Release with taps_steps_release.
 */
int taps_steps_cut(const struct game_ops *ops, const void *state, int seat, const json_t *legal,
		   struct taps_steps *out, struct err *err);
void taps_steps_release(struct taps_steps *s);

/* What the chosen parts lead to. */
struct taps_offer {
	struct game_pick next[64]; /* the parts that can be tapped next, each once, in the order of legal() */
	int nnext;
	int truncated;             /* more than fit in next: the rest are left out */
	const struct taps_step *complete; /* the step the chosen parts build (borrowed from the steps), or NULL */
	const struct taps_step *match;    /* a step that starts with the chosen parts (their labels), or NULL */
	int nchosen;
};

/*
 * The offer after chosen[0..nchosen-1] among steps. Returns 0, or
 * ERR_NOTFOUND when no legal step starts with the chosen parts (a stale or
 * mistyped link): the offer is then empty.
 */
int taps_offer_find(const struct taps_steps *steps, const char *const *chosen, int nchosen, struct taps_offer *out);

/*
 * Split a chosen string ("die-3.fac-solar") into at most max parts, pointed
 * into buf (a copy of it, at least strlen + 1 bytes). Returns the count, or
 * ERR_INPUT when it has too many parts, an empty part or a character outside
 * [a-z0-9-]. NULL or "" is 0 parts.
 */
int taps_split(const char *chosen, char *buf, size_t size, const char **parts, int max);

/*
 * The tap state of a stored game for seat, as a new object:
 * {"move_count": n, "legal": [texts], "picks": true|false, "path": "die-3",
 *  "chosen": [{"part","label","cost"}], "next": [{"part","label","cost","path"}],
 *  "complete": {"text","label","cost"} | null, "reset": bool}
 * "path" is the chosen string as it matched ("" at the start), each next
 * part's "path" the string after tapping it; "reset" is true when the
 * chosen string matched no legal step (stale or mistyped: the offer starts
 * over). Seats with nothing to do, finished games and games without picks
 * answer with "picks": false and "next" empty.
 */
int taps_game_json(struct store *s, int64_t id, int seat, const char *chosen, json_t **out, struct err *err);
/* The same from a position at hand (active: the game is being played; move_count as stored). */
int taps_position_json(const struct engine_game *eg, int active, int move_count, int seat, const char *chosen,
		       json_t **out, struct err *err);

#endif
