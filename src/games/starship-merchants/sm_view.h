/* games/starship-merchants/sm_view.h: what a seat sees of a Starship Merchants game, and the final result */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_SM_VIEW_H
#define TURNPOST_GAMES_SM_VIEW_H

#include <jansson.h>

#include "games/starship-merchants/sm_internal.h"

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

#endif
