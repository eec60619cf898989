/* tests/http/test_push_delivery.c: web push through the daemon: a turn delivered, an expired subscription removed, one refused at send */
/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "http/httptest.h"
#include "notify/push_service.h"
#include "testutil.h"
#include "util/token.h"

static struct ht_daemon d;
static struct push_service *ps;
static char ann[64], bob[64];
static int64_t game;

static int suite_init(void)
{
	/* the push service is on loopback: the setting lets the daemon reach it */
	static const char *const extra[] = { "--allow-loopback-destinations", "--base-url", "https://games.example.org",
					     NULL };

	curl_global_init(CURL_GLOBAL_DEFAULT);
	token_init();
	if (!(ps = ps_start()) || ht_start(&d, extra) < 0)
		return -1;
	return ht_two_players(&d, ann, bob, &game);
}

static int suite_clean(void)
{
	ht_stop(&d, SIGTERM);
	ht_cleanup(&d);
	ps_stop(ps);
	curl_global_cleanup();
	return 0;
}

static void nap_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

/* Wait (up to 20 s: sanitizers, a loaded machine) until the push service has had want requests. */
static int wait_requests(int want)
{
	for (int i = 0; i < 400 && ps_count(ps) < want; i++)
		nap_ms(50);
	return ps_count(ps);
}

static void move(const char *token, const char *moves)
{
	char path[96], body[128];
	struct ht_resp r;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)game);
	snprintf(body, sizeof(body), "{\"moves\":%s}", moves);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, token, body, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
}

/* Bob's subscriptions as the API lists them (new), and the server's key into key. */
static json_t *bobs_subscriptions(char *key, size_t size)
{
	struct ht_resp r;
	json_t *subs;

	if (ht_api(&d, "GET", "/api/v1/me/push-subscriptions", bob, NULL, &r) < 0)
		return json_array();
	CU_ASSERT_EQUAL(r.status, 200);
	if (key)
		snprintf(key, size, "%s", json_string_value(json_object_get(r.json, "vapid_public_key")) ?: "");
	subs = json_incref(json_object_get(r.json, "subscriptions"));
	ht_resp_release(&r);
	return subs ? subs : json_array();
}

static void test_push_delivery__turn_reaches_the_browser(void)
{
	char endpoint[128], p256dh[100], auth[32], body[512], key[100], want[128];
	const struct ps_delivery *dv;
	struct ht_resp r;
	json_t *subs;
	const char *text;

	/* Bob's browser subscribes through the API, with the keys its push service made */
	CU_ASSERT_EQUAL_FATAL(ps_subscribe(ps, "bob-phone", endpoint, p256dh, auth), 0);
	snprintf(body, sizeof(body), "{\"endpoint\":\"%s\",\"keys\":{\"p256dh\":\"%s\",\"auth\":\"%s\"},\"label\":\"Bob's phone\"}",
		 endpoint, p256dh, auth);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/me/push-subscriptions", bob, body, &r), 0);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	ht_resp_release(&r);

	/* Ann's turn ends: Bob's push service gets one request, for his turn in this game */
	move(ann, "[\"add 1\",\"add 2\",\"end\"]");
	CU_ASSERT_EQUAL_FATAL(wait_requests(1), 1);
	nap_ms(500); /* and no second one */
	CU_ASSERT_EQUAL(ps_count(ps), 1);
	dv = ps_get(ps, 0);
	ASSERT_STR_EQ(dv->path, "/push/bob-phone");
	CU_ASSERT_EQUAL(dv->status, 201);
	if (!dv->vapid_ok)
		fprintf(stderr, "vapid: %s\n", dv->vapid_error);
	CU_ASSERT(dv->vapid_ok);
	subs = bobs_subscriptions(key, sizeof(key));
	ASSERT_STR_EQ(dv->k, key); /* signed with the key the API gives browsers */
	ASSERT_STR_EQ(dv->sub, "https://games.example.org");
	ASSERT_STR_EQ(dv->encoding, "aes128gcm");
	ASSERT_STR_EQ(dv->urgency, "high");
	snprintf(want, sizeof(want), "turn-%lld-1", (long long)game);
	ASSERT_STR_EQ(dv->topic, want);
	if (!dv->plain)
		fprintf(stderr, "decrypt: %s\n", dv->decrypt_error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dv->json);
	/* decrypted with Bob's keys: the game, whose turn, what Ann did */
	snprintf(want, sizeof(want), "Your turn in Counting Race (test game) (game %lld)", (long long)game);
	ASSERT_STR_EQ(json_string_value(json_object_get(dv->json, "title")), want);
	ASSERT_STR_EQ(json_string_value(json_object_get(dv->json, "event")), "your_turn");
	text = json_string_value(json_object_get(dv->json, "body"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "Ann: add 1."));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "Ann: add 2."));
	snprintf(want, sizeof(want), "https://games.example.org/games/%lld", (long long)game);
	ASSERT_STR_EQ(json_string_value(json_object_get(dv->json, "url")), want);
	/* the subscription remembers the success */
	CU_ASSERT_EQUAL(json_array_size(subs), 1);
	for (int i = 0; i < 100 && json_is_null(json_object_get(json_array_get(subs, 0), "last_success_at")); i++) {
		json_decref(subs);
		nap_ms(50);
		subs = bobs_subscriptions(NULL, 0);
	}
	CU_ASSERT(json_is_integer(json_object_get(json_array_get(subs, 0), "last_success_at")));
	json_decref(subs);
}

static void test_push_delivery__expired_subscription_removed(void)
{
	struct buf log = BUF_INIT;
	json_t *subs = NULL;

	/* the browser has dropped the subscription: its push service answers 410 Gone */
	ps_answer(ps, 410, 0);
	move(bob, "[\"add 1\",\"end\"]");
	move(ann, "[\"add 1\",\"end\"]");
	CU_ASSERT_EQUAL_FATAL(wait_requests(2), 2);
	CU_ASSERT_EQUAL(ps_get(ps, 1)->status, 410);
	ASSERT_STR_EQ(ps_get(ps, 1)->path, "/push/bob-phone");
	/* and the account lists it no more */
	for (int i = 0; i < 200; i++) {
		json_decref(subs);
		subs = bobs_subscriptions(NULL, 0);
		if (json_array_size(subs) == 0)
			break;
		nap_ms(50);
	}
	CU_ASSERT_EQUAL(json_array_size(subs), 0);
	json_decref(subs);
	/* Bob's next turn: nothing more to his push service */
	move(bob, "[\"add 1\",\"end\"]");
	move(ann, "[\"add 1\",\"end\"]");
	nap_ms(1500);
	CU_ASSERT_EQUAL(ps_count(ps), 2);
	/* the endpoint is the browser's address: never in the log */
	CU_ASSERT_EQUAL_FATAL(ht_log_text(&d, &log), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "is gone (HTTP 410): removed"));
	CU_ASSERT_PTR_NULL(strstr(log.data, "bob-phone"));
	buf_release(&log);
}

/* Restarted without --allow-loopback-destinations, the daemon refuses the same endpoint at send: no request. */
static void test_push_delivery__refused_at_send(void)
{
	static const char *const without[] = { "--base-url", "https://games.example.org", NULL };
	char endpoint[128], p256dh[100], auth[32], body[512];
	struct buf out = BUF_INIT;
	struct ht_resp r;
	json_t *subs;
	int dead = 0;

	CU_ASSERT_EQUAL_FATAL(ps_subscribe(ps, "bob-tablet", endpoint, p256dh, auth), 0);
	snprintf(body, sizeof(body), "{\"endpoint\":\"%s\",\"keys\":{\"p256dh\":\"%s\",\"auth\":\"%s\"}}", endpoint, p256dh,
		 auth);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/me/push-subscriptions", bob, body, &r), 0);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
	d.extra = without;
	CU_ASSERT_EQUAL_FATAL(ht_restart(&d), 0);

	/* Bob's turn again: his push is a dead letter naming the reason, and nothing reaches the service */
	move(bob, "[\"add 1\",\"end\"]");
	move(ann, "[\"add 1\",\"end\"]");
	for (int i = 0; i < 400 && !dead; i++) {
		buf_reset(&out);
		CU_ASSERT_EQUAL(ht_cli(&d, "outbox list --dead", &out), 0);
		dead = strstr(out.data, "refused: 127.0.0.1 is a loopback address") != NULL;
		if (!dead)
			nap_ms(50);
	}
	CU_ASSERT(dead);
	CU_ASSERT_PTR_NULL(strstr(out.data, "bob-tablet"));
	buf_release(&out);
	nap_ms(300);
	CU_ASSERT_EQUAL(ps_count(ps), 2);
	/* the subscription stays: the operator's setting, not the browser, stopped it */
	subs = bobs_subscriptions(NULL, 0);
	CU_ASSERT_EQUAL(json_array_size(subs), 1);
	json_decref(subs);
}

static CU_TestInfo cases[] = {
	{ "test_push_delivery__turn_reaches_the_browser", test_push_delivery__turn_reaches_the_browser },
	{ "test_push_delivery__expired_subscription_removed", test_push_delivery__expired_subscription_removed },
	{ "test_push_delivery__refused_at_send", test_push_delivery__refused_at_send },
	CU_TEST_INFO_NULL,
};

int tests_register(void)
{
	TESTS_SUITE("push_delivery", suite_init, suite_clean, cases);
	return 0;
}
