/* util/picks.c: building the list of board parts a step is tapped as (for the games' picks()) */
/* SPDX-License-Identifier: MIT */
#include "util/picks.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/banned.h"

struct game_pick *picks_add(struct picks_cut *c, const char *part_fmt, ...)
{
	struct game_pick *p;
	va_list ap;

	if (c->n >= c->max) {
		c->over = 1;
		return NULL;
	}
	p = &c->out[c->n++];
	memset(p, 0, sizeof(*p));
	va_start(ap, part_fmt);
	vsnprintf(p->part, sizeof(p->part), part_fmt, ap);
	va_end(ap);
	/* ids written in capitals elsewhere ("B-5") are parts too */
	for (char *s = p->part; *s; s++)
		*s = (char)tolower((unsigned char)*s);
	return p;
}

void picks_label(struct game_pick *p, const char *fmt, ...)
{
	va_list ap;

	if (!p)
		return;
	va_start(ap, fmt);
	vsnprintf(p->label, sizeof(p->label), fmt, ap);
	va_end(ap);
}

void picks_cost(struct game_pick *p, const char *fmt, ...)
{
	va_list ap;

	if (!p)
		return;
	va_start(ap, fmt);
	vsnprintf(p->cost, sizeof(p->cost), fmt, ap);
	va_end(ap);
}
