/* tests/http/test_boards.c: the Space Station Phoenix and Starship Merchants boards on the game page, played by taps */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "engine/registry.h"
#include "httptest.h"
#include "testutil.h"
#include "util/banned.h"

#define NSEATS 3

struct tgame {
	const char *id;
	int64_t game;
	char link[NSEATS][64];
	char cookie[NSEATS][256];
};

static struct ht_daemon d;
static char admin_token[64];
static struct tgame ssp = { .id = "space-station-phoenix" }, sm = { .id = "starship-merchants" };

/* The board of game id drawn through its game_ops.board: 0, or -1 when unknown, without a board or refused. */
static int board_svg(const char *id, const json_t *view, const json_t *seats, int seat, struct buf *out)
{
	const struct game_ops *ops = registry_find(id);
	struct game_board_in in = { .view = view, .seats = seats, .seat = seat };
	struct err e = { 0 };

	if (!ops || !ops->board)
		return -1;
	return ops->board(&in, out, &e) == 0 ? 0 : -1;
}

static int create(struct tgame *g)
{
	struct ht_resp r;
	char body[512];
	int rc = -1;

	snprintf(body, sizeof(body),
		 "{\"game\":\"%s\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann-%s@example.org\"},"
		 "{\"name\":\"Bob <b>&\",\"email\":\"bob-%s@example.org\"},{\"name\":\"Cy\",\"email\":\"cy-%s@example.org\"}]}",
		 g->id, g->id, g->id, g->id);
	if (ht_request(&d, "POST", "/api/v1/games", admin_token, NULL, body, strlen(body), &r) < 0)
		return -1;
	if (r.status == 201) {
		g->game = json_integer_value(json_object_get(r.json, "id"));
		for (size_t i = 0; i < NSEATS; i++)
			snprintf(g->link[i], sizeof(g->link[i]), "%s",
				 json_string_value(json_object_get(json_array_get(json_object_get(r.json, "seats"), i), "token")));
		rc = 0;
	}
	ht_resp_release(&r);
	return rc;
}

static int suite_init(void)
{
	struct buf out = BUF_INIT;
	int rc;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (ht_start(&d, NULL) < 0)
		return -1;
	rc = ht_cli(&d, "user add admin@example.org --name Admin --admin", &out);
	ht_last_line(&out, admin_token, sizeof(admin_token));
	buf_release(&out);
	if (rc != 0 || create(&ssp) < 0 || create(&sm) < 0)
		return -1;
	return 0;
}

static int suite_clean(void)
{
	ht_cleanup(&d);
	curl_global_cleanup();
	return 0;
}

/* The session cookie of a seat (signed in through its seat link the first time). */
static const char *seat_cookie(struct tgame *g, int seat)
{
	struct ht_resp r;
	char path[96], sess[80];

	if (g->cookie[seat][0])
		return g->cookie[seat];
	snprintf(path, sizeof(path), "/s/%s", g->link[seat]);
	if (ht_page(&d, "GET", path, NULL, NULL, &r) == 0 && r.status == 303 && ht_cookie(&r, "tp_session", sess, sizeof(sess)) == 0)
		snprintf(g->cookie[seat], sizeof(g->cookie[seat]), "tp_session=%s", sess);
	ht_resp_release(&r);
	return g->cookie[seat];
}

/* The game as the admin sees it (new JSON), or NULL. */
static json_t *game_json(const struct tgame *g)
{
	struct ht_resp r;
	char path[64];
	json_t *j = NULL;

	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)g->game);
	if (ht_request(&d, "GET", path, admin_token, NULL, NULL, 0, &r) == 0 && r.status == 200)
		j = json_incref(r.json);
	ht_resp_release(&r);
	return j;
}

/* The legal steps of a seat through the API with its seat token (new array), or NULL. */
static json_t *legal_of(const struct tgame *g, int seat)
{
	struct ht_resp r;
	char path[64];
	json_t *j = NULL;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/legal", (long long)g->game);
	if (ht_request(&d, "GET", path, g->link[seat], NULL, NULL, 0, &r) == 0 && r.status == 200)
		j = json_incref(json_object_get(r.json, "moves"));
	ht_resp_release(&r);
	return j;
}

/* The value="..." of every <button name="move"> of a page (HTML entities decoded), as a new array. */
static json_t *button_values(const char *html)
{
	json_t *a = json_array();
	const char *p = html;

	while ((p = strstr(p, "name=\"move\" value=\"")) != NULL) {
		struct buf v = BUF_INIT;
		p += strlen("name=\"move\" value=\"");
		while (*p && *p != '"') {
			static const struct { const char *ent; char c; } ents[] = {
				{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&#39;", '\'' },
			};
			size_t k;
			for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++)
				if (!strncmp(p, ents[k].ent, strlen(ents[k].ent)))
					break;
			if (k < sizeof(ents) / sizeof(ents[0])) {
				buf_addc(&v, ents[k].c);
				p += strlen(ents[k].ent);
			} else {
				buf_addc(&v, *p++);
			}
		}
		if (strcmp(v.data, "undo"))
			json_array_append_new(a, json_string(v.data));
		buf_release(&v);
	}
	return a;
}

static void urlencode(struct buf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		    c == '_')
			buf_addc(out, (char)c);
		else if (c == ' ')
			buf_addc(out, '+');
		else
			buf_addf(out, "%%%02X", c);
	}
}

/* The SVG of a page, or "" (borrowed from body). */
static int svg_span(const char *html, const char **start, size_t *len)
{
	const char *a = strstr(html, "<svg"), *b = a ? strstr(a, "</svg>") : NULL;

	if (!a || !b)
		return -1;
	*start = a;
	*len = (size_t)(b - a) + 6;
	return 0;
}

/*
 * The buttons of every legal step of a seat's game page r, as a new array:
 * on the page, or, when the page links to them (a list too long for it),
 * on the steps page it links to; the CSRF token of the form they are in
 * into csrf.
 */
static json_t *step_buttons(struct tgame *g, int seat, const struct ht_resp *r, char csrf[64])
{
	const char *link = strstr(r->body.data, "class=\"steps-link\"><a href=\"");
	struct ht_resp s;
	char path[96];
	json_t *buttons;

	if (!link) {
		CU_ASSERT_EQUAL(ht_form_value(r, "csrf", csrf, 64), 0);
		return button_values(r->body.data);
	}
	/* no button on the page itself: they are all a link away */
	CU_ASSERT(strstr(r->body.data, "<button name=\"move\"") == NULL);
	link += strlen("class=\"steps-link\"><a href=\"");
	snprintf(path, sizeof(path), "%.*s", (int)strcspn(link, "\""), link);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, seat_cookie(g, seat), NULL, &s), 0);
	CU_ASSERT_EQUAL(s.status, 200);
	CU_ASSERT_EQUAL(ht_form_value(&s, "csrf", csrf, 64), 0);
	buttons = button_values(s.body.data);
	ht_resp_release(&s);
	return buttons;
}

/* Checks of one page of a seat: board present with words, names escaped, buttons = the legal list. */
static void check_page(struct tgame *g, int seat, const char *const *words, struct ht_resp *r)
{
	char path[64];
	const char *svg = NULL;
	size_t svg_len = 0;
	json_t *buttons, *legal, *m;
	size_t i;
	struct buf s = BUF_INIT;

	snprintf(path, sizeof(path), "/games/%lld", (long long)g->game);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, seat_cookie(g, seat), NULL, r), 0);
	CU_ASSERT_EQUAL_FATAL(r->status, 200);
	CU_ASSERT(r->body.len < 100 * 1024);
	CU_ASSERT_EQUAL_FATAL(svg_span(r->body.data, &svg, &svg_len), 0);
	buf_add(&s, svg, svg_len);
	for (const char *const *w = words; *w; w++) {
		if (!strstr(s.data, *w))
			fprintf(stderr, "\n  board of %s lacks \"%s\"\n", g->id, *w);
		CU_ASSERT(strstr(s.data, *w) != NULL);
	}
	/* the prompt calls the player by name: no seat numbers, no name marks */
	{
		const char *st = strstr(r->body.data, "class=\"status\""), *end = st ? strstr(st, "</p>") : NULL;
		char line[400];
		CU_ASSERT_FATAL(st && end);
		snprintf(line, sizeof(line), "%.*s", (int)(end - st), st);
		int named = strstr(line, "Ann") || strstr(line, "Bob &lt;b&gt;&amp;") || strstr(line, "Cy");
		if (strstr(line, "Player ") || strchr(line, '@') || !named)
			fprintf(stderr, "\n  prompt of %s: %s\n", g->id, line);
		CU_ASSERT(strstr(line, "Player ") == NULL && strchr(line, '@') == NULL);
		CU_ASSERT(named);
	}
	/* the name with markup in it is text, never markup */
	CU_ASSERT(strstr(s.data, "Bob &lt;b&gt;&amp;") != NULL);
	CU_ASSERT(strstr(s.data, "<b>") == NULL);
	CU_ASSERT(strstr(s.data, "<script") == NULL);
	/* every legal step is a button whose value is its canonical text, and nothing else is */
	{
		char csrf[64];
		buttons = step_buttons(g, seat, r, csrf);
	}
	legal = legal_of(g, seat);
	CU_ASSERT_FATAL(legal != NULL);
	CU_ASSERT_EQUAL(json_array_size(buttons), json_array_size(legal));
	json_array_foreach(legal, i, m) {
		int found = 0;
		size_t k;
		json_t *b;
		json_array_foreach(buttons, k, b)
			found |= json_equal(b, m);
		if (!found)
			fprintf(stderr, "\n  no button for \"%s\"\n", json_string_value(m));
		CU_ASSERT(found);
	}
	json_decref(buttons);
	json_decref(legal);
	buf_release(&s);
}

/* The acting seat (lowest of active_seats), or -1. */
static int acting_seat(const struct tgame *g, json_int_t *moves)
{
	json_t *j = game_json(g);
	int seat = -1;

	if (j) {
		seat = json_is_integer(json_array_get(json_object_get(j, "active_seats"), 0))
			       ? (int)json_integer_value(json_array_get(json_object_get(j, "active_seats"), 0))
			       : -1;
		*moves = json_integer_value(json_object_get(j, "move_count"));
	}
	json_decref(j);
	return seat;
}

/* The text of the last stored step. */
static void last_move(const struct tgame *g, char *out, size_t size)
{
	struct ht_resp r;
	char path[64];
	json_t *moves;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)g->game);
	if (ht_request(&d, "GET", path, admin_token, NULL, NULL, 0, &r) == 0) {
		moves = json_object_get(r.json, "moves");
		const char *t = json_string_value(json_object_get(json_array_get(moves, json_array_size(moves) - 1), "text"));
		snprintf(out, size, "%s", t ? t : "");
	}
	ht_resp_release(&r);
}

/*
 * Play steps by taps: the acting seat opens the page (checked), takes the
 * button chosen by pick (an index into the buttons) and posts it as the
 * form does; the stored step is the button's value.
 */
static void play_taps(struct tgame *g, const char *const *words, int steps, size_t (*pick)(const json_t *buttons, int i))
{
	for (int i = 0; i < steps; i++) {
		struct ht_resp r, p;
		json_int_t mc = -1, after = -1;
		int seat = acting_seat(g, &mc);
		json_t *buttons;
		struct buf form = BUF_INIT;
		char csrf[64], path[64], stored[256];
		const char *value;

		CU_ASSERT_FATAL(seat >= 0);
		check_page(g, seat, words, &r);
		buttons = step_buttons(g, seat, &r, csrf);
		ht_resp_release(&r);
		CU_ASSERT_FATAL(json_array_size(buttons) > 0);
		value = json_string_value(json_array_get(buttons, pick(buttons, i) % json_array_size(buttons)));
		buf_addf(&form, "csrf=%s&mc=%lld&seat=%d&move=", csrf, (long long)mc, seat);
		urlencode(&form, value);
		snprintf(path, sizeof(path), "/games/%lld/move", (long long)g->game);
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, seat_cookie(g, seat), form.data, &p), 0);
		if (p.status != 303)
			fprintf(stderr, "\n  tap \"%s\" answered %ld: %.300s\n", value, p.status, p.body.data);
		CU_ASSERT_EQUAL(p.status, 303);
		ht_resp_release(&p);
		acting_seat(g, &after);
		CU_ASSERT(after > mc);
		last_move(g, stored, sizeof(stored));
		/* the engine may add no steps of its own: the last stored step is the tapped one */
		ASSERT_STR_EQ(stored, value);
		json_decref(buttons);
		buf_release(&form);
	}
}

static size_t pick_first(const json_t *buttons, int i)
{
	(void)buttons;
	(void)i;
	return 0;
}

/* Spread over the list (a fixed walk, so runs repeat). */
static size_t pick_spread(const json_t *buttons, int i)
{
	return (size_t)i * 7 + json_array_size(buttons) / 2;
}

static void test_boards__ssp_page_and_taps(void)
{
	static const char *const draft[] = { "Space Station Phoenix board", "Players", "Ships", "Draft display", "Diplomacy",
					     "Stations", "Sector display", "Supply", "Ann", "Cy", "dismantle", "start 0", NULL };
	static const char *const later[] = { "Space Station Phoenix board", "Players", "Ships", "Diplomacy", "Stations",
					     "Sector display", "Supply", "Ann", "Cy", "Neutral ships", NULL };

	/* the drafts: Level-3 ships in turn order, then reverse */
	play_taps(&ssp, draft, 6, pick_first);
	/* the Level-2 draft, the hub choice and on into the first turns */
	play_taps(&ssp, later, 14, pick_spread);
}

/*
 * A Diplomacy bonus is decided outside one's own turn: that seat's page
 * heads its choices "Your decision", not "Your move". A fresh
 * game is played through the API (a fixed walk over the legal steps) until
 * a seat that is not the active one is asked.
 */
static void test_boards__ssp_offturn_decision(void)
{
	struct tgame g = { .id = "space-station-phoenix" };
	int asked = -1;

	CU_ASSERT_EQUAL_FATAL(create(&g), 0);
	for (int i = 0; i < 600 && asked < 0; i++) {
		json_t *j = game_json(&g), *legal, *off;
		struct ht_resp r;
		char path[64], body[300];
		int seat;

		CU_ASSERT_FATAL(j != NULL);
		off = json_object_get(json_object_get(j, "pending"), "offturn");
		seat = (int)json_integer_value(json_array_get(json_object_get(j, "active_seats"), 0));
		if (json_array_size(off) > 0) {
			asked = (int)json_integer_value(json_array_get(off, 0));
			json_decref(j);
			break;
		}
		CU_ASSERT_FATAL(!strcmp(json_string_value(json_object_get(j, "status")), "active"));
		json_decref(j);
		legal = legal_of(&g, seat);
		CU_ASSERT_FATAL(json_array_size(legal) > 0);
		snprintf(body, sizeof(body), "{\"moves\":[\"%s\"]}",
			 json_string_value(json_array_get(legal, ((size_t)i * 7 + json_array_size(legal) / 2) % json_array_size(legal))));
		json_decref(legal);
		snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)g.game);
		CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", path, g.link[seat], NULL, body, strlen(body), &r), 0);
		CU_ASSERT_EQUAL(r.status, 200);
		ht_resp_release(&r);
	}
	CU_ASSERT_FATAL(asked >= 0);
	{
		struct ht_resp r;
		char path[64];
		snprintf(path, sizeof(path), "/games/%lld", (long long)g.game);
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, seat_cookie(&g, asked), NULL, &r), 0);
		CU_ASSERT(strstr(r.body.data, "<h2>Your decision</h2>") != NULL);
		CU_ASSERT(strstr(r.body.data, "Your move") == NULL);
		ht_resp_release(&r);
	}
}

static void test_boards__sm_page_and_taps(void)
{
	static const char *const words[] = { "Starship Merchants board", "The circuit", "1. Shipyard", "2. Market", "3. Belt",
					     "4. Dock", "Players", "Mark 1 Scout", "Mark 1 Tug", "Known space",
					     "Destinations", "Ann", "Cy", "15 credits", NULL };
	static const char *const later[] = { "Starship Merchants board", "The circuit", "Refineries", "Destinations",
					     "credits", NULL };

	/* everyone starts at the Shipyard with 15 credits */
	play_taps(&sm, words, 2, pick_first);
	play_taps(&sm, later, 20, pick_spread);
}

/* In-process: the drawers on views of finished bot games, and the spectator's view. */
static void finished_board(const char *id, int n, const char *const *words)
{
	const struct game_ops *ops = registry_find(id);
	struct rng g, b;
	void *st = NULL;
	struct err e = { 0 };
	json_t *opts = json_object(), *seats = json_array(), *view = NULL;
	struct buf svg = BUF_INIT;
	int steps = 0;

	CU_ASSERT_FATAL(ops != NULL);
	rng_seed(&g, 11);
	rng_seed(&b, 12);
	for (int i = 0; i < n; i++)
		json_array_append_new(seats, json_pack("{s:i,s:s}", "seat", i, "name", i == 1 ? "<script>x</script>" : "Ann"));
	CU_ASSERT_EQUAL_FATAL(ops->setup(opts, n, &g, &st, &e), 0);
	for (;;) {
		struct game_pending p;
		void *m = NULL;
		int s = 0;
		ops->pending(st, &p);
		if (!p.seats || steps++ > 50000)
			break;
		while (!(p.seats & (1u << s)))
			s++;
		CU_ASSERT_EQUAL_FATAL(ops->bot(st, s, 1, &b, &m, &e), 0);
		CU_ASSERT_EQUAL_FATAL(ops->apply(st, s, m, &g, &e) >= 0, 1);
		ops->move_free(m);
	}
	view = ops->result(st);
	CU_ASSERT(view != NULL);
	json_decref(view);
	for (int seat = -1; seat < n; seat++) {
		buf_reset(&svg);
		CU_ASSERT_EQUAL_FATAL(ops->view(st, seat, &view, &e), 0);
		CU_ASSERT_EQUAL(board_svg(id, view, seats, seat, &svg), 0);
		for (const char *const *w = words; *w; w++) {
			if (!strstr(svg.data, *w))
				fprintf(stderr, "\n  final board of %s lacks \"%s\"\n", id, *w);
			CU_ASSERT(strstr(svg.data, *w) != NULL);
		}
		CU_ASSERT(strstr(svg.data, "&lt;script&gt;x&lt;/script&gt;") != NULL);
		CU_ASSERT(strstr(svg.data, "<script") == NULL);
		CU_ASSERT(strncmp(svg.data, "<svg ", 5) == 0);
		CU_ASSERT(svg.len < 60 * 1024);
		json_decref(view);
	}
	buf_release(&svg);
	ops->state_free(st);
	json_decref(opts);
	json_decref(seats);
}

static void test_boards__finished_games(void)
{
	static const char *const ssp_words[] = { "Final scoring", "total", "leftovers", "Stations", NULL };
	static const char *const sm_words[] = { "Game over: final credits", "into the Dock", NULL };

	finished_board("space-station-phoenix", 4, ssp_words);
	finished_board("starship-merchants", 4, sm_words);
}

/* Alien Frontiers: the ships to place stand lowest first, whatever order the view lists them in. */
static void test_boards__af_dice_lowest_first(void)
{
	const struct game_tapset none = { 0 };
	const struct game_ops *ops = registry_find("alien-frontiers");
	json_t *view = json_pack("{s:i,s:{s:[{s:i,s:i},{s:i,s:i},{s:i,s:i,s:b},{s:i,s:i}]}}", "you", 0, "this_turn",
				 "unplaced", "value", 5, "seat", 0, "value", 2, "seat", 0, "value", 1, "seat", 0, "relic", 1,
				 "value", 2, "seat", 0);
	json_t *seats = json_pack("[{s:i,s:s}]", "seat", 0, "name", "Ann");
	struct game_board_in in = { .view = view, .seats = seats, .seat = 0, .taps = &none };
	struct buf svg = BUF_INIT, order = BUF_INIT;
	struct err e = { 0 };
	const char *at;

	CU_ASSERT_FATAL(ops != NULL && view != NULL);
	CU_ASSERT_EQUAL_FATAL(ops->board(&in, &svg, &e), 0);
	at = strstr(svg.data, "Your ships to place");
	CU_ASSERT_FATAL(at != NULL);
	for (int k = 0; k < 4 && (at = strstr(at, "font-weight=\"700\">")); k++) {
		at += strlen("font-weight=\"700\">");
		buf_addc(&order, *at);
	}
	ASSERT_STR_EQ(order.data, "1225");
	buf_release(&order);
	buf_release(&svg);
	json_decref(view);
	json_decref(seats);
}

/*
 * Alien Frontiers: each facility says what it takes and gives, for a player
 * learning the board; while a step is built, a facility offered says what
 * the tap costs and gives instead.
 */
static void test_boards__af_facilities_say_their_rule(void)
{
	static const char *const rules[] = { "any ship: fuel, half value", "\xe2\x89\xa5 highest docked: 1 ore",
					     "a pair: buy ore for fuel", "a pair + fuel, ore: a ship",
					     "3 alike + 3 ore: a colony", "a 6 + fuel, ore: a colony",
					     "each ship: colony +1 step", "total 8: claim alien tech", "3 in a row: raid", NULL };
	const struct game_ops *ops = registry_find("alien-frontiers");
	const struct game_tap solar = { .part = "fac-solar", .href = "#s", .label = "Dock your 3 at the Solar Converter",
					.cost = "+2 fuel" };
	const char *const chosen[] = { "die-3" };
	const struct game_tapset taps = { .next = &solar, .nnext = 1, .chosen = chosen, .nchosen = 1 };
	json_t *seats = json_pack("[{s:i,s:s},{s:i,s:s}]", "seat", 0, "name", "Ann", "seat", 1, "name", "Bob"), *view = NULL;
	struct game_board_in in = { .seats = seats, .seat = 0 };
	struct buf svg = BUF_INIT;
	struct rng r;
	struct err e = { 0 };
	void *st = NULL;

	CU_ASSERT_FATAL(ops != NULL);
	rng_seed(&r, 4);
	CU_ASSERT_EQUAL_FATAL(ops->setup(NULL, 2, &r, &st, &e), 0);
	CU_ASSERT_EQUAL_FATAL(ops->view(st, 0, &view, &e), 0);
	in.view = view;
	CU_ASSERT_EQUAL_FATAL(ops->board(&in, &svg, &e), 0);
	for (const char *const *w = rules; *w; w++) {
		if (!strstr(svg.data, *w))
			fprintf(stderr, "\n  the Alien Frontiers board lacks \"%s\"\n", *w);
		CU_ASSERT(strstr(svg.data, *w) != NULL);
	}
	buf_reset(&svg);
	in.taps = &taps;
	CU_ASSERT_EQUAL_FATAL(ops->board(&in, &svg, &e), 0);
	CU_ASSERT(strstr(svg.data, ">+2 fuel</text>") != NULL);
	CU_ASSERT(strstr(svg.data, "any ship: fuel, half value") == NULL);
	CU_ASSERT(strstr(svg.data, "3 in a row: raid") != NULL);
	buf_release(&svg);
	json_decref(view);
	json_decref(seats);
	ops->state_free(st);
}

/*
 * Starship Merchants: the run's banner names the ship as the taps do, by its
 * owner and type, and the explored token by name, on two lines rather than
 * cut short.
 */
static void test_boards__sm_run_in_words(void)
{
	json_t *view = json_pack("{s:i,s:i,s:[{s:i,s:s,s:[{s:i,s:s,s:i}]}],s:{s:i,s:i,s:s},s:{s:[]}}", "you", 0, "turn", 0,
				 "seats", "seat", 0, "place", "Belt", "ships", "no", 2, "type", "tug", "mark", 1, "run",
				 "ship", 2, "energy", 3, "drawn", "ice-9", "belt", "kinds");
	json_t *seats = json_pack("[{s:i,s:s}]", "seat", 0, "name", "Ann");
	struct buf svg = BUF_INIT;

	CU_ASSERT_FATAL(view != NULL);
	CU_ASSERT_EQUAL_FATAL(board_svg("starship-merchants", view, seats, 0, &svg), 0);
	CU_ASSERT(strstr(svg.data, ">Run: Ann&#39;s Tug 2, 3 energy left; explored Ice-9:<tspan") != NULL);
	CU_ASSERT(strstr(svg.data, ">load it or leave it</tspan>") != NULL);
	CU_ASSERT(strstr(svg.data, "ice-9") == NULL);
	buf_release(&svg);
	json_decref(view);
	json_decref(seats);
}

/* Starship Merchants: every ship card is a tap target at least 44 CSS pixels tall on a 390-pixel phone (48 of 390 units). */
static void test_boards__sm_ship_cards_tall_enough(void)
{
	const struct game_ops *ops = registry_find("starship-merchants");
	struct rng g, b;
	void *st = NULL;
	struct err e = { 0 };
	json_t *opts = json_object(), *seats = json_pack("[{s:i,s:s},{s:i,s:s}]", "seat", 0, "name", "Ann", "seat", 1,
							 "name", "Bob"), *view = NULL;
	struct buf svg = BUF_INIT;
	const char *at;
	int cards = 0;

	CU_ASSERT_FATAL(ops != NULL);
	rng_seed(&g, 5);
	rng_seed(&b, 6);
	CU_ASSERT_EQUAL_FATAL(ops->setup(opts, 2, &g, &st, &e), 0);
	/* the bots play until both have ships */
	for (int steps = 0; steps < 40; steps++) {
		struct game_pending p;
		void *m = NULL;
		int s = 0;
		ops->pending(st, &p);
		if (!p.seats)
			break;
		while (!(p.seats & (1u << s)))
			s++;
		CU_ASSERT_EQUAL_FATAL(ops->bot(st, s, 1, &b, &m, &e), 0);
		CU_ASSERT_EQUAL_FATAL(ops->apply(st, s, m, &g, &e) >= 0, 1);
		ops->move_free(m);
	}
	CU_ASSERT_EQUAL_FATAL(ops->view(st, 0, &view, &e), 0);
	CU_ASSERT_EQUAL_FATAL(board_svg("starship-merchants", view, seats, 0, &svg), 0);
	/* a ship card: a rect 370 wide (the board less its margins) with "Ship n" on it */
	for (at = svg.data; (at = strstr(at, "width=\"370\" height=\"")); at++) {
		double h = strtod(at + strlen("width=\"370\" height=\""), NULL);
		const char *next = strstr(at, "<rect"), *ship = strstr(at, ">Ship ");
		if (!ship || (next && next < ship))
			continue;
		cards++;
		if (h < 48)
			fprintf(stderr, "\n  a ship card %g units tall\n", h);
		CU_ASSERT(h >= 48);
	}
	CU_ASSERT(cards >= 2);
	buf_release(&svg);
	json_decref(view);
	json_decref(seats);
	json_decref(opts);
	ops->state_free(st);
}

/* The board of id for seat 0 from view, marked against before (may be NULL), drawn through game_ops.board. */
static int board_marked(const char *id, const json_t *view, const json_t *before, const json_t *seats, struct buf *out)
{
	const struct game_ops *ops = registry_find(id);
	struct game_board_in in = { .view = view, .seats = seats, .seat = 0, .before = before };
	struct err e = { 0 };

	buf_reset(out);
	return ops->board(&in, out, &e);
}

/*
 * Each game's board marks the parts that changed since the seat's view
 * before (class "changed"), and nothing when nothing changed or there is
 * nothing to compare with: bots play a game, and every few steps seat 0's
 * board is drawn against its view of a few steps earlier.
 */
static void changed_marks(const char *id)
{
	const struct game_ops *ops = registry_find(id);
	struct rng g, b;
	void *st = NULL;
	struct err e = { 0 };
	json_t *opts = json_object(), *seats = json_pack("[{s:i,s:s},{s:i,s:s}]", "seat", 0, "name", "Ann", "seat", 1,
							 "name", "Bob"), *then = NULL;
	struct buf svg = BUF_INIT;
	int marked = 0, compared = 0;

	CU_ASSERT_FATAL(ops != NULL && ops->board != NULL);
	rng_seed(&g, 21);
	rng_seed(&b, 22);
	CU_ASSERT_EQUAL_FATAL(ops->setup(opts, 2, &g, &st, &e), 0);
	for (int steps = 0; steps < 120; steps++) {
		struct game_pending p;
		json_t *now = NULL;
		void *m = NULL;
		int s = 0;

		CU_ASSERT_EQUAL_FATAL(ops->view(st, 0, &now, &e), 0);
		if (steps % 6 == 0) {
			/* against itself, or with nothing to compare: no marks */
			CU_ASSERT_EQUAL(board_marked(id, now, now, seats, &svg), 0);
			CU_ASSERT(strstr(svg.data, "class=\"changed\"") == NULL);
			CU_ASSERT_EQUAL(board_marked(id, now, NULL, seats, &svg), 0);
			CU_ASSERT(strstr(svg.data, "class=\"changed\"") == NULL);
			if (then) {
				CU_ASSERT_EQUAL(board_marked(id, now, then, seats, &svg), 0);
				compared++;
				marked += strstr(svg.data, "class=\"changed\"") != NULL;
			}
			json_decref(then);
			then = json_incref(now);
		}
		json_decref(now);
		ops->pending(st, &p);
		if (!p.seats)
			break;
		while (!(p.seats & (1u << s)))
			s++;
		CU_ASSERT_EQUAL_FATAL(ops->bot(st, s, 1, &b, &m, &e), 0);
		CU_ASSERT_EQUAL_FATAL(ops->apply(st, s, m, &g, &e) >= 0, 1);
		ops->move_free(m);
	}
	/* six steps of two players change what the board shows nearly always */
	if (marked * 4 < compared * 3)
		fprintf(stderr, "\n  %s: %d of %d boards marked changes\n", id, marked, compared);
	CU_ASSERT(compared > 5);
	CU_ASSERT(marked * 4 >= compared * 3);
	json_decref(then);
	buf_release(&svg);
	json_decref(seats);
	json_decref(opts);
	ops->state_free(st);
}

static void test_boards__changed_parts_marked(void)
{
	changed_marks("alien-frontiers");
	changed_marks("space-station-phoenix");
	changed_marks("starship-merchants");
}

/* seat's game page (new body), or NULL. */
static char *page_of(struct tgame *g, int seat)
{
	struct ht_resp r;
	char path[64];
	char *body = NULL;

	snprintf(path, sizeof(path), "/games/%lld", (long long)g->game);
	if (ht_page(&d, "GET", path, seat_cookie(g, seat), NULL, &r) == 0 && r.status == 200)
		body = strdup(r.body.data);
	ht_resp_release(&r);
	return body;
}

/*
 * The game page marks what changed since the seat's last step: right after
 * its own step nothing; once another played, the parts they changed. The
 * Starship Merchants game of test_boards__sm_page_and_taps goes on.
 */
static void test_boards__page_marks_changes(void)
{
	json_int_t mc = -1;
	int a = -1, marked = 0, seen = 0;
	char *body;

	/*
	 * The acting seat played before (22 steps of three players) and the
	 * others since. Whether their steps changed what it sees depends on the
	 * deal (each game has a seed of its own), so the game goes on a step at
	 * a time until a seat to act is shown changes: 30 steps are plenty.
	 */
	for (int i = 0; i < 30 && !seen; i++) {
		a = acting_seat(&sm, &mc);
		CU_ASSERT_FATAL(a >= 0);
		body = page_of(&sm, a);
		CU_ASSERT_FATAL(body != NULL);
		seen = strstr(body, "class=\"changed\"") != NULL;
		free(body);
		if (!seen)
			play_taps(&sm, (const char *const[]){ "Starship Merchants board", NULL }, 1, pick_first);
	}
	CU_ASSERT_FATAL(seen);
	play_taps(&sm, (const char *const[]){ "Starship Merchants board", NULL }, 1, pick_first);
	/* its own step is not news to it: the board it sees now is the one it left */
	body = page_of(&sm, a);
	CU_ASSERT_FATAL(body != NULL);
	CU_ASSERT(strstr(body, "class=\"changed\"") == NULL);
	free(body);
	for (int s = 0; s < NSEATS; s++) {
		if (s == a)
			continue;
		body = page_of(&sm, s);
		CU_ASSERT_FATAL(body != NULL);
		marked += strstr(body, "class=\"changed\"") != NULL;
		free(body);
	}
	CU_ASSERT(marked > 0);
}

/*
 * Space Station Phoenix: each built Sector of a station is written out in
 * 12-unit text (11 CSS pixels on a phone): its number, what each quarter
 * gives, its ability.
 */
static void test_boards__ssp_built_sectors_in_words(void)
{
	const struct game_ops *ops = registry_find("space-station-phoenix");
	struct rng g, b;
	void *st = NULL;
	struct err e = { 0 };
	json_t *opts = json_object(), *seats = json_pack("[{s:i,s:s},{s:i,s:s}]", "seat", 0, "name", "Ann", "seat", 1,
							 "name", "Bob"), *view = NULL, *p, *sec;
	struct buf svg = BUF_INIT;
	size_t i, k;
	int built = 0, steps;

	CU_ASSERT_FATAL(ops != NULL);
	rng_seed(&g, 31);
	rng_seed(&b, 32);
	CU_ASSERT_EQUAL_FATAL(ops->setup(opts, 2, &g, &st, &e), 0);
	for (steps = 0; steps < 3000 && built < 1; steps++) {
		struct game_pending pd;
		void *m = NULL;
		int s = 0;
		ops->pending(st, &pd);
		if (!pd.seats)
			break;
		while (!(pd.seats & (1u << s)))
			s++;
		CU_ASSERT_EQUAL_FATAL(ops->bot(st, s, 1, &b, &m, &e), 0);
		CU_ASSERT_EQUAL_FATAL(ops->apply(st, s, m, &g, &e) >= 0, 1);
		ops->move_free(m);
		json_decref(view);
		CU_ASSERT_EQUAL_FATAL(ops->view(st, 0, &view, &e), 0);
		built = 0;
		json_array_foreach(json_object_get(view, "players"), i, p)
			built += (int)json_array_size(json_object_get(p, "station"));
	}
	if (built < 1)
		fprintf(stderr, "\n  %d steps, %d Sectors built\n", steps, built);
	CU_ASSERT_FATAL(built >= 1);
	CU_ASSERT_EQUAL_FATAL(board_svg("space-station-phoenix", view, seats, 0, &svg), 0);
	json_array_foreach(json_object_get(view, "players"), i, p)
		json_array_foreach(json_object_get(p, "station"), k, sec) {
			char want[64];
			const json_t *q = json_array_get(json_object_get(sec, "living_quarters"), 0);
			snprintf(want, sizeof(want), "\">%lld: ", (long long)json_integer_value(json_object_get(sec, "id")));
			if (!strstr(svg.data, want))
				fprintf(stderr, "\n  no words for Sector %s\n", want);
			CU_ASSERT_FATAL(strstr(svg.data, want) != NULL);
			/* in the board's own size, 12: its <text> says no size of its own */
			{
				const char *at = strstr(svg.data, want), *tag = at;
				while (tag > svg.data && strncmp(tag, "<text ", 6))
					tag--;
				char open[256];
				snprintf(open, sizeof(open), "%.*s", (int)(at - tag), tag);
				CU_ASSERT(!strncmp(open, "<text ", 6) && !strstr(open, "font-size"));
			}
			if (!strcmp(json_string_value(json_object_get(q, "gives")) ? json_string_value(json_object_get(q, "gives")) : "",
				    "income")) {
				const char *key = json_object_iter_key(json_object_iter(json_object_get(q, "income")));
				CU_ASSERT(key && strstr(strstr(svg.data, want), !strcmp(key, "gems") ? "GEM" : key) != NULL);
			}
		}
	/* the board's own size is 12 */
	CU_ASSERT(strstr(svg.data, "font-size=\"12\" fill=\"#1b1f24\">") != NULL);
	buf_release(&svg);
	json_decref(view);
	json_decref(seats);
	json_decref(opts);
	ops->state_free(st);
}

static void test_boards__unknown_game_and_bad_view(void)
{
	struct buf svg = BUF_INIT;
	json_t *seats = json_array(), *notobj = json_string("x");

	CU_ASSERT_EQUAL(board_svg("no-such-game", notobj, seats, 0, &svg), -1);
	CU_ASSERT_EQUAL(board_svg("space-station-phoenix", notobj, seats, 0, &svg), -1);
	CU_ASSERT_EQUAL(board_svg("starship-merchants", notobj, seats, 0, &svg), -1);
	CU_ASSERT_EQUAL(board_svg("alien-frontiers", notobj, seats, 0, &svg), -1);
	CU_ASSERT_EQUAL(svg.len, 0);
	buf_release(&svg);
	json_decref(seats);
	json_decref(notobj);
}

/*
 * The page of every legal step: the acting seat's long Space Station
 * Phoenix list is there and not on the game page (check_page); a seat not
 * to act is told it has no step and gets no button; a browser without a
 * session is sent to sign in; another game is not shown.
 */
static void test_boards__steps_page(void)
{
	json_int_t mc = -1;
	int a = acting_seat(&ssp, &mc), other;
	struct ht_resp r;
	char path[64];

	CU_ASSERT_FATAL(a >= 0);
	other = (a + 1) % NSEATS;
	snprintf(path, sizeof(path), "/games/%lld/steps?seat=%d", (long long)ssp.game, other);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, seat_cookie(&ssp, other), NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "You have no step to take now.") != NULL);
	CU_ASSERT(strstr(r.body.data, "name=\"move\"") == NULL);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	CU_ASSERT(strstr(r.body.data, "name=\"move\"") == NULL);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/games/99999/steps", seat_cookie(&ssp, a), NULL, &r), 0);
	CU_ASSERT(r.status != 200);
	ht_resp_release(&r);
}

static CU_TestInfo board_cases[] = {
	{ "test_boards__ssp_built_sectors_in_words", test_boards__ssp_built_sectors_in_words },
	{ "test_boards__changed_parts_marked", test_boards__changed_parts_marked },
	{ "test_boards__sm_ship_cards_tall_enough", test_boards__sm_ship_cards_tall_enough },
	{ "test_boards__af_dice_lowest_first", test_boards__af_dice_lowest_first },
	{ "test_boards__sm_run_in_words", test_boards__sm_run_in_words },
	{ "test_boards__af_facilities_say_their_rule", test_boards__af_facilities_say_their_rule },
	{ "test_boards__ssp_page_and_taps", test_boards__ssp_page_and_taps },
	{ "test_boards__ssp_offturn_decision", test_boards__ssp_offturn_decision },
	{ "test_boards__steps_page", test_boards__steps_page },
	{ "test_boards__sm_page_and_taps", test_boards__sm_page_and_taps },
	{ "test_boards__finished_games", test_boards__finished_games },
	{ "test_boards__unknown_game_and_bad_view", test_boards__unknown_game_and_bad_view },
	{ "test_boards__page_marks_changes", test_boards__page_marks_changes },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("boards", suite_init, suite_clean, board_cases);
	return 0;
}
