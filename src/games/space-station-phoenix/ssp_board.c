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

/* The wings' colours: their names are also the classes of their boxes in static/style.css; their ink. */
static const char *const wing_names[] = { "teal", "brown", "pink" };
static const char *const wing_line[] = { "#1f9e93", "#8a5a35", "#d2588f" };

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

/*
 * A quarter at cx,cy (0 is left out): a circle of radius 6 filled with its
 * resident (t, b, p, g, h: the view's letter) or empty (e); a capital
 * letter, one placed this turn, has a dashed ring. The circles are in the
 * board's <defs> (quarter_defs).
 */
static void quarter(struct buf *out, double cx, double cy, char c)
{
	if (!c || !strchr("tbpghTBPGH", c))
		c = 'e';
	buf_addf(out, "<use href=\"#q%c\"", c);
	if (cx)
		buf_addf(out, " x=\"%g\"", cx);
	if (cy)
		buf_addf(out, " y=\"%g\"", cy);
	buf_adds(out, "/>");
}

/* Is the quarter letter c on a station of the view (a Sector's quarters or a hub's)? */
static int quarter_shown(const json_t *view, char c)
{
	const json_t *p, *sec;
	size_t i, k;

	json_array_foreach(json_object_get(view, "players"), i, p) {
		if (strchr(str(p, "hub_quarters"), c))
			return 1;
		json_array_foreach(json_object_get(p, "station"), k, sec)
			if (strchr(str(sec, "quarters"), c))
				return 1;
	}
	return 0;
}

/*
 * The quarters' circles for the board's <defs>: ids "q" and the view's
 * letter; the residents and the empty quarter always (the supply shows
 * them), one placed this turn when the view has one. Their colours are
 * attributes: a stylesheet's classes do not reach into what <use> draws.
 */
static void quarter_defs(struct buf *out, const json_t *view)
{
	static const struct {
		char l;
		const char *fill;
	} res[] = { { 't', "#1f9e93" }, { 'b', "#8a5a35" }, { 'p', "#e46fa5" }, { 'g', "#e2b007" }, { 'h', "#f7f7f2" } };

	for (size_t i = 0; i < sizeof(res) / sizeof(res[0]); i++) {
		char fresh = (char)(res[i].l - 'a' + 'A');
		buf_addf(out, "<circle id=\"q%c\" r=\"6\" fill=\"%s\" stroke=\"#333\" stroke-width=\".8\"/>", res[i].l,
			 res[i].fill);
		if (quarter_shown(view, fresh))
			buf_addf(out, "<circle id=\"q%c\" r=\"6\" fill=\"%s\" stroke=\"#333\" stroke-width=\"1.6\" "
				      "stroke-dasharray=\"2 1.2\"/>", fresh, res[i].fill);
	}
	buf_adds(out, "<circle id=\"qe\" r=\"6\" fill=\"#fff\" stroke=\"#9aa3ad\" stroke-width=\".8\"/>");
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
		svg_text_fit(out, 10, *y + 14.5, SVG_TEXT, W - 20, "class=\"s\"", t.data, t.len);
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
		svg_text_fit(out, 16, *y + 15, SVG_HEAD, W - 100, "class=\"h\"", line.data, line.len);
		buf_addf(out, "<text x=\"%d\" y=\"%g\" class=\"h e\">%lld pts</text>",
			 W - 10, *y + 15, num(p, "points"));
		buf_reset(&line);
		buf_addf(&line, "%lld GEMs · %lld food · %lld water · %lld metal", num(p, "gems"), num(p, "food"),
			 num(p, "water"), num(p, "metal"));
		svg_text_fit(out, 16, *y + 30, SVG_TEXT, W - 28, NULL, line.data, line.len);
		buf_reset(&line);
		buf_addf(&line, "hub %s · %lld aliens, %lld humans", json_is_string(json_object_get(p, "hub")) ? str(p, "hub") : "not chosen",
			 num(res, "teal") + num(res, "brown") + num(res, "pink") + num(res, "gold"), num(res, "human"));
		svg_text_fit(out, 16, *y + 44, SVG_TEXT, W - 28, NULL, line.data, line.len);
		buf_adds(out, "</g>");
		buf_release(&line);
		*y += 52;
	}
}

/* ------------------------------------------------------------------ ships */

/* A ship card's size, and its kinds: each card is its kind's shape (defs) with a strip of the kind's colour. */
#define CARD_W 125
#define CARD_H 52
static const struct {
	const char *type, *colour, *id;
} kinds[] = {
	{ "dismantle", "#8c3b2e", "kd" }, { "construct", "#d9822b", "kc" }, { "transport", "#2f6fd6", "kt" },
	{ "expedition", "#2e9e57", "ke" }, { "diplomacy", "#8e44ad", "kp" }, { "farm", "#7a8b22", "kf" },
	{ "ice", "#2aa6c4", "ki" }, { "", "#555", "kx" },
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* The id of the shape of a ship of type (the last kind, grey, for an unknown one). */
static const char *kind_id(const char *type)
{
	size_t i;

	for (i = 0; i + 1 < NKINDS; i++)
		if (!strcmp(type, kinds[i].type))
			break;
	return kinds[i].id;
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

	return tapdraw_look_any(taps, verbs, sizeof(verbs) / sizeof(verbs[0]), id, tap);
}

/*
 * A ship card at x,y: its kind's shape (its box takes the colours of its
 * classes: sc, the look's outline; su greys a used one), its title, what
 * it does and what it costs or who used it.
 */
static void ship_card(struct buf *out, double x, double y, const json_t *sh, const json_t *seats, int you,
		      const struct game_tapset *taps)
{
	const double w = CARD_W;
	int used = json_is_true(json_object_get(sh, "used"));
	const char *where = str(sh, "where"), *type = str(sh, "type");
	struct buf t = BUF_INIT;
	int own = you >= 0 && where[0] == 'p' && where[1] - '1' == you && where[2] == '\0';
	int other = !own && where[0] == 'p' && where[1] >= '1' && where[1] <= '9' && where[2] == '\0';
	const struct game_tap *tap;
	enum game_tap_look look = ship_look(taps, str(sh, "id"), &tap);

	/* an offered card is a link; a greyed one fades (gy) in the card's own group */
	if (look == GAME_TAP_OFFERED)
		tapdraw_open(out, look, tap, seats);
	buf_addf(out, "<g transform=\"translate(%g %g)\"", x, y);
	if (used || look == GAME_TAP_GREY)
		buf_addf(out, " class=\"%s%s\"", used ? "su" : "", look == GAME_TAP_GREY ? (used ? " gy" : "gy") : "");
	buf_addf(out, "><use href=\"#%s\" class=\"sc%s\"/>", kind_id(type), tapdraw_class(look));
	ship_title(&t, str(sh, "id"));
	svg_text_fit(out, 8, 15, SVG_HEAD, w - 12, "class=\"h\"", t.data, t.len);
	buf_reset(&t);
	ship_power(&t, sh);
	if (t.len)
		svg_text_fit(out, 8, 30, SVG_TEXT, w - 12, NULL, t.data, t.len);
	buf_reset(&t);
	if (used) {
		buf_adds(&t, "used");
		if (json_is_integer(json_object_get(sh, "used_by"))) {
			buf_adds(&t, " by ");
			svg_seat_name(&t, seats, num(sh, "used_by"), 1);
		}
		svg_text_fit(out, 8, 45, SVG_TEXT, w - 12, "class=\"s w\"", t.data, t.len);
	} else {
		long long cost = json_is_integer(json_object_get(sh, "your_cost")) ? num(sh, "your_cost") : num(sh, "cost");
		if (other)
			buf_addf(&t, "%lld GEM%s + %lld fee", cost, cost == 1 ? "" : "s", num(sh, "fee"));
		else
			buf_addf(&t, "%lld GEM%s", cost, cost == 1 ? "" : "s");
		svg_text_fit(out, 8, 45, SVG_TEXT, w - 12, "class=\"c s\"", t.data, t.len);
	}
	buf_adds(out, "</g>");
	if (look == GAME_TAP_OFFERED)
		tapdraw_close(out, look);
	buf_release(&t);
}

/* The shapes of the ship cards of the view, one a kind (ship_card), for the board's <defs>. */
static void card_defs(struct buf *out, const json_t *view)
{
	int want[NKINDS] = { 0 };
	const json_t *sh;
	size_t i;

	json_array_foreach(json_object_get(view, "ships"), i, sh)
		for (size_t k = 0; k < NKINDS; k++)
			want[k] |= !strcmp(kind_id(str(sh, "type")), kinds[k].id);
	/* the card's box once (k), then each kind: the box and the kind's strip */
	buf_addf(out, "<rect id=\"k\" width=\"%d\" height=\"%d\" rx=\"4\"/>", CARD_W, CARD_H);
	for (i = 0; i < NKINDS; i++)
		if (want[i])
			buf_addf(out, "<g id=\"%s\"><use href=\"#k\"/><rect width=\"4\" height=\"%d\" rx=\"2\" fill=\"%s\" "
				      "stroke=\"none\"/></g>", kinds[i].id, CARD_H, kinds[i].colour);
}

/* Ships of one place ("p1", "neutral", "display", "drawn-p2") under a label; nothing when there are none. */
static void ship_row(struct buf *out, const json_t *view, const json_t *seats, int you, const struct game_tapset *taps,
		     const char *where, const char *label, int colour, double *y)
{
	const json_t *ships = json_object_get(view, "ships"), *sh;
	size_t i, k = 0;
	const double cw = CARD_W, ch = CARD_H; /* three to a row, 3 apart */

	json_array_foreach(ships, i, sh)
		if (!strcmp(str(sh, "where"), where))
			k++;
	if (!k)
		return;
	if (colour >= 0)
		buf_addf(out, "<rect x=\"6\" y=\"%g\" width=\"10\" height=\"10\" rx=\"2\" fill=\"%s\"/>", *y + 3, svg_seat_fill(colour));
	svg_text_fit(out, colour >= 0 ? 20 : 6, *y + 12, SVG_TEXT, W - 26, "class=\"s\"", label, strlen(label));
	*y += 17;
	k = 0;
	json_array_foreach(ships, i, sh) {
		if (strcmp(str(sh, "where"), where))
			continue;
		ship_card(out, 4 + (double)(k % 3) * (cw + 3), *y + (double)(k / 3) * (ch + 3), sh, seats, you, taps);
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
	*y += SVG_LINE * svg_text_wrap(out, 6, *y + 10, SVG_TEXT, W - 12, 3, "class=\"m\"",
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
	const double cw = 63, rh = 48; /* (W - 8) / 6, in whole units */
	size_t i;

	svg_heading(out, y, W, "Diplomacy", "an advance costs the GEMs of the level reached");
	for (int l = 0; l < 6; l++) {
		const json_t *c = json_array_get(json_object_get(json_object_get(view, "diplomacy_board"), "lobbying_cost"),
						 (size_t)(l - 1));
		long long gems = json_is_object(c) ? num(c, "gems") : l + 1;
		double cx = 4 + cw * (l + 0.5);
		buf_addf(out, "<text x=\"%g\" y=\"%g\" class=\"mid m\">%s%d<tspan x=\"%g\" dy=\"%d\">%s</tspan>", cx, *y + 10,
			 l ? "level " : "start ", l, cx, SVG_LINE, bonus[l]);
		if (l)
			buf_addf(out, "<tspan x=\"%g\" dy=\"%d\" class=\"c s\">%lld GEM%s</tspan>", cx, SVG_LINE, gems,
				 gems == 1 ? "" : "s");
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
		/* a track's box (class dt; dh: the track being advanced) and its six levels (dl) */
		buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"%g\" rx=\"4\" class=\"%s%s\"/>", top, W - 8, rh,
			 hot ? "dh" : "dt", tapdraw_class(look));
		buf_addf(out, "<text x=\"8\" y=\"%g\"><tspan class=\"b\">%s</tspan><tspan class=\"m\"> · its level 3 gives 1 "
			      "%s</tspan></text>", top + 14, tracks[t], lvl3[t]);
		/* the six levels: a box cut in six, one path */
		buf_addf(out, "<path class=\"dl\" d=\"M5 %gh%gv24h-%gz", top + 20, 6 * cw - 2, 6 * cw - 2);
		for (int l = 1; l < 6; l++)
			buf_addf(out, "M%g %gv24", 4 + cw * l, top + 20);
		buf_adds(out, "\"/>");
		for (int l = 0; l < 6; l++) {
			double cx = 4 + cw * l;
			int k = 0;
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
		lines = svg_text_wrap(out, x, y, SVG_TEXT, width, 4, "class=\"c\"", t.data);
	buf_release(&t);
	return lines;
}

/* A built Sector in a wing: its number, then its quarters (what each gives is in words under the wings). */
static void sector_row(struct buf *out, double x, double y, const json_t *sec)
{
	const char *q = str(sec, "quarters");
	size_t n = strlen(q);

	/* what it gives and its ability are in the words under the wings */
	buf_addf(out, "<g transform=\"translate(%g %g)\"><text y=\"4.5\" class=\"b\">%lld</text>", x, y, num(sec, "id"));
	for (size_t k = 0; k < n && k < 8; k++)
		quarter(out, 36 + (double)k * 14.5, 0, q[k]);
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
	svg_text_fit(out, 15, top + 12, SVG_HEAD, W - 20, "class=\"h\"", t.data, t.len);
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
		svg_text_fit(out, 15, *y + 11, SVG_TEXT, W - 20, "class=\"c s\"", t.data, t.len);
		*y += SVG_LINE + 1;
	}
	buf_release(&t);
	if (json_is_string(json_object_get(p, "hub_text")))
		*y += SVG_LINE * svg_text_wrap(out, 15, *y + 11, SVG_TEXT, W - 20, 4, NULL, str(p, "hub_text")) + 3;
	body = *y;
	for (int w = 0; w < 3; w++) {
		double x = 4 + w * (ww + 4);
		int k = 0;
		buf_addf(out, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"5\" class=\"%s\"/>"
			      "<text x=\"%g\" y=\"%g\" class=\"e\" fill=\"%s\">%s wing</text>",
			 x, body, ww, 22 + maxrows * rowh, wing_names[w], x + ww - 5, body + 13, wing_line[w], wing_names[w]);
		json_array_foreach(list, i, sec) {
			if (colour_index(str(sec, "colour")) != w)
				continue;
			sector_row(out, x + 4, body + 28 + k * rowh, sec);
			k++;
		}
		if (!k)
			buf_addf(out, "<text x=\"%g\" y=\"%g\" class=\"m\">no Sector</text>", x + 5, body + 30);
	}
	*y = body + 22 + maxrows * rowh + 4;
	if (json_is_string(json_object_get(p, "hub_quarters"))) {
		const char *q = str(p, "hub_quarters");
		buf_addf(out, "<text x=\"8\" y=\"%g\">hub quarters</text>", *y + 12);
		for (size_t k = 0; q[k]; k++)
			quarter(out, 100 + (double)k * 16, *y + 8, q[k]);
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
		*y += SVG_LINE * svg_text_wrap(out, 8, *y + SVG_TEXT, SVG_TEXT, W - 14, 4, NULL, l.data) + 3;
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
			*y += SVG_LINE * svg_text_wrap(out, 8, *y + SVG_TEXT, SVG_TEXT, W - 16, 3, NULL, l.data) + 2;
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
	*y += SVG_LINE * svg_text_wrap(out, 6, *y + 10, SVG_TEXT, W - 12, 3, "class=\"m\"",
				       "Each built Sector: its quarters, then in words what each gives, in order, and its "
				       "ability. A dashed quarter was placed this turn.") + 2;
	json_array_foreach(players, i, p) {
		double top = *y;
		station(out, p, seats, you, y);
		if (tapdraw_changed(before, tapdraw_before(before, "players", "seat", p), p))
			tapdraw_mark(out, 2, top - 1, W - 4, *y - top - 4);
	}
}

/*
 * A Sector of the display as a row at *y across the board, in its wing's
 * colours: its number and wing, its cost, then what each quarter gives and
 * its ability, in full width lines; tappable (48 units tall at least).
 */
static void display_sector(struct buf *out, const json_t *sec, int w, const json_t *before, const json_t *seats,
			   const struct game_tapset *taps, double *y)
{
	const char *ab = str(sec, "ability");
	const struct game_tap *tap;
	enum game_tap_look look;
	struct buf body = BUF_INIT;
	double top = *y, h;
	int lines;
	char part[48];

	snprintf(part, sizeof(part), "sector-%lld", num(sec, "id"));
	look = game_tap_look(taps, part, 0, &tap);
	lines = quarter_gives(&body, sec, 10, top + 15 + SVG_LINE, W - 20);
	if (*ab)
		lines += svg_text_wrap(&body, 10, top + 15 + (1 + lines) * SVG_LINE, SVG_TEXT, W - 20, 6, NULL, ab);
	h = 7 + (1 + lines) * SVG_LINE;
	if (h < 48)
		h = 48;
	tapdraw_open(out, look, tap, seats);
	buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"%g\" rx=\"5\" class=\"%s%s\"/>"
		      "<text x=\"10\" y=\"%g\" class=\"h\">%lld %s</text><text x=\"%d\" y=\"%g\" class=\"e c s\">%lld metal</text>",
		 top, W - 8, h, wing_names[w], tapdraw_class(look), top + 15, num(sec, "id"), wing_names[w], W - 10, top + 15,
		 num(sec, "cost"));
	buf_add(out, body.data, body.len);
	if (tapdraw_changed(before, tapdraw_before(before, "sectors", "id", sec), sec))
		tapdraw_mark(out, 4, top, W - 8, h);
	tapdraw_close(out, look);
	buf_release(&body);
	*y = top + h + 3;
}

/* The display: a band per level, and in it each Sector (display_sector), wing by wing. */
static void display(struct buf *out, const json_t *view, const json_t *before, const json_t *seats,
		    const struct game_tapset *taps, double *y)
{
	const json_t *list = json_object_get(view, "sectors"), *sec;
	size_t i;

	svg_heading(out, y, W, "Sector display", "number, wing · cost");
	for (long long level = 1; level <= 3; level++) {
		int any = 0;
		json_array_foreach(list, i, sec)
			any |= num(sec, "level") == level;
		if (!any)
			continue;
		buf_addf(out, "<text x=\"%d\" y=\"%g\" class=\"s mid m\">level %lld: %d quarters</text>", W / 2, *y + 11, level,
			 level == 1 ? 3 : level == 2 ? 5 : 6);
		*y += 15;
		for (int w = 0; w < 3; w++)
			json_array_foreach(list, i, sec)
				if (num(sec, "level") == level && colour_index(str(sec, "colour")) == w)
					display_sector(out, sec, w, before, seats, taps, y);
		*y += 2;
	}
}

/* ------------------------------------------------------------------ the rest */

static void supply_and_turn(struct buf *out, const json_t *view, double *y)
{
	const json_t *sup = json_object_get(view, "supply"), *dice = json_object_get(view, "dice");
	static const char *const residents[] = { "teal", "brown", "pink", "gold", "human" };
	static const char letters[] = { 't', 'b', 'p', 'g', 'h' };
	double x = 8;

	svg_heading(out, y, W, "Supply", NULL);
	for (int k = 0; k < 5; k++) {
		quarter(out, x + 5, *y + 8, letters[k]);
		buf_addf(out, "<text x=\"%g\" y=\"%g\">%s %lld</text>", x + 14, *y + 12, k == 4 ? "Humans" : residents[k],
			 num(sup, residents[k]));
		x += k == 4 ? 0 : 72;
	}
	*y += 20;
	if (json_is_object(dice)) {
		struct buf t = BUF_INIT;
		buf_addf(&t, "Expedition dice: %lld food, %lld water, %lld metal, %lld Human; keep up to %lld",
			 num(dice, "food"), num(dice, "water"), num(dice, "metal"), num(dice, "human"), num(dice, "keep"));
		if (num(dice, "rerolls"))
			buf_addf(&t, "; %lld reroll%s", num(dice, "rerolls"), num(dice, "rerolls") == 1 ? "" : "s");
		*y += SVG_LINE * svg_text_wrap(out, 8, *y + 12, SVG_TEXT, W - 16, 3, "class=\"s\"", t.data) + 4;
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
		int lines = svg_text_wrap(&body, 10, *y + 34, SVG_TEXT, W - 20, 5, NULL, str(h, "setup"));
		const struct game_tap *tap;
		enum game_tap_look look;
		char part[48];
		snprintf(part, sizeof(part), "hub-%s", str(h, "id"));
		for (char *c = part; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c - 'A' + 'a');
		look = game_tap_look(taps, part, 0, &tap);
		lines += svg_text_wrap(&body, 10, *y + 34 + lines * SVG_LINE, SVG_TEXT, W - 20, 6, "class=\"s\"",
				       str(h, "text"));
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
		svg_text_fit(out, 4 + lw + cw * (double)i + 3, *y + 12, SVG_TEXT, cw - 6, "class=\"b\"", t.data, t.len);
		buf_release(&t);
	}
	*y += 17;
	for (size_t c = 0; c < sizeof(cats) / sizeof(cats[0]); c++) {
		int total = c + 1 == sizeof(cats) / sizeof(cats[0]);
		if (c % 2 == 0 || total)
			buf_addf(out, "<rect x=\"4\" y=\"%g\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", *y, W - 8, SVG_LINE + 2,
				 total ? "#ffe9a8" : "#f1f3f6");
		buf_addf(out, "<text x=\"8\" y=\"%g\"%s>%s</text>", *y + 12, total ? " class=\"b\"" : "", cats[c]);
		json_array_foreach(sheet, i, row)
			buf_addf(out, "<text x=\"%g\" y=\"%g\"%s>%lld</text>", 4 + lw + cw * (double)i + 3, *y + 12,
				 total ? " class=\"b\"" : "", num(row, cats[c]));
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
		      "aria-label=\"Space Station Phoenix board\" font-family=\"system-ui, sans-serif\" font-size=\"%d\" "
		      "fill=\"#1b1f24\"><defs>",
		 W, y + 4, in->taps ? "group" : "img", SVG_TEXT);
	/* the shapes the board repeats, drawn once here and used by id */
	card_defs(out, view);
	quarter_defs(out, view);
	buf_adds(out, "</defs>");
	buf_add(out, body.data, body.len);
	buf_adds(out, "</svg>");
	buf_release(&body);
	return 0;
}
