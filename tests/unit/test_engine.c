/* tests/unit/test_engine.c: CUnit suite for engine/ (snapshots, steps, undo, verify, export/import) on the test game */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/create.h"
#include "engine/replay.h"
#include "engine/submit.h"
#include "engine/views.h"
#include "engine/manage.h"
#include "engine/registry.h"
#include "fake_game.h"
#include "testutil.h"
#include "util/token.h"

static char dir[64];
static struct store *st;

static int suite_init(void)
{
	char path[128];
	struct err e = {0};

	snprintf(dir, sizeof(dir), "/tmp/tp-engine-XXXXXX");
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

static int64_t new_game(int nplayers, uint64_t seed)
{
	struct create_player players[4] = {
		{ "Ann", "ann@example.org" }, { "Bob", "bob@example.org" }, { "Cy", NULL }, { "Di", NULL }
	};
	struct create_spec ng = { .game = "counting-race", .players = players, .nplayers = nplayers,
				    .seed = seed, .have_seed = 1 };
	struct err e = {0};
	int64_t id = 0;

	CU_ASSERT_EQUAL(create_setup(st, &ng, &id, NULL, &e), 0);
	return id;
}

/* Submit lines; returns the submit_steps code; *count gets the move count after. */
static int submit(int64_t id, int seat, int if_match, const char *l1, const char *l2, const char *l3, int *failed)
{
	const char *lines[3] = { l1, l2, l3 };
	int n = l3 ? 3 : l2 ? 2 : 1;
	struct submit_request rq = { .game_id = id, .seat = seat, .lines = lines, .nlines = n, .via = "api",
				  .if_match = if_match };
	struct submit_outcome out;
	struct err e = {0};
	json_t *res = NULL;
	int rc = submit_steps(st, &rq, &res, &out, &e);

	if (failed)
		*failed = out.failed_line;
	json_decref(res);
	return rc;
}

static int move_count(int64_t id)
{
	struct err e = {0};
	int n = -1;

	views_move_count(st, id, &n, &e);
	return n;
}

static void test_engine__snapshot_roundtrip(void)
{
	struct engine_game g, g2;
	struct err e = {0};
	char *a = NULL, *b = NULL;

	CU_ASSERT_EQUAL_FATAL(engine_game_setup(&fake_game, NULL, 2, 99, &g, &e), 0);
	CU_ASSERT_EQUAL(engine_game_encode(&g, &a, &e), 0);
	CU_ASSERT_EQUAL_FATAL(engine_game_decode(&fake_game, a, &g2, &e), 0);
	CU_ASSERT_EQUAL(engine_game_encode(&g2, &b, &e), 0);
	ASSERT_STR_EQ(a, b);
	CU_ASSERT_EQUAL(memcmp(g.rng.s, g2.rng.s, sizeof(g.rng.s)), 0);
	CU_ASSERT(engine_snapshot_equal(a, b));
	CU_ASSERT(!engine_snapshot_equal(a, "{}"));
	engine_game_release(&g2);
	CU_ASSERT(engine_game_decode(&fake_game, "not json", &g2, &e) < 0);
	CU_ASSERT_PTR_NULL(g2.state);
	free(a);
	free(b);
	engine_game_release(&g);
	CU_ASSERT_EQUAL(engine_game_setup(&fake_game, NULL, 9, 1, &g, &e), ERR_INPUT);
	CU_ASSERT(strstr(e.msg, "1 to 4 players") != NULL);
}

static void test_engine__step_reports_reveal(void)
{
	struct engine_game g;
	struct buf canon = BUF_INIT;
	struct err e = {0};
	int revealed;

	CU_ASSERT_EQUAL_FATAL(engine_game_setup(&fake_game, NULL, 2, 5, &g, &e), 0);
	CU_ASSERT_EQUAL(engine_game_step(&g, 0, "  ADD   2 ", &canon, &revealed, &e), 0);
	ASSERT_STR_EQ(canon.data, "add 2");
	CU_ASSERT_EQUAL(revealed, 0);
	buf_reset(&canon);
	CU_ASSERT_EQUAL(engine_game_step(&g, 0, "roll", &canon, &revealed, &e), 0);
	CU_ASSERT_EQUAL(revealed, 1);
	buf_reset(&canon);
	CU_ASSERT_EQUAL(engine_game_step(&g, 1, "add 1", &canon, &revealed, &e), ERR_FORBIDDEN);
	CU_ASSERT_EQUAL(canon.len, 0);
	CU_ASSERT_EQUAL(engine_game_step(&g, 0, "add 7", &canon, &revealed, &e), ERR_ILLEGAL);
	CU_ASSERT(strstr(e.msg, "not 7") != NULL);
	CU_ASSERT(engine_line_is_undo(" Undo "));
	CU_ASSERT(!engine_line_is_undo("undo 2"));
	buf_release(&canon);
	engine_game_release(&g);
}

static void test_engine__submit_all_or_nothing(void)
{
	int64_t id = new_game(2, 1);
	int failed = 0, count;

	/* line 2 is illegal: nothing of the batch is stored */
	CU_ASSERT_EQUAL(submit(id, 0, -1, "add 1", "add 9", "end", &failed), ERR_ILLEGAL);
	CU_ASSERT_EQUAL(failed, 2);
	CU_ASSERT_EQUAL(move_count(id), 0);
	/* unreadable text is an illegal step too, with its line */
	CU_ASSERT_EQUAL(submit(id, 0, -1, "fly away", NULL, NULL, &failed), ERR_ILLEGAL);
	CU_ASSERT_EQUAL(failed, 1);
	CU_ASSERT_EQUAL(submit(id, 0, 0, "add 1", "add 2", "end", &failed), 0);
	CU_ASSERT_EQUAL(move_count(id), 3);
	/* not your turn */
	CU_ASSERT_EQUAL(submit(id, 0, -1, "add 1", NULL, NULL, NULL), ERR_FORBIDDEN);
	/* stale If-Match */
	CU_ASSERT_EQUAL(submit(id, 1, 2, "add 1", NULL, NULL, NULL), ERR_STALE);
	count = move_count(id);
	CU_ASSERT_EQUAL(count, 3);
	/* acting after the turn passed inside one batch is refused on that line */
	CU_ASSERT_EQUAL(submit(id, 1, 3, "add 1", "end", "add 1", &failed), ERR_ILLEGAL);
	CU_ASSERT_EQUAL(failed, 3);
	CU_ASSERT_EQUAL(move_count(id), 3);
}

static void test_engine__undo_until_reveal(void)
{
	int64_t id = new_game(2, 2);
	json_t *moves = NULL;
	struct err e = {0};
	int failed;

	CU_ASSERT_EQUAL(submit(id, 0, -1, "undo", NULL, NULL, &failed), ERR_ILLEGAL);
	CU_ASSERT_EQUAL(submit(id, 0, -1, "add 3", "add 2", NULL, NULL), 0);
	CU_ASSERT_EQUAL(submit(id, 0, -1, "undo", "undo", NULL, NULL), 0);
	CU_ASSERT_EQUAL(move_count(id), 4);
	/* nothing left to undo */
	CU_ASSERT_EQUAL(submit(id, 0, -1, "undo", NULL, NULL, NULL), ERR_ILLEGAL);
	/* a roll is a reveal: it and what came before cannot be undone */
	CU_ASSERT_EQUAL(submit(id, 0, -1, "add 1", "roll", NULL, NULL), 0);
	CU_ASSERT_EQUAL(submit(id, 0, -1, "undo", NULL, NULL, NULL), ERR_ILLEGAL);
	CU_ASSERT_EQUAL(submit(id, 0, -1, "add 1", "undo", NULL, NULL), 0);
	CU_ASSERT_EQUAL(submit(id, 0, -1, "end", NULL, NULL, NULL), 0);
	/* the other seat cannot undo my end */
	CU_ASSERT_EQUAL(submit(id, 1, -1, "undo", NULL, NULL, NULL), ERR_ILLEGAL);
	/* nor can I: the turn has passed to the other seat, and a step is final once it passes */
	CU_ASSERT_EQUAL(submit(id, 0, -1, "undo", NULL, NULL, &failed), ERR_ILLEGAL);
	CU_ASSERT_EQUAL(failed, 1);
	/* inside one batch too */
	CU_ASSERT_EQUAL(submit(id, 1, -1, "add 2", "end", "undo", &failed), ERR_ILLEGAL);
	CU_ASSERT_EQUAL(failed, 3);
	/* an undo of a step of the same batch that is not its first (the batch's rows move as it grows) */
	CU_ASSERT_EQUAL(submit(id, 1, -1, "add 1", "add 2", "undo", NULL), 0);
	CU_ASSERT_EQUAL(views_moves_json(st, id, &moves, &e), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(moves, "moves")), 12);
	json_decref(moves);
	/* the replay agrees with every stored snapshot, undo included */
	{
		int first;
		CU_ASSERT_EQUAL(replay_verify(st, id, &first, &e), 0);
	}
}

static void test_engine__view_legal_and_notifications(void)
{
	int64_t id = new_game(2, 3);
	struct store_conn *c;
	struct err e = {0};
	json_t *o = NULL;
	int count = 0;

	CU_ASSERT_EQUAL(views_legal_json(st, id, 0, &o, &e), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(o, "moves")), 4);
	json_decref(o);
	CU_ASSERT_EQUAL(views_legal_json(st, id, 1, &o, &e), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(o, "moves")), 0);
	json_decref(o);
	CU_ASSERT_EQUAL(submit(id, 0, -1, "add 3", "end", NULL, NULL), 0);
	CU_ASSERT_EQUAL(views_game_json(st, id, 1, 0, &o, &e), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(o, "move_count")), 2);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(o, "active_seats"), 0)), 1);
	CU_ASSERT_PTR_NULL(json_object_get(json_array_get(json_object_get(o, "seats"), 0), "email"));
	json_decref(o);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_count(c, id, "invite", &count, &e), 0);
	CU_ASSERT_EQUAL(count, 2);
	CU_ASSERT_EQUAL(store_outbox_count(c, id, "your_turn", &count, &e), 0);
	CU_ASSERT_EQUAL(count, 1);
	store_read_release(c);
	CU_ASSERT_EQUAL(views_game_json(st, 123456, -1, 0, &o, &e), ERR_NOTFOUND);
}

static void test_engine__game_over(void)
{
	int64_t id = new_game(1, 4);
	struct err e = {0};
	json_t *o = NULL;
	struct store_conn *c;
	int count = 0;

	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(submit(id, 0, -1, "add 3", "end", NULL, NULL), 0);
	CU_ASSERT_EQUAL(views_game_json(st, id, 0, 0, &o, &e), 0);
	ASSERT_STR_EQ(json_string_value(json_object_get(o, "status")), "finished");
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(json_object_get(o, "result"), "winners"), 0)),
			0);
	json_decref(o);
	CU_ASSERT_EQUAL(submit(id, 0, -1, "add 1", NULL, NULL, NULL), ERR_FORBIDDEN);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_count(c, id, "game_over", &count, &e), 0);
	CU_ASSERT_EQUAL(count, 1);
	store_read_release(c);
}

static void test_engine__idempotency(void)
{
	int64_t id = new_game(2, 5);
	const char *lines[1] = { "add 2" };
	unsigned char h1[32], h2[32];
	struct submit_request rq = { .game_id = id, .seat = 0, .lines = lines, .nlines = 1, .via = "api",
				  .if_match = -1, .idem_token = 77, .idem_key = "k1", .request_hash = h1 };
	struct submit_outcome out;
	struct err e = {0};
	json_t *a = NULL, *b = NULL;

	token_hash_bytes("one", 3, h1);
	token_hash_bytes("two", 3, h2);
	CU_ASSERT_EQUAL(submit_steps(st, &rq, &a, &out, &e), 0);
	CU_ASSERT_EQUAL(out.replayed, 0);
	CU_ASSERT_EQUAL(submit_steps(st, &rq, &b, &out, &e), 0);
	CU_ASSERT_EQUAL(out.replayed, 1);
	CU_ASSERT(json_equal(a, b));
	CU_ASSERT_EQUAL(move_count(id), 1);
	json_decref(b);
	rq.request_hash = h2;
	CU_ASSERT_EQUAL(submit_steps(st, &rq, &b, &out, &e), ERR_ILLEGAL);
	CU_ASSERT(strstr(e.msg, "Idempotency-Key") != NULL);
	CU_ASSERT(out.code && strcmp(out.code, "idempotency_key_reused") == 0);
	CU_ASSERT_EQUAL(move_count(id), 1);
	json_decref(a);
}

static void test_engine__verify_finds_tampering(void)
{
	int64_t id = new_game(2, 6);
	struct store_conn *c;
	struct err e = {0};
	int first = -1;

	CU_ASSERT_EQUAL(submit(id, 0, -1, "add 1", "add 1", "end", NULL), 0);
	CU_ASSERT_EQUAL(replay_verify(st, id, &first, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_move_set_snapshot(c, id, 2,
		"{\"players\":2,\"rng\":\"x\",\"state\":{\"n\":2,\"turn\":0,\"target\":10,\"acted\":2,\"winner\":-1,"
		"\"total\":[9,0]}}", &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT_EQUAL(replay_verify(st, id, &first, &e), ERR_CONFLICT);
	CU_ASSERT_EQUAL(first, 2);
	CU_ASSERT(strstr(e.msg, "step 2") != NULL);
}

static void test_engine__export_import_roundtrip(void)
{
	int64_t id = new_game(3, 7), id2;
	struct err e = {0};
	json_t *a = NULL, *b = NULL;
	int first;

	CU_ASSERT_EQUAL(submit(id, 0, -1, "add 1", "roll", "end", NULL), 0);
	CU_ASSERT_EQUAL(submit(id, 1, -1, "add 3", "undo", "add 2", NULL), 0);
	CU_ASSERT_EQUAL(replay_export(st, id, &a, &e), 0);
	CU_ASSERT_EQUAL_FATAL(replay_import(st, a, 0, 1, &id2, &e), 0);
	CU_ASSERT_NOT_EQUAL(id, id2);
	CU_ASSERT_EQUAL(replay_verify(st, id2, &first, &e), 0);
	CU_ASSERT_EQUAL(replay_export(st, id2, &b, &e), 0);
	CU_ASSERT(json_equal(a, b));
	json_decref(b);
	/* a tampered file is refused with the step named */
	json_object_set_new(json_array_get(json_object_get(a, "moves"), 1), "text", json_string("add 9"));
	CU_ASSERT_EQUAL(replay_import(st, a, 0, 1, &id2, &e), ERR_INPUT);
	CU_ASSERT(strstr(e.msg, "move 2") != NULL);
	json_object_set_new(a, "format", json_string("other"));
	CU_ASSERT_EQUAL(replay_import(st, a, 0, 1, &id2, &e), ERR_INPUT);
	json_decref(a);
}

/* A rollback is a step of its own kind: verify, export and import know it by its kind, not its text. */
static void test_engine__rollback_is_a_kind_of_step(void)
{
	int64_t id = new_game(2, 11), copy = 0;
	struct actor a = { .channel = "cli", .reason = "test" };
	struct store_move *moves = NULL;
	struct store_conn *c;
	struct err e = {0};
	json_t *file = NULL, *m, *again = NULL;
	size_t i;
	int n = 0, bad = -1;

	CU_ASSERT_EQUAL_FATAL(submit(id, 0, -1, "add 1", "end", NULL, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(submit(id, 1, -1, "add 2", NULL, NULL, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(manage_rollback(st, &a, id, 1, NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_moves_list(c, id, 0, &moves, &n, &e), 0);
	store_read_release(c);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_EQUAL(moves[2].kind, STORE_MOVE_STEP);
	CU_ASSERT_EQUAL(moves[3].kind, STORE_MOVE_ROLLBACK);
	CU_ASSERT_EQUAL(moves[3].target, 1);
	CU_ASSERT_EQUAL(moves[3].seat, -1);
	store_moves_free(moves, n);
	CU_ASSERT_EQUAL(replay_verify(st, id, &bad, &e), 0);
	/* the replay file says so too, and an import replays it */
	CU_ASSERT_EQUAL_FATAL(replay_export(st, id, &file, &e), 0);
	m = json_array_get(json_object_get(file, "moves"), 3);
	ASSERT_STR_EQ(json_string_value(json_object_get(m, "kind")), "rollback");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(m, "to")), 1);
	CU_ASSERT_PTR_NULL(json_object_get(json_array_get(json_object_get(file, "moves"), 0), "kind"));
	CU_ASSERT_EQUAL_FATAL(replay_import(st, file, 0, 1, &copy, &e), 0);
	CU_ASSERT_EQUAL(replay_verify(st, copy, &bad, &e), 0);
	CU_ASSERT_EQUAL_FATAL(replay_export(st, copy, &again, &e), 0);
	CU_ASSERT(json_equal(json_object_get(file, "moves"), json_object_get(again, "moves")));
	json_decref(again);
	/* a file written before steps had kinds: the admin's text still reads as a rollback */
	json_array_foreach(json_object_get(file, "moves"), i, m) {
		json_object_del(m, "kind");
		json_object_del(m, "to");
	}
	CU_ASSERT_EQUAL(replay_import(st, file, 0, 1, &copy, &e), 0);
	CU_ASSERT_EQUAL(replay_verify(st, copy, &bad, &e), 0);
	/* a rollback without its target is refused, nothing stored */
	m = json_array_get(json_object_get(file, "moves"), 3);
	json_object_set_new(m, "kind", json_string("rollback"));
	CU_ASSERT_EQUAL(replay_import(st, file, 0, 1, &copy, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(copy, 0);
	json_decref(file);
}

/* The shared helpers answer with named codes and clear what they give on failure. */
static void test_engine__helpers_name_their_errors(void)
{
	struct err e = {0};
	uint64_t seed = 7;

	CU_ASSERT_EQUAL(engine_seed_parse("1234", &seed), 0);
	CU_ASSERT_EQUAL(seed, 1234);
	CU_ASSERT_EQUAL(engine_seed_parse("12x", &seed), ERR_INPUT);
	CU_ASSERT_EQUAL(seed, 0);
	seed = 7;
	CU_ASSERT_EQUAL(engine_seed_parse(NULL, &seed), ERR_INPUT);
	CU_ASSERT_EQUAL(seed, 0);
	CU_ASSERT_PTR_NULL(engine_ops_find("no-such-game", &e));
	CU_ASSERT_EQUAL(e.code, ERR_NOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(engine_ops_find("counting-race", &e));
}

/* Games write seats as GAME_NAME_MARK and a digit; every reader gets names instead. */
static void test_engine__names_fill(void)
{
	const char *names[GAME_MAX_SEATS] = { "Yara", NULL, "Zed" };
	struct create_player players[2] = { { "Yara", "yara@example.org" }, { "Zed", NULL } };
	struct create_spec ng = { .game = "alien-frontiers", .players = players, .nplayers = 2, .seed = 5,
				    .have_seed = 1 };
	const char *lines[1] = { "end" };
	struct submit_request rq = { .game_id = 0, .seat = 1, .lines = lines, .nlines = 1, .via = "api",
				  .if_match = -1 };
	struct submit_outcome out;
	struct err e = {0};
	json_t *o = NULL;
	char *t;
	int64_t id = 0;

	t = engine_names_text("@0: dock @2's 3; @1 waits; a@b @9 @", names);
	CU_ASSERT_STRING_EQUAL(t, "Yara: dock Zed's 3; Player 2 waits; a@b @9 @");
	free(t);
	t = engine_names_text("@1 has no colony", NULL);
	CU_ASSERT_STRING_EQUAL(t, "Player 2 has no colony");
	free(t);
	err_set(&e, ERR_ILLEGAL, "It is @0's turn, not yours.");
	engine_names_err(&e, names);
	CU_ASSERT_STRING_EQUAL(e.msg, "It is Yara's turn, not yours.");

	/* a real game: the prompt, the view's prompt and a refusal carry the players' names */
	CU_ASSERT_EQUAL_FATAL(create_setup(st, &ng, &id, NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(views_game_json(st, id, 0, 0, &o, &e), 0);
	t = (char *)json_string_value(json_object_get(json_object_get(o, "pending"), "prompt"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(strncmp(t, "Yara: dock your ships (to place: ", 33), 0);
	CU_ASSERT_PTR_NULL(strchr(t, '@'));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(json_object_get(o, "pending"), "offturn")), 0);
	t = (char *)json_string_value(json_object_get(json_object_get(json_object_get(o, "view"), "pending"), "prompt"));
	CU_ASSERT(t && strncmp(t, "Yara: ", 6) == 0);
	json_decref(o);
	o = NULL;
	rq.game_id = id;
	CU_ASSERT_EQUAL(submit_steps(st, &rq, &o, &out, &e), ERR_FORBIDDEN);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "It is Yara's turn"));
	json_decref(o);
}

static CU_TestInfo engine_cases[] = {
	{ "test_engine__snapshot_roundtrip", test_engine__snapshot_roundtrip },
	{ "test_engine__step_reports_reveal", test_engine__step_reports_reveal },
	{ "test_engine__submit_all_or_nothing", test_engine__submit_all_or_nothing },
	{ "test_engine__undo_until_reveal", test_engine__undo_until_reveal },
	{ "test_engine__view_legal_and_notifications", test_engine__view_legal_and_notifications },
	{ "test_engine__game_over", test_engine__game_over },
	{ "test_engine__idempotency", test_engine__idempotency },
	{ "test_engine__verify_finds_tampering", test_engine__verify_finds_tampering },
	{ "test_engine__export_import_roundtrip", test_engine__export_import_roundtrip },
	{ "test_engine__rollback_is_a_kind_of_step", test_engine__rollback_is_a_kind_of_step },
	{ "test_engine__helpers_name_their_errors", test_engine__helpers_name_their_errors },
	{ "test_engine__names_fill", test_engine__names_fill },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("engine", suite_init, suite_clean, engine_cases);
	return 0;
}
