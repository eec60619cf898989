/* games/space-station-phoenix/ssp_board.c: the Space Station Phoenix board as SVG, drawn from the game's view JSON */
/* SPDX-License-Identifier: MIT */
#include "games/space-station-phoenix/ssp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/svg.h"
#include "util/tapdraw.h"
#include "util/banned.h"

#define W 390

/* Residents by quarter letter; colours of the wings. */
static const char *const wing_names[] = { "teal", "brown", "pink" };
static const char *const wing_fill[] = { "#dff2ef", "#f1e6da", "#fbe6ef" };
static const char *const wing_line[] = { "#1f9e93", "#8a5a35", "#d2588f" };

static const char *resident_fill(char c)
{
	switch (c | 0x20) {
	case 't': return "#1f9e93";
	case 'b': return "#8a5a35";
	case 'p': return "#e46fa5";
	case 'g': return "#e2b007";
	case 'h': return "#f7f7f2";
	default: return "#fff";
	}
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static long long num(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

/* ------------------------------------------------------------------ taps */

/* Is the part drawn in place on this board? (Every other offered part is a button in the row of choices.) */
static int drawn_in_place(const json_t *view, int you, const char *part)
{
	static const char *const ship_verbs[] = { "ship-", "dismantle-", "discard-" };
	const json_t *x;
	size_t i;

	if (!strncmp(part, "track-", 6))
		return 1;
	for (size_t v = 0; v < sizeof(ship_verbs) / sizeof(ship_verbs[0]); v++) {
		size_t len = strlen(ship_verbs[v]);
		if (strncmp(part, ship_verbs[v], len))
			continue;
		/* ship_row draws the display, the players' ships and drawn ships, and the neutral ships */
		json_array_foreach(json_object_get(view, "ships"), i, x) {
			const char *w = str(x, "where");
			if (strcmp(str(x, "id"), part + len))
				continue;
			return !strcmp(w, "display") || !strcmp(w, "neutral") || (w[0] == 'p' && w[1] >= '1' && w[1] <= '9') ||
			       !strncmp(w, "drawn-p", 7);
		}
		return 0;
	}
	if (!strncmp(part, "sector-", 7)) {
		json_array_foreach(json_object_get(view, "sectors"), i, x)
			if (num(x, "id") == strtoll(part + 7, NULL, 10))
				return 1;
		return 0;
	}
	if (!strncmp(part, "hub-", 4)) {
		const json_t *p = json_array_get(json_object_get(view, "players"), (size_t)(you < 0 ? 0 : you));
		if (you < 0 || strcmp(str(view, "phase"), "hub") || json_is_string(json_object_get(p, "hub")))
			return 0;
		json_array_foreach(json_object_get(p, "dealt_hubs"), i, x)
			if (!strcasecmp(str(x, "id"), part + 4))
				return 1;
		return 0;
	}
	return 0;
}

/* What drawn_in_place needs, for tapdraw_choices. */
struct in_place_ctx {
	const json_t *view;
	int you;
};

static int in_place(const void *ctx, const char *part)
{
	const struct in_place_ctx *c = ctx;

	return drawn_in_place(c->view, c->you, part);
}

/* The row of choices at the top of the board while a step is built: the offered parts not drawn in place. */
static void choices(struct buf *out, const struct game_tapset *t, const json_t *view, const json_t *seats, int you,
		    double *y)
{
	struct in_place_ctx c = { view, you };

	tapdraw_choices(out, t, seats, W, y, in_place, &c);
}

/* A quarter: a circle filled with its resident (or empty); a ring marks one placed this turn. */
static void quarter(struct buf *out, double cx, double cy, double r, char c)
{
	int empty = c == '.' || c == '\0';
	int fresh = !empty && c >= 'A' && c <= 'Z';

	buf_addf(out, "<circle cx=\"%g\" cy=\"%g\" r=\"%g\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"%s/>", cx, cy, r,
		 resident_fill(c), empty ? "#9aa3ad" : "#333", fresh ? "1.6" : "0.8",
		 fresh ? " stroke-dasharray=\"2 1.2\"" : "");
}

/* ------------------------------------------------------------------ scores and goods */

static void scoreboard(struct buf *out, const json_t *view, const json_t *seats, int you, double *y)
{
	const json_t *players = json_object_get(view, "players"), *p;
	const json_t *end = json_object_get(view, "end");
	size_t i;
	char right[64];

	snprintf(right, sizeof(right), "turn %lld", num(view, "turn") + 1);
	svg_heading(out, y, W, "Players", right);
	if (json_is_object(end)) {
		struct buf t = BUF_INIT;
		buf_adds(&t, "Game end triggered by ");
		svg_seat_name(&t, seats, num(end, "triggered_by"), 1);
		buf_addf(&t, ": %lld more turn%s", num(end, "turns_left"), num(end, "turns_left") == 1 ? "" : "s");
		buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"20\" rx=\"4\" fill=\"#ffe9a8\"/>", *y, W - 8);
		svg_text_fit(out, 10, *y + 14.5, SVG_TEXT, W - 20, "font-weight=\"600\"", t.data, t.len);
		buf_release(&t);
		*y += 24;
	}
	json_array_foreach(players, i, p) {
		long long s = num(p, "seat");
		int c = svg_seat_colour(s);
		const json_t *res = json_object_get(p, "residents");
		struct buf line = BUF_INIT;

		buf_addf(out, "<g><rect x=\"4\" y=\"%g\" width=\"%d\" height=\"48\" rx=\"5\" fill=\"#fff\" stroke=\"%s\" "
			      "stroke-width=\"%s\"/><rect x=\"4\" y=\"%g\" width=\"7\" height=\"48\" rx=\"3\" fill=\"%s\"/>",
			 *y, W - 8, svg_seat_fill(c), s == you ? "2.2" : "1", *y, svg_seat_fill(c));
		svg_seat_name(&line, seats, s, 1);
		if (s == you)
			buf_adds(&line, " (you)");
		svg_text_fit(out, 16, *y + 15, 13, W - 100, "font-weight=\"700\"", line.data, line.len);
		buf_addf(out, "<text x=\"%d\" y=\"%g\" font-size=\"13\" font-weight=\"700\" text-anchor=\"end\">%lld pts</text>",
			 W - 10, *y + 15, num(p, "points"));
		buf_reset(&line);
		buf_addf(&line, "%lld GEMs · %lld food · %lld water · %lld metal", num(p, "gems"), num(p, "food"),
			 num(p, "water"), num(p, "metal"));
		svg_text_fit(out, 16, *y + 30, SVG_TEXT, W - 28, "fill=\"#333\"", line.data, line.len);
		buf_reset(&line);
		buf_addf(&line, "hub %s · %lld aliens, %lld humans", json_is_string(json_object_get(p, "hub")) ? str(p, "hub") : "not chosen",
			 num(res, "teal") + num(res, "brown") + num(res, "pink") + num(res, "gold"), num(res, "human"));
		svg_text_fit(out, 16, *y + 44, SVG_TEXT, W - 28, "fill=\"#333\"", line.data, line.len);
		buf_adds(out, "</g>");
		buf_release(&line);
		*y += 52;
	}
}

/* ------------------------------------------------------------------ ships */

static const char *type_colour(const char *type)
{
	static const struct { const char *type, *colour; } t[] = {
		{ "dismantle", "#8c3b2e" }, { "construct", "#d9822b" }, { "transport", "#2f6fd6" },
		{ "expedition", "#2e9e57" }, { "diplomacy", "#8e44ad" }, { "farm", "#7a8b22" }, { "ice", "#2aa6c4" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(type, t[i].type))
			return t[i].colour;
	return "#555";
}

/* What the ship does, in a few words. */
static void ship_power(struct buf *b, const json_t *sh)
{
	const char *type = str(sh, "type");
	long long p = num(sh, "power");

	if (!strcmp(type, "transport"))
		buf_addf(b, "%lld transactions", p);
	else if (!strcmp(type, "expedition"))
		buf_addf(b, "roll %lld keep %lld", num(sh, "roll"), num(sh, "keep"));
	else if (!strcmp(type, "diplomacy"))
		buf_addf(b, "%lld track%s", p, p == 1 ? "" : "s");
	else if (!strcmp(type, "farm"))
		buf_addf(b, "+%lld food", p);
	else if (!strcmp(type, "ice"))
		buf_addf(b, "+%lld water", p);
	else if (!strcmp(type, "dismantle") && p)
		buf_addf(b, "+%lld metal", p);
	else if (!strcmp(type, "construct") && p)
		buf_addf(b, "%lld metal less", p);
}

/* The card's title, unescaped: the ship id without its owner prefix ("p2-transport" -> "transport", "farm-2a" -> "farm 2a"). */
static void ship_title(struct buf *b, const char *id)
{
	const char *dash = strchr(id, '-');
	size_t n;

	if ((id[0] == 'p' && id[1] >= '1' && id[1] <= '9' && id[2] == '-') || (id[0] == 'n' && id[1] == '-'))
		id = dash + 1;
	n = strlen(id);
	dash = strrchr(id, '-');
	if (dash && dash[1] >= '1' && dash[1] <= '3') {
		buf_add(b, id, (size_t)(dash - id));
		buf_addc(b, ' ');
		buf_adds(b, dash + 1);
	} else {
		buf_add(b, id, n);
	}
}

/* The look of a ship card: its part is the use or draft, the dismantle or the discard of the ship. */
static enum game_tap_look ship_look(const struct game_tapset *taps, const char *id, const struct game_tap **tap)
{
	static const char *const verbs[] = { "ship", "dismantle", "discard" };
	enum game_tap_look look = GAME_TAP_PLAIN;

	*tap = NULL;
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		char part[64];
		snprintf(part, sizeof(part), "%s-%s", verbs[i], id);
		look = game_tap_look(taps, part, 0, tap);
		if (look == GAME_TAP_OFFERED || look == GAME_TAP_CHOSEN)
			return look;
	}
	return look;
}

static void ship_card(struct buf *out, double x, double y, double w, double h, const json_t *sh, const json_t *seats,
		      int you, const struct game_tapset *taps)
{
	int used = json_is_true(json_object_get(sh, "used"));
	const char *where = str(sh, "where"), *type = str(sh, "type");
	struct buf t = BUF_INIT;
	int own = you >= 0 && where[0] == 'p' && where[1] - '1' == you && where[2] == '\0';
	int other = !own && where[0] == 'p' && where[1] >= '1' && where[1] <= '9' && where[2] == '\0';
	const struct game_tap *tap;
	enum game_tap_look look = ship_look(taps, str(sh, "id"), &tap);

	tapdraw_open(out, look, tap, seats);
	buf_addf(out, "<g transform=\"translate(%g %g)\"%s>", x, y, used ? " fill=\"#6b7280\"" : "");
	buf_addf(out, "<rect width=\"%g\" height=\"%g\" rx=\"4\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"/>"
		      "<rect width=\"4\" height=\"%g\" rx=\"2\" fill=\"%s\"%s/>",
		 w, h, used ? "#e3e5e8" : "#fff", tapdraw_stroke(look, used ? "#c3c8cf" : "#9fb3cc"), tapdraw_width(look), h,
		 type_colour(type), used ? " opacity=\".45\"" : "");
	ship_title(&t, str(sh, "id"));
	svg_text_fit(out, 8, 15, 13, w - 12, "font-weight=\"700\"", t.data, t.len);
	buf_reset(&t);
	ship_power(&t, sh);
	if (t.len)
		svg_text_fit(out, 8, 30, SVG_TEXT, w - 12, used ? NULL : "fill=\"#333\"", t.data, t.len);
	buf_reset(&t);
	if (used) {
		buf_adds(&t, "used");
		if (json_is_integer(json_object_get(sh, "used_by"))) {
			buf_adds(&t, " by ");
			svg_seat_name(&t, seats, num(sh, "used_by"), 1);
		}
		svg_text_fit(out, 8, 45, SVG_TEXT, w - 12, "font-weight=\"600\" fill=\"#a3261b\"", t.data, t.len);
	} else {
		long long cost = json_is_integer(json_object_get(sh, "your_cost")) ? num(sh, "your_cost") : num(sh, "cost");
		if (other)
			buf_addf(&t, "%lld GEM%s + %lld fee", cost, cost == 1 ? "" : "s", num(sh, "fee"));
		else
			buf_addf(&t, "%lld GEM%s", cost, cost == 1 ? "" : "s");
		svg_text_fit(out, 8, 45, SVG_TEXT, w - 12, "fill=\"#1f5fae\" font-weight=\"600\"", t.data, t.len);
	}
	buf_adds(out, "</g>");
	tapdraw_close(out, look);
	buf_release(&t);
}

/* Ships of one place ("p1", "neutral", "display", "drawn-p2") under a label; nothing when there are none. */
static void ship_row(struct buf *out, const json_t *view, const json_t *seats, int you, const struct game_tapset *taps,
		     const char *where, const char *label, int colour, double *y)
{
	const json_t *ships = json_object_get(view, "ships"), *sh;
	size_t i, k = 0;
	const double cw = (W - 8 - 2 * 3) / 3.0, ch = 52;

	json_array_foreach(ships, i, sh)
		if (!strcmp(str(sh, "where"), where))
			k++;
	if (!k)
		return;
	if (colour >= 0)
		buf_addf(out, "<rect x=\"6\" y=\"%g\" width=\"10\" height=\"10\" rx=\"2\" fill=\"%s\"/>", *y + 3, svg_seat_fill(colour));
	svg_text_fit(out, colour >= 0 ? 20 : 6, *y + 12, SVG_TEXT, W - 26, "font-weight=\"600\"", label, strlen(label));
	*y += 17;
	k = 0;
	json_array_foreach(ships, i, sh) {
		if (strcmp(str(sh, "where"), where))
			continue;
		ship_card(out, 4 + (double)(k % 3) * (cw + 3), *y + (double)(k / 3) * (ch + 3), cw, ch, sh, seats, you, taps);
		k++;
	}
	*y += (double)((k + 2) / 3) * (ch + 3) + 3;
}

static void ships(struct buf *out, const json_t *view, const json_t *seats, int you, const struct game_tapset *taps,
		  double *y)
{
	const json_t *players = json_object_get(view, "players"), *p, *deck = json_object_get(view, "deck");
	size_t i;
	char right[64];
	struct buf label = BUF_INIT;

	snprintf(right, sizeof(right), "decks: level 2 %lld, level 3 %lld", num(deck, "level2"), num(deck, "level3"));
	svg_heading(out, y, W, "Ships", right);
	*y += SVG_LINE * svg_text_wrap(out, 6, *y + 10, SVG_TEXT, W - 12, 3, "fill=\"#5b6470\"",
				       "The cost to use a ship (another's: + its owner's fee). Dismantled, a ship gives 6, 8 "
				       "or 10 metal by level.") + 2;
	ship_row(out, view, seats, you, taps, "display", "Draft display", -1, y);
	json_array_foreach(players, i, p) {
		long long s = num(p, "seat");
		char where[32];
		buf_reset(&label);
		svg_seat_name(&label, seats, s, 1);
		buf_adds(&label, s == you ? " (you)" : "");
		snprintf(where, sizeof(where), "p%lld", s + 1);
		ship_row(out, view, seats, you, taps, where, label.data, svg_seat_colour(s), y);
		snprintf(where, sizeof(where), "drawn-p%lld", s + 1);
		buf_adds(&label, ": drawn, keep or discard");
		ship_row(out, view, seats, you, taps, where, label.data, svg_seat_colour(s), y);
	}
	ship_row(out, view, seats, you, taps, "neutral", "Neutral ships", -1, y);
	buf_release(&label);
}

/* ------------------------------------------------------------------ diplomacy */

static void diplomacy(struct buf *out, const json_t *view, const json_t *seats, const struct game_tapset *taps,
		      double *y)
{
	static const char *const tracks[] = { "dismantle", "construct", "transport", "expedition" };
	static const char *const lvl3[] = { "metal", "metal", "water", "food" };
	static const char *const bonus[] = { "1 GEM", "2 GEMs", "1 point", "resource", "2 bonuses", "2 bonuses" };
	const json_t *players = json_object_get(view, "players"), *p;
	const char *active = str(view, "diplomacy_track");
	/* six levels across the board; each track a line of words over its row of levels */
	const double cw = (W - 8) / 6.0, rh = 48;
	size_t i;

	svg_heading(out, y, W, "Diplomacy", "an advance costs the GEMs of the level reached");
	for (int l = 0; l < 6; l++) {
		const json_t *c = json_array_get(json_object_get(json_object_get(view, "diplomacy_board"), "lobbying_cost"),
						 (size_t)(l - 1));
		long long gems = json_is_object(c) ? num(c, "gems") : l + 1;
		double cx = 4 + cw * (l + 0.5);
		buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"%d\" text-anchor=\"middle\" fill=\"#5b6470\">%s%d"
			      "<tspan x=\"%g\" dy=\"%d\">%s</tspan>",
			 cx, *y + 10, SVG_TEXT, l ? "level " : "start ", l, cx, SVG_LINE, bonus[l]);
		if (l)
			buf_addf(out, "<tspan x=\"%g\" dy=\"%d\" fill=\"#1f5fae\" font-weight=\"600\">%lld GEM%s</tspan>", cx,
				 SVG_LINE, gems, gems == 1 ? "" : "s");
		buf_adds(out, "</text>");
	}
	*y += 10 + 2 * SVG_LINE + 6;
	for (int t = 0; t < 4; t++) {
		double top = *y + t * (rh + 3);
		int hot = !strcmp(active, tracks[t]);
		const struct game_tap *tap;
		enum game_tap_look look;
		char part[48];
		snprintf(part, sizeof(part), "track-%s", tracks[t]);
		look = game_tap_look(taps, part, 0, &tap);
		tapdraw_open(out, look, tap, seats);
		buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"%g\" rx=\"4\" fill=\"%s\" stroke=\"%s\" "
			      "stroke-width=\"%s\"/>", top, W - 8, rh, hot ? "#fff4cc" : "#f3f0fa",
			 tapdraw_stroke(look, hot ? "#e0a800" : "#cfc4e6"), tapdraw_width(look));
		buf_addf(out, "<text x=\"8\" y=\"%g\" font-size=\"%d\"><tspan font-weight=\"700\">%s</tspan>"
			      "<tspan fill=\"#5b6470\"> · its level 3 gives 1 %s</tspan></text>",
			 top + 14, SVG_TEXT, tracks[t], lvl3[t]);
		for (int l = 0; l < 6; l++) {
			double cx = 4 + cw * l;
			int k = 0;
			buf_addf(out, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"24\" rx=\"3\" fill=\"#fff\" stroke=\"#e2dcef\"/>",
				 cx + 1, top + 20, cw - 2);
			json_array_foreach(players, i, p) {
				long long s = num(p, "seat");
				if (num(json_object_get(p, "diplomacy"), tracks[t]) != l)
					continue;
				buf_addf(out, "<circle cx=\"%g\" cy=\"%g\" r=\"6\" fill=\"%s\" stroke=\"#fff\"><title>",
					 cx + 9 + (k % 4) * 14, top + 32, svg_seat_fill(s));
				svg_seat_name(out, seats, s, 0);
				buf_adds(out, "</title></circle>");
				k++;
			}
		}
		tapdraw_close(out, look);
	}
	*y += 4 * (rh + 3) + 4;
}

/* ------------------------------------------------------------------ sectors */

/* What each living quarter of a Sector gives, in words: "1 food · 2 water · ability" (raw). */
static void gives_words(struct buf *t, const json_t *sec, const char *end_word)
{
	const json_t *lq = json_object_get(sec, "living_quarters"), *q;
	size_t i;

	json_array_foreach(lq, i, q) {
		const char *g = str(q, "gives");
		const json_t *inc = json_object_get(q, "income");
		const char *k;
		json_t *v;
		if (i)
			buf_adds(t, " · ");
		if (!strcmp(g, "income")) {
			json_object_foreach((json_t *)inc, k, v)
				buf_addf(t, "%lld %s", (long long)json_integer_value(v), !strcmp(k, "gems") ? "GEM" : k);
		} else {
			buf_adds(t, !strcmp(g, "ability") ? "ability" : !strcmp(g, "end_bonus") ? end_word : "nothing");
		}
	}
}

/* What each quarter of a Sector gives, wrapped to width (at most 4 lines); returns the lines. */
static int quarter_gives(struct buf *out, const json_t *sec, double x, double y, double width)
{
	struct buf t = BUF_INIT;
	int lines = 0;

	gives_words(&t, sec, "end bonus");
	if (t.len)
		lines = svg_text_wrap(out, x, y, SVG_TEXT, width, 4, "fill=\"#1f5fae\"", t.data);
	buf_release(&t);
	return lines;
}

/* A built Sector in a wing: its number, then its quarters (what each gives is in words under the wings). */
static void sector_row(struct buf *out, double x, double y, const json_t *sec)
{
	const char *q = str(sec, "quarters");
	size_t n = strlen(q);

	buf_adds(out, "<g><title>");
	buf_addf(out, "Sector %lld, level %lld, %s", num(sec, "id"), num(sec, "level"), str(sec, "colour"));
	if (json_is_string(json_object_get(sec, "ability"))) {
		buf_adds(out, ": ");
		svg_esc(out, str(sec, "ability"));
	}
	buf_addf(out, "</title><text x=\"%g\" y=\"%g\" font-size=\"%d\" font-weight=\"700\">%lld</text>", x, y + 4.5,
		 SVG_TEXT, num(sec, "id"));
	for (size_t k = 0; k < n && k < 8; k++)
		quarter(out, x + 36 + (double)k * 14.5, y, 6, q[k]);
	buf_adds(out, "</g>");
}

static int colour_index(const char *c)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(c, wing_names[i]))
			return i;
	return -1;
}

static void station(struct buf *out, const json_t *p, const json_t *seats, int you, double *y)
{
	long long s = num(p, "seat");
	int c = svg_seat_colour(s);
	const json_t *list = json_object_get(p, "station"), *sec;
	const double ww = 124, rowh = 18;
	int rows[3] = { 0, 0, 0 }, maxrows = 1;
	size_t i;
	double top = *y, body;
	struct buf t = BUF_INIT;

	json_array_foreach(list, i, sec) {
		int w = colour_index(str(sec, "colour"));
		if (w >= 0 && ++rows[w] > maxrows)
			maxrows = rows[w];
	}
	svg_seat_name(&t, seats, s, 1);
	buf_addf(&t, "%s: hub %s", s == you ? " (you)" : "",
		 json_is_string(json_object_get(p, "hub")) ? str(p, "hub") : "not chosen");
	buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"7\" height=\"14\" rx=\"2\" fill=\"%s\"/>", top, svg_seat_fill(c));
	svg_text_fit(out, 15, top + 12, 13, W - 20, "font-weight=\"700\"", t.data, t.len);
	*y += 17;
	if (json_is_object(json_object_get(p, "hub_info"))) {
		const json_t *inc = json_object_get(json_object_get(p, "hub_info"), "income");
		long long per = num(inc, "gems_per_ship"), flat = num(inc, "gems");
		buf_reset(&t);
		buf_adds(&t, "hub income: ");
		if (per)
			buf_addf(&t, "%lld GEM%s per ship%s", per, per == 1 ? "" : "s", flat ? " + " : "");
		if (flat || !per)
			buf_addf(&t, "%lld GEM%s", flat, flat == 1 ? "" : "s");
		svg_text_fit(out, 15, *y + 11, SVG_TEXT, W - 20, "fill=\"#1f5fae\" font-weight=\"600\"", t.data, t.len);
		*y += SVG_LINE + 1;
	}
	buf_release(&t);
	if (json_is_string(json_object_get(p, "hub_text")))
		*y += SVG_LINE * svg_text_wrap(out, 15, *y + 11, SVG_TEXT, W - 20, 4, "fill=\"#444\"", str(p, "hub_text")) + 3;
	body = *y;
	for (int w = 0; w < 3; w++) {
		double x = 4 + w * (ww + 4);
		int k = 0;
		buf_addf(out, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"5\" fill=\"%s\" stroke=\"%s\"/>"
			      "<text x=\"%g\" y=\"%g\" font-size=\"%d\" text-anchor=\"end\" fill=\"%s\">%s wing</text>",
			 x, body, ww, 22 + maxrows * rowh, wing_fill[w], wing_line[w], x + ww - 5, body + 13, SVG_TEXT,
			 wing_line[w], wing_names[w]);
		json_array_foreach(list, i, sec) {
			if (colour_index(str(sec, "colour")) != w)
				continue;
			sector_row(out, x + 4, body + 28 + k * rowh, sec);
			k++;
		}
		if (!k)
			buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"%d\" fill=\"#8a8f98\">no Sector</text>", x + 5,
				 body + 30, SVG_TEXT);
	}
	*y = body + 22 + maxrows * rowh + 4;
	if (json_is_string(json_object_get(p, "hub_quarters"))) {
		const char *q = str(p, "hub_quarters");
		buf_addf(out, "<text x=\"8\" y=\"%g\" font-size=\"%d\">hub quarters</text>", *y + 12, SVG_TEXT);
		for (size_t k = 0; q[k]; k++)
			quarter(out, 100 + (double)k * 16, *y + 8, 6, q[k]);
		*y += 19;
	}
	/* each built Sector in words, big enough to read on a phone: what its quarters give, its ability */
	json_array_foreach(list, i, sec) {
		struct buf l = BUF_INIT;
		const char *ab = str(sec, "ability");
		buf_addf(&l, "%lld: ", num(sec, "id"));
		gives_words(&l, sec, "end bonus");
		if (*ab)
			buf_addf(&l, ". %s", ab);
		*y += SVG_LINE * svg_text_wrap(out, 8, *y + SVG_TEXT, SVG_TEXT, W - 14, 4, "fill=\"#333\"", l.data) + 3;
		buf_release(&l);
	}
	if (json_array_size(json_object_get(p, "private_sectors"))) {
		struct buf l = BUF_INIT;
		buf_adds(&l, "private Sectors (A-6):");
		json_array_foreach(json_object_get(p, "private_sectors"), i, sec)
			buf_addf(&l, " %lld", num(sec, "id"));
		*y += SVG_LINE * svg_text_wrap(out, 8, *y + SVG_TEXT, SVG_TEXT, W - 16, 2, NULL, l.data) + 2;
		buf_release(&l);
	}
	{
		struct buf l = BUF_INIT;
		const json_t *st = json_object_get(p, "standing_diplomacy"), *b;
		if (json_is_string(json_object_get(p, "neutral_token"))) {
			buf_adds(&l, "holds the Neutral Ship marker (the ");
			ship_title(&l, str(p, "neutral_token"));
			buf_adds(&l, " ship)");
		}
		if (json_array_size(st)) {
			buf_adds(&l, l.len ? "; standing bonus choice:" : "standing bonus choice:");
			json_array_foreach(st, i, b) {
				buf_adds(&l, i ? ", " : " ");
				buf_adds(&l, json_string_value(b) ? json_string_value(b) : "");
			}
		}
		if (l.len) {
			*y += SVG_LINE * svg_text_wrap(out, 8, *y + SVG_TEXT, SVG_TEXT, W - 16, 3, "fill=\"#444\"", l.data) + 2;
		}
		buf_release(&l);
	}
	*y += 6;
}

static void stations(struct buf *out, const json_t *view, const json_t *before, const json_t *seats, int you, double *y)
{
	const json_t *players = json_object_get(view, "players"), *p;
	size_t i;

	svg_heading(out, y, W, "Stations", NULL);
	*y += SVG_LINE * svg_text_wrap(out, 6, *y + 10, SVG_TEXT, W - 12, 3, "fill=\"#5b6470\"",
				       "Each built Sector: its quarters, then in words what each gives, in order, and its "
				       "ability. A dashed quarter was placed this turn.") + 2;
	json_array_foreach(players, i, p) {
		double top = *y;
		station(out, p, seats, you, y);
		if (tapdraw_changed(before, tapdraw_before(before, "players", "seat", p), p))
			tapdraw_mark(out, 2, top - 1, W - 4, *y - top - 4);
	}
}

/* The display: a column per colour, a band per level; each Sector with its cost and ability. */
static void display(struct buf *out, const json_t *view, const json_t *before, const json_t *seats,
		    const struct game_tapset *taps, double *y)
{
	const json_t *list = json_object_get(view, "sectors"), *sec;
	const double cw = 124;
	size_t i;

	svg_heading(out, y, W, "Sector display", "number · cost in metal");
	for (int w = 0; w < 3; w++)
		buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"%d\" font-weight=\"700\" text-anchor=\"middle\" fill=\"%s\">%s</text>",
			 4 + w * (cw + 4) + cw / 2, *y + 11, SVG_TEXT, wing_line[w], wing_names[w]);
	*y += 16;
	for (long long level = 1; level <= 3; level++) {
		double col[3], bottom;
		int any = 0;
		json_array_foreach(list, i, sec)
			any |= num(sec, "level") == level;
		if (!any)
			continue;
		buf_addf(out, "<text x=\"%d\" y=\"%g\" font-size=\"%d\" font-weight=\"600\" text-anchor=\"middle\" "
			      "fill=\"#5b6470\">level %lld: %d quarters</text>", W / 2, *y + 11, SVG_TEXT, level,
			 level == 1 ? 3 : level == 2 ? 5 : 6);
		*y += 15;
		col[0] = col[1] = col[2] = bottom = *y;
		json_array_foreach(list, i, sec) {
			int w = colour_index(str(sec, "colour"));
			const char *ab = str(sec, "ability");
			double x, top, h;
			struct buf body = BUF_INIT;
			int lines;
			if (num(sec, "level") != level || w < 0)
				continue;
			x = 4 + w * (cw + 4);
			top = col[w];
			const struct game_tap *tap;
			enum game_tap_look look;
			char part[48];
			snprintf(part, sizeof(part), "sector-%lld", num(sec, "id"));
			look = game_tap_look(taps, part, 0, &tap);
			lines = quarter_gives(&body, sec, x + 5, top + 31, cw - 10);
			lines += svg_text_wrap(&body, x + 5, top + 31 + lines * SVG_LINE, SVG_TEXT, cw - 10, 8, "fill=\"#333\"",
					       *ab ? ab : "income only");
			h = 20 + lines * SVG_LINE + 6;
			if (h < 48)
				h = 48;
			tapdraw_open(out, look, tap, seats);
			buf_addf(out, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"5\" fill=\"%s\" "
				      "stroke=\"%s\" stroke-width=\"%s\"/>"
				      "<text x=\"%g\" y=\"%g\" font-size=\"13\" font-weight=\"700\">%lld</text>"
				      "<text x=\"%g\" y=\"%g\" font-size=\"%d\" text-anchor=\"end\" fill=\"#1f5fae\" "
				      "font-weight=\"600\">%lld metal</text>",
				 x, top, cw, h, wing_fill[w], tapdraw_stroke(look, wing_line[w]), tapdraw_width(look), x + 5, top + 15,
				 num(sec, "id"), x + cw - 5, top + 15, SVG_TEXT, num(sec, "cost"));
			buf_add(out, body.data, body.len);
			if (tapdraw_changed(before, tapdraw_before(before, "sectors", "id", sec), sec))
				tapdraw_mark(out, x, top, cw, h);
			tapdraw_close(out, look);
			buf_release(&body);
			col[w] = top + h + 3;
			if (col[w] > bottom)
				bottom = col[w];
		}
		*y = bottom + 2;
	}
}

/* ------------------------------------------------------------------ the rest */

static void supply_and_turn(struct buf *out, const json_t *view, double *y)
{
	const json_t *sup = json_object_get(view, "supply"), *dice = json_object_get(view, "dice");
	static const char *const kinds[] = { "teal", "brown", "pink", "gold", "human" };
	static const char letters[] = { 't', 'b', 'p', 'g', 'h' };
	double x = 8;

	svg_heading(out, y, W, "Supply", NULL);
	for (int k = 0; k < 5; k++) {
		quarter(out, x + 5, *y + 8, 6, letters[k]);
		buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"%d\">%s %lld</text>", x + 14, *y + 12, SVG_TEXT,
			 k == 4 ? "Humans" : kinds[k], num(sup, kinds[k]));
		x += k == 4 ? 0 : 72;
	}
	*y += 20;
	if (json_is_object(dice)) {
		struct buf t = BUF_INIT;
		buf_addf(&t, "Expedition dice: %lld food, %lld water, %lld metal, %lld Human; keep up to %lld",
			 num(dice, "food"), num(dice, "water"), num(dice, "metal"), num(dice, "human"), num(dice, "keep"));
		if (num(dice, "rerolls"))
			buf_addf(&t, "; %lld reroll%s", num(dice, "rerolls"), num(dice, "rerolls") == 1 ? "" : "s");
		*y += SVG_LINE * svg_text_wrap(out, 8, *y + 12, SVG_TEXT, W - 16, 3, "font-weight=\"600\"", t.data) + 4;
		buf_release(&t);
	}
}

/* The two hubs dealt to this seat while they choose. */
static void dealt_hubs(struct buf *out, const json_t *view, const json_t *seats, int you, const struct game_tapset *taps,
		       double *y)
{
	const json_t *p = json_array_get(json_object_get(view, "players"), (size_t)(you < 0 ? 0 : you)), *h;
	size_t i;

	if (you < 0 || strcmp(str(view, "phase"), "hub") || !json_array_size(json_object_get(p, "dealt_hubs")) ||
	    json_is_string(json_object_get(p, "hub")))
		return;
	svg_heading(out, y, W, "Your two Station Hubs: keep one", NULL);
	json_array_foreach(json_object_get(p, "dealt_hubs"), i, h) {
		struct buf body = BUF_INIT;
		int lines = svg_text_wrap(&body, 10, *y + 34, SVG_TEXT, W - 20, 5, "fill=\"#333\"", str(h, "setup"));
		const struct game_tap *tap;
		enum game_tap_look look;
		char part[48];
		snprintf(part, sizeof(part), "hub-%s", str(h, "id"));
		for (char *c = part; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c - 'A' + 'a');
		look = game_tap_look(taps, part, 0, &tap);
		lines += svg_text_wrap(&body, 10, *y + 34 + lines * SVG_LINE, SVG_TEXT, W - 20, 6,
				       "fill=\"#1b1f24\" font-weight=\"600\"", str(h, "text"));
		tapdraw_open(out, look, tap, seats);
		buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"%g\" rx=\"5\" fill=\"#fff\" stroke=\"%s\" "
			      "stroke-width=\"%s\"/><text x=\"10\" y=\"%g\" font-size=\"14\" font-weight=\"700\">",
			 *y, W - 8, 24 + lines * (double)SVG_LINE + 2, tapdraw_stroke(look, "#9fb3cc"), tapdraw_width(look), *y + 17);
		svg_esc(out, str(h, "id"));
		buf_adds(out, "</text>");
		buf_add(out, body.data, body.len);
		tapdraw_close(out, look);
		buf_release(&body);
		*y += 24 + lines * SVG_LINE + 6;
	}
}

static void final_sheet(struct buf *out, const json_t *view, const json_t *seats, double *y)
{
	static const char *const cats[] = { "points", "sectors", "residents", "humans", "gold", "teal", "pink",
					    "brown", "bonuses", "leftovers", "total" };
	const json_t *sheet = json_object_get(json_object_get(view, "result"), "sheet"), *row;
	size_t n = json_array_size(sheet), i;
	double lw = 84, cw;

	if (!n)
		return;
	cw = (W - 8 - lw) / (double)n;
	svg_heading(out, y, W, "Final scoring", NULL);
	json_array_foreach(sheet, i, row) {
		struct buf t = BUF_INIT;
		svg_seat_name(&t, seats, (long long)i, 1);
		svg_text_fit(out, 4 + lw + cw * (double)i + 3, *y + 12, SVG_TEXT, cw - 6, "font-weight=\"700\"", t.data, t.len);
		buf_release(&t);
	}
	*y += 17;
	for (size_t c = 0; c < sizeof(cats) / sizeof(cats[0]); c++) {
		int total = c + 1 == sizeof(cats) / sizeof(cats[0]);
		if (c % 2 == 0 || total)
			buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", *y, W - 8, SVG_LINE + 2,
				 total ? "#ffe9a8" : "#f1f3f6");
		buf_addf(out, "<text x=\"8\" y=\"%g\" font-size=\"%d\"%s>%s</text>", *y + 12, SVG_TEXT,
			 total ? " font-weight=\"700\"" : "", cats[c]);
		json_array_foreach(sheet, i, row)
			buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"%d\"%s>%lld</text>", 4 + lw + cw * (double)i + 3,
				 *y + 12, SVG_TEXT, total ? " font-weight=\"700\"" : "", num(row, cats[c]));
		*y += SVG_LINE + 2;
	}
	*y += 6;
}

int ssp_board(const struct game_board_in *in, struct buf *out, struct err *err)
{
	const json_t *view = in->view, *seats = in->seats;
	int seat = in->seat;
	struct buf body = BUF_INIT;
	double y = 2;

	if (!json_is_object(view))
		return err_set(err, ERR_INPUT, "the board is drawn from a view object");
	final_sheet(&body, view, seats, &y);
	choices(&body, in->taps, view, seats, seat, &y);
	dealt_hubs(&body, view, seats, seat, in->taps, &y);
	scoreboard(&body, view, seats, seat, &y);
	y += 4;
	ships(&body, view, seats, seat, in->taps, &y);
	y += 4;
	diplomacy(&body, view, seats, in->taps, &y);
	y += 2;
	stations(&body, view, in->before, seats, seat, &y);
	display(&body, view, in->before, seats, in->taps, &y);
	supply_and_turn(&body, view, &y);
	buf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %g\" role=\"%s\" "
		      "aria-label=\"Space Station Phoenix board\" font-family=\"system-ui, sans-serif\" fill=\"#1b1f24\">",
		 W, y + 4, in->taps ? "group" : "img");
	buf_add(out, body.data, body.len);
	buf_adds(out, "</svg>");
	buf_release(&body);
	return 0;
}
