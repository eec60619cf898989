/* tests/games/bot_shape.h: how a finished game of each hosted game ended, read from its state */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_GAMES_BOT_SHAPE_H
#define TURNPOST_TESTS_GAMES_BOT_SHAPE_H

#include "engine/game.h"

struct bot_shape {
	const char *end;           /* how it ended: a rulebook condition, or what else */
	int rulebook;              /* 1 when that is one of the rule text's own ends */
	const char *unit;          /* what length counts: "rounds", "laps of the trigger player" */
	int length;                /* in that unit */
	int built[GAME_MAX_SEATS]; /* Sectors built per seat (Space Station Phoenix), else -1 */
	int incomes[GAME_MAX_SEATS]; /* Income actions per seat (Space Station Phoenix), else -1 */
	int goods[GAME_MAX_SEATS][4]; /* food, water, metal and GEMs left per seat (Space Station Phoenix) */
};

/*
 * Describe the finished game state of the game with this id (a state its
 * game_ops made; NULL only asks whether the game is known). 0, or -1 when
 * the game is not one bot_shape knows.
 */
int bot_shape_read(const char *game_id, const void *state, struct bot_shape *out);

#endif
