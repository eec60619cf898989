/* engine/game.h: the interface every hosted game implements */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_GAME_H
#define TURNPOST_ENGINE_GAME_H

#include <jansson.h>

#include "engine/rng.h"
#include "util/buf.h"
#include "util/err.h"

#define GAME_MAX_SEATS 8

/*
 * Games are pure: no I/O, no SQLite, no curl, no globals, no wall clock. All
 * randomness comes from the struct rng the engine passes in (its state lives
 * in the engine's snapshot next to the game's own state), so the same state
 * and the same move always give the same result.
 *
 * Seats are numbered 0..nplayers-1. Seat -1 means a spectator (view only).
 *
 * Ownership: `void **state` / `void **move` / `json_t **out` outputs are new
 * and owned by the caller; inputs are borrowed. Every method returns 0 (or,
 * for apply, a non-negative flag set) on success and a negative ERR_* code on
 * failure, with a message a player can act on in `err`. A failing method
 * leaves its outputs NULL; a failing apply may leave the state changed, so the
 * engine always applies to a copy it can throw away (it decodes one from the
 * snapshot for each request).
 */

/* What the game is waiting for. */
struct game_pending {
	unsigned seats;   /* bit i set: seat i must act now; 0 when the game is over */
	char kind[32];    /* short machine word for the decision: "turn", "discard", "draft", ... */
	char prompt[200]; /* one line a person understands: "Ann: dock your ships (rolled 1 3 3 6)" */
};

/*
 * What a board drawer is given (all borrowed). The board is drawn from the
 * view, never from the state: the view already left out what seat may not
 * see, so a drawer cannot show hidden information by mistake, and the pages
 * draw from the same JSON the API serves.
 */
struct game_board_in {
	const json_t *view;  /* what view() gave for seat */
	const json_t *seats; /* the game's seats, [{"seat": n, "name": "..."}], for names (may be NULL) */
	int seat;            /* whose page it is; -1: a spectator */
};

/* Flags apply may return (>= 0). */
enum game_apply_flags {
	GAME_APPLY_REVEAL = 1 << 0 /* the move revealed hidden information: steps before it cannot be undone */
};

struct game_ops {
	int version; /* of this interface: GAME_OPS_VERSION */
	const char *id;    /* "alien-frontiers": URL and API name */
	const char *title; /* "Alien Frontiers" */
	int min_players;
	int max_players;

	/*
	 * The options the game accepts, as a new JSON object
	 * {"name": {"type": "boolean"|"integer"|"string", "default": ..., "description": "...", "enum": [...]}}.
	 * May be NULL when the game has none.
	 */
	json_t *(*options)(void);

	/* A new game for nplayers with options (an object; unknown keys are an ERR_INPUT). */
	int (*setup)(const json_t *options, int nplayers, struct rng *rng, void **state, struct err *err);
	void (*state_free)(void *state);

	/*
	 * One step of text, as a person types it (case-insensitive, forgiving of
	 * spacing), into a move. ERR_INPUT when it cannot be read at all;
	 * parse may also reject with ERR_ILLEGAL when it knows already.
	 */
	int (*parse)(const void *state, int seat, const char *text, void **move, struct err *err);
	/* The canonical text of a move; parse(format(m)) == m. Appends to out. */
	int (*format)(const void *state, const void *move, struct buf *out, struct err *err);
	void (*move_free)(void *move);

	/*
	 * Validate, then change the state. ERR_FORBIDDEN when seat may not act now,
	 * ERR_ILLEGAL with the rule and the numbers when the move is not allowed.
	 * Returns enum game_apply_flags on success. Drawing from rng also counts as
	 * a reveal for undo (the engine watches rng->draws).
	 */
	int (*apply)(void *state, int seat, const void *move, struct rng *rng, struct err *err);

	/* Which seats must act now and what kind of decision it is. */
	int (*pending)(const void *state, struct game_pending *out);

	/*
	 * Every legal step for seat at this decision point, as a new JSON array of
	 * canonical move texts (empty when seat has nothing to do). apply accepts
	 * exactly these.
	 */
	int (*legal)(const void *state, int seat, json_t **out, struct err *err);

	/* What seat may see (hidden information removed), as a new JSON object. seat -1: spectator. */
	int (*view)(const void *state, int seat, json_t **out, struct err *err);

	/*
	 * NULL while the game runs; once over, a new object
	 * {"scores":[...], "ranks":[...], "winners":[...], "tiebreak": "..."}.
	 */
	json_t *(*result)(const void *state);

	/* The snapshot format: a new JSON value that decode turns back into an equal state. */
	int (*encode)(const void *state, json_t **out, struct err *err);
	int (*decode)(const json_t *in, void **state, struct err *err);

	/*
	 * Optional (may be NULL): a legal move for seat chosen by a strategy.
	 * level 0 is a random legal step, level 1 a simple greedy player, level
	 * GAME_BOT_STRONG (2) the strongest, which stands in for late and dropped
	 * players; a level above what a game knows plays its strongest. Every
	 * level is a pure function of (state, seat, rng): the same position and
	 * generator give the same step. rng is the bot's own generator, never the
	 * game's.
	 */
	int (*bot)(const void *state, int seat, int level, struct rng *rng, void **move, struct err *err);

	/*
	 * Optional (may be NULL): append the board as one <svg> element, sized
	 * for a 390-pixel-wide phone, every text in it escaped. ERR_INPUT when
	 * in->view is not a view of this game; out is then left unchanged. Pages
	 * of a game without a board list its view instead.
	 */
	int (*board)(const struct game_board_in *in, struct buf *out, struct err *err);
};

#define GAME_OPS_VERSION 1

/* The bot level that plays for late and dropped players (notify/timers.c, engine/manage.c). */
#define GAME_BOT_STRONG 2

#endif
