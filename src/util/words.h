/* util/words.h: small helpers for sentences people read: names, lists, counts */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_WORDS_H
#define TURNPOST_UTIL_WORDS_H

#include <jansson.h>

#include "util/buf.h"

/*
 * seat's name from seats ([{"seat": n, "name": "..."}], may be NULL), raw
 * (not escaped), appended to out. A seat without a name is called by the
 * colour of its pieces on the boards ("Red", "Blue", ...; "Someone" past
 * them), never by a number.
 */
void words_seat(struct buf *out, const json_t *seats, int seat);

/* The n texts of items as one list: "a", "a and b", "a, b and c"; nothing when n is 0. */
void words_join(struct buf *out, const char *const *items, int n);

/* The n numbers of v as one list the same way: "3", "2 and 3", "2, 3 and 4". */
void words_ints(struct buf *out, const int *v, int n);

/* "1 ship", "3 ships": n and the word that agrees with it. */
void words_count(struct buf *out, long n, const char *one, const char *many);

/*
 * Append "; " between parts of one sentence: when out is longer than mark
 * (the length it had when the sentence began), "; " first. For building
 * "A did this; B now controls that" from parts that may be missing.
 */
void words_sep(struct buf *out, size_t mark, const char *sep);

#endif
