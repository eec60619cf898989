/* games/starship-merchants/sm_bot.h: computer players for Starship Merchants */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_SM_BOT_H
#define TURNPOST_GAMES_SM_BOT_H

#include "engine/rng.h"
#include "games/starship-merchants/sm_move.h"
#include "games/starship-merchants/sm_internal.h"

/*
 * A legal step for seat: level 0 picks uniformly among the legal steps,
 * level 1 is a greedy merchant (cargo first, then the best card for its
 * credits). rng is the bot's own generator. ERR_FORBIDDEN when seat has
 * nothing to do.
 */
int sm_bot_choose(const struct sm_state *s, int seat, int level, struct rng *rng, struct sm_move *out,
		  struct err *err);

#endif
