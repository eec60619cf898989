/* http/board.h: boards drawn on the server as SVG, one drawer per game */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_BOARD_H
#define TURNPOST_HTTP_BOARD_H

#include <jansson.h>

#include "util/buf.h"

/*
 * Append an SVG of the position (the game's view JSON for seat; seat -1 is a
 * spectator; seats is the game's [{"seat","name"}] array for labels). Every
 * text in it is escaped. Returns 0, or -1 when the game has no drawer (the
 * page then lists the view).
 */
int board_svg(const char *game, const json_t *view, const json_t *seats, int seat, struct buf *out);

/* The drawers (one file per game): same contract as board_svg. */
int board_af_draw(const json_t *view, const json_t *seats, int seat, struct buf *out);

#endif
