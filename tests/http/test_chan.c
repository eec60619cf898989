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
	/* a retry a second after a failure, not 30 */
	static const char *const extra[] = { "--allow-loopback-destinations", "--base-url", "https://games.example.org",
					     "--mail-backoff", "1", NULL };
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

/* PUT game id's channel of kind as token: the status; the code into code (may be NULL), "dashboard" into *dash. */
static long put_game(int64_t id, const char *kind, const char *token, const char *body, char *code, size_t size,
		     int *dash)
{
	char path[128];
	struct ht_resp r;
	long status;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/channels/%s", (long long)id, kind);
	if (ht_api(&d, "PUT", path, token, body, &r) < 0)
		return -1;
	status = r.status;
	if (code)
		snprintf(code, size, "%s", json_string_value(json_object_get(r.json, "code")) ?: "");
	if (dash)
		*dash = json_is_true(json_object_get(r.json, "dashboard"));
	ht_resp_release(&r);
	return status;
}

static long put(const char *kind, const char *token, const char *body, char *code, size_t size)
{
	return put_game(game, kind, token, body, code, size, NULL);
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

/*
 * The daemon's log into out, once it holds want (at most 10 s): the log line
 * of a delivery is written after the receiver answered, so a test that saw
 * the request may be a moment ahead of it.
 */
static void read_log(const char *want, struct buf *out)
{
	struct timespec t = { 0, 50 * 1000000L };

	for (int i = 0; i < 200; i++) {
		FILE *f = fopen(d.log, "rb");
		char chunk[4096];
		size_t n;

		buf_reset(out);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(out, chunk, n);
		fclose(f);
		if (out->data && strstr(out->data, want))
			return;
		nanosleep(&t, NULL);
	}
}

/* Ann's turn through the API reaches the Discord channel once, mentioning nobody who recorded no id. */
static void test_chan_http__turn_reaches_the_channel(void)
{
	char path[128];
	struct ht_resp r;
	struct buf log = BUF_INIT;

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
	read_log("chat message", &log);
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
	/* the dashboard's checkbox for Discord and Matrix, and why not for Slack */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "name=\"dashboard\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "Slack's webhooks cannot edit a message"));
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
	/* ticked: the Discord channel keeps a dashboard, as the API and the page say */
	snprintf(form, sizeof(form), "csrf=%s&kind=discord&webhook_url=%s%%2Fapi%%2Fwebhooks%%2F9%%2Fpage-token&dashboard=1",
		 csrf, crx_base(x));
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/channels/discord", (long long)game);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, ann, NULL, &r), 0);
	CU_ASSERT(json_is_true(json_object_get(r.json, "dashboard")));
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/games/%lld", (long long)game);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, cookie, NULL, &r), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "as one message edited each turn"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "value=\"1\" checked"));
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

/* ---- the dashboard: one message per game, edited ---- */

/* A new game of Ann and Bob, created by Ann; its id. */
static int64_t new_game(void)
{
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	struct ht_resp r;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/games", ann, body, &r), 0);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	id = json_integer_value(json_object_get(r.json, "id"));
	ht_resp_release(&r);
	return id;
}

static void move(int64_t id, const char *token)
{
	char path[128];
	struct ht_resp r;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, token, "{\"moves\":[\"add 1\",\"end\"]}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
}

/* Wait (at most 10 s) until rx has seen n requests; then a little longer, so that one too many shows. */
static void wait_for(struct chatrx *rx, int n)
{
	struct timespec t = { 0, 50 * 1000000L };

	for (int i = 0; i < 200 && crx_count(rx) < n; i++)
		nanosleep(&t, NULL);
	t.tv_nsec = 300 * 1000000L;
	nanosleep(&t, NULL);
	CU_ASSERT_EQUAL_FATAL(crx_count(rx), n);
}

static const char *content(const struct crx_request *q)
{
	const char *c = json_string_value(json_object_get(q->json, "content"));
	return c ? c : "";
}

/* q is a new Discord dashboard message (POST ?wait=true, to hook unless NULL) saying it is Ann's turn in game id. */
static void posted(const struct crx_request *q, const char *hook, int64_t id)
{
	char want[128];

	CU_ASSERT_STRING_EQUAL(q->method, "POST");
	if (hook)
		CU_ASSERT_STRING_EQUAL(q->path, hook);
	CU_ASSERT_STRING_EQUAL(q->wait, "true");
	snprintf(want, sizeof(want), "Ann's turn in Counting Race (test game) #%lld", (long long)id);
	CU_ASSERT_PTR_NOT_NULL(strstr(content(q), want));
}

/* q is the edit (PATCH) of the dashboard message msg of the webhook hook; that path into path. */
static void edited(const struct crx_request *q, const char *hook, const char *msg, char *path, size_t size)
{
	CU_ASSERT_STRING_EQUAL(q->method, "PATCH");
	snprintf(path, size, "%s/messages/%s", hook, msg);
	CU_ASSERT_STRING_EQUAL(q->path, path);
}

static void test_chan_http__dashboard_discord(void)
{
	struct chatrx *rx = crx_start();
	char body[512], hook[128], want[128], code[64];
	const struct crx_request *q;
	struct ht_resp r;
	int64_t id = new_game();
	int dash = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(rx);
	/* not a boolean; Slack cannot edit: refused, and says so */
	CU_ASSERT_EQUAL(put_game(id, "discord", ann, "{\"webhook_url\":\"https://8.8.8.8/x\",\"dashboard\":\"yes\"}", code,
			       sizeof(code), NULL), 400);
	snprintf(body, sizeof(body), "{\"webhook_url\":\"%s/slack-hook\",\"dashboard\":true}", crx_base(rx));
	CU_ASSERT_EQUAL(put_game(id, "slack", ann, body, code, sizeof(code), NULL), 422);
	CU_ASSERT_STRING_EQUAL(code, "dashboard_unsupported");
	snprintf(hook, sizeof(hook), "/api/webhooks/88/dash-token");
	snprintf(body, sizeof(body), "{\"webhook_url\":\"%s%s\",\"dashboard\":true}", crx_base(rx), hook);
	CU_ASSERT_EQUAL(put_game(id, "discord", ann, body, NULL, 0, &dash), 200);
	CU_ASSERT(dash);
	{
		char path[128];
		snprintf(path, sizeof(path), "/api/v1/games/%lld/channels/discord", (long long)id);
		CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, ann, NULL, &r), 0);
		CU_ASSERT(json_is_true(json_object_get(r.json, "dashboard")));
		ht_resp_release(&r);
	}
	/* posted at once, with ?wait=true to learn its id */
	wait_for(rx, 1);
	posted(crx_get(rx, 0), hook, id);
	/* a turn: the same message, edited (PATCH .../messages/1001), nobody pinged */
	move(id, ann);
	wait_for(rx, 2);
	q = crx_get(rx, 1);
	edited(q, hook, "1001", want, sizeof(want));
	snprintf(want, sizeof(want), "Bob's turn in Counting Race (test game) #%lld", (long long)id);
	CU_ASSERT_PTR_NOT_NULL(strstr(content(q), want));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(json_object_get(q->json, "allowed_mentions"), "parse")), 0);
	CU_ASSERT_PTR_NULL(json_object_get(json_object_get(q->json, "allowed_mentions"), "users"));
	/* someone deletes it in Discord: the next edit finds it gone (404) and posts a new one */
	crx_delete(rx, "1001");
	move(id, bob);
	wait_for(rx, 4);
	CU_ASSERT_STRING_EQUAL(crx_get(rx, 2)->method, "PATCH");
	CU_ASSERT_EQUAL(crx_get(rx, 2)->status, 404);
	posted(crx_get(rx, 3), NULL, id);
	/* and that one is edited from then on */
	move(id, ann);
	wait_for(rx, 5);
	edited(crx_get(rx, 4), hook, "1002", want, sizeof(want));
	/* Discord fails once (503): the same edit again after the back-off, and once only */
	crx_push(rx, 503, 0, NULL);
	move(id, bob);
	wait_for(rx, 7);
	CU_ASSERT_EQUAL(crx_get(rx, 5)->status, 503);
	for (int i = 5; i < 7; i++) {
		q = crx_get(rx, i);
		CU_ASSERT_STRING_EQUAL(q->method, "PATCH");
		CU_ASSERT_STRING_EQUAL(q->path, want);
		CU_ASSERT_STRING_EQUAL(content(q), content(crx_get(rx, 5)));
	}
	CU_ASSERT_EQUAL(crx_get(rx, 6)->status, 200);
	/* the webhook URL never in the log */
	{
		struct buf log = BUF_INIT;
		read_log("dashboard message", &log);
		CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "dashboard message"));
		CU_ASSERT_PTR_NULL(strstr(log.data, "dash-token"));
		buf_release(&log);
	}
	crx_stop(rx);
}

static void test_chan_http__dashboard_matrix(void)
{
	struct chatrx *rx = crx_start();
	char body[512], want[160], first[128];
	const struct crx_request *q;
	const json_t *rel, *nc;
	int64_t id = new_game();

	CU_ASSERT_PTR_NOT_NULL_FATAL(rx);
	snprintf(body, sizeof(body),
		 "{\"homeserver\":\"%s\",\"room_id\":\"!dash:example.org\",\"access_token\":\"syt_dash\","
		 "\"dashboard\":true}", crx_base(rx));
	CU_ASSERT_EQUAL(put_game(id, "matrix", ann, body, NULL, 0, NULL), 200);
	/* sent once: an m.room.message whose event id the homeserver answers */
	wait_for(rx, 1);
	q = crx_get(rx, 0);
	CU_ASSERT_STRING_EQUAL(q->method, "PUT");
	CU_ASSERT_PTR_NOT_NULL(strstr(q->path, "/_matrix/client/v3/rooms/!dash:example.org/send/m.room.message/msg_"));
	CU_ASSERT_STRING_EQUAL(q->auth, "Bearer syt_dash");
	CU_ASSERT_PTR_NULL(json_object_get(q->json, "m.relates_to"));
	snprintf(first, sizeof(first), "$ev-%s", strstr(q->path, "m.room.message/") + strlen("m.room.message/"));
	/* a turn: an edit of that event (m.replace), with the new text in m.new_content */
	move(id, ann);
	wait_for(rx, 2);
	q = crx_get(rx, 1);
	CU_ASSERT_STRING_EQUAL(q->method, "PUT");
	CU_ASSERT_PTR_NOT_NULL(strstr(q->path, "-edit"));
	rel = json_object_get(q->json, "m.relates_to");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(rel, "rel_type")) ?: "", "m.replace");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(rel, "event_id")) ?: "", first);
	nc = json_object_get(q->json, "m.new_content");
	snprintf(want, sizeof(want), "Bob's turn in Counting Race (test game) #%lld", (long long)id);
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(nc, "body")) ?: "", want));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(nc, "msgtype")) ?: "", "m.text");
	CU_ASSERT(strncmp(json_string_value(json_object_get(q->json, "body")) ?: "", "* ", 2) == 0);
	/* deleted in the room: the edit is refused (404), a new event is sent */
	crx_delete(rx, first);
	move(id, bob);
	wait_for(rx, 4);
	CU_ASSERT_EQUAL(crx_get(rx, 2)->status, 404);
	q = crx_get(rx, 3);
	CU_ASSERT_PTR_NULL(json_object_get(q->json, "m.relates_to"));
	CU_ASSERT_PTR_NULL(strstr(q->path, "-edit"));
	crx_stop(rx);
}

static CU_TestInfo cases[] = {
	{ "test_chan_http__game_channel_api", test_chan_http__game_channel_api },
	{ "test_chan_http__turn_reaches_the_channel", test_chan_http__turn_reaches_the_channel },
	{ "test_chan_http__my_destinations", test_chan_http__my_destinations },
	{ "test_chan_http__game_page_form", test_chan_http__game_page_form },
	{ "test_chan_http__account_page_forms", test_chan_http__account_page_forms },
	{ "test_chan_http__dashboard_discord", test_chan_http__dashboard_discord },
	{ "test_chan_http__dashboard_matrix", test_chan_http__dashboard_matrix },
	CU_TEST_INFO_NULL,
};

int tests_register(void)
{
	TESTS_SUITE("chan_http", suite_init, suite_clean, cases);
	return 0;
}
