/* tests/http/test_chan.c: chat channels through the daemon: the API's rights and answers, a message delivered, no secret shown */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <signal.h>

#include "httptest.h"
#include "notify/chatrx.h"
#include "testutil.h"

static struct ht_daemon d;
static struct chatrx *x;
static char ann[64], bob[64];
static int64_t game;

#define SECRET_PATH "/api/webhooks/77/hush-hush-token"

static int suite_init(void)
{
	static const char *const extra[] = { "--allow-loopback-destinations", "--base-url", "https://games.example.org",
					     NULL };
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	struct buf out = BUF_INIT;
	struct ht_resp r;
	int rc;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (!(x = crx_start()) || ht_start(&d, extra) < 0)
		return -1;
	rc = ht_cli(&d, "user add ann@example.org --name Ann", &out);
	ht_last_line(&out, ann, sizeof(ann));
	buf_reset(&out);
	if (rc == 0)
		rc = ht_cli(&d, "user add bob@example.org --name Bob", &out);
	ht_last_line(&out, bob, sizeof(bob));
	buf_release(&out);
	if (rc != 0 || ht_api(&d, "POST", "/api/v1/games", ann, body, &r) < 0)
		return -1;
	game = r.status == 201 ? json_integer_value(json_object_get(r.json, "id")) : 0;
	ht_resp_release(&r);
	return game > 0 ? 0 : -1;
}

static int suite_clean(void)
{
	ht_stop(&d, SIGTERM);
	ht_cleanup(&d);
	crx_stop(x);
	curl_global_cleanup();
	return 0;
}

static long put(const char *kind, const char *token, const char *body, char *code, size_t size)
{
	char path[128];
	struct ht_resp r;
	long status;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/channels/%s", (long long)game, kind);
	if (ht_api(&d, "PUT", path, token, body, &r) < 0)
		return -1;
	status = r.status;
	if (code)
		snprintf(code, size, "%s", json_string_value(json_object_get(r.json, "code")) ?: "");
	ht_resp_release(&r);
	return status;
}

static void test_chan_http__game_channel_api(void)
{
	char body[512], path[128], code[64];
	struct ht_resp r;

	snprintf(body, sizeof(body), "{\"webhook_url\":\"%s%s\"}", crx_base(x), SECRET_PATH);
	/* only the creator; an unknown kind; bodies that are not one; a private address */
	CU_ASSERT_EQUAL(put("discord", bob, body, NULL, 0), 403);
	CU_ASSERT_EQUAL(put("telegram", ann, body, NULL, 0), 404);
	CU_ASSERT_EQUAL(put("discord", ann, "[1]", NULL, 0), 400);
	CU_ASSERT_EQUAL(put("discord", ann, "{\"url\":\"https://8.8.8.8/x\"}", code, sizeof(code)), 400);
	CU_ASSERT_EQUAL(put("discord", ann, "{\"webhook_url\":\"https://169.254.169.254/latest\"}", code, sizeof(code)),
			422);
	CU_ASSERT_STRING_EQUAL(code, "destination_refused");
	CU_ASSERT_EQUAL(put("slack", ann, "{\"webhook_url\":\"https://[::ffff:192.168.0.1]/x\"}", NULL, 0), 422);
	CU_ASSERT_EQUAL(put("discord", ann, body, NULL, 0), 200);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/channels/discord", (long long)game);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, ann, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "hush-hush"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "...oken"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, bob, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", path, bob, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	/* Slack, attached and removed */
	CU_ASSERT_EQUAL(put("slack", ann, body, NULL, 0), 200);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/channels/slack", (long long)game);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", path, ann, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 204);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, ann, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
}

/* Ann's turn through the API reaches the Discord channel once, mentioning nobody who recorded no id. */
static void test_chan_http__turn_reaches_the_channel(void)
{
	char path[128];
	struct ht_resp r;
	struct buf log = BUF_INIT;
	FILE *f;
	char chunk[4096];
	size_t n;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)game);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, ann, "{\"moves\":[\"add 1\",\"add 2\",\"end\"]}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	for (int i = 0; i < 100 && crx_count(x) < 1; i++) {
		struct timespec t = { 0, 50 * 1000000L };
		nanosleep(&t, NULL);
	}
	CU_ASSERT_EQUAL_FATAL(crx_count(x), 1);
	CU_ASSERT_STRING_EQUAL(crx_get(x, 0)->path, SECRET_PATH);
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(crx_get(x, 0)->json, "content")),
				      "Bob's turn in Counting Race (test game) #"));
	/* nothing of the secret in the daemon's log */
	f = fopen(d.log, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&log, chunk, n);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "chat message"));
	CU_ASSERT_PTR_NULL(strstr(log.data, "hush-hush"));
	buf_release(&log);
}

static void test_chan_http__my_destinations(void)
{
	char body[512], path[128];
	struct ht_resp r;
	int64_t id;

	snprintf(body, sizeof(body), "{\"kind\":\"ntfy\",\"url\":\"%s/topic-of-bob\",\"events\":[\"your_turn\"]}",
		 crx_base(x));
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/me/destinations", bob, body, &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	id = json_integer_value(json_object_get(r.json, "id"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/me/destinations", bob,
				     "{\"kind\":\"ntfy\",\"url\":\"https://10.0.0.1/t\"}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 422);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/me/destinations", bob, "{\"kind\":\"fax\"}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/me/destinations/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "PUT", path, bob, "{\"events\":[\"chat\",\"game_over\"]}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "events")), 2);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/destinations", bob, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "destinations")), 1);
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "topic-of-bob"));
	ht_resp_release(&r);
	/* not Ann's to remove */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", path, ann, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", path, bob, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 204);
	ht_resp_release(&r);
}

/* The game page's channel form: the creator sees it and saves through it; a refused address says why. */
static void test_chan_http__game_page_form(void)
{
	char cookie[256], bcookie[256], path[64], csrf[64], form[512];
	struct ht_resp r;

	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "ann@example.org", cookie, sizeof(cookie)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "bob@example.org", bcookie, sizeof(bcookie)), 0);
	snprintf(path, sizeof(path), "/games/%lld", (long long)game);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, bcookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "Chat channels"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "Chat channels"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "Attached: 127.0.0.1 ...oken"));
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "hush-hush"));
	CU_ASSERT_EQUAL(ht_form_value(&r, "csrf", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/games/%lld/channels", (long long)game);
	snprintf(form, sizeof(form), "csrf=%s&kind=slack&webhook_url=https%%3A%%2F%%2F10.0.0.3%%2Fhook", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 422);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "10.0.0.3"));
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&kind=slack&webhook_url=%s%%2Fslack-hook-secret", csrf, crx_base(x));
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&remove=slack", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, bcookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
}

/* The account page: chat ids saved; a signed webhook added shows its secret once; removed. */
static void test_chan_http__account_page_forms(void)
{
	char cookie[256], csrf[64], form[512];
	struct ht_resp r;

	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "bob@example.org", cookie, sizeof(cookie)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "Chat apps"));
	CU_ASSERT_EQUAL(ht_form_value(&r, "csrf", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&discord=80351110224678912&slack=&matrix=%%40bob%%3Aexample.org", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account/chat-ids", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&discord=%%40everyone", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account/chat-ids", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/preferences", bob, NULL, &r), 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(r.json, "chat_ids"), "discord")),
			       "80351110224678912");
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&kind=webhook&url=%s%%2Fbobs-hook&dest_your_turn=1&dest_chat=1", csrf,
		 crx_base(x));
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account/destinations", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "whsec_"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", cookie, NULL, &r), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "Signed webhook 127.0.0.1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "My turn, Chat"));
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "whsec_"));
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "bobs-hook"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/destinations", bob, NULL, &r), 0);
	{
		char path[96];
		json_int_t id = json_integer_value(
			json_object_get(json_array_get(json_object_get(r.json, "destinations"), 0), "id"));
		ht_resp_release(&r);
		snprintf(path, sizeof(path), "/account/destinations/%lld/remove", (long long)id);
		snprintf(form, sizeof(form), "csrf=%s", csrf);
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
		CU_ASSERT_EQUAL(r.status, 303);
		ht_resp_release(&r);
	}
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/destinations", bob, NULL, &r), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "destinations")), 0);
	ht_resp_release(&r);
}

static CU_TestInfo cases[] = {
	{ "test_chan_http__game_channel_api", test_chan_http__game_channel_api },
	{ "test_chan_http__turn_reaches_the_channel", test_chan_http__turn_reaches_the_channel },
	{ "test_chan_http__my_destinations", test_chan_http__my_destinations },
	{ "test_chan_http__game_page_form", test_chan_http__game_page_form },
	{ "test_chan_http__account_page_forms", test_chan_http__account_page_forms },
	CU_TEST_INFO_NULL,
};

int tests_register(void)
{
	TESTS_SUITE("chan_http", suite_init, suite_clean, cases);
	return 0;
}
