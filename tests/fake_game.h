/* tests/fake_game.h: a tiny game that exercises the engine core without the real games */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_FAKE_GAME_H
#define TURNPOST_TESTS_FAKE_GAME_H

#include "engine/game.h"

/*
 * "Counting race": players take turns; a turn is one or more of
 * "add N" (N = 1..3), "roll" (adds a die, a random reveal), then "end".
 * The first to reach the target (option "target", default 10) at the end of
 * their turn wins.
 */
extern const struct game_ops fake_game;

#endif
