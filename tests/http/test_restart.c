/* tests/http/test_restart.c: kill turnpostd in the middle of notification retries and start it again: nothing is lost */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "httptest.h"
#include "notify/receiver.h"
#include "testutil.h"

#define SECRET "whsec_dGhpcyBpcyBhIHRlc3Qgc2VjcmV0IGtleSEh"

static struct ht_daemon d;
static struct receiver *rx;
static char admin_token[64];
static char fake_now[32];
static const char *extra[16];

static int suite_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	rx = rx_start(SECRET);
	return rx ? 0 : -1;
}

static int suite_clean(void)
{
	ht_cleanup(&d);
	rx_stop(rx);
	curl_global_cleanup();
	return 0;
}

/* Distinct webhook-ids the receiver accepted, and whether any was accepted twice. */
static int accepted_ids(int *twice)
{
	char seen[RX_MAX][64];
	int n = 0;

	*twice = 0;
	for (int i = 0; i < rx_count(rx); i++) {
		const struct rx_delivery *dl = rx_get(rx, i);
		int known = 0;
		if (dl->status < 200 || dl->status > 299 || !dl->sig_ok)
			continue;
		for (int k = 0; k < n; k++)
			known |= strcmp(seen[k], dl->id) == 0;
		if (known) {
			*twice = 1;
			continue;
		}
		if (n < RX_MAX)
			snprintf(seen[n++], sizeof(seen[0]), "%s", dl->id);
	}
	return n;
}

static void wait_for(int (*ok)(void), int ms)
{
	for (int i = 0; i < ms / 20 && !ok(); i++)
		usleep(20 * 1000);
}

static int two_attempts(void)
{
	return rx_count(rx) >= 2;
}

static int two_accepted(void)
{
	int twice;
	return accepted_ids(&twice) >= 2;
}

static void test_restart__kill_during_retries_loses_nothing(void)
{
	struct buf out = BUF_INIT;
	struct ht_resp r;
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	int n = 0, twice = 1;

	/* the daemon's clock is fixed, so retries fall due only when we say so */
	snprintf(fake_now, sizeof(fake_now), "%lld", (long long)time(NULL) * 1000);
	setenv("TURNPOST_FAKE_NOW_MS", fake_now, 1);
	extra[n++] = "--mail-transport";
	extra[n++] = "webhook";
	extra[n++] = "--webhook-url";
	extra[n++] = rx_url(rx);
	extra[n++] = "--webhook-secret";
	extra[n++] = SECRET;
	extra[n++] = "--mail-backoff";
	extra[n++] = "60";
	extra[n++] = "--mail-timeout";
	extra[n++] = "5";
	extra[n] = NULL;
	/* the first delivery fails, the second hangs: the daemon dies with one row failed and one in flight */
	rx_push(rx, RX_500, 0, 0);
	rx_push(rx, RX_HANG, 0, 4000);
	CU_ASSERT_EQUAL_FATAL(ht_start(&d, extra), 0);
	CU_ASSERT_EQUAL(ht_cli(&d, "user add admin@example.org --admin", &out), 0);
	ht_last_line(&out, admin_token, sizeof(admin_token));
	buf_release(&out);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", "/api/v1/games", admin_token, NULL, body, strlen(body), &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	ht_resp_release(&r);
	wait_for(two_attempts, 20000);
	CU_ASSERT_EQUAL_FATAL(rx_count(rx), 2);
	CU_ASSERT_EQUAL(accepted_ids(&twice), 0);
	/* no goodbye: SIGKILL while a delivery hangs and another waits for its retry */
	CU_ASSERT_EQUAL(ht_stop(&d, SIGKILL), 128 + SIGKILL);

	/* an hour later (past every back-off), the same database */
	snprintf(fake_now, sizeof(fake_now), "%lld", (long long)time(NULL) * 1000 + 3600 * 1000);
	setenv("TURNPOST_FAKE_NOW_MS", fake_now, 1);
	CU_ASSERT_EQUAL_FATAL(ht_restart(&d), 0);
	unsetenv("TURNPOST_FAKE_NOW_MS");
	wait_for(two_accepted, 20000);
	CU_ASSERT_EQUAL(accepted_ids(&twice), 2);
	CU_ASSERT_EQUAL(twice, 0);
	/* and nothing more arrives: each invitation exactly once */
	usleep(300 * 1000);
	CU_ASSERT_EQUAL(accepted_ids(&twice), 2);
	CU_ASSERT_EQUAL(twice, 0);
	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
}


struct move_call {
	struct ht_daemon *d;
	char path[64];
	const char *token;
	const char *body;
	struct ht_resp r;
	int rc;
};

static void *post_move(void *arg)
{
	struct move_call *m = arg;

	m->rc = ht_request(m->d, "POST", m->path, m->token, NULL, m->body, strlen(m->body), &m->r);
	return NULL;
}

/*
 * A move waits for its sync without holding a server thread; when the disk
 * fails that sync, the move gets the store's error, and a stop meanwhile
 * waits for that answer instead of dropping the connection.
 */
static void test_restart__move_waiting_on_a_failing_disk(void)
{
	struct ht_daemon d2;
	struct buf out = BUF_INIT;
	struct ht_resp r;
	struct move_call m = { .d = &d2, .body = "{\"moves\":[\"add 2\"]}" };
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}";
	char token[64], seat0[64];
	pthread_t th;

	setenv("TURNPOST_TEST_SYNC_DELAY_MS", "600", 1);
	CU_ASSERT_EQUAL_FATAL(ht_start(&d2, NULL), 0);
	unsetenv("TURNPOST_TEST_SYNC_DELAY_MS");
	CU_ASSERT_EQUAL(ht_cli(&d2, "user add admin@example.org --admin", &out), 0);
	ht_last_line(&out, token, sizeof(token));
	buf_release(&out);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d2, "POST", "/api/v1/games", token, NULL, body, strlen(body), &r), 0);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	snprintf(m.path, sizeof(m.path), "/api/v1/games/%lld/moves",
		 (long long)json_integer_value(json_object_get(r.json, "id")));
	snprintf(seat0, sizeof(seat0), "%s",
		 json_string_value(json_object_get(json_array_get(json_object_get(r.json, "seats"), 0), "token")));
	ht_resp_release(&r);
	m.token = seat0;
	/* a first move goes through as usual */
	CU_ASSERT_EQUAL_FATAL(ht_request(&d2, "POST", m.path, seat0, NULL, "{\"moves\":[\"add 1\"]}", 19, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r.json, "move_count")), 1);
	ht_resp_release(&r);
	/* the next sync takes 600 ms and then fails; a move waits for it, and the daemon is told to stop */
	CU_ASSERT_EQUAL(kill(d2.pid, SIGUSR2), 0);
	usleep(100 * 1000);
	pthread_create(&th, NULL, post_move, &m);
	usleep(200 * 1000);
	CU_ASSERT_EQUAL(ht_stop(&d2, SIGTERM), 0);
	pthread_join(th, NULL);
	CU_ASSERT_EQUAL_FATAL(m.rc, 0);
	CU_ASSERT_EQUAL(m.r.status, 503);
	CU_ASSERT(m.r.json && strstr(json_string_value(json_object_get(m.r.json, "detail")),
				     "the disk failed to confirm a write") != NULL);
	ht_resp_release(&m.r);
	ht_cleanup(&d2);
}


/* ---- a stop in the middle of a stream of moves ---- */

#define STREAMS 16

struct stream {
	int port;
	int64_t game;
	char token[64];
	int acked;       /* 200 answers */
	int other;       /* any other answer */
};

static size_t discard(char *p, size_t size, size_t n, void *u)
{
	(void)p;
	(void)u;
	return size * n;
}

/* Post moves on one keep-alive connection until the server is gone. */
static void *stream_moves(void *arg)
{
	struct stream *st = arg;
	CURL *curl = curl_easy_init();
	struct curl_slist *hl = NULL;
	char url[128], auth[128];

	if (!curl)
		return NULL;
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/api/v1/games/%lld/moves", st->port, (long long)st->game);
	snprintf(auth, sizeof(auth), "Authorization: Bearer %s", st->token);
	hl = curl_slist_append(hl, auth);
	hl = curl_slist_append(hl, "Content-Type: application/json");
	hl = curl_slist_append(hl, "Prefer: return=minimal");
	hl = curl_slist_append(hl, "Expect:");
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hl);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "{\"moves\":[\"add 1\"]}");
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	for (int i = 0; i < 1000000; i++) {
		long code = 0;

		if (curl_easy_perform(curl) != CURLE_OK)
			break;
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
		if (code == 200)
			st->acked++;
		else
			st->other++;
	}
	curl_slist_free_all(hl);
	curl_easy_cleanup(curl);
	return NULL;
}

/*
 * SIGTERM while clients keep posting moves on keep-alive connections: a
 * request that arrives during the stop must not leave a suspended
 * connection behind (libmicrohttpd aborts the process then). The daemon
 * exits cleanly, and every acknowledged move is in the database.
 */
static void test_restart__stop_during_a_stream_of_moves(void)
{
	static struct stream streams[STREAMS];
	struct ht_daemon d3;
	struct buf out = BUF_INIT;
	struct ht_resp r;
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Solo\"}]}";
	char token[64];
	pthread_t th[STREAMS];

	CU_ASSERT_EQUAL_FATAL(ht_start(&d3, NULL), 0);
	CU_ASSERT_EQUAL(ht_cli(&d3, "user add admin@example.org --admin", &out), 0);
	ht_last_line(&out, token, sizeof(token));
	buf_release(&out);
	for (int i = 0; i < STREAMS; i++) {
		CU_ASSERT_EQUAL_FATAL(ht_request(&d3, "POST", "/api/v1/games", token, NULL, body, strlen(body), &r), 0);
		CU_ASSERT_EQUAL_FATAL(r.status, 201);
		streams[i].port = d3.port;
		streams[i].game = json_integer_value(json_object_get(r.json, "id"));
		snprintf(streams[i].token, sizeof(streams[i].token), "%s",
			 json_string_value(json_object_get(json_array_get(json_object_get(r.json, "seats"), 0), "token")));
		ht_resp_release(&r);
	}
	for (int i = 0; i < STREAMS; i++)
		pthread_create(&th[i], NULL, stream_moves, &streams[i]);
	usleep(400 * 1000);
	CU_ASSERT_EQUAL(ht_stop(&d3, SIGTERM), 0);
	for (int i = 0; i < STREAMS; i++)
		pthread_join(th[i], NULL);
	/* every answer before the stop was a stored move; each game has them all, and at most one more */
	CU_ASSERT_EQUAL_FATAL(ht_restart(&d3), 0);
	for (int i = 0; i < STREAMS; i++) {
		char path[96];
		json_int_t count;

		CU_ASSERT_EQUAL(streams[i].other, 0);
		CU_ASSERT(streams[i].acked > 0);
		snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)streams[i].game);
		CU_ASSERT_EQUAL_FATAL(ht_request(&d3, "GET", path, streams[i].token, NULL, NULL, 0, &r), 0);
		count = json_integer_value(json_object_get(r.json, "move_count"));
		CU_ASSERT(count >= streams[i].acked && count <= streams[i].acked + 1);
		ht_resp_release(&r);
	}
	CU_ASSERT_EQUAL(ht_stop(&d3, SIGTERM), 0);
	ht_cleanup(&d3);
}

static CU_TestInfo restart_cases[] = {
	{ "test_restart__kill_during_retries_loses_nothing", test_restart__kill_during_retries_loses_nothing },
	{ "test_restart__move_waiting_on_a_failing_disk", test_restart__move_waiting_on_a_failing_disk },
	{ "test_restart__stop_during_a_stream_of_moves", test_restart__stop_during_a_stream_of_moves },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("restart", suite_init, suite_clean, restart_cases);
	return 0;
}
