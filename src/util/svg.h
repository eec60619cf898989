/* util/svg.h: helpers for drawing SVG: escaped text that fits a width or wraps */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_SVG_H
#define TURNPOST_UTIL_SVG_H

#include <jansson.h>

#include "util/buf.h"

#define SVG_CHAR_W 0.54 /* average glyph width of a sans-serif face, in ems: to wrap and fit text */
/*
 * The smallest text of a board, in units of its 390-unit width: 11 CSS
 * pixels where a 390-pixel phone draws the board 358 pixels wide (the page's
 * margins taken off), with no zoom. SVG_LINE is the distance between lines.
 */
#define SVG_TEXT 12
#define SVG_LINE 14
/* The size of headings and names (class h). */
#define SVG_HEAD 13
/*
 * A board's <svg> says font-size="12" (SVG_TEXT), and its parts may use the
 * short classes of static/style.css instead of repeating attributes: text
 * h (SVG_HEAD, bold), b (bold), s (semibold), m (muted), c (the colour of
 * costs), w (a warning), e (anchored at its end), mid (at its
 * middle); shapes cb (a button of the row of choices), changed (a changed
 * part's mark), on and pk (an offered and a chosen part's outline), gy (a
 * greyed part). The text helpers here write a font-size only when the size
 * differs from what the classes say, and count a text of class b, s or h
 * as bold. The page's link to the stylesheet carries its version (web.c).
 */
/* Append s HTML-escaped (NULL: nothing). */
void svg_esc(struct buf *out, const char *s);
/*
 * A <text> of the len bytes of s (raw; escaped here) at x,y that never runs
 * wider than width: squeezed with textLength when the estimate says it would
 * a little, cut short with an ellipsis when it would by more than a tenth
 * (squeezed further, it no longer reads). attrs (may be NULL) are extra
 * attributes.
 */
void svg_text_fit(struct buf *out, double x, double y, double size, double width, const char *attrs, const char *s,
		  size_t len);
/*
 * s (raw) wrapped at word boundaries to lines of width px, at most max_lines
 * (the last one ends in an ellipsis when cut), as one <text> of <tspan>s.
 * Returns the number of lines.
 */
int svg_text_wrap(struct buf *out, double x, double y, double size, double width, int max_lines, const char *attrs,
		  const char *s);

/*
 * The colour of seat's pieces (seats 0..4 have their own; any other seat is
 * grey, index 5), and the ink that reads on it.
 */
int svg_seat_colour(long long seat);
const char *svg_seat_fill(long long seat);
const char *svg_seat_ink(long long seat);
/*
 * seat's name from seats ([{"seat": n, "name": "..."}], may be NULL),
 * escaped (raw 1: as is, for svg_text_fit, which escapes), or "Player 2"
 * when it has none.
 */
void svg_seat_name(struct buf *out, const json_t *seats, long long seat, int raw);
/*
 * A section title (SVG text, not escaped here) at *y across a board of
 * width, with an optional note (raw; escaped here) aligned right, on a
 * line of its own when it does not fit beside the title; *y moves past it.
 */
void svg_heading(struct buf *out, double *y, double width, const char *title, const char *right);

#endif
