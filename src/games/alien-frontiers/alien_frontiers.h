/* games/alien-frontiers/alien_frontiers.h: the Alien Frontiers game module */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_ALIEN_FRONTIERS_H
#define TURNPOST_GAMES_ALIEN_FRONTIERS_H

#include "engine/game.h"

/* Alien Frontiers for 2 to 4 players: rules, notation, views and bots (docs/games/alien-frontiers.md). */
extern const struct game_ops game_alien_frontiers;

#endif
