/* tests/pg/test_pg.c: several turnpostd daemons on one PostgreSQL database (run by tests/pg/run.sh) */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "../http/httptest.h"
#include "store/store.h"
#include "testutil.h"

/* Two daemons on one database, and a reader of it of the test's own. */
static struct ht_daemon a, b;
static char db[512];
static struct store *st;
static char admin_token[64];

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static int suite_init(void)
{
	struct buf out = BUF_INIT;
	struct err e = {0};
	int rc;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (ht_pg_database(db, sizeof(db)) != 0)
		return -1;
	if (ht_start_db(&a, db, NULL) < 0 || ht_start_db(&b, db, NULL) < 0)
		return -1;
	rc = ht_cli(&a, "user add admin@example.org --name Admin --admin", &out);
	ht_last_line(&out, admin_token, sizeof(admin_token));
	buf_release(&out);
	if (rc != 0 || strncmp(admin_token, "tp_", 3) != 0)
		return -1;
	return store_open(db, NULL, &st, &e) < 0 ? -1 : 0;
}

static int suite_clean(void)
{
	store_close(st);
	ht_cleanup(&a);
	ht_cleanup(&b);
	curl_global_cleanup();
	return 0;
}

/* A new two-player counting race (first to target) through daemon a: its id, and its seats' tokens. */
static int64_t new_game(int target, char tokens[2][64])
{
	struct buf out = BUF_INIT;
	char args[300];
	int64_t id = 0;

	snprintf(args, sizeof(args),
		 "game create counting-race --player 'Ann <ann@example.org>' --player 'Bob <bob@example.org>'"
		 " --option target=%d",
		 target);
	if (ht_cli(&a, args, &out) == 0 && out.data) {
		const char *p = strstr(out.data, "game ");
		id = p ? strtoll(p + 5, NULL, 10) : 0;
		for (int s = 0; s < 2; s++) {
			char key[32];
			snprintf(key, sizeof(key), "seat %d\t", s);
			p = strstr(out.data, key);
			p = p ? strstr(p, "tp_") : NULL;
			snprintf(tokens[s], 64, "%.*s", p ? (int)strcspn(p, "\n") : 0, p ? p : "");
		}
	}
	buf_release(&out);
	return id;
}

static int stored_moves(int64_t game_id)
{
	struct store_conn *c;
	struct store_move *moves = NULL;
	struct err e = {0};
	int n = -1;

	if (store_read_acquire(st, &c, &e) < 0)
		return -1;
	if (store_moves_list(c, game_id, 0, &moves, &n, &e) < 0)
		n = -1;
	store_moves_free(moves, n > 0 ? n : 0);
	store_read_release(c);
	return n;
}

struct race {
	const struct ht_daemon *d;
	const char *path, *token, *body;
	char if_match[32];
	pthread_barrier_t *start;
	long status;
};

static void *race_post(void *arg)
{
	struct race *r = arg;
	const char *headers[] = { r->if_match, NULL };
	struct ht_resp resp;

	pthread_barrier_wait(r->start);
	if (ht_request(r->d, "POST", r->path, r->token, headers, r->body, strlen(r->body), &resp) == 0) {
		r->status = resp.status;
		ht_resp_release(&resp);
	}
	return NULL;
}

/*
 * The same step number posted to both daemons at the same moment, round
 * after round: exactly one wins each time, the other hears 412, and the log
 * holds each step once.
 */
static void test_pg__two_daemons_one_step_wins(void)
{
	char tokens[2][64], path[64];
	int64_t id = new_game(1000, tokens);
	int wins_a = 0, wins_b = 0;

	CU_ASSERT_FATAL(id > 0);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	for (int n = 0; n < 20; n++) {
		/* a whole turn of the seat to move: add 1, end (two steps); the first to 1000 wins */
		const char *turn = "{\"moves\":[\"add 1\",\"end\"]}";
		pthread_barrier_t start;
		pthread_t ta, tb;
		struct race ra = { &a, path, tokens[n % 2], turn, "", &start, 0 };
		struct race rb = { &b, path, tokens[n % 2], turn, "", &start, 0 };

		snprintf(ra.if_match, sizeof(ra.if_match), "If-Match: \"%d\"", 2 * n);
		snprintf(rb.if_match, sizeof(rb.if_match), "If-Match: \"%d\"", 2 * n);
		pthread_barrier_init(&start, NULL, 2);
		pthread_create(&ta, NULL, race_post, &ra);
		pthread_create(&tb, NULL, race_post, &rb);
		pthread_join(ta, NULL);
		pthread_join(tb, NULL);
		pthread_barrier_destroy(&start);
		CU_ASSERT((ra.status == 200 && rb.status == 412) || (ra.status == 412 && rb.status == 200));
		wins_a += ra.status == 200;
		wins_b += rb.status == 200;
		CU_ASSERT_EQUAL(stored_moves(id), 2 * (n + 1));
		if (ra.status != 200 && rb.status != 200)
			break;
	}
	CU_ASSERT_EQUAL(wins_a + wins_b, 20);
	CU_ASSERT_EQUAL(stored_moves(id), 40);
}

/* A game played across both daemons, requests alternating between them. */
static void test_pg__game_across_daemons(void)
{
	char tokens[2][64], path[64], match[40];
	int64_t id = new_game(5, tokens);
	struct ht_resp r;
	int n = 0, seat = 0;

	CU_ASSERT_FATAL(id > 0);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	/* two steps a turn (add 1, end): four turns each, nobody reaches 5 */
	for (int turn = 0; turn < 8; turn++) {
		const struct ht_daemon *d = turn % 2 ? &b : &a;
		const char *headers[] = { match, NULL };
		const char *body = "{\"moves\":[\"add 1\",\"end\"]}";

		snprintf(match, sizeof(match), "If-Match: \"%d\"", n);
		CU_ASSERT_EQUAL_FATAL(ht_request(d, "POST", path, tokens[seat], headers, body, strlen(body), &r), 0);
		CU_ASSERT_EQUAL(r.status, 200);
		ht_resp_release(&r);
		n += 2;
		seat ^= 1;
		/* the other daemon sees the step at once */
		{
			const struct ht_daemon *o = d == &a ? &b : &a;
			char game[64];
			snprintf(game, sizeof(game), "/api/v1/games/%lld", (long long)id);
			CU_ASSERT_EQUAL_FATAL(ht_request(o, "GET", game, tokens[0], NULL, NULL, 0, &r), 0);
			CU_ASSERT_EQUAL(r.status, 200);
			CU_ASSERT_EQUAL(json_integer_value(json_object_get(r.json, "move_count")), n);
			ht_resp_release(&r);
		}
	}
	CU_ASSERT_EQUAL(stored_moves(id), 16);
	{
		struct buf out = BUF_INIT;
		char args[64];
		snprintf(args, sizeof(args), "verify %lld", (long long)id);
		CU_ASSERT_EQUAL(ht_cli(&b, args, &out), 0);
		buf_release(&out);
	}
}

/* Names of the .eml files in dir into names (up to max); their count. */
static int mail_files(const char *dir, char names[][64], int max, int have)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	int n = have;

	if (!dp)
		return n;
	while ((de = readdir(dp)) && n < max) {
		size_t len = strlen(de->d_name);
		if (len > 4 && strcmp(de->d_name + len - 4, ".eml") == 0 && de->d_name[0] != '.')
			snprintf(names[n++], 64, "%.63s", de->d_name);
	}
	closedir(dp);
	return n;
}

/*
 * The notifications of a game played on both daemons: each delivered once
 * in all (by one daemon or the other), none twice, none left.
 */
static void test_pg__each_notification_once(void)
{
	static char names[512][64];
	char dir_a[160], dir_b[160];
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	struct err e = {0};
	int nrows = 0, pending = 1, sent = 0, files;

	/* the games of the tests before queued turn notifications: wait until none is pending */
	for (int i = 0; i < 200 && pending; i++) {
		pending = 0;
		CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
		CU_ASSERT_EQUAL(store_outbox_list(c, "pending", 0, 1000, &rows, &nrows, &e), 0);
		pending = nrows;
		store_outbox_rows_free(rows, nrows);
		store_read_release(c);
		if (pending)
			pause_ms(100);
	}
	CU_ASSERT_EQUAL(pending, 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_list(c, "sent", 0, 1000, &rows, &nrows, &e), 0);
	sent = nrows;
	store_outbox_rows_free(rows, nrows);
	store_read_release(c);
	CU_ASSERT(sent > 10);
	snprintf(dir_a, sizeof(dir_a), "%s/var/mail", a.dir);
	snprintf(dir_b, sizeof(dir_b), "%s/var/mail", b.dir);
	files = mail_files(dir_a, names, 512, 0);
	files = mail_files(dir_b, names, 512, files);
	CU_ASSERT_EQUAL(files, sent);
	for (int i = 0; i < files; i++)
		for (int j = i + 1; j < files; j++)
			CU_ASSERT(strcmp(names[i], names[j]) != 0);
}

/* A token revoked on one daemon stops working on the other at once (LISTEN/NOTIFY), not when a cache ages. */
static void test_pg__revoked_token_stops_everywhere(void)
{
	struct buf out = BUF_INIT;
	char tok[64], args[64];
	struct ht_resp r;
	long status = 0;
	int64_t tid = 0;

	CU_ASSERT_EQUAL_FATAL(ht_cli(&a, "token add admin@example.org --label roaming", &out), 0);
	ht_last_line(&out, tok, sizeof(tok));
	if (out.data && strstr(out.data, "token "))
		tid = strtoll(strstr(out.data, "token ") + 6, NULL, 10);
	buf_release(&out);
	CU_ASSERT_FATAL(tid > 0);
	/* both daemons know it (and keep it in their caches) */
	for (int i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL_FATAL(ht_request(i ? &b : &a, "GET", "/api/v1/games", tok, NULL, NULL, 0, &r), 0);
		CU_ASSERT_EQUAL(r.status, 200);
		ht_resp_release(&r);
	}
	snprintf(args, sizeof(args), "/api/v1/tokens/%lld", (long long)tid);
	CU_ASSERT_EQUAL_FATAL(ht_request(&a, "DELETE", args, admin_token, NULL, NULL, 0, &r), 0);
	CU_ASSERT(r.status == 200 || r.status == 204);
	ht_resp_release(&r);
	/* the notification travels between two processes: allow it a moment, far less than any cache's age */
	for (int i = 0; i < 20 && status != 401; i++) {
		CU_ASSERT_EQUAL_FATAL(ht_request(&b, "GET", "/api/v1/games", tok, NULL, NULL, 0, &r), 0);
		status = r.status;
		ht_resp_release(&r);
		if (status != 401)
			pause_ms(25);
	}
	CU_ASSERT_EQUAL(status, 401);
}

/*
 * The database goes away: both daemons answer 503 with problem+json, and
 * when it is back they serve again without being restarted.
 */
static void test_pg__lost_database_503_then_back(void)
{
	const char *ctl = getenv("TURNPOST_TEST_PG_CTL");
	char cmd[1024], tokens[2][64], game[64];
	struct ht_resp r;
	int64_t id = new_game(10, tokens);
	long status = 0;

	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_FATAL(ctl != NULL);
	snprintf(game, sizeof(game), "/api/v1/games/%lld", (long long)id);
	snprintf(cmd, sizeof(cmd), "%s -m fast -w stop >/dev/null", ctl);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	for (int i = 0; i < 2; i++) {
		const char *body = "{\"moves\":[\"add 1\"]}";
		CU_ASSERT_EQUAL_FATAL(ht_request(i ? &b : &a, "POST", "/api/v1/games/1/moves", tokens[0], NULL, body,
						 strlen(body), &r), 0);
		CU_ASSERT_EQUAL(r.status, 503);
		CU_ASSERT(strncmp(r.content_type, "application/problem+json", 24) == 0);
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(r.json, "code")), "storage_error");
		ht_resp_release(&r);
		CU_ASSERT_EQUAL_FATAL(ht_request(i ? &b : &a, "GET", "/healthz", NULL, NULL, NULL, 0, &r), 0);
		CU_ASSERT_EQUAL(r.status, 503);
		ht_resp_release(&r);
	}
	snprintf(cmd, sizeof(cmd), "%s -w start >/dev/null", ctl);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	for (int i = 0; i < 2; i++) {
		status = 0;
		for (int k = 0; k < 100 && status != 200; k++) {
			CU_ASSERT_EQUAL_FATAL(ht_request(i ? &b : &a, "GET", game, tokens[0], NULL, NULL, 0, &r), 0);
			status = r.status;
			ht_resp_release(&r);
			if (status != 200)
				pause_ms(50);
		}
		CU_ASSERT_EQUAL(status, 200);
	}
	{
		const char *body = "{\"moves\":[\"add 1\"]}";
		char path[80];
		snprintf(path, sizeof(path), "%s/moves", game);
		CU_ASSERT_EQUAL_FATAL(ht_request(&b, "POST", path, tokens[0], NULL, body, strlen(body), &r), 0);
		CU_ASSERT_EQUAL(r.status, 200);
		ht_resp_release(&r);
	}
	/* the daemons were not restarted */
	CU_ASSERT_EQUAL(kill(a.pid, 0), 0);
	CU_ASSERT_EQUAL(kill(b.pid, 0), 0);
}

static CU_TestInfo pg_cases[] = {
	{ "test_pg__two_daemons_one_step_wins", test_pg__two_daemons_one_step_wins },
	{ "test_pg__game_across_daemons", test_pg__game_across_daemons },
	{ "test_pg__each_notification_once", test_pg__each_notification_once },
	{ "test_pg__revoked_token_stops_everywhere", test_pg__revoked_token_stops_everywhere },
	{ "test_pg__lost_database_503_then_back", test_pg__lost_database_503_then_back },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	const char *pg = getenv("TURNPOST_TEST_PG");

	if (!pg || !*pg) {
		/* run again under a cluster of its own (run.sh skips, saying why, without PostgreSQL) */
		const char *top = getenv("TOP_SRCDIR");
		char run[512], self[512];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n <= 0)
			return -1;
		self[n] = '\0';
		snprintf(run, sizeof(run), "%s/tests/pg/run.sh", top && *top ? top : ".");
		fflush(NULL);
		execl("/bin/sh", "sh", run, self, (char *)NULL);
		fprintf(stderr, "cannot run %s\n", run);
		return -1;
	}
	TESTS_SUITE("pg", suite_init, suite_clean, pg_cases);
	return 0;
}
