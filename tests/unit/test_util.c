/* tests/unit/test_util.c: CUnit suites for util/ (buf, err) and engine/rng */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rng.h"
#include "testutil.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/svg.h"
#include "util/tapdraw.h"
#include "util/words.h"
#include "util/err.h"
#include "util/netaddr.h"

static void test_buf__grow_and_detach(void)
{
	struct buf b = BUF_INIT;
	char *s;
	size_t len;

	CU_ASSERT_PTR_NOT_NULL(b.data);
	CU_ASSERT_EQUAL(b.len, 0);
	for (int i = 0; i < 1000; i++)
		buf_addf(&b, "%d,", i % 10);
	CU_ASSERT_EQUAL(b.len, 2000);
	CU_ASSERT_EQUAL(strlen(b.data), 2000);
	s = buf_detach(&b, &len);
	CU_ASSERT_EQUAL(len, 2000);
	CU_ASSERT_EQUAL(b.len, 0);
	CU_ASSERT_PTR_NOT_NULL(b.data);
	free(s);
	s = buf_detach(&b, NULL);
	ASSERT_STR_EQ(s, "");
	free(s);
}

static void test_buf__trim(void)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, "  \tdock solar 3 4 \r\n");
	buf_trim(&b);
	ASSERT_STR_EQ(b.data, "dock solar 3 4");
	buf_release(&b);
	buf_trim(&b);
	ASSERT_STR_EQ(b.data, "");
}

static void test_buf__add_html(void)
{
	struct buf b = BUF_INIT;
	const char in[] = "a<b>&\"c'd`e\0f";

	buf_add_html(&b, in, sizeof(in) - 1);
	CU_ASSERT_EQUAL(b.len, strlen("a&lt;b&gt;&amp;&quot;c&#39;d&#96;e") + 2);
	CU_ASSERT_STRING_EQUAL(b.data, "a&lt;b&gt;&amp;&quot;c&#39;d&#96;e");
	CU_ASSERT_STRING_EQUAL(b.data + b.len - 1, "f");
	buf_reset(&b);
	buf_add_html(&b, "plain", 5);
	CU_ASSERT_STRING_EQUAL(b.data, "plain");
	buf_release(&b);
}

/* buf_addf(fmt, ...) must read exactly as snprintf writes it. */
#define ADDF_SAME(...)                                                                  \
	do {                                                                            \
		char want_[8192];                                                        \
		struct buf got_ = BUF_INIT;                                             \
		snprintf(want_, sizeof(want_), __VA_ARGS__);                            \
		buf_addf(&got_, __VA_ARGS__);                                           \
		if (strcmp(got_.data, want_) != 0)                                      \
			fprintf(stderr, "buf_addf: '%s', snprintf: '%s'\n", got_.data, want_); \
		CU_ASSERT_STRING_EQUAL(got_.data, want_);                               \
		CU_ASSERT_EQUAL(got_.len, strlen(want_));                               \
		buf_release(&got_);                                                     \
	} while (0)

/* A double of every kind a board meets: whole, tenths, hundredths, thirds, halves, tiny, huge, any bits. */
static double addf_value(unsigned long long *x, int i)
{
	unsigned long long r;
	double v;

	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	r = *x;
	switch (i % 9) {
	case 0: return (double)(long long)(r % 2000001) - 1000000.0;
	case 1: return ((double)(long long)(r % 200001) - 100000.0) / 10.0;
	case 2: return ((double)(long long)(r % 2000001) - 1000000.0) / 100.0;
	case 3: return (double)(r % 100000) / 3.0;
	case 4: return (double)(r % 20001) * 0.05 - 500.0;
	case 5: return (double)(r % 1000) * 1e-6;
	case 6: return (double)(r % 1000) * 1e7 + 0.5;
	case 7: return (double)(r % 400) * 0.54 * 11.0;
	default:
		memcpy(&v, &r, sizeof(v));
		return v;
	}
}

static void test_buf__addf_is_printf(void)
{
	unsigned long long x = 88172645463325252ull;
	const double edge[] = { 0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.25, 0.35, 0.05, 1e-4, 9.99995e-5, 999999.4, 999999.5,
				999999.7, 1e6, 9.999996, 99999.95, 0.1, 0.3, 1.0 / 3, 123456.5, 1e300, -1e-300 };

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		ADDF_SAME("%g", edge[i]);
		ADDF_SAME("%.1f|%.0f|%.2f|%.3f", edge[i], edge[i], edge[i], edge[i]);
	}
	ADDF_SAME("%g %g %g %.1f", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, 0.0 / 0.0);
	for (int i = 0; i < 200000; i++) {
		double v = addf_value(&x, i);
		ADDF_SAME("<rect x=\"%g\" y=\"%.1f\" w=\"%.0f\" h=\"%.2f\"/>", v, v, v, v);
	}
	ADDF_SAME("%d %i %u %ld %lu %lld %llu %zu %zd", -2147483647 - 1, 42, 4294967295u, -9l, 9ul, -9223372036854775807ll - 1,
		  18446744073709551615ull, (size_t)77, (ssize_t)-77);
	ADDF_SAME("%s|%.*s|%.3s|%.*s|%c|%%|%s", "plain", 4, "abcdefg", "xy", -1, "whole", 'q', "");
	/* what the fast path leaves to printf: after arguments it already took, the whole format again */
	ADDF_SAME("%d %g %s %08x %+d %5s %-4d| %.*e %lc %hd %#o %p", 7, 2.5, "s", 0xbeefu, 3, "ab", 12, 2, 1234.5, 'w',
		  (short)-3, 8u, (void *)0);
	{
		char big[600];
		struct buf b = BUF_INIT;
		memset(big, 'z', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		buf_adds(&b, "<");
		buf_addf(&b, "%s|%5d|%s", big, 3, big);
		CU_ASSERT_EQUAL(b.len, 1 + 599 + 7 + 599);
		CU_ASSERT_EQUAL(strlen(b.data), b.len);
		CU_ASSERT_STRING_EQUAL(b.data + b.len - 3, "zzz");
		CU_ASSERT_EQUAL(b.data[0], '<');
		buf_release(&b);
		buf_addf(&b, "%s", "");
		CU_ASSERT_NOT_EQUAL(b.alloc, 0);
		buf_release(&b);
	}
}

static int none_in_place(const void *ctx, const char *part)
{
	(void)ctx;
	(void)part;
	return 0;
}

static int all_in_place(const void *ctx, const char *part)
{
	(void)ctx;
	(void)part;
	return 1;
}

/*
 * The row of choices: buttons 48 units tall (44 CSS pixels on a phone), text
 * of 12 (11 CSS pixels), names for @n, escaped; a choice whose words need
 * more than half the row has a row of its own.
 */
static void test_tapdraw__choices(void)
{
	const struct game_tap taps[] = { { .part = "act-end", .href = "/games/1?seat=0&t=act-end", .label = "@0 ends <the> turn",
					   .cost = "+1 fuel" } };
	const char *const chosen[] = { "die-3" };
	const struct game_tapset set = { .next = taps, .nnext = 1, .chosen = chosen, .nchosen = 1 };
	json_t *seats = json_pack("[{s:i,s:s}]", "seat", 0, "name", "Ann & Co");
	const struct game_tap *tap;
	struct buf b = BUF_INIT;
	double y = 10;

	tapdraw_choices(&b, &set, seats, 390, &y, none_in_place, NULL);
	CU_ASSERT(strstr(b.data, "Your choices") != NULL);
	CU_ASSERT(strstr(b.data, "<a class=\"tap\" href=\"/games/1?seat=0&amp;t=act-end\"><title>Ann &amp; Co ends &lt;the&gt; "
				 "turn (+1 fuel)</title>") != NULL);
	CU_ASSERT(strstr(b.data, "height=\"48\"") != NULL);
	CU_ASSERT(strstr(b.data, "width=\"189\"") != NULL);
	/* the board's own size (12, said once on its <svg>), in the stylesheet's classes: bold, the cost's colour */
	CU_ASSERT(strstr(b.data, "class=\"cb\"") != NULL);
	CU_ASSERT(strstr(b.data, " class=\"b\">Ann &amp; Co ends &lt;the&gt; turn</text>") != NULL);
	CU_ASSERT(strstr(b.data, " class=\"c\">+1 fuel</text>") != NULL);
	CU_ASSERT(strstr(b.data, "font-size") == NULL);
	CU_ASSERT(y > 10 + 48);
	buf_reset(&b);
	/* two short choices share a row; a long one takes the whole width, on a row of its own */
	{
		const struct game_tap three[] = {
			{ .part = "a", .href = "#a", .label = "Stay", .cost = "" },
			{ .part = "b", .href = "#b", .label = "Move", .cost = "1 energy" },
			{ .part = "c", .href = "#c", .label = "Pass: move on to the Market without acting", .cost = "" },
		};
		const struct game_tapset set3 = { .next = three, .nnext = 3, .chosen = NULL, .nchosen = 0 };
		double y2 = 0;

		tapdraw_choices(&b, &set3, seats, 390, &y2, none_in_place, NULL);
		CU_ASSERT(strstr(b.data, "x=\"4\" y=\"19\" width=\"189\"") != NULL);
		CU_ASSERT(strstr(b.data, "x=\"197\" y=\"19\" width=\"189\"") != NULL);
		CU_ASSERT(strstr(b.data, "x=\"4\" y=\"71\" width=\"382\"") != NULL);
		CU_ASSERT(strstr(b.data, ">Pass: move on to the Market without acting</text>") != NULL);
		CU_ASSERT_EQUAL(y2, 19 + 2 * 52 + 4);
		buf_reset(&b);
	}
	y = 10;
	tapdraw_choices(&b, &set, seats, 390, &y, all_in_place, NULL);
	CU_ASSERT_EQUAL(b.len, 0);
	CU_ASSERT_EQUAL(y, 10);
	/* the looks */
	CU_ASSERT_EQUAL(game_tap_look(&set, "act-end", 0, &tap), GAME_TAP_OFFERED);
	CU_ASSERT_PTR_EQUAL(tap, &taps[0]);
	CU_ASSERT_EQUAL(game_tap_look(&set, "die-3", 0, &tap), GAME_TAP_CHOSEN);
	CU_ASSERT_EQUAL(game_tap_look(&set, "die-3", 1, &tap), GAME_TAP_GREY);
	CU_ASSERT_EQUAL(game_tap_look(&set, "fac-solar", 0, &tap), GAME_TAP_GREY);
	CU_ASSERT_PTR_NULL(tap);
	CU_ASSERT_EQUAL(game_tap_look(NULL, "act-end", 0, &tap), GAME_TAP_PLAIN);
	buf_release(&b);
	json_decref(seats);
}

/*
 * A part's box outlined by its look, the first offered or chosen of a
 * thing's parts, and the whole board: a group of links with taps, one
 * picture without, its name escaped.
 */
static void test_tapdraw__box_look_board(void)
{
	static const char *const verbs[] = { "ship", "run-ship", "repay-ship" };
	const struct game_tap taps[] = { { .part = "run-ship-2", .href = "#r", .label = "Run it", .cost = "" } };
	const char *const chosen[] = { "ship-3" };
	const struct game_tapset set = { .next = taps, .nnext = 1, .chosen = chosen, .nchosen = 1 };
	const struct game_tap *tap;
	struct buf b = BUF_INIT, body = BUF_INIT;

	tapdraw_box(&b, GAME_TAP_PLAIN, 4, 10.5, 189, 48, 6, "#fff", "#9fb3cc", "1");
	ASSERT_STR_EQ(b.data, "<rect x=\"4\" y=\"10.5\" width=\"189\" height=\"48\" rx=\"6\" fill=\"#fff\" "
			      "stroke=\"#9fb3cc\" stroke-width=\"1\"/>");
	buf_reset(&b);
	tapdraw_box(&b, GAME_TAP_GREY, 0, 0, 10, 10, 2, "none", "#123456", "3");
	CU_ASSERT(strstr(b.data, "stroke=\"#123456\" stroke-width=\"3\"") != NULL);
	buf_reset(&b);
	tapdraw_box(&b, GAME_TAP_OFFERED, 0, 0, 10, 10, 2, "none", "#123456", "3");
	CU_ASSERT(strstr(b.data, "stroke=\"" TAPDRAW_OFFERED "\" stroke-width=\"2\"") != NULL);
	buf_reset(&b);
	tapdraw_box(&b, GAME_TAP_CHOSEN, 0, 0, 10, 10, 2, "none", "#123456", "1");
	CU_ASSERT(strstr(b.data, "stroke=\"" TAPDRAW_HIGHLIGHT "\" stroke-width=\"3\"") != NULL);
	buf_reset(&b);

	CU_ASSERT_EQUAL(tapdraw_look_any(&set, verbs, 3, "2", &tap), GAME_TAP_OFFERED);
	CU_ASSERT_PTR_EQUAL(tap, &taps[0]);
	CU_ASSERT_EQUAL(tapdraw_look_any(&set, verbs, 3, "3", &tap), GAME_TAP_CHOSEN);
	CU_ASSERT_EQUAL(tapdraw_look_any(&set, verbs, 3, "4", &tap), GAME_TAP_GREY);
	CU_ASSERT_PTR_NULL(tap);
	CU_ASSERT_EQUAL(tapdraw_look_any(NULL, verbs, 3, "2", &tap), GAME_TAP_PLAIN);

	buf_adds(&body, "<text>x</text>");
	tapdraw_board(&b, &body, 390, 812, "Ann & Bob's board", 1);
	ASSERT_STR_EQ(b.data, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 390 812\" role=\"group\" "
			      "aria-label=\"Ann &amp; Bob&#39;s board\" font-family=\"system-ui, sans-serif\" font-size=\"12\" "
			      "fill=\"#1b1f24\"><text>x</text></svg>");
	buf_reset(&b);
	tapdraw_board(&b, &body, 390, 812, "Board", 0);
	CU_ASSERT(strstr(b.data, "role=\"img\" aria-label=\"Board\"") != NULL);
	buf_release(&b);
	buf_release(&body);
}

static void test_svg__seats_and_heading(void)
{
	struct buf b = BUF_INIT;
	json_t *seats = json_pack("[{s:i,s:s},{s:i,s:s}]", "seat", 0, "name", "Ann <&>", "seat", 1, "name", "");

	svg_seat_name(&b, seats, 0, 0);
	CU_ASSERT_STRING_EQUAL(b.data, "Ann &lt;&amp;&gt;");
	buf_reset(&b);
	svg_seat_name(&b, seats, 0, 1);
	CU_ASSERT_STRING_EQUAL(b.data, "Ann <&>");
	buf_reset(&b);
	svg_seat_name(&b, seats, 1, 0); /* an empty name counts as none */
	CU_ASSERT_STRING_EQUAL(b.data, "Player 2");
	buf_reset(&b);
	svg_seat_name(&b, NULL, 2, 0);
	CU_ASSERT_STRING_EQUAL(b.data, "Player 3");
	CU_ASSERT_EQUAL(svg_seat_colour(3), 3);
	CU_ASSERT_EQUAL(svg_seat_colour(-1), 5);
	CU_ASSERT_EQUAL(svg_seat_colour(9), 5);
	CU_ASSERT_STRING_EQUAL(svg_seat_fill(9), svg_seat_fill(5));
	CU_ASSERT_STRING_NOT_EQUAL(svg_seat_fill(0), svg_seat_fill(1));
	CU_ASSERT_STRING_EQUAL(svg_seat_ink(3), "#1b1f24");
	{
		double y = 10;
		buf_reset(&b);
		svg_heading(&b, &y, 390, "Ships", "a<b");
		CU_ASSERT_EQUAL(y, 29);
		CU_ASSERT(strstr(b.data, ">Ships</text>") != NULL);
		CU_ASSERT(strstr(b.data, "x=\"384\" y=\"23\"") != NULL);
		CU_ASSERT(strstr(b.data, ">a&lt;b</text>") != NULL);
		/* a note too long to sit beside the title: a line of its own, at the board's smallest text */
		buf_reset(&b);
		y = 10;
		svg_heading(&b, &y, 390, "Diplomacy", "an advance costs the GEMs of the level reached, and more words");
		CU_ASSERT_EQUAL(y, 46);
		CU_ASSERT(strstr(b.data, "x=\"384\" y=\"40\" class=\"e m\"") != NULL);
	}
	{
		/* fits: as is; a little too long: squeezed; far too long: cut with an ellipsis, never under 12 */
		buf_reset(&b);
		svg_text_fit(&b, 0, 0, SVG_TEXT, 100, NULL, "Zed & Co", 8);
		CU_ASSERT_STRING_EQUAL(b.data, "<text x=\"0\" y=\"0\">Zed &amp; Co</text>");
		/* a size the classes do not give is written out; h gives 13 (and bold: a wider estimate) */
		buf_reset(&b);
		svg_text_fit(&b, 0, 0, 14, 100, "class=\"b\"", "Zed", 3);
		CU_ASSERT_STRING_EQUAL(b.data, "<text x=\"0\" y=\"0\" font-size=\"14\" class=\"b\">Zed</text>");
		buf_reset(&b);
		svg_text_fit(&b, 0, 0, SVG_HEAD, 100, "class=\"h\"", "Zed", 3);
		CU_ASSERT_STRING_EQUAL(b.data, "<text x=\"0\" y=\"0\" class=\"h\">Zed</text>");
		buf_reset(&b);
		svg_text_fit(&b, 0, 0, SVG_HEAD, 100, "class=\"m\"", "Zed", 3);
		CU_ASSERT_STRING_EQUAL(b.data, "<text x=\"0\" y=\"0\" font-size=\"13\" class=\"m\">Zed</text>");
		/* fits plain, squeezed bold: class b counts as bold as font-weight does */
		buf_reset(&b);
		svg_text_fit(&b, 0, 0, SVG_TEXT, 100, NULL, "fifteen letters", 15);
		CU_ASSERT(strstr(b.data, "textLength") == NULL);
		buf_reset(&b);
		svg_text_fit(&b, 0, 0, SVG_TEXT, 100, "class=\"m b\"", "fifteen letters", 15);
		CU_ASSERT(strstr(b.data, "textLength=\"100\"") != NULL);
		buf_reset(&b);
		svg_text_fit(&b, 0, 0, SVG_TEXT, 100, NULL, "sixteen letters!", 16);
		CU_ASSERT(strstr(b.data, "textLength=\"100\"") != NULL);
		CU_ASSERT(strstr(b.data, ">sixteen letters!</text>") != NULL);
		buf_reset(&b);
		svg_text_fit(&b, 0, 0, SVG_TEXT, 100, NULL, "used by Yara Okonkwo-Lindqvist", 30);
		CU_ASSERT(strstr(b.data, ">used by Yara Oko\xe2\x80\xa6</text>") != NULL);
		buf_reset(&b);
		/* a cut never splits a character */
		svg_text_fit(&b, 0, 0, SVG_TEXT, 50, NULL, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 18);
		CU_ASSERT(strstr(b.data, ">\xc3\xa9\xc3\xa9\xc3\xa9\xe2\x80\xa6</text>") != NULL);
	}
	buf_release(&b);
	json_decref(seats);
}

static void test_words__names_lists_counts(void)
{
	struct buf b = BUF_INIT;
	json_t *seats = json_pack("[{s:i,s:s},{s:i,s:s}]", "seat", 0, "name", "Ann <&>", "seat", 1, "name", "");
	const char *three[] = { "Red", "Blue", "Green" };
	int v[] = { 2, 3, 4 };

	words_seat(&b, seats, 0); /* raw: the caller escapes for its page */
	CU_ASSERT_STRING_EQUAL(b.data, "Ann <&>");
	buf_reset(&b);
	words_seat(&b, seats, 1); /* an empty name counts as none: the colour, never a number */
	CU_ASSERT_STRING_EQUAL(b.data, "Blue");
	buf_reset(&b);
	words_seat(&b, NULL, 3);
	CU_ASSERT_STRING_EQUAL(b.data, "Yellow");
	buf_reset(&b);
	words_seat(&b, NULL, 7);
	CU_ASSERT_STRING_EQUAL(b.data, "Someone");
	buf_reset(&b);
	words_join(&b, three, 0);
	CU_ASSERT_STRING_EQUAL(b.data, "");
	words_join(&b, three, 1);
	CU_ASSERT_STRING_EQUAL(b.data, "Red");
	buf_reset(&b);
	words_join(&b, three, 2);
	CU_ASSERT_STRING_EQUAL(b.data, "Red and Blue");
	buf_reset(&b);
	words_join(&b, three, 3);
	CU_ASSERT_STRING_EQUAL(b.data, "Red, Blue and Green");
	buf_reset(&b);
	words_ints(&b, v, 3);
	CU_ASSERT_STRING_EQUAL(b.data, "2, 3 and 4");
	buf_reset(&b);
	words_count(&b, 1, "ship", "ships");
	buf_adds(&b, " ");
	words_count(&b, 0, "ship", "ships");
	CU_ASSERT_STRING_EQUAL(b.data, "1 ship 0 ships");
	buf_reset(&b);
	words_sep(&b, 0, "; ");
	CU_ASSERT_STRING_EQUAL(b.data, "");
	buf_adds(&b, "a");
	words_sep(&b, 0, "; ");
	CU_ASSERT_STRING_EQUAL(b.data, "a; ");
	buf_release(&b);
	json_decref(seats);
}

static void test_err__set_and_name(void)
{
	struct err e = {0};

	CU_ASSERT_EQUAL(err_set(&e, ERR_ILLEGAL, "needs %d", 4), ERR_ILLEGAL);
	ASSERT_STR_EQ(e.msg, "needs 4");
	ASSERT_STR_EQ(err_code_name(ERR_ILLEGAL), "illegal_move");
	ASSERT_STR_EQ(err_code_name(12345), "unknown_error");
	err_clear(&e);
	CU_ASSERT_EQUAL(e.code, 0);
	CU_ASSERT_EQUAL(err_set(NULL, ERR_INPUT, "x"), ERR_INPUT);
}

/* clock_ago_next is exactly where clock_format_ago's text changes: the same text before it, another at it. */
static void test_clock__ago_next_is_where_the_text_changes(void)
{
	static const int64_t spans[] = { -90000, -1, 0, 1, 59999, 60000, 61000, 119999, 3599999, 3600000, 7199999,
					 47 * 3600000LL + 3599999, 48 * 3600000LL, 86400000LL * 9 + 5, 86400000LL * 400 };
	char a[32], b[32];

	for (size_t i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
		int64_t ms = spans[i], next = clock_ago_next(ms);
		CU_ASSERT(next > ms);
		clock_format_ago(ms, a);
		clock_format_ago(next - 1, b);
		ASSERT_STR_EQ(a, b);
		clock_format_ago(next, b);
		CU_ASSERT(strcmp(a, b) != 0);
	}
	/* every minute of the first three days */
	for (int64_t ms = 0; ms < 3 * 86400000LL; ms += 60000) {
		int64_t next = clock_ago_next(ms);
		clock_format_ago(ms, a);
		clock_format_ago(next - 1, b);
		CU_ASSERT_FATAL(strcmp(a, b) == 0);
		clock_format_ago(next, b);
		CU_ASSERT_FATAL(strcmp(a, b) != 0);
	}
}

static void test_rng__deterministic_and_roundtrip(void)
{
	struct rng a, b;
	char text[96];

	rng_seed(&a, 42);
	rng_seed(&b, 42);
	for (int i = 0; i < 100; i++)
		CU_ASSERT_EQUAL(rng_next(&a), rng_next(&b));
	rng_encode(&a, text);
	CU_ASSERT_EQUAL(rng_decode(&b, text), 0);
	CU_ASSERT_EQUAL(b.draws, 100);
	CU_ASSERT_EQUAL(rng_next(&a), rng_next(&b));
	CU_ASSERT_EQUAL(rng_decode(&b, "zz"), ERR_INPUT);
	CU_ASSERT_EQUAL(rng_decode(&b, "0000000000000000000000000000000000000000000000000000000000000000:1"), ERR_INPUT);
}

static void test_rng__die_is_uniform_enough(void)
{
	struct rng r;
	int count[7] = {0};

	rng_seed(&r, 7);
	for (int i = 0; i < 60000; i++) {
		int d = rng_die(&r, 6);
		CU_ASSERT_FATAL(d >= 1 && d <= 6);
		count[d]++;
	}
	for (int f = 1; f <= 6; f++)
		CU_ASSERT(count[f] > 9500 && count[f] < 10500);
}

static void test_rng__shuffle_is_permutation(void)
{
	struct rng r;
	int a[22], seen[22] = {0}, moved = 0;

	rng_seed(&r, 1);
	for (int i = 0; i < 22; i++)
		a[i] = i;
	rng_shuffle_int(&r, a, 22);
	for (int i = 0; i < 22; i++) {
		seen[a[i]]++;
		moved += a[i] != i;
	}
	for (int i = 0; i < 22; i++)
		CU_ASSERT_EQUAL(seen[i], 1);
	/* a shuffle moves things: an identity "shuffle" leaves all 22 in place */
	CU_ASSERT(moved > 11);
}

static void test_rng__shuffle_is_uniform(void)
{
	/* every value lands in every position about equally often (50,000 shuffles of 5: 10,000 each) */
	int count[5][5] = {{0}};
	struct rng r;

	rng_seed(&r, 3);
	for (int k = 0; k < 50000; k++) {
		int a[5] = { 0, 1, 2, 3, 4 };
		rng_shuffle_int(&r, a, 5);
		for (int i = 0; i < 5; i++)
			count[i][a[i]]++;
	}
	for (int i = 0; i < 5; i++)
		for (int v = 0; v < 5; v++)
			CU_ASSERT(count[i][v] > 9400 && count[i][v] < 10600);
}

/* Addresses and ranges: both families, mapped IPv4, prefixes, and what is refused. */
static void test_netaddr__ranges(void)
{
	struct netaddr_range r[NETADDR_MAX_RANGES];
	struct netaddr a;
	struct err e = {0};
	char text[64];
	int n = netaddr_parse_list(" 10.0.0.0/8, 192.0.2.1 2001:db8::/32,[::1],::ffff:198.51.100.0/120 ", r,
				   NETADDR_MAX_RANGES, &e);

	CU_ASSERT_EQUAL_FATAL(n, 5);
	CU_ASSERT_EQUAL(netaddr_parse("10.200.3.4", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, n, &a), 1);
	CU_ASSERT_EQUAL(netaddr_parse("11.0.0.1", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, n, &a), 0);
	CU_ASSERT_EQUAL(netaddr_parse("192.0.2.1", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, n, &a), 1);
	CU_ASSERT_EQUAL(netaddr_parse("192.0.2.2", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, n, &a), 0);
	CU_ASSERT_EQUAL(netaddr_parse("2001:db8:ffff::9", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, n, &a), 1);
	CU_ASSERT_EQUAL(netaddr_parse("2001:db9::9", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, n, &a), 0);
	CU_ASSERT_EQUAL(netaddr_parse("[::1]", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, n, &a), 1);
	/* a mapped address is its IPv4 address, in ranges written either way */
	CU_ASSERT_EQUAL(netaddr_parse("::ffff:10.1.1.1", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, n, &a), 1);
	ASSERT_STR_EQ(netaddr_text(&a, text), "10.1.1.1");
	CU_ASSERT_EQUAL(netaddr_parse("198.51.100.77", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, n, &a), 1);
	/* /0 matches its whole family only; a prefix that is not a whole byte */
	CU_ASSERT_EQUAL(netaddr_parse_list("0.0.0.0/0", r, NETADDR_MAX_RANGES, &e), 1);
	CU_ASSERT_EQUAL(netaddr_in(r, 1, &a), 1);
	CU_ASSERT_EQUAL(netaddr_parse("2001:db8::1", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, 1, &a), 0);
	CU_ASSERT_EQUAL(netaddr_parse_list("172.16.0.0/12", r, NETADDR_MAX_RANGES, &e), 1);
	CU_ASSERT_EQUAL(netaddr_parse("172.31.255.255", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, 1, &a), 1);
	CU_ASSERT_EQUAL(netaddr_parse("172.32.0.0", &a), 0);
	CU_ASSERT_EQUAL(netaddr_in(r, 1, &a), 0);
	/* refused, with the item named */
	CU_ASSERT_EQUAL(netaddr_parse_list("127.0.0.1,localhost", r, NETADDR_MAX_RANGES, &e), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "localhost"));
	CU_ASSERT_EQUAL(netaddr_parse_list("10.0.0.0/33", r, NETADDR_MAX_RANGES, &e), -1);
	CU_ASSERT_EQUAL(netaddr_parse_list("10.0.0.0/", r, NETADDR_MAX_RANGES, &e), -1);
	CU_ASSERT_EQUAL(netaddr_parse_list("::/129", r, NETADDR_MAX_RANGES, &e), -1);
	CU_ASSERT_EQUAL(netaddr_parse_list("1.2.3.4,5.6.7.8", r, 1, &e), -1);
	CU_ASSERT_EQUAL(netaddr_parse("1.2.3", &a), -1);
	CU_ASSERT_EQUAL(netaddr_parse("", &a), -1);
	CU_ASSERT_EQUAL(netaddr_parse("[]", &a), -1);
}

static CU_TestInfo util_cases[] = {
	{ "test_netaddr__ranges", test_netaddr__ranges },
	{ "test_buf__grow_and_detach", test_buf__grow_and_detach },
	{ "test_buf__trim", test_buf__trim },
	{ "test_buf__add_html", test_buf__add_html },
	{ "test_buf__addf_is_printf", test_buf__addf_is_printf },
	{ "test_svg__seats_and_heading", test_svg__seats_and_heading },
	{ "test_tapdraw__choices", test_tapdraw__choices },
	{ "test_tapdraw__box_look_board", test_tapdraw__box_look_board },
	{ "test_words__names_lists_counts", test_words__names_lists_counts },
	{ "test_err__set_and_name", test_err__set_and_name },
	{ "test_clock__ago_next_is_where_the_text_changes", test_clock__ago_next_is_where_the_text_changes },
	{ "test_rng__deterministic_and_roundtrip", test_rng__deterministic_and_roundtrip },
	{ "test_rng__die_is_uniform_enough", test_rng__die_is_uniform_enough },
	{ "test_rng__shuffle_is_permutation", test_rng__shuffle_is_permutation },
	{ "test_rng__shuffle_is_uniform", test_rng__shuffle_is_uniform },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("util", NULL, NULL, util_cases);
	return 0;
}
