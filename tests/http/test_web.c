/* tests/http/test_web.c: the HTML pages over HTTP: sessions, CSRF, sign-in, game page, forms, escaping */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>
#include <zlib.h>

#include "httptest.h"
#include "store/store.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/token.h"

static struct ht_daemon d;
static char admin_token[64];
static char seat_link[2][64];
static int64_t game_id;
/* browser state of Ann (seat 0) and Bob (seat 1) */
static char ann_cookie[256], bob_cookie[256];
/* the same people signed in the full way, by a sign-in link (a seat link's session plays one seat only) */
static char ann_full[256], bob_full[256];

static void full_sign_in(void)
{
	if (!ann_full[0])
		CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "ann@example.org", ann_full, sizeof(ann_full)), 0);
	if (!bob_full[0])
		CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "bob@example.org", bob_full, sizeof(bob_full)), 0);
}

static int suite_init(void)
{
	struct buf out = BUF_INIT;
	struct ht_resp r;
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"},{\"name\":\"Open seat\"}]}";
	int rc;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	token_init();
	if (ht_start(&d, NULL) < 0)
		return -1;
	rc = ht_cli(&d, "user add admin@example.org --name Admin --admin", &out);
	ht_last_line(&out, admin_token, sizeof(admin_token));
	buf_release(&out);
	if (rc != 0 || ht_request(&d, "POST", "/api/v1/games", admin_token, NULL, body, strlen(body), &r) < 0)
		return -1;
	game_id = json_integer_value(json_object_get(r.json, "id"));
	for (int i = 0; i < 2; i++)
		snprintf(seat_link[i], sizeof(seat_link[i]), "%s",
			 json_string_value(json_object_get(json_array_get(json_object_get(r.json, "seats"), (size_t)i),
							   "token")));
	ht_resp_release(&r);
	return game_id > 0 ? 0 : -1;
}

static int suite_clean(void)
{
	ht_cleanup(&d);
	curl_global_cleanup();
	return 0;
}

/* Sign in through a seat link; fills cookie with "tp_session=..." */
static void seat_sign_in(int seat, char *cookie, size_t size)
{
	struct ht_resp r;
	char path[96], sess[80], want[64];

	snprintf(path, sizeof(path), "/s/%s", seat_link[seat]);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	snprintf(want, sizeof(want), "/games/%lld?seat=%d", (long long)game_id, seat);
	ASSERT_STR_EQ(r.location, want);
	CU_ASSERT_EQUAL_FATAL(ht_cookie(&r, "tp_session", sess, sizeof(sess)), 0);
	snprintf(cookie, size, "tp_session=%s", sess);
	ht_resp_release(&r);
}

/* The CSRF token of a page for this browser. */
static void page_csrf(const char *path, const char *cookie, char *csrf, size_t size)
{
	struct ht_resp r;

	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(ht_form_value(&r, "csrf", csrf, size), 0);
	ht_resp_release(&r);
}

static int moves_stored(void)
{
	struct ht_resp r;
	char path[64];
	int n;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)game_id);
	if (ht_request(&d, "GET", path, admin_token, NULL, NULL, 0, &r) < 0)
		return -1;
	n = (int)json_array_size(json_object_get(r.json, "moves"));
	ht_resp_release(&r);
	return n;
}

/*
 * A token of kind for Ann, written to the database as the server mints
 * them (label, live for lifetime_ms from its writing, 0: for ever): its
 * text into tok, its id into *id (may be NULL). When it expires (0: never).
 * The store is open before the lifetime starts, so a short one is not
 * spent on connecting.
 */
static int64_t mint_token(enum store_token_kind kind, const char *label, int64_t lifetime_ms,
			  char tok[TOKEN_TEXT_MAX], int64_t *id)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct store_user u;
	struct err e = {0};
	unsigned char hash[32];
	int64_t expires_at;

	token_new(tok, hash);
	CU_ASSERT_EQUAL_FATAL(store_open(d.db, &(struct store_options){ .read_connections = 1 }, &s, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(s, &c, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_user_by_email(c, "ann@example.org", &u, &e), 0);
	expires_at = lifetime_ms ? clock_now_ms() + lifetime_ms : 0;
	CU_ASSERT_EQUAL(store_token_add(c, hash, kind, u.id, 0, -1, label, expires_at, id, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	store_user_release(&u);
	store_close(s);
	return expires_at;
}

/*
 * GET path without a session: its status; the CSRF token it sets into
 * csrf, "tp_csrf=TOKEN" into cookie (128 bytes) and "csrf=TOKEN" into
 * form (64 bytes or more).
 */
static long csrf_cookie(const char *path, char csrf[64], char cookie[128], char *form, size_t form_size)
{
	struct ht_resp r;
	long status;

	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(ht_cookie(&r, "tp_csrf", csrf, 64), 0);
	status = r.status;
	ht_resp_release(&r);
	snprintf(cookie, 128, "tp_csrf=%s", csrf);
	snprintf(form, form_size, "csrf=%s", csrf);
	return status;
}

/*
 * POST form to the sign-in link path with cookie: its status, and when
 * session is not NULL, the session it starts as "tp_session=..." into it
 * (128 bytes).
 */
static long sign_in_by_link(const char *path, const char *cookie, const char *form, char *session)
{
	struct ht_resp r;
	char sess[80];
	long status;

	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
	status = r.status;
	if (session) {
		CU_ASSERT_EQUAL(ht_cookie(&r, "tp_session", sess, sizeof(sess)), 0);
		snprintf(session, 128, "tp_session=%s", sess);
	}
	ht_resp_release(&r);
	return status;
}

static void test_web__home_headers_and_404(void)
{
	struct ht_resp r;
	char csrf[64];

	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(r.content_type, "text/html; charset=utf-8");
	CU_ASSERT(strstr(r.csp, "frame-ancestors 'none'") != NULL);
	CU_ASSERT(strstr(r.csp, "default-src 'none'") != NULL);
	ASSERT_STR_EQ(r.frame_options, "DENY");
	CU_ASSERT(strstr(r.body.data, "name=\"viewport\"") != NULL);
	CU_ASSERT_EQUAL(ht_cookie(&r, "tp_csrf", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/no/such/page", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	CU_ASSERT(strstr(r.body.data, "There is no such page.") != NULL);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/static/style.css", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.content_type, "text/css") != NULL);
	CU_ASSERT(strstr(r.body.data, "min-height: 44px") != NULL);
	ht_resp_release(&r);
}

static void test_web__signin_needs_csrf_and_tells_nothing(void)
{
	struct ht_resp r;
	struct store *s = NULL;
	struct store_conn *c;
	struct err e = {0};
	char csrf[64], cookie[128], form[256];
	int count = -1;

	/* no token at all: refused, nothing queued */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/signin", NULL, "email=ann%40example.org", &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	/* the double-submit cookie and the form field together */
	csrf_cookie("/signin", csrf, cookie, form, sizeof(form));
	snprintf(form, sizeof(form), "csrf=%s&email=ann%%40example.org", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/signin", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "a sign-in link is on its way") != NULL);
	ht_resp_release(&r);
	/* an unknown address gets the same answer and queues nothing */
	snprintf(form, sizeof(form), "csrf=%s&email=nobody%%40example.org", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/signin", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "a sign-in link is on its way") != NULL);
	ht_resp_release(&r);
	/* a wrong token with the right cookie */
	snprintf(form, sizeof(form), "csrf=AAAA%s&email=ann%%40example.org", csrf + 4);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/signin", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(store_open(d.db, NULL, &s, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(s, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_count(c, 0, "signin", &count, &e), 0);
	store_read_release(c);
	store_close(s);
	(void)count;
}

static void test_web__signin_link_single_use(void)
{
	struct ht_resp r;
	char tok[TOKEN_TEXT_MAX], path[96], csrf[64], cookie[128], form[128];

	/* a sign-in token as the notifier mints it */
	mint_token(TOKEN_SIGNIN, "signin", 900000, tok, NULL);
	snprintf(path, sizeof(path), "/signin/%s", tok);
	CU_ASSERT_EQUAL(csrf_cookie(path, csrf, cookie, form, sizeof(form)), 200);
	/* the session works: the home page greets Ann */
	CU_ASSERT_EQUAL(sign_in_by_link(path, cookie, form, cookie), 303);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/", cookie, NULL, &r), 0);
	CU_ASSERT(strstr(r.body.data, "Your games") != NULL);
	CU_ASSERT(strstr(r.body.data, "Waiting for you") != NULL);
	ht_resp_release(&r);
	/* used once: the second time it is refused */
	snprintf(cookie, sizeof(cookie), "tp_csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT(strstr(r.body.data, "expired or was used already") != NULL);
	ht_resp_release(&r);
}

/* The sign-in link in an email the notifier wrote into the mail directory ("" when none within 20 s). */
static void find_signin_link(char *token, size_t size)
{
	char cmd[600];

	token[0] = '\0';
	/* Bob's sign-in email: undo quoted-printable soft line breaks, then find the link */
	snprintf(cmd, sizeof(cmd),
		 "for f in $(grep -l 'X-Turnpost-Event: signin' %s/var/mail/*.eml 2>/dev/null); do"
		 " grep -q '^To: .*bob@example.org' $f && cat $f; done | tr -d '\\r' |"
		 " sed -e ':a' -e '/=$/{N;s/=\\n//;ba' -e '}' | grep -oE '/signin/tp_[A-Za-z0-9_-]{43}' | tail -n 1",
		 d.dir);
	for (int i = 0; i < 400 && !token[0]; i++) {
		FILE *p = popen(cmd, "r");
		char line[128] = "";
		if (p) {
			if (fgets(line, sizeof(line), p))
				snprintf(token, size, "%.46s", line + 8);
			pclose(p);
		}
		if (!token[0])
			usleep(50 * 1000);
	}
}

static void test_web__signin_by_email_end_to_end(void)
{
	struct ht_resp r;
	char csrf[64], cookie[128], form[256], tok[64], path[96];

	csrf_cookie("/signin", csrf, cookie, form, sizeof(form));
	snprintf(form, sizeof(form), "csrf=%s&email=bob%%40example.org", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/signin", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	/* the notifier delivers the link by email (the file transport here) */
	find_signin_link(tok, sizeof(tok));
	CU_ASSERT_EQUAL_FATAL(strncmp(tok, "tp_", 3), 0);
	snprintf(path, sizeof(path), "/signin/%s", tok);
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL(sign_in_by_link(path, cookie, form, cookie), 303);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "bob@example.org") != NULL);
	ht_resp_release(&r);
}

static void test_web__cli_signin_link(void)
{
	struct buf out = BUF_INIT;
	char link[200], path[96], csrf[64], cookie[128], form[96], *p;

	CU_ASSERT_EQUAL(ht_cli(&d, "user link admin@example.org --base-url https://games.example.org/", &out), 0);
	ht_last_line(&out, link, sizeof(link));
	CU_ASSERT_EQUAL_FATAL(strncmp(link, "https://games.example.org/signin/tp_", 36), 0);
	p = strstr(link, "/signin/");
	snprintf(path, sizeof(path), "%s", p);
	buf_reset(&out);
	CU_ASSERT_NOT_EQUAL(ht_cli(&d, "user link nobody@example.org", &out), 0);
	buf_release(&out);
	csrf_cookie(path, csrf, cookie, form, sizeof(form));
	CU_ASSERT_EQUAL(sign_in_by_link(path, cookie, form, NULL), 303);
}

static void test_web__seat_link_and_game_page(void)
{
	struct ht_resp r;
	char path[64];

	seat_sign_in(0, ann_cookie, sizeof(ann_cookie));
	seat_sign_in(1, bob_cookie, sizeof(bob_cookie));
	snprintf(path, sizeof(path), "/games/%lld", (long long)game_id);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, ann_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "value=\"add 1\"") != NULL);
	CU_ASSERT(strstr(r.body.data, "Your move") != NULL);
	CU_ASSERT(r.body.len < 100 * 1024);
	ht_resp_release(&r);
	/* Bob waits: no buttons */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, bob_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "Your move") == NULL);
	ht_resp_release(&r);
	/* signed out: to the sign-in page */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ASSERT_STR_EQ(r.location, "/signin");
	ht_resp_release(&r);
	/* a bad seat link */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/s/tp_nonsense", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
}

static void test_web__move_forms(void)
{
	struct ht_resp r;
	char path[64], gpath[64], csrf[64], form[256];

	snprintf(gpath, sizeof(gpath), "/games/%lld", (long long)game_id);
	snprintf(path, sizeof(path), "/games/%lld/move", (long long)game_id);
	page_csrf(gpath, ann_cookie, csrf, sizeof(csrf));
	/* without the CSRF token: refused, nothing stored */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_cookie, "move=add+1&mc=0", &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(moves_stored(), 0);
	/* Bob's token on Ann's session does not work either */
	{
		char bob_csrf[64];
		page_csrf(gpath, bob_cookie, bob_csrf, sizeof(bob_csrf));
		CU_ASSERT(strcmp(bob_csrf, csrf) != 0);
		snprintf(form, sizeof(form), "csrf=%s&move=add+1&mc=0", bob_csrf);
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_cookie, form, &r), 0);
		CU_ASSERT_EQUAL(r.status, 403);
		ht_resp_release(&r);
	}
	/* a tap on a button */
	snprintf(form, sizeof(form), "csrf=%s&move=add+2&mc=0&seat=0", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(moves_stored(), 1);
	/* an illegal typed line: 422 with the error next to the form, the text kept */
	snprintf(form, sizeof(form), "csrf=%s&moves=add+1%%0Aadd+7&mc=1", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 422);
	CU_ASSERT(strstr(r.body.data, "Line 2") != NULL);
	CU_ASSERT(strstr(r.body.data, "not 7") != NULL);
	CU_ASSERT(strstr(r.body.data, "add 1\nadd 7</textarea>") != NULL);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(moves_stored(), 1);
	/* a stale page: 412 and the new position */
	snprintf(form, sizeof(form), "csrf=%s&move=add+1&mc=0", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 412);
	CU_ASSERT(strstr(r.body.data, "moved on") != NULL);
	ht_resp_release(&r);
	/* undo is offered and works */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", gpath, ann_cookie, NULL, &r), 0);
	CU_ASSERT(strstr(r.body.data, "value=\"undo\"") != NULL);
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&move=undo&mc=1", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&moves=add+3%%0A%%23+done%%0Aend&mc=2", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(moves_stored(), 4);
	/* not Ann's turn any more */
	snprintf(form, sizeof(form), "csrf=%s&move=add+1&mc=4", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(moves_stored(), 4);
}

static void test_web__history_and_chat_escape(void)
{
	struct ht_resp r;
	char path[64], gpath[64], csrf[64], form[256];

	snprintf(gpath, sizeof(gpath), "/games/%lld", (long long)game_id);
	snprintf(path, sizeof(path), "/games/%lld/history", (long long)game_id);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, bob_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	/* the story in words, newest first; what Ann took back is not Bob's business */
	CU_ASSERT(strstr(r.body.data, "Ann: end <span") != NULL);
	CU_ASSERT(strstr(r.body.data, "Ann: add 3 <span") != NULL);
	CU_ASSERT(strstr(r.body.data, "Ann: end <span") < strstr(r.body.data, "Ann: add 3 <span"));
	CU_ASSERT(strstr(r.body.data, "Ann: add 2") == NULL);
	CU_ASSERT(strstr(r.body.data, "took back") == NULL);
	ht_resp_release(&r);
	/* Ann sees her own undo */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, ann_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "Ann: add 2 <em>(taken back)</em>") != NULL);
	CU_ASSERT(strstr(r.body.data, "Ann took back a step") != NULL);
	ht_resp_release(&r);
	page_csrf(gpath, bob_cookie, csrf, sizeof(csrf));
	snprintf(path, sizeof(path), "/games/%lld/chat", (long long)game_id);
	snprintf(form, sizeof(form), "csrf=%s&text=%%3Cscript%%3Ealert(1)%%3C%%2Fscript%%3E+good+luck", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, bob_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", gpath, ann_cookie, NULL, &r), 0);
	CU_ASSERT(strstr(r.body.data, "&lt;script&gt;alert(1)&lt;/script&gt; good luck") != NULL);
	CU_ASSERT(strstr(r.body.data, "<script>alert(1)") == NULL);
	ht_resp_release(&r);
	/* an empty message is refused */
	snprintf(form, sizeof(form), "csrf=%s&text=+", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, bob_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
}

static void test_web__account_new_game_join(void)
{
	struct ht_resp r;
	char csrf[64], form[512], path[300];

	full_sign_in();
	page_csrf("/account", bob_full, csrf, sizeof(csrf));
	snprintf(form, sizeof(form), "csrf=%s&name=Robert&email=bob%%40example.org&ev_your_turn=1&delivery=digest",
		 csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account", bob_full, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "Saved.") != NULL);
	CU_ASSERT(strstr(r.body.data, "value=\"Robert\"") != NULL);
	CU_ASSERT(strstr(r.body.data, "name=\"ev_chat\" value=\"1\" checked") == NULL);
	CU_ASSERT(strstr(r.body.data, "name=\"ev_your_turn\" value=\"1\" checked") != NULL);
	ht_resp_release(&r);
	/* another account's address is refused, and nothing changes */
	snprintf(form, sizeof(form), "csrf=%s&name=Bobby&email=ann%%40example.org", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account", bob_full, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT(strstr(r.body.data, "already uses ann@example.org") != NULL);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", bob_full, NULL, &r), 0);
	CU_ASSERT(strstr(r.body.data, "value=\"Robert\"") != NULL);
	CU_ASSERT(strstr(r.body.data, "value=\"bob@example.org\"") != NULL);
	ht_resp_release(&r);
	/* a new address of his own waits for the link sent to it (test_security), and is withdrawn */
	snprintf(form, sizeof(form), "csrf=%s&name=Robert&email=robert%%40example.org", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account", bob_full, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "We sent a link to robert@example.org") != NULL);
	CU_ASSERT(strstr(r.body.data, "value=\"bob@example.org\"") != NULL);
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&name=Robert&email=bob%%40example.org&ev_your_turn=1&delivery=digest", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account", bob_full, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "We sent a link") == NULL);
	ht_resp_release(&r);
	/* a malformed form body is refused */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account", bob_full, "csrf=%zz", &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	/* Bob starts a game with an open seat */
	page_csrf("/games/new", bob_full, csrf, sizeof(csrf));
	snprintf(form, sizeof(form), "csrf=%s&game=counting-race&name0=Robert&email0=bob%%40example.org&name1=Anyone",
		 csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/games/new", bob_full, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	snprintf(path, sizeof(path), "%s/join", r.location);
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&game=counting-race&name0=Robert&email0=not-an-email", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/games/new", bob_full, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT(strstr(r.body.data, "is not an email address") != NULL);
	ht_resp_release(&r);
	/* Ann sees it among open seats and joins */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/", ann_full, NULL, &r), 0);
	CU_ASSERT(strstr(r.body.data, "Open seats you can join") != NULL);
	ht_resp_release(&r);
	page_csrf("/", ann_full, csrf, sizeof(csrf));
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_full, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, ann_full, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 409);
	ht_resp_release(&r);
}

static void test_web__new_game_options_and_clock(void)
{
	struct ht_resp r;
	char csrf[64], form[600], path[300];

	full_sign_in();
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/games/new", bob_full, NULL, &r), 0);
	CU_ASSERT(strstr(r.body.data, "name=\"opt_counting-race_target\"") != NULL);
	CU_ASSERT(strstr(r.body.data, "name=\"opt_space-station-phoenix_first_game\"") != NULL);
	CU_ASSERT(strstr(r.body.data, "name=\"clock_mode\"") != NULL);
	ht_resp_release(&r);
	page_csrf("/games/new", bob_full, csrf, sizeof(csrf));
	/* a bad option and a bad clock are refused with the form kept */
	snprintf(form, sizeof(form), "csrf=%s&game=counting-race&name0=Robert&email0=bob%%40example.org"
		 "&opt_counting-race_target=lots", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/games/new", bob_full, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT(strstr(r.body.data, "whole number") != NULL);
	CU_ASSERT(strstr(r.body.data, "value=\"lots\"") != NULL);
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&game=counting-race&name0=Robert&email0=bob%%40example.org"
		 "&clock_mode=per_turn&clock_hours=soon", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/games/new", bob_full, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT(strstr(r.body.data, "number of hours") != NULL);
	ht_resp_release(&r);
	/* a game with a target of 6 and 48 hours a turn */
	snprintf(form, sizeof(form), "csrf=%s&game=counting-race&name0=Robert&email0=bob%%40example.org"
		 "&name1=Ann&email1=ann%%40example.org&opt_counting-race_target=6"
		 "&clock_mode=per_turn&clock_hours=48&clock_timeout=bot", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/games/new", bob_full, form, &r), 0);
	CU_ASSERT_EQUAL_FATAL(r.status, 303);
	snprintf(path, sizeof(path), "/api/v1%s", r.location);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "GET", path, admin_token, NULL, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(r.json, "view"), "target")), 6);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_object_get(r.json, "clock"), "mode")), "per_turn");
	ht_resp_release(&r);
}

static void test_web__history_names_the_player_of_each_step(void)
{
	struct ht_resp r;
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	char path[96], seat0[64], moves[96];
	int64_t id;

	full_sign_in();
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", "/api/v1/games", admin_token, NULL, body, strlen(body), &r), 0);
	id = json_integer_value(json_object_get(r.json, "id"));
	snprintf(seat0, sizeof(seat0), "%s",
		 json_string_value(json_object_get(json_array_get(json_object_get(r.json, "seats"), 0), "token")));
	ht_resp_release(&r);
	snprintf(moves, sizeof(moves), "/api/v1/games/%lld/moves", (long long)id);
	body = "{\"moves\":[\"add 1\",\"end\"]}";
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", moves, seat0, NULL, body, strlen(body), &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	/* Ann hands her seat to Carol */
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/seat", (long long)id);
	body = "{\"seat\":0,\"name\":\"Carol\",\"email\":\"carol@example.org\",\"reason\":\"Ann moved away\"}";
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", path, admin_token, NULL, body, strlen(body), &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/games/%lld/history", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, bob_full, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "Ann: add 1 <span") != NULL);
	CU_ASSERT(strstr(r.body.data, "Carol: add 1") == NULL);
	ht_resp_release(&r);
}

static void test_web__signout(void)
{
	struct ht_resp r;
	char csrf[64], form[128];

	full_sign_in();
	page_csrf("/", ann_full, csrf, sizeof(csrf));
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/signout", ann_full, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	/* the old cookie is dead */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", ann_full, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
}

/* Game pages answered with the page kept for their session (http/answers.h). */
#define PAGES_KEPT "turnpost_game_pages_total{kept=\"yes\"}"

/*
 * GET path until the next answer is the kept page, the same bytes (a change
 * just made may still be followed by the notifier's commits, and a commit
 * while a page is made keeps it from being kept). The page (200) into out.
 */
static void page_kept(const char *path, const char *cookie, struct ht_resp *out)
{
	struct ht_resp again;
	int kept = 0;

	for (int tries = 0; !kept && tries < 100; tries++) {
		long k0;
		if (tries) {
			ht_resp_release(out);
			usleep(20000);
		}
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, cookie, NULL, out), 0);
		CU_ASSERT_EQUAL_FATAL(out->status, 200);
		k0 = ht_metric(&d, PAGES_KEPT);
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, cookie, NULL, &again), 0);
		CU_ASSERT_EQUAL(again.status, 200);
		if (ht_metric(&d, PAGES_KEPT) == k0 + 1) {
			kept = 1;
			CU_ASSERT(again.body.len == out->body.len &&
				  memcmp(again.body.data, out->body.data, out->body.len) == 0);
		}
		ht_resp_release(&again);
	}
	CU_ASSERT(kept);
}

/* A kept game page is never shown once what it shows changed: a step, a chat message, a seat's name. */
static void test_web__kept_page_follows_the_game(void)
{
	struct ht_resp r;
	char gpath[64], bpath[64], path[64], csrf[64], mc[16], form[256], body[256];

	snprintf(gpath, sizeof(gpath), "/games/%lld?seat=0", (long long)game_id);
	snprintf(bpath, sizeof(bpath), "/games/%lld?seat=1", (long long)game_id);
	/* a chat message */
	page_kept(gpath, ann_cookie, &r);
	CU_ASSERT(strstr(r.body.data, "the kept page is gone") == NULL);
	ht_resp_release(&r);
	page_csrf(bpath, bob_cookie, csrf, sizeof(csrf));
	snprintf(path, sizeof(path), "/games/%lld/chat", (long long)game_id);
	snprintf(form, sizeof(form), "csrf=%s&text=the+kept+page+is+gone", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, bob_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	page_kept(gpath, ann_cookie, &r);
	CU_ASSERT(strstr(r.body.data, "the kept page is gone") != NULL);
	CU_ASSERT(strstr(r.body.data, "Bob: add 1") == NULL);
	ht_resp_release(&r);
	/* a step by Bob: Ann's story since her last turn shows it */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", bpath, bob_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL_FATAL(ht_form_value(&r, "mc", mc, sizeof(mc)), 0);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/games/%lld/move", (long long)game_id);
	snprintf(form, sizeof(form), "csrf=%s&move=add+1&mc=%s&seat=1", csrf, mc);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, bob_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	page_kept(gpath, ann_cookie, &r);
	CU_ASSERT(strstr(r.body.data, "Bob: add 1") != NULL);
	CU_ASSERT(strstr(r.body.data, "Cleo Renamed") == NULL);
	ht_resp_release(&r);
	/* the open seat named by an admin */
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/seat", (long long)game_id);
	snprintf(body, sizeof(body), "{\"seat\":2,\"name\":\"Cleo Renamed\",\"email\":null,\"reason\":\"a name\"}");
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", path, admin_token, NULL, body, strlen(body), &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	page_kept(gpath, ann_cookie, &r);
	CU_ASSERT(strstr(r.body.data, "Cleo Renamed") != NULL);
	ht_resp_release(&r);
}

/*
 * A session token for Ann made as sign-in makes one, live for lifetime_ms (0: for ever); cookie
 * "tp_session=...", *id. When it expires.
 */
static int64_t mint_session(int64_t lifetime_ms, char *cookie, size_t size, int64_t *id)
{
	char tok[TOKEN_TEXT_MAX];
	int64_t expires_at = mint_token(TOKEN_SESSION, "web session", lifetime_ms, tok, id);

	snprintf(cookie, size, "tp_session=%s", tok);
	return expires_at;
}

/* The page of a session that ended is not shown, kept or not: signed out, revoked by the CLI, expired. */
static void test_web__ended_session_stops_at_once(void)
{
	struct ht_resp r;
	struct buf out = BUF_INIT;
	char gpath[64], cookie[256], csrf[64], form[128], args[96];
	int64_t id = 0, expires;

	snprintf(gpath, sizeof(gpath), "/games/%lld?seat=0", (long long)game_id);
	/* signed out */
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "ann@example.org", cookie, sizeof(cookie)), 0);
	page_kept(gpath, cookie, &r);
	CU_ASSERT_EQUAL(ht_form_value(&r, "csrf", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/signout", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", gpath, cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ASSERT_STR_EQ(r.location, "/signin");
	ht_resp_release(&r);
	/* revoked by another process (the turnpost command on the same database) */
	mint_session(0, cookie, sizeof(cookie), &id);
	page_kept(gpath, cookie, &r);
	ht_resp_release(&r);
	snprintf(args, sizeof(args), "token revoke %lld --reason \"lost phone\"", (long long)id);
	CU_ASSERT_EQUAL(ht_cli(&d, args, &out), 0);
	buf_release(&out);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", gpath, cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	/* expired, while nothing was committed since the page was kept */
	expires = mint_session(1500, cookie, sizeof(cookie), &id);
	page_kept(gpath, cookie, &r);
	ht_resp_release(&r);
	while (clock_now_ms() <= expires + 50)
		usleep(50000);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", gpath, cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ASSERT_STR_EQ(r.location, "/signin");
	ht_resp_release(&r);
}

/* What a raw GET answered: its status, two headers and the body as sent. */
struct raw_page {
	long status;
	char encoding[32], vary[64];
	struct buf body;
};

static size_t raw_header(char *line, size_t size, size_t n, void *arg)
{
	struct raw_page *p = arg;
	size_t len = size * n;

	if (len > 17 && strncasecmp(line, "Content-Encoding:", 17) == 0)
		sscanf(line + 17, " %31[^\r\n]", p->encoding);
	if (len > 5 && strncasecmp(line, "Vary:", 5) == 0)
		sscanf(line + 5, " %63[^\r\n]", p->vary);
	return len;
}

static size_t raw_body(char *data, size_t size, size_t n, void *arg)
{
	buf_add(arg, data, size * n);
	return size * n;
}

/* GET path with cookie and Accept-Encoding: accept as a browser sends it, the body left as it came. */
static void raw_get(const char *path, const char *cookie, const char *accept, struct raw_page *out)
{
	CURL *curl = curl_easy_init();
	struct curl_slist *hl = NULL;
	char url[256], ch[320], ae[128];

	memset(out, 0, sizeof(*out));
	buf_init(&out->body);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", d.port, path);
	snprintf(ch, sizeof(ch), "Cookie: %s", cookie);
	snprintf(ae, sizeof(ae), "Accept-Encoding: %s", accept);
	hl = curl_slist_append(hl, ch);
	hl = curl_slist_append(hl, ae);
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hl);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, raw_header);
	curl_easy_setopt(curl, CURLOPT_HEADERDATA, out);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, raw_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out->body);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
	CU_ASSERT_EQUAL(curl_easy_perform(curl), CURLE_OK);
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
	curl_slist_free_all(hl);
	curl_easy_cleanup(curl);
}

/* A gzip body inflated into out: 0, or -1 when it is not one. */
static int gunzip(const struct buf *in, struct buf *out)
{
	z_stream z = {0};
	unsigned char chunk[8192];
	int rc;

	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return -1;
	z.next_in = (Bytef *)in->data;
	z.avail_in = (uInt)in->len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		rc = inflate(&z, Z_NO_FLUSH);
		buf_add(out, chunk, sizeof(chunk) - z.avail_out);
	} while (rc == Z_OK);
	inflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

/*
 * A kept page goes gzipped, byte for byte the page once inflated, to a
 * browser that accepts gzip, saying so; as it is to one that does not.
 */
static void test_web__kept_page_gzipped(void)
{
	struct ht_resp r;
	struct raw_page gz, plain;
	struct buf inflated = BUF_INIT;
	char gpath[64];

	snprintf(gpath, sizeof(gpath), "/games/%lld?seat=0", (long long)game_id);
	/* until it is the kept page that answers (a notifier's commit may come in between), as page_kept */
	for (int tries = 0; tries < 100; tries++) {
		if (tries) {
			ht_resp_release(&r);
			buf_release(&gz.body);
			usleep(20000);
		}
		page_kept(gpath, ann_cookie, &r);
		raw_get(gpath, ann_cookie, "gzip, deflate, br", &gz);
		if (gz.encoding[0])
			break;
	}
	CU_ASSERT_EQUAL(gz.status, 200);
	ASSERT_STR_EQ(gz.encoding, "gzip");
	ASSERT_STR_EQ(gz.vary, "Accept-Encoding");
	CU_ASSERT(gz.body.len < r.body.len / 2);
	CU_ASSERT_EQUAL_FATAL(gunzip(&gz.body, &inflated), 0);
	CU_ASSERT(inflated.len == r.body.len && memcmp(inflated.data, r.body.data, r.body.len) == 0);
	raw_get(gpath, ann_cookie, "identity", &plain);
	CU_ASSERT_EQUAL(plain.status, 200);
	ASSERT_STR_EQ(plain.encoding, "");
	ASSERT_STR_EQ(plain.vary, "Accept-Encoding");
	CU_ASSERT(strstr(plain.body.data, "<!DOCTYPE html>") == plain.body.data);
	buf_release(&inflated);
	buf_release(&gz.body);
	buf_release(&plain.body);
	ht_resp_release(&r);
}

static CU_TestInfo web_cases[] = {
	{ "test_web__home_headers_and_404", test_web__home_headers_and_404 },
	{ "test_web__signin_needs_csrf_and_tells_nothing", test_web__signin_needs_csrf_and_tells_nothing },
	{ "test_web__signin_link_single_use", test_web__signin_link_single_use },
	{ "test_web__signin_by_email_end_to_end", test_web__signin_by_email_end_to_end },
	{ "test_web__cli_signin_link", test_web__cli_signin_link },
	{ "test_web__seat_link_and_game_page", test_web__seat_link_and_game_page },
	{ "test_web__move_forms", test_web__move_forms },
	{ "test_web__history_and_chat_escape", test_web__history_and_chat_escape },
	{ "test_web__account_new_game_join", test_web__account_new_game_join },
	{ "test_web__new_game_options_and_clock", test_web__new_game_options_and_clock },
	{ "test_web__history_names_the_player_of_each_step", test_web__history_names_the_player_of_each_step },
	{ "test_web__signout", test_web__signout },
	{ "test_web__kept_page_follows_the_game", test_web__kept_page_follows_the_game },
	{ "test_web__kept_page_gzipped", test_web__kept_page_gzipped },
	{ "test_web__ended_session_stops_at_once", test_web__ended_session_stops_at_once },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("web", suite_init, suite_clean, web_cases);
	return 0;
}
