/* tests/email/test_mailout.c: the notification emails as mail clients see them: headers, threading, one-click unsubscribe */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <curl/curl.h>
#include <sodium.h>

#include "http/httptest.h"
#include "testutil.h"

#define SECRET "inbound-secret-for-tests-0123456789"
#define DOMAIN "play.example.org"

static struct ht_daemon d;
static char tmpl_dir[64];
static char admin_token[64], bob_token[64];
static long long game_id;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* The raw messages to `to` for `event` containing `needle` (ht_mails). */
static int mails(const char *to, const char *event, const char *needle, struct buf *out)
{
	return ht_mails(&d, to, event, needle, 0, out);
}

static int wait_mails(const char *to, const char *event, const char *needle, int want, struct buf *out)
{
	return ht_wait_mails(&d, to, event, needle, 0, want, out);
}

/* The value of header name in msg, unfolded (continuation lines joined); 0 or -1. */
static int header(const struct buf *msg, const char *name, char *out, size_t size)
{
	char want[64];
	const char *p, *end = strstr(msg->data, "\r\n\r\n");
	size_t o = 0;

	snprintf(want, sizeof(want), "\r\n%s:", name);
	p = strstr(msg->data, want);
	if (!p || !end || p > end)
		return -1;
	p += strlen(want);
	while (*p == ' ')
		p++;
	for (; *p && o + 1 < size; p++) {
		if (p[0] == '\r' && p[1] == '\n') {
			if (p[2] != ' ' && p[2] != '\t')
				break;
			p++;
			continue;
		}
		out[o++] = *p;
	}
	out[o] = '\0';
	return 0;
}

/* The path of the https unsubscribe link of a message ("/unsubscribe/TOKEN"); 0 or -1. */
static int unsubscribe_path(const struct buf *msg, char *out, size_t size)
{
	char v[600];
	const char *p, *q;

	if (header(msg, "List-Unsubscribe", v, sizeof(v)) < 0 || !(p = strstr(v, "<https://games.example.org/unsubscribe/")))
		return -1;
	p += strlen("<https://games.example.org");
	if (!(q = strchr(p, '>')) || (size_t)(q - p) >= size)
		return -1;
	snprintf(out, size, "%.*s", (int)(q - p), p);
	return 0;
}

static int post_form(const char *path, const char *form, const char *cookie, struct ht_resp *r)
{
	memset(r, 0, sizeof(*r));
	return ht_page(&d, "POST", path, cookie, form, r);
}

/* Steps for a seat, by an API token. The HTTP status. */
static long play(const char *token, int seat, const char *moves_json)
{
	struct ht_resp r = {0};
	char path[96], body[300];
	long status = -1;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", game_id);
	snprintf(body, sizeof(body), "{\"seat\":%d,\"moves\":%s}", seat, moves_json);
	if (ht_request(&d, "POST", path, token, NULL, body, strlen(body), &r) == 0)
		status = r.status;
	if (status != 200)
		fprintf(stderr, "\n  play: HTTP %ld %s\n", r.status, r.body.data);
	ht_resp_release(&r);
	return status;
}

/* The state of the newest notification of event to seat, from the admin API ("" when none). */
static void last_state(const char *event, int seat, char *out, size_t size)
{
	struct ht_resp r = {0};
	char path[96];
	json_t *v;
	size_t i;
	long long best = -1;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/notifications", game_id);
	if (ht_request(&d, "GET", path, admin_token, NULL, NULL, 0, &r) < 0 || r.status != 200) {
		ht_resp_release(&r);
		return;
	}
	json_array_foreach(json_object_get(r.json, "notifications"), i, v) {
		long long id = json_integer_value(json_object_get(v, "id"));
		if (strcmp(json_string_value(json_object_get(v, "event")), event) != 0 ||
		    json_integer_value(json_object_get(v, "seat")) != seat || id < best)
			continue;
		best = id;
		snprintf(out, size, "%s", json_string_value(json_object_get(v, "state")));
	}
	ht_resp_release(&r);
}

/* Wait (up to 15 s) until the newest notification of event to seat is in state want. */
static int wait_state(const char *event, int seat, const char *want)
{
	char state[32];

	for (int i = 0; i < 150; i++) {
		last_state(event, seat, state, sizeof(state));
		if (strcmp(state, want) == 0)
			return 0;
		sleep_ms(100);
	}
	fprintf(stderr, "\n  %s to seat %d is \"%s\", not \"%s\"\n", event, seat, state, want);
	return -1;
}

static int suite_init(void)
{
	struct buf out = BUF_INIT;
	struct ht_resp r = {0};
	const char *body = "{\"game\":\"counting-race\",\"options\":{\"target\":1000},\"players\":["
			   "{\"name\":\"Admin\",\"email\":\"admin@example.org\"},{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	const char *extra[] = { "--base-url", "https://games.example.org/", "--templates", tmpl_dir, NULL };
	char path[160];
	FILE *f;
	int rc = -1;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	/* a rollback subject far longer than a header line, with a word that cannot be folded and a name in UTF-8 */
	snprintf(tmpl_dir, sizeof(tmpl_dir), "/tmp/tp-mailout-XXXXXX");
	if (!mkdtemp(tmpl_dir))
		return -1;
	snprintf(path, sizeof(path), "%s/email", tmpl_dir);
	if (mkdir(path, 0700) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/email/rollback.subject.mustache", tmpl_dir);
	if (!(f = fopen(path, "w")))
		return -1;
	fputs("{{{game.title}}} (game {{game.id}}) was rolled back by the referee of the tournament, who explains why "
	      "in the email: see https://games.example.org/tournaments/2027/spring/rules-and-notes-for-every-table#rollbacks "
	      "and ask Zoë\n", f);
	fclose(f);
	setenv("TURNPOST_REPLY_DOMAIN", DOMAIN, 1);
	setenv("TURNPOST_INBOUND_SECRET", SECRET, 1);
	if (sodium_init() < 0 || ht_start(&d, extra) < 0)
		return -1;
	if (ht_cli(&d, "user add admin@example.org --name Admin --admin", &out) != 0)
		goto done;
	ht_last_line(&out, admin_token, sizeof(admin_token));
	buf_reset(&out);
	if (ht_cli(&d, "user add bob@example.org --name Bob", &out) != 0)
		goto done;
	ht_last_line(&out, bob_token, sizeof(bob_token));
	if (ht_request(&d, "POST", "/api/v1/games", admin_token, NULL, body, strlen(body), &r) < 0 || r.status != 201)
		goto done;
	game_id = (long long)json_integer_value(json_object_get(r.json, "id"));
	rc = 0;
done:
	ht_resp_release(&r);
	buf_release(&out);
	return rc;
}

static int suite_clean(void)
{
	char cmd[128];

	ht_cleanup(&d);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl_dir);
	if (tmpl_dir[0] && system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tmpl_dir);
	curl_global_cleanup();
	return 0;
}

/* Every line under 998 characters; header lines under 78 unless they are one word that cannot be folded. */
static void check_lines(const struct buf *msg)
{
	const char *p = msg->data, *end = strstr(msg->data, "\r\n\r\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(end);
	while (*p) {
		const char *nl = strstr(p, "\r\n");
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		CU_ASSERT(n < 998);
		if (p < end && n > 78) {
			/* "Name: word" or " word": one word only */
			const char *w = p[0] == ' ' ? p + 1 : strchr(p, ' ');
			CU_ASSERT_PTR_NOT_NULL(w);
			if (w) {
				CU_ASSERT_PTR_NULL(memchr(w + (p[0] == ' ' ? 0 : 1), ' ', n - (size_t)(w - p) - 1));
				if (memchr(w + (p[0] == ' ' ? 0 : 1), ' ', n - (size_t)(w - p) - 1))
					fprintf(stderr, "\n  long header line: %.*s\n", (int)n, p);
			}
		}
		if (!nl)
			break;
		p = nl + 2;
	}
}

static void test_mailout__list_headers_and_dark_mode(void)
{
	struct buf msg = BUF_INIT;
	char v[600], want[200];

	CU_ASSERT_EQUAL_FATAL(wait_mails("bob@example.org", "invite", NULL, 1, &msg), 1);
	check_lines(&msg);
	/* one list per game, for filters */
	CU_ASSERT_EQUAL(header(&msg, "List-Id", v, sizeof(v)), 0);
	snprintf(want, sizeof(want), "\"Counting Race (test game) game %lld\" <game-%lld.games.example.org>", game_id,
		 game_id);
	ASSERT_STR_EQ(v, want);
	/* threading: the game's root Message-ID */
	snprintf(want, sizeof(want), "<turnpost.game-%lld@games.example.org>", game_id);
	CU_ASSERT_EQUAL(header(&msg, "References", v, sizeof(v)), 0);
	ASSERT_STR_EQ(v, want);
	CU_ASSERT_EQUAL(header(&msg, "In-Reply-To", v, sizeof(v)), 0);
	ASSERT_STR_EQ(v, want);
	/* one-click unsubscribe: mailto and https, signed for Bob and invitations */
	CU_ASSERT_EQUAL(header(&msg, "List-Unsubscribe-Post", v, sizeof(v)), 0);
	ASSERT_STR_EQ(v, "List-Unsubscribe=One-Click");
	CU_ASSERT_EQUAL(header(&msg, "List-Unsubscribe", v, sizeof(v)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "<mailto:unsubscribe+"));
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "-invite-"));
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "@" DOMAIN "?subject=unsubscribe>, <https://games.example.org/unsubscribe/"));
	/* dark mode: the HTML says it copes, and sets its own background */
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "<meta name=3D\"color-scheme\" content=3D\"light dark\">"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "background-color:#ffffff"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "prefers-color-scheme: dark"));
	buf_release(&msg);
}

static void test_mailout__one_click_unsubscribe(void)
{
	struct buf msg = BUF_INIT;
	struct ht_resp r = {0};
	char path[160], bad[160], other[220], *dash;
	const char *bearer[2] = { NULL, NULL };
	char auth[200];

	/* the admin plays; Bob is told it is his turn */
	CU_ASSERT_EQUAL_FATAL(play(admin_token, 0, "[\"add 1\",\"end\"]"), 200);
	CU_ASSERT_EQUAL_FATAL(wait_mails("bob@example.org", "your_turn", NULL, 1, &msg), 1);
	CU_ASSERT_EQUAL_FATAL(unsubscribe_path(&msg, path, sizeof(path)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(path, "-your_turn-"));
	/* email-only play: the legal steps, grouped by their first word as the page groups its buttons */
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "Your legal steps now (4):\r\n  add 1 | 2 | 3\r\n  roll\r\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "<li><code>add</code> 1 | 2 | 3</li>"));

	/* the GET changes nothing (link scanners fetch links): it says what is on and offers to stop it */
	CU_ASSERT_EQUAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "You get &quot;your turn&quot; emails at bob@example.org."));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "name=\"action\" value=\"off\""));
	ht_resp_release(&r);

	/* the mail client's one-click POST, with no cookie and no sign-in (RFC 8058) */
	CU_ASSERT_EQUAL(post_form(path, "List-Unsubscribe=One-Click", NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "you will get no more &quot;your turn&quot; emails at bob@example.org"));
	ht_resp_release(&r);

	/* it holds: Bob plays, the admin plays, and Bob's next "your turn" is not sent */
	CU_ASSERT_EQUAL_FATAL(play(bob_token, 1, "[\"add 1\",\"end\"]"), 200);
	/* other players' mail goes on: the admin's "your turn" goes out (before the admin moves: else superseded) */
	CU_ASSERT_EQUAL(wait_state("your_turn", 0, "sent"), 0);
	CU_ASSERT_EQUAL_FATAL(play(admin_token, 0, "[\"add 1\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(wait_state("your_turn", 1, "skipped"), 0);
	CU_ASSERT_EQUAL(mails("bob@example.org", "your_turn", NULL, NULL), 1);

	/* the page says so, and its undo turns them back on */
	CU_ASSERT_EQUAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "You get no &quot;your turn&quot; emails at bob@example.org."));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "name=\"action\" value=\"on\""));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(post_form(path, "action=on", NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "&quot;your turn&quot; emails go to bob@example.org again"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(play(bob_token, 1, "[\"add 1\",\"end\"]"), 200);
	CU_ASSERT_EQUAL_FATAL(play(admin_token, 0, "[\"add 1\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(wait_state("your_turn", 1, "sent"), 0);
	CU_ASSERT_EQUAL(wait_mails("bob@example.org", "your_turn", NULL, 2, NULL), 2);

	/* a changed signature, or the signature of one kind with another kind, is nothing */
	snprintf(bad, sizeof(bad), "%s", path);
	bad[strlen(bad) - 1] = bad[strlen(bad) - 1] == 'a' ? 'b' : 'a';
	CU_ASSERT_EQUAL(post_form(bad, "List-Unsubscribe=One-Click", NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_page(&d, "GET", bad, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);
	dash = strstr(path, "-your_turn-");
	CU_ASSERT_PTR_NOT_NULL_FATAL(dash);
	snprintf(other, sizeof(other), "%.*s-chat-%s", (int)(dash - path), path, dash + strlen("-your_turn-"));
	CU_ASSERT_EQUAL(post_form(other, "List-Unsubscribe=One-Click", NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	ht_resp_release(&r);

	/* the token is good for nothing else: not a bearer token, not a seat link */
	snprintf(auth, sizeof(auth), "%s", path + strlen("/unsubscribe/"));
	CU_ASSERT_EQUAL(ht_request(&d, "GET", "/api/v1/me", auth, NULL, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	snprintf(other, sizeof(other), "/s/%s", auth);
	CU_ASSERT_EQUAL(ht_page(&d, "GET", other, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	CU_ASSERT_PTR_NULL(strstr(r.set_cookie, "tp_session="));
	ht_resp_release(&r);
	/* like a seat link, the link stays out of the request log */
	{
		struct buf log = BUF_INIT;
		CU_ASSERT_EQUAL(ht_log_text(&d, &log), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "POST /unsubscribe/"));
		CU_ASSERT_PTR_NULL(strstr(log.data, auth));
		buf_release(&log);
	}
	(void)bearer;
	buf_release(&msg);
}

static void test_mailout__unsubscribe_by_mail(void)
{
	struct buf msg = BUF_INIT, raw = BUF_INIT;
	struct ht_resp r = {0};
	char v[600], addr[200];
	const char *p, *q;
	const char *headers[2] = { "Content-Type: message/rfc822", NULL };

	CU_ASSERT_FATAL(wait_mails("admin@example.org", "your_turn", NULL, 1, &msg) >= 1);
	CU_ASSERT_EQUAL_FATAL(header(&msg, "List-Unsubscribe", v, sizeof(v)), 0);
	p = strstr(v, "<mailto:");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	p += 8;
	q = strchr(p, '?');
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	snprintf(addr, sizeof(addr), "%.*s", (int)(q - p), p);
	/* what Gmail's "unsubscribe" sends to the mailto: address (upper case, as some relays write it) */
	for (char *c = addr; *c && *c != '@'; c++)
		if (*c >= 'a' && *c <= 'z')
			*c = (char)(*c - 32);
	buf_addf(&raw,
		 "Delivered-To: %s\r\nFrom: Admin <admin@example.org>\r\nTo: %s\r\nSubject: unsubscribe\r\n"
		 "Message-ID: <unsub-by-mail-0001@mail.example.org>\r\nDate: Sat, 21 Nov 2026 11:02:00 +0000\r\n"
		 "Content-Type: text/plain; charset=UTF-8\r\n\r\nThis message was automatically generated by Gmail.\r\n",
		 addr, addr);
	CU_ASSERT_EQUAL(ht_request(&d, "POST", "/api/v1/inbound/email", SECRET, headers, raw.data, raw.len, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "outcome")), "unsubscribed");
	CU_ASSERT(json_is_false(json_object_get(json_object_get(r.json, "unsubscribed"), "on")));
	ht_resp_release(&r);
	/* it holds: the admin's next "your turn" is skipped, and nobody was answered */
	CU_ASSERT_EQUAL_FATAL(play(bob_token, 1, "[\"add 1\",\"end\"]"), 200);
	CU_ASSERT_EQUAL(wait_state("your_turn", 0, "skipped"), 0);
	CU_ASSERT_EQUAL(mails("admin@example.org", "email_refused", NULL, NULL), 0);
	buf_release(&raw);
	buf_release(&msg);
}

static void test_mailout__long_subject_folds(void)
{
	struct buf msg = BUF_INIT;
	struct ht_resp r = {0};
	char path[96], v[1200];
	const char *body = "{\"to\":1,\"reason\":\"a misread rule\"}";

	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/rollback", game_id);
	CU_ASSERT_EQUAL(ht_request(&d, "POST", path, admin_token, NULL, body, strlen(body), &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(wait_mails("bob@example.org", "rollback", NULL, 1, &msg), 1);
	check_lines(&msg);
	/* encoded words, each on a line of its own: a reader decodes the whole subject back */
	CU_ASSERT_EQUAL(header(&msg, "Subject", v, sizeof(v)), 0);
	CU_ASSERT_EQUAL(strncmp(v, "=?UTF-8?B?", 10), 0);
	{
		char cmd[2000];
		FILE *p;
		struct buf out = BUF_INIT;
		char line[2048];
		snprintf(cmd, sizeof(cmd),
			 "/usr/bin/python3 -c \"import email.header,sys; "
			 "print(str(email.header.make_header(email.header.decode_header(sys.argv[1]))))\" '%s'", v);
		p = popen(cmd, "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		while (fgets(line, sizeof(line), p))
			buf_adds(&out, line);
		pclose(p);
		CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "was rolled back by the referee of the tournament, who explains"));
		CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "rules-and-notes-for-every-table#rollbacks and ask Zoë"));
		buf_release(&out);
	}
	buf_release(&msg);
}

static CU_TestInfo mailout_cases[] = {
	{ "test_mailout__list_headers_and_dark_mode", test_mailout__list_headers_and_dark_mode },
	{ "test_mailout__one_click_unsubscribe", test_mailout__one_click_unsubscribe },
	{ "test_mailout__unsubscribe_by_mail", test_mailout__unsubscribe_by_mail },
	{ "test_mailout__long_subject_folds", test_mailout__long_subject_folds },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("mailout", suite_init, suite_clean, mailout_cases);
	return 0;
}
