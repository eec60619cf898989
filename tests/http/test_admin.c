/* tests/http/test_admin.c: the admin console over HTTP: route guard, actions and audit rows, rollback, verify, pages */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "http/routes.h"
#include "httptest.h"
#include "store/store.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/token.h"

static struct ht_daemon d;
static char admin_token[64], user_token[64];
/* browsers: the admin's and a player's session cookies, and their CSRF tokens */
static char admin_cookie[128], admin_csrf[64], user_cookie[128], user_csrf[64];

static const char *jstr(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static long long jint(const json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

/* Sign a user in the way a mailed sign-in link does; fills the cookie and the session's CSRF token. */
static int browser_sign_in(const char *email, char *cookie, size_t csize, char *csrf, size_t fsize)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct store_user u = {0};
	struct err e = {0};
	struct ht_resp r;
	char tok[TOKEN_TEXT_MAX], path[96], dbl[64], ck[128], form[128], sess[80];
	unsigned char hash[32];
	int rc = -1;

	token_new(tok, hash);
	if (store_open(d.db, NULL, &s, &e) < 0 || store_write_begin(s, &c, &e) < 0)
		goto out;
	if (store_user_by_email(c, email, &u, &e) == 0 &&
	    store_token_add(c, hash, TOKEN_SIGNIN, u.id, 0, -1, "signin", clock_now_ms() + 900000, NULL, &e) == 0)
		rc = store_write_commit(c, &e);
	else
		store_write_rollback(c);
	store_user_release(&u);
	store_close(s);
	s = NULL;
	if (rc < 0)
		goto out;
	rc = -1;
	snprintf(path, sizeof(path), "/signin/%s", tok);
	if (ht_page(&d, "GET", path, NULL, NULL, &r) < 0)
		goto out;
	ht_cookie(&r, "tp_csrf", dbl, sizeof(dbl));
	ht_resp_release(&r);
	snprintf(ck, sizeof(ck), "tp_csrf=%s", dbl);
	snprintf(form, sizeof(form), "csrf=%s", dbl);
	if (ht_page(&d, "POST", path, ck, form, &r) < 0)
		goto out;
	if (r.status == 303 && ht_cookie(&r, "tp_session", sess, sizeof(sess)) == 0)
		rc = 0;
	ht_resp_release(&r);
	if (rc < 0)
		goto out;
	snprintf(cookie, csize, "tp_session=%s", sess);
	if (ht_page(&d, "GET", "/account", cookie, NULL, &r) < 0)
		return -1;
	rc = ht_form_value(&r, "csrf", csrf, fsize);
	ht_resp_release(&r);
out:
	store_close(s);
	return rc;
}

static int suite_init(void)
{
	struct buf out = BUF_INIT;
	int rc;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	token_init();
	if (ht_start(&d, NULL) < 0)
		return -1;
	rc = ht_cli(&d, "user add admin@example.org --name Admin --admin", &out);
	ht_last_line(&out, admin_token, sizeof(admin_token));
	buf_reset(&out);
	if (rc == 0)
		rc = ht_cli(&d, "user add ann@example.org --name Ann", &out);
	ht_last_line(&out, user_token, sizeof(user_token));
	buf_release(&out);
	if (rc != 0 || strncmp(admin_token, "tp_", 3) != 0 || strncmp(user_token, "tp_", 3) != 0)
		return -1;
	if (browser_sign_in("admin@example.org", admin_cookie, sizeof(admin_cookie), admin_csrf, sizeof(admin_csrf)) < 0 ||
	    browser_sign_in("ann@example.org", user_cookie, sizeof(user_cookie), user_csrf, sizeof(user_csrf)) < 0)
		return -1;
	return 0;
}

static int suite_clean(void)
{
	ht_cleanup(&d);
	curl_global_cleanup();
	return 0;
}

/* A counting-race game of Ann and Bob (and more fields in extra, e.g. a clock); seat tokens into seats. */
static int64_t new_game(const char *extra, char seats[2][64])
{
	struct ht_resp r;
	char body[512];
	int64_t id;

	snprintf(body, sizeof(body),
		 "{\"game\":\"counting-race\",\"options\":{\"target\":12},\"players\":[{\"name\":\"Ann\",\"email\":"
		 "\"ann@example.org\"},{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]%s%s}",
		 extra ? "," : "", extra ? extra : "");
	if (ht_api(&d, "POST", "/api/v1/games", admin_token, body, &r) < 0)
		return 0;
	id = r.status == 201 ? jint(r.json, "id") : 0;
	for (int i = 0; id && seats && i < 2; i++)
		snprintf(seats[i], 64, "%s", jstr(json_array_get(json_object_get(r.json, "seats"), (size_t)i), "token"));
	ht_resp_release(&r);
	return id;
}

/* Steps for a seat (by its seat token); returns the HTTP status. */
static long play(int64_t id, const char *seat_token, const char *moves_json)
{
	struct ht_resp r;
	char path[64], body[256];
	long status;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	snprintf(body, sizeof(body), "{\"moves\":%s}", moves_json);
	if (ht_api(&d, "POST", path, seat_token, body, &r) < 0)
		return -1;
	status = r.status;
	if (status != 200)
		fprintf(stderr, "\n  play %s: %ld %.*s\n", moves_json, status, (int)r.body.len, r.body.data);
	ht_resp_release(&r);
	return status;
}

static int move_count(int64_t id)
{
	struct ht_resp r;
	char path[64];
	int n;

	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
	if (ht_api(&d, "GET", path, admin_token, NULL, &r) < 0)
		return -1;
	n = (int)jint(r.json, "move_count");
	ht_resp_release(&r);
	return n;
}

/* The newest audit row of a game with this action (new), or NULL. */
static json_t *audit_row(int64_t id, const char *action)
{
	struct ht_resp r;
	char path[128];
	json_t *row = NULL;

	snprintf(path, sizeof(path), "/api/v1/admin/audit?game=%lld&action=%s", (long long)id, action);
	if (ht_api(&d, "GET", path, admin_token, NULL, &r) < 0)
		return NULL;
	if (r.status == 200 && json_array_size(json_object_get(r.json, "audit")))
		row = json_incref(json_array_get(json_object_get(r.json, "audit"), 0));
	ht_resp_release(&r);
	return row;
}

static int audit_total(void)
{
	struct ht_resp r;
	int n;

	if (ht_api(&d, "GET", "/api/v1/admin/audit?limit=1000", admin_token, NULL, &r) < 0)
		return -1;
	n = (int)json_array_size(json_object_get(r.json, "audit"));
	ht_resp_release(&r);
	return n;
}

/* The route's path with 1 for every {id} and "x" for {token}. */
static void concrete(const char *pattern, char *out, size_t size)
{
	size_t n = 0;

	while (*pattern && n + 2 < size) {
		if (strncmp(pattern, "{id}", 4) == 0) {
			out[n++] = '1';
			pattern += 4;
		} else if (strncmp(pattern, "{token}", 7) == 0) {
			out[n++] = 'x';
			pattern += 7;
		} else {
			out[n++] = *pattern++;
		}
	}
	out[n] = '\0';
}

/*
 * Every route flagged ROUTE_ADMIN, straight from the route table: a player's
 * token and a player's browser get 403, no token and a signed-out browser
 * 401, and nothing changes.
 */
static void test_admin__every_admin_route_refuses_others(void)
{
	struct ht_resp r;
	char dbl[64], anon_cookie[96], anon_form[160], user_form[160], path[160];
	int checked = 0, web = 0, audit_before;
	int64_t id = new_game(NULL, NULL);

	CU_ASSERT_FATAL(id > 0);
	audit_before = audit_total();
	CU_ASSERT(audit_before >= 0);
	/* a signed-out browser's double-submit CSRF token, so its POSTs get past the CSRF check to the admin check */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/signin", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cookie(&r, "tp_csrf", dbl, sizeof(dbl)), 0);
	ht_resp_release(&r);
	snprintf(anon_cookie, sizeof(anon_cookie), "tp_csrf=%s", dbl);
	snprintf(anon_form, sizeof(anon_form), "csrf=%s&reason=nope&to=0&seat=0&hours=1&token=1", dbl);
	snprintf(user_form, sizeof(user_form), "csrf=%s&reason=nope&to=0&seat=0&hours=1&token=1", user_csrf);
	for (const struct route *rt = routes; rt->method; rt++) {
		int post = strcmp(rt->method, "GET") != 0;

		if (!(rt->flags & ROUTE_ADMIN))
			continue;
		concrete(rt->pattern, path, sizeof(path));
		if (rt->flags & ROUTE_WEB) {
			web++;
			CU_ASSERT_EQUAL_FATAL(ht_page(&d, rt->method, path, user_cookie, post ? user_form : NULL, &r), 0);
			if (r.status != 403 || !strstr(r.body.data, "for admins"))
				fprintf(stderr, "\n  %s %s as a player: %ld\n", rt->method, path, r.status);
			CU_ASSERT_EQUAL(r.status, 403);
			CU_ASSERT(r.body.data && strstr(r.body.data, "for admins") != NULL);
			ht_resp_release(&r);
			CU_ASSERT_EQUAL_FATAL(ht_page(&d, rt->method, path, anon_cookie, post ? anon_form : NULL, &r), 0);
			if (r.status != 401)
				fprintf(stderr, "\n  %s %s signed out: %ld\n", rt->method, path, r.status);
			CU_ASSERT_EQUAL(r.status, 401);
			CU_ASSERT(r.body.data && strstr(r.body.data, "Sign in") != NULL);
			ht_resp_release(&r);
		} else {
			CU_ASSERT_EQUAL_FATAL(ht_api(&d, rt->method, path, user_token, post ? "{\"reason\":\"nope\"}" : NULL, &r), 0);
			if (r.status != 403)
				fprintf(stderr, "\n  %s %s with a player's token: %ld\n", rt->method, path, r.status);
			CU_ASSERT_EQUAL(r.status, 403);
			ASSERT_STR_EQ(jstr(r.json, "code"), "admin_only");
			ht_resp_release(&r);
			CU_ASSERT_EQUAL_FATAL(ht_api(&d, rt->method, path, NULL, post ? "{\"reason\":\"nope\"}" : NULL, &r), 0);
			CU_ASSERT_EQUAL(r.status, 401);
			ht_resp_release(&r);
		}
		checked++;
	}
	/* the walk saw the console: pages and API */
	CU_ASSERT(checked >= 30);
	CU_ASSERT(web >= 14);
	/* nothing was done: no audit rows, game 1 is as it was */
	CU_ASSERT_EQUAL(audit_total(), audit_before);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/admin/games/1", admin_token, NULL, &r), 0);
	ASSERT_STR_EQ(jstr(r.json, "status"), "active");
	ht_resp_release(&r);
}

/* The route's path with id for every {id} and "x" for {token}, and an optional query. */
static void concrete_at(const char *pattern, int64_t id, const char *query, char *out, size_t size)
{
	struct buf b = BUF_INIT;

	while (*pattern) {
		if (strncmp(pattern, "{id}", 4) == 0) {
			buf_addf(&b, "%lld", (long long)id);
			pattern += 4;
		} else if (strncmp(pattern, "{token}", 7) == 0) {
			buf_addc(&b, 'x');
			pattern += 7;
		} else {
			buf_addc(&b, *pattern++);
		}
	}
	snprintf(out, size, "%s%s", b.data, query ? query : "");
	buf_release(&b);
}

/* Report a route whose refusal is not the declared one. */
static void expect(const struct route *rt, const char *who, const struct ht_resp *r, long status, const char *code)
{
	const char *got = r->json ? jstr(r->json, "code") : NULL;

	if (r->status != status || (code && (!got || strcmp(got, code) != 0)))
		fprintf(stderr, "\n  %s %s %s: %ld %s (wanted %ld %s)\n", rt->method, rt->pattern, who, r->status,
			got ? got : "", status, code ? code : "");
	CU_ASSERT_EQUAL(r->status, status);
	if (code)
		ASSERT_STR_EQ(got, code);
}

/*
 * Every route's declarations (http/routes.h), straight from the route table:
 * each is refused the same way on every route that declares it, before the
 * handler runs, and nothing changes. A route added later is checked by its
 * flags alone.
 */
static void test_admin__every_declaration_is_enforced_alike(void)
{
	const char *create = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Kim\"},{\"name\":\"Lee\"}]}";
	char seat_token[64], dbl[64], anon_cookie[96], anon_form[160], admin_form[160], user_form[160], path[200];
	char malformed[256] = "";
	int json = 0, empty = 0, reason = 0, account = 0, seat = 0, player = 0, user = 0, forms = 0, audit_before;
	struct ht_resp r;
	int64_t id;

	/* a game of Kim and Lee: neither Ann (the player's token and browser) nor the admin holds a seat */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/games", admin_token, create, &r), 0);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	id = jint(r.json, "id");
	snprintf(seat_token, sizeof(seat_token), "%s", jstr(json_array_get(json_object_get(r.json, "seats"), 0), "token"));
	ht_resp_release(&r);
	audit_before = audit_total();
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/signin", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cookie(&r, "tp_csrf", dbl, sizeof(dbl)), 0);
	ht_resp_release(&r);
	snprintf(anon_cookie, sizeof(anon_cookie), "tp_csrf=%s", dbl);
	snprintf(anon_form, sizeof(anon_form), "csrf=%s&reason=nope&to=0&seat=0&hours=1&token=1", dbl);
	/* everything an action form needs but its reason */
	snprintf(admin_form, sizeof(admin_form), "csrf=%s&to=0&seat=0&hours=1&token=1&replay=%%7B%%7D", admin_csrf);
	snprintf(user_form, sizeof(user_form), "csrf=%s&reason=nope&moves=add+1&text=hi", user_csrf);

	for (const struct route *rt = routes; rt->method; rt++) {
		unsigned f = rt->flags;
		int post = strcmp(rt->method, "GET") != 0;

		concrete_at(rt->pattern, id, NULL, path, sizeof(path));
		if (f & ROUTE_WEB) {
			if (post) {
				/* every form needs this browser's CSRF token, and must be a urlencoded form */
				const char *h[] = { NULL, "Content-Type: application/json", NULL };
				char cookie_header[200];
				CU_ASSERT_EQUAL_FATAL(ht_page(&d, rt->method, path, admin_cookie,
							      "reason=nope&to=0&seat=0&hours=1&token=1", &r), 0);
				expect(rt, "without a CSRF token", &r, 403, NULL);
				CU_ASSERT(r.body.data && strstr(r.body.data, "did not come from this site") != NULL);
				ht_resp_release(&r);
				snprintf(cookie_header, sizeof(cookie_header), "Cookie: %s", admin_cookie);
				h[0] = cookie_header;
				CU_ASSERT_EQUAL_FATAL(ht_request(&d, rt->method, path, NULL, h, "{}", 2, &r), 0);
				expect(rt, "with a JSON body", &r, 400, NULL);
				CU_ASSERT(r.body.data && strstr(r.body.data, "x-www-form-urlencoded") != NULL);
				ht_resp_release(&r);
				forms++;
			}
			if (f & ROUTE_USER) {
				/* a signed-out browser is sent to sign in */
				CU_ASSERT_EQUAL_FATAL(ht_page(&d, rt->method, path, anon_cookie, post ? anon_form : NULL, &r), 0);
				expect(rt, "signed out", &r, 303, NULL);
				ASSERT_STR_EQ(r.location, "/signin");
				ht_resp_release(&r);
				user++;
			}
			if (f & ROUTE_REASON) {
				char form[200];
				snprintf(form, sizeof(form), "%s&reason=+", admin_form);
				CU_ASSERT_EQUAL_FATAL(ht_page(&d, rt->method, path, admin_cookie, form, &r), 0);
				expect(rt, "without a reason", &r, 400, NULL);
				CU_ASSERT(r.body.data && strstr(r.body.data, "needs a reason") != NULL);
				ht_resp_release(&r);
				reason++;
			}
			if (f & ROUTE_REASON_OPTIONAL) {
				char form[200];
				snprintf(form, sizeof(form), "%s&reason=a%%01b", admin_form);
				CU_ASSERT_EQUAL_FATAL(ht_page(&d, rt->method, path, admin_cookie, form, &r), 0);
				expect(rt, "with a bad reason", &r, 400, NULL);
				CU_ASSERT(r.body.data && strstr(r.body.data, "control characters") != NULL);
				ht_resp_release(&r);
				reason++;
			}
			if (f & ROUTE_SEAT) {
				/* a browser that holds no seat and is no admin */
				CU_ASSERT_EQUAL_FATAL(ht_page(&d, rt->method, path, user_cookie, post ? user_form : NULL, &r), 0);
				expect(rt, "as a stranger", &r, 403, NULL);
				CU_ASSERT(r.body.data && strstr(r.body.data, "Only the players of this game") != NULL);
				ht_resp_release(&r);
				seat++;
			}
			if (f & ROUTE_PLAYER) {
				char form[200];
				snprintf(form, sizeof(form), "csrf=%s&moves=add+1&text=hi", admin_csrf);
				CU_ASSERT_EQUAL_FATAL(ht_page(&d, rt->method, path, admin_cookie, post ? form : NULL, &r), 0);
				expect(rt, "as an admin without a seat", &r, 403, NULL);
				ht_resp_release(&r);
				player++;
			}
			continue;
		}
		if (f & ROUTE_ACCOUNT) {
			CU_ASSERT_EQUAL_FATAL(ht_api(&d, rt->method, path, seat_token, post ? "{}" : NULL, &r), 0);
			expect(rt, "with a seat token", &r, 403, "account_token_needed");
			ht_resp_release(&r);
			account++;
		}
		if (f & ROUTE_JSON) {
			/* not JSON, not an object, and (unless optional) nothing: the same answer everywhere */
			CU_ASSERT_EQUAL_FATAL(ht_api(&d, rt->method, path, admin_token, "reason=nope", &r), 0);
			expect(rt, "with a body that is not JSON", &r, 400, "malformed_json");
			if (!*malformed)
				snprintf(malformed, sizeof(malformed), "%s", jstr(r.json, "detail"));
			ASSERT_STR_EQ(jstr(r.json, "detail"), malformed);
			ht_resp_release(&r);
			CU_ASSERT_EQUAL_FATAL(ht_api(&d, rt->method, path, admin_token, "[\"nope\"]", &r), 0);
			expect(rt, "with a JSON array", &r, 400, "malformed_json");
			ht_resp_release(&r);
			if (!(f & ROUTE_JSON_OPTIONAL)) {
				CU_ASSERT_EQUAL_FATAL(ht_api(&d, rt->method, path, admin_token, "", &r), 0);
				expect(rt, "with no body", &r, 400, "empty_body");
				ht_resp_release(&r);
				empty++;
			}
			json++;
		}
		if (f & (ROUTE_REASON | ROUTE_REASON_OPTIONAL)) {
			const char *body = (f & ROUTE_REASON) ? "{\"reason\":\" \"}" : "{\"reason\":\"a\\u0001b\"}";
			if (!(f & ROUTE_JSON)) {
				concrete_at(rt->pattern, id, (f & ROUTE_REASON) ? "?reason=%20" : "?reason=a%01b", path,
					    sizeof(path));
				body = NULL;
			}
			CU_ASSERT_EQUAL_FATAL(ht_api(&d, rt->method, path, admin_token, body, &r), 0);
			expect(rt, "without a good reason", &r, 400, "bad_reason");
			ht_resp_release(&r);
			concrete_at(rt->pattern, id, NULL, path, sizeof(path));
			reason++;
		}
		if (f & ROUTE_SEAT) {
			const char *body = (f & ROUTE_JSON) ? "{\"moves\":[\"add 1\"]}" : NULL;
			CU_ASSERT_EQUAL_FATAL(ht_api(&d, rt->method, path, user_token, body, &r), 0);
			expect(rt, "with a stranger's token", &r, 403, "not_a_player");
			ht_resp_release(&r);
			seat++;
			if (f & ROUTE_PLAYER) {
				CU_ASSERT_EQUAL_FATAL(ht_api(&d, rt->method, path, admin_token, body, &r), 0);
				expect(rt, "with an admin's token and no seat", &r, 403, "not_a_player");
				ht_resp_release(&r);
				player++;
			}
		}
	}
	/* the walk saw every kind of declaration */
	CU_ASSERT(json >= 15);
	CU_ASSERT(empty >= 12);
	CU_ASSERT(reason >= 20);
	CU_ASSERT(account >= 5);
	CU_ASSERT(seat >= 6);
	CU_ASSERT(player >= 4);
	CU_ASSERT(user >= 9);
	CU_ASSERT(forms >= 17);
	/* nothing was done: no audit rows, no steps */
	CU_ASSERT_EQUAL(audit_total(), audit_before);
	CU_ASSERT_EQUAL(move_count(id), 0);
}

/* POST an admin action as JSON; returns the status and keeps the answer in r. */
static long act(int64_t id, const char *what, const char *body, struct ht_resp *r)
{
	char path[128];

	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/%s", (long long)id, what);
	if (ht_api(&d, "POST", path, admin_token, body, r) < 0)
		return -1;
	return r->status;
}

static void check_audit(int64_t id, const char *action, const char *reason, int before, int after)
{
	json_t *row = audit_row(id, action);

	CU_ASSERT_PTR_NOT_NULL_FATAL(row);
	ASSERT_STR_EQ(jstr(row, "reason"), reason);
	ASSERT_STR_EQ(jstr(row, "actor"), "api");
	ASSERT_STR_EQ(jstr(row, "actor_email"), "admin@example.org");
	CU_ASSERT(jint(row, "at") > 0);
	if (before >= 0) {
		CU_ASSERT_EQUAL(jint(row, "before"), before);
		CU_ASSERT_EQUAL(jint(row, "after"), after);
	}
	json_decref(row);
}

/* Queue a notification for a game and mark it dead at once, as after its last failed delivery; its id. */
static int64_t dead_letter(int64_t game_id)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct err e = {0};
	int64_t id = 0;

	if (store_open(d.db, NULL, &s, &e) < 0)
		return 0;
	if (store_write_begin(s, &c, &e) == 0) {
		int rc = store_outbox_add(c, "your_turn", game_id, 0, 0, NULL, clock_now_ms(), &id, &e);
		if (rc == 0)
			rc = store_outbox_finish(c, id, STORE_OUTBOX_DEAD, clock_now_ms(), "550 mailbox unavailable", &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
		if (rc < 0)
			id = 0;
	}
	store_close(s);
	return id;
}

/* How many mails the daemon wrote (--mail-dir, one .eml each) to address for event containing needle (NULL: any). */
static int mails(const char *address, const char *event, const char *needle)
{
	char dir[128], path[512], want_to[160], want_event[80];
	struct dirent *de;
	DIR *dh;
	int count = 0;

	snprintf(dir, sizeof(dir), "%s/var/mail", d.dir);
	snprintf(want_to, sizeof(want_to), "<%s>\r\n", address);
	snprintf(want_event, sizeof(want_event), "X-Turnpost-Event: %s\r\n", event);
	if (!(dh = opendir(dir)))
		return 0;
	while ((de = readdir(dh))) {
		char chunk[4096];
		struct buf b = BUF_INIT;
		size_t n;
		FILE *f;

		if (de->d_name[0] == '.' || !strstr(de->d_name, ".eml"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!(f = fopen(path, "rb")))
			continue;
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(&b, chunk, n);
		fclose(f);
		if (strstr(b.data, want_to) && strstr(b.data, want_event) && (!needle || strstr(b.data, needle)))
			count++;
		buf_release(&b);
	}
	closedir(dh);
	return count;
}

/* Wait (up to 15 s) for at least want such mails; their count. */
static int wait_mails(const char *address, const char *event, const char *needle, int want)
{
	int n = 0;

	for (int i = 0; i < 150; i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		if ((n = mails(address, event, needle)) >= want)
			break;
		nanosleep(&ts, NULL);
	}
	return n;
}

/* The game's notifications of event (new array of their user ids), via the console's API. */
static json_t *notified(int64_t id, const char *event)
{
	struct ht_resp r;
	char path[96];
	json_t *users = json_array(), *x;
	size_t i;

	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/notifications", (long long)id);
	if (ht_api(&d, "GET", path, admin_token, NULL, &r) == 0)
		json_array_foreach(json_object_get(r.json, "notifications"), i, x)
			if (strcmp(jstr(x, "event"), event) == 0)
				json_array_append(users, json_object_get(x, "user"));
	ht_resp_release(&r);
	return users;
}

static void test_admin__every_action_leaves_its_audit_row(void)
{
	struct ht_resp r;
	char seats[2][64], path[128], body[4096], *file;
	int64_t id = new_game("\"clock\":{\"mode\":\"per_turn\",\"turn_hours\":24,\"timeout\":\"notify\"}", seats), outbox,
		imported;
	int before;

	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 2\",\"end\"]"), 200);
	before = move_count(id);
	CU_ASSERT_EQUAL(before, 2);

	/* a reason is required, and nothing happens without one */
	CU_ASSERT_EQUAL(act(id, "rollback", "{\"to\":0}", &r), 400);
	CU_ASSERT(strstr(jstr(r.json, "detail"), "reason") != NULL);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(act(id, "rollback", "{\"to\":0,\"reason\":\"  \"}", &r), 400);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(move_count(id), 2);
	CU_ASSERT_PTR_NULL(audit_row(id, "rollback"));

	/* extend a deadline (seat 1 acts now) */
	CU_ASSERT_EQUAL(act(id, "extend", "{\"seat\":1,\"hours\":48,\"reason\":\"travelling\"}", &r), 200);
	CU_ASSERT(jint(r.json, "deadline") > clock_now_ms() + 70LL * 3600 * 1000);
	ht_resp_release(&r);
	check_audit(id, "extend_deadline", "travelling", 2, 2);
	/* seat 0 is not waiting on a deadline */
	CU_ASSERT_EQUAL(act(id, "extend", "{\"seat\":0,\"hours\":1,\"reason\":\"x\"}", &r), 409);
	ht_resp_release(&r);

	/* replace a seat's email: the old seat token stops working, a new one works */
	CU_ASSERT_EQUAL(act(id, "seat", "{\"seat\":1,\"email\":\"carl@example.org\",\"name\":\"Carl\",\"reason\":\"Bob left\"}",
			    &r), 200);
	ASSERT_STR_EQ(jstr(r.json, "name"), "Carl");
	/* the seat token from creation, and any seat links the notifier minted for Bob's emails meanwhile */
	CU_ASSERT(jint(r.json, "tokens_revoked") >= 1);
	CU_ASSERT_EQUAL(play(id, seats[1], "[\"add 1\"]"), 401);
	CU_ASSERT_EQUAL(play(id, jstr(r.json, "token"), "[\"add 1\",\"end\"]"), 200);
	ht_resp_release(&r);
	check_audit(id, "seat_replace", "Bob left", 2, 2);

	/* roll back */
	CU_ASSERT_EQUAL(act(id, "rollback", "{\"to\":2,\"reason\":\"misclick\"}", &r), 200);
	CU_ASSERT_EQUAL(jint(r.json, "move_count_after"), 5);
	ht_resp_release(&r);
	check_audit(id, "rollback", "misclick", 4, 5);

	/* re-send a dead notification */
	outbox = dead_letter(id);
	CU_ASSERT_FATAL(outbox > 0);
	snprintf(path, sizeof(path), "/api/v1/admin/notifications/%lld/resend", (long long)outbox);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, admin_token, "{\"reason\":\"mailbox fixed\"}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(jstr(r.json, "state"), "pending");
	ht_resp_release(&r);
	check_audit(id, "outbox_resend", "mailbox fixed", 5, 5);
	/* only a dead one */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, admin_token, "{\"reason\":\"again\"}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 409);
	ht_resp_release(&r);

	/* revoke a token (the new seat token of seat 1 is listed on the game) */
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	{
		/* the seat token made with the game (links minted for emails are labelled otherwise) */
		json_t *tokens = json_object_get(json_array_get(json_object_get(r.json, "seats"), 0), "tokens"), *t;
		long long tid = 0;
		size_t i;
		json_array_foreach(tokens, i, t)
			if (strcmp(jstr(t, "label"), "seat") == 0 && json_is_true(json_object_get(t, "live")))
				tid = jint(t, "id");
		CU_ASSERT(tid > 0);
		snprintf(path, sizeof(path), "/api/v1/admin/tokens/%lld/revoke", tid);
	}
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, admin_token, "{\"reason\":\"leaked link\"}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	check_audit(id, "token_revoke", "leaked link", 5, 5);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 1\"]"), 401);

	/* import (export first), then drop and abort */
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/export", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	file = json_dumps(r.json, JSON_COMPACT);
	ht_resp_release(&r);
	snprintf(body, sizeof(body), "{\"reason\":\"restore from backup\",\"replay\":%s}", file);
	free(file);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/admin/games/import", admin_token, body, &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	imported = jint(r.json, "id");
	CU_ASSERT(json_is_true(json_object_get(r.json, "verified")));
	ht_resp_release(&r);
	CU_ASSERT_FATAL(imported > 0);
	check_audit(imported, "import", "restore from backup", -1, -1);
	CU_ASSERT_EQUAL(move_count(imported), 5);

	CU_ASSERT_EQUAL(act(imported, "drop", "{\"seat\":0,\"reason\":\"vanished\"}", &r), 200);
	ASSERT_STR_EQ(jstr(r.json, "outcome"), "bot");
	ht_resp_release(&r);
	check_audit(imported, "drop", "vanished", 5, 5);
	CU_ASSERT_EQUAL(act(imported, "drop", "{\"seat\":5,\"reason\":\"x\"}", &r), 404);
	ht_resp_release(&r);

	CU_ASSERT_EQUAL(act(id, "abort", "{\"reason\":\"cheating\"}", &r), 200);
	ht_resp_release(&r);
	check_audit(id, "abort", "cheating", 5, 5);
	/* both players are told in the same transaction, and the mails go out whatever the preferences say */
	{
		json_t *told = notified(id, "abort");
		char subject[128];
		CU_ASSERT_EQUAL(json_array_size(told), 2);
		json_decref(told);
		snprintf(subject, sizeof(subject), "Subject: Counting Race (test game) (game %lld) was ended by an admin\r\n",
			 (long long)id);
		CU_ASSERT_EQUAL(wait_mails("carl@example.org", "abort", subject, 1), 1);
		CU_ASSERT_EQUAL(wait_mails("ann@example.org", "abort", subject, 1), 1);
		CU_ASSERT_EQUAL(mails("carl@example.org", "abort", "Reason: cheating"), 1);
	}
	/* an aborted game takes no more steps and cannot be rolled back */
	CU_ASSERT_EQUAL(act(id, "rollback", "{\"to\":1,\"reason\":\"undo the abort\"}", &r), 409);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(act(id, "abort", "{\"reason\":\"twice\"}", &r), 409);
	ht_resp_release(&r);

	/* the audit filters */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/admin/audit?actor=admin@example.org&action=rollback", admin_token, NULL,
				  &r), 0);
	CU_ASSERT(json_array_size(json_object_get(r.json, "audit")) >= 1);
	ASSERT_STR_EQ(jstr(json_array_get(json_object_get(r.json, "audit"), 0), "action"), "rollback");
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/admin/audit?actor=cli&game=%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "audit")), 0);
	ht_resp_release(&r);
}

/* Wait up to 15 s for the game to reach move count n. */
static int wait_count(int64_t id, int n)
{
	for (int i = 0; i < 150; i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		if (move_count(id) >= n)
			return 0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

/* Wait up to 15 s until seat alone is to act. */
static int wait_turn(int64_t id, int seat)
{
	for (int i = 0; i < 150; i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		struct ht_resp r;
		char path[64];
		json_t *a;
		int ok;

		snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
		if (ht_api(&d, "GET", path, admin_token, NULL, &r) < 0)
			return -1;
		a = json_object_get(r.json, "active_seats");
		ok = json_array_size(a) == 1 && json_integer_value(json_array_get(a, 0)) == seat;
		ht_resp_release(&r);
		if (ok)
			return 0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

static void test_admin__drop_lets_the_bot_play(void)
{
	struct ht_resp r;
	char seats[2][64], path[96];
	int64_t id = new_game(NULL, seats);
	int count;

	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 2\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(act(id, "drop", "{\"seat\":1,\"reason\":\"gone for good\"}", &r), 200);
	ASSERT_STR_EQ(jstr(r.json, "outcome"), "bot");
	ht_resp_release(&r);
	/* the notifier plays seat 1 at once: its steps come in via "timeout" */
	CU_ASSERT_EQUAL_FATAL(wait_count(id, 3), 0);
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/timeline", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	ASSERT_STR_EQ(jstr(json_array_get(json_object_get(r.json, "steps"), 2), "via"), "timeout");
	CU_ASSERT_EQUAL(jint(json_array_get(json_object_get(r.json, "steps"), 2), "seat"), 1);
	ht_resp_release(&r);
	/* the dropped player's link is dead, and the seat is nobody's to join */
	CU_ASSERT_EQUAL(play(id, seats[1], "[\"add 1\"]"), 401);
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	CU_ASSERT(strstr(jstr(json_array_get(json_object_get(r.json, "seats"), 1), "name"), "(bot)") != NULL);
	/* nobody is offered the seat: it is not open, the bot plays it */
	CU_ASSERT(json_is_false(json_object_get(json_array_get(json_object_get(r.json, "seats"), 1), "open")));
	CU_ASSERT(json_is_true(json_object_get(json_array_get(json_object_get(r.json, "seats"), 1), "bot")));
	CU_ASSERT_PTR_NULL(json_object_get(json_array_get(json_object_get(r.json, "seats"), 0), "bot"));
	/* the clock the drop made plays the seat with the strong bot */
	CU_ASSERT_EQUAL(jint(json_object_get(r.json, "clock"), "bot_level"), 2);
	ht_resp_release(&r);
	/* the game page of someone signed in who does not play here: no Join button, and says who plays the seat */
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, admin_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "Join this game") == NULL);
	CU_ASSERT(strstr(r.body.data, "the bot plays this seat") != NULL);
	ht_resp_release(&r);
	/* Bob is told, by email, with the reason, whatever his preferences say */
	CU_ASSERT_EQUAL(wait_mails("bob@example.org", "dropped", "Reason: gone for good", 1), 1);
	{
		char subject[128];
		snprintf(subject, sizeof(subject), "Subject: You no longer play in Counting Race (test game) (game %lld)\r\n",
			 (long long)id);
		CU_ASSERT_EQUAL(mails("bob@example.org", "dropped", subject), 1);
		CU_ASSERT_EQUAL(mails("ann@example.org", "dropped", subject), 0);
	}
	/* and Ann plays on against the bot, which answers */
	CU_ASSERT_EQUAL_FATAL(wait_turn(id, 0), 0);
	count = move_count(id);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 1\",\"end\"]"), 200);
	CU_ASSERT_EQUAL_FATAL(wait_count(id, count + 4), 0);
	CU_ASSERT_EQUAL(wait_turn(id, 0), 0);
}

static void test_admin__rollback_then_play_on(void)
{
	struct ht_resp r;
	struct buf out = BUF_INIT;
	char seats[2][64], path[128], args[96], body[4096], *file;
	const char *h[] = { "Content-Type: application/json", "If-Match: \"6\"", NULL };
	json_t *at2 = NULL, *steps;
	int64_t id = new_game(NULL, seats), copy;
	int count;

	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 2\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(play(id, seats[1], "[\"add 3\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 1\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(move_count(id), 6);
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/position?n=2", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	at2 = json_incref(json_object_get(r.json, "view"));
	ASSERT_STR_EQ(jstr(json_object_get(r.json, "step"), "text"), "end");
	ht_resp_release(&r);

	/* back to step 2 (Ann's first turn done, Bob to play) */
	CU_ASSERT_EQUAL(act(id, "rollback", "{\"to\":2,\"reason\":\"Bob's connection failed\"}", &r), 200);
	CU_ASSERT_EQUAL(jint(r.json, "move_count_before"), 6);
	CU_ASSERT_EQUAL(jint(r.json, "move_count_after"), 7);
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(r.json, "active_seats"), 0)), 1);
	ht_resp_release(&r);
	/* the position is step 2's again */
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	CU_ASSERT(json_equal(json_object_get(r.json, "view"), at2));
	ASSERT_STR_EQ(r.etag, "\"7\"");
	ht_resp_release(&r);
	json_decref(at2);
	/* a client that still holds the old move count is told the game moved on */
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", path, seats[1], h, "{\"moves\":[\"add 1\"]}", 19, &r), 0);
	CU_ASSERT_EQUAL(r.status, 412);
	ht_resp_release(&r);
	/* nobody can undo across a rollback */
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"undo\"]"), 422);
	CU_ASSERT_EQUAL(play(id, seats[1], "[\"undo\"]"), 422);
	/* the timeline shows the admin step */
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/timeline", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	steps = json_object_get(r.json, "steps");
	CU_ASSERT_EQUAL(json_array_size(steps), 7);
	ASSERT_STR_EQ(jstr(json_array_get(steps, 6), "text"), "rollback to 2");
	ASSERT_STR_EQ(jstr(json_array_get(steps, 6), "via"), "admin");
	ASSERT_STR_EQ(jstr(json_array_get(steps, 6), "player"), "admin");
	ASSERT_STR_EQ(jstr(json_array_get(steps, 0), "client"), "127.0.0.1");
	ht_resp_release(&r);
	/* the players were told */
	{
		struct store *s = NULL;
		struct store_conn *c;
		struct err e = {0};
		int n = 0;
		CU_ASSERT_EQUAL_FATAL(store_open(d.db, NULL, &s, &e), 0);
		CU_ASSERT_EQUAL_FATAL(store_read_acquire(s, &c, &e), 0);
		CU_ASSERT_EQUAL(store_outbox_count(c, id, "rollback", &n, &e), 0);
		CU_ASSERT_EQUAL(n, 2);
		store_read_release(c);
		store_close(s);
	}

	/* play on: Bob, Ann, Bob; the undo of one's own step works again */
	CU_ASSERT_EQUAL(play(id, seats[1], "[\"add 1\",\"undo\",\"add 3\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 3\",\"end\"]"), 200);
	count = move_count(id);
	CU_ASSERT_EQUAL(count, 13);

	/* verify passes, from the API and the command line */
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/verify", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, admin_token, "{\"reason\":\"after the rollback\"}", &r), 0);
	if (!json_is_true(json_object_get(r.json, "ok")))
		fprintf(stderr, "\n  verify: %.*s\n", (int)r.body.len, r.body.data);
	CU_ASSERT(json_is_true(json_object_get(r.json, "ok")));
	ht_resp_release(&r);
	{
		json_t *row = audit_row(id, "verify");
		CU_ASSERT_PTR_NOT_NULL_FATAL(row);
		ASSERT_STR_EQ(jstr(row, "reason"), "after the rollback");
		CU_ASSERT(json_is_true(json_object_get(json_object_get(row, "detail"), "ok")));
		json_decref(row);
	}
	/* a body that is no JSON object is refused, and writes nothing */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, admin_token, "[1]", &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	snprintf(args, sizeof(args), "verify %lld", (long long)id);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	buf_release(&out);

	/* a second rollback to a step before the first one, then play on again */
	snprintf(args, sizeof(args), "rollback %lld 0 --reason 'start over'", (long long)id);
	if (ht_cli(&d, args, &out) != 0)
		fprintf(stderr, "\n  %s: %.*s\n", args, (int)out.len, out.data);
	CU_ASSERT(strstr(out.data, "\"move_count_after\": 14") != NULL);
	buf_release(&out);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"roll\",\"end\"]"), 200);

	/* export and import keep working: the copy replays the rollbacks and verifies */
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/export", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	file = json_dumps(r.json, JSON_COMPACT);
	ht_resp_release(&r);
	snprintf(body, sizeof(body), "{\"reason\":\"copy\",\"replay\":%s}", file);
	free(file);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/admin/games/import", admin_token, body, &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	copy = jint(r.json, "id");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(move_count(copy), 16);
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/position?n=16", (long long)copy);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	{
		struct ht_resp r2;
		char p2[128];
		snprintf(p2, sizeof(p2), "/api/v1/admin/games/%lld/position?n=16", (long long)id);
		CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", p2, admin_token, NULL, &r2), 0);
		CU_ASSERT(json_equal(json_object_get(r.json, "view"), json_object_get(r2.json, "view")));
		ht_resp_release(&r2);
	}
	ht_resp_release(&r);
	snprintf(args, sizeof(args), "verify %lld", (long long)copy);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	buf_release(&out);

	/* a bad rollback target changes nothing */
	CU_ASSERT_EQUAL(act(id, "rollback", "{\"to\":16,\"reason\":\"x\"}", &r), 400);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(act(id, "rollback", "{\"to\":-1,\"reason\":\"x\"}", &r), 400);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(move_count(id), 16);
}

static void test_admin__verify_finds_a_tampered_snapshot(void)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct store_move m = {0};
	struct err e = {0};
	struct buf out = BUF_INIT;
	struct ht_resp r;
	char seats[2][64], path[128], args[64], form[128];
	int64_t id = new_game(NULL, seats);

	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 2\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(play(id, seats[1], "[\"add 3\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(act(id, "rollback", "{\"to\":1,\"reason\":\"test\"}", &r), 200);
	ht_resp_release(&r);
	/* the rollback step's snapshot is changed to step 3's behind the server's back */
	CU_ASSERT_EQUAL_FATAL(store_open(d.db, NULL, &s, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(s, &c, &e), 0);
	CU_ASSERT_EQUAL(store_move_get(c, id, 3, &m, &e), 0);
	CU_ASSERT_EQUAL(store_move_set_snapshot(c, id, 5, m.snapshot, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	store_move_release(&m);
	store_close(s);

	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/verify", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, admin_token, NULL, &r), 0);
	CU_ASSERT(json_is_false(json_object_get(r.json, "ok")));
	CU_ASSERT_EQUAL(jint(r.json, "first_difference"), 5);
	ht_resp_release(&r);
	/* the audit log has it, with the result */
	{
		json_t *row = audit_row(id, "verify"), *detail = json_object_get(row, "detail");
		CU_ASSERT_PTR_NOT_NULL_FATAL(row);
		ASSERT_STR_EQ(jstr(row, "actor"), "api");
		CU_ASSERT(json_is_false(json_object_get(detail, "ok")));
		CU_ASSERT_EQUAL(jint(detail, "first_difference"), 5);
		CU_ASSERT(jstr(detail, "difference") != NULL);
		CU_ASSERT_EQUAL(jint(row, "before"), 5);
		json_decref(row);
	}
	snprintf(args, sizeof(args), "verify %lld", (long long)id);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 1);
	CU_ASSERT(strstr(out.data, "step 5") != NULL);
	buf_release(&out);
	/* and from the page */
	snprintf(path, sizeof(path), "/admin/games/%lld/verify", (long long)id);
	snprintf(form, sizeof(form), "csrf=%s", admin_csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, admin_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "found a difference at step 5") != NULL);
	ht_resp_release(&r);
	{
		json_t *row = audit_row(id, "verify");
		CU_ASSERT_PTR_NOT_NULL_FATAL(row);
		ASSERT_STR_EQ(jstr(row, "actor"), "web");
		CU_ASSERT(json_is_false(json_object_get(json_object_get(row, "detail"), "ok")));
		json_decref(row);
	}
}

/* Percent-encode s for a form body. */
static void form_escape(struct buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
		    ch == '_' || ch == '.')
			buf_addc(b, (char)ch);
		else
			buf_addf(b, "%%%02X", ch);
	}
}

static void test_admin__pages(void)
{
	struct ht_resp r;
	struct buf form = BUF_INIT;
	char seats[2][64], path[160], small[256];
	int64_t id = new_game(NULL, seats), imported;
	json_t *file;
	char *text;

	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 2\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(play(id, seats[1], "[\"add 3\"]"), 200);

	/* the list, with filters */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/admin?email=bob%40example.org&status=active", admin_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	snprintf(small, sizeof(small), "href=\"/admin/games/%lld\"", (long long)id);
	CU_ASSERT(strstr(r.body.data, small) != NULL);
	CU_ASSERT(strstr(r.body.data, "bob@example.org") != NULL);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/admin?email=nobody%40example.org", admin_cookie, NULL, &r), 0);
	CU_ASSERT(strstr(r.body.data, "No games match") != NULL);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/admin?waiting_days=soon", admin_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);

	/* a game: seats, timeline with channel and address, notifications, chat, actions */
	snprintf(path, sizeof(path), "/admin/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, admin_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "<code>add 3</code>") != NULL);
	CU_ASSERT(strstr(r.body.data, "api · ") != NULL);
	CU_ASSERT(strstr(r.body.data, "127.0.0.1") != NULL);
	CU_ASSERT(strstr(r.body.data, "<strong>invite</strong>") != NULL);
	CU_ASSERT(strstr(r.body.data, "Roll back to an earlier step") != NULL);
	CU_ASSERT(strstr(r.body.data, "ann@example.org") != NULL);
	ht_resp_release(&r);

	/* a step, with the way back and forward, and the diff to the set-up */
	snprintf(path, sizeof(path), "/admin/games/%lld/step?n=1&diff=0", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, admin_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "Step 1 of 3") != NULL);
	CU_ASSERT(strstr(r.body.data, "step?n=0\" rel=\"prev\"") != NULL);
	CU_ASSERT(strstr(r.body.data, "step?n=2\" rel=\"next\"") != NULL);
	CU_ASSERT(strstr(r.body.data, "From step 0 to step 1") != NULL);
	CU_ASSERT(strstr(r.body.data, "<code class=\"path\">total[0]</code>") != NULL);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/admin/games/%lld/step?n=9", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, admin_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
	/* the same diff from the API */
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/diff?from=0&to=3", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(json_array_size(json_object_get(r.json, "changes")) >= 3);
	ht_resp_release(&r);

	/* an action from the page: without a reason it is refused, with one it is done and audited */
	snprintf(path, sizeof(path), "/admin/games/%lld/rollback", (long long)id);
	snprintf(small, sizeof(small), "csrf=%s&to=1&reason=", admin_csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, admin_cookie, small, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT(strstr(r.body.data, "needs a reason") != NULL);
	ht_resp_release(&r);
	snprintf(small, sizeof(small), "csrf=%s&to=1&reason=Bob+asked", admin_csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, admin_cookie, small, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	snprintf(path, sizeof(path), "/admin/games/%lld?done=rollback", (long long)id);
	ASSERT_STR_EQ(r.location, path);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, admin_cookie, NULL, &r), 0);
	CU_ASSERT(strstr(r.body.data, "Rolled back.") != NULL);
	CU_ASSERT(strstr(r.body.data, "<code>rollback to 1</code>") != NULL);
	ht_resp_release(&r);
	{
		json_t *row = audit_row(id, "rollback");
		CU_ASSERT_PTR_NOT_NULL_FATAL(row);
		ASSERT_STR_EQ(jstr(row, "actor"), "web");
		ASSERT_STR_EQ(jstr(row, "reason"), "Bob asked");
		json_decref(row);
	}

	/* the audit page, filtered */
	snprintf(path, sizeof(path), "/admin/audit?game=%lld&action=rollback", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, admin_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "Why: Bob asked") != NULL);
	CU_ASSERT(strstr(r.body.data, "admin@example.org via web") != NULL);
	ht_resp_release(&r);

	/* export from the page, and import a file larger than an ordinary form field through the page */
	snprintf(path, sizeof(path), "/admin/games/%lld/export", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, admin_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(r.content_type, "application/json");
	file = json_incref(r.json);
	ht_resp_release(&r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(file);
	/* pad with a long option-free field the importer ignores, past the 8 KiB a form field may have */
	{
		struct buf pad = BUF_INIT;
		for (int i = 0; i < 1200; i++)
			buf_adds(&pad, "padding ");
		json_object_set_new(file, "note", json_string(pad.data));
		buf_release(&pad);
	}
	text = json_dumps(file, JSON_INDENT(1));
	json_decref(file);
	buf_addf(&form, "csrf=%s&reason=moved+servers&replay=", admin_csrf);
	form_escape(&form, text);
	free(text);
	CU_ASSERT(form.len > 9000);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/admin/import", admin_cookie, form.data, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	CU_ASSERT(sscanf(r.location, "/admin/games/%lld?done=import", (long long *)&imported) == 1);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(move_count(imported), 4);
	/* a player may not send that much to the import page */
	buf_reset(&form);
	buf_addf(&form, "csrf=%s&reason=x&replay=", user_csrf);
	for (int i = 0; i < 9000; i++)
		buf_addc(&form, 'x');
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/admin/import", user_cookie, form.data, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	/* not JSON */
	buf_reset(&form);
	buf_addf(&form, "csrf=%s&reason=x&replay=%%7Bnope", admin_csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/admin/import", admin_cookie, form.data, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT(strstr(r.body.data, "not JSON") != NULL);
	ht_resp_release(&r);
	buf_release(&form);
}

/* An imported game whose last step was long ago: the "waiting longer than" filter finds it. */
static void test_admin__game_filters(void)
{
	struct ht_resp r;
	char seats[2][64], path[160], body[2048];
	int64_t id = new_game(NULL, seats), old, dead_game = new_game(NULL, NULL);
	long long long_ago = (long long)clock_now_ms() - 20LL * 24 * 3600 * 1000;
	size_t i;
	json_t *g;
	int found = 0;

	CU_ASSERT_FATAL(id > 0 && dead_game > 0);
	snprintf(body, sizeof(body),
		 "{\"reason\":\"old game\",\"replay\":{\"format\":\"turnpost-replay\",\"version\":1,\"game\":\"counting-race\","
		 "\"options\":{},\"seed\":\"7\",\"created_at\":%lld,\"seats\":[{\"seat\":0,\"name\":\"Old\",\"email\":"
		 "\"old@example.org\"},{\"seat\":1,\"name\":\"Timer\",\"email\":null}],\"moves\":[{\"n\":1,\"seat\":0,"
		 "\"text\":\"add 1\",\"via\":\"email\",\"at\":%lld}]}}",
		 long_ago, long_ago + 1000);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/admin/games/import", admin_token, body, &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	old = jint(r.json, "id");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/admin/games?waiting_days=10", admin_token, NULL, &r), 0);
	json_array_foreach(json_object_get(r.json, "games"), i, g) {
		CU_ASSERT(jint(g, "id") != id);
		found += jint(g, "id") == old;
	}
	CU_ASSERT_EQUAL(found, 1);
	ht_resp_release(&r);
	/* by player email, by game and status */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/admin/games?email=OLD%40example.org", admin_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "games")), 1);
	CU_ASSERT_EQUAL(jint(json_array_get(json_object_get(r.json, "games"), 0), "id"), old);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/admin/games?game=alien-frontiers", admin_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "games")), 0);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/admin/games?status=done", admin_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	/* with dead-lettered notifications */
	CU_ASSERT(dead_letter(dead_game) > 0);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/admin/games?dead=1", admin_token, NULL, &r), 0);
	found = 0;
	json_array_foreach(json_object_get(r.json, "games"), i, g) {
		CU_ASSERT(jint(g, "dead") >= 1);
		found += jint(g, "id") == dead_game;
	}
	CU_ASSERT_EQUAL(found, 1);
	ht_resp_release(&r);
	/* the game's notifications and chat */
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/notifications", (long long)dead_game);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	found = 0;
	json_array_foreach(json_object_get(r.json, "notifications"), i, g)
		found += strcmp(jstr(g, "state"), "dead") == 0 && strstr(jstr(g, "last_error"), "550") != NULL;
	CU_ASSERT_EQUAL(found, 1);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/chat", (long long)dead_game);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	CU_ASSERT(json_is_array(json_object_get(r.json, "chat")));
	ht_resp_release(&r);
}

/* The player of a step is whoever sat in the seat then, not the seat's player now. */
static void test_admin__timeline_names_who_played_each_step(void)
{
	struct ht_resp r;
	char seats[2][64], path[128], carl[64];
	int64_t id = new_game(NULL, seats);
	json_t *steps;

	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 1\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(play(id, seats[1], "[\"add 2\",\"end\"]"), 200);
	/* Bob hands his seat to Dora after step 4 */
	CU_ASSERT_EQUAL(act(id, "seat", "{\"seat\":1,\"email\":\"dora@example.org\",\"name\":\"Dora\",\"reason\":\"swap\"}",
			    &r), 200);
	snprintf(carl, sizeof(carl), "%s", jstr(r.json, "token"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 1\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(play(id, carl, "[\"add 3\",\"end\"]"), 200);
	/* then Ann is dropped: the bot plays seat 0 as "Ann (bot)" */
	CU_ASSERT_EQUAL(act(id, "drop", "{\"seat\":0,\"reason\":\"gone\"}", &r), 200);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(wait_count(id, 9), 0);

	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/timeline", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	steps = json_object_get(r.json, "steps");
	CU_ASSERT_FATAL(json_array_size(steps) >= 9);
	ASSERT_STR_EQ(jstr(json_array_get(steps, 0), "player"), "Ann");
	ASSERT_STR_EQ(jstr(json_array_get(steps, 2), "player"), "Bob");
	ASSERT_STR_EQ(jstr(json_array_get(steps, 3), "player"), "Bob");
	ASSERT_STR_EQ(jstr(json_array_get(steps, 4), "player"), "Ann");
	ASSERT_STR_EQ(jstr(json_array_get(steps, 6), "player"), "Dora");
	ASSERT_STR_EQ(jstr(json_array_get(steps, 8), "player"), "Ann (bot)");
	ASSERT_STR_EQ(jstr(json_array_get(steps, 8), "via"), "timeout");
	ht_resp_release(&r);
	/* the position of a step says the same */
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/position?n=3", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	ASSERT_STR_EQ(jstr(json_object_get(r.json, "step"), "player"), "Bob");
	ht_resp_release(&r);
	/* and the game page's timeline */
	snprintf(path, sizeof(path), "/admin/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, admin_cookie, NULL, &r), 0);
	CU_ASSERT(strstr(r.body.data, "<strong>Bob</strong> <code>add 2</code>") != NULL);
	ht_resp_release(&r);
}

/* The newest audit row of an action, any game (new), or NULL. */
static json_t *newest_audit(const char *action)
{
	struct ht_resp r;
	char path[128];
	json_t *row = NULL;

	snprintf(path, sizeof(path), "/api/v1/admin/audit?action=%s&limit=1", action);
	if (ht_api(&d, "GET", path, admin_token, NULL, &r) == 0 && r.status == 200)
		row = json_incref(json_array_get(json_object_get(r.json, "audit"), 0));
	ht_resp_release(&r);
	return row;
}

/* Chat lines for a game, written as the daemon would (the test has no browser session). */
static int say(int64_t game_id, int seat, const char *email, const char *text)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct err e = {0};
	int64_t user = 0;
	int rc;

	if (store_open(d.db, NULL, &s, &e) < 0)
		return -1;
	if ((rc = store_write_begin(s, &c, &e)) == 0) {
		rc = store_user_ensure(c, email, "Someone", &user, &e);
		if (rc == 0)
			rc = store_chat_add(c, game_id, seat, user, text, clock_now_ms(), &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	store_close(s);
	return rc;
}

/* POST the replay file of game id to the import endpoint (with "notify" when notify); the new game's id. */
static int64_t api_import(int64_t id, int notify, json_t **exported)
{
	struct ht_resp r;
	char path[96];
	struct buf body = BUF_INIT;
	char *file;
	int64_t copy = 0;

	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/export", (long long)id);
	if (ht_api(&d, "GET", path, admin_token, NULL, &r) < 0)
		return 0;
	file = json_dumps(r.json, JSON_COMPACT);
	if (exported)
		*exported = json_incref(r.json);
	ht_resp_release(&r);
	buf_addf(&body, "{\"reason\":\"moved servers\",\"replay\":%s%s}", file, notify ? ",\"notify\":true" : "");
	free(file);
	if (ht_api(&d, "POST", "/api/v1/admin/games/import", admin_token, body.data, &r) == 0) {
		CU_ASSERT_EQUAL(r.status, 201);
		copy = r.status == 201 ? jint(r.json, "id") : 0;
		ht_resp_release(&r);
	}
	buf_release(&body);
	return copy;
}

/* Export/import keeps the clock, the chat and players_see_emails; nobody is invited unless asked; audited. */
static void test_admin__import_keeps_the_clock_and_asks_before_inviting(void)
{
	char seats[2][64], path[96], args[256];
	int64_t id = new_game("\"players_see_emails\":true,\"clock\":{\"mode\":\"per_turn\",\"turn_hours\":24,"
			      "\"reminder_hours\":2,\"timeout\":\"notify\"}", seats), quiet, told, cli_copy = 0;
	static const char *const kept[] = { "clock", "chat", "players_see_emails", "seats", "moves" };
	struct buf out = BUF_INIT;
	struct ht_resp r;
	json_t *a = NULL, *b = NULL, *users;
	FILE *f;

	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(play(id, seats[0], "[\"add 2\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(say(id, 0, "ann@example.org", "good luck"), 0);
	CU_ASSERT_EQUAL(say(id, -1, "referee@example.org", "the server moves tonight"), 0);
	CU_ASSERT_EQUAL(act(id, "extend", "{\"seat\":1,\"hours\":30,\"reason\":\"travelling\"}", &r), 200);
	ht_resp_release(&r);

	quiet = api_import(id, 0, &a);
	CU_ASSERT_FATAL(quiet > 0);
	check_audit(quiet, "import", "moved servers", -1, -1);
	users = notified(quiet, "invite");
	CU_ASSERT_EQUAL(json_array_size(users), 0);
	json_decref(users);
	users = notified(quiet, "your_turn");
	CU_ASSERT_EQUAL(json_array_size(users), 0);
	json_decref(users);
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/export", (long long)quiet);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	b = json_incref(r.json);
	ht_resp_release(&r);
	CU_ASSERT(json_is_true(json_object_get(a, "players_see_emails")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(a, "chat")), 2);
	CU_ASSERT(json_integer_value(json_object_get(json_array_get(json_object_get(json_object_get(a, "clock"),
		"seats"), 1), "deadline_at")) > clock_now_ms() + 50LL * 3600 * 1000);
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		CU_ASSERT(json_equal(json_object_get(a, kept[i]), json_object_get(b, kept[i])));
	json_decref(b);

	/* asked: one invitation per seat with an email (Ann and Bob), no "your turn" besides */
	told = api_import(id, 1, NULL);
	CU_ASSERT_FATAL(told > 0);
	users = notified(told, "invite");
	CU_ASSERT_EQUAL(json_array_size(users), 2);
	json_decref(users);
	users = notified(told, "your_turn");
	CU_ASSERT_EQUAL(json_array_size(users), 0);
	json_decref(users);
	{
		json_t *row = audit_row(told, "import"), *det = json_object_get(row, "detail");
		json_t *parsed = json_is_string(det) ? json_loads(json_string_value(det), 0, NULL) : json_incref(det);
		CU_ASSERT(json_is_true(json_object_get(parsed, "notify")));
		json_decref(parsed);
		json_decref(row);
	}

	/* the command line: an audit row too; invitations only with --notify */
	snprintf(path, sizeof(path), "%s/import.json", d.dir);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(json_dumpf(a, f, 0), 0);
	fclose(f);
	snprintf(args, sizeof(args), "import %s --reason 'from the old host'", path);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	CU_ASSERT(sscanf(out.data, "game %lld imported", (long long *)&cli_copy) == 1);
	CU_ASSERT_FATAL(cli_copy > 0);
	{
		json_t *row = audit_row(cli_copy, "import");
		CU_ASSERT_PTR_NOT_NULL_FATAL(row);
		ASSERT_STR_EQ(jstr(row, "actor"), "cli");
		ASSERT_STR_EQ(jstr(row, "reason"), "from the old host");
		json_decref(row);
	}
	users = notified(cli_copy, "invite");
	CU_ASSERT_EQUAL(json_array_size(users), 0);
	json_decref(users);
	snprintf(args, sizeof(args), "import %s --notify", path);
	buf_reset(&out);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	CU_ASSERT(sscanf(out.data, "game %lld imported", (long long *)&cli_copy) == 1);
	users = notified(cli_copy, "invite");
	CU_ASSERT_EQUAL(json_array_size(users), 2);
	json_decref(users);
	buf_release(&out);
	json_decref(a);
}

/* DELETE /api/v1/tokens/{id}?reason= and POST /api/v1/admin/outbox/{id}/resend {"reason"} record their reason. */
static void test_admin__older_endpoints_record_a_reason(void)
{
	struct ht_resp r;
	char path[160];
	int64_t id = new_game(NULL, NULL), outbox;
	long long tid;
	json_t *row;
	int before;

	CU_ASSERT_FATAL(id > 0);
	/* a token to revoke: a new API token of the admin */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/tokens", admin_token, "{\"label\":\"spare\"}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	tid = jint(r.json, "id");
	ht_resp_release(&r);
	/* a reason with a control character is refused and nothing is revoked or written */
	before = audit_total();
	snprintf(path, sizeof(path), "/api/v1/tokens/%lld?reason=a%%01b", tid);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", path, admin_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(audit_total(), before);
	snprintf(path, sizeof(path), "/api/v1/tokens/%lld?reason=left%%20the%%20club", tid);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", path, admin_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	row = newest_audit("token_revoke");
	CU_ASSERT_PTR_NOT_NULL_FATAL(row);
	ASSERT_STR_EQ(jstr(row, "reason"), "left the club");
	CU_ASSERT_EQUAL(jint(json_object_get(row, "detail"), "token"), tid);
	/* one audit row shape for every door (engine/tokens.c): the token's kind and label too */
	ASSERT_STR_EQ(jstr(json_object_get(row, "detail"), "kind"), "api");
	ASSERT_STR_EQ(jstr(json_object_get(row, "detail"), "label"), "spare");
	json_decref(row);

	/* the outbox re-send: a reason in the body */
	outbox = dead_letter(id);
	CU_ASSERT_FATAL(outbox > 0);
	snprintf(path, sizeof(path), "/api/v1/admin/outbox/%lld/resend", (long long)outbox);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, admin_token, "\"no object\"", &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, admin_token, "{\"reason\":\"relay fixed\"}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	row = newest_audit("outbox_resend");
	CU_ASSERT_PTR_NOT_NULL_FATAL(row);
	ASSERT_STR_EQ(jstr(row, "reason"), "relay fixed");
	CU_ASSERT_EQUAL(jint(json_object_get(row, "detail"), "outbox"), outbox);
	/* the engine's shape (engine/outbox.c): the row's game and event too */
	CU_ASSERT_EQUAL(jint(row, "game"), id);
	CU_ASSERT_PTR_NOT_NULL(jstr(json_object_get(row, "detail"), "event"));
	json_decref(row);
	/* still optional there: without a body the row has no reason */
	outbox = dead_letter(id);
	snprintf(path, sizeof(path), "/api/v1/admin/outbox/%lld/resend", (long long)outbox);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, admin_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	row = newest_audit("outbox_resend");
	CU_ASSERT_PTR_NOT_NULL_FATAL(row);
	CU_ASSERT(json_is_null(json_object_get(row, "reason")) || !json_object_get(row, "reason"));
	json_decref(row);
}

/* Last: the daemon stops on SIGTERM with status 0 (under the sanitizers: no leaks, no errors). */
static void test_admin__daemon_stops_cleanly(void)
{
	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
}

static CU_TestInfo admin_cases[] = {
	{ "test_admin__every_admin_route_refuses_others", test_admin__every_admin_route_refuses_others },
	{ "test_admin__every_declaration_is_enforced_alike", test_admin__every_declaration_is_enforced_alike },
	{ "test_admin__every_action_leaves_its_audit_row", test_admin__every_action_leaves_its_audit_row },
	{ "test_admin__drop_lets_the_bot_play", test_admin__drop_lets_the_bot_play },
	{ "test_admin__rollback_then_play_on", test_admin__rollback_then_play_on },
	{ "test_admin__verify_finds_a_tampered_snapshot", test_admin__verify_finds_a_tampered_snapshot },
	{ "test_admin__pages", test_admin__pages },
	{ "test_admin__game_filters", test_admin__game_filters },
	{ "test_admin__timeline_names_who_played_each_step", test_admin__timeline_names_who_played_each_step },
	{ "test_admin__older_endpoints_record_a_reason", test_admin__older_endpoints_record_a_reason },
	{ "test_admin__import_keeps_the_clock_and_asks_before_inviting",
	  test_admin__import_keeps_the_clock_and_asks_before_inviting },
	{ "test_admin__daemon_stops_cleanly", test_admin__daemon_stops_cleanly },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("admin", suite_init, suite_clean, admin_cases);
	return 0;
}
