/* tests/games/space-station-phoenix/ssp_testlib.h: helpers shared by the Space Station Phoenix tests */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_SSP_TESTLIB_H
#define TURNPOST_TESTS_SSP_TESTLIB_H

#include "engine/game.h"
#include "games/space-station-phoenix/space_station_phoenix.h"
#include "games/space-station-phoenix/ssp_internal.h"

#define G (&game_space_station_phoenix)

/* A new game (options as JSON text or NULL); aborts the test program on failure. */
struct ssp_state *t_new(int n, const char *options, uint64_t seed, struct rng *rng);
/* parse + apply one line for seat; returns the apply code, the message in err. */
int t_do(struct ssp_state *st, int seat, const char *text, struct rng *rng, struct err *err);
/* The seat pending alone (or -1). */
int t_pending_seat(const struct ssp_state *st);
/* Is text among seat's legal moves? */
int t_is_legal(const struct ssp_state *st, int seat, const char *text);
/* An empty position in the middle of a game: seat 0 to play, hubs given, no tasks. */
struct ssp_state *t_blank(int n, const int *hubs);
/* Give seat the sector id (built) with residents as text ("tbp..", '.' empty). */
void t_build(struct ssp_state *st, int seat, int id, const char *residents);
/* Play to the end with bots of the given level per seat; returns the steps taken or -1 on a failure (message in err). */
int t_play(struct ssp_state *st, const int *levels, struct rng *game_rng, struct rng *bot_rng, int max_steps,
	   int check, struct err *err);

/* The property suite (test_ssp_play.c). */
int ssp_play_register(void);
/* The ability suite (test_ssp_abilities.c). */
int ssp_abilities_register(void);

#endif
