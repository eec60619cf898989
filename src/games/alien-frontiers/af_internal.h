/* games/alien-frontiers/af_internal.h: state, moves and helpers shared by the Alien Frontiers files */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_AF_INTERNAL_H
#define TURNPOST_GAMES_AF_INTERNAL_H

#include <stdint.h>

#include "engine/game.h"
#include "games/alien-frontiers/af_data.h"

#define AF_SHIPS_PER 6
#define AF_RELIC 24 /* ship index of the Relic Ship; colour ships are seat * 6 + k */
#define AF_NSHIPS 25
#define AF_MAXHAND 7 /* six ships of your colour and the Relic Ship */
#define AF_HUB_TOP 7
#define AF_HAND_LIMIT 8

/* Where a ship is. Docked ships are at AF_LOC_FAC + facility. */
enum af_loc {
	AF_LOC_STOCK = 0, AF_LOC_BAY = 1, AF_LOC_HAND = 2, AF_LOC_BURROUGHS = 3, AF_LOC_FAC = 4
};

/* The whole game position. Plain data: copying it with memcpy is a valid copy. */
struct af_state {
	uint8_t n;        /* players */
	uint8_t cur;      /* seat whose turn it is */
	uint8_t over;     /* 1 once a player landed their last colony */
	uint8_t ender;    /* seat that ended the game */
	uint16_t turn;    /* 1-based turn counter */
	uint8_t loc[AF_NSHIPS];
	uint8_t val[AF_NSHIPS];   /* face shown, 1..6; 0 in the stock and for new ships */
	int8_t relic_owner;       /* -1 while the Relic Ship sits on Burroughs Desert */
	int16_t fuel[AF_MAXP], ore[AF_MAXP];
	uint8_t supply[AF_MAXP];  /* colonies neither landed nor on the Colonist Hub */
	uint8_t hub[AF_MAXP];     /* 0: no colony on the track; else its circle 1..7 */
	uint8_t col[AF_NTERR][AF_MAXP];
	int8_t field[AF_NFIELD];  /* territory or -1 */
	uint8_t deck[AF_NCARD], disc[AF_NCARD]; /* counts per card: the draw pile is unordered, draws are random */
	int8_t disp[3];           /* display at the Alien Artifact; -1 empty */
	uint16_t hand[AF_MAXP];   /* bit per card */
	uint8_t rolled[AF_MAXHAND], nrolled; /* this turn's roll, as rolled */
	/* this turn */
	uint16_t used;            /* cards whose power was used */
	uint8_t discarded;        /* a discard power was used */
	uint8_t art_sum;          /* value docked at the Alien Artifact since the last claim */
	uint8_t cycles;           /* cycles of the display still available */
	uint8_t mine_docked;      /* a ship was docked at the Lunar Mine (Van Vogt Mountains) */
	uint8_t hub_docked;       /* ships docked at the Colonist Hub */
	uint8_t asimov_done;      /* the Asimov Crater extra advance was given */
	uint8_t hub_excess;       /* advances beyond circle 7, usable for the next colony */
	int8_t borrow;            /* territory whose bonus the Data Crystal lends, or -1 */
	uint8_t raid;             /* a raid is owed: the next step must be a raid */
	/* derived, recomputed by af__refresh */
	int8_t ctl[AF_NTERR];
	uint8_t vp[AF_MAXP];
};

enum af_move_kind {
	AF_M_DOCK, AF_M_TRADE, AF_M_CYCLE, AF_M_CLAIM, AF_M_LAUNCH, AF_M_BUY, AF_M_USE,
	AF_M_DISCARD, AF_M_RAID, AF_M_RETURN, AF_M_END, AF_M_NKIND
};

/*
 * Ship tokens: bits 0-2 the value, bit 3 set for the Relic Ship. Plasma Cannon
 * targets add the owner's seat in bits 4-5. Every field unused by a kind is 0
 * (or -1 where noted), so two equal moves compare equal with memcmp.
 */
#define AF_TOK_RELIC 8
#define AF_TOK_VAL(t) ((t) & 7)

struct af_move {
	uint8_t kind;
	int8_t fac;    /* dock, cannon use/discard, teleporter from; else -1 */
	int8_t fac2;   /* teleporter to; else -1 */
	int8_t card;   /* use, discard, claim, raid card; else -1 */
	int8_t card2;  /* temporal warper discard: card taken; else -1 */
	int8_t terr;   /* colony target, crystal, field target, colony moved from; else -1 */
	int8_t terr2;  /* colony moved to / second colony's territory; else -1 */
	int8_t seat1;  /* colony owner / raid card victim; else -1 */
	int8_t seat2;  /* second colony owner; else -1 */
	int8_t field;  /* booster pod discard; else -1 */
	uint8_t n;     /* tokens used */
	uint8_t tok[12];
	uint8_t count; /* trades */
	uint8_t take[AF_MAXP][2]; /* raid: fuel, ore per seat; return: take[0] */
};

/* af_rules.c */
void af__move_init(struct af_move *m, int kind);
void af__move_canon(struct af_move *m);
int af__setup(struct af_state *s, int n, struct rng *rng);
void af__refresh(struct af_state *s);
/* Validate and perform m for seat. rng NULL: validate only (random draws skipped). err may be NULL. */
int af__step(struct af_state *s, int seat, const struct af_move *m, struct rng *rng, struct err *err);
/* Every legal move for seat; returns the count (at most max). */
int af__legal(const struct af_state *s, int seat, struct af_move *out, int max);
/* all 1: a superset of the legal moves, unvalidated (each must go through af__step). */
int af__candidates(const struct af_state *s, int seat, struct af_move *out, int max, int all);
int af__ship_owner(const struct af_state *s, int ship);
int af__caps(const struct af_state *s, int fac);
int af__has_bonus(const struct af_state *s, int p, int terr);
int af__colonies_left(const struct af_state *s, int p);
int af__cards(const struct af_state *s, int p);
int af__open_dock(const struct af_state *s, struct af_move *out);
int af__recount_vp(const struct af_state *s, int p);
#define AF_LEGAL_MAX 8192
#define AF_BOT_MAX 640

/* af_text.c */
int af__parse(const struct af_state *s, const char *text, struct af_move *m, struct err *err);
void af__format(const struct af_move *m, struct buf *out);

/* af_view.c */
int af__encode(const struct af_state *s, json_t **out);
int af__decode(const json_t *in, struct af_state *s, struct err *err);
int af__view(const struct af_state *s, int seat, json_t **out);
json_t *af__result(const struct af_state *s);
void af__pending(const struct af_state *s, struct game_pending *out);

/* af_bot.c */
int af__bot(const struct af_state *s, int seat, int level, struct rng *rng, struct af_move *m);

/* af_story.c: the step m that seat took from before to after, as one sentence with names from seats (describe) */
int af__describe(const struct af_state *before, const struct af_state *after, const struct af_move *m, int seat,
		 const json_t *seats, struct buf *out);
/* af_story.c: the position as a few sentences for viewer (position) */
int af__position(const struct af_state *s, int viewer, const json_t *seats, struct buf *out);

/* af_picks.c: a legal step cut into the board parts a player taps (game_ops.picks) */
int af_picks(const void *state, int seat, const void *move, struct game_pick *out, int max, struct err *err);

/* af_board.c: the board as SVG, drawn from the view (game_ops.board) */
int af_board(const struct game_board_in *in, struct buf *out, struct err *err);

#endif
