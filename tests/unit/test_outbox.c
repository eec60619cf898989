/* tests/unit/test_outbox.c: CUnit suite for engine/outbox (the row's JSON, listing, re-sending with its audit row) */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "actions_fixture.h"
#include "engine/outbox.h"
#include "testutil.h"

static int suite_init(void)
{
	return fx_open();
}

static void test_outbox__row_json_shape(void)
{
	struct store_outbox_row r = { .id = 9, .uid = "abc", .event = "invite", .game_id = 0, .seat = -1,
				      .user_id = 4, .payload = "{\"to\":2}", .state = "dead", .attempts = 8,
				      .next_at = 5000, .created_at = 1000 };
	json_t *o = outbox_row_json(&r);

	CU_ASSERT_EQUAL(json_integer_value(json_object_get(o, "id")), 9);
	ASSERT_STR_EQ(json_string_value(json_object_get(o, "message_id")), "msg_abc");
	CU_ASSERT(json_is_null(json_object_get(o, "game")));
	CU_ASSERT(json_is_null(json_object_get(o, "seat")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(o, "user")), 4);
	/* only a pending row has a next time */
	CU_ASSERT(json_is_null(json_object_get(o, "next_at")));
	CU_ASSERT(json_is_null(json_object_get(o, "sent_at")));
	CU_ASSERT(json_is_null(json_object_get(o, "last_error")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(o, "payload"), "to")), 2);
	CU_ASSERT_PTR_NOT_NULL(json_string_value(json_object_get(o, "created")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(o, "created_at")), 1000);
	json_decref(o);
	strcpy(r.state, "pending");
	r.payload = NULL;
	o = outbox_row_json(&r);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(o, "next_at")), 5000);
	CU_ASSERT(json_is_object(json_object_get(o, "payload")));
	json_decref(o);
}

static void test_outbox__list_filters_by_state(void)
{
	int64_t game = fx_game(2), dead = fx_dead_notification(game);
	struct err e = {0};
	json_t *list = NULL, *v;
	size_t i;
	int found = 0;

	CU_ASSERT_FATAL(dead > 0);
	CU_ASSERT_EQUAL_FATAL(outbox_list(fx_store, "dead", 0, &list, &e), 0);
	json_array_foreach(list, i, v) {
		ASSERT_STR_EQ(json_string_value(json_object_get(v, "state")), "dead");
		found |= json_integer_value(json_object_get(v, "id")) == dead;
	}
	CU_ASSERT(found);
	json_decref(list);
	{
		json_t *sentinel = json_object();
		list = sentinel;
		CU_ASSERT_EQUAL(outbox_list(fx_store, "lost", 0, &list, &e), ERR_INPUT);
		CU_ASSERT_PTR_NULL(list);
		json_decref(sentinel);
	}
}

static void test_outbox__resend_writes_one_audit_row(void)
{
	int64_t game = fx_game(2), dead = fx_dead_notification(game);
	struct actor a = { .user_id = 0, .channel = "cli", .reason = "relay fixed" };
	struct store_audit_row row;
	struct err e = {0};
	json_t *out = NULL, *d;
	int before = fx_audit_total();

	CU_ASSERT_FATAL(dead > 0);
	CU_ASSERT_EQUAL_FATAL(outbox_resend(fx_store, &a, dead, &out, &e), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(out, "id")), dead);
	ASSERT_STR_EQ(json_string_value(json_object_get(out, "state")), "pending");
	ASSERT_STR_EQ(json_string_value(json_object_get(out, "action")), "outbox_resend");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(out, "attempts")), 0);
	json_decref(out);
	CU_ASSERT_EQUAL(fx_audit_total(), before + 1);
	CU_ASSERT_EQUAL_FATAL(fx_audit_newest("outbox_resend", &row), 0);
	ASSERT_STR_EQ(row.actor, "cli");
	ASSERT_STR_EQ(row.reason, "relay fixed");
	CU_ASSERT_EQUAL(row.game_id, game);
	CU_ASSERT_EQUAL(row.before, 0);
	CU_ASSERT_EQUAL(row.after, 0);
	d = fx_audit_detail(&row);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "outbox")), dead);
	ASSERT_STR_EQ(json_string_value(json_object_get(d, "event")), "your_turn");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "seat")), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "attempts")), 1);
	CU_ASSERT_PTR_NULL(json_object_get(d, "client"));
	json_decref(d);
	fx_audit_release(&row);
	/* a row that is not dead: ERR_CONFLICT, no row */
	{
		json_t *sentinel = json_object();
		out = sentinel;
		CU_ASSERT_EQUAL(outbox_resend(fx_store, &a, dead, &out, &e), ERR_CONFLICT);
		CU_ASSERT_PTR_NULL(out);
		json_decref(sentinel);
	}
	CU_ASSERT_EQUAL(outbox_resend(fx_store, &a, 999999, NULL, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(fx_audit_total(), before + 1);
}

static void test_outbox__resend_needs_a_reason_unless_optional(void)
{
	int64_t game = fx_game(2), dead = fx_dead_notification(game);
	struct actor a = { .user_id = 1, .channel = "web" };
	struct store_audit_row row;
	struct err e = {0};
	int before = fx_audit_total();

	CU_ASSERT_EQUAL(outbox_resend(fx_store, &a, dead, NULL, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(fx_audit_total(), before);
	a.flags = ACTOR_REASON_OPTIONAL;
	a.channel = "api";
	CU_ASSERT_EQUAL(outbox_resend(fx_store, &a, dead, NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(fx_audit_newest("outbox_resend", &row), 0);
	CU_ASSERT_PTR_NULL(row.reason);
	ASSERT_STR_EQ(row.actor, "api");
	fx_audit_release(&row);
}

static CU_TestInfo cases[] = {
	{ "test_outbox__row_json_shape", test_outbox__row_json_shape },
	{ "test_outbox__list_filters_by_state", test_outbox__list_filters_by_state },
	{ "test_outbox__resend_writes_one_audit_row", test_outbox__resend_writes_one_audit_row },
	{ "test_outbox__resend_needs_a_reason_unless_optional", test_outbox__resend_needs_a_reason_unless_optional },
	CU_TEST_INFO_NULL,
};

int test_outbox_register(void)
{
	TESTS_SUITE("outbox", suite_init, fx_close, cases);
	return 0;
}
