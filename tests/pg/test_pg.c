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

#include "../fake_game.h"
#include "../http/httptest.h"
#include "engine/registry.h"
#include "notify/notify.h"
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
	/* the notifiers of this process compose mails of the daemons' test game */
	registry_add_for_tests(&fake_game);
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

/* The clocked games of test_pg__deadline_fires_once. */
#define GAMES 10

/* Far in the future: rows the daemons' notifiers never find due meanwhile. */
#define LATER 4000000000000LL

/* The ids of a claim into ids (up to 16); their count. */
static int claim(struct store *s, int64_t now, int64_t lease_until, int max, int64_t *ids, struct store_conn **keep)
{
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	struct err e = {0};
	int n = 0;

	if (store_write_begin(s, &c, &e) < 0)
		return -1;
	if (store_outbox_claim(c, now, lease_until, max, &rows, &n, &e) < 0)
		n = -1;
	for (int i = 0; i < n && i < 16; i++)
		ids[i] = rows[i].id;
	store_outbox_rows_free(rows, n > 0 ? n : 0);
	if (keep)
		*keep = c; /* the caller commits: its rows stay locked meanwhile */
	else if (store_write_commit(c, &e) < 0)
		n = -1;
	return n;
}

/*
 * Two daemons' notifiers claiming at the same moment get different rows
 * (FOR UPDATE SKIP LOCKED: the second neither waits nor takes the first's);
 * a leased row is nobody else's until its lease runs out, then whoever
 * claims next delivers it (its leaser died); a starting notifier releases
 * no lease that is still running.
 */
static void test_pg__outbox_claims_across_daemons(void)
{
	struct store *other = NULL;
	struct store_conn *c, *held = NULL;
	struct err e = {0};
	int64_t first[16], second[16], again[16];
	int n1, n2, n3, released = -1;

	CU_ASSERT_EQUAL_FATAL(store_open(db, NULL, &other, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	for (int i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(store_outbox_add(c, "test", 0, -1, 0, "{}", LATER, NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_commit(c, &e), 0);

	n1 = claim(st, LATER, LATER + 1000, 3, first, &held);
	CU_ASSERT_EQUAL_FATAL(n1, 3);
	/* while the first claim is not committed, its rows are locked: the other daemon takes the rest */
	n2 = claim(other, LATER, LATER + 1000, 10, second, NULL);
	CU_ASSERT_EQUAL(n2, 3);
	CU_ASSERT_EQUAL(store_write_commit(held, &e), 0);
	for (int i = 0; i < n1; i++)
		for (int j = 0; j < n2 && j < 16; j++)
			CU_ASSERT_NOT_EQUAL(first[i], second[j]);
	/* leased: nobody's until the lease runs out */
	CU_ASSERT_EQUAL(claim(other, LATER + 500, LATER + 1500, 10, again, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(other, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_release_leases(c, LATER + 500, &released, &e), 0);
	CU_ASSERT_EQUAL(released, 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT_EQUAL(claim(st, LATER + 500, LATER + 1500, 10, again, NULL), 0);
	/* the leasers are gone: the rows are due again, for the other daemon */
	n3 = claim(other, LATER + 1000, LATER + 2000, 10, again, NULL);
	CU_ASSERT_EQUAL(n3, 6);
	/* done with them: not left pending for the daemons of later tests */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	for (int i = 0; i < n3 && i < 16; i++)
		CU_ASSERT_EQUAL(store_outbox_finish(c, again[i], STORE_OUTBOX_DEAD, LATER, "test", &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	store_close(other);
}

/* One daemon at a time leads (runs the timers); when it goes, another takes over. */
static void test_pg__one_leader_at_a_time(void)
{
	struct store *other = NULL;
	struct err e = {0};
	int lead = -1;
	const int64_t key = 4242;

	CU_ASSERT_EQUAL_FATAL(store_open(db, NULL, &other, &e), 0);
	CU_ASSERT_EQUAL(store_lead(st, key, &lead, &e), 0);
	CU_ASSERT_EQUAL(lead, 1);
	CU_ASSERT_EQUAL(store_lead(other, key, &lead, &e), 0);
	CU_ASSERT_EQUAL(lead, 0);
	/* asking again changes nothing */
	CU_ASSERT_EQUAL(store_lead(st, key, &lead, &e), 0);
	CU_ASSERT_EQUAL(lead, 1);
	CU_ASSERT_EQUAL(store_lead(other, key, &lead, &e), 0);
	CU_ASSERT_EQUAL(lead, 0);
	/* the leader goes away (its session ends a moment after it hangs up: the next round finds it gone) */
	store_close(st);
	st = NULL;
	for (int i = 0; i < 100; i++) {
		CU_ASSERT_EQUAL(store_lead(other, key, &lead, &e), 0);
		if (lead)
			break;
		pause_ms(10);
	}
	CU_ASSERT_EQUAL(lead, 1);
	CU_ASSERT_EQUAL(store_open(db, NULL, &st, &e), 0);
	CU_ASSERT_EQUAL(store_lead(st, key, &lead, &e), 0);
	CU_ASSERT_EQUAL(lead, 0);
	store_close(other);
}

/*
 * A missed deadline with two daemons whose clocks are past it: one of them
 * (the leader) handles it, once; the other does not tell the players again.
 */
static void test_pg__deadline_fires_once(void)
{
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}],"
			   "\"clock\":{\"mode\":\"per_turn\",\"turn_minutes\":1,\"timeout\":\"notify\"}}";
	struct ht_daemon c = {0}, d1 = {0}, d2 = {0};
	struct store *s = NULL;
	struct store_conn *conn;
	struct buf out = BUF_INIT;
	struct ht_resp r;
	struct err e = {0};
	char other[512], token[64], later[32];
	int64_t ids[GAMES];
	int total = 0, twice = 0;

	CU_ASSERT_EQUAL_FATAL(ht_pg_database(other, sizeof(other)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_start_db(&c, other, NULL), 0);
	CU_ASSERT_EQUAL(ht_cli(&c, "user add admin@example.org --admin", &out), 0);
	ht_last_line(&out, token, sizeof(token));
	buf_release(&out);
	/* several games, each with a missed deadline */
	for (int i = 0; i < GAMES; i++) {
		CU_ASSERT_EQUAL_FATAL(ht_request(&c, "POST", "/api/v1/games", token, NULL, body, strlen(body), &r), 0);
		CU_ASSERT_EQUAL(r.status, 201);
		ids[i] = json_integer_value(json_object_get(r.json, "id"));
		ht_resp_release(&r);
	}
	ht_stop(&c, SIGTERM);
	/* an hour later for both daemons: every first turn's deadline has passed */
	snprintf(later, sizeof(later), "%lld", (long long)time(NULL) * 1000 + 3600 * 1000);
	setenv("TURNPOST_FAKE_NOW_MS", later, 1);
	CU_ASSERT_EQUAL_FATAL(ht_start_db(&d1, other, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(ht_start_db(&d2, other, NULL), 0);
	unsetenv("TURNPOST_FAKE_NOW_MS");
	CU_ASSERT_EQUAL_FATAL(store_open(other, NULL, &s, &e), 0);
	/* the notifiers run every second: let each of them run several rounds */
	for (int round = 0; round < 60 && total < GAMES; round++) {
		pause_ms(100);
		total = 0;
		CU_ASSERT_EQUAL_FATAL(store_read_acquire(s, &conn, &e), 0);
		for (int i = 0; i < GAMES; i++) {
			int count = 0;
			CU_ASSERT_EQUAL(store_outbox_count(conn, ids[i], "timeout", &count, &e), 0);
			total += count > 0;
		}
		store_read_release(conn);
	}
	CU_ASSERT_EQUAL(total, GAMES);
	pause_ms(2500);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(s, &conn, &e), 0);
	for (int i = 0; i < GAMES; i++) {
		int count = 0;
		CU_ASSERT_EQUAL(store_outbox_count(conn, ids[i], "timeout", &count, &e), 0);
		twice += count != 1;
	}
	store_read_release(conn);
	CU_ASSERT_EQUAL(twice, 0);
	store_close(s);
	ht_cleanup(&d1);
	ht_cleanup(&d2);
	ht_cleanup(&c);
}

/* The notifiers of test_pg__timers_race_once, and the games whose clocks they race on. */
#define RACERS 3
#define RACE_GAMES 30

struct timer_racer {
	struct notify *n;
	pthread_barrier_t *start;
	int64_t now;
	int rc;
};

static void *race_timers(void *arg)
{
	struct timer_racer *r = arg;
	struct err e = {0};

	pthread_barrier_wait(r->start);
	r->rc = notify_run_once(r->n, r->now, NULL, &e);
	if (r->rc < 0)
		fprintf(stderr, "notify_run_once: %s\n", e.msg);
	return NULL;
}

/* Each notifier's round at now, all at the same moment (one thread each). */
static void race_round(struct notify *const *ns, int64_t now)
{
	pthread_barrier_t start;
	pthread_t t[RACERS];
	struct timer_racer r[RACERS];

	pthread_barrier_init(&start, NULL, RACERS);
	for (int i = 0; i < RACERS; i++) {
		r[i] = (struct timer_racer){ ns[i], &start, now, 0 };
		pthread_create(&t[i], NULL, race_timers, &r[i]);
	}
	for (int i = 0; i < RACERS; i++) {
		pthread_join(t[i], NULL);
		CU_ASSERT_EQUAL(r[i].rc, 0);
	}
	pthread_barrier_destroy(&start);
}

/* How many games have exactly one row of event, and how many more than one. */
static void count_once(struct store *s, const int64_t *ids, int nids, const char *event, int *once, int *twice)
{
	struct store_conn *conn;
	struct err e = {0};

	*once = *twice = 0;
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(s, &conn, &e), 0);
	for (int i = 0; i < nids; i++) {
		int count = 0;
		CU_ASSERT_EQUAL(store_outbox_count(conn, ids[i], event, &count, &e), 0);
		*once += count == 1;
		*twice += count > 1;
	}
	store_read_release(conn);
}

/*
 * Several daemons' notifiers running their rounds at the very same moment
 * on many due reminders, then many missed deadlines: each reminder and
 * each deadline is handled once in all. The timers are not idempotent by
 * themselves (a round reads what is due, then queues and flags each one):
 * without the one leader (store_lead), every notifier that read the same
 * due row would queue it again.
 */
static void test_pg__timers_race_once(void)
{
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}],"
			   "\"clock\":{\"mode\":\"per_turn\",\"turn_minutes\":1,\"timeout\":\"notify\"}}";
	struct ht_daemon c = {0};
	struct store *s[RACERS] = {0};
	struct notify *ns[RACERS] = {0};
	struct buf out = BUF_INIT;
	struct ht_resp r;
	struct err e = {0};
	char other[512], token[64], dir[RACERS][96];
	int64_t ids[RACE_GAMES], created;
	int once, twice;

	CU_ASSERT_EQUAL_FATAL(ht_pg_database(other, sizeof(other)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_start_db(&c, other, NULL), 0);
	CU_ASSERT_EQUAL(ht_cli(&c, "user add admin@example.org --admin", &out), 0);
	ht_last_line(&out, token, sizeof(token));
	buf_release(&out);
	created = (int64_t)time(NULL) * 1000;
	for (int i = 0; i < RACE_GAMES; i++) {
		CU_ASSERT_EQUAL_FATAL(ht_request(&c, "POST", "/api/v1/games", token, NULL, body, strlen(body), &r), 0);
		CU_ASSERT_EQUAL(r.status, 201);
		ids[i] = json_integer_value(json_object_get(r.json, "id"));
		ht_resp_release(&r);
	}
	/* its notifier would lead: the racers below are the only ones */
	ht_stop(&c, SIGTERM);
	for (int i = 0; i < RACERS; i++) {
		struct notify_config cfg = { .transport = NOTIFY_FILE, .mail_dir = dir[i] };
		snprintf(dir[i], sizeof(dir[i]), "%s/racer%d", c.dir, i);
		CU_ASSERT_EQUAL_FATAL(store_open(other, NULL, &s[i], &e), 0);
		CU_ASSERT_EQUAL_FATAL(notify_new(&cfg, s[i], &ns[i], &e), 0);
	}
	/* the stopped daemon's session (and its lock) ends a moment after it hung up: one racer leads then */
	for (int i = 0, lead = 0; i < 500 && !lead; i++) {
		CU_ASSERT_EQUAL(store_lead(s[i % RACERS], STORE_LEAD_TIMERS, &lead, &e), 0);
		if (!lead)
			pause_ms(10);
	}
	/* 50 s on: past every reminder (a quarter of the minute left), before the deadlines */
	race_round(ns, created + 50 * 1000);
	count_once(s[0], ids, RACE_GAMES, "reminder", &once, &twice);
	CU_ASSERT_EQUAL(once, RACE_GAMES);
	CU_ASSERT_EQUAL(twice, 0);
	/* two minutes on: every deadline missed */
	race_round(ns, created + 120 * 1000);
	race_round(ns, created + 121 * 1000);
	count_once(s[0], ids, RACE_GAMES, "timeout", &once, &twice);
	CU_ASSERT_EQUAL(once, RACE_GAMES);
	CU_ASSERT_EQUAL(twice, 0);
	count_once(s[0], ids, RACE_GAMES, "reminder", &once, &twice);
	CU_ASSERT_EQUAL(once, RACE_GAMES);
	for (int i = 0; i < RACERS; i++) {
		notify_free(ns[i]);
		store_close(s[i]);
	}
	ht_cleanup(&c);
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
	{ "test_pg__outbox_claims_across_daemons", test_pg__outbox_claims_across_daemons },
	{ "test_pg__one_leader_at_a_time", test_pg__one_leader_at_a_time },
	{ "test_pg__deadline_fires_once", test_pg__deadline_fires_once },
	{ "test_pg__timers_race_once", test_pg__timers_race_once },
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
