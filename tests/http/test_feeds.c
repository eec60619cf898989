/* tests/http/test_feeds.c: the private feeds over HTTP (Atom, iCalendar, their token) and the lobby's live scores */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curl/curl.h>

#include "httptest.h"
#include "testutil.h"
#include "util/token.h"

static struct ht_daemon d;
static char admin_token[64], ann_token[64];

/* Names that need escaping in XML (& <) and in iCalendar TEXT (, ; \), long enough to fold a line. */
#define ANN_SEAT "Ann & <Co>"
#define BOB_SEAT "Bob, the \\\"Builder\\\"; \\\\o/ of the long name that folds"

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
	ht_last_line(&out, ann_token, sizeof(ann_token));
	buf_release(&out);
	return rc;
}

static int suite_clean(void)
{
	ht_cleanup(&d);
	curl_global_cleanup();
	return 0;
}

/* A game created by the admin (body: the players and options); its id. */
static int64_t new_game(const char *body)
{
	struct ht_resp r;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/games", admin_token, body, &r), 0);
	if (r.status != 201)
		fprintf(stderr, "\n  create: %ld %s\n", r.status, r.body.data);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	id = json_integer_value(json_object_get(r.json, "id"));
	ht_resp_release(&r);
	return id;
}

static long play(int64_t id, const char *token, const char *moves)
{
	struct ht_resp r;
	char path[64], body[256];
	long status;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	snprintf(body, sizeof(body), "{\"moves\":%s}", moves);
	if (ht_api(&d, "POST", path, token, body, &r) < 0)
		return -1;
	status = r.status;
	ht_resp_release(&r);
	return status;
}

/* The path part of a feed link ("/feeds/TOKEN/games.atom"). */
static const char *path_of(const char *link)
{
	const char *p = strstr(link, "/feeds/");
	return p ? p : "/none";
}

/* Run tests/http/check_feeds.py on body as kind; its output into out; its exit status. */
static int check_feed(const char *kind, const struct buf *body, struct buf *out)
{
	char file[160], cmd[512], line[512];
	FILE *f, *p;
	int st;

	snprintf(file, sizeof(file), "%s/feed.%s", d.dir, kind);
	f = fopen(file, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(body->data, 1, body->len, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 %s/tests/http/check_feeds.py %s %s 2>&1",
		 getenv("TOP_SRCDIR") ? getenv("TOP_SRCDIR") : "../..", kind, file);
	p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	while (fgets(line, sizeof(line), p))
		buf_adds(out, line);
	st = pclose(p);
	if (st != 0)
		fprintf(stderr, "\n  %s does not validate:\n%s\n%s\n", kind, out->data, body->data);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A new feed token for token's account: its links into atom and ics (paths). */
static void new_feed_token(const char *token, char *atom, char *ics, size_t size)
{
	struct ht_resp r;

	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/me/feed-token", token, NULL, &r), 0);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	CU_ASSERT(strncmp(json_string_value(json_object_get(r.json, "token")), "tp_", 3) == 0);
	snprintf(atom, size, "%s", path_of(json_string_value(json_object_get(json_object_get(r.json, "links"), "atom"))));
	snprintf(ics, size, "%s", path_of(json_string_value(json_object_get(json_object_get(r.json, "links"), "ics"))));
	CU_ASSERT(strstr(json_string_value(json_object_get(json_object_get(r.json, "links"), "atom")),
			 "/feeds/tp_") != NULL);
	ht_resp_release(&r);
}

static long status_of(const char *path)
{
	struct ht_resp r;
	long s;

	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	s = r.status;
	ht_resp_release(&r);
	return s;
}

/* Does the file hold text (the database: tokens are kept as hashes only)? */
static int file_holds(const char *path, const char *text)
{
	FILE *f = fopen(path, "rb");
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;
	int found;

	if (!f)
		return 0;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	found = 0;
	for (size_t i = 0; !found && b.len >= strlen(text) && i <= b.len - strlen(text); i++)
		found = memcmp(b.data + i, text, strlen(text)) == 0;
	buf_release(&b);
	return found;
}

static void test_feeds__atom_and_calendar_validate(void)
{
	const char *clocked = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"" ANN_SEAT "\",\"email\":\"ann@example.org\"},"
			      "{\"name\":\"" BOB_SEAT "\",\"email\":\"bob@example.org\"}],"
			      "\"clock\":{\"mode\":\"per_turn\",\"turn_hours\":72}}";
	const char *short_race = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
				 "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}],\"options\":{\"target\":1}}";
	const char *long_race = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
				"{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	char atom[200], ics[200], want[200];
	struct buf out = BUF_INIT;
	struct ht_resp r;
	int64_t running, over, waiting_bob;

	running = new_game(clocked);
	over = new_game(short_race);
	/* a game waiting for Bob, not for Ann: not in Ann's feed */
	waiting_bob = new_game(long_race);
	CU_ASSERT_EQUAL(play(over, ann_token, "[\"add 1\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(play(waiting_bob, ann_token, "[\"add 1\",\"end\"]"), 200);
	new_feed_token(ann_token, atom, ics, sizeof(atom));

	/* the Atom feed: no sign-in, the link is enough */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", atom, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(r.content_type, "application/atom+xml; charset=utf-8");
	CU_ASSERT_EQUAL(check_feed("atom", &r.body, &out), 0);
	snprintf(want, sizeof(want), "title: Your turn in Counting Race (test game) #%lld\n", (long long)running);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, want));
	snprintf(want, sizeof(want), "title: Counting Race (test game) #%lld is finished\n", (long long)over);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, want));
	snprintf(want, sizeof(want), "#%lld", (long long)waiting_bob);
	CU_ASSERT_PTR_NULL(strstr(out.data, want));
	/* names are escaped, never raw markup */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "Players: Ann &amp; &lt;Co&gt;, Bob, the &quot;Builder&quot;; \\o/"));
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "<Co>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "<title>turnpost: games of Ann</title>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, ". Scores: Ann 1, Bob 0."));
	snprintf(want, sizeof(want), "href=\"http://127.0.0.1:%d/games/%lld\"", d.port, (long long)running);
	if (!strstr(r.body.data, want))
		fprintf(stderr, "\n  no %s in\n%s\n", want, r.body.data);
	ht_resp_release(&r);
	buf_reset(&out);

	/* the calendar: Ann's running deadline, folded and escaped */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", ics, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(r.content_type, "text/calendar; charset=utf-8");
	CU_ASSERT_EQUAL(check_feed("ics", &r.body, &out), 0);
	snprintf(want, sizeof(want), "summary: Your move is due in Counting Race (test game) #%lld\n", (long long)running);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, want));
	/* one event: the other games have no clock */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "BEGIN:VEVENT"));
	CU_ASSERT_PTR_NULL(strstr(strstr(r.body.data, "BEGIN:VEVENT") + 1, "BEGIN:VEVENT"));
	/* the long description was folded, and , ; \ escaped */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "\r\n "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "Bob\\, the \"Builder\"\\; \\\\o/"));
	ht_resp_release(&r);
	buf_release(&out);
}

static void test_feeds__token_replaced_revoked_and_good_for_nothing_else(void)
{
	char atom[200], ics[200], atom2[200], ics2[200], tok[80], path[200], db_wal[600];
	const char *h[2] = { NULL, NULL };
	char auth[120];
	struct ht_resp r;

	new_feed_token(ann_token, atom, ics, sizeof(atom));
	CU_ASSERT_EQUAL(status_of(atom), 200);
	/* kept as its hash only */
	snprintf(tok, sizeof(tok), "%.*s", (int)strcspn(atom + strlen("/feeds/"), "/"), atom + strlen("/feeds/"));
	snprintf(db_wal, sizeof(db_wal), "%s-wal", d.db);
	CU_ASSERT_EQUAL(file_holds(d.db, tok), 0);
	CU_ASSERT_EQUAL(file_holds(db_wal, tok), 0);
	/* the feed token is no API token, and signs no browser in */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me", tok, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	snprintf(auth, sizeof(auth), "Authorization: Bearer %s", tok);
	h[0] = auth;
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "GET", "/api/v1/games", NULL, h, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/s/%s", tok);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT(r.status != 303 && r.status != 200);
	CU_ASSERT_EQUAL(ht_cookie(&r, "tp_session", path, sizeof(path)), -1);
	ht_resp_release(&r);
	/* and no other token opens a feed: the API token, a made-up one */
	snprintf(path, sizeof(path), "/feeds/%s/games.atom", ann_token);
	CU_ASSERT_EQUAL(status_of(path), 404);
	CU_ASSERT_EQUAL(status_of("/feeds/tp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/games.atom"), 404);
	/* the API says there is one, and never shows it again */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/feed-token", ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(json_is_true(json_object_get(r.json, "exists")));
	CU_ASSERT_PTR_NULL(strstr(r.body.data, tok));
	ht_resp_release(&r);

	/* a new one replaces it: the old links stop working */
	new_feed_token(ann_token, atom2, ics2, sizeof(atom2));
	CU_ASSERT(strcmp(atom, atom2) != 0);
	CU_ASSERT_EQUAL(status_of(atom), 404);
	CU_ASSERT_EQUAL(status_of(ics), 404);
	CU_ASSERT_EQUAL(status_of(atom2), 200);
	CU_ASSERT_EQUAL(status_of(ics2), 200);

	/* the request log stops before the token */
	{
		char log[600];
		snprintf(log, sizeof(log), "%s", d.log);
		CU_ASSERT_EQUAL(file_holds(log, "GET /feeds/"), 1);
		CU_ASSERT_EQUAL(file_holds(log, tok), 0);
		CU_ASSERT_EQUAL(file_holds(log, atom2 + strlen("/feeds/")), 0);
	}

	/* revoked: 404 */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", "/api/v1/me/feed-token", ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 204);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(status_of(atom2), 404);
	CU_ASSERT_EQUAL(status_of(ics2), 404);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me/feed-token", ann_token, NULL, &r), 0);
	CU_ASSERT(json_is_false(json_object_get(r.json, "exists")));
	ht_resp_release(&r);
}

/* GET path with If-None-Match inm (NULL: none) into r. */
static void get_if(const char *path, const char *inm, struct ht_resp *r)
{
	char line[160];
	const char *h[2] = { NULL, NULL };

	if (inm) {
		snprintf(line, sizeof(line), "If-None-Match: %s", inm);
		h[0] = line;
	}
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "GET", path, NULL, h, NULL, 0, r), 0);
}

/* The feed at path answers 200 with an ETag (into etag, quoted), the same tag again, and 304 to it. */
static void check_etag(const char *path, char *etag, size_t size)
{
	char weak[100], other[100];
	struct ht_resp r, again;

	get_if(path, NULL, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strlen(r.etag) > 2 && r.etag[0] == '"');
	CU_ASSERT(r.body.len > 0);
	snprintf(etag, size, "%s", r.etag);
	/* the same feed, the same bytes and the same tag */
	get_if(path, NULL, &again);
	CU_ASSERT_EQUAL(again.status, 200);
	ASSERT_STR_EQ(again.etag, r.etag);
	CU_ASSERT(again.body.len == r.body.len && memcmp(again.body.data, r.body.data, r.body.len) == 0);
	ht_resp_release(&again);
	/* sent back: 304, no body, the tag again */
	get_if(path, etag, &again);
	CU_ASSERT_EQUAL(again.status, 304);
	CU_ASSERT_EQUAL(again.body.len, 0);
	ASSERT_STR_EQ(again.etag, r.etag);
	ht_resp_release(&again);
	/* among others, and weak: still the same */
	snprintf(weak, sizeof(weak), "\"nope\", W/%s", etag);
	get_if(path, weak, &again);
	CU_ASSERT_EQUAL(again.status, 304);
	ht_resp_release(&again);
	get_if(path, "*", &again);
	CU_ASSERT_EQUAL(again.status, 304);
	ht_resp_release(&again);
	/* another tag: the whole feed */
	snprintf(other, sizeof(other), "\"0%s", etag + 1);
	get_if(path, other, &again);
	CU_ASSERT_EQUAL(again.status, 200);
	CU_ASSERT(again.body.len == r.body.len);
	ht_resp_release(&again);
	ht_resp_release(&r);
}

static void test_feeds__etag_and_if_none_match(void)
{
	const char *clocked = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			      "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}],"
			      "\"clock\":{\"mode\":\"per_turn\",\"turn_hours\":72}}";
	char atom[200], ics[200], atom_tag[100], ics_tag[100];
	struct ht_resp r;
	int64_t id = new_game(clocked);

	new_feed_token(ann_token, atom, ics, sizeof(atom));
	check_etag(atom, atom_tag, sizeof(atom_tag));
	check_etag(ics, ics_tag, sizeof(ics_tag));
	CU_ASSERT(strcmp(atom_tag, ics_tag) != 0);
	/* Ann moves: the game waits for Bob, both feeds change, the old tags get the new feeds */
	CU_ASSERT_EQUAL(play(id, ann_token, "[\"add 1\",\"end\"]"), 200);
	get_if(atom, atom_tag, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strcmp(r.etag, atom_tag) != 0 && strlen(r.etag) > 2);
	ht_resp_release(&r);
	get_if(ics, ics_tag, &r);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strcmp(r.etag, ics_tag) != 0 && strlen(r.etag) > 2);
	ht_resp_release(&r);
	/* a revoked link answers 404 whatever tag it is sent */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "DELETE", "/api/v1/me/feed-token", ann_token, NULL, &r), 0);
	ht_resp_release(&r);
	get_if(atom, "*", &r);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
}

/* The value="..." of the input with id="name" on a page (the links the feed page shows once). */
static int input_value(const struct ht_resp *r, const char *id, char *out, size_t size)
{
	char key[64];
	const char *p, *v, *end;

	snprintf(key, sizeof(key), "id=\"%s\"", id);
	if (!(p = strstr(r->body.data, key)) || !(v = strstr(p, "value=\"")) || !(end = strchr(v + 7, '"')))
		return -1;
	snprintf(out, size, "%.*s", (int)(end - v - 7), v + 7);
	return 0;
}

static void test_feeds__account_page_makes_and_revokes(void)
{
	char cookie[256], csrf[64], form[128], link[300];
	struct ht_resp r;

	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "ann@example.org", cookie, sizeof(cookie)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "<h2>Feeds</h2>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "You have no feed links."));
	CU_ASSERT_EQUAL(ht_form_value(&r, "csrf", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);
	/* make them: shown once */
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account/feed-token", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "only time they are shown"));
	CU_ASSERT_EQUAL_FATAL(input_value(&r, "atom", link, sizeof(link)), 0);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(status_of(path_of(link)), 200);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", cookie, NULL, &r), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "Your feed links were made "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "Revoke the links"));
	ht_resp_release(&r);
	/* revoke them: back to the account page, and the link is dead */
	snprintf(form, sizeof(form), "csrf=%s&action=revoke", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account/feed-token", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ASSERT_STR_EQ(r.location, "/account");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(status_of(path_of(link)), 404);
	/* a signed-out browser cannot make one */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/account/feed-token", NULL, form, &r), 0);
	CU_ASSERT(r.status == 403 || r.status == 303);
	ht_resp_release(&r);
}

/* ---- the lobby: live scores next to whom a game waits for ---- */

static void test_feeds__lobby_shows_live_scores(void)
{
	const char *af = "{\"game\":\"alien-frontiers\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			 "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	char cookie[256], path[64], want[200];
	struct ht_resp r;
	json_t *scores;
	int64_t id = new_game(af);

	/* what the view counts now */
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, ann_token, NULL, &r), 0);
	scores = json_object_get(json_object_get(r.json, "view"), "scores");
	CU_ASSERT_EQUAL_FATAL(json_array_size(scores), 2);
	snprintf(want, sizeof(want), "score Ann %lld, Bob %lld", (long long)json_integer_value(json_array_get(scores, 0)),
		 (long long)json_integer_value(json_array_get(scores, 1)));
	ht_resp_release(&r);
	/* the lobby says it next to whom the game waits for */
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "ann@example.org", cookie, sizeof(cookie)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/", cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	if (!strstr(r.body.data, want))
		fprintf(stderr, "\n  no \"%s\" in\n%s\n", want, r.body.data);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "waiting for you"));
	/* a game whose view counts no score says none */
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "score Ann &amp;"));
	ht_resp_release(&r);
}

static CU_TestInfo cases[] = {
	{ "test_feeds__atom_and_calendar_validate", test_feeds__atom_and_calendar_validate },
	{ "test_feeds__token_replaced_revoked_and_good_for_nothing_else",
	  test_feeds__token_replaced_revoked_and_good_for_nothing_else },
	{ "test_feeds__etag_and_if_none_match", test_feeds__etag_and_if_none_match },
	{ "test_feeds__account_page_makes_and_revokes", test_feeds__account_page_makes_and_revokes },
	{ "test_feeds__lobby_shows_live_scores", test_feeds__lobby_shows_live_scores },
	CU_TEST_INFO_NULL,
};

int tests_register(void)
{
	TESTS_SUITE("feeds", suite_init, suite_clean, cases);
	return 0;
}
