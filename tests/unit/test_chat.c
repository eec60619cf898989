/* tests/unit/test_chat.c: CUnit suite for engine/chat (posting, who is told, reading back) */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "actions_fixture.h"
#include "engine/account.h"
#include "engine/chat.h"
#include "engine/views.h"
#include "testutil.h"

static int suite_init(void)
{
	return fx_open();
}

/* The account in seat of game. */
static int64_t seat_user(int64_t game, int seat)
{
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	struct err e = {0};
	int n = 0;
	int64_t uid = 0;

	if (views_game_info(fx_store, game, &g, &seats, &n, &e) == 0 && seat < n)
		uid = seats[seat].user_id;
	store_seats_free(seats, n);
	store_game_release(&g);
	return uid;
}

static void test_chat__post_tells_the_others_and_lists(void)
{
	int64_t game = fx_game(3), ann = seat_user(game, 0);
	struct err e = {0};
	json_t *list = NULL, *m;
	int before = fx_outbox_count(game, "chat"), audits = fx_audit_total();

	CU_ASSERT_FATAL(ann > 0);
	CU_ASSERT_EQUAL_FATAL(chat_post(fx_store, game, 0, ann, "good luck all \n ", 4000, &e), 0);
	/* Bob is told; Cy has no account; Ann wrote it */
	CU_ASSERT_EQUAL(fx_outbox_count(game, "chat"), before + 1);
	CU_ASSERT_EQUAL(fx_audit_total(), audits);
	CU_ASSERT_EQUAL_FATAL(chat_list(fx_store, game, 50, &list, &e), 0);
	CU_ASSERT_EQUAL_FATAL(json_array_size(list), 1);
	m = json_array_get(list, 0);
	ASSERT_STR_EQ(json_string_value(json_object_get(m, "text")), "good luck all");
	ASSERT_STR_EQ(json_string_value(json_object_get(m, "name")), "Ann");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(m, "seat")), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(m, "at")), 4000);
	CU_ASSERT_PTR_NOT_NULL(json_string_value(json_object_get(m, "time")));
	json_decref(list);
	/* Bob's notification says who wrote what (it was empty) */
	{
		struct store_outbox_row *rows = NULL;
		struct store_conn *c;
		int n = 0, found = 0;
		CU_ASSERT_EQUAL_FATAL(store_read_acquire(fx_store, &c, &e), 0);
		CU_ASSERT_EQUAL(store_outbox_list_game(c, game, &rows, &n, &e), 0);
		store_read_release(c);
		for (int i = 0; i < n; i++) {
			json_t *p;
			if (strcmp(rows[i].event, "chat") != 0)
				continue;
			found++;
			p = rows[i].payload ? json_loads(rows[i].payload, 0, NULL) : NULL;
			ASSERT_STR_EQ(json_string_value(json_object_get(p, "name")), "Ann");
			ASSERT_STR_EQ(json_string_value(json_object_get(p, "text")), "good luck all");
			json_decref(p);
		}
		CU_ASSERT_EQUAL(found, 1);
		store_outbox_rows_free(rows, n);
	}
}

static void test_chat__refusals(void)
{
	int64_t game = fx_game(2), ann = seat_user(game, 0), stranger = fx_user(NULL, "Eve", 0);
	char big[CHAT_TEXT_MAX + 2];
	struct err e = {0};
	json_t *list = NULL;

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CU_ASSERT_EQUAL(chat_post(fx_store, game, 0, ann, " \n", 1, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(chat_post(fx_store, game, 0, ann, NULL, 1, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(chat_post(fx_store, game, 0, ann, big, 1, &e), ERR_INPUT);
	big[CHAT_TEXT_MAX] = '\0';
	CU_ASSERT_EQUAL(chat_post(fx_store, game, 0, ann, big, 1, &e), 0);
	/* not the seat's player, or another seat */
	CU_ASSERT_EQUAL(chat_post(fx_store, game, 0, stranger, "hi", 1, &e), ERR_FORBIDDEN);
	CU_ASSERT_EQUAL(chat_post(fx_store, game, 1, ann, "hi", 1, &e), ERR_FORBIDDEN);
	CU_ASSERT_EQUAL(chat_post(fx_store, 999999, 0, ann, "hi", 1, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL_FATAL(chat_list(fx_store, game, 50, &list, &e), 0);
	CU_ASSERT_EQUAL(json_array_size(list), 1);
	json_decref(list);
}

static CU_TestInfo cases[] = {
	{ "test_chat__post_tells_the_others_and_lists", test_chat__post_tells_the_others_and_lists },
	{ "test_chat__refusals", test_chat__refusals },
	CU_TEST_INFO_NULL,
};

int test_chat_register(void)
{
	TESTS_SUITE("chat", suite_init, fx_close, cases);
	return 0;
}
