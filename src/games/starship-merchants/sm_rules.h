/* games/starship-merchants/sm_rules.h: the rules of Starship Merchants: checking and applying steps */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_SM_RULES_H
#define TURNPOST_GAMES_SM_RULES_H

#include "engine/game.h"
#include "games/starship-merchants/sm_move.h"
#include "games/starship-merchants/sm_internal.h"

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

#endif
