/* util/tapdraw.h: drawing the parts of a board a player taps (links, chosen and greyed parts, the row of choices) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_TAPDRAW_H
#define TURNPOST_UTIL_TAPDRAW_H

#include <jansson.h>

#include "engine/game.h"
#include "util/buf.h"

#define TAPDRAW_HIGHLIGHT "#e0a800" /* the outline of a chosen part */
#define TAPDRAW_OFFERED "#1f5fae"   /* the outline of an offered part */

/* text (raw) with GAME_NAME_MARK and a seat's digit written as the seat's name (seats as svg_seat_name), escaped. */
void tapdraw_names(struct buf *out, const json_t *seats, const char *text);
/*
 * Open a part of the look (game_tap_look): an offered one is a link named by
 * an SVG <title> that says what the tap does and costs (its drawing is
 * aria-hidden), a greyed one a faded group (class gy), any other a group. Close it
 * with tapdraw_close.
 */
void tapdraw_open(struct buf *out, enum game_tap_look look, const struct game_tap *tap, const json_t *seats);
void tapdraw_close(struct buf *out, enum game_tap_look look);
/* The outline's colour (plain when neither chosen nor offered) and width of a part of the look. */
const char *tapdraw_stroke(enum game_tap_look look, const char *plain);
const char *tapdraw_width(enum game_tap_look look);
/* The same as a class to add to a shape's own (" on", " pk" or ""; static/style.css draws them). */
const char *tapdraw_class(enum game_tap_look look);
/*
 * The box of a part of the look: a rectangle at x, y, w wide and h tall
 * with corners of radius rx, filled with fill, outlined in stroke and width
 * when neither chosen nor offered, else as tapdraw_stroke and tapdraw_width
 * say (a chosen part golden, an offered one blue).
 */
void tapdraw_box(struct buf *out, enum game_tap_look look, double x, double y, double w, double h, double rx,
		 const char *fill, const char *stroke, const char *width);
/*
 * The first of the parts "<verb>-<id>" for each of the n verbs that is
 * offered or chosen, its look and *tap (as game_tap_look); else the last
 * one's. For a thing on the board several steps begin with (a ship to
 * run, repay or put a card on).
 */
enum game_tap_look tapdraw_look_any(const struct game_tapset *t, const char *const *verbs, size_t n, const char *id,
				    const struct game_tap **tap);
/*
 * The whole board: an SVG width wide and height tall named name (escaped
 * here), body inside. With taps in it (taps != 0) it is a group of links,
 * otherwise one picture.
 */
void tapdraw_board(struct buf *out, const struct buf *body, int width, double height, const char *name, int taps);
/*
 * The row of choices at *y across a board width wide while a step is built:
 * each offered part that in_place (ctx) says the board does not draw where
 * it is, as a button with what it does and costs, two to a row (one whose
 * words need more room has a row of its own), each 48 units tall (44 CSS
 * pixels on a phone); *y moves past it. Nothing when t is NULL or every part is
 * drawn in place.
 */
void tapdraw_choices(struct buf *out, const struct game_tapset *t, const json_t *seats, double width, double *y,
		     int (*in_place)(const void *ctx, const char *part), const void *ctx);

/*
 * Changed parts (struct game_board_in.before). tapdraw_before finds the
 * element of the before view's array list whose key has the same value as
 * now's (NULL when there is no before view, or no such element: a new
 * part). tapdraw_changed: 1 when there is a before view and was (NULL: the
 * part was not there) differs from now. tapdraw_mark draws the mark of a
 * changed part around the box x, y, w, h: a dashed orange outline of class
 * "changed" (what tests and styles look for).
 */
const json_t *tapdraw_before(const json_t *before, const char *list, const char *key, const json_t *now);
int tapdraw_changed(const json_t *before, const json_t *was, const json_t *now);
void tapdraw_mark(struct buf *out, double x, double y, double w, double h);
#define TAPDRAW_CHANGED "#e8590c" /* the outline of a changed part (static/style.css: svg .changed) */

#endif
