/* games/starship-merchants/sm_move.h: the steps of Starship Merchants and their text notation */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_SM_MOVE_H
#define TURNPOST_GAMES_SM_MOVE_H

#include "games/starship-merchants/sm_internal.h"
#include "util/buf.h"
#include "util/err.h"

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

#endif
