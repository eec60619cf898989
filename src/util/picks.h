/* util/picks.h: building the list of board parts a step is tapped as (for the games' picks()) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_PICKS_H
#define TURNPOST_UTIL_PICKS_H

#include "engine/game.h"

/*
 * A game's picks() (engine/game.h) fills an array of struct game_pick, one
 * per tap, in order. These build it: picks_add appends a part, then
 * picks_label and picks_cost say what that tap does and what it costs.
 * Texts longer than a field are cut to it.
 */
struct picks_cut {
	struct game_pick *out; /* the caller's array of max */
	int n, max;
	int over; /* set when more parts were added than fit: picks() must then fail */
};

/*
 * Append the part named by the format (lowered: parts are [a-z0-9-]).
 * Returns it, or NULL (over set) when out is full; picks_label and
 * picks_cost take NULL and do nothing.
 */
struct game_pick *picks_add(struct picks_cut *c, const char *part_fmt, ...) __attribute__((format(printf, 2, 3)));
void picks_label(struct game_pick *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void picks_cost(struct game_pick *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
