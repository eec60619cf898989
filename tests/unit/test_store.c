/* tests/unit/test_store.c: CUnit suite for store/ (migrations, users, tokens, games, moves, outbox) */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "testutil.h"
#include "util/embed.h"
#include "util/token.h"

static char dir[64];
static char path[128];
static struct store *st;

static int suite_init(void)
{
	snprintf(dir, sizeof(dir), "/tmp/tp-store-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/sub/t.db", dir);
	token_init();
	return 0;
}

static int suite_clean(void)
{
	char cmd[160];

	store_close(st);
	st = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_store__open_creates_and_migrates(void)
{
	struct err e = {0};
	struct store *again = NULL;

	int migrations = 0;

	for (const struct embed_file *f = embed_sql; f->name; f++)
		migrations++;
	CU_ASSERT_EQUAL_FATAL(store_open(path, NULL, &st, &e), 0);
	CU_ASSERT(migrations >= 1);
	CU_ASSERT_EQUAL(store_schema_version(st), migrations);
	CU_ASSERT_EQUAL(store_ping(st, &e), 0);
	/* a second open applies nothing twice */
	CU_ASSERT_EQUAL(store_open(path, NULL, &again, &e), 0);
	CU_ASSERT_EQUAL(store_schema_version(again), migrations);
	store_close(again);
}

static void test_store__open_bad_path_fails_clearly(void)
{
	struct err e = {0};
	struct store *s = NULL;

	CU_ASSERT(store_open("/proc/nope/deeper/x.db", NULL, &s, &e) < 0);
	CU_ASSERT_PTR_NULL(s);
	CU_ASSERT(strstr(e.msg, "/proc/nope") != NULL);
}

static void test_store__users_and_duplicates(void)
{
	struct store_conn *c;
	struct store_user u;
	struct err e = {0};
	int64_t id, id2;
	int admins;

	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_add(c, "ann@example.org", "Ann", 1, &id, &e), 0);
	CU_ASSERT_EQUAL(store_user_add(c, "ANN@example.org", "Ann again", 0, &id2, &e), ERR_CONFLICT);
	CU_ASSERT(strstr(e.msg, "already exists") != NULL);
	CU_ASSERT_EQUAL(store_user_ensure(c, "bob@example.org", "Bob", &id2, &e), 0);
	CU_ASSERT_NOT_EQUAL(id, id2);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);

	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_by_email(c, "ann@EXAMPLE.org", &u, &e), 0);
	CU_ASSERT_EQUAL(u.id, id);
	ASSERT_STR_EQ(u.name, "Ann");
	CU_ASSERT_EQUAL(u.is_admin, 1);
	store_user_release(&u);
	CU_ASSERT_EQUAL(store_user_by_email(c, "nobody@example.org", &u, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(store_user_count_admins(c, &admins, &e), 0);
	CU_ASSERT_EQUAL(admins, 1);
	store_read_release(c);
}

static void test_store__rollback_keeps_nothing(void)
{
	struct store_conn *c;
	struct store_user u;
	struct err e = {0};
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_add(c, "gone@example.org", "Gone", 0, &id, &e), 0);
	store_write_rollback(c);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_by_email(c, "gone@example.org", &u, &e), ERR_NOTFOUND);
	store_read_release(c);
}

static void test_store__tokens_hashed_revoked_expired(void)
{
	struct store_conn *c;
	struct store_token t;
	struct err e = {0};
	char text[TOKEN_TEXT_MAX], text2[TOKEN_TEXT_MAX];
	unsigned char hash[32], hash2[32], probe[32];
	int64_t id, id2;

	token_new(text, hash);
	token_new(text2, hash2);
	CU_ASSERT_EQUAL(strlen(text), 46);
	CU_ASSERT_EQUAL(token_hash(text, probe), 0);
	CU_ASSERT(token_hash_equal(hash, probe));
	CU_ASSERT_EQUAL(token_hash("tp_short", probe), -1);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_token_add(c, hash, TOKEN_API, 1, 0, -1, "t", 0, &id, &e), 0);
	CU_ASSERT_EQUAL(store_token_add(c, hash2, TOKEN_API, 1, 0, -1, "t", 1000, &id2, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);

	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_token_by_hash(c, hash, 5000, &t, &e), 0);
	CU_ASSERT_EQUAL(t.id, id);
	CU_ASSERT_EQUAL(t.kind, TOKEN_API);
	CU_ASSERT_EQUAL(store_token_by_hash(c, hash2, 5000, &t, &e), ERR_UNAUTH);
	CU_ASSERT(strstr(e.msg, "expired") != NULL);
	store_read_release(c);

	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_token_revoke(c, id, 6000, &e), 0);
	CU_ASSERT_EQUAL(store_token_revoke(c, id, 6000, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_token_by_hash(c, hash, 7000, &t, &e), ERR_UNAUTH);
	CU_ASSERT(strstr(e.msg, "revoked") != NULL);
	store_read_release(c);
}

static void test_store__games_moves_outbox_audit(void)
{
	struct store_conn *c;
	struct store_game g = { .game = "x", .options = "{}", .seed = "1", .nplayers = 2, .initial = "{\"s\":0}",
				.created_at = 10, .updated_at = 10 };
	struct store_seat seat = { .seat = 0, .name = "Ann", .email = "ann@example.org" };
	struct store_move m = { .n = 1, .seat = 0, .text = "add 1", .via = "api", .at = 11, .back = 0,
				.undo_seat = 0, .snapshot = "{\"s\":1}" };
	struct store_move got, *list;
	struct store_seat *seats;
	struct store_game g2;
	struct err e = {0};
	int64_t id, *ids;
	int n, count;
	char *body;
	unsigned char hash[32] = { 1 }, h2[32];
	int64_t gid;
	int status;

	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_game_insert(c, &g, &id, &e), 0);
	CU_ASSERT_EQUAL(store_seat_insert(c, id, &seat, &e), 0);
	CU_ASSERT_EQUAL(store_seat_insert(c, id, &seat, &e), ERR_CONFLICT);
	CU_ASSERT_EQUAL(store_move_append(c, id, &m, &e), 0);
	CU_ASSERT_EQUAL(store_move_append(c, id, &m, &e), ERR_CONFLICT);
	CU_ASSERT_EQUAL(store_game_update(c, id, 1, 2u, "active", NULL, 12, &e), 0);
	CU_ASSERT_EQUAL(store_game_update(c, 9999, 1, 2u, "active", NULL, 12, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(store_outbox_add(c, "your_turn", id, 1, 0, NULL, 12, &e), 0);
	CU_ASSERT_EQUAL(store_audit_add(c, 0, "test", "rollback", id, "why", 3, 1, NULL, 12, &e), 0);
	CU_ASSERT_EQUAL(store_idem_put(c, 5, "key-1", hash, id, 200, "{\"ok\":1}", 12, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);

	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_game_get(c, id, &g2, &e), 0);
	CU_ASSERT_EQUAL(g2.move_count, 1);
	CU_ASSERT_EQUAL(g2.active_seats, 2u);
	ASSERT_STR_EQ(g2.initial, "{\"s\":0}");
	store_game_release(&g2);
	CU_ASSERT_EQUAL(store_game_get(c, 9999, &g2, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(store_move_get(c, id, 1, &got, &e), 0);
	ASSERT_STR_EQ(got.text, "add 1");
	ASSERT_STR_EQ(got.snapshot, "{\"s\":1}");
	store_move_release(&got);
	CU_ASSERT_EQUAL(store_move_get(c, id, 0, &got, &e), 0);
	ASSERT_STR_EQ(got.snapshot, "{\"s\":0}");
	store_move_release(&got);
	CU_ASSERT_EQUAL(store_move_get(c, id, 2, &got, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(store_moves_list(c, id, 0, &list, &n, &e), 0);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_PTR_NULL(list[0].snapshot);
	store_moves_free(list, n);
	CU_ASSERT_EQUAL(store_seats_get(c, id, &seats, &n, &e), 0);
	CU_ASSERT_EQUAL(n, 1);
	ASSERT_STR_EQ(seats[0].email, "ann@example.org");
	store_seats_free(seats, n);
	CU_ASSERT_EQUAL(store_game_ids(c, 0, 10, &ids, &n, &e), 0);
	CU_ASSERT(n >= 1);
	free(ids);
	CU_ASSERT_EQUAL(store_outbox_count(c, id, "your_turn", &count, &e), 0);
	CU_ASSERT_EQUAL(count, 1);
	CU_ASSERT_EQUAL(store_idem_get(c, 5, "key-1", h2, &gid, &status, &body, &e), 0);
	CU_ASSERT_EQUAL(gid, id);
	CU_ASSERT_EQUAL(status, 200);
	CU_ASSERT(token_hash_equal(hash, h2));
	ASSERT_STR_EQ(body, "{\"ok\":1}");
	free(body);
	CU_ASSERT_EQUAL(store_idem_get(c, 5, "key-2", h2, &gid, &status, &body, &e), ERR_NOTFOUND);
	store_read_release(c);
}

static void test_store__backup_is_a_working_copy(void)
{
	struct store *copy = NULL;
	struct store_conn *c;
	struct store_user u;
	struct err e = {0};
	char dest[160];

	snprintf(dest, sizeof(dest), "%s/backup.db", dir);
	CU_ASSERT_EQUAL_FATAL(store_backup(st, dest, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_open(dest, NULL, &copy, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(copy, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_by_email(c, "ann@example.org", &u, &e), 0);
	store_user_release(&u);
	store_read_release(c);
	store_close(copy);
	CU_ASSERT(store_backup(st, "/proc/nope/backup.db", &e) < 0);
}

static CU_TestInfo store_cases[] = {
	{ "test_store__open_creates_and_migrates", test_store__open_creates_and_migrates },
	{ "test_store__open_bad_path_fails_clearly", test_store__open_bad_path_fails_clearly },
	{ "test_store__users_and_duplicates", test_store__users_and_duplicates },
	{ "test_store__rollback_keeps_nothing", test_store__rollback_keeps_nothing },
	{ "test_store__tokens_hashed_revoked_expired", test_store__tokens_hashed_revoked_expired },
	{ "test_store__games_moves_outbox_audit", test_store__games_moves_outbox_audit },
	{ "test_store__backup_is_a_working_copy", test_store__backup_is_a_working_copy },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("store", suite_init, suite_clean, store_cases);
	return 0;
}
