/* engine/game.h: the interface every hosted game implements */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_GAME_H
#define TURNPOST_ENGINE_GAME_H

#include <jansson.h>
#include <string.h>

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

/*
 * Names. A game does not know who plays: a text it writes for people (a
 * prompt, a pick's label, a result's tiebreak, an error message) names seat
 * n as GAME_NAME_MARK followed by the digit n ("@0: dock your ships", "@1's
 * 3"), and the engine writes the seat's name there before anyone reads it
 * (engine_names_fill; "Player n+1" when the seat has no name). A mark not
 * followed by a seat's digit stays as it is.
 */
#define GAME_NAME_MARK '@'

/* What the game is waiting for. */
struct game_pending {
	unsigned seats;   /* bit i set: seat i must act now; 0 when the game is over */
	char kind[32];    /* short machine word for the decision: "turn", "discard", "draft", ... */
	char prompt[200]; /* one line a person understands: "@0: dock your ships (rolled 1 3 3 6)" (names: GAME_NAME_MARK) */
	unsigned offturn; /* bit i set: seat i decides outside its own turn (a bonus from another's action): "your decision" */
};

/*
 * A step is built on the board by taps: picks() cuts one legal step into
 * the parts of the board a player taps, in order (a die, then a facility,
 * then a territory). The engine offers, after the parts chosen so far, the
 * next parts of every legal step that starts with them, so the steps taps
 * can build are exactly legal(). Two legal steps never have the same picks.
 */
#define GAME_MAX_PICKS 8

struct game_pick {
	char part[48];   /* the board part tapped, an id its drawer knows: "die-3", "facility-solar-converter" */
	char label[160]; /* what the tap does, in words and names: "Dock @0's 3 at the Solar Converter" (GAME_NAME_MARK) */
	char cost[96];   /* what it costs and gives, in words: "pay 1 fuel: +1 ore"; "" when nothing */
};

/* One part that can be tapped now: the page built the link. */
struct game_tap {
	const char *part;  /* as in struct game_pick */
	const char *href;  /* where the tap goes */
	const char *label; /* accessible name: what the tap does */
	const char *cost;  /* "" when nothing */
};

/* The step being built, for the board drawer (all borrowed). */
struct game_tapset {
	const struct game_tap *next; /* the parts that can be tapped now */
	int nnext;
	const char *const *chosen; /* the parts chosen so far, in order: drawn as selected */
	int nchosen;
};

/* The tap offered on part, or NULL (drawers: NULL means draw the part greyed while choosing). */
static inline const struct game_tap *game_tap_find(const struct game_tapset *t, const char *part)
{
	for (int i = 0; t && i < t->nnext; i++)
		if (strcmp(t->next[i].part, part) == 0)
			return &t->next[i];
	return NULL;
}

/* How a drawer draws a part: offered (a link), chosen, greyed while choosing, or plain (nothing being built). */
enum game_tap_look { GAME_TAP_PLAIN, GAME_TAP_OFFERED, GAME_TAP_CHOSEN, GAME_TAP_GREY };

/*
 * The look of the nth (0-based) part named part on the board (a board may
 * draw several parts of one name, equal dice: the first ones are the chosen
 * ones, the next one is offered); *tap the offered tap, else NULL. t NULL:
 * plain.
 */
static inline enum game_tap_look game_tap_look(const struct game_tapset *t, const char *part, int nth,
					       const struct game_tap **tap)
{
	int chosen = 0;

	*tap = NULL;
	if (!t)
		return GAME_TAP_PLAIN;
	for (int i = 0; i < t->nchosen; i++)
		chosen += !strcmp(t->chosen[i], part);
	if (nth < chosen)
		return GAME_TAP_CHOSEN;
	if (nth == chosen && (*tap = game_tap_find(t, part)))
		return GAME_TAP_OFFERED;
	return GAME_TAP_GREY;
}

/*
 * What describe() is given (all borrowed): one stored step, the positions
 * around it, and who reads the sentence.
 */
#define GAME_VIEWER_ALL (-2) /* an admin: sees everything */

struct game_step_in {
	const void *before;  /* the state before the step */
	const void *after;   /* the state after it */
	const void *move;    /* the step, as parse() gave it for before */
	int seat;            /* who took it */
	int viewer;          /* who reads: a seat, -1 a spectator, GAME_VIEWER_ALL */
	const json_t *seats; /* the game's seats, [{"seat": n, "name": "..."}], for names (may be NULL) */
};

/*
 * What position() is given (all borrowed): a position and who reads it.
 */
struct game_position_in {
	const void *state;   /* the position now */
	int viewer;          /* who reads: a seat, -1 a spectator, GAME_VIEWER_ALL */
	const json_t *seats; /* the game's seats, [{"seat": n, "name": "..."}], for names (may be NULL) */
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
	const struct game_tapset *taps; /* the step being built; NULL when seat chooses nothing on the board */
	const json_t *before; /* view() for seat as it was after its last step, or NULL: the parts that differ
				 are drawn marked as changed (tapdraw_mark) */
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

	/*
	 * What seat may see (hidden information removed), as a new JSON object.
	 * seat -1: spectator. A game that counts a score while it runs puts
	 * "scores": [n, ...] (each seat's score now, by seat) in it: the lobby
	 * shows them.
	 */
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

	/*
	 * Optional (may be NULL): the taps that build move (one of legal() for
	 * seat in state), in order, at most max; returns how many (>= 1). The
	 * parts are ones board() draws; see struct game_pick.
	 */
	int (*picks)(const void *state, int seat, const void *move, struct game_pick *out, int max, struct err *err);

	/*
	 * Optional (may be NULL): the step in->move as one sentence a person
	 * reads, with names and what it did ("Zed explored and drew Iridium"),
	 * appended to out, no notation and no seat numbers. What in->viewer may
	 * not see stays hidden ("Zed drew a card"). Pages fall back to the
	 * step's text when a game has none.
	 */
	int (*describe)(const struct game_step_in *in, struct buf *out, struct err *err);

	/*
	 * Optional (may be NULL): the position now as a few sentences for
	 * in->viewer, each ended by '\n', appended to out: what a player needs
	 * to plan a turn without the board (the roll, what is on offer, each
	 * player's resources and score). The reader is "you"; others by name;
	 * no notation and no seat numbers. What in->viewer may not see stays
	 * hidden, as in view(). The "your turn" email and its webhook carry it.
	 */
	int (*position)(const struct game_position_in *in, struct buf *out, struct err *err);
};

#define GAME_OPS_VERSION 1

/* The bot level that plays for late and dropped players (notify/timers.c, engine/manage.c). */
#define GAME_BOT_STRONG 2

#endif
