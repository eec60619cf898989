/* tests/unit/test_create.c: CUnit suite for engine/create (one check of a new game for every door) */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "actions_fixture.h"
#include "engine/create.h"
#include "testutil.h"

static int suite_init(void)
{
	return fx_open();
}

static int try_create(const char *game, int n, const char *email1, const json_t *options, const json_t *clock,
		      enum create_problem *problem, int64_t *id)
{
	struct create_player players[5] = { { "Ann", "ann@example.org" }, { "Bob", NULL }, { "Cy", NULL },
					  { "Di", NULL }, { "Ed", NULL } };
	struct create_request rq = { .game = game, .options = options, .players = players, .nplayers = n,
				     .clock = clock, .seed = 3, .have_seed = 1 };
	struct err e = {0};

	players[1].email = email1;
	return create_game(fx_store, &rq, id, NULL, problem, &e);
}

static void test_create__checks_in_order(void)
{
	enum create_problem p;
	int64_t id = 9;
	json_t *bad_opts = json_pack("{s:s}", "target", "ten"), *arr = json_array();
	json_t *clock_bot = json_pack("{s:s,s:i,s:s}", "mode", "per_turn", "turn_hours", 24, "timeout", "bot");
	json_t *clock_bad = json_pack("{s:s}", "mode", "sometimes");

	CU_ASSERT_EQUAL(try_create("no-such-game", 2, NULL, NULL, NULL, &p, &id), ERR_INPUT);
	CU_ASSERT_EQUAL(p, CREATE_UNKNOWN_GAME);
	CU_ASSERT_EQUAL(id, 0);
	ASSERT_STR_EQ(create_problem_code(p), "unknown_game");
	CU_ASSERT_EQUAL(try_create(NULL, 2, NULL, NULL, NULL, &p, &id), ERR_INPUT);
	CU_ASSERT_EQUAL(p, CREATE_UNKNOWN_GAME);
	CU_ASSERT_EQUAL(try_create("counting-race", 5, NULL, NULL, NULL, &p, &id), ERR_INPUT);
	CU_ASSERT_EQUAL(p, CREATE_BAD_PLAYERS);
	CU_ASSERT_EQUAL(try_create("counting-race", 0, NULL, NULL, NULL, &p, &id), ERR_INPUT);
	CU_ASSERT_EQUAL(p, CREATE_BAD_PLAYERS);
	CU_ASSERT_EQUAL(try_create("counting-race", 2, "bob at home", NULL, NULL, &p, &id), ERR_INPUT);
	CU_ASSERT_EQUAL(p, CREATE_BAD_EMAIL);
	ASSERT_STR_EQ(create_problem_code(p), "bad_email");
	CU_ASSERT_EQUAL(try_create("counting-race", 2, NULL, arr, NULL, &p, &id), ERR_INPUT);
	CU_ASSERT_EQUAL(p, CREATE_BAD_OPTIONS);
	CU_ASSERT_EQUAL(try_create("counting-race", 2, NULL, bad_opts, NULL, &p, &id), ERR_INPUT);
	CU_ASSERT_EQUAL(p, CREATE_BAD_OPTIONS);
	CU_ASSERT_EQUAL(try_create("counting-race", 2, NULL, NULL, clock_bad, &p, &id), ERR_INPUT);
	CU_ASSERT_EQUAL(p, CREATE_BAD_CLOCK);
	/* a bot for timeouts only where the game has one */
	CU_ASSERT_EQUAL(try_create("counting-race-nobot", 2, NULL, NULL, clock_bot, &p, &id), ERR_INPUT);
	CU_ASSERT_EQUAL(p, CREATE_BAD_CLOCK);
	ASSERT_STR_EQ(create_problem_code(p), "bad_clock");
	CU_ASSERT_EQUAL(id, 0);
	CU_ASSERT_EQUAL(try_create("counting-race", 2, NULL, NULL, clock_bot, &p, &id), 0);
	CU_ASSERT_EQUAL(p, CREATE_OK);
	CU_ASSERT(id > 0);
	CU_ASSERT_PTR_NULL(create_problem_code(p));
	json_decref(bad_opts);
	json_decref(arr);
	json_decref(clock_bot);
	json_decref(clock_bad);
}

static void test_create__invites_and_tokens(void)
{
	struct create_player players[2] = { { "Ann", "ann2@example.org" }, { "Bob", "bob2@example.org" } };
	struct create_request rq = { .game = "counting-race", .players = players, .nplayers = 2 };
	char tokens[GAME_MAX_SEATS][TOKEN_TEXT_MAX];
	struct err e = {0};
	int64_t id = 0;
	int audits = fx_audit_total();

	CU_ASSERT_EQUAL_FATAL(create_game(fx_store, &rq, &id, tokens, NULL, &e), 0);
	CU_ASSERT_EQUAL(fx_outbox_count(id, "invite"), 2);
	CU_ASSERT(strlen(tokens[0]) > 10);
	CU_ASSERT(strcmp(tokens[0], tokens[1]) != 0);
	CU_ASSERT_EQUAL(fx_audit_total(), audits);
}

static CU_TestInfo cases[] = {
	{ "test_create__checks_in_order", test_create__checks_in_order },
	{ "test_create__invites_and_tokens", test_create__invites_and_tokens },
	CU_TEST_INFO_NULL,
};

int test_create_register(void)
{
	TESTS_SUITE("create", suite_init, fx_close, cases);
	return 0;
}
