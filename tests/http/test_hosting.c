/* tests/http/test_hosting.c: hosting a daemon for years: a base URL with a path behind a proxy, retention */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "httptest.h"
#include "store/store.h"
#include "testutil.h"
#include "util/token.h"

#define DAY_MS (86400LL * 1000)

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* An admin (token into admin) and a counting-race game for Ann and Bob; the game id, Ann's and Bob's seat tokens. */
static int64_t game_for_two(const struct ht_daemon *d, char admin[64], char ann[64], char bob[64])
{
	struct buf out = BUF_INIT;
	struct ht_resp r;
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	int64_t id = 0;

	if (ht_cli(d, "user add admin@example.org --name Admin --admin", &out) != 0) {
		buf_release(&out);
		return 0;
	}
	ht_last_line(&out, admin, 64);
	buf_release(&out);
	if (ht_api(d, "POST", "/api/v1/games", admin, body, &r) < 0)
		return 0;
	if (r.status == 201) {
		const json_t *seats = json_object_get(r.json, "seats");
		id = json_integer_value(json_object_get(r.json, "id"));
		snprintf(ann, 64, "%s", json_string_value(json_object_get(json_array_get(seats, 0), "token")));
		snprintf(bob, 64, "%s", json_string_value(json_object_get(json_array_get(seats, 1), "token")));
	}
	ht_resp_release(&r);
	return id;
}

/* POST steps for a seat with an Idempotency-Key (NULL: none); the HTTP status. */
static long post_steps(const struct ht_daemon *d, int64_t id, const char *seat_token, const char *key,
		       const char *body)
{
	char path[96], hdr[200];
	const char *headers[] = { "Content-Type: application/json", hdr, NULL };
	struct ht_resp r;
	long status;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	snprintf(hdr, sizeof(hdr), "Idempotency-Key: %s", key ? key : "");
	if (!key)
		headers[1] = NULL;
	if (ht_request(d, "POST", path, seat_token, headers, body, strlen(body), &r) < 0)
		return -1;
	status = r.status;
	ht_resp_release(&r);
	return status;
}

/* How many .eml files the daemon's mail directory holds. */
static int mail_files(const struct ht_daemon *d)
{
	char dir[128];
	DIR *dp;
	struct dirent *de;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/var/mail", d->dir);
	if (!(dp = opendir(dir)))
		return 0;
	while ((de = readdir(dp)))
		n += strstr(de->d_name, ".eml") != NULL;
	closedir(dp);
	return n;
}

/* Whether the daemon's log holds needle, waiting up to ms for it. */
static int log_has(const struct ht_daemon *d, const char *needle, long ms)
{
	for (long waited = 0; waited <= ms; waited += 100) {
		FILE *f = fopen(d->log, "r");
		char line[1024];
		int found = 0;

		while (f && !found && fgets(line, sizeof(line), f))
			found = strstr(line, needle) != NULL;
		if (f)
			fclose(f);
		if (found)
			return 1;
		sleep_ms(100);
	}
	return 0;
}

/* The game's notifications by state: how many are in state. */
static int outbox_in(const struct ht_daemon *d, int64_t id, const char *state)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct store_outbox_row *rows = NULL;
	struct err e = {0};
	int n = 0, count = 0;

	if (store_open(d->db, NULL, &s, &e) < 0)
		return -1;
	if (store_read_acquire(s, &c, &e) == 0) {
		if (store_outbox_list_game(c, id, &rows, &n, &e) == 0)
			for (int i = 0; i < n; i++)
				count += strcmp(rows[i].state, state) == 0;
		store_read_release(c);
	}
	store_outbox_rows_free(rows, n);
	store_close(s);
	return count;
}

/* Whether an inbound mail's Message-ID is still recorded. */
static int inbound_kept(const struct ht_daemon *d, const char *message_id)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct err e = {0};
	char *status = NULL, *outcome = NULL;
	int kept = -1;

	if (store_open(d->db, NULL, &s, &e) < 0)
		return -1;
	if (store_read_acquire(s, &c, &e) == 0) {
		kept = store_inbound_mail_get(c, message_id, &status, &outcome, &e) == 0;
		store_read_release(c);
	}
	free(status);
	free(outcome);
	store_close(s);
	return kept;
}

/* Rows the daemon never delivers or handles itself: an inbound mail, a pending and a dead notification, at `at`. */
static int plant(const struct ht_daemon *d, int64_t game_id, int64_t at)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct err e = {0};
	int64_t pending = 0, dead = 0;
	int rc;

	if (store_open(d->db, NULL, &s, &e) < 0)
		return -1;
	if ((rc = store_write_begin(s, &c, &e)) == 0) {
		rc = store_inbound_mail_put(c, "<old-reply@example.org>", 0, game_id, 0, "ann@example.org", "played", "{}",
					    at, &e);
		/* no recipient: would be skipped at once if due, so due far in the future */
		if (rc == 0)
			rc = store_outbox_add(c, "your_turn", game_id, 0, 0, NULL, at + 3650 * DAY_MS, &pending, &e);
		if (rc == 0)
			rc = store_outbox_add(c, "your_turn", game_id, 1, 0, NULL, at, &dead, &e);
		if (rc == 0)
			rc = store_outbox_finish(c, dead, STORE_OUTBOX_DEAD, at, "550 gone", &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	store_close(s);
	return rc;
}

/* Restart the daemon with its clock `days` ahead; it prunes in its first round, two seconds after the start. */
static int restart_ahead(struct ht_daemon *d, int64_t base, int days)
{
	char fake[32];
	int rc;

	snprintf(fake, sizeof(fake), "%lld", (long long)(base + days * DAY_MS));
	if (ht_stop(d, SIGTERM) != 0)
		return -1;
	setenv("TURNPOST_FAKE_NOW_MS", fake, 1);
	rc = ht_restart(d);
	unsetenv("TURNPOST_FAKE_NOW_MS");
	return rc;
}

/*
 * Idempotency answers (7 days), delivered notifications, inbound mails and
 * mail files (30 days) go when they are older than their retention, each by
 * its own age; pending and dead notifications, the game and its log stay,
 * and verify passes after the prune.
 */
static void test_hosting__retention_prunes_what_grows(void)
{
	struct ht_daemon d = {0};
	char admin[64], ann[64], bob[64], path[96];
	struct buf out = BUF_INIT;
	struct ht_resp r;
	int64_t id, base = now_ms();
	int sent, files;

	CU_ASSERT_FATAL(ht_start(&d, NULL) == 0);
	id = game_for_two(&d, admin, ann, bob);
	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(post_steps(&d, id, ann, "ann-turn-1", "{\"moves\":[\"add 2\",\"end\"]}"), 200);
	CU_ASSERT_EQUAL(post_steps(&d, id, bob, "bob-turn-1", "{\"moves\":[\"add 1\",\"end\"]}"), 200);
	/* Bob's key again, on Ann's turn: the stored answer, no step */
	CU_ASSERT_EQUAL(post_steps(&d, id, bob, "bob-turn-1", "{\"moves\":[\"add 1\",\"end\"]}"), 200);
	CU_ASSERT_EQUAL(plant(&d, id, base), 0);
	/* the invitations and "your turn"s delivered into files */
	for (int i = 0; i < 100 && (outbox_in(&d, id, "pending") > 1 || mail_files(&d) < 2); i++)
		sleep_ms(100);
	sent = outbox_in(&d, id, "sent");
	files = mail_files(&d);
	/* two invitations at least (a "your turn" overtaken by the next turn is skipped, not sent) */
	CU_ASSERT(sent >= 2);
	CU_ASSERT(files >= 2);

	/* ten days on: only the idempotency answers are past their time */
	CU_ASSERT_FATAL(restart_ahead(&d, base, 10) == 0);
	CU_ASSERT(log_has(&d, "retention: pruned 2 idempotency answers, 0 delivered notifications, 0 inbound mails, "
			  "0 mail files", 10000));
	CU_ASSERT_EQUAL(outbox_in(&d, id, "sent"), sent);
	CU_ASSERT_EQUAL(mail_files(&d), files);
	CU_ASSERT_EQUAL(inbound_kept(&d, "<old-reply@example.org>"), 1);
	/* the key is forgotten: the same request is a new one now, and it is not Bob's turn */
	CU_ASSERT_NOT_EQUAL(post_steps(&d, id, bob, "bob-turn-1", "{\"moves\":[\"add 1\",\"end\"]}"), 200);

	/* sixty days on: the delivered notifications, the inbound mail and the mail files go too */
	CU_ASSERT_FATAL(restart_ahead(&d, base, 60) == 0);
	CU_ASSERT(log_has(&d, "delivered notifications, 1 inbound mails, ", 10000));
	CU_ASSERT_EQUAL(outbox_in(&d, id, "sent"), 0);
	CU_ASSERT_EQUAL(outbox_in(&d, id, "skipped"), 0);
	CU_ASSERT_EQUAL(outbox_in(&d, id, "dead"), 1);
	CU_ASSERT_EQUAL(outbox_in(&d, id, "pending"), 1);
	CU_ASSERT_EQUAL(inbound_kept(&d, "<old-reply@example.org>"), 0);
	CU_ASSERT_EQUAL(mail_files(&d), 0);
	/* what verify and replay need is all there */
	CU_ASSERT_EQUAL(ht_cli(&d, "verify", &out), 0);
	CU_ASSERT(strstr(out.data, "0 failed") != NULL);
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, ann, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r.json, "move_count")), 4);
	ht_resp_release(&r);
	buf_release(&out);
	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
	ht_cleanup(&d);
}

/* Retention 0 keeps a kind for ever. */
static void test_hosting__retention_zero_keeps(void)
{
	static const char *const keep[] = { "--retain-idempotency-days", "0", "--retain-outbox-days", "0",
					    "--retain-inbound-days", "0", "--retain-mail-files-days", "0", NULL };
	struct ht_daemon d = {0};
	char admin[64], ann[64], bob[64];
	int64_t id, base = now_ms();
	int sent, files;

	CU_ASSERT_FATAL(ht_start(&d, keep) == 0);
	id = game_for_two(&d, admin, ann, bob);
	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(post_steps(&d, id, ann, "k1", "{\"moves\":[\"add 2\",\"end\"]}"), 200);
	CU_ASSERT_EQUAL(plant(&d, id, base), 0);
	for (int i = 0; i < 100 && (outbox_in(&d, id, "pending") > 1 || mail_files(&d) < 2); i++)
		sleep_ms(100);
	sent = outbox_in(&d, id, "sent");
	files = mail_files(&d);
	CU_ASSERT(sent >= 2);
	CU_ASSERT(files >= 2);
	CU_ASSERT_FATAL(restart_ahead(&d, base, 400) == 0);
	sleep_ms(3000);
	CU_ASSERT_FALSE(log_has(&d, "retention: pruned", 0));
	CU_ASSERT_EQUAL(outbox_in(&d, id, "sent"), sent);
	CU_ASSERT_EQUAL(mail_files(&d), files);
	CU_ASSERT_EQUAL(inbound_kept(&d, "<old-reply@example.org>"), 1);
	CU_ASSERT_EQUAL(post_steps(&d, id, ann, "k1", "{\"moves\":[\"add 2\",\"end\"]}"), 200);
	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
	ht_cleanup(&d);
}

static int suite_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	token_init();
	return 0;
}

static int suite_clean(void)
{
	curl_global_cleanup();
	return 0;
}

static CU_TestInfo hosting_cases[] = {
	{ "test_hosting__retention_prunes_what_grows", test_hosting__retention_prunes_what_grows },
	{ "test_hosting__retention_zero_keeps", test_hosting__retention_zero_keeps },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("hosting", suite_init, suite_clean, hosting_cases);
	return 0;
}
