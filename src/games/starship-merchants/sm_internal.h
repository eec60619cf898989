/* games/starship-merchants/sm_internal.h: state, steps and functions shared by the Starship Merchants files */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_SM_INTERNAL_H
#define TURNPOST_GAMES_SM_INTERNAL_H

#include <jansson.h>

#include "engine/game.h"
#include "games/starship-merchants/sm_data.h"
#include "util/buf.h"
#include "util/err.h"

#define SM_MAX_SHIPS 16   /* ships one player holds at once (limits give 13) */
#define SM_MAX_ASIDE 16   /* cards set aside for the next ship */
#define SM_MAX_SALVAGE 64 /* cards offered for transfer after scrapping */

enum sm_place { SM_SHIPYARD = 0, SM_MARKET, SM_BELT, SM_DOCK };

/* Where the current player is within a turn. */
enum sm_phase {
	SM_PH_START = 0, /* stay, move or pass */
	SM_PH_SHIPYARD,  /* buy or lease one ship, or repay loans */
	SM_PH_MARKET,    /* replace two cards (on arrival), buy one card, claim a token */
	SM_PH_BELT,      /* choose the ship to run */
	SM_PH_RUN,       /* spend the running ship's energy */
	SM_PH_EXPLORE,   /* place the explored token: on the ship or in local space */
	SM_PH_SALVAGE,   /* transfer or set aside the cards of scrapped ships */
	SM_PH_TRIGGER,   /* may trigger the end of the game */
	SM_PH_OVER,
	SM_PH_COUNT
};

struct sm_ship {
	int no;                  /* number within its owner's fleet, 1-based, never reused */
	int mark;                /* 1..4 */
	int type;                /* enum sm_ship_type */
	int loans;               /* loan markers on it */
	int pilot;               /* card index or -1 */
	int ngear;
	int gear[SM_MAX_GEAR];   /* card indexes */
	int cargo[SM_NKINDS];    /* tokens aboard, claimed ones included */
	int claimed[SM_NKINDS];  /* of those, claimed by the owner */
	int dest;                /* destination card aboard or -1 */
};

struct sm_player {
	int credits;
	int pos;                 /* enum sm_place */
	int nships;
	struct sm_ship ships[SM_MAX_SHIPS];
	int next_no;
	int local[SM_NKINDS];    /* unclaimed tokens in local space */
	int lclaim[SM_NKINDS];   /* claimed tokens in local space */
	int setup[SM_NKINDS];    /* set-up tokens waiting for the first Belt visit */
	int refinery[SM_NCARDS]; /* refinery cards owned, by card index */
	int naside;
	int aside[SM_MAX_ASIDE]; /* cards bought back for the next ship */
	int laps;                /* times the player left the Dock */
	int turns;
	int dock_at;             /* order of the latest arrival at the Dock (0: never) */
	int belt_seen;           /* set-up tokens have moved to local space */
	int finished;            /* final circuit: back in the Dock for good */
	int may_leave;           /* final circuit: was in the Dock at the trigger and has not chosen yet */
};

struct sm_state {
	int n;
	int cur;
	int phase;               /* enum sm_phase */
	int era;                 /* the current Mark, 1..4 */
	int supply[SM_NMARKS][SM_NTYPES];
	int bag[SM_NKINDS];
	int known[SM_NKINDS];
	int deck[SM_NCARDS];     /* undrawn cards by index (market and refinery decks share the array) */
	int disc[SM_NCARDS];     /* discarded cards */
	int mdisp[SM_MARKET_SLOTS];   /* card index or -1 */
	int rdisp[SM_REFINERY_SLOTS];
	int ddeck[SM_NDESTS];
	int ddisc[SM_NDESTS];
	int ddisp[SM_DEST_SLOTS];
	int refineries_open;     /* someone has left the Dock */
	/* the current turn */
	int moved;               /* arrived this turn with "move" */
	int replaced;            /* market: the two-card replacement is used or no longer possible */
	int bought;              /* market: bought a card */
	int repaid;              /* shipyard: loan markers repaid this action */
	int run;                 /* index of the running ship or -1 */
	int energy;              /* left in the run */
	int drawn;               /* explored token kind waiting to be placed, or -1 */
	int nsalvage;
	int salvage[SM_MAX_SALVAGE]; /* cards of the ships scrapped in this Dock action */
	int salv_pilots;         /* pilots that may still be transferred */
	int salv_gear;           /* gear that may still be transferred */
	/* the end */
	int final;               /* the end was triggered */
	int trigger;             /* who triggered it, -1 */
	int dock_seq;            /* last value given out as dock_at */
	int turn_no;             /* turns completed */
	int last_pay[SM_MAX_PLAYERS]; /* what each player was paid at their latest Dock action */
	struct sm_player p[SM_MAX_PLAYERS];
};

/* sm_state.c: the state */

/* 0..2: the column of per-player-count tables. */
int sm_state_col(const struct sm_state *s);

/* Starting credits of seat (0-based) in an n-player game: 15 for every seat. */
int sm_start_credits(int n, int seat);

/* New state for n players (2..4), rng draws the displays. */
int sm_state_setup(int n, struct rng *rng, struct sm_state **out, struct err *err);
void sm_state_free(struct sm_state *s);

/* Snapshots. */
int sm_state_encode(const struct sm_state *s, json_t **out, struct err *err);
int sm_state_decode(const json_t *in, struct sm_state **out, struct err *err);

/* Derived numbers. */
int sm_ship_find(const struct sm_player *pl, int no);    /* index or -1 */
int sm_ship_obsolete(const struct sm_state *s, const struct sm_ship *sh);
int sm_ship_capacity(const struct sm_ship *sh);
int sm_ship_load(const struct sm_ship *sh);              /* tokens aboard */
int sm_ship_energy(const struct sm_ship *sh);
int sm_ship_explore_cost(const struct sm_ship *sh);
int sm_ship_remote_cost(const struct sm_ship *sh);
int sm_ship_cost(const struct sm_ship *sh);              /* full price of its Mark and type */
int sm_marker_cost(const struct sm_ship *sh);            /* one loan marker: half the full price */
/* Credits this ship earns at the Dock now (tokens, pilot, gear, refineries, destination). */
int sm_ship_payment(const struct sm_state *s, int seat, const struct sm_ship *sh);
int sm_player_loans(const struct sm_player *pl);
int sm_player_loan_debt(const struct sm_player *pl);     /* credits to repay every marker */
/* The final score: credits less the loan markers still unpaid (may be below 0). */
int sm_player_score(const struct sm_player *pl);
int sm_owned_of_mark(const struct sm_player *pl, int mark);

/* Draw one card of a category group (0: pilot or gear, 1: refinery); -1 when none is left. */
int sm_draw_card(struct sm_state *s, int refinery, struct rng *rng);
int sm_draw_dest(struct sm_state *s, struct rng *rng);
int sm_draw_token(struct sm_state *s, struct rng *rng); /* from the bag; -1 when empty */

/* Tokens in play per kind, wherever they are (for the conservation check). */
void sm_state_token_totals(const struct sm_state *s, int totals[SM_NKINDS]);

/* sm_text.c: the steps and their text notation */

/*
 * One step a player types, one per line (docs/games/starship-merchants.md):
 *
 *   stay | move | pass
 *   buy scout | buy tug | lease scout | lease tug | repay ship 2
 *   replace grapples survey-robot | buy grapples ship 1 | buy cobalt-refinery | claim cobalt
 *   run ship 1 | pickup cobalt known | pickup ice-9 local | pickup xenite p2 | explore | load | leave
 *   replace foundry | end run foundry
 *   transfer grapples ship 3 | set aside grapples | end game | done
 */
enum sm_move_type {
	SM_MV_STAY = 0,      /* act in the current quadrant */
	SM_MV_MOVE,          /* move to the next quadrant and act there */
	SM_MV_PASS,          /* move to the next quadrant, no action */
	SM_MV_BUY_SHIP,      /* a: type */
	SM_MV_LEASE_SHIP,    /* a: type */
	SM_MV_REPAY,         /* a: ship number */
	SM_MV_REPLACE_CARDS, /* a <= b: card indexes in the market display */
	SM_MV_BUY_CARD,      /* a: card index; b: ship number (0 for a refinery) */
	SM_MV_CLAIM,         /* a: token kind */
	SM_MV_RUN,           /* a: ship number */
	SM_MV_PICKUP,        /* a: token kind; b: source (enum sm_source) */
	SM_MV_EXPLORE,
	SM_MV_LOAD,          /* the explored token goes aboard */
	SM_MV_LEAVE,         /* the explored token goes to local space */
	SM_MV_REPLACE_DEST,  /* a: destination index in the display */
	SM_MV_END_RUN,       /* a: destination index */
	SM_MV_TRANSFER,      /* a: card index from a scrapped ship; b: ship number */
	SM_MV_SET_ASIDE,     /* a: card index */
	SM_MV_END_GAME,
	SM_MV_DONE,
	SM_MV_COUNT
};

/* Pickup sources: known space, your own local space, or seat k's local space (SM_SRC_SEAT + k). */
enum sm_source { SM_SRC_KNOWN = 0, SM_SRC_LOCAL = 1, SM_SRC_SEAT = 2 };

struct sm_move {
	int type;
	int a;
	int b;
};

/* Read one line. ERR_INPUT (with what was expected) when it cannot be read. */
int sm_move_parse(const struct sm_state *s, int seat, const char *text, struct sm_move *m, struct err *err);
/* Append the canonical text; parse(format(m)) == m for every well-formed m. */
int sm_move_format(const struct sm_move *m, struct buf *out, struct err *err);

/*
 * The name a player knows for a slug the view uses (a token kind, a card, a
 * destination or a ship type): "ice-9" is "Ice-9", "survey-robot" "Survey
 * Robot", "scout" "Scout". Borrowed; the slug itself when it names nothing
 * ("" for NULL).
 */
const char *sm_slug_name(const char *slug);

/* sm_rules.c: checking and applying steps */

#define SM_MAX_LEGAL 1024

/*
 * 0 when seat may make the step now; ERR_FORBIDDEN when it is not seat's
 * turn, ERR_ILLEGAL naming the rule and the numbers otherwise.
 */
int sm_rules_check(const struct sm_state *s, int seat, const struct sm_move *m, struct err *err);

/* Check, then change the state. Returns GAME_APPLY_REVEAL when a card or token was drawn. */
int sm_rules_apply(struct sm_state *s, int seat, const struct sm_move *m, struct rng *rng, struct err *err);

/* Every legal step for seat (none when it is not seat's turn); returns the count (<= max). */
int sm_rules_legal(const struct sm_state *s, int seat, struct sm_move *moves, int max);

int sm_rules_pending(const struct sm_state *s, struct game_pending *out);

/* The energy m spends of the running ship's (0 for a step that spends none, or when no ship runs). */
int sm_rules_energy(const struct sm_state *s, int seat, const struct sm_move *m);

/* sm_view.c: what a seat sees, and the final result */

/*
 * A new JSON object for seat (-1: spectator). Starship Merchants keeps only
 * the order of the bag and the decks hidden (they are drawn at random when
 * needed), so every seat sees the same table; "you" names the seat.
 */
json_t *sm_view_build(const struct sm_state *s, int seat);

/*
 * NULL while the game runs; then a new {"scores", "ranks", "winners",
 * "tiebreak"}: most credits wins, ties go to the earliest into the Dock.
 */
json_t *sm_view_result(const struct sm_state *s);

/* sm_bot.c: computer players */

/*
 * A legal step for seat: level 0 picks uniformly among the legal steps,
 * level 1 is a greedy merchant (cargo first, then the best card for its
 * credits). rng is the bot's own generator. ERR_FORBIDDEN when seat has
 * nothing to do.
 */
int sm_bot_choose(const struct sm_state *s, int seat, int level, struct rng *rng, struct sm_move *out,
		  struct err *err);

/* sm_story.c: the step m that seat took from before to after, as one sentence with names from seats (describe) */
int sm_story_describe(const struct sm_state *before, const struct sm_state *after, const struct sm_move *m, int seat,
		      const json_t *seats, struct buf *out);
/* sm_story.c: the position as a few sentences for viewer (position) */
int sm_story_position(const struct sm_state *s, int viewer, const json_t *seats, struct buf *out);

/* sm_picks.c: a legal step cut into the board parts a player taps (game_ops.picks) */
int sm_picks(const void *state, int seat, const void *move, struct game_pick *out, int max, struct err *err);

/* sm_board.c: the board as SVG, drawn from the view (game_ops.board) */
int sm_board(const struct game_board_in *in, struct buf *out, struct err *err);

#endif
