/* tests/unit/test_join.c: CUnit suite for engine/join (taking an open seat) */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "actions_fixture.h"
#include "engine/join.h"
#include "engine/views.h"
#include "testutil.h"

static int suite_init(void)
{
	return fx_open();
}

static void test_join__takes_the_open_seat_once(void)
{
	int64_t game = fx_game_open_seat(), cy = fx_user(NULL, "Cy", 0), di = fx_user(NULL, "Di", 0);
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	struct err e = {0};
	int seat = 7, n = 0, audits = fx_audit_total();

	CU_ASSERT_EQUAL_FATAL(join_game(fx_store, game, cy, &seat, &e), 0);
	CU_ASSERT_EQUAL(seat, 1);
	CU_ASSERT_EQUAL_FATAL(views_game_info(fx_store, game, &g, &seats, &n, &e), 0);
	CU_ASSERT_EQUAL(seats[1].user_id, cy);
	ASSERT_STR_EQ(seats[1].name, "Cy");
	store_seats_free(seats, n);
	store_game_release(&g);
	/* Cy plays already; Di finds no seat left */
	CU_ASSERT_EQUAL(join_game(fx_store, game, cy, &seat, &e), ERR_CONFLICT);
	CU_ASSERT_EQUAL(seat, -1);
	CU_ASSERT_EQUAL(join_game(fx_store, game, di, &seat, &e), ERR_CONFLICT);
	CU_ASSERT_EQUAL(join_game(fx_store, 999999, di, &seat, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(fx_audit_total(), audits);
}

static CU_TestInfo cases[] = {
	{ "test_join__takes_the_open_seat_once", test_join__takes_the_open_seat_once },
	CU_TEST_INFO_NULL,
};

int test_join_register(void)
{
	TESTS_SUITE("join", suite_init, fx_close, cases);
	return 0;
}
