/* tests/games/starship-merchants/sm_testlib.h: helpers shared by the Starship Merchants tests */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_SM_TESTLIB_H
#define TURNPOST_TESTS_SM_TESTLIB_H

#include <stddef.h>

#include "engine/game.h"
#include "games/starship-merchants/sm_internal.h"

/* A new game through the game_ops table; the game rng is seeded with seed. */
struct sm_state *t_new(int n, uint64_t seed, struct rng *rng);
/* Parse and apply one line as seat through game_ops; returns apply's result or the error code. */
int t_do(struct sm_state *s, int seat, const char *text, struct rng *rng, struct err *e);
/* Apply one line as the current seat; a CUnit failure (with the message) when it is refused. */
int t_ok(struct sm_state *s, const char *text, struct rng *rng);
/* Give seat a ship of this Mark and type (numbered like a bought one); returns its number. */
int t_give_ship(struct sm_state *s, int seat, int mark, int type, int loans);
/* 1 when the legal list for seat contains text. */
int t_legal_has(const struct sm_state *s, int seat, const char *text);
/* Invariants: 0 when all hold, else -1 with the reason in why. */
int t_invariants(const struct sm_state *s, const int totals[SM_NKINDS], char *why, size_t size);

#endif
