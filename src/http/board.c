/* http/board.c: boards drawn on the server as SVG, one drawer per game */
/* SPDX-License-Identifier: MIT */
#include "http/board.h"

#include <string.h>

#include "util/banned.h"

struct board_drawer {
	const char *game;
	int (*draw)(const json_t *view, const json_t *seats, int seat, struct buf *out);
};

static const struct board_drawer drawers[] = {
	{ "alien-frontiers", board_af_draw },
	{ NULL, NULL }
};

int board_svg(const char *game, const json_t *view, const json_t *seats, int seat, struct buf *out)
{
	for (const struct board_drawer *d = drawers; d->game; d++)
		if (strcmp(d->game, game) == 0)
			return d->draw(view, seats, seat, out);
	return -1;
}
