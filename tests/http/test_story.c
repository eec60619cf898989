/* tests/http/test_story.c: the story of a game over HTTP: the log API, the game page's story, the replay */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "httptest.h"
#include "testutil.h"
#include "util/token.h"

static struct ht_daemon d;
static char admin_token[64], ann_token[64], eve_token[64];
static char seat_tokens[2][64];
static int64_t game_id;

static int suite_init(void)
{
	struct buf out = BUF_INIT;
	struct ht_resp r;
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}],\"options\":{\"target\":50}}";
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
	buf_reset(&out);
	if (rc == 0)
		rc = ht_cli(&d, "user add eve@example.org --name Eve", &out);
	ht_last_line(&out, eve_token, sizeof(eve_token));
	buf_release(&out);
	if (rc != 0 || ht_api(&d, "POST", "/api/v1/games", admin_token, body, &r) < 0)
		return -1;
	game_id = json_integer_value(json_object_get(r.json, "id"));
	for (int i = 0; i < 2; i++)
		snprintf(seat_tokens[i], sizeof(seat_tokens[i]), "%s",
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

static long play(int seat, const char *moves)
{
	struct ht_resp r;
	char path[64], body[256];
	long status;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)game_id);
	snprintf(body, sizeof(body), "{\"moves\":%s}", moves);
	if (ht_api(&d, "POST", path, seat_tokens[seat], body, &r) < 0)
		return -1;
	status = r.status;
	ht_resp_release(&r);
	return status;
}

static void test_story__log_api(void)
{
	struct ht_resp r;
	char path[64];
	json_t *entries, *e;

	CU_ASSERT_EQUAL(play(0, "[\"add 2\",\"add 1\",\"undo\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(play(1, "[\"add 3\"]"), 200);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/log", (long long)game_id);
	/* Bob's seat token: Ann's taken-back step is not his business */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, seat_tokens[1], NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r.json, "move_count")), 5);
	entries = json_object_get(r.json, "entries");
	CU_ASSERT_EQUAL_FATAL(json_array_size(entries), 3);
	e = json_array_get(entries, 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "n")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "seat")), 0);
	ASSERT_STR_EQ(json_string_value(json_object_get(e, "name")), "Ann");
	ASSERT_STR_EQ(json_string_value(json_object_get(e, "text")), "Ann: add 2");
	ASSERT_STR_EQ(json_string_value(json_object_get(e, "channel")), "api");
	CU_ASSERT(json_is_integer(json_object_get(e, "at")));
	/* newest last */
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(entries, 2), "text")), "Bob: add 3");
	ht_resp_release(&r);
	/* Ann's account token: she sees her own undo */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "entries")), 5);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(json_object_get(r.json, "entries"), 2), "text")),
		      "Ann took back a step");
	ht_resp_release(&r);
	/* a stranger, and an admin without a seat: 403; no such game: 404; no token: 401 */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, eve_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "code")), "not_a_player");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/games/999999/log", ann_token, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
}

static void test_story__undo_after_the_turn_passed(void)
{
	struct ht_resp r;
	char path[64];

	/* Bob ends his turn; his undo is refused with the reason, and nothing is stored */
	CU_ASSERT_EQUAL(play(1, "[\"end\"]"), 200);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)game_id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", path, seat_tokens[1], "{\"moves\":[\"undo\"]}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 422);
	CU_ASSERT(strstr(json_string_value(json_object_get(r.json, "detail")), "the turn has passed to Ann") != NULL);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)game_id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, seat_tokens[1], NULL, &r), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r.json, "move_count")), 6);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r.json, "undo_seat")), -1);
	ht_resp_release(&r);
}

/* Sign in through a seat token's link (/s/TOKEN): "tp_session=..." into cookie. */
static void sign_in(const char *seat_token, char *cookie, size_t size)
{
	struct ht_resp r;
	char path[96], sess[80];

	snprintf(path, sizeof(path), "/s/%s", seat_token);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	CU_ASSERT_EQUAL_FATAL(ht_cookie(&r, "tp_session", sess, sizeof(sess)), 0);
	snprintf(cookie, size, "tp_session=%s", sess);
	ht_resp_release(&r);
}

/* GET a page as cookie; its status, and its body into body (may be NULL). */
static long page(const char *path, const char *cookie, struct buf *body)
{
	struct ht_resp r;
	long status;

	if (ht_page(&d, "GET", path, cookie, NULL, &r) < 0)
		return -1;
	status = r.status;
	if (body)
		buf_adds(body, r.body.data);
	ht_resp_release(&r);
	return status;
}

static void test_story__game_page_history_and_replay(void)
{
	char ann[128], bob[128], path[96];
	struct buf b = BUF_INIT;
	const char *since, *end, *add;

	sign_in(seat_tokens[0], ann, sizeof(ann));
	sign_in(seat_tokens[1], bob, sizeof(bob));
	/* Ann's page: Bob's turn since hers, newest first, at the top */
	snprintf(path, sizeof(path), "/games/%lld", (long long)game_id);
	CU_ASSERT_EQUAL(page(path, ann, &b), 200);
	since = strstr(b.data, "Since your last turn");
	end = strstr(b.data, "Bob: end <span");
	add = strstr(b.data, "Bob: add 3 <span");
	CU_ASSERT(since && end && add && since < end && end < add);
	CU_ASSERT(strstr(b.data, "by the API") != NULL);
	CU_ASSERT(since && strstr(b.data, "class=\"board\"") && since < strstr(b.data, "class=\"board\""));
	buf_reset(&b);
	/* Bob has nothing new */
	CU_ASSERT_EQUAL(page(path, bob, &b), 200);
	CU_ASSERT(strstr(b.data, "Nothing new since your last step.") != NULL);
	buf_reset(&b);
	/* the whole story: Ann sees what she took back, Bob does not */
	snprintf(path, sizeof(path), "/games/%lld/history", (long long)game_id);
	CU_ASSERT_EQUAL(page(path, ann, &b), 200);
	CU_ASSERT(strstr(b.data, "Ann: add 1 <em>(taken back)</em>") != NULL);
	buf_reset(&b);
	CU_ASSERT_EQUAL(page(path, bob, &b), 200);
	CU_ASSERT(strstr(b.data, "Ann: add 1") == NULL);
	CU_ASSERT(strstr(b.data, "Ann: add 2 <span") != NULL);
	buf_reset(&b);
	/* the replay: Bob's stops skip Ann's undo; the step and its neighbours */
	snprintf(path, sizeof(path), "/games/%lld/replay?n=1", (long long)game_id);
	CU_ASSERT_EQUAL(page(path, bob, &b), 200);
	CU_ASSERT(strstr(b.data, "Step 1 of 4: <strong>Ann: add 2</strong>") != NULL);
	CU_ASSERT(strstr(b.data, "replay?n=4\" rel=\"next\"") != NULL);
	CU_ASSERT(strstr(b.data, "replay?n=0\" rel=\"first\"") != NULL);
	buf_reset(&b);
	snprintf(path, sizeof(path), "/games/%lld/replay?n=2", (long long)game_id);
	CU_ASSERT_EQUAL(page(path, bob, NULL), 404);
	CU_ASSERT_EQUAL(page(path, ann, &b), 200);
	CU_ASSERT(strstr(b.data, "Ann: add 1") != NULL);
	buf_reset(&b);
	/* no step asked for: the latest */
	snprintf(path, sizeof(path), "/games/%lld/replay", (long long)game_id);
	CU_ASSERT_EQUAL(page(path, bob, &b), 200);
	CU_ASSERT(strstr(b.data, "Step 4 of 4: <strong>Bob: end</strong>") != NULL);
	buf_reset(&b);
	/* signed out: to the sign-in page */
	CU_ASSERT_EQUAL(page(path, NULL, NULL), 303);
	buf_release(&b);
}

static void test_story__replay_for_everyone_once_over_and_the_lobby(void)
{
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Cy\",\"email\":\"cy@example.org\"}],\"options\":{\"target\":2}}";
	char ann[128], bob[128], path[96], moves[96], token[64], cytoken[64];
	struct buf b = BUF_INIT;
	struct ht_resp r;
	int64_t other;

	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/games", admin_token, body, &r), 0);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	other = json_integer_value(json_object_get(r.json, "id"));
	snprintf(token, sizeof(token), "%s",
		 json_string_value(json_object_get(json_array_get(json_object_get(r.json, "seats"), 0), "token")));
	snprintf(cytoken, sizeof(cytoken), "%s",
		 json_string_value(json_object_get(json_array_get(json_object_get(r.json, "seats"), 1), "token")));
	ht_resp_release(&r);
	/* full sessions: a seat link's session sees its own game only */
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "ann@example.org", ann, sizeof(ann)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "bob@example.org", bob, sizeof(bob)), 0);
	/* Bob is no player of it: no replay while it runs */
	snprintf(path, sizeof(path), "/games/%lld/replay", (long long)other);
	CU_ASSERT_EQUAL(page(path, bob, NULL), 403);
	/* the lobby says whom each game waits for */
	CU_ASSERT_EQUAL(page("/", ann, &b), 200);
	CU_ASSERT(strstr(b.data, "waiting for you") != NULL);
	buf_reset(&b);
	/* Ann wins it */
	snprintf(moves, sizeof(moves), "/api/v1/games/%lld/moves", (long long)other);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", moves, token, "{\"moves\":[\"add 3\",\"end\"]}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	/* now anyone signed in may watch it */
	CU_ASSERT_EQUAL(page(path, bob, &b), 200);
	CU_ASSERT(strstr(b.data, "Step 2 of 2: <strong>Ann: end</strong>") != NULL);
	buf_reset(&b);
	/* the lobby has the final score, winner first */
	CU_ASSERT_EQUAL(page("/", ann, &b), 200);
	CU_ASSERT(strstr(b.data, "Ann 3, Cy 0") != NULL);
	buf_reset(&b);

	/* shown to anyone by its link only once both players allow it */
	snprintf(path, sizeof(path), "/games/%lld/watch", (long long)other);
	CU_ASSERT_EQUAL(page(path, NULL, NULL), 404);
	{
		char gpath[64], spath[64], csrf[64], form[160], cy[128];
		struct ht_resp pr;
		snprintf(gpath, sizeof(gpath), "/games/%lld", (long long)other);
		snprintf(spath, sizeof(spath), "/games/%lld/share", (long long)other);
		CU_ASSERT_EQUAL(page(gpath, ann, &b), 200);
		CU_ASSERT(strstr(b.data, "Waiting for you, Cy.") != NULL);
		buf_reset(&b);
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", gpath, ann, NULL, &pr), 0);
		CU_ASSERT_EQUAL(ht_form_value(&pr, "csrf", csrf, sizeof(csrf)), 0);
		ht_resp_release(&pr);
		/* without the form's token: refused */
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", spath, ann, "allow=1&seat=0", &pr), 0);
		CU_ASSERT_EQUAL(pr.status, 403);
		ht_resp_release(&pr);
		snprintf(form, sizeof(form), "csrf=%s&allow=1&seat=0", csrf);
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", spath, ann, form, &pr), 0);
		CU_ASSERT_EQUAL(pr.status, 303);
		ht_resp_release(&pr);
		CU_ASSERT_EQUAL(page(path, NULL, NULL), 404);
		/* Bob holds no seat in it: he cannot decide for anyone */
		snprintf(form, sizeof(form), "csrf=%s&allow=1", csrf);
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", spath, bob, form, &pr), 0);
		CU_ASSERT_EQUAL(pr.status, 403);
		ht_resp_release(&pr);
		/* Cy allows it too: the link works for anyone, signed in or not */
		sign_in(cytoken, cy, sizeof(cy));
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", gpath, cy, NULL, &pr), 0);
		CU_ASSERT_EQUAL(ht_form_value(&pr, "csrf", csrf, sizeof(csrf)), 0);
		ht_resp_release(&pr);
		snprintf(form, sizeof(form), "csrf=%s&allow=1&seat=1", csrf);
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", spath, cy, form, &pr), 0);
		CU_ASSERT_EQUAL(pr.status, 303);
		ht_resp_release(&pr);
		CU_ASSERT_EQUAL(page(path, NULL, &b), 200);
		CU_ASSERT(strstr(b.data, "Step 2 of 2: <strong>Ann: end</strong>") != NULL);
		CU_ASSERT(strstr(b.data, "Back to the game") == NULL);
		buf_reset(&b);
		CU_ASSERT_EQUAL(page(gpath, ann, &b), 200);
		CU_ASSERT(strstr(b.data, "Anyone with this link can watch the game") != NULL);
		buf_reset(&b);
		/* Ann changes her mind: the link stops working */
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", gpath, ann, NULL, &pr), 0);
		CU_ASSERT_EQUAL(ht_form_value(&pr, "csrf", csrf, sizeof(csrf)), 0);
		ht_resp_release(&pr);
		snprintf(form, sizeof(form), "csrf=%s&allow=0&seat=0", csrf);
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", spath, ann, form, &pr), 0);
		CU_ASSERT_EQUAL(pr.status, 303);
		ht_resp_release(&pr);
		CU_ASSERT_EQUAL(page(path, NULL, NULL), 404);
	}
	buf_release(&b);
}

/* The text of the newest email of event to address in the daemon's mail directory, soft line breaks undone ("" after 20 s). */
static void newest_mail(const char *event, const char *address, struct buf *out)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd),
		 "f=$(grep -l 'X-Turnpost-Event: %s' %s/var/mail/*.eml 2>/dev/null | xargs -r grep -l '^To: .*%s' |"
		 " xargs -r ls -t | head -n 1); [ -n \"$f\" ] && tr -d '\\r' < $f | sed -e ':a' -e '/=$/{N;s/=\\n//;ba' -e '}'",
		 event, d.dir, address);
	for (int i = 0; i < 400 && !out->len; i++) {
		FILE *p = popen(cmd, "r");
		char chunk[4096];
		size_t n;
		while (p && (n = fread(chunk, 1, sizeof(chunk), p)) > 0)
			buf_add(out, chunk, n);
		if (p)
			pclose(p);
		if (!out->len)
			usleep(50 * 1000);
	}
}

static void test_story__the_emails_tell_the_story(void)
{
	char bob[128], csrf[64], form[160], path[64];
	struct buf mail = BUF_INIT;
	struct ht_resp r;

	/* Ann's "your turn" after Bob's turn (earlier in this suite) says what he did, in words */
	newest_mail("your_turn", "ann@example.org", &mail);
	CU_ASSERT(strstr(mail.data, "Since your last turn:") != NULL);
	CU_ASSERT(strstr(mail.data, "Bob: add 3") != NULL);
	CU_ASSERT(strstr(mail.data, "Bob: end") != NULL);
	buf_reset(&mail);
	/* Bob writes in the chat: Ann's email says who wrote what */
	sign_in(seat_tokens[1], bob, sizeof(bob));
	snprintf(path, sizeof(path), "/games/%lld", (long long)game_id);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, bob, NULL, &r), 0);
	CU_ASSERT_EQUAL(ht_form_value(&r, "csrf", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/games/%lld/chat", (long long)game_id);
	snprintf(form, sizeof(form), "csrf=%s&seat=1&text=see+you+at+the+mine", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, bob, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	newest_mail("chat", "ann@example.org", &mail);
	CU_ASSERT(strstr(mail.data, "Subject: Bob wrote in") != NULL);
	CU_ASSERT(strstr(mail.data, "see you at the mine") != NULL);
	buf_release(&mail);
}

static CU_TestInfo cases[] = {
	{ "test_story__log_api", test_story__log_api },
	{ "test_story__undo_after_the_turn_passed", test_story__undo_after_the_turn_passed },
	{ "test_story__game_page_history_and_replay", test_story__game_page_history_and_replay },
	{ "test_story__the_emails_tell_the_story", test_story__the_emails_tell_the_story },
	{ "test_story__replay_for_everyone_once_over_and_the_lobby",
	  test_story__replay_for_everyone_once_over_and_the_lobby },
	CU_TEST_INFO_NULL,
};

int tests_register(void)
{
	TESTS_SUITE("story-http", suite_init, suite_clean, cases);
	return 0;
}
