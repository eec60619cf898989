/* games/alien-frontiers/af_board.c: the Alien Frontiers board as SVG, drawn from the game's view JSON */
/* SPDX-License-Identifier: MIT */
#include "games/alien-frontiers/af_internal.h"

#include <stdio.h>
#include <string.h>

#include "util/svg.h"
#include "util/tapdraw.h"
#include "util/banned.h"

#define W 390

static int seat_of(const json_t *ship)
{
	return svg_seat_colour(json_integer_value(json_object_get(ship, "seat")));
}

/* A die: a rounded square in the owner's colour with its value (blank for a new ship). */
static void die(struct buf *out, double x, double y, double size, const json_t *ship)
{
	int s = seat_of(ship);
	const json_t *v = json_object_get(ship, "value");
	int relic = json_is_true(json_object_get(ship, "relic"));

	buf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"3\" fill=\"%s\"%s/>", x, y,
		 size, size, relic ? "#fff" : svg_seat_fill(s), relic ? " stroke=\"#333\" stroke-dasharray=\"2 1\"" : "");
	if (json_is_integer(v))
		buf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" text-anchor=\"middle\" fill=\"%s\" "
			      "font-weight=\"700\">%lld</text>",
			 x + size / 2, y + size * 0.74, size * 0.7 > SVG_TEXT ? size * 0.7 : SVG_TEXT,
			 relic ? "#333" : svg_seat_ink(s), (long long)json_integer_value(v));
}

/* A card's name ("Data Crystal") from its id ("data-crystal"); the id when it is no card's. */
static const char *card_name(const char *id)
{
	for (int c = 0; id && c < AF_NCARD; c++)
		if (!strcmp(id, af_card_names[c].id))
			return af_card_names[c].name;
	return id ? id : "";
}

/* The board's sections: two columns of boxes, each row as tall as its taller box. */
#define COL_W ((W - 12) / 2.0)
#define DIE 18 /* a die on a facility: its value at the board's smallest text */

/* How many dice a facility box holds in a row, and the height of its box. */
static size_t fac_per_row(void)
{
	return (size_t)((COL_W - 8) / (DIE + 2));
}

/* What the facility f of the view takes and gives (af_fac_rules); "" when the view names no facility. */
static const char *fac_rule(const json_t *f)
{
	const char *id = json_string_value(json_object_get(f, "id"));

	for (int i = 0; id && i < AF_NFAC; i++)
		if (!strcmp(id, af_fac_names[i].id))
			return af_fac_rules[i];
	return "";
}

/* The height of a facility's box: its name, its dice, the Colonist Hub's tracks, its rule or what the tap costs. */
static double fac_height(const json_t *f)
{
	size_t n = json_array_size(json_object_get(f, "ships")), rows = n ? (n + fac_per_row() - 1) / fac_per_row() : 1;

	return 22 + (double)rows * (DIE + 2) + (json_is_array(json_object_get(f, "tracks")) ? SVG_LINE + 2 : 0) +
	       SVG_LINE + 2 + 4;
}

static void facility(struct buf *out, const json_t *f, const json_t *before, const json_t *seats,
		     const struct game_tapset *taps, double x, double top, double h)
{
	const json_t *ships = json_object_get(f, "ships"), *sh, *tracks = json_object_get(f, "tracks");
	const char *name = json_string_value(json_object_get(f, "name")) ? json_string_value(json_object_get(f, "name")) : "";
	const struct game_tap *tap;
	enum game_tap_look look;
	char part[48], ports[32];
	double line;
	size_t k;

	snprintf(part, sizeof(part), "fac-%s", json_string_value(json_object_get(f, "id")));
	look = game_tap_look(taps, part, 0, &tap);
	tapdraw_open(out, look, tap, seats);
	tapdraw_box(out, look, x, top, COL_W, h, 6, "#eef3fa", "#9fb3cc", "1");
	/* the ships docked of the ports open */
	snprintf(ports, sizeof(ports), "%zu/%lld", json_array_size(ships),
		 (long long)json_integer_value(json_object_get(f, "ports")));
	svg_text_fit(out, x + 5, top + 16, SVG_TEXT, COL_W - 16 - (double)strlen(ports) * SVG_TEXT * SVG_CHAR_W,
		     "font-weight=\"700\"", name, strlen(name));
	buf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"end\" fill=\"#5b6470\">%s</text>",
		 x + COL_W - 5, top + 16, SVG_TEXT, ports);
	json_array_foreach(ships, k, sh)
		die(out, x + 5 + (double)(k % fac_per_row()) * (DIE + 2), top + 22 + (double)(k / fac_per_row()) * (DIE + 2),
		    DIE, sh);
	line = top + 22 + (double)(json_array_size(ships) ? (json_array_size(ships) + fac_per_row() - 1) / fac_per_row() : 1) *
			      (DIE + 2);
	if (json_is_array(tracks)) {
		const json_t *t;
		size_t p;
		buf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" fill=\"#5b6470\">tracks:", x + 5, line + SVG_TEXT,
			 SVG_TEXT);
		json_array_foreach(tracks, p, t)
			buf_addf(out, " <tspan fill=\"%s\" font-weight=\"700\">%lld</tspan>", svg_seat_fill(p < 6 ? p : 5),
				 (long long)json_integer_value(t));
		buf_adds(out, " of 7</text>");
		line += SVG_LINE + 2;
	}
	/* what this tap costs and gives; else what the facility takes and gives, for a player learning the board */
	if (tap && tap->cost && *tap->cost)
		svg_text_fit(out, x + 5, line + SVG_TEXT, SVG_TEXT, COL_W - 10, "font-weight=\"700\" fill=\"#1f5fae\"",
			     tap->cost, strlen(tap->cost));
	else
		svg_text_fit(out, x + 5, line + SVG_TEXT, SVG_TEXT, COL_W - 10, "fill=\"#5b6470\"", fac_rule(f),
			     strlen(fac_rule(f)));
	if (tapdraw_changed(before, tapdraw_before(before, "facilities", "id", f), f))
		tapdraw_mark(out, x, top, COL_W, h);
	tapdraw_close(out, look);
}

static void facilities(struct buf *out, const json_t *view, const json_t *before, const json_t *seats,
		       const struct game_tapset *taps, double *y)
{
	const json_t *list = json_object_get(view, "facilities");

	svg_heading(out, y, W, "Orbital facilities", "ships docked / ports");
	for (size_t i = 0; i < json_array_size(list); i += 2) {
		const json_t *a = json_array_get(list, i), *b = json_array_get(list, i + 1);
		double h = fac_height(a);
		if (b && fac_height(b) > h)
			h = fac_height(b);
		if (h < 48)
			h = 48;
		facility(out, a, before, seats, taps, 4, *y, h);
		if (b)
			facility(out, b, before, seats, taps, 8 + COL_W, *y, h);
		*y += h + 4;
	}
}

/* The words beside a territory's colonies: its fields and the Relic Ship. */
static void terr_tags(struct buf *t, const json_t *terr, const json_t *relic)
{
	const json_t *fd;
	const char *id = json_string_value(json_object_get(terr, "id"));
	size_t k;

	json_array_foreach(json_object_get(terr, "fields"), k, fd) {
		const char *f = json_string_value(fd);
		buf_adds(t, t->len ? ", " : "");
		for (int i = 0; i < AF_NFIELD; i++)
			if (f && !strcmp(f, af_field_names[i].id))
				buf_adds(t, af_field_names[i].name);
	}
	if (id && json_is_string(json_object_get(relic, "where")) &&
	    !strcmp(id, json_string_value(json_object_get(relic, "where"))))
		buf_adds(t, t->len ? ", Relic Ship" : "Relic Ship");
}

/* A territory's lines under its name and colonies: its fields and the Relic Ship, what a tap costs. */
static int terr_lines(const json_t *terr, const json_t *relic, const struct game_tapset *taps, const struct game_tap **tap)
{
	const char *id = json_string_value(json_object_get(terr, "id"));
	struct buf tags = BUF_INIT;
	char part[48];
	int n;

	snprintf(part, sizeof(part), "terr-%s", id ? id : "");
	game_tap_look(taps, part, 0, tap);
	terr_tags(&tags, terr, relic);
	n = (tags.len > 0) + (*tap && (*tap)->cost && *(*tap)->cost);
	buf_release(&tags);
	return n;
}

static void territories(struct buf *out, const json_t *view, const json_t *before, const json_t *seats,
			const struct game_tapset *taps, double *y)
{
	const json_t *list = json_object_get(view, "territories"), *t;
	const json_t *relic = json_object_get(view, "relic_ship");
	size_t i;
	double row_h;
	int lines = 0;

	svg_heading(out, y, W, "The planet", NULL);
	/* all alike: as tall as the territory with most to say (its fields, the Relic Ship, a tap's cost) */
	json_array_foreach(list, i, t) {
		const struct game_tap *tap;
		int n = terr_lines(t, relic, taps, &tap);
		if (n > lines)
			lines = n;
	}
	row_h = 40 + lines * SVG_LINE + (lines ? 2 : 0);
	if (row_h < 48)
		row_h = 48;
	json_array_foreach(list, i, t) {
		double x = 4 + (double)(i % 2) * (COL_W + 4), top = *y + (double)(i / 2) * (row_h + 4);
		const json_t *ctl = json_object_get(t, "controller"), *cols = json_object_get(t, "colonies"), *c;
		const char *id = json_string_value(json_object_get(t, "id"));
		const char *name = json_string_value(json_object_get(t, "name")) ? json_string_value(json_object_get(t, "name")) : "";
		const struct game_tap *tap;
		enum game_tap_look look;
		struct buf tags = BUF_INIT;
		char part[48];
		double cx = x + 10, line = top + 40;
		size_t k;

		snprintf(part, sizeof(part), "terr-%s", id ? id : "");
		look = game_tap_look(taps, part, 0, &tap);
		tapdraw_open(out, look, tap, seats);
		/* a controlled territory outlined thick in its controller's colour */
		tapdraw_box(out, look, x, top, COL_W, row_h, 6, "#f6efe4",
			    json_is_integer(ctl) ? svg_seat_fill(json_integer_value(ctl) % 6) : "#c9b79c",
			    json_is_integer(ctl) ? "3" : "1");
		svg_text_fit(out, x + 6, top + 16, SVG_TEXT, COL_W - 12, "font-weight=\"700\"", name, strlen(name));
		json_array_foreach(cols, k, c) {
			for (json_int_t n = 0; n < json_integer_value(c) && cx < x + COL_W - 8; n++) {
				buf_addf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\" stroke=\"#fff\"/>", cx,
					 top + 29, svg_seat_fill(k % 6));
				cx += 13;
			}
		}
		terr_tags(&tags, t, relic);
		if (tags.len) {
			svg_text_fit(out, x + 6, line + SVG_TEXT - 2, SVG_TEXT, COL_W - 12, "fill=\"#6b3fa0\" font-weight=\"700\"",
				     tags.data, tags.len);
			line += SVG_LINE;
		}
		buf_release(&tags);
		if (tap && tap->cost && *tap->cost)
			svg_text_fit(out, x + 6, line + SVG_TEXT - 2, SVG_TEXT, COL_W - 12, "font-weight=\"700\" fill=\"#1f5fae\"",
				     tap->cost, strlen(tap->cost));
		if (tapdraw_changed(before, tapdraw_before(before, "territories", "id", t), t))
			tapdraw_mark(out, x, top, COL_W, row_h);
		tapdraw_close(out, look);
	}
	*y += (double)((json_array_size(list) + 1) / 2) * (row_h + 4);
}

static void tech_and_turn(struct buf *out, const json_t *view, const json_t *seats, const struct game_tapset *t,
			  double *y)
{
	const json_t *tech = json_object_get(view, "tech"), *c;
	const json_t *turn = json_object_get(view, "this_turn"), *sh;
	const double cw = (W - 16) / 3.0, h = t ? 62 : 40;
	char deck[32];
	size_t i;

	snprintf(deck, sizeof(deck), "deck %lld", (long long)json_integer_value(json_object_get(tech, "deck_size")));
	svg_heading(out, y, W, "Alien tech on display", deck);
	json_array_foreach(json_object_get(tech, "display"), i, c) {
		double x = 4 + (double)i * (cw + 4);
		const struct game_tap *tap;
		enum game_tap_look look;
		char part[48];

		snprintf(part, sizeof(part), "display-%s", json_is_string(c) ? json_string_value(c) : "");
		look = game_tap_look(t, part, 0, &tap);
		tapdraw_open(out, look, tap, seats);
		tapdraw_box(out, look, x, *y, cw, h, 5, "#fff", "#9fb3cc", "1");
		svg_text_wrap(out, x + 6, *y + 16, SVG_TEXT, cw - 12, 2, NULL,
			      json_is_string(c) ? card_name(json_string_value(c)) : "(empty)");
		if (look == GAME_TAP_OFFERED)
			buf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"middle\" font-weight=\"700\" "
				      "fill=\"#1f5fae\">claim</text>", x + cw / 2, *y + 53, SVG_TEXT);
		tapdraw_close(out, look);
	}
	*y += h + 6;
	if (!t && json_array_size(json_object_get(turn, "unplaced"))) {
		buf_addf(out, "<text x=\"8\" y=\"%.1f\" font-size=\"%d\">Ships still to place:</text>", *y + 14, SVG_TEXT);
		json_array_foreach(json_object_get(turn, "unplaced"), i, sh)
			die(out, 136 + (double)i * 22, *y + 1, 19, sh);
		*y += 24;
	}
}

/* Every part but the row of actions (act-*) is drawn in its place on the board. */
static int in_place(const void *ctx, const char *part)
{
	(void)ctx;
	return strncmp(part, "act-", 4) != 0;
}

#define AF_BOARD_MAX_DICE 16

/* The value a die of this turn shows (0: not rolled yet). */
static int die_value(const json_t *sh)
{
	return (int)json_integer_value(json_object_get(sh, "value")) & 7;
}

/*
 * The seat's own turn, on top while it builds a step: its unplaced ships as
 * big dice, its alien tech with Use and Discard, and the actions that have
 * no place of their own on the board.
 */
static void turn_area(struct buf *out, const json_t *view, const json_t *seats, int you, const struct game_tapset *t,
		      double *y)
{
	const json_t *unplaced = json_object_get(json_object_get(view, "this_turn"), "unplaced"), *sh, *c;
	const json_t *me = NULL, *p;
	int nth[16] = { 0 };
	size_t i;

	json_array_foreach(json_object_get(view, "player_state"), i, p)
		if (json_integer_value(json_object_get(p, "seat")) == you)
			me = p;
	if (json_array_size(unplaced)) {
		buf_addf(out, "<text x=\"8\" y=\"%.1f\" font-size=\"13\" font-weight=\"700\">Your ships to place</text>", *y + 13);
		*y += 20;
		const json_t *dice[AF_BOARD_MAX_DICE];
		size_t n = 0;

		/* lowest first, as a player lines up a roll (a stable sort: equal dice keep their order) */
		json_array_foreach(unplaced, i, sh) {
			size_t k = n;
			if (n == AF_BOARD_MAX_DICE)
				break;
			while (k > 0 && die_value(dice[k - 1]) > die_value(sh)) {
				dice[k] = dice[k - 1];
				k--;
			}
			dice[k] = sh;
			n++;
		}
		for (i = 0; i < n; i++) {
			int v, relic;
			const struct game_tap *tap;
			enum game_tap_look look;
			char part[16];
			double x = 4 + (double)i * 54;

			sh = dice[i];
			v = die_value(sh);
			relic = json_is_true(json_object_get(sh, "relic"));

			snprintf(part, sizeof(part), "die-%s%d", relic ? "r" : "", v);
			look = game_tap_look(t, part, nth[v | (relic ? 8 : 0)]++, &tap);
			tapdraw_open(out, look, tap, seats);
			if (look == GAME_TAP_CHOSEN || look == GAME_TAP_OFFERED)
				tapdraw_box(out, look, x, *y, 50, 50, 8, "none", "none", "0");
			die(out, x + 4, *y + 4, 42, sh);
			tapdraw_close(out, look);
		}
		*y += 56;
	}
	if (me && json_array_size(json_object_get(me, "cards"))) {
		buf_addf(out, "<text x=\"8\" y=\"%.1f\" font-size=\"13\" font-weight=\"700\">Your alien tech</text>", *y + 13);
		*y += 20;
		/* each card: its name, then Use and Discard side by side, with what each costs */
		json_array_foreach(json_object_get(me, "cards"), i, c) {
			const char *id = json_string_value(c);
			char part[64];

			if (!id)
				continue;
			svg_text_fit(out, 8, *y + 13, 13, W - 16, "font-weight=\"600\"", card_name(id), strlen(card_name(id)));
			*y += 18;
			for (int use = 1; use >= 0; use--) {
				const struct game_tap *tap;
				enum game_tap_look look;
				double x = use ? 4 : 8 + COL_W;
				int cost;

				snprintf(part, sizeof(part), "%s-%s", use ? "use" : "discard", id);
				look = game_tap_look(t, part, 0, &tap);
				cost = tap && tap->cost && *tap->cost;
				tapdraw_open(out, look, tap, seats);
				tapdraw_box(out, look, x, *y, COL_W, 48, 8, "#eef3fa", "#9fb3cc", "1");
				buf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" font-weight=\"600\">%s</text>", x + 8,
					 *y + (cost ? 20 : 29), use ? "Use" : "Discard");
				if (cost)
					svg_text_fit(out, x + 8, *y + 39, SVG_TEXT, COL_W - 16, "fill=\"#1f5fae\"", tap->cost,
						     strlen(tap->cost));
				tapdraw_close(out, look);
			}
			*y += 52;
		}
	}
	tapdraw_choices(out, t, seats, W, y, in_place, NULL);
	*y += 4;
}

#define PLAYER_H 54 /* a player's box: name and points, resources, alien tech */

static void players(struct buf *out, const json_t *view, const json_t *before, const json_t *seats, int you, double *y)
{
	const json_t *ps = json_object_get(view, "player_state"), *p, *c;
	size_t i, k;

	svg_heading(out, y, W, "Players", NULL);
	json_array_foreach(ps, i, p) {
		int s = (int)json_integer_value(json_object_get(p, "seat"));
		const char *name = json_string_value(json_object_get(json_array_get(seats, (size_t)s), "name"));
		struct buf cards = BUF_INIT;

		json_array_foreach(json_object_get(p, "cards"), k, c)
			buf_addf(&cards, "%s%s", k ? ", " : "", card_name(json_string_value(c)));
		buf_addf(out, "<g><rect x=\"4\" y=\"%.1f\" width=\"%d\" height=\"%d\" rx=\"6\" fill=\"#fff\" stroke=\"%s\" "
			      "stroke-width=\"%s\"/><rect x=\"4\" y=\"%.1f\" width=\"8\" height=\"%d\" rx=\"3\" fill=\"%s\"/>",
			 *y, W - 8, PLAYER_H, svg_seat_fill(s % 6), s == you ? "2.5" : "1", *y, PLAYER_H, svg_seat_fill(s % 6));
		{
			struct buf line = BUF_INIT;

			/* names and card lists can be long: squeezed to fit, never past the edge */
			buf_addf(&line, "%s%s", name ? name : "Player", s == you ? " (you)" : "");
			svg_text_fit(out, 18, *y + 15, 13, W - 100, "font-weight=\"700\"", line.data, line.len);
			buf_addf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"13\" text-anchor=\"end\" font-weight=\"700\">"
				      "%lld VP</text>",
				 W - 10, *y + 15, (long long)json_integer_value(json_object_get(p, "vp")));
			buf_reset(&line);
			buf_addf(&line, "fuel %lld · ore %lld · colonies left %lld · ships %lld",
				 (long long)json_integer_value(json_object_get(p, "fuel")),
				 (long long)json_integer_value(json_object_get(p, "ore")),
				 (long long)json_integer_value(json_object_get(p, "colonies_left")),
				 (long long)json_integer_value(json_object_get(p, "ships")));
			svg_text_fit(out, 18, *y + 31, SVG_TEXT, W - 30, "fill=\"#333\"", line.data, line.len);
			svg_text_fit(out, 18, *y + 46, SVG_TEXT, W - 30, "fill=\"#333\"", cards.len ? cards.data : "no alien tech",
				     cards.len ? cards.len : strlen("no alien tech"));
			buf_release(&line);
		}
		if (tapdraw_changed(before, tapdraw_before(before, "player_state", "seat", p), p))
			tapdraw_mark(out, 4, *y, W - 8, PLAYER_H);
		buf_adds(out, "</g>");
		buf_release(&cards);
		*y += PLAYER_H + 4;
	}
}

int af_board(const struct game_board_in *in, struct buf *out, struct err *err)
{
	const json_t *view = in->view, *seats = in->seats;
	int seat = in->seat;
	struct buf body = BUF_INIT;
	double y = 4;

	if (!json_is_object(view))
		return err_set(err, ERR_INPUT, "the board is drawn from a view object");
	if (in->taps)
		turn_area(&body, view, seats, seat, in->taps, &y);
	facilities(&body, view, in->before, seats, in->taps, &y);
	y += 6;
	territories(&body, view, in->before, seats, in->taps, &y);
	y += 6;
	tech_and_turn(&body, view, seats, in->taps, &y);
	y += 4;
	players(&body, view, in->before, seats, seat, &y);
	tapdraw_board(out, &body, W, (double)(int)(y + 4.5), "Alien Frontiers board", in->taps != NULL);
	buf_release(&body);
	return 0;
}
