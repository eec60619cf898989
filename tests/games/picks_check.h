/* tests/games/picks_check.h: a game's picks at one position: every legal step cut, none alike, each offered part drawn */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_PICKS_CHECK_H
#define TURNPOST_TESTS_PICKS_CHECK_H

#include "engine/game.h"

/*
 * Check ops->picks for seat at state (nplayers seats): every legal step
 * cuts into 1..GAME_MAX_PICKS parts of [a-z0-9-] with a label, no two steps
 * have the same parts, and ops->board draws every part offered first (and
 * after the first part of a few steps) as a link with its own href. Prints
 * what is wrong; returns the number of faults.
 */
int picks_check(const struct game_ops *ops, const void *state, int seat, int nplayers);

/* The parts of the step text for seat, joined by spaces, into out (size bytes), and its last pick; 0, or -1. */
int picks_of(const struct game_ops *ops, const void *state, int seat, const char *text, char *out, size_t size,
	     struct game_pick *last);

#endif
