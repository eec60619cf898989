/* util/svg.h: helpers for drawing SVG: escaped text that fits a width or wraps */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_SVG_H
#define TURNPOST_UTIL_SVG_H

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
int board_ssp_draw(const json_t *view, const json_t *seats, int seat, struct buf *out);
int board_sm_draw(const json_t *view, const json_t *seats, int seat, struct buf *out);

/* Helpers of the drawers. */
#define BOARD_CHAR_W 0.54 /* average glyph width of a sans-serif face, in ems: to wrap and fit text */
/* Append s HTML-escaped (NULL: nothing). */
void board__esc(struct buf *out, const char *s);
/*
 * A <text> of the len bytes of s (raw; escaped here) at x,y that never runs
 * wider than width: squeezed with textLength when the estimate says it would.
 * attrs (may be NULL) are extra attributes.
 */
void board__fit(struct buf *out, double x, double y, double size, double width, const char *attrs, const char *s,
		size_t len);
/*
 * s (raw) wrapped at word boundaries to lines of width px, at most max_lines
 * (the last one ends in an ellipsis when cut), as one <text> of <tspan>s.
 * Returns the number of lines.
 */
int board__wrap(struct buf *out, double x, double y, double size, double width, int max_lines, const char *attrs,
		const char *s);

#endif
