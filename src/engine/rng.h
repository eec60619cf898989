/* engine/rng.h: the seeded random number generator games draw from */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_RNG_H
#define TURNPOST_ENGINE_RNG_H

#include <stdint.h>

#include "util/err.h"

/*
 * xoshiro256** (Blackman and Vigna). Its whole state is these 32 bytes, which
 * the engine stores inside every snapshot, so replaying a game from its seed
 * and move log draws exactly the same numbers. Seeds come from libsodium and
 * are never shown to players.
 */
struct rng {
	uint64_t s[4];
	uint64_t draws; /* how many numbers were drawn; tells the engine a move revealed randomness */
};

/* Seed from a 64-bit value (expanded with splitmix64). */
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform integer in [0, n), without modulo bias. n must be > 0. */
uint32_t rng_below(struct rng *r, uint32_t n);
/* Uniform integer in [lo, hi]. */
int rng_range(struct rng *r, int lo, int hi);
/* A die roll 1..sides. */
int rng_die(struct rng *r, int sides);
/* Fisher-Yates shuffle of n ints. */
void rng_shuffle_int(struct rng *r, int *a, int n);

/* 64 lower-case hex digits for s[0..3], then ":" and the draw count in decimal. */
void rng_encode(const struct rng *r, char out[96]);
/* Parse what rng_encode wrote: 0, or ERR_INPUT when text is not that (then *r may be partly written). */
int rng_decode(struct rng *r, const char *text);

#endif
