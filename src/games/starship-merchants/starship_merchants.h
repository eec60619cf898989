/* games/starship-merchants/starship_merchants.h: the Starship Merchants game for the engine registry */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_STARSHIP_MERCHANTS_H
#define TURNPOST_GAMES_STARSHIP_MERCHANTS_H

#include "engine/game.h"

/* id "starship-merchants", 2 to 4 players; rules and notation in docs/games/starship-merchants.md. */
extern const struct game_ops game_starship_merchants;

#endif
