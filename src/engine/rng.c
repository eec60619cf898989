/* engine/rng.c: xoshiro256** seeded through splitmix64 */
/* SPDX-License-Identifier: MIT */
#include "engine/rng.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
	r->draws = 0;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	r->draws++;
	return result;
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
	/* Lemire's nearly divisionless method */
	uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
	uint32_t l = (uint32_t)m;

	if (l < n) {
		uint32_t t = (uint32_t)(-n) % n;
		while (l < t) {
			m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
			l = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

int rng_range(struct rng *r, int lo, int hi)
{
	return lo + (int)rng_below(r, (uint32_t)(hi - lo + 1));
}

int rng_die(struct rng *r, int sides)
{
	return 1 + (int)rng_below(r, (uint32_t)sides);
}

void rng_shuffle_int(struct rng *r, int *a, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng_below(r, (uint32_t)i + 1);
		int t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

void rng_encode(const struct rng *r, char out[96])
{
	snprintf(out, 96, "%016" PRIx64 "%016" PRIx64 "%016" PRIx64 "%016" PRIx64 ":%" PRIu64,
		 r->s[0], r->s[1], r->s[2], r->s[3], r->draws);
}

int rng_decode(struct rng *r, const char *text)
{
	char part[17];
	char *end;

	if (!text || strlen(text) < 66 || text[64] != ':')
		return ERR_INPUT;
	for (int i = 0; i < 4; i++) {
		memcpy(part, text + 16 * i, 16);
		part[16] = '\0';
		for (int k = 0; k < 16; k++)
			if (!strchr("0123456789abcdef", part[k]))
				return ERR_INPUT;
		r->s[i] = strtoull(part, &end, 16);
	}
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		return ERR_INPUT;
	if (text[65] < '0' || text[65] > '9')
		return ERR_INPUT;
	r->draws = strtoull(text + 65, &end, 10);
	if (*end)
		return ERR_INPUT;
	return 0;
}
