/* tests/http/test_restart.c: kill turnpostd in the middle of notification retries and start it again: nothing is lost */
/* SPDX-License-Identifier: MIT */
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

static void last_line(const struct buf *b, char *out, size_t size)
{
	const char *end = b->data + b->len, *start;

	while (end > b->data && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	start = end;
	while (start > b->data && start[-1] != '\n')
		start--;
	snprintf(out, size, "%.*s", (int)(end - start), start);
}

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
	last_line(&out, admin_token, sizeof(admin_token));
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

static CU_TestInfo restart_cases[] = {
	{ "test_restart__kill_during_retries_loses_nothing", test_restart__kill_during_retries_loses_nothing },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("restart", suite_init, suite_clean, restart_cases);
	return 0;
}
