/* tests/http/test_api.c: the JSON API over HTTP against a real daemon on port 0 */
/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curl/curl.h>

#include "httptest.h"
#include "store/store.h"
#include "testutil.h"
#include "util/token.h"
#include "util/version.h"

static struct ht_daemon d;
/* Under tests/pg/run.sh: the daemon runs on PostgreSQL, which has no WAL file of ours nor SQLite backups. */
static int on_pg;
static char admin_token[64];
static char user_token[64];
static char seat_tokens[2][64];
static int64_t game_id;

static int suite_init(void)
{
	struct buf out = BUF_INIT;
	int rc;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (ht_start(&d, NULL) < 0)
		return -1;
	rc = ht_cli(&d, "user add admin@example.org --name Admin --admin", &out);
	ht_last_line(&out, admin_token, sizeof(admin_token));
	buf_reset(&out);
	if (rc == 0)
		rc = ht_cli(&d, "user add ann@example.org --name Ann", &out);
	ht_last_line(&out, user_token, sizeof(user_token));
	buf_release(&out);
	return rc == 0 && strncmp(admin_token, "tp_", 3) == 0 && strncmp(user_token, "tp_", 3) == 0 ? 0 : -1;
}

static int suite_clean(void)
{
	ht_cleanup(&d);
	curl_global_cleanup();
	return 0;
}

static const char *jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static json_int_t jint(json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static size_t body_len(const char *body)
{
	return body ? strlen(body) : 0;
}

#define REQ(method, path, token, headers, body, resp) \
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, method, path, token, headers, body, body_len(body), resp), 0)

/* Game reads answered with a kept answer. */
#define KEPT "turnpost_game_answers_total{kept=\"yes\"}"

static void test_api__health_catalog_metrics(void)
{
	struct ht_resp r;

	char build_info[200];

	REQ("GET", "/healthz", NULL, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(jstr(r.json, "status"), "ok");
	/* the build that runs (tests/cli/test_version.sh checks version_text against git) */
	ASSERT_STR_EQ(jstr(r.json, "version"), version_text);
	ht_resp_release(&r);
	REQ("GET", "/api/v1/catalog", NULL, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "\"counting-race\"") != NULL);
	CU_ASSERT(strstr(r.body.data, "\"max_players\":4") != NULL);
	ht_resp_release(&r);
	REQ("GET", "/metrics", NULL, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "turnpost_http_requests_total{class=\"2xx\"}") != NULL);
	CU_ASSERT(strstr(r.body.data, "\nturnpost_store_group_commits_total ") != NULL);
	CU_ASSERT(strstr(r.body.data, "\nturnpost_store_grouped_writes_total ") != NULL);
	snprintf(build_info, sizeof(build_info), "\n# TYPE turnpost_build_info gauge\nturnpost_build_info{version=\"%s\"} 1\n",
		 version_text);
	CU_ASSERT(strstr(r.body.data, build_info) != NULL);
	/* the daemon synced the log at least once (when it opened the database) */
	if (!on_pg)
		CU_ASSERT(ht_metric(&d, "turnpost_store_syncs_total") >= 1);
	ht_resp_release(&r);
	REQ("GET", "/api/v1/nowhere", NULL, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 404);
	ASSERT_STR_EQ(jstr(r.json, "code"), "no_such_route");
	ht_resp_release(&r);
	REQ("DELETE", "/api/v1/catalog", NULL, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 405);
	ht_resp_release(&r);
}

static void test_api__auth_errors(void)
{
	struct ht_resp r;

	REQ("GET", "/api/v1/games", NULL, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 401);
	ASSERT_STR_EQ(r.content_type, "application/problem+json");
	ASSERT_STR_EQ(jstr(r.json, "code"), "unauthorized");
	ht_resp_release(&r);
	REQ("GET", "/api/v1/games", "tp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 401);
	CU_ASSERT(strstr(jstr(r.json, "detail"), "unknown token") != NULL);
	ht_resp_release(&r);
	REQ("GET", "/api/v1/games", "garbage", NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	REQ("GET", "/api/v1/me", user_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(jstr(json_object_get(r.json, "user"), "email"), "ann@example.org");
	CU_ASSERT(json_is_false(json_object_get(r.json, "admin")));
	ht_resp_release(&r);
	/* a non-admin on an admin route */
	REQ("GET", "/api/v1/admin/games/1/export", user_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 403);
	ASSERT_STR_EQ(jstr(r.json, "code"), "admin_only");
	ht_resp_release(&r);
}

static void test_api__create_game(void)
{
	struct ht_resp r;
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}],\"options\":{\"target\":6}}";

	REQ("POST", "/api/v1/games", admin_token, NULL, body, &r);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	game_id = jint(r.json, "id");
	CU_ASSERT(game_id > 0);
	CU_ASSERT(strstr(r.location, "/api/v1/games/") != NULL);
	for (int i = 0; i < 2; i++) {
		json_t *s = json_array_get(json_object_get(r.json, "seats"), (size_t)i);
		snprintf(seat_tokens[i], sizeof(seat_tokens[i]), "%s", jstr(s, "token") ? jstr(s, "token") : "");
		CU_ASSERT_EQUAL(strncmp(seat_tokens[i], "tp_", 3), 0);
	}
	ht_resp_release(&r);
	/* a player's account token gets no seat tokens back */
	REQ("POST", "/api/v1/games", user_token, NULL, body, &r);
	CU_ASSERT_EQUAL(r.status, 201);
	CU_ASSERT_PTR_NULL(json_object_get(json_array_get(json_object_get(r.json, "seats"), 0), "token"));
	ht_resp_release(&r);
}

static void test_api__create_game_errors(void)
{
	struct ht_resp r;

	REQ("POST", "/api/v1/games", admin_token, NULL, "{\"game\": ", &r);
	CU_ASSERT_EQUAL(r.status, 400);
	ASSERT_STR_EQ(jstr(r.json, "code"), "malformed_json");
	ht_resp_release(&r);
	REQ("POST", "/api/v1/games", admin_token, NULL, "{\"game\":\"chess\",\"players\":[]}", &r);
	CU_ASSERT_EQUAL(r.status, 400);
	ASSERT_STR_EQ(jstr(r.json, "code"), "unknown_game");
	ht_resp_release(&r);
	REQ("POST", "/api/v1/games", admin_token, NULL,
	    "{\"game\":\"counting-race\",\"players\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"},"
	    "{\"name\":\"d\"},{\"name\":\"e\"}]}", &r);
	CU_ASSERT_EQUAL(r.status, 400);
	ASSERT_STR_EQ(jstr(r.json, "code"), "bad_players");
	ht_resp_release(&r);
	REQ("POST", "/api/v1/games", admin_token, NULL,
	    "{\"game\":\"counting-race\",\"players\":[{\"name\":\"a\",\"email\":\"not-an-email\"}]}", &r);
	CU_ASSERT_EQUAL(r.status, 400);
	ASSERT_STR_EQ(jstr(r.json, "code"), "bad_email");
	ht_resp_release(&r);
	REQ("POST", "/api/v1/games", admin_token, NULL,
	    "{\"game\":\"counting-race\",\"players\":[{\"name\":\"a\"}],\"options\":{\"colour\":1}}", &r);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT(strstr(jstr(r.json, "detail"), "colour") != NULL);
	ht_resp_release(&r);
	REQ("POST", "/api/v1/games", seat_tokens[0], NULL,
	    "{\"game\":\"counting-race\",\"players\":[{\"name\":\"a\"}]}", &r);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
}

static int stored_moves(void)
{
	struct ht_resp r;
	char path[64];
	int n;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)game_id);
	if (ht_request(&d, "GET", path, seat_tokens[1], NULL, NULL, 0, &r) < 0)
		return -1;
	n = r.status == 200 ? (int)json_array_size(json_object_get(r.json, "moves")) : -1;
	ht_resp_release(&r);
	return n;
}

static void test_api__get_game_etag(void)
{
	struct ht_resp r;
	char path[64];
	const char *inm[] = { "If-None-Match: \"0\"", NULL };

	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)game_id);
	REQ("GET", path, seat_tokens[0], NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(r.etag, "\"0\"");
	CU_ASSERT_EQUAL(jint(r.json, "move_count"), 0);
	CU_ASSERT_EQUAL(jint(r.json, "you"), 0);
	ASSERT_STR_EQ(jstr(r.json, "status"), "active");
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(r.json, "active_seats"), 0)), 0);
	CU_ASSERT(json_is_object(json_object_get(r.json, "view")));
	ht_resp_release(&r);
	REQ("GET", path, seat_tokens[0], inm, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 304);
	CU_ASSERT_EQUAL(r.body.len, 0);
	ht_resp_release(&r);
	/* the admin sees it as a spectator; the other player's account too (they hold seat 0) */
	REQ("GET", path, admin_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NULL(json_object_get(r.json, "you"));
	ht_resp_release(&r);
	REQ("GET", path, user_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(jint(r.json, "you"), 0);
	ht_resp_release(&r);
	REQ("GET", "/api/v1/games/999999", admin_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
}

static void test_api__legal(void)
{
	struct ht_resp r;
	char path[64];

	snprintf(path, sizeof(path), "/api/v1/games/%lld/legal", (long long)game_id);
	REQ("GET", path, seat_tokens[0], NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(jint(r.json, "seat"), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "moves")), 4);
	ASSERT_STR_EQ(json_string_value(json_array_get(json_object_get(r.json, "moves"), 0)), "add 1");
	ht_resp_release(&r);
	REQ("GET", path, seat_tokens[1], NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "moves")), 0);
	ht_resp_release(&r);
}

static void test_api__moves(void)
{
	struct ht_resp r, r2;
	char path[64];
	const char *m0[] = { "If-Match: \"0\"", NULL };
	const char *idem[] = { "Idempotency-Key: phone-42", NULL };

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)game_id);
	/* other seat: 403, nothing stored */
	REQ("POST", path, seat_tokens[1], NULL, "{\"moves\":[\"add 1\"]}", &r);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	/* illegal second line: 422 naming it, nothing stored */
	REQ("POST", path, seat_tokens[0], NULL, "{\"moves\":[\"add 1\",\"add 5\"]}", &r);
	CU_ASSERT_EQUAL(r.status, 422);
	ASSERT_STR_EQ(jstr(r.json, "code"), "illegal_move");
	CU_ASSERT_EQUAL(jint(r.json, "line"), 2);
	ASSERT_STR_EQ(jstr(r.json, "text"), "add 5");
	CU_ASSERT(strstr(jstr(r.json, "detail"), "not 5") != NULL);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(stored_moves(), 0);
	/* malformed bodies */
	REQ("POST", path, seat_tokens[0], NULL, "{\"moves\":\"add 1\"}", &r);
	CU_ASSERT_EQUAL(r.status, 400);
	ASSERT_STR_EQ(jstr(r.json, "code"), "bad_moves");
	ht_resp_release(&r);
	REQ("POST", path, seat_tokens[0], NULL, "[1,2", &r);
	CU_ASSERT_EQUAL(r.status, 400);
	ASSERT_STR_EQ(jstr(r.json, "code"), "malformed_json");
	ht_resp_release(&r);
	/* a good turn with If-Match */
	REQ("POST", path, seat_tokens[0], m0, "{\"moves\":[\"add 2\",\" END \"]}", &r);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(r.etag, "\"2\"");
	CU_ASSERT_EQUAL(jint(r.json, "move_count"), 2);
	ASSERT_STR_EQ(jstr(json_array_get(json_object_get(r.json, "applied"), 1), "text"), "end");
	ht_resp_release(&r);
	/* stale If-Match: 412 and nothing stored */
	REQ("POST", path, seat_tokens[1], m0, "{\"moves\":[\"add 1\"]}", &r);
	CU_ASSERT_EQUAL(r.status, 412);
	ASSERT_STR_EQ(jstr(r.json, "code"), "stale_move_count");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(stored_moves(), 2);
	/* idempotent retry: same answer, applied once */
	REQ("POST", path, seat_tokens[1], idem, "{\"moves\":[\"add 3\"]}", &r);
	CU_ASSERT_EQUAL(r.status, 200);
	REQ("POST", path, seat_tokens[1], idem, "{\"moves\":[\"add 3\"]}", &r2);
	CU_ASSERT_EQUAL(r2.status, 200);
	CU_ASSERT(json_equal(r.json, r2.json));
	ht_resp_release(&r);
	ht_resp_release(&r2);
	CU_ASSERT_EQUAL(stored_moves(), 3);
	/* the same key with another request is refused, with a code of its own */
	REQ("POST", path, seat_tokens[1], idem, "{\"moves\":[\"add 1\"]}", &r);
	CU_ASSERT_EQUAL(r.status, 422);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "code")), "idempotency_key_reused");
	ht_resp_release(&r);
	/* a text/plain body: one step per line, comments skipped */
	{
		const char *plain[] = { "Content-Type: text/plain", NULL };
		REQ("POST", path, seat_tokens[1], plain, "# my turn\nundo\nadd 1\nend\n", &r);
		CU_ASSERT_EQUAL(r.status, 200);
		CU_ASSERT_EQUAL(jint(r.json, "move_count"), 6);
		CU_ASSERT(json_object_get(r.json, "view") != NULL);
		ASSERT_STR_EQ(r.preference_applied, "");
		ht_resp_release(&r);
	}
	CU_ASSERT_EQUAL(stored_moves(), 6);
	/* Prefer: return=minimal: the same answer without the view, and it says so */
	{
		const char *minimal[] = { "Prefer: respond-async, return=minimal", "If-Match: \"6\"", NULL };
		REQ("POST", path, seat_tokens[0], minimal, "{\"moves\":[\"add 1\",\"end\"]}", &r);
		CU_ASSERT_EQUAL(r.status, 200);
		ASSERT_STR_EQ(r.etag, "\"8\"");
		CU_ASSERT_EQUAL(jint(r.json, "move_count"), 8);
		CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "applied")), 2);
		CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(r.json, "active_seats"), 0)), 1);
		CU_ASSERT(json_object_get(r.json, "pending") != NULL);
		CU_ASSERT(json_object_get(r.json, "view") == NULL);
		ASSERT_STR_EQ(r.preference_applied, "return=minimal");
		ht_resp_release(&r);
	}
	/* with an Idempotency-Key the whole answer is kept; each reply follows its own Prefer */
	{
		const char *min_idem[] = { "Prefer: return=minimal", "Idempotency-Key: phone-43", NULL };
		const char *idem2[] = { "Idempotency-Key: phone-43", NULL };
		REQ("POST", path, seat_tokens[1], min_idem, "{\"moves\":[\"add 2\"]}", &r);
		CU_ASSERT_EQUAL(r.status, 200);
		CU_ASSERT(json_object_get(r.json, "view") == NULL);
		ht_resp_release(&r);
		REQ("POST", path, seat_tokens[1], idem2, "{\"moves\":[\"add 2\"]}", &r);
		CU_ASSERT_EQUAL(r.status, 200);
		CU_ASSERT_EQUAL(jint(r.json, "move_count"), 9);
		CU_ASSERT(json_object_get(r.json, "view") != NULL);
		ht_resp_release(&r);
	}
	CU_ASSERT_EQUAL(stored_moves(), 9);
}

static void test_api__oversize_body(void)
{
	struct ht_resp r;
	size_t n = 70 * 1024;
	char *big = malloc(n + 1);
	char path[64];

	memset(big, 'a', n);
	big[n] = '\0';
	memcpy(big, "{\"moves\":[\"", 11);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)game_id);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", path, seat_tokens[0], NULL, big, n, &r), 0);
	CU_ASSERT_EQUAL(r.status, 413);
	ASSERT_STR_EQ(jstr(r.json, "code"), "body_too_large");
	ht_resp_release(&r);
	free(big);
	CU_ASSERT_EQUAL(stored_moves(), 9);
}

static void test_api__games_list_and_tokens(void)
{
	struct ht_resp r;
	char tok[64], path[64];

	REQ("GET", "/api/v1/games", user_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "games")), 2);
	ht_resp_release(&r);
	REQ("GET", "/api/v1/games", admin_token, NULL, NULL, &r);
	CU_ASSERT(json_array_size(json_object_get(r.json, "games")) >= 2);
	ht_resp_release(&r);
	/* a new token, used, then revoked */
	REQ("POST", "/api/v1/tokens", user_token, NULL, "{\"label\":\"phone\"}", &r);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	snprintf(tok, sizeof(tok), "%s", jstr(r.json, "token"));
	ht_resp_release(&r);
	REQ("GET", "/api/v1/me", tok, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	REQ("DELETE", "/api/v1/tokens/current", tok, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	REQ("GET", "/api/v1/me", tok, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 401);
	CU_ASSERT(strstr(jstr(r.json, "detail"), "revoked") != NULL);
	ht_resp_release(&r);
	/* a seat token belongs to its game only */
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)game_id + 1);
	REQ("GET", path, seat_tokens[0], NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 403);
	ASSERT_STR_EQ(jstr(r.json, "code"), "wrong_game");
	ht_resp_release(&r);
}

static void test_api__restart_keeps_moves(void)
{
	struct ht_resp r;
	struct buf log = BUF_INIT;
	char cmd[200];
	FILE *f;

	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
	CU_ASSERT_EQUAL_FATAL(ht_restart(&d), 0);
	CU_ASSERT_EQUAL(stored_moves(), 9);
	REQ("GET", "/healthz", NULL, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	/* one log line per request, with method, path, status and time */
	snprintf(cmd, sizeof(cmd), "grep -c 'POST /api/v1/games/[0-9]*/moves 412 [0-9.]*ms' %s", d.log);
	f = popen(cmd, "r");
	if (f) {
		char chunk[64];
		size_t n = fread(chunk, 1, sizeof(chunk), f);
		buf_add(&log, chunk, n);
		pclose(f);
	}
	CU_ASSERT(strtol(log.data, NULL, 10) >= 1);
	buf_release(&log);
}

/*
 * A game read again while nothing changed is the kept answer; any commit,
 * here or by another process, renews it. On a daemon of its own, where no
 * earlier test's notifications are being delivered, so nothing but this
 * test commits: each counter is read once after a deterministic request.
 */
static void test_api__kept_answers(void)
{
	struct ht_daemon q;
	struct ht_resp r, r2;
	char admin[64], tok[2][64], path[96], moves[96], args[160];
	struct buf out = BUF_INIT;
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Kim\"},{\"name\":\"Lee\"}],"
			   "\"options\":{\"target\":6}}";
	const char *inm[] = { "If-None-Match: \"1\"", NULL };
	int64_t id;
	long k0;

	CU_ASSERT_EQUAL_FATAL(ht_start(&q, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cli(&q, "user add admin@example.org --name Admin --admin", &out), 0);
	ht_last_line(&out, admin, sizeof(admin));
	buf_reset(&out);
	CU_ASSERT_EQUAL_FATAL(ht_api(&q, "POST", "/api/v1/games", admin, body, &r), 0);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	id = jint(r.json, "id");
	for (int i = 0; i < 2; i++)
		snprintf(tok[i], sizeof(tok[i]), "%s", jstr(json_array_get(json_object_get(r.json, "seats"), (size_t)i), "token"));
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
	snprintf(moves, sizeof(moves), "/api/v1/games/%lld/moves", (long long)id);

	/* two reads with nothing committed between them: the second is the kept answer, the same bytes and ETag */
	k0 = ht_metric(&q, KEPT);
	CU_ASSERT_EQUAL_FATAL(ht_request(&q, "GET", path, tok[0], NULL, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL_FATAL(ht_request(&q, "GET", path, tok[0], NULL, NULL, 0, &r2), 0);
	CU_ASSERT_EQUAL(r2.status, 200);
	CU_ASSERT_EQUAL(ht_metric(&q, KEPT), k0 + 1);
	CU_ASSERT(r.body.len == r2.body.len && memcmp(r.body.data, r2.body.data, r.body.len) == 0);
	ASSERT_STR_EQ(r2.etag, "\"0\"");
	ASSERT_STR_EQ(r2.content_type, "application/json");
	ht_resp_release(&r);
	ht_resp_release(&r2);
	/* the other seat sees its own answer, not seat 0's */
	CU_ASSERT_EQUAL_FATAL(ht_request(&q, "GET", path, tok[1], NULL, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(jint(r.json, "you"), 1);
	ht_resp_release(&r);
	/* a move through this server: the next read has it */
	CU_ASSERT_EQUAL_FATAL(ht_api(&q, "POST", moves, tok[0], "{\"moves\":[\"add 1\"]}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_request(&q, "GET", path, tok[0], NULL, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(jint(r.json, "move_count"), 1);
	ASSERT_STR_EQ(jstr(r.json, "status"), "active");
	ht_resp_release(&r);
	/* If-None-Match against the kept answer */
	k0 = ht_metric(&q, KEPT);
	CU_ASSERT_EQUAL_FATAL(ht_request(&q, "GET", path, tok[0], inm, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(r.status, 304);
	CU_ASSERT_EQUAL(r.body.len, 0);
	ASSERT_STR_EQ(r.etag, "\"1\"");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_metric(&q, KEPT), k0 + 1);
	/* another process (the command line, on the same database) ends the game: the next read says so */
	snprintf(args, sizeof(args), "abort %lld --reason 'kept answers test'", (long long)id);
	CU_ASSERT_EQUAL(ht_cli(&q, args, &out), 0);
	CU_ASSERT_EQUAL_FATAL(ht_request(&q, "GET", path, tok[0], NULL, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(jstr(r.json, "status"), "aborted");
	ht_resp_release(&r);
	/* If-None-Match keeps the ETag alone: after any commit (another game made), the second of two asks is answered from it */
	CU_ASSERT_EQUAL_FATAL(ht_api(&q, "POST", "/api/v1/games", admin, body, &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	ht_resp_release(&r);
	k0 = ht_metric(&q, KEPT);
	CU_ASSERT_EQUAL_FATAL(ht_request(&q, "GET", path, tok[0], inm, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(r.status, 304);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_metric(&q, KEPT), k0);
	CU_ASSERT_EQUAL_FATAL(ht_request(&q, "GET", path, tok[0], inm, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(r.status, 304);
	ASSERT_STR_EQ(r.etag, "\"1\"");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_metric(&q, KEPT), k0 + 1);
	/* and a full read after it is still the whole answer */
	CU_ASSERT_EQUAL_FATAL(ht_request(&q, "GET", path, tok[0], NULL, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(jstr(r.json, "status"), "aborted");
	CU_ASSERT_EQUAL(jint(r.json, "move_count"), 1);
	ht_resp_release(&r);
	buf_release(&out);
	ht_stop(&q, SIGTERM);
	ht_cleanup(&q);
}

static void test_api__export_import_verify(void)
{
	struct buf out = BUF_INIT, out2 = BUF_INIT;
	struct ht_resp r;
	char args[256], path[96];
	json_t *a, *b;
	int64_t new_id = 0;

	snprintf(args, sizeof(args), "export %lld --output %s/g.json", (long long)game_id, d.dir);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	snprintf(args, sizeof(args), "import %s/g.json", d.dir);
	buf_reset(&out);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	CU_ASSERT(sscanf(out.data, "game %lld imported", (long long *)&new_id) == 1);
	snprintf(args, sizeof(args), "export %lld", (long long)game_id);
	buf_reset(&out);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	snprintf(args, sizeof(args), "export %lld", (long long)new_id);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out2), 0);
	a = json_loads(out.data, 0, NULL);
	b = json_loads(out2.data, 0, NULL);
	CU_ASSERT_PTR_NOT_NULL(a);
	CU_ASSERT(a && b && json_equal(a, b));
	json_decref(a);
	json_decref(b);
	/* the admin API exports the same file */
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/export", (long long)game_id);
	REQ("GET", path, admin_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "moves")), 9);
	ht_resp_release(&r);
	buf_reset(&out);
	CU_ASSERT_EQUAL(ht_cli(&d, "verify", &out), 0);
	CU_ASSERT(strstr(out.data, "0 failed") != NULL);
	/* one game verified on purpose is written to the audit log, with its reason */
	buf_reset(&out);
	snprintf(args, sizeof(args), "verify %lld --reason 'asked on Tuesday'", (long long)game_id);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	buf_reset(&out);
	snprintf(args, sizeof(args), "audit --game %lld", (long long)game_id);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	CU_ASSERT(strstr(out.data, "verify") != NULL);
	CU_ASSERT(strstr(out.data, "asked on Tuesday") != NULL);
	buf_release(&out);
	buf_release(&out2);
}

static void test_api__verify_catches_tampering(void)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct err e = {0};
	struct buf out = BUF_INIT;
	struct ht_resp r;
	char args[64], path[96];

	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
	CU_ASSERT_EQUAL_FATAL(store_open(d.db, NULL, &s, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(s, &c, &e), 0);
	CU_ASSERT_EQUAL(store_move_set_snapshot(c, game_id, 3,
		"{\"players\":2,\"rng\":\"x\",\"state\":{\"n\":2,\"turn\":1,\"target\":6,\"acted\":1,\"winner\":-1,"
		"\"total\":[2,99]}}", &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	store_close(s);
	snprintf(args, sizeof(args), "verify %lld", (long long)game_id);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 1);
	CU_ASSERT(strstr(out.data, "step 3") != NULL);
	buf_release(&out);
	CU_ASSERT_EQUAL_FATAL(ht_restart(&d), 0);
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/verify", (long long)game_id);
	REQ("POST", path, admin_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(json_is_false(json_object_get(r.json, "ok")));
	CU_ASSERT_EQUAL(jint(r.json, "first_difference"), 3);
	ht_resp_release(&r);
}

static void test_api__daemon_flags(void)
{
	struct buf out = BUF_INIT;
	char cmd[600], chunk[4096];
	const char *b = getenv("TOP_BUILDDIR");
	FILE *p;
	size_t n;
	int status;

	snprintf(cmd, sizeof(cmd), "%s/turnpostd --help", b ? b : ".");
	p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		buf_add(&out, chunk, n);
	CU_ASSERT_EQUAL(pclose(p), 0);
	CU_ASSERT(strstr(out.data, "--listen ADDR:PORT") != NULL);
	CU_ASSERT(strstr(out.data, "--body-limit") != NULL);
	buf_release(&out);
	snprintf(cmd, sizeof(cmd), "%s/turnpostd --listen nonsense 2>/dev/null", b ? b : ".");
	status = system(cmd);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	snprintf(cmd, sizeof(cmd), "%s/turnpostd --version | grep -q '^turnpostd [0-9]'", b ? b : ".");
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_api__preferences_and_vacation(void)
{
	struct ht_resp r;

	REQ("GET", "/api/v1/me/preferences", user_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(json_is_true(json_object_get(json_object_get(r.json, "events"), "chat")));
	ht_resp_release(&r);
	REQ("PUT", "/api/v1/me/preferences", user_token, NULL, "{\"events\":{\"chat\":false},\"digest\":true}", &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(json_is_false(json_object_get(json_object_get(r.json, "events"), "chat")));
	CU_ASSERT(json_is_true(json_object_get(json_object_get(r.json, "events"), "your_turn")));
	CU_ASSERT(json_is_true(json_object_get(r.json, "digest")));
	ht_resp_release(&r);
	REQ("PUT", "/api/v1/me/preferences", user_token, NULL, "{\"events\":{\"fireworks\":true}}", &r);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT(strstr(jstr(r.json, "detail"), "fireworks") != NULL);
	ht_resp_release(&r);
	/* unchanged by the refused request */
	REQ("GET", "/api/v1/me/preferences", user_token, NULL, NULL, &r);
	CU_ASSERT(json_is_false(json_object_get(json_object_get(r.json, "events"), "chat")));
	ht_resp_release(&r);
	REQ("PUT", "/api/v1/me/preferences", seat_tokens[0], NULL, "{\"digest\":false}", &r);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);

	REQ("POST", "/api/v1/me/vacation", user_token, NULL, "{\"days\":2}", &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(json_is_true(json_object_get(r.json, "on_vacation")));
	ht_resp_release(&r);
	REQ("POST", "/api/v1/me/vacation", user_token, NULL, "{\"days\":0}", &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(json_is_false(json_object_get(r.json, "on_vacation")));
	ht_resp_release(&r);
	REQ("POST", "/api/v1/me/vacation", user_token, NULL, "{\"days\":\"two\"}", &r);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	REQ("POST", "/api/v1/me/vacation", user_token, NULL, "{\"days\":365}", &r);
	CU_ASSERT_EQUAL(r.status, 409);
	ASSERT_STR_EQ(jstr(r.json, "code"), "vacation_allowance_used");
	ht_resp_release(&r);
	REQ("GET", "/api/v1/me/vacation", user_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(json_is_false(json_object_get(r.json, "on_vacation")));
	ht_resp_release(&r);
}

static void test_api__game_clock(void)
{
	struct ht_resp r;
	char path[64];
	const char *bad = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"A\",\"email\":\"ann@example.org\"}],"
			  "\"clock\":{\"mode\":\"per_turn\",\"turn_hours\":-3}}";
	const char *good = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"A\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"B\",\"email\":\"bob@example.org\"}],"
			   "\"clock\":{\"mode\":\"per_turn\",\"turn_hours\":24,\"timeout\":\"bot\"}}";

	REQ("POST", "/api/v1/games", user_token, NULL, bad, &r);
	CU_ASSERT_EQUAL(r.status, 400);
	ASSERT_STR_EQ(jstr(r.json, "code"), "bad_clock");
	ht_resp_release(&r);
	REQ("POST", "/api/v1/games", user_token, NULL, good, &r);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)jint(r.json, "id"));
	ht_resp_release(&r);
	REQ("GET", path, user_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(jstr(json_object_get(r.json, "clock"), "mode"), "per_turn");
	ht_resp_release(&r);
}

static void test_api__admin_outbox(void)
{
	struct ht_resp r;

	REQ("GET", "/api/v1/admin/outbox?state=dead", admin_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(json_is_array(json_object_get(r.json, "notifications")));
	ht_resp_release(&r);
	REQ("GET", "/api/v1/admin/outbox?state=lost", admin_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	REQ("GET", "/api/v1/admin/outbox", user_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	REQ("POST", "/api/v1/admin/outbox/999999/resend", admin_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
	/* a notification that was not dead cannot be re-sent */
	REQ("GET", "/api/v1/admin/outbox", admin_token, NULL, NULL, &r);
	CU_ASSERT(json_array_size(json_object_get(r.json, "notifications")) > 0);
	{
		char path[80];
		snprintf(path, sizeof(path), "/api/v1/admin/outbox/%lld/resend",
			 (long long)jint(json_array_get(json_object_get(r.json, "notifications"), 0), "id"));
		ht_resp_release(&r);
		REQ("POST", path, admin_token, NULL, NULL, &r);
		CU_ASSERT_EQUAL(r.status, 409);
		ht_resp_release(&r);
	}
}

static void test_api__admin_revokes_any_token(void)
{
	struct ht_resp r;
	char tok[64], path[64];
	json_int_t id;

	REQ("POST", "/api/v1/tokens", user_token, NULL, "{\"label\":\"laptop\"}", &r);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	snprintf(tok, sizeof(tok), "%s", jstr(r.json, "token"));
	id = jint(r.json, "id");
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/tokens/%lld", (long long)id);
	/* not for players */
	REQ("DELETE", path, user_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	REQ("GET", "/api/v1/me", tok, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	REQ("DELETE", path, admin_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	REQ("GET", "/api/v1/me", tok, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	REQ("DELETE", path, admin_token, NULL, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
}

static void test_api__cli_commands(void)
{
	struct buf out = BUF_INIT;
	char args[256];
	int64_t id = 0;

	CU_ASSERT_EQUAL(ht_cli(&d, "user list", &out), 0);
	CU_ASSERT(strstr(out.data, "admin@example.org\tAdmin\tadmin") != NULL);
	CU_ASSERT(strstr(out.data, "ann@example.org") != NULL);
	buf_reset(&out);
	CU_ASSERT_EQUAL(ht_cli(&d, "game create counting-race --player 'Cy <cy@example.org>' --player Dee "
				   "--option target=4 --seed 99", &out), 0);
	CU_ASSERT_EQUAL(sscanf(out.data, "game %lld created", (long long *)&id), 1);
	CU_ASSERT(strstr(out.data, "seat 1\tDee\t-\ttp_") != NULL);
	buf_reset(&out);
	CU_ASSERT_EQUAL(ht_cli(&d, "game list", &out), 0);
	CU_ASSERT(strstr(out.data, "counting-race\tactive\t0 steps") != NULL);
	buf_reset(&out);
	snprintf(args, sizeof(args), "game show %lld", (long long)id);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	CU_ASSERT(strstr(out.data, "\"target\": 4") != NULL);
	buf_reset(&out);
	CU_ASSERT_NOT_EQUAL(ht_cli(&d, "game create chess --player A", &out), 0);
	CU_ASSERT(strstr(out.data, "no game called \"chess\"") != NULL);
	buf_reset(&out);
	CU_ASSERT_EQUAL(ht_cli(&d, "frobnicate", &out), 2);
	buf_reset(&out);
	snprintf(args, sizeof(args), "backup %s/backup.db", d.dir);
	if (on_pg) {
		/* an SQLite copy of a PostgreSQL database is migrate-db's work */
		CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 1);
		CU_ASSERT(strstr(out.data, "pg_dump") != NULL);
		buf_release(&out);
		return;
	}
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	buf_reset(&out);
	/* the backup is a working database with the same games */
	snprintf(args, sizeof(args), "--db %s/backup.db game show %lld", d.dir, (long long)id);
	{
		char cmd[600], chunk[256];
		const char *b = getenv("TOP_BUILDDIR");
		FILE *p;
		size_t n;
		snprintf(cmd, sizeof(cmd), "%s/tests/turnpost-test %s 2>&1", b ? b : ".", args);
		p = popen(cmd, "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
			buf_add(&out, chunk, n);
		CU_ASSERT_EQUAL(pclose(p), 0);
		CU_ASSERT(strstr(out.data, "\"target\": 4") != NULL);
	}
	buf_release(&out);
}

static void test_api__config_file_and_environment(void)
{
	struct ht_daemon d2;
	struct ht_resp r;
	char conf[128], line[256], big[3000];
	const char *extra[] = { "--config", conf, NULL };
	FILE *f;
	int status;
	char cmd[400];
	const char *b = getenv("TOP_BUILDDIR");

	/* a bad line is refused with the file and line named */
	snprintf(conf, sizeof(conf), "%s/bad.conf", d.dir);
	f = fopen(conf, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("# settings\nthreads = 2\nbody-limit = lots\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/turnpostd --config %s --db %s/x.db 2>&1 | grep -q 'bad.conf:3: body-limit'",
		 b ? b : ".", conf, d.dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "TURNPOST_THREADS=0 %s/turnpostd --db %s/x.db 2>&1 | grep -q 'TURNPOST_THREADS: threads'",
		 b ? b : ".", d.dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	/* a good file: its body limit is in force */
	snprintf(conf, sizeof(conf), "%s/good.conf", d.dir);
	f = fopen(conf, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	snprintf(line, sizeof(line), "body-limit = 2048\nthreads = 2\nquiet = yes\n");
	fputs(line, f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(ht_start(&d2, extra), 0);
	memset(big, ' ', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	big[0] = '{';
	big[sizeof(big) - 2] = '}';
	CU_ASSERT_EQUAL(ht_request(&d2, "POST", "/api/v1/games", admin_token, NULL, big, strlen(big), &r), 0);
	CU_ASSERT_EQUAL(r.status, 413);
	ht_resp_release(&r);
	status = ht_stop(&d2, SIGTERM);
	CU_ASSERT_EQUAL(status, 0);
	ht_cleanup(&d2);
}

static CU_TestInfo api_cases[] = {
	{ "test_api__health_catalog_metrics", test_api__health_catalog_metrics },
	{ "test_api__auth_errors", test_api__auth_errors },
	{ "test_api__create_game", test_api__create_game },
	{ "test_api__create_game_errors", test_api__create_game_errors },
	{ "test_api__get_game_etag", test_api__get_game_etag },
	{ "test_api__legal", test_api__legal },
	{ "test_api__moves", test_api__moves },
	{ "test_api__oversize_body", test_api__oversize_body },
	{ "test_api__games_list_and_tokens", test_api__games_list_and_tokens },
	{ "test_api__restart_keeps_moves", test_api__restart_keeps_moves },
	{ "test_api__kept_answers", test_api__kept_answers },
	{ "test_api__export_import_verify", test_api__export_import_verify },
	{ "test_api__verify_catches_tampering", test_api__verify_catches_tampering },
	{ "test_api__daemon_flags", test_api__daemon_flags },
	{ "test_api__preferences_and_vacation", test_api__preferences_and_vacation },
	{ "test_api__game_clock", test_api__game_clock },
	{ "test_api__admin_outbox", test_api__admin_outbox },
	{ "test_api__admin_revokes_any_token", test_api__admin_revokes_any_token },
	{ "test_api__cli_commands", test_api__cli_commands },
	{ "test_api__config_file_and_environment", test_api__config_file_and_environment },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	const char *pg = getenv("TURNPOST_TEST_PG");

	on_pg = pg && *pg;
	TESTS_SUITE("api", suite_init, suite_clean, api_cases);
	return 0;
}
