/* util/words.c: small helpers for sentences people read: names, lists, counts */
/* SPDX-License-Identifier: MIT */
#include "util/words.h"

#include <string.h>

#include "util/banned.h"

/* In the order of the seat colours of util/svg.c. */
static const char *const colour_names[] = { "Red", "Blue", "Green", "Yellow", "Purple" };

void words_seat(struct buf *out, const json_t *seats, int seat)
{
	const json_t *e;
	size_t i;

	json_array_foreach(seats, i, e) {
		const char *n = json_string_value(json_object_get(e, "name"));

		if (json_integer_value(json_object_get(e, "seat")) == seat && n && *n) {
			buf_adds(out, n);
			return;
		}
	}
	if (seat >= 0 && seat < (int)(sizeof(colour_names) / sizeof(colour_names[0])))
		buf_adds(out, colour_names[seat]);
	else
		buf_adds(out, "Someone");
}

void words_join(struct buf *out, const char *const *items, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			buf_adds(out, i == n - 1 ? " and " : ", ");
		buf_adds(out, items[i]);
	}
}

void words_ints(struct buf *out, const int *v, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			buf_adds(out, i == n - 1 ? " and " : ", ");
		buf_addf(out, "%d", v[i]);
	}
}

void words_count(struct buf *out, long n, const char *one, const char *many)
{
	buf_addf(out, "%ld %s", n, n == 1 ? one : many);
}

void words_sep(struct buf *out, size_t mark, const char *sep)
{
	if (out->len > mark)
		buf_adds(out, sep);
}
