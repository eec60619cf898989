/* tests/unit/test_signin.c: CUnit suite for engine/signin (links asked for, made and used once; sessions) */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "actions_fixture.h"
#include "engine/outbox.h"
#include "engine/signin.h"
#include "testutil.h"

static int suite_init(void)
{
	return fx_open();
}

/* The pending "signin" notifications of user_id. */
static int signins(int64_t user_id)
{
	struct err e = {0};
	json_t *list = NULL, *v;
	size_t i;
	int n = 0;

	if (outbox_list(fx_store, "pending", 1000, &list, &e) < 0)
		return -1;
	json_array_foreach(list, i, v)
		n += !strcmp(json_string_value(json_object_get(v, "event")), "signin") &&
		     json_integer_value(json_object_get(v, "user")) == user_id;
	json_decref(list);
	return n;
}

static void test_signin__request_is_silent_for_strangers(void)
{
	int64_t uid = fx_user("kim@example.org", "Kim", 0);
	struct err e = {0};

	CU_ASSERT_EQUAL(signins(uid), 0);
	CU_ASSERT_EQUAL(signin_link_request(fx_store, "kim@example.org", 1000, &e), 0);
	CU_ASSERT_EQUAL(signins(uid), 1);
	CU_ASSERT_EQUAL(signin_link_request(fx_store, "nobody@example.org", 1000, &e), 0);
	CU_ASSERT_EQUAL(e.code, 0);
	CU_ASSERT_EQUAL(signins(uid), 1);
	CU_ASSERT_EQUAL(signin_link_request(fx_store, "kim at example", 1000, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(signin_link_request(fx_store, NULL, 1000, &e), ERR_INPUT);
}

static void test_signin__link_works_once_and_expires(void)
{
	int64_t uid = fx_user(NULL, "Lu", 0), who = 5;
	char text[TOKEN_TEXT_MAX];
	struct err e = {0};

	CU_ASSERT_EQUAL_FATAL(signin_link_new(fx_store, uid, "sign-in link", 1000, text, &e), 0);
	CU_ASSERT_EQUAL(signin_link_use(fx_store, text, 2000, &who, &e), 0);
	CU_ASSERT_EQUAL(who, uid);
	CU_ASSERT_EQUAL(signin_link_use(fx_store, text, 2000, &who, &e), ERR_UNAUTH);
	CU_ASSERT_EQUAL(who, 0);
	/* an hour later it is gone */
	CU_ASSERT_EQUAL_FATAL(signin_link_new(fx_store, uid, "sign-in link", 1000, text, &e), 0);
	CU_ASSERT_EQUAL(signin_link_use(fx_store, text, 1000 + SIGNIN_LINK_MS + 1, &who, &e), ERR_UNAUTH);
	CU_ASSERT_EQUAL(signin_link_use(fx_store, "garbage", 2000, &who, &e), ERR_UNAUTH);
}

static void test_signin__session_and_kinds(void)
{
	int64_t uid = fx_user(NULL, "Mo", 0), who = 0;
	char session[TOKEN_TEXT_MAX], link[TOKEN_TEXT_MAX];
	struct tokens_holder h;
	struct err e = {0};

	CU_ASSERT_EQUAL_FATAL(signin_session_new(fx_store, uid, 1000, session, &e), 0);
	CU_ASSERT_EQUAL_FATAL(signin_session_find(fx_store, session, 2000, &h, &e), 0);
	CU_ASSERT_EQUAL(h.user_id, uid);
	ASSERT_STR_EQ(h.name, "Mo");
	/* a session is not a sign-in link, nor a seat link, and a link is not a session */
	CU_ASSERT_EQUAL(signin_link_use(fx_store, session, 2000, &who, &e), ERR_UNAUTH);
	CU_ASSERT_EQUAL(signin_seat_link(fx_store, session, 2000, &h, &e), ERR_UNAUTH);
	CU_ASSERT_EQUAL(h.token_id, 0);
	CU_ASSERT_EQUAL(h.seat, -1);
	CU_ASSERT_EQUAL_FATAL(signin_link_new(fx_store, uid, "x", 1000, link, &e), 0);
	CU_ASSERT_EQUAL(signin_session_find(fx_store, link, 2000, &h, &e), ERR_UNAUTH);
	/* it lasts SIGNIN_SESSION_DAYS */
	CU_ASSERT_EQUAL(signin_session_find(fx_store, session, 1000 + (int64_t)SIGNIN_SESSION_DAYS * 86400000 + 1, &h,
					    &e), ERR_UNAUTH);
	/* ended by its holder */
	CU_ASSERT_EQUAL_FATAL(signin_session_find(fx_store, session, 2000, &h, &e), 0);
	CU_ASSERT_EQUAL(tokens_revoke_own(fx_store, h.token_id, &e), 0);
	CU_ASSERT_EQUAL(signin_session_find(fx_store, session, 2000, &h, &e), ERR_UNAUTH);
}

static CU_TestInfo cases[] = {
	{ "test_signin__request_is_silent_for_strangers", test_signin__request_is_silent_for_strangers },
	{ "test_signin__link_works_once_and_expires", test_signin__link_works_once_and_expires },
	{ "test_signin__session_and_kinds", test_signin__session_and_kinds },
	CU_TEST_INFO_NULL,
};

int test_signin_register(void)
{
	TESTS_SUITE("signin", suite_init, fx_close, cases);
	return 0;
}
