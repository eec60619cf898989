/* games/space-station-phoenix/ssp_internal.h: state, moves and rules shared by the Space Station Phoenix modules */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_SSP_INTERNAL_H
#define TURNPOST_GAMES_SSP_INTERNAL_H

#include <jansson.h>

#include "engine/game.h"
#include "games/space-station-phoenix/ssp_data.h"
#include "util/buf.h"
#include "util/err.h"

#define SSP_MAXP 4
#define SSP_MAXTASK 32
#define SSP_HUBQ 100 /* placement target meaning "the Station Hub" */

/* Where a ship card is (ship_loc). 0..3: owned by that seat. */
enum ssp_ship_loc {
	SL_BOX = -1,     /* out of the game: never drawn */
	SL_DISPLAY = -2, /* face up in the draft */
	SL_NEUTRAL = -3, /* on the Neutral Ships board */
	SL_GONE = -4,    /* dismantled or discarded */
	SL_DECK = -5,    /* in its deck (face down, no order kept: draws are random) */
	SL_DRAWN = 10    /* 10 + seat: drawn by that seat at set-up, to keep or discard */
};

/* Where a Sector is (sec_loc). 0..3: built by that seat. */
enum ssp_sec_loc {
	SEC_BOX = -1,
	SEC_DISPLAY = -2,
	SEC_GONE = -3,      /* returned to the supply by Hub A-12 (out of the game) */
	SEC_PRIVATE = 10    /* 10 + seat: Hub A-6's private supply */
};

enum ssp_phase {
	PH_DRAFT3 = 0, PH_DRAFT2, PH_HUB, PH_SETUP, PH_TURN, PH_DIPLO, PH_OVER
};

/* A pending decision of the active player (front of the task queue). */
enum ssp_task_kind {
	TK_NONE = 0,
	TK_DISMANTLE,  /* a: extra metal */
	TK_BUILD,      /* a: discount, b: 1 = free Level-1 of a new colour (326) */
	TK_TRANSPORT,  /* a: transactions left, b: 1 = at least one still required, c: 1 = ship action (207) */
	TK_DICE,       /* a: dice to keep, b: rerolls left, c: dice still to roll; dice in st->dice */
	TK_DIPLO,      /* a: tracks (1 or 2), b: 1 = free, c: 1 = may skip, d: extra GEMs (117) */
	TK_PLACE,      /* a: resident kind (0 = any Alien colour), b: 1 = from the A-11 hub */
	TK_TAKE,       /* a: resource mask (1 food, 2 water, 4 metal), b: how many */
	TK_ACCEPT,     /* a: sector id whose offer it is (118, 208, 222, 322) */
	TK_BUY2,       /* 228: 4 GEMs for 2 resources */
	TK_EXCHANGE,   /* 128 */
	TK_HUMAN2,     /* 307: any 2 resources for a Human */
	TK_RELOCATE,   /* income step 3 */
	TK_RETURN,     /* */
	TK_DISCARD,    /* a: 0 = one of the ships drawn for you, 1 = one of your Level-2 ships */
	TK_A11,        /* move a resident from the A-11 hub */
	TK_AFTER,      /* a: ship type; the bonuses after a ship action (resolved by the engine) */
	TK_CONVERT     /* Hub A-1: convert 1 metal after the main action, or done */
};

struct ssp_task {
	int kind, a, b, c, d;
};

struct ssp_player {
	int res[4];      /* food, water, metal, GEMs */
	int points;
	int hub;         /* chosen hub, -1 before */
	int dealt[2];    /* hubs dealt (hidden from others), -1 when none */
	int dip[4];      /* 0..5 per track */
	int neutral;     /* neutral ship the token sits on, -1 */
	int hubq[5];     /* hub quarters (B-11, A-11) */
	int incomes;     /* income actions taken */
	int conv;        /* A-1 conversion used this turn */
	int nstand;      /* standing Diplomacy choice: bonus codes in preference order */
	int stand[6];
};

/* The whole game: plain data, so a copy is a memcpy. */
struct ssp_state {
	int nplayers, first_game, advanced, friendly;
	int phase, active, turn;
	int draft_pos;          /* step of the draft / hub choice / set-up bonuses */
	int ship_loc[SSP_NSHIPS];
	int ship_used[SSP_NSHIPS];   /* 0 unused, else 1 + the seat that used it */
	int sec_loc[SSP_NSECTORS];
	int sec_res[SSP_NSECTORS][6];
	int sec_fresh[SSP_NSECTORS]; /* bit q: resident placed this turn */
	int aliens[4];          /* supply of teal, brown, pink, gold */
	int humans;
	struct ssp_player pl[SSP_MAXP];
	struct ssp_task task[SSP_MAXTASK];
	int ntask;
	int acting;             /* 1 while a turn's action (ship or income) is under way */
	int act_ship;           /* ship of the current action, -1: income or set-up */
	int act_once;           /* once-per-action offers used (bits) */
	int act_gained[4];      /* Aliens gained by transactions this action (207) */
	int dice[4];            /* Expedition dice showing food, water, metal, Human */
	int dip_track;          /* track whose bonuses are being taken */
	int dip_mask;           /* seats still to choose */
	int extra_turns;
	int stalled;            /* turns in a row that were forced and changed nothing (see note_stall) */
	int end_by;             /* seat that triggered the end, -1 */
	int final_left;         /* turns still to play after the trigger */
	int alien_total[4];     /* Aliens drawn at set-up, per colour (supply + stations stay equal to it) */
	int human_total;
};

/* Diplomacy bonus codes (also standing choices). */
enum ssp_bonus { BN_GEM = 0, BN_2GEMS, BN_POINT, BN_FOOD, BN_WATER, BN_METAL };

enum ssp_move_kind {
	MV_DRAFT = 1, MV_HUB, MV_DISCARD, MV_ADVANCE, MV_SKIP, MV_USE, MV_INCOME,
	MV_SELL, MV_CONVERT, MV_DISMANTLE, MV_BUILD, MV_ALIEN, MV_TRADE, MV_BUY,
	MV_DONE, MV_REROLL, MV_KEEP, MV_PLACE, MV_TAKE, MV_ACCEPT, MV_EXCHANGE,
	MV_PAY, MV_MOVE, MV_RETURN, MV_BONUS, MV_STANDING
};

/*
 * A move. Fields by kind: ship / hub / sector index in a; targets are a
 * sector index or SSP_HUBQ; lists (dice, standing choices) in v.
 */
struct ssp_move {
	int kind;
	int a, b, c;
	int n;
	int v[6];
};

/* ssp_rules.c */
int ssp_rules_setup(struct ssp_state *st, int nplayers, int first_game, int advanced, int friendly,
		    struct rng *rng, struct err *err);
/* Validate and apply; >= 0 (enum game_apply_flags) or a negative ERR_*. */
int ssp_rules_apply(struct ssp_state *st, int seat, const struct ssp_move *m, struct rng *rng, struct err *err);
/* Seats that must act (bit mask) and a prompt. */
unsigned ssp_rules_pending(const struct ssp_state *st, char *kind, size_t kindsz, char *prompt, size_t promptsz);
/* Every candidate move of seat at this point (a superset of the legal ones); returns the count. */
int ssp_rules_candidates(const struct ssp_state *st, int seat, struct ssp_move *out, int max);
/* The legal moves of seat (candidates that apply); returns the count. */
int ssp_rules_legal(const struct ssp_state *st, int seat, struct ssp_move *out, int max);
/*
 * One legal step for seat drawn uniformly from the same list ssp_rules_legal
 * gives, without checking the whole list (candidates are tried in a random
 * order; the first legal one is uniform among the legal ones). 0, or -1 when
 * seat has nothing to do.
 */
int ssp_rules_random_legal(const struct ssp_state *st, int seat, struct rng *rng, struct ssp_move *out);
/* The seats ssp_rules_pending names (bit mask), without formatting a prompt. */
unsigned ssp_rules_who(const struct ssp_state *st);
int ssp_rules_over(const struct ssp_state *st);

/* Final scoring, per seat: the categories of the score sheet. */
enum ssp_score_cat {
	SC_POINTS = 0, SC_SECTORS, SC_RESIDENTS, SC_HUMAN, SC_GOLD, SC_TEAL, SC_PINK, SC_BROWN,
	SC_BONUS, SC_LEFTOVER, SC_TOTAL, SC_NCAT
};
void ssp_rules_score(const struct ssp_state *st, int score[SSP_MAXP][SC_NCAT]);
/* Counts of one seat's residents by kind (index enum ssp_resident). */
void ssp_rules_residents(const struct ssp_state *st, int seat, int count[6]);
int ssp_rules_cost(const struct ssp_state *st, int seat, int ship);
/* Can seat use ship now (in play, unused, affordable, its action possible): as legal() has `use <ship>`? 1 or 0. */
int ssp_rules_usable(const struct ssp_state *st, int seat, int ship);
/* The GEMs seat pays to use ship: its cost plus the owner's fee. */
int ssp_rules_price(const struct ssp_state *st, int seat, int ship);
int ssp_rules_nsectors(const struct ssp_state *st, int seat);
/*
 * The lowest-numbered ship that is the same card as ship in this position
 * (the same printed values, at the same place, used alike): legal() names
 * only it of such cards; apply() takes any of them as itself.
 */
int ssp_rules_first_card(const struct ssp_state *st, int ship);
/* What a Human ally costs seat now: food, water, metal (215 and A-10 waive one). */
void ssp_rules_human_cost(const struct ssp_state *st, int seat, int need[3]);
/* The state invariants (supplies non-negative, quarters left-filled, ...); 0 or -1 with a message. */
int ssp_rules_check(const struct ssp_state *st, struct err *err);

/* ssp_text.c */
int ssp_text_parse(const struct ssp_state *st, const char *text, struct ssp_move *m, struct err *err);
void ssp_text_format(const struct ssp_move *m, struct buf *out);
const char *ssp_text_res(int r);
const char *ssp_text_resident(int k);
const char *ssp_text_track(int t);
const char *ssp_text_bonus(int b);
void ssp_text_target(int target, struct buf *out);

/* ssp_view.c */
int ssp_json_encode(const struct ssp_state *st, json_t **out, struct err *err);
int ssp_json_decode(const json_t *in, struct ssp_state *st, struct err *err);
int ssp_json_view(const struct ssp_state *st, int seat, json_t **out, struct err *err);
json_t *ssp_json_result(const struct ssp_state *st);

/*
 * ssp_bot.c: a legal step for seat into out. Level 0 draws uniformly among
 * the legal steps, level 1 is greedy (one action played out ahead). rng is the
 * bot's own generator. ERR_FORBIDDEN when seat has nothing to do.
 */
int ssp_bot_choose(const struct ssp_state *st, int seat, int level, struct rng *rng, struct ssp_move *out,
		   struct err *err);

/* ssp_story.c: the step m that seat took from before to after, as one sentence with names from seats (describe) */
int ssp_story_describe(const struct ssp_state *before, const struct ssp_state *after, const struct ssp_move *m,
		       int seat, const json_t *seats, struct buf *out);
/* ssp_story.c: the position as a few sentences for viewer (position) */
int ssp_story_position(const struct ssp_state *st, int viewer, const json_t *seats, struct buf *out);

/* ssp_picks.c: a legal step cut into the board parts a player taps (game_ops.picks) */
int ssp_picks(const void *state, int seat, const void *move, struct game_pick *out, int max, struct err *err);

/* ssp_board.c: the board as SVG, drawn from the view (game_ops.board) */
int ssp_board(const struct game_board_in *in, struct buf *out, struct err *err);

#endif
