/* util/tapdraw.c: drawing the parts of a board a player taps (links, chosen and greyed parts, the row of choices) */
/* SPDX-License-Identifier: MIT */
#include "util/tapdraw.h"

#include <stdio.h>

#include "util/svg.h"
#include "util/banned.h"

/* text with the seats' names written in (raw: escaped as svg_seat_name's raw says). */
static void names(struct buf *out, const json_t *seats, const char *text, int raw)
{
	for (; *text; text++) {
		if (*text == GAME_NAME_MARK && text[1] >= '0' && text[1] < '0' + GAME_MAX_SEATS) {
			svg_seat_name(out, seats, text[1] - '0', raw);
			text++;
		} else if (raw) {
			buf_addc(out, *text);
		} else {
			char c[2] = { *text, '\0' };
			svg_esc(out, c);
		}
	}
}

void tapdraw_names(struct buf *out, const json_t *seats, const char *text)
{
	names(out, seats, text, 0);
}

void tapdraw_open(struct buf *out, enum game_tap_look look, const struct game_tap *tap, const json_t *seats)
{
	if (look == GAME_TAP_OFFERED) {
		/* named by what the tap does (its title), not by what it shows */
		buf_adds(out, "<a class=\"tap\" href=\"");
		svg_esc(out, tap->href);
		buf_adds(out, "\"><title>");
		tapdraw_names(out, seats, tap->label);
		if (tap->cost && *tap->cost) {
			buf_adds(out, " (");
			tapdraw_names(out, seats, tap->cost);
			buf_adds(out, ")");
		}
		buf_adds(out, "</title><g aria-hidden=\"true\">");
	} else if (look == GAME_TAP_GREY) {
		buf_adds(out, "<g class=\"gy\">");
	} else {
		buf_adds(out, "<g>");
	}
}

void tapdraw_close(struct buf *out, enum game_tap_look look)
{
	buf_adds(out, look == GAME_TAP_OFFERED ? "</g></a>" : "</g>");
}

const char *tapdraw_stroke(enum game_tap_look look, const char *plain)
{
	return look == GAME_TAP_CHOSEN ? TAPDRAW_HIGHLIGHT : look == GAME_TAP_OFFERED ? TAPDRAW_OFFERED : plain;
}

const char *tapdraw_width(enum game_tap_look look)
{
	return look == GAME_TAP_CHOSEN ? "3" : look == GAME_TAP_OFFERED ? "2" : "1";
}

void tapdraw_box(struct buf *out, enum game_tap_look look, double x, double y, double w, double h, double rx,
		 const char *fill, const char *stroke, const char *width)
{
	int plain = look == GAME_TAP_PLAIN || look == GAME_TAP_GREY;

	buf_addf(out, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"%g\" fill=\"%s\" stroke=\"%s\" "
		      "stroke-width=\"%s\"/>", x, y, w, h, rx, fill, tapdraw_stroke(look, stroke),
		 plain ? width : tapdraw_width(look));
}

enum game_tap_look tapdraw_look_any(const struct game_tapset *t, const char *const *verbs, size_t n, const char *id,
				    const struct game_tap **tap)
{
	enum game_tap_look look = GAME_TAP_PLAIN;

	*tap = NULL;
	for (size_t i = 0; i < n; i++) {
		char part[64];

		snprintf(part, sizeof(part), "%s-%s", verbs[i], id);
		look = game_tap_look(t, part, 0, tap);
		if (look == GAME_TAP_OFFERED || look == GAME_TAP_CHOSEN)
			return look;
	}
	return look;
}

void tapdraw_board(struct buf *out, const struct buf *body, int width, double height, const char *name, int taps)
{
	buf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %g\" role=\"%s\" aria-label=\"",
		 width, height, taps ? "group" : "img");
	svg_esc(out, name);
	buf_addf(out, "\" font-family=\"system-ui, sans-serif\" font-size=\"%d\" fill=\"#1b1f24\">", SVG_TEXT);
	buf_add(out, body->data, body->len);
	buf_adds(out, "</svg>");
}

const char *tapdraw_class(enum game_tap_look look)
{
	return look == GAME_TAP_CHOSEN ? " pk" : look == GAME_TAP_OFFERED ? " on" : "";
}

/* The height of a button of the row of choices: 44 CSS pixels where the 390-unit board is 358 pixels wide. */
#define CHOICE_H 48

/* Does a choice's label and cost fit half the row (a button of width w) at the board's smallest text? */
static int fits_half(const struct buf *label, const struct buf *cost, double w)
{
	return (double)label->len * SVG_TEXT * SVG_CHAR_W <= w && (double)cost->len * SVG_TEXT * SVG_CHAR_W <= w;
}

void tapdraw_choices(struct buf *out, const struct game_tapset *t, const json_t *seats, double width, double *y,
		     int (*in_place)(const void *ctx, const char *part), const void *ctx)
{
	const double half = (width - 12) / 2.0;
	double col = 0, top;
	int k = 0;

	if (!t)
		return;
	for (int i = 0; i < t->nnext; i++)
		k += !in_place(ctx, t->next[i].part);
	if (!k)
		return;
	svg_heading(out, y, width, "Your choices", NULL);
	top = *y;
	/* two to a row; a choice whose words need more room takes a row of its own */
	for (int i = 0; i < t->nnext; i++) {
		const struct game_tap *tap = &t->next[i];
		struct buf l = BUF_INIT, c = BUF_INIT;
		double x, bw;
		if (in_place(ctx, tap->part))
			continue;
		names(&l, seats, tap->label, 1);
		if (tap->cost)
			names(&c, seats, tap->cost, 1);
		bw = fits_half(&l, &c, half - 12) ? half : width - 8;
		if (col > 0 && bw > half) {
			top += CHOICE_H + 4;
			col = 0;
		}
		x = 4 + col;
		tapdraw_open(out, GAME_TAP_OFFERED, tap, seats);
		buf_addf(out, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%d\" rx=\"6\" class=\"cb\"/>", x, top, bw, CHOICE_H);
		svg_text_fit(out, x + 6, top + (c.len ? 20 : 29), SVG_TEXT, bw - 12, "class=\"b\"", l.data, l.len);
		if (c.len)
			svg_text_fit(out, x + 6, top + 39, SVG_TEXT, bw - 12, "class=\"c\"", c.data, c.len);
		buf_release(&l);
		buf_release(&c);
		tapdraw_close(out, GAME_TAP_OFFERED);
		if (bw > half || col > 0) {
			top += CHOICE_H + 4;
			col = 0;
		} else {
			col = half + 4;
		}
	}
	*y = top + (col > 0 ? CHOICE_H + 4 : 0) + 4;
}

const json_t *tapdraw_before(const json_t *before, const char *list, const char *key, const json_t *now)
{
	const json_t *want = json_object_get(now, key), *e;
	size_t i;

	if (!before || !want)
		return NULL;
	json_array_foreach(json_object_get(before, list), i, e)
		if (json_equal(json_object_get(e, key), want))
			return e;
	return NULL;
}

int tapdraw_changed(const json_t *before, const json_t *was, const json_t *now)
{
	return before && !json_equal(was, now);
}

void tapdraw_mark(struct buf *out, double x, double y, double w, double h)
{
	buf_addf(out, "<rect class=\"changed\" x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"6\"><title>changed "
		      "since your last turn</title></rect>", x - 1.5, y - 1.5, w + 3, h + 3);
}
