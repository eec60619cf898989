/* tests/unit/test_store.c: CUnit suite for store/ (migrations, users, tokens, games, moves, outbox) */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/store.h"
#include "store/retention.h"
#include "testutil.h"
#include "util/embed.h"
#include "util/log.h"
#include "util/token.h"

static char dir[64];
static char path[512];
static struct store *st;
/* The PostgreSQL database the suite runs on instead of a file (tests/pg/run.sh), or NULL. */
static const char *pg;

static int suite_init(void)
{
	snprintf(dir, sizeof(dir), "/tmp/tp-store-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	if (pg)
		snprintf(path, sizeof(path), "%s", pg);
	else
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

	for (const struct embed_file *f = pg ? embed_sql_pg : embed_sql; f->name; f++)
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

/*
 * The schema of the database at target, sorted, into out ("" when
 * unreadable): on SQLite every table, index and trigger with its SQL; on
 * PostgreSQL every column and index of the schema (psql, as tests/pg/run.sh
 * sets it up).
 */
static void schema_text(const char *target, char *out, size_t size)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	size_t n = 0;

	out[0] = '\0';
	if (pg) {
		char cmd[1024];
		FILE *p;

		snprintf(cmd, sizeof(cmd),
			 "psql -X -q -A -t -d '%s' -c \"SELECT table_name || ' ' || column_name || ' ' || data_type"
			 " FROM information_schema.columns WHERE table_schema = current_schema()"
			 " UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1\"",
			 target);
		if (!(p = popen(cmd, "r")))
			return;
		n = fread(out, 1, size - 1, p);
		out[n] = '\0';
		pclose(p);
		return;
	}
	if (sqlite3_open_v2(target, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT type, name, ifnull(sql, '') FROM sqlite_master ORDER BY type, name", -1, &q,
			       NULL) == SQLITE_OK)
		while (sqlite3_step(q) == SQLITE_ROW && n < size)
			n += (size_t)snprintf(out + n, size - n, "%s %s %s\n", sqlite3_column_text(q, 0),
					      sqlite3_column_text(q, 1), sqlite3_column_text(q, 2));
	sqlite3_finalize(q);
	sqlite3_close(db);
}

/*
 * A new, empty database named name into out (size bytes): a file in the
 * suite's directory, or on PostgreSQL a database created beside the
 * suite's, its URL the suite's with the name changed. 0 or -1.
 */
static int new_database(const char *name, char *out, size_t size)
{
	char cmd[256];
	const char *q;

	if (!pg) {
		snprintf(out, size, "%s/%s.db", dir, name);
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "psql -X -q -d postgres -c 'CREATE DATABASE %s' >/dev/null", name);
	if (system(cmd) != 0 || !(q = strchr(pg, '?')) || strncmp(pg, "postgresql://turnpost@/turnpost?", 32) != 0)
		return -1;
	snprintf(out, size, "postgresql://turnpost@/%s%s", name, q);
	return 0;
}

static void test_store__concurrent_opens_migrate_once(void)
{
	enum { PROCS = 6, ROUNDS = 25 };
	static char want[65536], got[65536];
	char ref[600], file[600], name[32];
	int migrations = 0, failed_rounds = 0;
	struct store *one = NULL;
	struct err e = {0};

	for (const struct embed_file *f = pg ? embed_sql_pg : embed_sql; f->name; f++)
		migrations++;
	CU_ASSERT_EQUAL_FATAL(new_database("alone", ref, sizeof(ref)), 0);
	CU_ASSERT_EQUAL_FATAL(store_open(ref, NULL, &one, &e), 0);
	store_close(one);
	schema_text(ref, want, sizeof(want));
	CU_ASSERT_FATAL(strstr(want, "game_clocks") != NULL);
	for (int round = 0; round < ROUNDS; round++) {
		int go[2], said[2], ok = 0;
		pid_t pids[PROCS];
		char msg[4096] = "";
		ssize_t n, len = 0;

		snprintf(name, sizeof(name), "together%d", round);
		CU_ASSERT_EQUAL_FATAL(new_database(name, file, sizeof(file)), 0);
		CU_ASSERT_FATAL(pipe(go) == 0 && pipe(said) == 0);
		for (int i = 0; i < PROCS; i++) {
			pids[i] = fork();
			CU_ASSERT_FATAL(pids[i] >= 0);
			if (pids[i] == 0) {
				struct store *s = NULL;
				struct err ce = {0};
				char c, line[600];
				int rc;

				close(go[1]);
				close(said[0]);
				/* not the migrations' lines of each round */
				log_set_level(LOG_WARN);
				/* all start when the parent closes the pipe */
				while (read(go[0], &c, 1) > 0)
					;
				rc = store_open(file, NULL, &s, &ce);
				if (rc == 0 && store_schema_version(s) != migrations)
					rc = err_set(&ce, ERR_INTERNAL, "schema version %d, not %d", store_schema_version(s),
						     migrations);
				store_close(s);
				if (rc < 0) {
					snprintf(line, sizeof(line), "process %d: %s\n", i, ce.msg);
					(void)!write(said[1], line, strlen(line));
				}
				_exit(rc < 0);
			}
		}
		close(go[0]);
		close(said[1]);
		close(go[1]);
		while ((n = read(said[0], msg + len, sizeof(msg) - 1 - (size_t)len)) > 0)
			len += n;
		msg[len] = '\0';
		close(said[0]);
		for (int i = 0; i < PROCS; i++) {
			int status = 0;

			waitpid(pids[i], &status, 0);
			ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
		}
		schema_text(file, got, sizeof(got));
		if (ok != PROCS || strcmp(got, want) != 0) {
			if (!failed_rounds)
				fprintf(stderr, "\n  round %d: %d of %d opens succeeded%s\n%s", round, ok, PROCS,
					strcmp(got, want) != 0 ? ", and the schema differs from a single open's" : "",
					msg);
			failed_rounds++;
		}
	}
	if (failed_rounds)
		fprintf(stderr, "  %d of %d rounds failed\n", failed_rounds, ROUNDS);
	CU_ASSERT_EQUAL(failed_rounds, 0);
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
	CU_ASSERT_EQUAL(store_outbox_add(c, "your_turn", id, 1, 0, NULL, 12, NULL, &e), 0);
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

/* A failed call leaves every output empty (NULL, 0, -1 for a seat): nothing half-read can be acted on */
static void test_store__outputs_empty_on_failure(void)
{
	struct store_conn *c, *w;
	struct err e = {0};
	struct store_game g, row = {0};
	struct store_move head;
	struct store_seat open_seat = { 0, 0, (char *)"open", NULL };
	struct store_token t;
	char text[TOKEN_TEXT_MAX], *body = text;
	unsigned char hash[32], seen[32];
	int64_t gid = 0, tid = 0, id, game_id = 99;
	int status = 99, count, seat;

	/* a game whose row names a step that is not stored, with an open seat, and a revoked token */
	snprintf(row.game, sizeof(row.game), "test");
	row.nplayers = 1;
	row.move_count = 3;
	row.seed = (char *)"seed";
	row.initial = (char *)"{}";
	token_new(text, hash);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &w, &e), 0);
	CU_ASSERT_EQUAL(store_game_insert(w, &row, &gid, &e), 0);
	CU_ASSERT_EQUAL(store_seat_insert(w, gid, &open_seat, &e), 0);
	CU_ASSERT_EQUAL(store_token_add(w, hash, TOKEN_SEAT, 0, gid, 0, "seat", 0, &tid, &e), 0);
	CU_ASSERT_EQUAL(store_token_revoke(w, tid, 10, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(w, &e), 0);

	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	/* refused or missing: what was read before the refusal is not handed out */
	memset(&t, 0x5a, sizeof(t));
	CU_ASSERT_EQUAL(store_token_by_hash(c, hash, 20, &t, &e), ERR_UNAUTH);
	CU_ASSERT_EQUAL(t.id, 0);
	CU_ASSERT_EQUAL(t.game_id, 0);
	CU_ASSERT_EQUAL(t.revoked_at, 0);
	CU_ASSERT_EQUAL(t.seat, -1);
	memset(&g, 0x5a, sizeof(g));
	memset(&head, 0x5a, sizeof(head));
	CU_ASSERT_EQUAL(store_game_head(c, gid, &g, &head, &e), ERR_STORE);
	CU_ASSERT_EQUAL(g.id, 0);
	CU_ASSERT_EQUAL(g.move_count, 0);
	CU_ASSERT_STRING_EQUAL(g.game, "");
	CU_ASSERT_EQUAL(head.n, 0);
	CU_ASSERT_PTR_NULL(head.snapshot);
	memset(seen, 0x5a, sizeof(seen));
	CU_ASSERT_EQUAL(store_idem_get(c, tid, "no such key", seen, &game_id, &status, &body, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(seen[0], 0);
	CU_ASSERT_EQUAL(seen[31], 0);
	CU_ASSERT_EQUAL(game_id, 0);
	CU_ASSERT_EQUAL(status, 0);
	CU_ASSERT_PTR_NULL(body);

	/* failed writes (a read connection cannot write): no id, count or seat */
	id = 99;
	CU_ASSERT_EQUAL(store_user_add(c, "ro@example.org", "Ro", 0, &id, &e), ERR_STORE);
	CU_ASSERT_EQUAL(id, 0);
	id = 99;
	CU_ASSERT_EQUAL(store_user_ensure(c, "ro@example.org", "Ro", &id, &e), ERR_STORE);
	CU_ASSERT_EQUAL(id, 0);
	id = 99;
	CU_ASSERT_EQUAL(store_token_add(c, seen, TOKEN_API, 0, 0, -1, "ro", 0, &id, &e), ERR_STORE);
	CU_ASSERT_EQUAL(id, 0);
	id = 99;
	CU_ASSERT_EQUAL(store_game_insert(c, &row, &id, &e), ERR_STORE);
	CU_ASSERT_EQUAL(id, 0);
	id = 99;
	CU_ASSERT_EQUAL(store_outbox_add(c, "chat", gid, 0, 0, NULL, 10, &id, &e), ERR_STORE);
	CU_ASSERT_EQUAL(id, 0);
	id = 99;
	CU_ASSERT_EQUAL(store_reply_token_add(c, seen, gid, 0, 0, 10, 20, &id, &e), ERR_STORE);
	CU_ASSERT_EQUAL(id, 0);
	count = 99;
	CU_ASSERT_EQUAL(store_reply_token_prune(c, 100, &count, &e), ERR_STORE);
	CU_ASSERT_EQUAL(count, 0);
	count = 99;
	CU_ASSERT_EQUAL(store_outbox_release_leases(c, 10, &count, &e), ERR_STORE);
	CU_ASSERT_EQUAL(count, 0);
	count = 99;
	CU_ASSERT_EQUAL(store_vacation_end(c, 1, 10, &count, &e), ERR_STORE);
	CU_ASSERT_EQUAL(count, 0);
	/* the open seat is found, giving it away fails: no seat number comes back */
	seat = 99;
	CU_ASSERT_EQUAL(store_seat_claim(c, gid, 1, "Ro", NULL, &seat, &e), ERR_STORE);
	CU_ASSERT_EQUAL(seat, -1);
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
	CU_ASSERT_EQUAL_FATAL(store_backup(st, dest, 0, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_open(dest, NULL, &copy, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(copy, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_by_email(c, "ann@example.org", &u, &e), 0);
	store_user_release(&u);
	store_read_release(c);
	store_close(copy);
	CU_ASSERT(store_backup(st, "/proc/nope/backup.db", 0, &e) < 0);
}


/* A database made before 004_moves_log.sql: its moves are all there, in order, after the migration. */
static void test_store__moves_log_migration_keeps_every_move(void)
{
	static const char rows[] =
		"INSERT INTO games(id, game, seed, nplayers, move_count, initial, created_at, updated_at)"
		" VALUES (1, 'counting-race', 's1', 2, 3, '{}', 0, 0), (2, 'counting-race', 's2', 2, 2, '{}', 0, 0);"
		"INSERT INTO moves(game_id, n, seat, text, via, at, back, undo_seat, snapshot) VALUES"
		" (2, 1, 0, 'add 2', 'api', 10, 0, 0, '{\"b\":1}'), (1, 1, 0, 'add 1', 'web', 11, 0, 0, '{\"a\":1}'),"
		" (1, 2, 0, 'end', 'web', 12, 1, -1, '{\"a\":2}'), (2, 2, 0, 'end', 'api', 13, 1, -1, '{\"b\":2}'),"
		" (1, 3, 1, 'add 3', 'email', 14, 2, 1, '{\"a\":3}');";
	const char *want1[] = { "add 1", "end", "add 3" };
	char old[160];
	sqlite3 *db = NULL;
	struct store *s = NULL;
	struct store_conn *c;
	struct store_move *moves = NULL, dup = { .n = 3, .seat = 0, .text = "end", .via = "api", .snapshot = "{}" };
	struct err e = {0};
	int n = 0, migrations = 0;

	snprintf(old, sizeof(old), "%s/old.db", dir);
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(old, &db), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(db, "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)",
				     NULL, NULL, NULL), SQLITE_OK);
	for (const struct embed_file *f = embed_sql; f->name; f++) {
		char rec[160];

		migrations++;
		if (strcmp(f->name, "004_moves_log.sql") >= 0)
			continue;
		CU_ASSERT_EQUAL(sqlite3_exec(db, f->text, NULL, NULL, NULL), SQLITE_OK);
		snprintf(rec, sizeof(rec), "INSERT INTO schema_migrations VALUES ('%s', 0)", f->name);
		CU_ASSERT_EQUAL(sqlite3_exec(db, rec, NULL, NULL, NULL), SQLITE_OK);
	}
	CU_ASSERT_EQUAL(sqlite3_exec(db, rows, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	CU_ASSERT_EQUAL_FATAL(store_open(old, NULL, &s, &e), 0);
	CU_ASSERT_EQUAL(store_schema_version(s), migrations);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(s, &c, &e), 0);
	CU_ASSERT_EQUAL(store_moves_list(c, 1, 1, &moves, &n, &e), 0);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(moves[i].n, i + 1);
		ASSERT_STR_EQ(moves[i].text, want1[i]);
	}
	ASSERT_STR_EQ(moves[2].via, "email");
	CU_ASSERT_EQUAL(moves[2].back, 2);
	CU_ASSERT_EQUAL(moves[2].undo_seat, 1);
	ASSERT_STR_EQ(moves[2].snapshot, "{\"a\":3}");
	store_moves_free(moves, n);
	CU_ASSERT_EQUAL(store_moves_list(c, 2, 0, &moves, &n, &e), 0);
	CU_ASSERT_EQUAL(n, 2);
	if (n == 2)
		ASSERT_STR_EQ(moves[1].text, "end");
	store_moves_free(moves, n);
	store_read_release(c);
	/* (game, number) is still unique, and a new move goes at the end of its game */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(s, &c, &e), 0);
	CU_ASSERT_EQUAL(store_move_append(c, 1, &dup, &e), ERR_CONFLICT);
	CU_ASSERT(strstr(e.msg, "UNIQUE") != NULL);
	dup.n = 4;
	CU_ASSERT_EQUAL(store_move_append(c, 1, &dup, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(s, &c, &e), 0);
	CU_ASSERT_EQUAL(store_moves_list(c, 1, 0, &moves, &n, &e), 0);
	CU_ASSERT_EQUAL(n, 4);
	if (n == 4)
		CU_ASSERT_EQUAL(moves[3].n, 4);
	store_moves_free(moves, n);
	store_read_release(c);
	store_close(s);
}


/* A database made before 005_move_kind.sql: its admin rollbacks become steps of kind rollback with their target. */
static void test_store__move_kind_migration_marks_rollbacks(void)
{
	static const char rows[] =
		"INSERT INTO games(id, game, seed, nplayers, move_count, initial, created_at, updated_at)"
		" VALUES (1, 'counting-race', 's1', 2, 4, '{}', 0, 0);"
		"INSERT INTO moves(game_id, n, seat, text, via, at, back, undo_seat, snapshot) VALUES"
		" (1, 1, 0, 'add 1', 'web', 11, 0, 0, '{\"a\":1}'), (1, 2, 0, 'end', 'web', 12, 1, -1, '{\"a\":2}'),"
		" (1, 3, -1, 'rollback to 1', 'admin', 13, 2, -1, '{\"a\":1}'),"
		" (1, 4, 1, 'rollback to 0', 'api', 14, 3, 1, '{\"a\":4}');";
	char old[160];
	sqlite3 *db = NULL;
	struct store *s = NULL;
	struct store_conn *c;
	struct store_move *moves = NULL, one = {0};
	struct store_move rb = { .n = 5, .kind = STORE_MOVE_ROLLBACK, .target = 2, .seat = -1, .text = "rollback to 2",
				 .via = "admin", .back = 4, .undo_seat = -1, .snapshot = "{\"a\":2}" };
	struct err e = {0};
	int n = 0;

	snprintf(old, sizeof(old), "%s/old5.db", dir);
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(old, &db), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(db, "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)",
				     NULL, NULL, NULL), SQLITE_OK);
	for (const struct embed_file *f = embed_sql; f->name; f++) {
		char rec[160];

		if (strcmp(f->name, "005_move_kind.sql") >= 0)
			continue;
		CU_ASSERT_EQUAL(sqlite3_exec(db, f->text, NULL, NULL, NULL), SQLITE_OK);
		snprintf(rec, sizeof(rec), "INSERT INTO schema_migrations VALUES ('%s', 0)", f->name);
		CU_ASSERT_EQUAL(sqlite3_exec(db, rec, NULL, NULL, NULL), SQLITE_OK);
	}
	CU_ASSERT_EQUAL(sqlite3_exec(db, rows, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	CU_ASSERT_EQUAL_FATAL(store_open(old, NULL, &s, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(s, &c, &e), 0);
	CU_ASSERT_EQUAL(store_moves_list(c, 1, 0, &moves, &n, &e), 0);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_EQUAL(moves[0].kind, STORE_MOVE_STEP);
	CU_ASSERT_EQUAL(moves[1].kind, STORE_MOVE_STEP);
	CU_ASSERT_EQUAL(moves[2].kind, STORE_MOVE_ROLLBACK);
	CU_ASSERT_EQUAL(moves[2].target, 1);
	ASSERT_STR_EQ(moves[2].text, "rollback to 1");
	/* only an admin's row was one: a player's text is a player's step */
	CU_ASSERT_EQUAL(moves[3].kind, STORE_MOVE_STEP);
	store_moves_free(moves, n);
	store_read_release(c);
	/* a new rollback keeps its kind and target, read one by one or listed */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(s, &c, &e), 0);
	CU_ASSERT_EQUAL(store_move_append(c, 1, &rb, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(s, &c, &e), 0);
	CU_ASSERT_EQUAL(store_move_get(c, 1, 5, &one, &e), 0);
	CU_ASSERT_EQUAL(one.kind, STORE_MOVE_ROLLBACK);
	CU_ASSERT_EQUAL(one.target, 2);
	ASSERT_STR_EQ(one.snapshot, "{\"a\":2}");
	store_move_release(&one);
	CU_ASSERT_EQUAL(store_move_get(c, 1, 1, &one, &e), 0);
	CU_ASSERT_EQUAL(one.kind, STORE_MOVE_STEP);
	CU_ASSERT_EQUAL(one.target, 0);
	store_move_release(&one);
	store_read_release(c);
	store_close(s);
}

/* store_game_head: the latest step read again comes from memory, and never a step that was not committed. */
static void test_store__head_reads_remember_committed_steps(void)
{
	struct store_conn *c;
	struct store_game g = { .game = "x", .options = "{}", .seed = "1", .nplayers = 2, .initial = "{\"s\":0}",
				.created_at = 10, .updated_at = 10 };
	struct store_move m1 = { .n = 1, .seat = 0, .text = "add 1", .via = "api", .at = 11, .back = 0,
				 .undo_seat = 0, .snapshot = "{\"s\":1}" };
	struct store_move m2 = { .n = 2, .seat = 1, .text = "add 2", .via = "api", .at = 12, .back = 1,
				 .undo_seat = 1, .snapshot = "{\"s\":2}" };
	struct store_move head;
	struct store_game row;
	struct err e = {0};
	uint64_t h0, m0, h1, m1c;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_game_insert(c, &g, &id, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);

	/* the set-up, read twice: from the database, then from memory */
	store_game_head_stats(st, &h0, &m0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	for (int i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(store_game_head(c, id, &row, &head, &e), 0);
		CU_ASSERT_EQUAL(row.move_count, 0);
		ASSERT_STR_EQ(head.snapshot, "{\"s\":0}");
		CU_ASSERT_EQUAL(head.undo_seat, -1);
		store_game_release(&row);
		store_move_release(&head);
	}
	store_read_release(c);
	store_game_head_stats(st, &h1, &m1c);
	CU_ASSERT_EQUAL(m1c, m0 + 1);
	CU_ASSERT_EQUAL(h1, h0 + 1);

	/* a step in a transaction that is rolled back: the writer sees it, the memory does not keep it */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_move_append(c, id, &m1, &e), 0);
	CU_ASSERT_EQUAL(store_game_update(c, id, 1, 1u, "active", NULL, 11, &e), 0);
	CU_ASSERT_EQUAL(store_game_head(c, id, &row, &head, &e), 0);
	CU_ASSERT_EQUAL(head.n, 1);
	ASSERT_STR_EQ(head.snapshot, "{\"s\":1}");
	store_game_release(&row);
	store_move_release(&head);
	store_write_rollback(c);
	/* a different step 1 is committed instead: that is what a read gets */
	m1.snapshot = "{\"s\":10}";
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_move_append(c, id, &m1, &e), 0);
	CU_ASSERT_EQUAL(store_game_update(c, id, 1, 1u, "active", NULL, 11, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_game_head(c, id, &row, &head, &e), 0);
	CU_ASSERT_EQUAL(row.move_count, 1);
	CU_ASSERT_EQUAL(head.n, 1);
	ASSERT_STR_EQ(head.snapshot, "{\"s\":10}");
	CU_ASSERT_EQUAL(head.back, 0);
	CU_ASSERT_EQUAL(head.at, 11);
	store_game_release(&row);
	store_move_release(&head);
	store_read_release(c);

	/* a committed step told to the store is read from memory at once, with all its fields */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_move_append(c, id, &m2, &e), 0);
	CU_ASSERT_EQUAL(store_game_update(c, id, 2, 1u, "active", NULL, 12, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	store_game_head_remember(st, id, &m2);
	store_game_head_stats(st, &h0, &m0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_game_head(c, id, &row, &head, &e), 0);
	CU_ASSERT_EQUAL(head.n, 2);
	ASSERT_STR_EQ(head.snapshot, "{\"s\":2}");
	CU_ASSERT_EQUAL(head.back, 1);
	CU_ASSERT_EQUAL(head.undo_seat, 1);
	CU_ASSERT_EQUAL(head.seat, 1);
	CU_ASSERT_EQUAL(head.at, 12);
	store_game_release(&row);
	store_move_release(&head);
	/* an earlier step told late does not replace it */
	store_game_head_remember(st, id, &m1);
	CU_ASSERT_EQUAL(store_game_head(c, id, &row, &head, &e), 0);
	ASSERT_STR_EQ(head.snapshot, "{\"s\":2}");
	store_game_release(&row);
	store_move_release(&head);
	store_read_release(c);
	store_game_head_stats(st, &h1, &m1c);
	CU_ASSERT_EQUAL(h1, h0 + 2);
	CU_ASSERT_EQUAL(m1c, m0);
}


/* store_change_generation moves with changes to existing tokens, users and seats, not with new rows. */
static void test_store__change_generation_only_for_changed_credentials(void)
{
	struct store_conn *c;
	struct store_game g = { .game = "x", .options = "{}", .seed = "1", .nplayers = 2, .initial = "{}",
				.created_at = 10, .updated_at = 10 };
	struct store_seat seat = { .seat = 0, .name = "Ann" };
	struct err e = {0};
	unsigned char hash[32];
	char text[TOKEN_TEXT_MAX];
	uint64_t g0;
	int64_t id, tid, uid;

	/* a new game with its seat and token, and a new user: no change */
	g0 = store_change_generation();
	token_new(text, hash);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_game_insert(c, &g, &id, &e), 0);
	CU_ASSERT_EQUAL(store_seat_insert(c, id, &seat, &e), 0);
	CU_ASSERT_EQUAL(store_token_add(c, hash, TOKEN_SEAT, 0, id, 0, "seat", 0, &tid, &e), 0);
	CU_ASSERT_EQUAL(store_user_add(c, "gen@example.org", "Gen", 0, &uid, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT_EQUAL(store_change_generation(), g0);
	/* a revocation rolled back changes nothing either */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_token_revoke(c, tid, 20, &e), 0);
	store_write_rollback(c);
	CU_ASSERT_EQUAL(store_change_generation(), g0);
	/* committed: it moves; so does a seat given to someone else, and a user's new name */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_token_revoke(c, tid, 20, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT(store_change_generation() != g0);
	g0 = store_change_generation();
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_seat_set(c, id, 0, uid, "Gen", NULL, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT(store_change_generation() != g0);
	g0 = store_change_generation();
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_update(c, uid, "Gene", NULL, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT(store_change_generation() != g0);
}

/* Which --db names PostgreSQL, and what a log shows of it. */
static void test_store__targets(void)
{
	char shown[256];

	CU_ASSERT(store_target_is_postgres("postgres://db.example.org/turnpost"));
	CU_ASSERT(store_target_is_postgres("postgresql://turnpost@/turnpost?host=/run/postgresql"));
	CU_ASSERT(store_target_is_postgres("host=db.example.org dbname=turnpost"));
	CU_ASSERT(!store_target_is_postgres("./var/turnpost.db"));
	CU_ASSERT(!store_target_is_postgres("/srv/postgres/turnpost.db"));
	CU_ASSERT(!store_target_is_postgres("./host=x/turnpost.db"));
	store_target_redact("postgresql://tp:s3cret@db.example.org:5433/turnpost", shown, sizeof(shown));
	ASSERT_STR_EQ(shown, "postgresql://tp:***@db.example.org:5433/turnpost");
	store_target_redact("host=db dbname=turnpost password=s3cret", shown, sizeof(shown));
	CU_ASSERT(strstr(shown, "s3cret") == NULL);
	store_target_redact("postgres://tp@db/turnpost?password=s3cret", shown, sizeof(shown));
	CU_ASSERT(strstr(shown, "s3cret") == NULL);
	store_target_redact("postgres://tp@db/turnpost", shown, sizeof(shown));
	ASSERT_STR_EQ(shown, "postgres://tp@db/turnpost");
}

/* Web push subscriptions, and the outbox row per subscription that a pushed event queues. */
static void test_store__push_subscriptions_fan_out(void)
{
	struct store_conn *c;
	struct store_push_sub *list = NULL, one;
	struct store_outbox_row *rows = NULL;
	struct err e = {0};
	int64_t uid, other, s1, s2, s3;
	int n = 0, count = 0, removed = 0, pushed = 0;

	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_ensure(c, "pusher@example.org", "Pia", &uid, &e), 0);
	CU_ASSERT_EQUAL(store_user_ensure(c, "other@example.org", "Otto", &other, &e), 0);
	CU_ASSERT_EQUAL(store_push_sub_add(c, uid, "https://push.example.net/a", "KEYA", "AUTHA", "Firefox", 1000, &s1, &e), 0);
	CU_ASSERT_EQUAL(store_push_sub_add(c, uid, "https://push.example.net/b", "KEYB", "AUTHB", NULL, 1000, &s2, &e), 0);
	/* the same browser signed in as someone else now: the endpoint moves to them with new keys */
	CU_ASSERT_EQUAL(store_push_sub_add(c, other, "https://push.example.net/b", "KEYC", "AUTHC", "Chrome", 2000, &s3, &e), 0);
	CU_ASSERT_NOT_EQUAL(s3, s2);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);

	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_push_sub_list(c, uid, &list, &n, &e), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(list[0].id, s1);
	ASSERT_STR_EQ(list[0].endpoint, "https://push.example.net/a");
	ASSERT_STR_EQ(list[0].p256dh, "KEYA");
	ASSERT_STR_EQ(list[0].auth, "AUTHA");
	ASSERT_STR_EQ(list[0].label, "Firefox");
	CU_ASSERT_EQUAL(list[0].created_at, 1000);
	CU_ASSERT_EQUAL(list[0].last_success_at, 0);
	store_push_subs_free(list, n);
	CU_ASSERT_EQUAL(store_push_sub_get(c, s3, &one, &e), 0);
	CU_ASSERT_EQUAL(one.user_id, other);
	ASSERT_STR_EQ(one.p256dh, "KEYC");
	store_push_sub_release(&one);
	CU_ASSERT_EQUAL(store_push_sub_get(c, s2, &one, &e), ERR_NOTFOUND);
	CU_ASSERT_PTR_NULL(one.endpoint);
	CU_ASSERT_EQUAL(store_push_sub_count(c, uid, &count, &e), 0);
	CU_ASSERT_EQUAL(count, 1);
	store_read_release(c);

	/* a chat line and a "your turn" for Pia go to her email and her one browser; an invitation only by email */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_add(c, "chat", 0, -1, uid, "{\"name\":\"Ann\",\"text\":\"hi\"}", 3000, NULL, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_add(c, "your_turn", 0, -1, uid, NULL, 3000, NULL, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_add(c, "invite", 0, -1, uid, NULL, 3000, NULL, &e), 0);
	CU_ASSERT_EQUAL(store_push_sub_touch(c, s1, 4000, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_list(c, NULL, uid, 0, &rows, &n, &e), 0);
	CU_ASSERT_EQUAL(n, 5);
	for (int i = 0; i < n; i++) {
		char want[96];
		if (!strstr(rows[i].payload, "push_sub"))
			continue;
		pushed++;
		if (strcmp(rows[i].event, "chat") == 0)
			snprintf(want, sizeof(want), "{\"push_sub\":%lld,\"name\":\"Ann\",\"text\":\"hi\"}", (long long)s1);
		else
			snprintf(want, sizeof(want), "{\"push_sub\":%lld}", (long long)s1);
		ASSERT_STR_EQ(rows[i].payload, want);
		CU_ASSERT_EQUAL(rows[i].user_id, uid);
		ASSERT_STR_EQ(rows[i].state, "pending");
		CU_ASSERT(strcmp(rows[i].event, "invite") != 0);
	}
	CU_ASSERT_EQUAL(pushed, 2);
	store_outbox_rows_free(rows, n);
	CU_ASSERT_EQUAL(store_push_sub_get(c, s1, &one, &e), 0);
	CU_ASSERT_EQUAL(one.last_success_at, 4000);
	store_push_sub_release(&one);
	store_read_release(c);

	/* removing: only the owner's, when a user is given */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_push_sub_delete(c, s1, other, &removed, &e), 0);
	CU_ASSERT_EQUAL(removed, 0);
	CU_ASSERT_EQUAL(store_push_sub_delete(c, s1, uid, &removed, &e), 0);
	CU_ASSERT_EQUAL(removed, 1);
	CU_ASSERT_EQUAL(store_push_sub_delete(c, s3, 0, &removed, &e), 0);
	CU_ASSERT_EQUAL(removed, 1);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
}

/* Retention: each kind goes in batches by its own age; pending and dead notifications and the game's rows stay. */
static void test_store__retention_prunes_by_age(void)
{
	struct store_conn *c;
	struct store_game g = { .game = "x", .options = "{}", .seed = "1", .nplayers = 1, .initial = "{\"s\":0}",
				.created_at = 10, .updated_at = 10 };
	struct store_move m = { .n = 1, .seat = 0, .text = "add 1", .via = "api", .at = 11, .snapshot = "{\"s\":1}" };
	struct store_outbox_row *rows = NULL;
	struct store_move got;
	unsigned char hash[32] = { 2 }, h2[32];
	char key[16], *body = NULL, *status = NULL, *outcome = NULL;
	struct err e = {0};
	int64_t id, ob[4], gid;
	int n = 0, count, total, st_code, sent = 0, pending = 0, dead = 0, skipped = 0;

	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_game_insert(c, &g, &id, &e), 0);
	CU_ASSERT_EQUAL(store_move_append(c, id, &m, &e), 0);
	/* five old idempotency answers and one new */
	for (int i = 0; i < 6; i++) {
		snprintf(key, sizeof(key), "ret-%d", i);
		CU_ASSERT_EQUAL(store_idem_put(c, 77, key, hash, id, 200, "{}", i < 5 ? 1000 + i : 9000, &e), 0);
	}
	/* notifications due at 1000: sent, skipped, pending, dead; and one sent at 9000 */
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(store_outbox_add(c, "your_turn", id, 0, 0, NULL, 1000, &ob[i], &e), 0);
	CU_ASSERT_EQUAL(store_outbox_finish(c, ob[0], STORE_OUTBOX_SENT, 1000, NULL, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_finish(c, ob[1], STORE_OUTBOX_SKIPPED, 1000, "off", &e), 0);
	CU_ASSERT_EQUAL(store_outbox_finish(c, ob[3], STORE_OUTBOX_DEAD, 1000, "550", &e), 0);
	CU_ASSERT_EQUAL(store_outbox_add(c, "your_turn", id, 0, 0, NULL, 9000, &gid, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_finish(c, gid, STORE_OUTBOX_SENT, 9000, NULL, &e), 0);
	CU_ASSERT_EQUAL(store_inbound_mail_put(c, "<ret-old@x>", 0, id, 0, "a@x", "played", "{}", 1000, &e), 0);
	CU_ASSERT_EQUAL(store_inbound_mail_put(c, "<ret-new@x>", 0, id, 0, "a@x", "played", "{}", 9000, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);

	/* batches of two until a short one (other cases' old rows may go too) */
	total = 0;
	do {
		CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
		CU_ASSERT_EQUAL(store_retention_prune(c, STORE_RETAIN_IDEMPOTENCY, 5000, 2, &count, &e), 0);
		CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
		CU_ASSERT(count <= 2);
		total += count;
	} while (count == 2 && total < 100);
	CU_ASSERT(total >= 5);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_retention_prune(c, STORE_RETAIN_OUTBOX, 5000, 100, &count, &e), 0);
	CU_ASSERT(count >= 2);
	CU_ASSERT_EQUAL(store_retention_prune(c, STORE_RETAIN_INBOUND, 5000, 100, &count, &e), 0);
	CU_ASSERT(count >= 1);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);

	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	for (int i = 0; i < 5; i++) {
		snprintf(key, sizeof(key), "ret-%d", i);
		CU_ASSERT_EQUAL(store_idem_get(c, 77, key, h2, &gid, &st_code, &body, &e), ERR_NOTFOUND);
	}
	CU_ASSERT_EQUAL(store_idem_get(c, 77, "ret-5", h2, &gid, &st_code, &body, &e), 0);
	free(body);
	CU_ASSERT_EQUAL(store_outbox_list_game(c, id, &rows, &n, &e), 0);
	for (int i = 0; i < n; i++) {
		sent += strcmp(rows[i].state, "sent") == 0;
		skipped += strcmp(rows[i].state, "skipped") == 0;
		pending += strcmp(rows[i].state, "pending") == 0;
		dead += strcmp(rows[i].state, "dead") == 0;
	}
	store_outbox_rows_free(rows, n);
	CU_ASSERT_EQUAL(sent, 1);
	CU_ASSERT_EQUAL(skipped, 0);
	CU_ASSERT_EQUAL(pending, 1);
	CU_ASSERT_EQUAL(dead, 1);
	CU_ASSERT_EQUAL(store_inbound_mail_get(c, "<ret-old@x>", &status, &outcome, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(store_inbound_mail_get(c, "<ret-new@x>", &status, &outcome, &e), 0);
	free(status);
	free(outcome);
	/* the game and its log are not the retention's */
	CU_ASSERT_EQUAL(store_move_get(c, id, 1, &got, &e), 0);
	store_move_release(&got);
	store_read_release(c);
}

static CU_TestInfo store_cases[] = {
	{ "test_store__targets", test_store__targets },
	{ "test_store__open_creates_and_migrates", test_store__open_creates_and_migrates },
	{ "test_store__open_bad_path_fails_clearly", test_store__open_bad_path_fails_clearly },
	{ "test_store__moves_log_migration_keeps_every_move", test_store__moves_log_migration_keeps_every_move },
	{ "test_store__move_kind_migration_marks_rollbacks", test_store__move_kind_migration_marks_rollbacks },
	{ "test_store__head_reads_remember_committed_steps", test_store__head_reads_remember_committed_steps },
	{ "test_store__change_generation_only_for_changed_credentials",
	  test_store__change_generation_only_for_changed_credentials },
	{ "test_store__concurrent_opens_migrate_once", test_store__concurrent_opens_migrate_once },
	{ "test_store__users_and_duplicates", test_store__users_and_duplicates },
	{ "test_store__rollback_keeps_nothing", test_store__rollback_keeps_nothing },
	{ "test_store__tokens_hashed_revoked_expired", test_store__tokens_hashed_revoked_expired },
	{ "test_store__games_moves_outbox_audit", test_store__games_moves_outbox_audit },
	{ "test_store__outputs_empty_on_failure", test_store__outputs_empty_on_failure },
	{ "test_store__backup_is_a_working_copy", test_store__backup_is_a_working_copy },
	{ "test_store__push_subscriptions_fan_out", test_store__push_subscriptions_fan_out },
	{ "test_store__retention_prunes_by_age", test_store__retention_prunes_by_age },
	CU_TEST_INFO_NULL
};

/*
 * On PostgreSQL (TURNPOST_TEST_PG, set by tests/pg/run.sh): every case that
 * speaks through the store's interface, the conformance suite of a backend;
 * not those of SQLite's files (their migrations, backup).
 */
static CU_TestInfo store_pg_cases[] = {
	{ "test_store__open_creates_and_migrates", test_store__open_creates_and_migrates },
	{ "test_store__concurrent_opens_migrate_once", test_store__concurrent_opens_migrate_once },
	{ "test_store__head_reads_remember_committed_steps", test_store__head_reads_remember_committed_steps },
	{ "test_store__change_generation_only_for_changed_credentials",
	  test_store__change_generation_only_for_changed_credentials },
	{ "test_store__users_and_duplicates", test_store__users_and_duplicates },
	{ "test_store__rollback_keeps_nothing", test_store__rollback_keeps_nothing },
	{ "test_store__tokens_hashed_revoked_expired", test_store__tokens_hashed_revoked_expired },
	{ "test_store__games_moves_outbox_audit", test_store__games_moves_outbox_audit },
	{ "test_store__outputs_empty_on_failure", test_store__outputs_empty_on_failure },
	{ "test_store__push_subscriptions_fan_out", test_store__push_subscriptions_fan_out },
	{ "test_store__retention_prunes_by_age", test_store__retention_prunes_by_age },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	pg = getenv("TURNPOST_TEST_PG");
	if (pg && *pg) {
		TESTS_SUITE("store_pg", suite_init, suite_clean, store_pg_cases);
		return 0;
	}
	pg = NULL;
	TESTS_SUITE("store", suite_init, suite_clean, store_cases);
	return 0;
}
