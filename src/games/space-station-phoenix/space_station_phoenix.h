/* games/space-station-phoenix/space_station_phoenix.h: the Space Station Phoenix game (engine/game.h) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_SPACE_STATION_PHOENIX_H
#define TURNPOST_GAMES_SPACE_STATION_PHOENIX_H

#include "engine/game.h"

/*
 * Space Station Phoenix for 2 to 4 players: set-up drafts and hub choice,
 * ship actions and income, every Sector and Station Hub ability, Diplomacy
 * bonuses (with standing choices), game end and final scoring. Notation and
 * data: docs/games/space-station-phoenix.md. Options: first_game (bool),
 * hubs ("basic" | "advanced"), friendly (bool).
 */
extern const struct game_ops game_space_station_phoenix;

#endif
