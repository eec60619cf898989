/* tests/unit/test_tokens.c: CUnit suite for engine/tokens (make, look up, revoke with its audit row) */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "actions_fixture.h"
#include "engine/tokens.h"
#include "testutil.h"

static int64_t admin_id;

static int suite_init(void)
{
	if (fx_open() < 0)
		return -1;
	admin_id = fx_user("root@example.org", "Root", 1);
	return admin_id ? 0 : -1;
}

static int holder_of(const char *text, struct tokens_holder *h)
{
	unsigned char hash[32];
	struct err e = {0};

	if (token_hash(text, hash) < 0)
		return ERR_UNAUTH;
	return tokens_lookup(fx_store, hash, 5000, h, &e);
}

static void test_tokens__api_new_and_lookup(void)
{
	int64_t uid = fx_user(NULL, "Ann", 0), id = 0;
	char text[TOKEN_TEXT_MAX];
	char label[TOKENS_LABEL_MAX + 2];
	struct tokens_holder h;
	struct err e = {0};

	CU_ASSERT_EQUAL_FATAL(tokens_api_new(fx_store, uid, "laptop", text, &id, &e), 0);
	CU_ASSERT(id > 0);
	CU_ASSERT_EQUAL_FATAL(holder_of(text, &h), 0);
	CU_ASSERT_EQUAL(h.token_id, id);
	CU_ASSERT_EQUAL(h.kind, TOKEN_API);
	CU_ASSERT_EQUAL(h.user_id, uid);
	CU_ASSERT_EQUAL(h.seat, -1);
	CU_ASSERT(h.has_account);
	CU_ASSERT_FALSE(h.is_admin);
	ASSERT_STR_EQ(h.name, "Ann");
	/* a label over the limit: ERR_INPUT, no token, the text cleared */
	memset(label, 'x', sizeof(label) - 1);
	label[sizeof(label) - 1] = '\0';
	CU_ASSERT_EQUAL(tokens_api_new(fx_store, uid, label, text, &id, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(id, 0);
	CU_ASSERT_EQUAL(text[0], '\0');
	/* an unknown token: ERR_UNAUTH and a cleared holder */
	{
		unsigned char hash[32];
		token_new(text, hash); /* never stored */
	}
	CU_ASSERT_EQUAL(holder_of(text, &h), ERR_UNAUTH);
	CU_ASSERT_EQUAL(h.token_id, 0);
	CU_ASSERT_EQUAL(h.seat, -1);
}

static void test_tokens__admin_holder_is_admin(void)
{
	char text[TOKEN_TEXT_MAX];
	struct tokens_holder h;
	struct err e = {0};

	CU_ASSERT_EQUAL_FATAL(tokens_api_new(fx_store, admin_id, NULL, text, NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(holder_of(text, &h), 0);
	CU_ASSERT(h.is_admin);
}

static void test_tokens__revoke_writes_one_audit_row(void)
{
	int64_t uid = fx_user(NULL, "Bob", 0), id = 0;
	struct actor a = { .user_id = admin_id, .channel = "api", .client = "192.0.2.7", .reason = "left the club" };
	struct store_audit_row row;
	struct tokens_holder h;
	char text[TOKEN_TEXT_MAX];
	struct err e = {0};
	json_t *out = NULL, *d;
	int before = fx_audit_total();

	CU_ASSERT_EQUAL_FATAL(tokens_api_new(fx_store, uid, "phone", text, &id, &e), 0);
	CU_ASSERT_EQUAL_FATAL(tokens_revoke(fx_store, &a, id, &out, &e), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(out, "id")), id);
	ASSERT_STR_EQ(json_string_value(json_object_get(out, "action")), "token_revoke");
	CU_ASSERT(json_is_true(json_object_get(out, "revoked")));
	json_decref(out);
	CU_ASSERT_EQUAL(holder_of(text, &h), ERR_UNAUTH);
	CU_ASSERT_EQUAL(fx_audit_total(), before + 1);
	CU_ASSERT_EQUAL_FATAL(fx_audit_newest("token_revoke", &row), 0);
	CU_ASSERT_EQUAL(row.actor_user_id, admin_id);
	ASSERT_STR_EQ(row.actor, "api");
	ASSERT_STR_EQ(row.reason, "left the club");
	CU_ASSERT_EQUAL(row.game_id, 0);
	CU_ASSERT_EQUAL(row.before, -1);
	CU_ASSERT_EQUAL(row.after, -1);
	d = fx_audit_detail(&row);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "token")), id);
	ASSERT_STR_EQ(json_string_value(json_object_get(d, "kind")), "api");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "user")), uid);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "seat")), -1);
	ASSERT_STR_EQ(json_string_value(json_object_get(d, "label")), "phone");
	ASSERT_STR_EQ(json_string_value(json_object_get(d, "client")), "192.0.2.7");
	json_decref(d);
	fx_audit_release(&row);
	/* again: ERR_NOTFOUND, *out NULL, no second row */
	{
		json_t *sentinel = json_object();
		out = sentinel;
		CU_ASSERT_EQUAL(tokens_revoke(fx_store, &a, id, &out, &e), ERR_NOTFOUND);
		CU_ASSERT_PTR_NULL(out);
		json_decref(sentinel);
	}
	CU_ASSERT_EQUAL(fx_audit_total(), before + 1);
}

static void test_tokens__revoke_of_a_seat_token_names_its_game(void)
{
	int64_t game = fx_game(2);
	struct actor a = { .channel = "cli", .reason = "link leaked" };
	struct store_token_info *list = NULL;
	struct store_audit_row row;
	struct store_conn *c;
	struct err e = {0};
	int n = 0;

	CU_ASSERT_FATAL(game > 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(fx_store, &c, &e), 0);
	CU_ASSERT_EQUAL(store_token_list_game(c, game, &list, &n, &e), 0);
	store_read_release(c);
	CU_ASSERT_FATAL(n == 2);
	CU_ASSERT_EQUAL_FATAL(tokens_revoke(fx_store, &a, list[0].id, NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(fx_audit_newest("token_revoke", &row), 0);
	CU_ASSERT_EQUAL(row.game_id, game);
	CU_ASSERT_EQUAL(row.before, 0);
	CU_ASSERT_EQUAL(row.after, 0);
	ASSERT_STR_EQ(row.actor, "cli");
	CU_ASSERT_EQUAL(row.actor_user_id, 0);
	fx_audit_release(&row);
	free(list);
}

static void test_tokens__revoke_reason_rules(void)
{
	int64_t uid = fx_user(NULL, "Cy", 0), id = 0;
	struct actor a = { .user_id = admin_id, .channel = "web" };
	struct store_audit_row row;
	struct tokens_holder h;
	char text[TOKEN_TEXT_MAX];
	struct err e = {0};
	int before;

	CU_ASSERT_EQUAL_FATAL(tokens_api_new(fx_store, uid, NULL, text, &id, &e), 0);
	before = fx_audit_total();
	/* the console needs a reason: nothing is revoked or written without one */
	CU_ASSERT_EQUAL(tokens_revoke(fx_store, &a, id, NULL, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(holder_of(text, &h), 0);
	/* a control character is refused everywhere */
	a.reason = "a\001b";
	a.flags = ACTOR_REASON_OPTIONAL;
	CU_ASSERT_EQUAL(tokens_revoke(fx_store, &a, id, NULL, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(fx_audit_total(), before);
	/* where the channel makes it optional, none gives a row without a reason */
	a.reason = "  ";
	CU_ASSERT_EQUAL(tokens_revoke(fx_store, &a, id, NULL, &e), 0);
	CU_ASSERT_EQUAL(fx_audit_total(), before + 1);
	CU_ASSERT_EQUAL_FATAL(fx_audit_newest("token_revoke", &row), 0);
	CU_ASSERT_PTR_NULL(row.reason);
	fx_audit_release(&row);
}

static void test_tokens__revoke_own_writes_no_audit_row(void)
{
	int64_t uid = fx_user(NULL, "Di", 0), id = 0;
	struct tokens_holder h;
	char text[TOKEN_TEXT_MAX];
	struct err e = {0};
	int before;

	CU_ASSERT_EQUAL_FATAL(tokens_api_new(fx_store, uid, NULL, text, &id, &e), 0);
	before = fx_audit_total();
	CU_ASSERT_EQUAL(tokens_revoke_own(fx_store, id, &e), 0);
	CU_ASSERT_EQUAL(holder_of(text, &h), ERR_UNAUTH);
	CU_ASSERT_EQUAL(tokens_revoke_own(fx_store, id, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(fx_audit_total(), before);
}

static CU_TestInfo cases[] = {
	{ "test_tokens__api_new_and_lookup", test_tokens__api_new_and_lookup },
	{ "test_tokens__admin_holder_is_admin", test_tokens__admin_holder_is_admin },
	{ "test_tokens__revoke_writes_one_audit_row", test_tokens__revoke_writes_one_audit_row },
	{ "test_tokens__revoke_of_a_seat_token_names_its_game", test_tokens__revoke_of_a_seat_token_names_its_game },
	{ "test_tokens__revoke_reason_rules", test_tokens__revoke_reason_rules },
	{ "test_tokens__revoke_own_writes_no_audit_row", test_tokens__revoke_own_writes_no_audit_row },
	CU_TEST_INFO_NULL,
};

int test_tokens_register(void)
{
	TESTS_SUITE("tokens", suite_init, fx_close, cases);
	return 0;
}
