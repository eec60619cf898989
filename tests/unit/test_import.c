/* tests/unit/test_import.c: CUnit suite for export/import beyond the log: clocks, chat, who is told, the audit row */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/create.h"
#include "engine/manage.h"
#include "engine/registry.h"
#include "engine/replay.h"
#include "engine/submit.h"
#include "fake_game.h"
#include "store/audit.h"
#include "store/chat.h"
#include "store/game_clock.h"
#include "store/outbox.h"
#include "store/user.h"
#include "testutil.h"
#include "util/token.h"

#define T0 1700000000000LL
#define HOUR 3600000LL

static char dir[64];
static struct store *st;

static int suite_init(void)
{
	char path[128];
	struct err e = {0};

	snprintf(dir, sizeof(dir), "/tmp/tp-import-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", dir);
	token_init();
	registry_add_for_tests(&fake_game);
	return store_open(path, NULL, &st, &e);
}

static int suite_clean(void)
{
	char cmd[160];

	store_close(st);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A two-player game with a per-turn clock (a day, a reminder 2 h before), the emails shown to the players. */
static int64_t clocked_game(void)
{
	struct create_player players[3] = { { "Ann", "ann@example.org" }, { "Bob", "bob@example.org" }, { "Cy", NULL } };
	struct store_game_clock k = { .mode = "per_turn", .turn_ms = 24 * HOUR, .reminder_ms = 2 * HOUR,
				      .timeout = "notify" };
	struct create_spec ng = { .game = "counting-race", .players = players, .nplayers = 3, .seed = 5,
				  .have_seed = 1, .created_at = T0, .players_see_emails = 1, .clock = &k };
	struct err e = {0};
	int64_t id = 0;

	CU_ASSERT_EQUAL(create_setup(st, &ng, &id, NULL, &e), 0);
	return id;
}

static void play(int64_t id, int seat, int64_t at, const char *l1, const char *l2)
{
	const char *lines[2] = { l1, l2 };
	struct submit_request rq = { .game_id = id, .seat = seat, .lines = lines, .nlines = l2 ? 2 : 1, .via = "api",
				     .if_match = -1, .at = at };
	struct submit_outcome out;
	struct err e = {0};
	json_t *res = NULL;

	CU_ASSERT_EQUAL(submit_steps(st, &rq, &res, &out, &e), 0);
	json_decref(res);
}

static int outbox_count(int64_t id, const char *event)
{
	struct store_conn *c;
	struct err e = {0};
	int n = -1;

	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_count(c, id, event, &n, &e), 0);
	store_read_release(c);
	return n;
}

/* A game with a clock, chat (a player's, and an admin's who holds no seat), an extended deadline. */
static int64_t lively_game(void)
{
	int64_t id = clocked_game(), deadline = 0, admin = 0, ann = 0;
	struct store_conn *c;
	struct err e = {0};

	play(id, 0, T0 + HOUR, "add 2", "end");
	play(id, 1, T0 + 3 * HOUR, "add 1", "end");
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_ensure(c, "admin@example.org", "Ada Admin", &admin, &e), 0);
	CU_ASSERT_EQUAL(store_user_ensure(c, "ann@example.org", "Ann", &ann, &e), 0);
	CU_ASSERT_EQUAL(store_chat_add(c, id, 0, ann, "good luck", T0 + 2 * HOUR, &e), 0);
	CU_ASSERT_EQUAL(store_chat_add(c, id, -1, admin, "server moves tonight", T0 + 4 * HOUR, &e), 0);
	/* a deadline no replay of the steps can work out */
	CU_ASSERT_EQUAL(store_game_clock_extend(c, id, 2, 30 * HOUR, T0 + 4 * HOUR, &deadline, &e), 0);
	CU_ASSERT(deadline > T0 + 27 * HOUR);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	return id;
}

/* The clock, the chat and players_see_emails travel: the copy's export equals the original's. */
static void test_import__keeps_clock_and_chat(void)
{
	int64_t id = lively_game(), copy = 0;
	struct store_seat_clock *sc = NULL;
	struct store_chat *chat = NULL;
	struct store_conn *c;
	struct err e = {0};
	json_t *a = NULL, *b = NULL;
	int nsc = 0, nchat = 0, first;

	CU_ASSERT_EQUAL_FATAL(replay_export(st, id, &a, &e), 0);
	CU_ASSERT(json_is_true(json_object_get(a, "players_see_emails")));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(a, "clock"), "mode")), "per_turn");
	CU_ASSERT_EQUAL(json_array_size(json_object_get(json_object_get(a, "clock"), "seats")), 3);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(a, "chat")), 2);
	CU_ASSERT_EQUAL_FATAL(replay_import(st, a, 0, 0, &copy, &e), 0);
	CU_ASSERT_EQUAL(replay_verify(st, copy, &first, &e), 0);
	CU_ASSERT_EQUAL_FATAL(replay_export(st, copy, &b, &e), 0);
	CU_ASSERT(json_equal(a, b));
	if (!json_equal(a, b)) {
		char *x = json_dumps(a, JSON_SORT_KEYS), *y = json_dumps(b, JSON_SORT_KEYS);
		fprintf(stderr, "\n%s\n%s\n", x, y);
		free(x);
		free(y);
	}
	/* in the store: the extended deadline and the admin's line by the admin's account */
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_game_clock_seats(c, copy, &sc, &nsc, &e), 0);
	CU_ASSERT_EQUAL_FATAL(nsc, 3);
	CU_ASSERT(sc[2].deadline_at > T0 + 27 * HOUR);
	CU_ASSERT_EQUAL(sc[2].turn_started_at, json_integer_value(json_object_get(
		json_array_get(json_object_get(json_object_get(a, "clock"), "seats"), 2), "turn_started_at")));
	CU_ASSERT_EQUAL(store_chat_list_all(c, copy, &chat, &nchat, &e), 0);
	CU_ASSERT_EQUAL_FATAL(nchat, 2);
	CU_ASSERT_STRING_EQUAL(chat[0].name, "Ann");
	CU_ASSERT_EQUAL(chat[0].seat, 0);
	CU_ASSERT_STRING_EQUAL(chat[1].name, "Ada Admin");
	CU_ASSERT_EQUAL(chat[1].seat, -1);
	CU_ASSERT_EQUAL(chat[1].at, T0 + 4 * HOUR);
	store_read_release(c);
	free(sc);
	store_chats_free(chat, nchat);
	json_decref(b);

	/* a file without clock and chat (an older export) still imports: no clock, no chat */
	json_object_del(a, "clock");
	json_object_del(a, "chat");
	CU_ASSERT_EQUAL_FATAL(replay_import(st, a, 0, 0, &copy, &e), 0);
	CU_ASSERT_EQUAL_FATAL(replay_export(st, copy, &b, &e), 0);
	CU_ASSERT(json_is_null(json_object_get(b, "clock")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(b, "chat")), 0);
	json_decref(b);
	json_decref(a);
}

/* A broken clock or chat in the file refuses the whole import. */
static void test_import__bad_extras_refused(void)
{
	int64_t id = lively_game(), copy = 0;
	struct err e = {0};
	json_t *a = NULL, *bad;

	CU_ASSERT_EQUAL_FATAL(replay_export(st, id, &a, &e), 0);
	bad = json_deep_copy(a);
	json_object_set_new(json_object_get(bad, "clock"), "mode", json_string("hourglass"));
	CU_ASSERT_EQUAL(replay_import(st, bad, 0, 0, &copy, &e), ERR_INPUT);
	CU_ASSERT(strstr(e.msg, "clock") != NULL);
	CU_ASSERT_EQUAL(copy, 0);
	json_decref(bad);
	bad = json_deep_copy(a);
	json_object_set_new(json_array_get(json_object_get(bad, "chat"), 0), "seat", json_integer(7));
	CU_ASSERT_EQUAL(replay_import(st, bad, 0, 0, &copy, &e), ERR_INPUT);
	CU_ASSERT(strstr(e.msg, "chat line 1") != NULL);
	json_decref(bad);
	bad = json_deep_copy(a);
	json_array_set_new(json_object_get(json_object_get(bad, "clock"), "seats"), 0, json_pack("{s:i}", "seat", 9));
	CU_ASSERT_EQUAL(replay_import(st, bad, 0, 0, &copy, &e), ERR_INPUT);
	json_decref(bad);
	json_decref(a);
}

/* Nobody is told unless asked; asked, each seat with an email gets one invitation and nothing else. */
static void test_import__invitations_only_when_asked(void)
{
	int64_t id = lively_game(), quiet = 0, told = 0;
	struct err e = {0};
	json_t *a = NULL;

	CU_ASSERT_EQUAL_FATAL(replay_export(st, id, &a, &e), 0);
	CU_ASSERT_EQUAL_FATAL(replay_import(st, a, 0, 0, &quiet, &e), 0);
	CU_ASSERT_EQUAL(outbox_count(quiet, "invite"), 0);
	CU_ASSERT_EQUAL(outbox_count(quiet, "your_turn"), 0);
	CU_ASSERT_EQUAL_FATAL(replay_import(st, a, 0, 1, &told, &e), 0);
	/* Ann and Bob have emails, Cy has none */
	CU_ASSERT_EQUAL(outbox_count(told, "invite"), 2);
	CU_ASSERT_EQUAL(outbox_count(told, "your_turn"), 0);
	json_decref(a);
}

/* manage_import (the API, the console, the command line) writes an "import" audit row saying whether it told. */
static void test_import__audit_row(void)
{
	int64_t id = lively_game(), copy;
	struct actor a = { .channel = "cli", .flags = ACTOR_REASON_OPTIONAL };
	struct store_audit_filter f = { .action = "import" };
	struct store_audit_row *rows = NULL;
	struct store_conn *c;
	struct err e = {0};
	json_t *file = NULL, *res = NULL, *detail;
	int n = 0;

	CU_ASSERT_EQUAL_FATAL(replay_export(st, id, &file, &e), 0);
	CU_ASSERT_EQUAL_FATAL(manage_import(st, &a, file, 0, &res, &e), 0);
	copy = json_integer_value(json_object_get(res, "id"));
	CU_ASSERT(copy > id);
	f.game_id = copy;
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_audit_list(c, &f, &rows, &n, &e), 0);
	store_read_release(c);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(rows[0].actor, "cli");
	CU_ASSERT_EQUAL(rows[0].after, 4);
	detail = json_loads(rows[0].detail, 0, NULL);
	CU_ASSERT(json_is_false(json_object_get(detail, "notify")));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(detail, "game")), "counting-race");
	json_decref(detail);
	store_audit_rows_free(rows, n);
	CU_ASSERT_EQUAL(outbox_count(copy, "invite"), 0);
	json_decref(res);
	json_decref(file);
}

static CU_TestInfo import_cases[] = {
	{ "test_import__keeps_clock_and_chat", test_import__keeps_clock_and_chat },
	{ "test_import__bad_extras_refused", test_import__bad_extras_refused },
	{ "test_import__invitations_only_when_asked", test_import__invitations_only_when_asked },
	{ "test_import__audit_row", test_import__audit_row },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("import", suite_init, suite_clean, import_cases);
	return 0;
}
