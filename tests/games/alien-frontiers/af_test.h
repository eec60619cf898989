/* tests/games/alien-frontiers/af_test.h: helpers shared by the Alien Frontiers test files */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_AF_TEST_H
#define TURNPOST_TESTS_AF_TEST_H

#include "games/alien-frontiers/af_internal.h"

/* Parse text and apply it for the seat whose turn it is; the error code (0 on success). */
int af_test_step(struct af_state *s, const char *text, struct rng *rng, struct err *e);
/* Independent recount of p's victory points from colonies, control, cards and the Positron Field. */
int af_test_vp(const struct af_state *s, int p);
/* Check every invariant; returns NULL or a description of the first broken one (static text). */
const char *af_test_invariants(const struct af_state *s, const int *supply0);

int af_test_register_suites(void);

#endif
