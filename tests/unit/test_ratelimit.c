/* tests/unit/test_ratelimit.c: CUnit suite for http/ratelimit: the limits' arithmetic and their specification */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "http/ratelimit.h"
#include "testutil.h"

#define HOUR (3600LL * 1000)

/* COUNT at once, then one more each PERIOD/COUNT; a refusal counts nothing and says when to come back. */
static void test_ratelimit__burst_then_steady(void)
{
	struct ratelimit *rl = NULL;
	struct err e = {0};
	int64_t t0 = 1000LL * HOUR;
	int retry = 0;

	CU_ASSERT_EQUAL_FATAL(ratelimit_new("chat=3/h", &rl, &e), 0);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_CHAT, "7:0", 1, t0, &retry), 0);
	CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_CHAT, "7:0", 1, t0, &retry), ERR_LIMIT);
	CU_ASSERT_EQUAL(retry, 1200);
	/* nothing counted: twenty minutes on, one more (and only one) */
	CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_CHAT, "7:0", 1, t0 + HOUR / 3, &retry), 0);
	CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_CHAT, "7:0", 1, t0 + HOUR / 3, &retry), ERR_LIMIT);
	/* another key, and another kind with the same key, have their own allowance */
	CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_CHAT, "7:1", 1, t0, &retry), 0);
	CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_BAD_TOKEN, "7:0", 1, t0, &retry), 0);
	/* checking counts nothing; several at once need room for all of them */
	CU_ASSERT_EQUAL(ratelimit_check(rl, RATELIMIT_CHAT, "7:1", 2, t0, &retry), 0);
	CU_ASSERT_EQUAL(ratelimit_check(rl, RATELIMIT_CHAT, "7:1", 3, t0, &retry), ERR_LIMIT);
	CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_CHAT, "7:1", 2, t0, &retry), 0);
	CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_CHAT, "7:1", 1, t0, &retry), ERR_LIMIT);
	/* after a whole period the allowance is whole again */
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_CHAT, "7:0", 1, t0 + 2 * HOUR, &retry), 0);
	ratelimit_free(rl);
}

/* The specification: defaults, names left out, off, and what is refused. */
static void test_ratelimit__spec(void)
{
	struct ratelimit *rl = NULL;
	struct err e = {0};
	int retry;
	const char *bad[] = { "chat", "chat=3", "chat=3/", "chat=3/w", "chat=x/h", "nope=3/h", "chat=3/h,", "chat=-1/h",
			      "chat=3/10", NULL };

	CU_ASSERT_EQUAL_FATAL(ratelimit_new(NULL, &rl, &e), 0);
	/* the default: five sign-in emails an hour per address */
	for (int i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_SIGNIN_EMAIL, "a@example.org", 1, 0, &retry), 0);
	CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_SIGNIN_EMAIL, "a@example.org", 1, 0, &retry), ERR_LIMIT);
	ratelimit_free(rl);
	CU_ASSERT_EQUAL_FATAL(ratelimit_new("off", &rl, &e), 0);
	for (int i = 0; i < 100; i++)
		CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_BAD_TOKEN, "10.0.0.1", 1, 0, &retry), 0);
	ratelimit_free(rl);
	CU_ASSERT_EQUAL_FATAL(ratelimit_new("bad_token=0/m,chat=2/30s", &rl, &e), 0);
	for (int i = 0; i < 100; i++)
		CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_BAD_TOKEN, "10.0.0.1", 1, 0, &retry), 0);
	CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_CHAT, "1:0", 2, 0, &retry), 0);
	CU_ASSERT_EQUAL(ratelimit_take(rl, RATELIMIT_CHAT, "1:0", 1, 0, &retry), ERR_LIMIT);
	CU_ASSERT_EQUAL(retry, 15);
	ratelimit_free(rl);
	for (int i = 0; bad[i]; i++) {
		rl = NULL;
		err_clear(&e);
		CU_ASSERT_EQUAL(ratelimit_new(bad[i], &rl, &e), ERR_INPUT);
		CU_ASSERT_PTR_NULL(rl);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "--rate-limits"));
	}
}

static CU_TestInfo ratelimit_cases[] = {
	{ "test_ratelimit__burst_then_steady", test_ratelimit__burst_then_steady },
	{ "test_ratelimit__spec", test_ratelimit__spec },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("ratelimit", NULL, NULL, ratelimit_cases);
	return 0;
}
