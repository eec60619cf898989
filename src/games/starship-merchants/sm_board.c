/* games/starship-merchants/sm_board.c: the Starship Merchants board as SVG, drawn from the game's view JSON */
/* SPDX-License-Identifier: MIT */
#include "games/starship-merchants/sm_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/svg.h"
#include "util/tapdraw.h"
#include "util/banned.h"

#define W 390


/* The circuit in clockwise order, as the view names the places. */
static const char *const places[] = { "Shipyard", "Market", "Belt", "Dock" };

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static long long num(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

static const char *token_fill(const char *slug)
{
	static const struct { const char *slug, *fill; } t[] = {
		{ "ice-9", "#7cc8ee" }, { "deuterium", "#a98bd6" }, { "cobalt", "#2850b8" },
		{ "iridium", "#9aa0a6" }, { "xenite", "#3f9d4a" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(slug, t[i].slug))
			return t[i].fill;
	return "#555";
}

/*
 * Tokens of a {"ice-9": n, ...} object as chips (a disc in the kind's colour
 * with its name and the count) from x on the line at *y (the discs' centre); claimed (may
 * be NULL) ones get a dark ring. A chip that would run past the board's edge
 * starts a new line at left, and *y moves to it. "none" when there are none.
 */
static void chips(struct buf *out, double x, double left, double *y, const json_t *counts, const json_t *claimed)
{
	const char *k;
	const json_t *v;
	int any = 0;

	json_object_foreach((json_t *)counts, k, v) {
		long long n = (long long)json_integer_value(v), c = num(claimed, k);
		const char *name = sm_slug_name(k);
		double w = 19 + (double)(strlen(name) + 3 + (c > 0)) * SVG_TEXT * SVG_CHAR_W;
		if (n <= 0)
			continue;
		if (any && x + w > W - 4) {
			x = left;
			*y += SVG_LINE + 2;
		}
		any = 1;
		buf_addf(out, "<circle cx=\"%g\" cy=\"%g\" r=\"6.5\" fill=\"%s\"%s/>", x + 6.5, *y, token_fill(k),
			 c > 0 ? " stroke=\"#1b1f24\" stroke-width=\"1.6\"" : "");
		buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"%d\">", x + 16, *y + 4.5, SVG_TEXT);
		svg_esc(out, name);
		buf_addf(out, " %lld%s</text>", n, c > 0 ? "*" : "");
		x += w;
	}
	if (!any)
		buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"%d\" fill=\"#8a8f98\">none</text>", x, *y + 4.5, SVG_TEXT);
}

/* ------------------------------------------------------------------ taps */

/* The slug is in the list of cards (an array of objects with "slug"). */
static int has_slug(const json_t *list, const char *slug)
{
	const json_t *c;
	size_t i;

	json_array_foreach(list, i, c)
		if (!strcmp(str(c, "slug"), slug))
			return 1;
	return 0;
}

/* Is the part drawn in place on this board? (Every other offered part is a button in the row of choices.) */
static int drawn_in_place(const json_t *view, const char *part)
{
	static const char *const ship_verbs[] = { "ship-", "run-ship-", "repay-ship-" };
	const json_t *m = json_object_get(view, "market"), *p, *sh;
	long long you = json_is_integer(json_object_get(view, "you")) ? num(view, "you") : -1;
	size_t i, k;

	if (!strncmp(part, "card-", 5))
		return has_slug(json_object_get(m, "cards"), part + 5) || has_slug(json_object_get(m, "refineries"), part + 5);
	if (!strncmp(part, "dest-", 5))
		return has_slug(json_object_get(json_object_get(view, "belt"), "destinations"), part + 5);
	if (!strncmp(part, "transfer-", 9))
		return has_slug(json_object_get(json_object_get(view, "salvage"), "cards"), part + 9);
	json_array_foreach(json_object_get(view, "seats"), i, p) {
		if (num(p, "seat") != you)
			continue;
		if (!strcmp(part, "act-stay") || !strcmp(part, "act-move")) {
			for (int q = 0; q < 4; q++)
				if (!strcmp(str(p, "place"), places[q]))
					return 1;
			return 0;
		}
		for (size_t v = 0; v < sizeof(ship_verbs) / sizeof(ship_verbs[0]); v++) {
			size_t len = strlen(ship_verbs[v]);
			if (strncmp(part, ship_verbs[v], len))
				continue;
			json_array_foreach(json_object_get(p, "ships"), k, sh)
				if (num(sh, "no") == strtoll(part + len, NULL, 10))
					return 1;
			return 0;
		}
	}
	return 0;
}

static int in_place(const void *view, const char *part)
{
	return drawn_in_place(view, part);
}

/* The row of choices at the top of the board while a step is built: the offered parts not drawn in place. */
static void choices(struct buf *out, const struct game_tapset *t, const json_t *view, const json_t *seats, double *y)
{
	tapdraw_choices(out, t, seats, W, y, in_place, view);
}

/* ------------------------------------------------------------------ the circuit */

/* The first letter of seat's name (a whole UTF-8 character), escaped: what the seat's token shows. */
static void initial(struct buf *out, const json_t *seats, long long seat)
{
	struct buf n = BUF_INIT;
	size_t len = 1;

	svg_seat_name(&n, seats, seat, 1);
	while (len < n.len && ((unsigned char)n.data[len] & 0xc0) == 0x80)
		len++;
	if (n.len) {
		char c[8] = "";
		memcpy(c, n.data, len < sizeof(c) ? len : sizeof(c) - 1);
		svg_esc(out, c);
	}
	buf_release(&n);
}

static void circuit(struct buf *out, const json_t *view, const json_t *seats, const struct game_tapset *taps,
		    double *y)
{
	const json_t *ps = json_object_get(view, "seats"), *p;
	const double bw = (W - 8 - 14) / 2.0, bh = 52;
	/* clockwise round a square: Shipyard top left, Market top right, Belt bottom right, Dock bottom left */
	static const int col[] = { 0, 1, 1, 0 }, row[] = { 0, 0, 1, 1 };
	long long turn = json_is_integer(json_object_get(view, "turn")) ? num(view, "turn") : -1;
	long long you = json_is_integer(json_object_get(view, "you")) ? num(view, "you") : -1;
	int here = -1;
	size_t i;
	char right[64];

	/* where you are: staying acts there, moving acts in the next quadrant */
	json_array_foreach(ps, i, p)
		if (num(p, "seat") == you)
			for (int q = 0; q < 4; q++)
				if (!strcmp(str(p, "place"), places[q]))
					here = q;

	snprintf(right, sizeof(right), "Mark %lld era · %lld turns played", num(view, "era"), num(view, "turns_played"));
	svg_heading(out, y, W, "The circuit", right);
	for (int q = 0; q < 4; q++) {
		double x = 4 + col[q] * (bw + 14), top = *y + row[q] * (bh + 12);
		int k = 0;
		const struct game_tap *tap = NULL;
		enum game_tap_look look = GAME_TAP_PLAIN;
		if (here >= 0 && q == here)
			look = game_tap_look(taps, "act-stay", 0, &tap);
		else if (here >= 0 && q == (here + 1) % 4)
			look = game_tap_look(taps, "act-move", 0, &tap);
		else if (taps)
			look = GAME_TAP_GREY;
		tapdraw_open(out, look, tap, seats);
		tapdraw_box(out, look, x, top, bw, bh, 8, "#eef3fa", "#9fb3cc", "1");
		buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"13\" font-weight=\"700\">%d. %s</text>", x + 7, top + 16,
			 q + 1, places[q]);
		if (tap)
			buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"%d\" text-anchor=\"end\" fill=\"%s\" "
				      "font-weight=\"700\">%s</text>", x + bw - 7, top + 16, SVG_TEXT, TAPDRAW_OFFERED,
				 !strcmp(tap->part, "act-stay") ? "stay here" : "move here");
		json_array_foreach(ps, i, p) {
			long long s = num(p, "seat");
			int c = svg_seat_colour(s);
			if (strcmp(str(p, "place"), places[q]))
				continue;
			buf_adds(out, "<g><title>");
			svg_seat_name(out, seats, s, 0);
			buf_addf(out, "</title><circle cx=\"%g\" cy=\"%g\" r=\"%s\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"/>"
				      "<text x=\"%g\" y=\"%g\" font-size=\"%d\" font-weight=\"700\" text-anchor=\"middle\" fill=\"%s\">",
				 x + 17 + k * 26, top + 35, s == turn ? "11" : "10", svg_seat_fill(c), s == turn ? "#1b1f24" : "#fff",
				 x + 17 + k * 26, top + 39.5, SVG_TEXT, svg_seat_ink(c));
			initial(out, seats, s);
			buf_adds(out, "</text></g>");
			k++;
		}
		tapdraw_close(out, look);
	}
	/* arrows between the quadrants, clockwise */
	buf_addf(out, "<g fill=\"#5b6470\" font-size=\"13\" text-anchor=\"middle\">"
		      "<text x=\"%d\" y=\"%g\">\xe2\x86\x92</text><text x=\"%g\" y=\"%g\">\xe2\x86\x93</text>"
		      "<text x=\"%d\" y=\"%g\">\xe2\x86\x90</text><text x=\"%g\" y=\"%g\">\xe2\x86\x91</text></g>",
		 W / 2, *y + bh / 2 + 4, 4 + bw * 1.5 + 14, *y + bh + 10, W / 2, *y + bh * 1.5 + 16, 4 + bw / 2, *y + bh + 10);
	*y += 2 * bh + 12 + 6;
	if (json_is_integer(json_object_get(view, "triggered_by"))) {
		struct buf t = BUF_INIT;
		buf_adds(&t, "End triggered by ");
		svg_seat_name(&t, seats, num(view, "triggered_by"), 1);
		buf_adds(&t, json_is_true(json_object_get(view, "final_circuit")) ? ": final circuit to the Dock" : "");
		buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"20\" rx=\"4\" fill=\"#ffe9a8\"/>", *y, W - 8);
		svg_text_fit(out, 10, *y + 14.5, SVG_TEXT, W - 20, "font-weight=\"600\"", t.data, t.len);
		buf_release(&t);
		*y += 24;
	}
}

/* ------------------------------------------------------------------ shipyard, market, belt */

static void shipyard(struct buf *out, const json_t *view, double *y)
{
	const json_t *list = json_object_get(view, "shipyard"), *s;
	long long era = num(view, "era");
	size_t i;
	double x = 4;
	struct buf later = BUF_INIT;

	svg_heading(out, y, W, "1. Shipyard", "lease: half now, 2 loans of half");
	json_array_foreach(list, i, s) {
		long long mark = num(s, "mark");
		if (mark == era) {
			double w = (W - 12) / 2.0;
			int sold = num(s, "left") <= 0;
			buf_addf(out, "<g><rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"50\" rx=\"6\" fill=\"%s\" stroke=\"#9fb3cc\"/>"
				      "<text x=\"%g\" y=\"%g\" font-size=\"13\" font-weight=\"700\">Mark %lld ",
				 x, *y, w, sold ? "#e3e5e8" : "#fff", x + 7, *y + 16, mark);
			svg_esc(out, sm_slug_name(str(s, "type")));
			buf_addf(out, "</text><text x=\"%g\" y=\"%g\" font-size=\"%d\" text-anchor=\"end\" fill=\"%s\" font-weight=\"600\">"
				      "%lld left</text>"
				      "<text x=\"%g\" y=\"%g\" font-size=\"%d\" fill=\"#333\">%lld cr (lease %lld)"
				      "<tspan x=\"%g\" dy=\"%d\">energy %lld · cargo %lld</tspan></text></g>",
				 x + w - 7, *y + 16, SVG_TEXT, sold ? "#a3261b" : "#2e7d32", num(s, "left"), x + 7, *y + 31, SVG_TEXT,
				 num(s, "cost"), num(s, "cost") / 2, x + 7, SVG_LINE, num(s, "energy"), num(s, "cargo"));
			x += w + 4;
		} else if (mark > era && !strcmp(str(s, "type"), "scout")) {
			buf_addf(&later, "%sMark %lld %lld cr", later.len ? " · " : "later: ", mark, num(s, "cost"));
		}
	}
	*y += 54;
	if (era >= 3)
		buf_addf(&later, "%sMark %lld ships are obsolete", later.len ? "; " : "", era - 2);
	if (later.len) {
		*y += SVG_LINE * svg_text_wrap(out, 8, *y + 11, SVG_TEXT, W - 16, 2, "fill=\"#5b6470\"", later.data) + 2;
	}
	buf_release(&later);
}

/* What kind of card c is, and where it goes: its line under the name. */
static void card_kind(struct buf *out, const json_t *c)
{
	const char *type = str(c, "type");

	if (!strcmp(type, "pilot"))
		buf_adds(out, "Pilot · one per ship");
	else if (!strcmp(type, "gear"))
		buf_addf(out, "Gear · up to %d per ship", SM_MAX_GEAR);
	else if (!strcmp(type, "refinery"))
		buf_adds(out, "Refinery · all your ships");
	else
		buf_adds(out, "Destination · ends a run");
}

/* Cards (market, refineries, destinations) two to a row: name, cost, kind, effect. */
static void cards(struct buf *out, const json_t *list, const char *cost_unit, int dim, const char *prefix,
		  const json_t *seats, const struct game_tapset *taps, double *y)
{
	const json_t *c;
	size_t n = json_array_size(list);
	const double w = (W - 12) / 2.0;

	for (size_t r = 0; r < (n + 1) / 2; r++) {
		double h = 0;
		struct buf body[2] = { BUF_INIT, BUF_INIT };
		int lines[2] = { 0, 0 };
		for (size_t k = 0; k < 2 && r * 2 + k < n; k++) {
			c = json_array_get(list, r * 2 + k);
			lines[k] = svg_text_wrap(&body[k], 4 + (double)k * (w + 4) + 7, *y + 46, SVG_TEXT, w - 12, 5,
					       "fill=\"#333\"", str(c, "text"));
			if (35 + lines[k] * SVG_LINE + 5 > h)
				h = 35 + lines[k] * SVG_LINE + 5;
		}
		for (size_t k = 0; k < 2 && r * 2 + k < n; k++) {
			double x = 4 + (double)k * (w + 4);
			const struct game_tap *tap;
			enum game_tap_look look;
			char part[64];
			c = json_array_get(list, r * 2 + k);
			snprintf(part, sizeof(part), "%s%s", prefix, str(c, "slug"));
			look = game_tap_look(taps, part, 0, &tap);
			tapdraw_open(out, look, tap, seats);
			buf_adds(out, dim ? "<g opacity=\".55\">" : "<g>");
			tapdraw_box(out, look, x, *y, w, h, 6, "#fff", "#9fb3cc", "1");
			{
				char cost[48];
				snprintf(cost, sizeof(cost), "%lld %s", num(c, "cost"), cost_unit);
				svg_text_fit(out, x + 7, *y + 16, 13, w - 20 - (double)strlen(cost) * SVG_TEXT * 0.6,
					     "font-weight=\"700\"", str(c, "name"), strlen(str(c, "name")));
				buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"%d\" text-anchor=\"end\" fill=\"#1f5fae\" "
					      "font-weight=\"700\">%s</text>", x + w - 7, *y + 16, SVG_TEXT, cost);
			}
			/* what kind of card it is and where it goes, as the rulebook says it */
			buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"%d\" fill=\"#5b6470\">", x + 7, *y + 31, SVG_TEXT);
			card_kind(out, c);
			buf_adds(out, "</text>");
			buf_add(out, body[k].data, body[k].len);
			buf_adds(out, "</g>");
			tapdraw_close(out, look);
		}
		buf_release(&body[0]);
		buf_release(&body[1]);
		*y += h + 4;
	}
}

static void market(struct buf *out, const json_t *view, const json_t *seats, const struct game_tapset *taps, double *y)
{
	const json_t *m = json_object_get(view, "market");
	char right[64];
	int open = json_is_true(json_object_get(m, "refineries_open"));

	snprintf(right, sizeof(right), "deck %lld · refinery deck %lld", num(m, "deck"), num(m, "refinery_deck"));
	svg_heading(out, y, W, "2. Market", right);
	cards(out, json_object_get(m, "cards"), "cr", 0, "card-", seats, taps, y);
	*y += SVG_LINE * svg_text_wrap(out, 6, *y + 12, SVG_TEXT, W - 12, 2, "font-weight=\"600\"",
				       open ? "Refineries (for all your ships)" : "Refineries: on sale once a player has left the Dock") + 3;
	cards(out, json_object_get(m, "refineries"), "cr", !open, "card-", seats, taps, y);
}

/* The running ship no of the seat whose turn it is, as the taps name ships: "Ann's Tug 2". */
static void run_ship(struct buf *t, const json_t *view, const json_t *seats, long long no)
{
	const json_t *p, *sh;
	size_t i, k;

	json_array_foreach(json_object_get(view, "seats"), i, p) {
		if (!json_is_integer(json_object_get(view, "turn")) || num(p, "seat") != num(view, "turn"))
			continue;
		json_array_foreach(json_object_get(p, "ships"), k, sh) {
			if (num(sh, "no") != no)
				continue;
			svg_seat_name(t, seats, num(p, "seat"), 1);
			buf_addf(t, "'s %s %lld", sm_slug_name(str(sh, "type")), no);
			return;
		}
	}
	buf_addf(t, "ship %lld", no);
}

static void belt(struct buf *out, const json_t *view, const json_t *seats, const struct game_tapset *taps, double *y)
{
	const json_t *b = json_object_get(view, "belt"), *k, *run = json_object_get(view, "run");
	size_t i;
	char right[64];
	double x = 8;

	snprintf(right, sizeof(right), "bag %lld · destination deck %lld", num(b, "bag"), num(b, "destination_deck"));
	svg_heading(out, y, W, "3. Belt", right);
	json_array_foreach(json_object_get(b, "kinds"), i, k) {
		double w = 24 + (double)(strlen(str(k, "name")) + 3) * SVG_TEXT * SVG_CHAR_W;
		if (x > 8 && x + w > W - 4) {
			x = 8;
			*y += SVG_LINE + 3;
		}
		buf_addf(out, "<circle cx=\"%g\" cy=\"%g\" r=\"6\" fill=\"%s\"/><text x=\"%g\" y=\"%g\" font-size=\"%d\">",
			 x + 6, *y + 8, token_fill(str(k, "slug")), x + 15, *y + 12.5, SVG_TEXT);
		svg_esc(out, str(k, "name"));
		buf_addf(out, " %lld</text>", num(k, "value"));
		x += w;
	}
	*y += 19;
	buf_addf(out, "<text x=\"8\" y=\"%g\" font-size=\"%d\" fill=\"#5b6470\">credits per token at the Dock; * = claimed</text>",
		 *y + 8, SVG_TEXT);
	*y += 16;
	{
		double line = *y + 8;
		buf_addf(out, "<text x=\"8\" y=\"%g\" font-size=\"%d\" font-weight=\"600\">Known space</text>", *y + 12.5,
			 SVG_TEXT);
		chips(out, 100, 100, &line, json_object_get(b, "known"), NULL);
		*y = line + 12;
	}
	if (json_is_object(run)) {
		struct buf t = BUF_INIT;
		buf_adds(&t, "Run: ");
		run_ship(&t, view, seats, num(run, "ship"));
		buf_addf(&t, ", %lld energy left", num(run, "energy"));
		if (json_is_string(json_object_get(run, "drawn")))
			buf_addf(&t, "; explored %s: load it or leave it", sm_slug_name(str(run, "drawn")));
		{
			/* on two lines when the explored token's choice makes it long: never cut */
			struct buf words = BUF_INIT;
			int lines = svg_text_wrap(&words, 10, *y + 14.5, SVG_TEXT, W - 20, 2, "font-weight=\"600\"", t.data);

			buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"%d\" rx=\"4\" fill=\"#fff4cc\" "
				      "stroke=\"#e0a800\"/>", *y, W - 8, 6 + lines * SVG_LINE);
			buf_add(out, words.data, words.len);
			buf_release(&words);
			*y += 10 + lines * SVG_LINE;
		}
		buf_release(&t);
	}
	buf_addf(out, "<text x=\"6\" y=\"%g\" font-size=\"%d\" font-weight=\"600\">Destinations (cost in energy)</text>",
		 *y + 12, SVG_TEXT);
	*y += 17;
	cards(out, json_object_get(b, "destinations"), "energy", 0, "dest-", seats, taps, y);
}

/* ------------------------------------------------------------------ players */

/* The look of your ship numbered no: its part is a card's ship, the run, or the repayment. */
static enum game_tap_look ship_look(const struct game_tapset *taps, long long no, const struct game_tap **tap)
{
	static const char *const verbs[] = { "ship", "run-ship", "repay-ship" };
	char id[24];

	snprintf(id, sizeof(id), "%lld", no);
	return tapdraw_look_any(taps, verbs, sizeof(verbs) / sizeof(verbs[0]), id, tap);
}

#define SM_SHIP_MIN_H 48 /* a tap target: 44 CSS pixels where the 390-unit board is 358 pixels wide */

/*
 * A ship: its name with its energy and hold on the right, then its cargo,
 * then a line each for where it is bound, its loans, and its pilot and gear
 * (when it has them).
 */
static void ship_box(struct buf *out, const json_t *sh, int running, int mine, const json_t *seats,
		     const struct game_tapset *taps, double *y)
{
	const json_t *gear = json_object_get(sh, "gear"), *g;
	long long load = 0, cap = num(sh, "capacity");
	int obsolete = json_is_true(json_object_get(sh, "obsolete"));
	struct buf t = BUF_INIT, lines = BUF_INIT;
	const char *k;
	const json_t *v;
	size_t i;
	double top = *y, line, h;

	json_object_foreach(json_object_get(sh, "cargo"), k, v)
		load += (long long)json_integer_value(v);
	const struct game_tap *tap = NULL;
	enum game_tap_look look = mine ? ship_look(taps, num(sh, "no"), &tap) : taps ? GAME_TAP_GREY : GAME_TAP_PLAIN;

	/* the lines under the cargo, drawn into lines first: the box's height depends on them */
	line = top + 16 + 20;
	if (load)
		chips(&lines, 20, 20, &line, json_object_get(sh, "cargo"), json_object_get(sh, "claimed"));
	else
		buf_addf(&lines, "<text x=\"20\" y=\"%g\" font-size=\"%d\" fill=\"#8a8f98\">empty hold</text>", line + 4.5,
			 SVG_TEXT);
	line += 10;
	if (json_is_string(json_object_get(sh, "destination")) || num(sh, "payment")) {
		if (json_is_string(json_object_get(sh, "destination")))
			buf_addf(&t, "bound for the %s", sm_slug_name(str(sh, "destination")));
		if (num(sh, "payment"))
			buf_addf(&t, "%spays %lld at the Dock", t.len ? " · " : "", num(sh, "payment"));
		svg_text_fit(&lines, 20, line + SVG_TEXT, SVG_TEXT, W - 40, "fill=\"#1f5fae\" font-weight=\"600\"", t.data, t.len);
		line += SVG_LINE + 1;
		buf_reset(&t);
	}
	if (num(sh, "loans"))
		buf_addf(&t, "%lld loan%s of %lld", num(sh, "loans"), num(sh, "loans") == 1 ? "" : "s", num(sh, "marker_cost"));
	if (obsolete)
		buf_adds(&t, t.len ? " · OBSOLETE" : "OBSOLETE");
	if (t.len) {
		svg_text_fit(&lines, 20, line + SVG_TEXT, SVG_TEXT, W - 40, "fill=\"#a3261b\"", t.data, t.len);
		line += SVG_LINE + 1;
		buf_reset(&t);
	}
	if (json_is_string(json_object_get(sh, "pilot")))
		buf_addf(&t, "pilot %s", sm_slug_name(str(sh, "pilot")));
	json_array_foreach(gear, i, g)
		buf_addf(&t, "%s%s", t.len ? (i ? ", " : " · gear ") : (i ? ", " : "gear "), sm_slug_name(json_string_value(g)));
	if (t.len) {
		svg_text_fit(&lines, 20, line + SVG_TEXT, SVG_TEXT, W - 40, "fill=\"#333\"", t.data, t.len);
		line += SVG_LINE + 1;
		buf_reset(&t);
	}
	h = line + 5 - top;
	if (h < SM_SHIP_MIN_H)
		h = SM_SHIP_MIN_H;
	tapdraw_open(out, look, tap, seats);
	/* the ship on its run outlined gold */
	tapdraw_box(out, look, 14, top, W - 20, h, 5, obsolete ? "#eceef1" : "#fff", running ? "#e0a800" : "#c5d3e6",
		    running ? "2" : "1");
	buf_addf(&t, "Ship %lld · Mark %lld %s", num(sh, "no"), num(sh, "mark"), sm_slug_name(str(sh, "type")));
	svg_text_fit(out, 20, top + 16, 13, 190, "font-weight=\"700\"", t.data, t.len);
	buf_reset(&t);
	buf_addf(&t, "energy %lld · cargo %lld/%lld", num(sh, "energy"), load, cap);
	svg_text_fit(out, W - 12, top + 16, SVG_TEXT, W - 230, "text-anchor=\"end\" fill=\"#333\"", t.data, t.len);
	buf_add(out, lines.data, lines.len);
	tapdraw_close(out, look);
	buf_release(&t);
	buf_release(&lines);
	*y += h + 3;
}

static void players(struct buf *out, const json_t *view, const json_t *before, const json_t *seats,
		    const struct game_tapset *taps, double *y)
{
	const json_t *ps = json_object_get(view, "seats"), *p, *sh, *c;
	long long you = json_is_integer(json_object_get(view, "you")) ? num(view, "you") : -1;
	long long turn = json_is_integer(json_object_get(view, "turn")) ? num(view, "turn") : -1;
	const json_t *run = json_object_get(view, "run");
	size_t i, k;

	svg_heading(out, y, W, "Players", "most credits wins");
	json_array_foreach(ps, i, p) {
		long long s = num(p, "seat");
		int col = svg_seat_colour(s);
		double top = *y;
		struct buf t = BUF_INIT;

		svg_seat_name(&t, seats, s, 1);
		buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"7\" height=\"14\" rx=\"2\" fill=\"%s\"/>"
			      "<text x=\"%d\" y=\"%g\" font-size=\"13\" font-weight=\"700\" text-anchor=\"end\">%lld credits</text>",
			 top, svg_seat_fill(col), W - 6, top + 13, num(p, "credits"));
		buf_adds(&t, s == you ? " (you)" : "");
		buf_adds(&t, s == turn ? " \xe2\x96\xb6" : "");
		svg_text_fit(out, 15, top + 13, 13, W - 120, "font-weight=\"700\"", t.data, t.len);
		buf_reset(&t);
		buf_addf(&t, "%s · lap %lld · %lld turns", str(p, "place"), num(p, "laps"), num(p, "turns"));
		if (num(p, "loans"))
			buf_addf(&t, " · %lld loans, %lld cr to repay", num(p, "loans"), num(p, "debt"));
		if (num(p, "last_paid"))
			buf_addf(&t, " · last Dock paid %lld", num(p, "last_paid"));
		if (json_is_true(json_object_get(p, "finished")))
			buf_adds(&t, " · done");
		*y += 18 + SVG_LINE * svg_text_wrap(out, 15, top + 29, SVG_TEXT, W - 21, 2, "fill=\"#333\"", t.data);
		buf_reset(&t);
		{
			double line = *y + 8;
			buf_addf(out, "<text x=\"15\" y=\"%g\" font-size=\"%d\" font-weight=\"600\">local space</text>", *y + 12.5,
				 SVG_TEXT);
			chips(out, 100, 100, &line, json_object_get(p, "local"), json_object_get(p, "claimed"));
			*y = line + 12;
		}
		{
			long long setup = 0;
			const char *key;
			const json_t *v;
			json_object_foreach(json_object_get(p, "setup_tokens"), key, v)
				setup += (long long)json_integer_value(v);
			if (setup) {
				double line = *y + 8;
				buf_addf(out, "<text x=\"15\" y=\"%g\" font-size=\"%d\" font-weight=\"600\">mine tokens</text>",
					 *y + 12.5, SVG_TEXT);
				chips(out, 100, 100, &line, json_object_get(p, "setup_tokens"), NULL);
				buf_addf(out, "<text x=\"15\" y=\"%g\" font-size=\"%d\" fill=\"#5b6470\">to local space on the "
					      "first Belt visit</text>", line + 20, SVG_TEXT);
				*y = line + 28;
			}
		}
		json_array_foreach(json_object_get(p, "refineries"), k, c)
			buf_addf(&t, "%s%s", k ? ", " : "refineries: ", sm_slug_name(json_string_value(c)));
		json_array_foreach(json_object_get(p, "set_aside"), k, c)
			buf_addf(&t, "%s%s", k ? ", " : (t.len ? " · set aside: " : "set aside: "),
				 sm_slug_name(json_string_value(c)));
		if (t.len) {
			*y += SVG_LINE * svg_text_wrap(out, 15, *y + 12, SVG_TEXT, W - 21, 3, "fill=\"#333\"", t.data) + 3;
		}
		buf_release(&t);
		if (!json_array_size(json_object_get(p, "ships"))) {
			buf_addf(out, "<text x=\"15\" y=\"%g\" font-size=\"%d\" fill=\"#8a8f98\">no ships yet</text>", *y + 12,
				 SVG_TEXT);
			*y += 17;
		}
		json_array_foreach(json_object_get(p, "ships"), k, sh)
			ship_box(out, sh, s == turn && json_is_object(run) && num(run, "ship") == num(sh, "no"), s == you, seats,
				 taps, y);
		buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"2\" height=\"%g\" fill=\"%s\"/>", top + 16, *y - top - 16,
			 svg_seat_fill(col));
		if (tapdraw_changed(before, tapdraw_before(before, "seats", "seat", p), p))
			tapdraw_mark(out, 2, top - 1, W - 4, *y - top);
		*y += 8;
	}
}

static void salvage(struct buf *out, const json_t *view, const json_t *seats, const struct game_tapset *taps,
		    double *y)
{
	const json_t *sv = json_object_get(view, "salvage");
	char right[64];

	if (!json_is_object(sv))
		return;
	snprintf(right, sizeof(right), "keep %lld pilot(s), %lld gear at cost", num(sv, "pilots"), num(sv, "gear"));
	svg_heading(out, y, W, "Salvage from scrapped ships", right);
	cards(out, json_object_get(sv, "cards"), "cr", 0, "transfer-", seats, taps, y);
}

static void result(struct buf *out, const json_t *view, const json_t *seats, double *y)
{
	const json_t *ps = json_object_get(view, "seats"), *p;
	size_t i;

	if (strcmp(str(view, "phase"), "over"))
		return;
	svg_heading(out, y, W, "Game over: final credits", NULL);
	json_array_foreach(ps, i, p) {
		struct buf t = BUF_INIT;
		svg_seat_name(&t, seats, num(p, "seat"), 1);
		buf_addf(&t, ": %lld credits (into the Dock #%lld)", num(p, "credits"), num(p, "dock_order"));
		svg_text_fit(out, 10, *y + 12, SVG_TEXT, W - 20, NULL, t.data, t.len);
		buf_release(&t);
		*y += 16;
	}
	*y += 4;
}

int sm_board(const struct game_board_in *in, struct buf *out, struct err *err)
{
	const json_t *view = in->view, *seats = in->seats; /* the view says whose it is ("you") */
	struct buf body = BUF_INIT;
	double y = 2;

	if (!json_is_object(view))
		return err_set(err, ERR_INPUT, "the board is drawn from a view object");
	result(&body, view, seats, &y);
	choices(&body, in->taps, view, seats, &y);
	circuit(&body, view, seats, in->taps, &y);
	salvage(&body, view, seats, in->taps, &y);
	shipyard(&body, view, &y);
	market(&body, view, seats, in->taps, &y);
	belt(&body, view, seats, in->taps, &y);
	players(&body, view, in->before, seats, in->taps, &y);
	tapdraw_board(out, &body, W, (double)(int)(y + 4), "Starship Merchants board", in->taps != NULL);
	buf_release(&body);
	return 0;
}
