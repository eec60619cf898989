/* tests/http/test_push_http.c: web push over HTTP: the subscriptions API, refused addresses, the account page, the service worker */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "http/httptest.h"
#include "testutil.h"
#include "util/token.h"

/* RFC 8291's example browser key and secret: a real P-256 point */
#define P256DH "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
#define AUTH "BTBZMqHH6r4Tts7J_aSIgg"
/* a push service on loopback, as --allow-loopback-destinations lets tests have one (nothing is sent here) */
#define SERVICE "https://127.0.0.1:8443"
#define ENDPOINT SERVICE "/wpush/v2/gAAAAABkSecretPartOfTheBrowsersAddress"

static struct ht_daemon d;
static char ann_token[64], bob_token[64];
static char ann_cookie[256];

static int suite_init(void)
{
	static const char *const extra[] = { "--allow-loopback-destinations", NULL };
	struct buf out = BUF_INIT;
	int rc;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	token_init();
	if (ht_start(&d, extra) < 0)
		return -1;
	rc = ht_cli(&d, "user add ann@example.org --name Ann", &out);
	ht_last_line(&out, ann_token, sizeof(ann_token));
	buf_reset(&out);
	rc |= ht_cli(&d, "user add bob@example.org --name Bob", &out);
	ht_last_line(&out, bob_token, sizeof(bob_token));
	buf_release(&out);
	return rc == 0 ? 0 : -1;
}

static int suite_clean(void)
{
	ht_cleanup(&d);
	curl_global_cleanup();
	return 0;
}

static int64_t subscribe(const char *token, const char *endpoint, const char *label, struct ht_resp *r)
{
	char body[512];

	snprintf(body, sizeof(body), "{\"endpoint\":\"%s\",\"expirationTime\":null,\"keys\":{\"p256dh\":\"%s\",\"auth\":\"%s\"}%s%s%s}",
		 endpoint, P256DH, AUTH, label ? ",\"label\":\"" : "", label ? label : "", label ? "\"" : "");
	if (ht_api(&d, "POST", "/api/v1/me/push-subscriptions", token, body, r) < 0)
		return -1;
	return json_integer_value(json_object_get(r->json, "id"));
}

static void test_push_http__api(void)
{
	struct ht_resp r;
	char key[100], path[96];
	int64_t id, bobs;

	/* the key to subscribe with, and nobody yet */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/push-subscriptions", ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	snprintf(key, sizeof(key), "%s", json_string_value(json_object_get(r.json, "vapid_public_key")));
	CU_ASSERT_EQUAL(strlen(key), 87);
	CU_ASSERT_EQUAL(key[0], 'B'); /* 0x04: an uncompressed point */
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "subscriptions")), 0);
	ht_resp_release(&r);

	/* a browser's PushSubscription.toJSON() */
	id = subscribe(ann_token, ENDPOINT, "Ann's phone", &r);
	CU_ASSERT_EQUAL(r.status, 201);
	CU_ASSERT(id > 0);
	{
		json_t *s = json_array_get(json_object_get(r.json, "subscriptions"), 0);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(s, "id")), id);
		ASSERT_STR_EQ(json_string_value(json_object_get(s, "label")), "Ann's phone");
		ASSERT_STR_EQ(json_string_value(json_object_get(s, "service")), SERVICE);
		CU_ASSERT(json_is_null(json_object_get(s, "last_success_at")));
		CU_ASSERT(json_integer_value(json_object_get(s, "created_at")) > 0);
	}
	/* the endpoint is the browser's address: never shown again */
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "SecretPartOfTheBrowsersAddress"));
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "vapid_public_key")), key);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/push-subscriptions", ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "subscriptions")), 1);
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "SecretPartOfTheBrowsersAddress"));
	ht_resp_release(&r);

	/* refused: not an https URL, plain http to anything but loopback, a key off the curve, a short secret, no body */
	subscribe(ann_token, "ftp://127.0.0.1/x", NULL, &r);
	CU_ASSERT_EQUAL(r.status, 400);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "code")), "bad_subscription");
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r.json, "detail")), "https"));
	ht_resp_release(&r);
	subscribe(ann_token, "http://8.8.8.8/x", NULL, &r);
	CU_ASSERT_EQUAL(r.status, 422);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "code")), "destination_refused");
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r.json, "detail")), "https"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/me/push-subscriptions", ann_token,
				     "{\"endpoint\":\"" SERVICE "/y\",\"keys\":{\"p256dh\":"
				     "\"BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\","
				     "\"auth\":\"" AUTH "\"}}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r.json, "detail")), "p256dh"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/me/push-subscriptions", ann_token,
				     "{\"endpoint\":\"" SERVICE "/y\",\"keys\":{\"p256dh\":\"" P256DH
				     "\",\"auth\":\"c2hvcnQ\"}}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r.json, "detail")), "auth"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/me/push-subscriptions", ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	/* without a token */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/push-subscriptions", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);

	/* Bob can neither see nor remove Ann's */
	bobs = subscribe(bob_token, SERVICE "/bob", NULL, &r);
	CU_ASSERT_EQUAL(r.status, 201);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "subscriptions")), 1);
	/* no label given: the browser's User-Agent names it (none here) */
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(json_object_get(r.json, "subscriptions"), 0),
							"label")), "A browser");
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/me/push-subscriptions/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", path, bob_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", path, ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(json_is_true(json_object_get(r.json, "removed")));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", path, ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/push-subscriptions", ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "subscriptions")), 0);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/me/push-subscriptions/%lld", (long long)bobs);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", path, bob_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
}

/* An endpoint that points into the server's own network is refused with the reason, and nothing is stored. */
static void test_push_http__private_endpoints_refused(void)
{
	static const char *const refused[] = {
		"https://10.0.0.7/wpush/secret-path",         "https://169.254.169.254/latest/meta-data",
		"https://[::ffff:169.254.169.254]/wpush/x",   "https://[::ffff:10.1.2.3]/wpush/x",
		"https://[64:ff9b::a9fe:a9fe]/wpush/x",       "https://192.168.0.1:8443/wpush/x",
		"https://[fd00::1]/wpush/x",                  "https://[fe80::1]/wpush/x",
		"https://100.64.0.1/wpush/x",                 "https://0.0.0.0/wpush/x",
	};
	struct ht_resp r;
	char csrf[64], form[1024];

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		subscribe(ann_token, refused[i], NULL, &r);
		CU_ASSERT_EQUAL(r.status, 422);
		ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "code")), "destination_refused");
		CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r.json, "detail")), "refused"));
		CU_ASSERT_PTR_NULL(strstr(r.body.data, "secret-path"));
		ht_resp_release(&r);
	}
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/push-subscriptions", ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "subscriptions")), 0);
	ht_resp_release(&r);
	/* the account page's form says why */
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "ann@example.org", ann_cookie, sizeof(ann_cookie)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", ann_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL_FATAL(ht_form_value(&r, "csrf", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&endpoint=https%%3A%%2F%%2F169.254.169.254%%2Fwpush%%2Fx&p256dh=%s&auth=%s",
		 csrf, P256DH, AUTH);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account/push", ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 422);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "169.254.169.254"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/push-subscriptions", ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "subscriptions")), 0);
	ht_resp_release(&r);
}

/* The value of one header of a GET, with libcurl (the test client keeps only some headers). */
static size_t header_cb(char *p, size_t size, size_t n, void *ctx)
{
	char *want = ctx;
	size_t len = size * n;

	if (len > 24 && strncasecmp(p, "Service-Worker-Allowed:", 23) == 0)
		snprintf(want, 64, "%.*s", (int)strcspn(p + 23, "\r\n"), p + 23);
	return len;
}

static size_t sink_cb(char *p, size_t size, size_t n, void *ctx)
{
	(void)p, (void)ctx;
	return size * n;
}

static void test_push_http__service_worker(void)
{
	struct ht_resp r;
	char url[96], allowed[64] = "";
	CURL *h = curl_easy_init();

	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/sw.js", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(strncmp(r.content_type, "text/javascript", 15), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "addEventListener('push'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "showNotification"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "notificationclick"));
	ht_resp_release(&r);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/sw.js", d.port);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, header_cb);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, allowed);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink_cb);
	CU_ASSERT_EQUAL(curl_easy_perform(h), CURLE_OK);
	curl_easy_cleanup(h);
	ASSERT_STR_EQ(allowed, " /");
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/static/push.js", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "pushManager.subscribe"));
	ht_resp_release(&r);
}

static void test_push_http__account_page(void)
{
	struct ht_resp r;
	char csrf[64], form[1024], key[100], want[160], path[96], *p;
	long long id = 0;

	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "ann@example.org", ann_cookie, sizeof(ann_cookie)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/push-subscriptions", ann_token, NULL, &r), 0);
	snprintf(key, sizeof(key), "%s", json_string_value(json_object_get(r.json, "vapid_public_key")));
	ht_resp_release(&r);
	/* the button (shown by the script), the key it subscribes with, the script itself */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", ann_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	snprintf(want, sizeof(want), "data-key=\"%s\"", key);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "Notify me in this browser"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "<script src=\"/static/push.js\" defer></script>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "<noscript>"));
	CU_ASSERT_EQUAL_FATAL(ht_form_value(&r, "csrf", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);

	/* what the script posts: refused without the page's CSRF token, kept with it */
	snprintf(form, sizeof(form), "endpoint=https%%3A%%2F%%2F127.0.0.1%%3A8443%%2Fwpush%%2Fann-laptop&p256dh=%s&auth=%s",
		 P256DH, AUTH);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account/push", ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	snprintf(form, sizeof(form),
		 "csrf=%s&endpoint=https%%3A%%2F%%2F127.0.0.1%%3A8443%%2Fwpush%%2Fann-laptop&p256dh=%s&auth=%s", csrf,
		 P256DH, AUTH);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account/push", ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ASSERT_STR_EQ(r.location, "/account#notify");
	ht_resp_release(&r);
	/* a bad one says why */
	snprintf(form, sizeof(form), "csrf=%s&endpoint=ftp%%3A%%2F%%2Fx&p256dh=%s&auth=%s", csrf, P256DH, AUTH);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account/push", ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "https://"));
	ht_resp_release(&r);

	/* listed with its service, and removable without script */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", ann_cookie, NULL, &r), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, SERVICE));
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "ann-laptop"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "last message: none yet"));
	p = strstr(r.body.data, "action=\"/account/push/");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	id = strtoll(p + strlen("action=\"/account/push/"), NULL, 10);
	CU_ASSERT(id > 0);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/account/push/%lld/remove", id);
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", ann_cookie, NULL, &r), 0);
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "action=\"/account/push/"));
	ht_resp_release(&r);
	/* removing it again: nothing of Ann's to remove */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
}

static CU_TestInfo cases[] = {
	{ "test_push_http__api", test_push_http__api },
	{ "test_push_http__private_endpoints_refused", test_push_http__private_endpoints_refused },
	{ "test_push_http__service_worker", test_push_http__service_worker },
	{ "test_push_http__account_page", test_push_http__account_page },
	CU_TEST_INFO_NULL,
};

int tests_register(void)
{
	TESTS_SUITE("push_http", suite_init, suite_clean, cases);
	return 0;
}
