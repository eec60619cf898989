/* tests/unit/test_util.c: CUnit suites for util/ (buf, err) and engine/rng */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rng.h"
#include "testutil.h"
#include "util/buf.h"
#include "util/svg.h"
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
	{ "test_svg__seats_and_heading", test_svg__seats_and_heading },
	{ "test_words__names_lists_counts", test_words__names_lists_counts },
	{ "test_err__set_and_name", test_err__set_and_name },
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
