/* engine/tapdraw.h: drawing the parts of a board a player taps (links, chosen and greyed parts, the row of choices) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_TAPDRAW_H
#define TURNPOST_ENGINE_TAPDRAW_H

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
 * aria-hidden), a greyed one a faded group, any other a group. Close it
 * with tapdraw_close.
 */
void tapdraw_open(struct buf *out, enum game_tap_look look, const struct game_tap *tap, const json_t *seats);
void tapdraw_close(struct buf *out, enum game_tap_look look);
/* The outline's colour (plain when neither chosen nor offered) and width of a part of the look. */
const char *tapdraw_stroke(enum game_tap_look look, const char *plain);
const char *tapdraw_width(enum game_tap_look look);
/*
 * The row of choices at *y across a board width wide while a step is built:
 * each offered part that in_place (ctx) says the board does not draw where
 * it is, as a button with what it does and costs, two to a row, each 46
 * pixels tall; *y moves past it. Nothing when t is NULL or every part is
 * drawn in place.
 */
void tapdraw_choices(struct buf *out, const struct game_tapset *t, const json_t *seats, double width, double *y,
		     int (*in_place)(const void *ctx, const char *part), const void *ctx);

#endif
