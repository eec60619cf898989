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
		svg_seat_name(&t, seats, num(end, "triggered_by"), 0);
		buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"18\" rx=\"4\" fill=\"#ffe9a8\"/>"
			      "<text x=\"10\" y=\"%g\" font-size=\"10.5\" font-weight=\"600\">Game end triggered by %s: "
			      "%lld more turn%s</text>",
			 *y, W - 8, *y + 12.5, t.data, num(end, "turns_left"), num(end, "turns_left") == 1 ? "" : "s");
		buf_release(&t);
		*y += 22;
	}
	json_array_foreach(players, i, p) {
		long long s = num(p, "seat");
		int c = svg_seat_colour(s);
		const json_t *res = json_object_get(p, "residents");
		struct buf line = BUF_INIT;

		buf_addf(out, "<g><rect x=\"4\" y=\"%g\" width=\"%d\" height=\"34\" rx=\"5\" fill=\"#fff\" stroke=\"%s\" "
			      "stroke-width=\"%s\"/><rect x=\"4\" y=\"%g\" width=\"7\" height=\"34\" rx=\"3\" fill=\"%s\"/>",
			 *y, W - 8, svg_seat_fill(c), s == you ? "2.2" : "1", *y, svg_seat_fill(c));
		svg_seat_name(&line, seats, s, 0);
		if (s == you)
			buf_adds(&line, " (you)");
		buf_addf(out, "<text x=\"16\" y=\"%g\" font-size=\"11.5\" font-weight=\"700\">%s</text>", *y + 13, line.data);
		buf_addf(out, "<text x=\"%d\" y=\"%g\" font-size=\"11.5\" font-weight=\"700\" text-anchor=\"end\">%lld pts</text>",
			 W - 10, *y + 13, num(p, "points"));
		buf_reset(&line);
		buf_addf(&line, "%lld GEMs · %lld food · %lld water · %lld metal · hub %s · %lld aliens, %lld humans",
			 num(p, "gems"), num(p, "food"), num(p, "water"), num(p, "metal"),
			 json_is_string(json_object_get(p, "hub")) ? str(p, "hub") : "?",
			 num(res, "teal") + num(res, "brown") + num(res, "pink") + num(res, "gold"), num(res, "human"));
		svg_text_fit(out, 16, *y + 27, 9.5, W - 28, "fill=\"#333\"", line.data, line.len);
		buf_adds(out, "</g>");
		buf_release(&line);
		*y += 38;
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
	svg_text_fit(out, 7, 12, 9.5, w - 10, "font-weight=\"700\"", t.data, t.len);
	buf_reset(&t);
	ship_power(&t, sh);
	if (t.len)
		svg_text_fit(out, 7, 23, 8.5, w - 10, used ? NULL : "fill=\"#333\"", t.data, t.len);
	buf_reset(&t);
	if (used) {
		buf_adds(&t, "used");
		if (json_is_integer(json_object_get(sh, "used_by"))) {
			buf_adds(&t, " by ");
			svg_seat_name(&t, seats, num(sh, "used_by"), 0);
		}
		buf_adds(out, "<text x=\"7\" y=\"34\" font-size=\"8.5\" font-weight=\"600\" fill=\"#a3261b\"");
		if ((double)t.len * 8.5 * SVG_CHAR_W > w - 10)
			buf_addf(out, " textLength=\"%g\" lengthAdjust=\"spacingAndGlyphs\"", w - 10);
		buf_addf(out, ">%s</text>", t.data);
	} else {
		long long cost = json_is_integer(json_object_get(sh, "your_cost")) ? num(sh, "your_cost") : num(sh, "cost");
		if (other)
			buf_addf(&t, "%lld GEM%s + %lld fee", cost, cost == 1 ? "" : "s", num(sh, "fee"));
		else
			buf_addf(&t, "%lld GEM%s", cost, cost == 1 ? "" : "s");
		svg_text_fit(out, 7, 34, 8.5, w - 10, "fill=\"#1f5fae\" font-weight=\"600\"", t.data, t.len);
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
	const double cw = 74, ch = 38;

	json_array_foreach(ships, i, sh)
		if (!strcmp(str(sh, "where"), where))
			k++;
	if (!k)
		return;
	if (colour >= 0)
		buf_addf(out, "<rect x=\"6\" y=\"%g\" width=\"9\" height=\"9\" rx=\"2\" fill=\"%s\"/>", *y + 2, svg_seat_fill(colour));
	buf_addf(out, "<text x=\"%d\" y=\"%g\" font-size=\"10.5\" font-weight=\"600\">%s</text>", colour >= 0 ? 19 : 6,
		 *y + 10, label);
	*y += 14;
	k = 0;
	json_array_foreach(ships, i, sh) {
		if (strcmp(str(sh, "where"), where))
			continue;
		ship_card(out, 4 + (double)(k % 5) * (cw + 3), *y + (double)(k / 5) * (ch + 3), cw, ch, sh, seats, you, taps);
		k++;
	}
	*y += (double)((k + 4) / 5) * (ch + 3) + 3;
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
	buf_addf(out, "<text x=\"6\" y=\"%g\" font-size=\"9\" fill=\"#5b6470\">cost to use it (others' ships: + the owner's fee); "
		      "dismantled: 6/8/10 metal by level</text>", *y + 8);
	*y += 13;
	ship_row(out, view, seats, you, taps, "display", "Draft display", -1, y);
	json_array_foreach(players, i, p) {
		long long s = num(p, "seat");
		char where[32];
		buf_reset(&label);
		svg_seat_name(&label, seats, s, 0);
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
	static const char *const bonus[] = { "1 GEM", "2 GEMs", "1 point", NULL, "2 bonuses", "2 bonuses" };
	const json_t *players = json_object_get(view, "players"), *p;
	const char *active = str(view, "diplomacy_track");
	const double lw = 64, cw = 53, rh = 26;
	size_t i;

	svg_heading(out, y, W, "Diplomacy", "an advance costs the GEMs of the level reached");
	for (int l = 0; l < 6; l++) {
		const json_t *c = json_array_get(json_object_get(json_object_get(view, "diplomacy_board"), "lobbying_cost"),
						 (size_t)(l - 1));
		long long gems = json_is_object(c) ? num(c, "gems") : l + 1;
		buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"8.5\" text-anchor=\"middle\" fill=\"#5b6470\">%s%d"
			      "<tspan x=\"%g\" dy=\"10\">%s</tspan>",
			 4 + lw + cw * (l + 0.5), *y + 9, l ? "level " : "start ", l, 4 + lw + cw * (l + 0.5),
			 bonus[l] ? bonus[l] : "resource");
		if (l)
			buf_addf(out, "<tspan x=\"%g\" dy=\"10\" fill=\"#1f5fae\" font-weight=\"600\">%lld GEMs</tspan>",
				 4 + lw + cw * (l + 0.5), gems);
		buf_adds(out, "</text>");
	}
	*y += 33;
	for (int t = 0; t < 4; t++) {
		double top = *y + t * (rh + 2);
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
		buf_addf(out, "<text x=\"8\" y=\"%g\" font-size=\"10\" font-weight=\"700\">%s</text>", top + 11, tracks[t]);
		buf_addf(out, "<text x=\"8\" y=\"%g\" font-size=\"8\" fill=\"#5b6470\">L3: %s</text>", top + 21, lvl3[t]);
		for (int l = 0; l < 6; l++) {
			double cx = 4 + lw + cw * l;
			int k = 0;
			buf_addf(out, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"3\" fill=\"#fff\" stroke=\"#e2dcef\"/>",
				 cx + 1, top + 2, cw - 2, rh - 4);
			json_array_foreach(players, i, p) {
				long long s = num(p, "seat");
				if (num(json_object_get(p, "diplomacy"), tracks[t]) != l)
					continue;
				buf_addf(out, "<circle cx=\"%g\" cy=\"%g\" r=\"5.5\" fill=\"%s\" stroke=\"#fff\"><title>",
					 cx + 8 + (k % 4) * 12, top + 13 + (k / 4) * 9, svg_seat_fill(s));
				svg_seat_name(out, seats, s, 0);
				buf_adds(out, "</title></circle>");
				k++;
			}
		}
		tapdraw_close(out, look);
	}
	*y += 4 * (rh + 2) + 4;
}

/* ------------------------------------------------------------------ sectors */

/* What each living quarter of a Sector gives, in one line: "1 food · 2 GEMs · ability · end". */
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
			buf_adds(t, !strcmp(g, "ability") ? "ability" : !strcmp(g, "end_bonus") ? end_word : "-");
		}
	}
}

static void quarter_gives(struct buf *out, const json_t *sec, double x, double y, double width)
{
	struct buf t = BUF_INIT;

	gives_words(&t, sec, "end");
	if (t.len)
		svg_text_fit(out, x, y, 8, width, "fill=\"#1f5fae\"", t.data, t.len);
	buf_release(&t);
}

/* A built Sector in a wing: its number, then its quarters. */
static void sector_row(struct buf *out, double x, double y, double w, const json_t *sec)
{
	const char *q = str(sec, "quarters");
	size_t n = strlen(q);
	double r = 5.2, step = 12.2;

	buf_adds(out, "<g><title>");
	buf_addf(out, "Sector %lld, level %lld, %s", num(sec, "id"), num(sec, "level"), str(sec, "colour"));
	if (json_is_string(json_object_get(sec, "ability"))) {
		buf_adds(out, ": ");
		svg_esc(out, str(sec, "ability"));
	}
	buf_addf(out, "</title><text x=\"%g\" y=\"%g\" font-size=\"10\" font-weight=\"700\">%lld</text>", x, y + 4,
		 num(sec, "id"));
	for (size_t k = 0; k < n && k < 8; k++) {
		const json_t *lq = json_array_get(json_object_get(sec, "living_quarters"), k);
		const char *g = str(lq, "gives");
		char t[16] = "";
		quarter(out, x + 30 + (double)k * step, y, r, q[k]);
		/* what the quarter gives: 1F food, 2W water, 1M metal, 1G GEM, A ability, E end bonus */
		if (!strcmp(g, "income")) {
			const char *key;
			json_t *v;
			json_object_foreach(json_object_get(lq, "income"), key, v)
				snprintf(t, sizeof(t), "%lld%c", (long long)json_integer_value(v),
					 !strcmp(key, "gems") ? 'G' : (char)(key[0] - 'a' + 'A'));
		} else if (!strcmp(g, "ability") || !strcmp(g, "end_bonus")) {
			snprintf(t, sizeof(t), "%c", g[0] == 'a' ? 'A' : 'E');
		}
		if (*t)
			buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"6.5\" text-anchor=\"middle\" fill=\"#1f5fae\">%s</text>",
				 x + 30 + (double)k * step, y + r + 7, t);
	}
	(void)w;
	buf_adds(out, "</g>");
}

static int colour_index(const char *c)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(c, wing_names[i]))
			return i;
	return -1;
}

/* Text that reads at 11 CSS pixels where the board is 358 pixels wide (390 less the page's margins). */
#define SSP_BOARD_TEXT 12

static void station(struct buf *out, const json_t *p, const json_t *seats, int you, double *y)
{
	long long s = num(p, "seat");
	int c = svg_seat_colour(s);
	const json_t *list = json_object_get(p, "station"), *sec;
	const double ww = 124, rowh = 22;
	int rows[3] = { 0, 0, 0 }, maxrows = 1;
	size_t i;
	double top = *y, body;
	struct buf t = BUF_INIT;

	json_array_foreach(list, i, sec) {
		int w = colour_index(str(sec, "colour"));
		if (w >= 0 && ++rows[w] > maxrows)
			maxrows = rows[w];
	}
	svg_seat_name(&t, seats, s, 0);
	buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"7\" height=\"12\" rx=\"2\" fill=\"%s\"/>"
		      "<text x=\"15\" y=\"%g\" font-size=\"11\" font-weight=\"700\">%s%s: hub ",
		 top, svg_seat_fill(c), top + 10, t.data, s == you ? " (you)" : "");
	svg_esc(out, json_is_string(json_object_get(p, "hub")) ? str(p, "hub") : "not chosen");
	if (json_is_object(json_object_get(p, "hub_info"))) {
		const json_t *inc = json_object_get(json_object_get(p, "hub_info"), "income");
		long long per = num(inc, "gems_per_ship"), flat = num(inc, "gems");
		buf_adds(out, "</text><text x=\"");
		buf_addf(out, "%d\" y=\"%g\" font-size=\"10\" text-anchor=\"end\" fill=\"#1f5fae\" font-weight=\"600\">income: ",
			 W - 8, top + 10);
		if (per)
			buf_addf(out, "%lld GEM%s per ship%s", per, per == 1 ? "" : "s", flat ? " + " : "");
		if (flat || !per)
			buf_addf(out, "%lld GEM%s", flat, flat == 1 ? "" : "s");
	}
	buf_adds(out, "</text>");
	buf_release(&t);
	*y += 14;
	if (json_is_string(json_object_get(p, "hub_text")))
		*y += 10.5 * svg_text_wrap(out, 15, *y + 8, 8.5, W - 20, 3, "fill=\"#444\"", str(p, "hub_text")) + 1;
	body = *y;
	for (int w = 0; w < 3; w++) {
		double x = 4 + w * (ww + 4);
		int k = 0;
		buf_addf(out, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"5\" fill=\"%s\" stroke=\"%s\"/>"
			      "<text x=\"%g\" y=\"%g\" font-size=\"7.5\" text-anchor=\"end\" fill=\"%s\">%s wing</text>",
			 x, body, ww, 6 + maxrows * rowh, wing_fill[w], wing_line[w], x + ww - 4, body + 8, wing_line[w],
			 wing_names[w]);
		json_array_foreach(list, i, sec) {
			if (colour_index(str(sec, "colour")) != w)
				continue;
			sector_row(out, x + 4, body + 10 + k * rowh, ww, sec);
			k++;
		}
		if (!k)
			buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"8.5\" fill=\"#8a8f98\">no Sector</text>", x + 5,
				 body + 14);
	}
	*y = body + 6 + maxrows * rowh + 3;
	if (json_is_string(json_object_get(p, "hub_quarters"))) {
		const char *q = str(p, "hub_quarters");
		buf_addf(out, "<text x=\"8\" y=\"%g\" font-size=\"9\">hub quarters</text>", *y + 9);
		for (size_t k = 0; q[k]; k++)
			quarter(out, 72 + (double)k * 12.2, *y + 6, 5.2, q[k]);
		*y += 15;
	}
	/* each built Sector in words, big enough to read on a phone: what its quarters give, its ability */
	json_array_foreach(list, i, sec) {
		struct buf l = BUF_INIT;
		const char *ab = str(sec, "ability");
		buf_addf(&l, "%lld: ", num(sec, "id"));
		gives_words(&l, sec, "end bonus");
		if (*ab)
			buf_addf(&l, ". %s", ab);
		*y += SSP_BOARD_TEXT * 1.18 * svg_text_wrap(out, 8, *y + SSP_BOARD_TEXT, SSP_BOARD_TEXT, W - 14, 4,
							     "fill=\"#333\"", l.data) + 3;
		buf_release(&l);
	}
	if (json_array_size(json_object_get(p, "private_sectors"))) {
		struct buf l = BUF_INIT;
		buf_adds(&l, "private Sectors (A-6):");
		json_array_foreach(json_object_get(p, "private_sectors"), i, sec)
			buf_addf(&l, " %lld", num(sec, "id"));
		svg_text_fit(out, 8, *y + 9, 9, W - 16, NULL, l.data, l.len);
		buf_release(&l);
		*y += 13;
	}
	{
		struct buf l = BUF_INIT;
		const json_t *st = json_object_get(p, "standing_diplomacy"), *b;
		if (json_is_string(json_object_get(p, "neutral_token"))) {
			buf_adds(&l, "holds the Neutral Ship marker (");
			svg_esc(&l, str(p, "neutral_token"));
			buf_adds(&l, ")");
		}
		if (json_array_size(st)) {
			buf_adds(&l, l.len ? "; standing bonus choice:" : "standing bonus choice:");
			json_array_foreach(st, i, b) {
				buf_adds(&l, i ? ", " : " ");
				svg_esc(&l, json_string_value(b));
			}
		}
		if (l.len) {
			buf_addf(out, "<text x=\"8\" y=\"%g\" font-size=\"9\" fill=\"#444\">%s</text>", *y + 9, l.data);
			*y += 13;
		}
		buf_release(&l);
	}
	*y += 6;
}

static void stations(struct buf *out, const json_t *view, const json_t *before, const json_t *seats, int you, double *y)
{
	const json_t *players = json_object_get(view, "players"), *p;
	size_t i;

	svg_heading(out, y, W, "Stations", "quarters: dashed = placed this turn");
	{
		static const char legend[] = "under each quarter what it gives: F food, W water, M metal, G GEMs, A ability, "
					     "E end bonus";
		svg_text_fit(out, 6, *y + 8, 9, W - 12, "fill=\"#5b6470\"", legend, sizeof(legend) - 1);
	}
	*y += 13;
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
		buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"10\" font-weight=\"700\" text-anchor=\"middle\" fill=\"%s\">%s</text>",
			 4 + w * (cw + 4) + cw / 2, *y + 9, wing_line[w], wing_names[w]);
	*y += 13;
	for (long long level = 1; level <= 3; level++) {
		double col[3], bottom;
		int any = 0;
		json_array_foreach(list, i, sec)
			any |= num(sec, "level") == level;
		if (!any)
			continue;
		buf_addf(out, "<text x=\"%d\" y=\"%g\" font-size=\"9\" font-weight=\"600\" text-anchor=\"middle\" "
			      "fill=\"#5b6470\">level %lld: %d quarters</text>", W / 2, *y + 8, level, level == 1 ? 3 : level == 2 ? 5 : 6);
		*y += 11;
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
			quarter_gives(&body, sec, x + 5, top + 23, cw - 9);
			lines = 1 + svg_text_wrap(&body, x + 5, top + 23 + 9.44, 8, cw - 9, 7, "fill=\"#333\"",
						  *ab ? ab : "income only");
			h = 18 + lines * 9.44 + 4;
			tapdraw_open(out, look, tap, seats);
			buf_addf(out, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"5\" fill=\"%s\" "
				      "stroke=\"%s\" stroke-width=\"%s\"/>"
				      "<text x=\"%g\" y=\"%g\" font-size=\"10.5\" font-weight=\"700\">%lld</text>"
				      "<text x=\"%g\" y=\"%g\" font-size=\"9\" text-anchor=\"end\" fill=\"#1f5fae\" "
				      "font-weight=\"600\">%lld metal</text>",
				 x, top, cw, h, wing_fill[w], tapdraw_stroke(look, wing_line[w]), tapdraw_width(look), x + 5, top + 12,
				 num(sec, "id"), x + cw - 5, top + 12, num(sec, "cost"));
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
		quarter(out, x + 5, *y + 6, 5.5, letters[k]);
		buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"10\">%s %lld</text>", x + 13, *y + 10,
			 k == 4 ? "Humans" : kinds[k], num(sup, kinds[k]));
		x += k == 4 ? 0 : 72;
	}
	*y += 18;
	if (json_is_object(dice)) {
		struct buf t = BUF_INIT;
		buf_addf(&t, "Expedition dice: %lld food, %lld water, %lld metal, %lld Human; keep up to %lld",
			 num(dice, "food"), num(dice, "water"), num(dice, "metal"), num(dice, "human"), num(dice, "keep"));
		if (num(dice, "rerolls"))
			buf_addf(&t, "; %lld reroll%s", num(dice, "rerolls"), num(dice, "rerolls") == 1 ? "" : "s");
		svg_text_fit(out, 8, *y + 10, 10, W - 16, "font-weight=\"600\"", t.data, t.len);
		buf_release(&t);
		*y += 16;
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
		int lines = svg_text_wrap(&body, 10, *y + 25, 9, W - 20, 4, "fill=\"#333\"", str(h, "setup"));
		const struct game_tap *tap;
		enum game_tap_look look;
		char part[48];
		snprintf(part, sizeof(part), "hub-%s", str(h, "id"));
		for (char *c = part; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c - 'A' + 'a');
		look = game_tap_look(taps, part, 0, &tap);
		lines += svg_text_wrap(&body, 10, *y + 25 + lines * 10.6, 9, W - 20, 4, "fill=\"#1b1f24\" font-weight=\"600\"",
				   str(h, "text"));
		tapdraw_open(out, look, tap, seats);
		buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"%g\" rx=\"5\" fill=\"#fff\" stroke=\"%s\" "
			      "stroke-width=\"%s\"/><text x=\"10\" y=\"%g\" font-size=\"11\" font-weight=\"700\">",
			 *y, W - 8, 20 + lines * 10.6 + 2, tapdraw_stroke(look, "#9fb3cc"), tapdraw_width(look), *y + 13);
		svg_esc(out, str(h, "id"));
		buf_adds(out, "</text>");
		buf_add(out, body.data, body.len);
		tapdraw_close(out, look);
		buf_release(&body);
		*y += 20 + lines * 10.6 + 6;
	}
}

static void final_sheet(struct buf *out, const json_t *view, const json_t *seats, double *y)
{
	static const char *const cats[] = { "points", "sectors", "residents", "humans", "gold", "teal", "pink",
					    "brown", "bonuses", "leftovers", "total" };
	const json_t *sheet = json_object_get(json_object_get(view, "result"), "sheet"), *row;
	size_t n = json_array_size(sheet), i;
	double lw = 70, cw;

	if (!n)
		return;
	cw = (W - 8 - lw) / (double)n;
	svg_heading(out, y, W, "Final scoring", NULL);
	json_array_foreach(sheet, i, row) {
		struct buf t = BUF_INIT;
		svg_seat_name(&t, seats, (long long)i, 1);
		svg_text_fit(out, 4 + lw + cw * (double)i + 3, *y + 10, 10, cw - 6,
			 "font-weight=\"700\"", t.data, t.len);
		buf_release(&t);
	}
	*y += 14;
	for (size_t c = 0; c < sizeof(cats) / sizeof(cats[0]); c++) {
		int total = c + 1 == sizeof(cats) / sizeof(cats[0]);
		if (c % 2 == 0 || total)
			buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"13\" fill=\"%s\"/>", *y, W - 8,
				 total ? "#ffe9a8" : "#f1f3f6");
		buf_addf(out, "<text x=\"8\" y=\"%g\" font-size=\"9.5\"%s>%s</text>", *y + 10,
			 total ? " font-weight=\"700\"" : "", cats[c]);
		json_array_foreach(sheet, i, row)
			buf_addf(out, "<text x=\"%g\" y=\"%g\" font-size=\"9.5\"%s>%lld</text>", 4 + lw + cw * (double)i + 3,
				 *y + 10, total ? " font-weight=\"700\"" : "", num(row, cats[c]));
		*y += 13;
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
