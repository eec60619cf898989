/* tests/unit/test_account.c: CUnit suite for engine/account (validation, changes, preferences, new accounts) */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "actions_fixture.h"
#include "engine/account.h"
#include "engine/tokens.h"
#include "testutil.h"

static int suite_init(void)
{
	return fx_open();
}

static void test_account__validation(void)
{
	char long_name[ACCOUNT_NAME_MAX + 2];

	CU_ASSERT(account_valid_email("ann@example.org"));
	CU_ASSERT_FALSE(account_valid_email("ann"));
	CU_ASSERT_FALSE(account_valid_email("@example.org"));
	CU_ASSERT_FALSE(account_valid_email("ann@"));
	CU_ASSERT_FALSE(account_valid_email("a@b@c"));
	CU_ASSERT_FALSE(account_valid_email("Ann <ann@example.org>"));
	CU_ASSERT_FALSE(account_valid_email(NULL));
	CU_ASSERT(account_valid_name("Ann"));
	CU_ASSERT_FALSE(account_valid_name(""));
	CU_ASSERT_FALSE(account_valid_name("A\nB"));
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	CU_ASSERT_FALSE(account_valid_name(long_name));
}

static void test_account__update_name_email_prefs(void)
{
	int64_t uid = fx_user("gus@example.org", "Gus", 0), other = fx_user("hal@example.org", "Hal", 0), found = 0;
	json_t *change = json_pack("{s:{s:b},s:b}", "events", "chat", 0, "digest", 1), *prefs = NULL, *acc = NULL;
	struct err e = {0};

	CU_ASSERT_EQUAL_FATAL(account_update(fx_store, uid, "Gus Grey", "GUS@example.org", change, &prefs, &e), 0);
	CU_ASSERT(json_is_false(json_object_get(json_object_get(prefs, "events"), "chat")));
	CU_ASSERT(json_is_true(json_object_get(prefs, "digest")));
	json_decref(prefs);
	json_decref(change);
	/* a later change keeps what it does not name */
	change = json_pack("{s:b}", "digest", 0);
	CU_ASSERT_EQUAL_FATAL(account_update(fx_store, uid, NULL, NULL, change, NULL, &e), 0);
	json_decref(change);
	CU_ASSERT_EQUAL_FATAL(account_get(fx_store, uid, &acc, &e), 0);
	ASSERT_STR_EQ(json_string_value(json_object_get(acc, "name")), "Gus Grey");
	CU_ASSERT(json_is_false(json_object_get(json_object_get(json_object_get(acc, "prefs"), "events"), "chat")));
	CU_ASSERT(json_is_false(json_object_get(json_object_get(acc, "prefs"), "digest")));
	CU_ASSERT(json_is_false(json_object_get(acc, "admin")));
	json_decref(acc);
	/* a new address */
	CU_ASSERT_EQUAL(account_update(fx_store, uid, NULL, "gus@example.net", NULL, NULL, &e), 0);
	CU_ASSERT_EQUAL(account_find_email(fx_store, "gus@example.net", &found, &e), 0);
	CU_ASSERT_EQUAL(found, uid);
	/* refusals: all or nothing */
	CU_ASSERT_EQUAL(account_update(fx_store, uid, "", NULL, NULL, NULL, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(account_update(fx_store, uid, "Gus", "not-an-address", NULL, NULL, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(account_update(fx_store, uid, "Someone Else", "hal@example.org", NULL, NULL, &e), ERR_CONFLICT);
	change = json_pack("{s:s}", "digest", "often");
	{
		json_t *sentinel = json_object();
		prefs = sentinel;
		CU_ASSERT_EQUAL(account_update(fx_store, uid, "Someone Else", NULL, change, &prefs, &e), ERR_INPUT);
		CU_ASSERT_PTR_NULL(prefs);
		json_decref(sentinel);
	}
	json_decref(change);
	CU_ASSERT_EQUAL_FATAL(account_get(fx_store, uid, &acc, &e), 0);
	ASSERT_STR_EQ(json_string_value(json_object_get(acc, "name")), "Gus Grey");
	json_decref(acc);
	CU_ASSERT_EQUAL(account_update(fx_store, 999999, "Nobody", NULL, NULL, NULL, &e), ERR_NOTFOUND);
	{
		json_t *sentinel = json_object();
		acc = sentinel;
		CU_ASSERT_EQUAL(account_get(fx_store, 999999, &acc, &e), ERR_NOTFOUND);
		CU_ASSERT_PTR_NULL(acc);
		json_decref(sentinel);
	}
	CU_ASSERT_EQUAL(account_find_email(fx_store, "nobody@example.org", &found, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(found, 0);
	(void)other;
}

static void test_account__add_with_a_token(void)
{
	char text[TOKEN_TEXT_MAX];
	unsigned char hash[32];
	struct tokens_holder h;
	struct err e = {0};
	int64_t uid = 0;

	CU_ASSERT_EQUAL_FATAL(account_add(fx_store, "ivy@example.org", "Ivy", 1, "cli", &uid, text, &e), 0);
	CU_ASSERT(uid > 0);
	CU_ASSERT_EQUAL_FATAL(token_hash(text, hash), 0);
	CU_ASSERT_EQUAL_FATAL(tokens_lookup(fx_store, hash, 1000, &h, &e), 0);
	CU_ASSERT_EQUAL(h.user_id, uid);
	CU_ASSERT(h.is_admin);
	CU_ASSERT_EQUAL(account_add(fx_store, "ivy@example.org", "Ivy", 0, "cli", &uid, text, &e), ERR_CONFLICT);
	CU_ASSERT_EQUAL(uid, 0);
	CU_ASSERT_EQUAL(text[0], '\0');
	CU_ASSERT_EQUAL(account_add(fx_store, "ivy", "Ivy", 0, "cli", &uid, text, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(account_add(fx_store, "jo@example.org", "", 0, "cli", &uid, text, &e), ERR_INPUT);
}

/* Names that could imitate another: bidirectional controls and invisible characters are refused. */
static void test_account__names_without_invisible_characters(void)
{
	static const char *const bad[] = {
		"\xe2\x80\xae" "nnA",   /* U+202E RIGHT-TO-LEFT OVERRIDE */
		"Ann\xe2\x80\xaa",      /* U+202A */
		"A\xe2\x81\xa6nn",      /* U+2066 LEFT-TO-RIGHT ISOLATE */
		"A\xe2\x81\xa9nn",      /* U+2069 */
		"An\xe2\x80\x8bn",      /* U+200B ZERO WIDTH SPACE */
		"An\xe2\x80\x8dn",      /* U+200D ZERO WIDTH JOINER */
		"An\xe2\x80\x8fn",      /* U+200F RIGHT-TO-LEFT MARK */
		"An\xe2\x81\xa0n",      /* U+2060 WORD JOINER */
		"An\xe2\x81\xa4n",      /* U+2064 */
		"\xef\xbb\xbf" "Ann",   /* U+FEFF */
		"An\xc2\xadn",           /* U+00AD SOFT HYPHEN (Cf) */
		"An\xc2\x85n",           /* U+0085 (a C1 control) */
		"An\xd8\x9cn",           /* U+061C ARABIC LETTER MARK */
		"Ann\xf3\xa0\x80\x81", /* U+E0001 LANGUAGE TAG */
		"An\xffn",                /* not UTF-8 */
		"An\xc0\xaen",           /* an overlong encoding */
	};
	int64_t uid = fx_user("una@example.org", "Una", 0), id = 0;
	char text[TOKEN_TEXT_MAX];
	struct err e = {0};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_FALSE(account_valid_name(bad[i]));
		err_clear(&e);
		CU_ASSERT_EQUAL(account_update(fx_store, uid, bad[i], NULL, NULL, NULL, &e), ERR_INPUT);
		/* the last two are no UTF-8 at all, and say so */
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, i + 2 < sizeof(bad) / sizeof(bad[0]) ? "invisible" : "UTF-8"));
	}
	CU_ASSERT_EQUAL(account_add(fx_store, "kit@example.org", bad[0], 0, NULL, &id, text, &e), ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "invisible"));
	/* letters of any script stay welcome */
	CU_ASSERT(account_valid_name("Zo\xc3\xab"));
	CU_ASSERT(account_valid_name("\xe6\x9d\x8e\xe9\x9b\xb7"));
	CU_ASSERT(account_valid_name("\xd7\xa9\xd7\xa8\xd7\x94"));
	err_clear(&e);
	CU_ASSERT_EQUAL(account_update(fx_store, uid, "Iv\xc3\xa9", NULL, NULL, NULL, &e), 0);
	if (e.msg[0])
		fprintf(stderr, "\n  %s\n", e.msg);
}

static CU_TestInfo cases[] = {
	{ "test_account__validation", test_account__validation },
	{ "test_account__update_name_email_prefs", test_account__update_name_email_prefs },
	{ "test_account__add_with_a_token", test_account__add_with_a_token },
	{ "test_account__names_without_invisible_characters", test_account__names_without_invisible_characters },
	CU_TEST_INFO_NULL,
};

int test_account_register(void)
{
	TESTS_SUITE("account", suite_init, fx_close, cases);
	return 0;
}
