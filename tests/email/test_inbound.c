/* tests/email/test_inbound.c: play by email against a real daemon: reply addresses, the endpoint, answers by email */
/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <sodium.h>

#include "http/httptest.h"
#include "testutil.h"

#define SECRET "inbound-secret-for-tests-0123456789"
#define DOMAIN "play.example.org"

static struct ht_daemon d;
static char admin_token[64];
static char ann_token[40], bob_token[40];
static long long game_id;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* The messages to `to` for `event` containing `needle`, quoted-printable undone (ht_mails). */
static int mails(const char *to, const char *event, const char *needle, struct buf *out)
{
	return ht_mails(&d, to, event, needle, 1, out);
}

static int wait_mails(const char *to, const char *event, const char *needle, int want, struct buf *out)
{
	return ht_wait_mails(&d, to, event, needle, 1, want, out);
}

/* The token of the Reply-To: play+TOKEN@DOMAIN of a message; 0 or -1. */
static int reply_token(const struct buf *msg, char *out, size_t size)
{
	const char *rt = strstr(msg->data, "\r\nReply-To: play+");
	const char *at;

	if (!rt)
		return -1;
	rt += strlen("\r\nReply-To: play+");
	at = strchr(rt, '@');
	if (!at || (size_t)(at - rt) >= size || strncmp(at + 1, DOMAIN "\r\n", strlen(DOMAIN) + 2) != 0)
		return -1;
	snprintf(out, size, "%.*s", (int)(at - rt), rt);
	return 0;
}

/* A corpus file with {{TOKEN}} replaced. */
static int corpus(const char *name, const char *token, struct buf *out)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[512];
	struct buf raw = BUF_INIT;
	int rc;

	snprintf(path, sizeof(path), "%s/tests/email/corpus/%s", top && *top ? top : ".", name);
	rc = ht_read_file(path, &raw);
	for (size_t i = 0; rc == 0 && i < raw.len; i++) {
		if (raw.len - i >= 9 && memcmp(raw.data + i, "{{TOKEN}}", 9) == 0) {
			buf_adds(out, token);
			i += 8;
		} else {
			buf_addc(out, raw.data[i]);
		}
	}
	buf_release(&raw);
	return rc;
}

static int post(const char *content_type, const char *auth, const char *body, size_t len, struct ht_resp *r)
{
	char ct[200];
	const char *headers[3] = { ct, NULL, NULL };

	snprintf(ct, sizeof(ct), "Content-Type: %s", content_type);
	return ht_request(&d, "POST", "/api/v1/inbound/email", auth, headers, body, len, r);
}

/* POST a corpus file as message/rfc822 with the secret; the outcome (static) or "" on failure. */
static const char *post_corpus(const char *name, const char *token, struct ht_resp *r)
{
	struct buf b = BUF_INIT;
	int rc;

	memset(r, 0, sizeof(*r));
	if (corpus(name, token, &b) < 0) {
		buf_release(&b);
		return "";
	}
	rc = post("message/rfc822", SECRET, b.data, b.len, r);
	buf_release(&b);
	if (rc < 0 || r->status != 200 || !r->json) {
		fprintf(stderr, "\n  %s: HTTP %ld %s\n", name, r->status, r->body.data);
		return "";
	}
	return json_string_value(json_object_get(r->json, "outcome"));
}

static int move_count(void)
{
	struct ht_resp r = {0};
	char path[64];
	int n = -1;

	snprintf(path, sizeof(path), "/api/v1/games/%lld", game_id);
	if (ht_request(&d, "GET", path, admin_token, NULL, NULL, 0, &r) == 0 && r.status == 200)
		n = (int)json_integer_value(json_object_get(r.json, "move_count"));
	ht_resp_release(&r);
	return n;
}


static int suite_init(void)
{
	struct buf out = BUF_INIT, msg = BUF_INIT;
	struct ht_resp r = {0};
	const char *body = "{\"game\":\"counting-race\",\"options\":{\"target\":1000},\"players\":["
			   "{\"name\":\"Ann\",\"email\":\"ann@example.org\"},{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	int rc = -1;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	/* through the environment, so that a restarted daemon has them too */
	setenv("TURNPOST_REPLY_DOMAIN", DOMAIN, 1);
	setenv("TURNPOST_INBOUND_SECRET", SECRET, 1);
	if (sodium_init() < 0 || ht_start(&d, NULL) < 0)
		return -1;
	if (ht_cli(&d, "user add admin@example.org --name Admin --admin", &out) != 0)
		goto done;
	ht_last_line(&out, admin_token, sizeof(admin_token));
	if (ht_request(&d, "POST", "/api/v1/games", admin_token, NULL, body, strlen(body), &r) < 0 || r.status != 201)
		goto done;
	game_id = (long long)json_integer_value(json_object_get(r.json, "id"));
	/* the invitations carry each seat's reply address */
	if (wait_mails("ann@example.org", "invite", NULL, 1, &msg) != 1 || reply_token(&msg, ann_token, sizeof(ann_token)) < 0)
		goto done;
	if (wait_mails("bob@example.org", "invite", NULL, 1, &msg) != 1 || reply_token(&msg, bob_token, sizeof(bob_token)) < 0)
		goto done;
	rc = 0;
done:
	ht_resp_release(&r);
	buf_release(&out);
	buf_release(&msg);
	return rc;
}

static int suite_clean(void)
{
	ht_cleanup(&d);
	curl_global_cleanup();
	return 0;
}

static void test_inbound__reply_addresses(void)
{
	CU_ASSERT_EQUAL(strlen(ann_token), 32);
	CU_ASSERT_EQUAL(strlen(bob_token), 32);
	CU_ASSERT_NOT_EQUAL(strcmp(ann_token, bob_token), 0);
	CU_ASSERT_EQUAL(strspn(ann_token, "abcdefghijklmnopqrstuvwxyz234567"), 32);
}

static void test_inbound__authentication(void)
{
	struct buf mail = BUF_INIT;
	struct ht_resp r = {0};
	char basic[300], header[400], sig[200];
	unsigned char mac[crypto_auth_hmacsha256_BYTES];
	crypto_auth_hmacsha256_state st;
	const char *headers[3] = { "Content-Type: message/rfc822", NULL, NULL };

	CU_ASSERT_EQUAL_FATAL(corpus("unknown_token.eml", "unused", &mail), 0);
	/* no credentials, a wrong secret, a turnpost API token: 401 */
	CU_ASSERT_EQUAL(post("message/rfc822", NULL, mail.data, mail.len, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "code")), "inbound_unauthorized");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(post("message/rfc822", "not-the-secret-at-all", mail.data, mail.len, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(post("message/rfc822", admin_token, mail.data, mail.len, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	/* Bearer: in; an unknown reply address is answered 200 "unknown_address" and nobody is mailed */
	CU_ASSERT_EQUAL(post("message/rfc822", SECRET, mail.data, mail.len, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "outcome")), "unknown_address");
	ht_resp_release(&r);
	/* Basic with the secret as the password (a webhook URL https://inbound:SECRET@host/...) */
	{
		char plain[100];
		snprintf(plain, sizeof(plain), "inbound:%s", SECRET);
		sodium_bin2base64(basic, sizeof(basic), (const unsigned char *)plain, strlen(plain),
				  sodium_base64_VARIANT_ORIGINAL);
		snprintf(header, sizeof(header), "Authorization: Basic %s", basic);
		headers[1] = header;
		CU_ASSERT_EQUAL(ht_request(&d, "POST", "/api/v1/inbound/email", NULL, headers, mail.data, mail.len, &r), 0);
		CU_ASSERT_EQUAL(r.status, 200);
		ht_resp_release(&r);
		snprintf(plain, sizeof(plain), "%s:inbound", SECRET);
		sodium_bin2base64(basic, sizeof(basic), (const unsigned char *)plain, strlen(plain),
				  sodium_base64_VARIANT_ORIGINAL);
		snprintf(header, sizeof(header), "Authorization: Basic %s", basic);
		CU_ASSERT_EQUAL(ht_request(&d, "POST", "/api/v1/inbound/email", NULL, headers, mail.data, mail.len, &r), 0);
		CU_ASSERT_EQUAL(r.status, 401);
		ht_resp_release(&r);
	}
	/* an HMAC-SHA256 of the body */
	crypto_auth_hmacsha256_init(&st, (const unsigned char *)SECRET, strlen(SECRET));
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)mail.data, mail.len);
	crypto_auth_hmacsha256_final(&st, mac);
	memcpy(sig, "X-Turnpost-Signature: sha256=", 29);
	sodium_bin2hex(sig + 29, sizeof(sig) - 29, mac, sizeof(mac));
	headers[1] = sig;
	CU_ASSERT_EQUAL(ht_request(&d, "POST", "/api/v1/inbound/email", NULL, headers, mail.data, mail.len, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	sig[40] = sig[40] == 'a' ? 'b' : 'a';
	CU_ASSERT_EQUAL(ht_request(&d, "POST", "/api/v1/inbound/email", NULL, headers, mail.data, mail.len, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	buf_release(&mail);
}

static void test_inbound__whole_turn(void)
{
	struct ht_resp r;
	struct buf msg = BUF_INIT;
	char path[80], next[40];
	json_t *moves;

	ASSERT_STR_EQ(post_corpus("gmail_whole_turn.eml", ann_token, &r), "accepted");
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "applied")), 4);
	CU_ASSERT(json_is_false(json_object_get(r.json, "duplicate")));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(move_count(), 4);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", game_id);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "GET", path, admin_token, NULL, NULL, 0, &r), 0);
	moves = json_object_get(r.json, "moves");
	CU_ASSERT_EQUAL_FATAL(json_array_size(moves), 4);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(moves, 0), "text")), "add 3");
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(moves, 3), "text")), "end");
	for (size_t i = 0; i < 4; i++) {
		ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(moves, i), "via")), "email");
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_array_get(moves, i), "seat")), 0);
	}
	ht_resp_release(&r);
	/* the answer: threaded under Ann's message, what was played, whose turn it is, a fresh reply address */
	CU_ASSERT_EQUAL_FATAL(wait_mails("ann@example.org", "email_accepted", NULL, 1, &msg), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "In-Reply-To: <CAJx9rQ8GmAiL+whole.turn.4f2a@mail.gmail.com>"));
	/* and its References: the game's root, the chain of Ann's message, Ann's message (folded, one per line) */
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "\r\nReferences: <turnpost.game-1@"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, ">\r\n <msg_0123456789abcdef01234567@games.example.org>\r\n"
						" <CAJx9rQ8GmAiL+whole.turn.4f2a@mail.gmail.com>\r\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "Subject: Re: Your turn in Counting Race (test game) (game 1) - accepted\r\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "  1. add 3"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "  4. end"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "Now it is Bob's turn: seat 1: add, roll or end"));
	CU_ASSERT_EQUAL(reply_token(&msg, next, sizeof(next)), 0);
	CU_ASSERT_NOT_EQUAL(strcmp(next, ann_token), 0);
	/* Bob is told it is his turn, with his own reply address, and that a reply plays (text and HTML) */
	CU_ASSERT_EQUAL(wait_mails("bob@example.org", "your_turn", NULL, 1, &msg), 1);
	CU_ASSERT_EQUAL(reply_token(&msg, next, sizeof(next)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "\nTo play by email, reply to this email: your steps one per line"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "<p>To play by email, reply to this email: your steps one per line"));
	/* so did the invitations */
	CU_ASSERT_EQUAL(mails("ann@example.org", "invite", "<p>To play by email, reply to this email", NULL), 1);
	buf_release(&msg);
}

static void test_inbound__duplicate_message_id(void)
{
	struct ht_resp r;

	ASSERT_STR_EQ(post_corpus("gmail_whole_turn.eml", ann_token, &r), "accepted");
	CU_ASSERT(json_is_true(json_object_get(r.json, "duplicate")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "applied")), 4);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(move_count(), 4);
	/* nothing new goes out: give the notifier two rounds to prove it */
	sleep_ms(2500);
	CU_ASSERT_EQUAL(mails("ann@example.org", "email_accepted", NULL, NULL), 1);
}

static void test_inbound__turn_with_a_bad_line(void)
{
	struct ht_resp r;
	struct buf msg = BUF_INIT;

	ASSERT_STR_EQ(post_corpus("bad_line.eml", bob_token, &r), "refused");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r.json, "failed_line")), 2);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "code")), "illegal_move");
	ht_resp_release(&r);
	/* none of the three lines was stored, not even the good first one */
	CU_ASSERT_EQUAL(move_count(), 4);
	CU_ASSERT_EQUAL_FATAL(wait_mails("bob@example.org", "email_refused", "bad-line-turn-0001", 1, &msg), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "Line 2: add 5\r\n  you may add 1 to 3, not 5"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "  2. add 5   <- refused"));
	/* the legal steps after "add 2": adding again, rolling, or ending the turn */
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "The legal steps at that point:\r\n  add 1\r\n  add 2\r\n  add 3\r\n  roll\r\n  end"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "Subject: Re: Your turn in Counting Race (test game) (game 1) - not played"));
	buf_release(&msg);
}

static void test_inbound__wrong_sender(void)
{
	struct ht_resp r;
	struct buf msg = BUF_INIT;

	ASSERT_STR_EQ(post_corpus("wrong_sender.eml", bob_token, &r), "wrong_sender");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(move_count(), 4);
	/* the seat's player is told, not the stranger */
	CU_ASSERT_EQUAL_FATAL(wait_mails("bob@example.org", "email_refused", "mallory@example.net", 1, &msg), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "this seat plays from bob@example.org"));
	CU_ASSERT_EQUAL(mails("mallory@example.net", "email_refused", NULL, NULL), 0);
	buf_release(&msg);
}

static void test_inbound__no_steps_and_auto_replies(void)
{
	struct ht_resp r;
	struct buf msg = BUF_INIT;

	ASSERT_STR_EQ(post_corpus("quote_only.eml", bob_token, &r), "refused");
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r.json, "detail")), "no steps found"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(wait_mails("bob@example.org", "email_refused", "quote-only-0001", 1, &msg), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "The legal steps at that point:\r\n  add 1"));
	ASSERT_STR_EQ(post_corpus("auto_reply.eml", bob_token, &r), "ignored");
	ht_resp_release(&r);
	sleep_ms(1500);
	CU_ASSERT_EQUAL(mails("bob@example.org", "email_refused", "auto-reply-0001", NULL), 0);
	CU_ASSERT_EQUAL(move_count(), 4);
	buf_release(&msg);
}

/* Post a body in some shape and expect it accepted with n steps. */
static void expect_accepted(const char *what, const char *ctype, const char *body, size_t len, int steps)
{
	struct ht_resp r = {0};
	int before = move_count();

	CU_ASSERT_EQUAL_FATAL(post(ctype, SECRET, body, len, &r), 0);
	if (r.status != 200 || strcmp(json_string_value(json_object_get(r.json, "outcome")), "accepted") != 0)
		fprintf(stderr, "\n  %s: HTTP %ld %s\n", what, r.status, r.body.data);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "outcome")), "accepted");
	CU_ASSERT_EQUAL(move_count(), before + steps);
	ht_resp_release(&r);
}

static void expect_corpus(const char *name, const char *token, int steps)
{
	struct buf b = BUF_INIT;

	CU_ASSERT_EQUAL_FATAL(corpus(name, token, &b), 0);
	expect_accepted(name, "message/rfc822", b.data, b.len, steps);
	buf_release(&b);
}

static void test_inbound__reply_styles_and_shapes(void)
{
	struct buf b = BUF_INIT, raw = BUF_INIT;
	json_t *j;
	char *text;

	expect_corpus("outlook_desktop.eml", bob_token, 2);
	expect_corpus("apple_iphone.eml", ann_token, 2);
	expect_corpus("k9_bottom_post.eml", bob_token, 2);
	expect_corpus("html_only_base64.eml", ann_token, 2);
	expect_corpus("outlook_mobile.eml", bob_token, 2);
	expect_corpus("apple_mail_desktop.eml", ann_token, 2);
	expect_corpus("base64_plain.eml", bob_token, 2);
	expect_corpus("latin1_qp.eml", ann_token, 2);
	/* Postmark's JSON */
	j = json_pack("{s:s,s:s,s:s,s:s,s:s,s:[{s:s,s:s}]}", "From", "bob@example.org", "To", "", "Subject",
		      "Re: Your turn", "TextBody", "add 3\r\nend\r\n\r\nOn Sat, turnpost wrote:\r\n> hi", "MessageID",
		      "5f6e7d8c-postmark", "Headers", "Name", "Message-ID", "Value", "<postmark.json.1@example.org>");
	buf_addf(&b, "turnpost <play+%s@%s>", bob_token, DOMAIN);
	json_object_set_new(j, "To", json_string(b.data));
	text = json_dumps(j, JSON_COMPACT);
	expect_accepted("postmark json", "application/json", text, strlen(text), 2);
	free(text);
	json_decref(j);
	expect_corpus("forward.eml", ann_token, 2);
	/* SendGrid's multipart form with the raw message in "email" */
	buf_reset(&b);
	buf_addf(&raw, "From: Bob <bob@example.org>\r\nTo: play+%s@%s\r\nSubject: Re: turn\r\n"
		       "Message-ID: <sendgrid.raw.1@example.org>\r\n\r\nadd 1\r\nadd 1\r\nend\r\n",
		 bob_token, DOMAIN);
	buf_addf(&b, "--sgb\r\nContent-Disposition: form-data; name=\"envelope\"\r\n\r\n{\"to\":[\"play+%s@%s\"],"
		     "\"from\":\"bob@example.org\"}\r\n--sgb\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\n%s\r\n"
		     "--sgb--\r\n",
		 bob_token, DOMAIN, raw.data);
	expect_accepted("sendgrid form", "multipart/form-data; boundary=sgb", b.data, b.len, 3);
	expect_corpus("nested_attachment.eml", ann_token, 2);
	/* Mailgun's urlencoded fields */
	buf_reset(&b);
	buf_addf(&b, "recipient=play%%2B%s%%40%s&sender=bob%%40example.org&from=Bob+%%3Cbob%%40example.org%%3E"
		     "&subject=Re%%3A+turn&body-plain=roll%%0D%%0Aend%%0D%%0A%%0D%%0A--+%%0D%%0ABob"
		     "&Message-Id=%%3Cmailgun.1%%40example.org%%3E",
		 bob_token, DOMAIN);
	expect_accepted("mailgun urlencoded", "application/x-www-form-urlencoded", b.data, b.len, 2);
	buf_release(&b);
	buf_release(&raw);
}

static void test_inbound__not_your_turn(void)
{
	struct ht_resp r = {0};
	struct buf b = BUF_INIT;

	/* Ann is to move; Bob writes anyway */
	buf_addf(&b, "From: bob@example.org\nTo: play+%s@%s\nSubject: again\nMessage-ID: <early.bob.1@example.org>\n\nadd 1\n",
		 bob_token, DOMAIN);
	CU_ASSERT_EQUAL_FATAL(post("message/rfc822", SECRET, b.data, b.len, &r), 0);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "outcome")), "refused");
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r.json, "detail")), "turn"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(wait_mails("bob@example.org", "email_refused", "early.bob.1", 1, NULL), 1);
	buf_release(&b);
}

static void test_inbound__body_limits(void)
{
	struct ht_resp r = {0};
	struct buf b = BUF_INIT;

	/* 200 KiB of attachment: over the server's 64 KiB, within the inbound route's 1 MiB */
	buf_addf(&b, "From: ann@example.org\r\nTo: play+%s@%s\r\nSubject: big\r\nMessage-ID: <big.1@example.org>\r\n"
		     "Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\n"
		     "add 1\r\nend\r\n--b1\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment\r\n"
		     "Content-Transfer-Encoding: base64\r\n\r\n",
		 ann_token, DOMAIN);
	for (int i = 0; i < 200 * 1024 / 77; i++)
		buf_adds(&b, "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0\r\n");
	buf_adds(&b, "--b1--\r\n");
	CU_ASSERT(b.len > 150 * 1024);
	expect_accepted("200 KiB email", "message/rfc822", b.data, b.len, 2);
	/* the same size without the secret gets the server's limit */
	CU_ASSERT_EQUAL(post("message/rfc822", NULL, b.data, b.len, &r), 0);
	CU_ASSERT_EQUAL(r.status, 413);
	ht_resp_release(&r);
	/* and over the inbound limit even with it */
	while (b.len < 1100 * 1024)
		buf_adds(&b, "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0\r\n");
	CU_ASSERT_EQUAL(post("message/rfc822", SECRET, b.data, b.len, &r), 0);
	CU_ASSERT_EQUAL(r.status, 413);
	ht_resp_release(&r);
	/* bodies that are no email */
	CU_ASSERT_EQUAL(post("message/rfc822", SECRET, "add 1\nend\n", 10, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "code")), "not_an_email");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(post("image/png", SECRET, "x", 1, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	buf_release(&b);
}

static void test_inbound__stale_address(void)
{
	struct ht_resp r;
	struct buf b = BUF_INIT, msg = BUF_INIT;
	char later[32];

	/* 33 days on, the addresses of the invitations (30 days) expired three days ago; a mail sent meanwhile
	 * prunes only addresses that expired more than a week ago, so these are still known to be expired */
	CU_ASSERT_EQUAL_FATAL(ht_stop(&d, SIGTERM), 0);
	snprintf(later, sizeof(later), "%lld", (long long)time(NULL) * 1000 + 33LL * 24 * 3600 * 1000);
	setenv("TURNPOST_FAKE_NOW_MS", later, 1);
	CU_ASSERT_EQUAL_FATAL(ht_restart(&d), 0);
	unsetenv("TURNPOST_FAKE_NOW_MS");
	buf_addf(&b, "From: Bob <bob@example.org>\nTo: play+%s@%s\nSubject: Re: Your turn\n"
		     "Message-ID: <late.reply.1@example.org>\n\nroll\nend\n",
		 bob_token, DOMAIN);
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(post("message/rfc822", SECRET, b.data, b.len, &r), 0);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "outcome")), "expired");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(wait_mails("bob@example.org", "email_refused", "late.reply.1", 1, &msg), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "this reply address has expired"));
	/* ... and the answer carries a new address that works */
	{
		char fresh[40];
		int before = move_count();
		CU_ASSERT_EQUAL_FATAL(reply_token(&msg, fresh, sizeof(fresh)), 0);
		buf_reset(&b);
		buf_addf(&b, "From: Bob <bob@example.org>\nTo: play+%s@%s\nSubject: Re: Your turn\n"
			     "Message-ID: <late.reply.2@example.org>\n\nroll\nend\n",
			 fresh, DOMAIN);
		expect_accepted("fresh address", "message/rfc822", b.data, b.len, 2);
		CU_ASSERT_EQUAL(move_count(), before + 2);
	}
	buf_release(&b);
	buf_release(&msg);
}

/* The seat whose turn it is (the first active one), or -1. */
static int seat_to_move(void)
{
	struct ht_resp r = {0};
	char path[64];
	int seat = -1;

	snprintf(path, sizeof(path), "/api/v1/games/%lld", game_id);
	if (ht_request(&d, "GET", path, admin_token, NULL, NULL, 0, &r) == 0 && r.status == 200 &&
	    json_array_size(json_object_get(r.json, "active_seats")))
		seat = (int)json_integer_value(json_array_get(json_object_get(r.json, "active_seats"), 0));
	ht_resp_release(&r);
	return seat;
}

/* A Message-ID is one sender's: another player using it first does not make the real one a duplicate. */
static void test_inbound__message_id_scoped_to_the_address(void)
{
	struct buf b = BUF_INIT;
	struct ht_resp r = {0};
	int mover = seat_to_move();
	const char *victim = mover == 1 ? bob_token : ann_token, *thief = mover == 1 ? ann_token : bob_token;
	const char *victim_from = mover == 1 ? "bob@example.org" : "ann@example.org";
	const char *thief_from = mover == 1 ? "ann@example.org" : "bob@example.org";
	int before;

	CU_ASSERT_FATAL(mover == 0 || mover == 1);
	/* the other player sends the Message-ID the mover's mail client will use, to their own address */
	buf_addf(&b, "From: %s\nTo: play+%s@%s\nSubject: Re: Your turn\nMessage-ID: <stolen.1@example.org>\n\n"
		     "add 1\nend\n",
		 thief_from, thief, DOMAIN);
	CU_ASSERT_EQUAL_FATAL(post("message/rfc822", SECRET, b.data, b.len, &r), 0);
	CU_ASSERT(json_is_false(json_object_get(r.json, "duplicate")));
	ht_resp_release(&r);
	/* the mover's own mail with that Message-ID is still played */
	before = move_count();
	buf_reset(&b);
	buf_addf(&b, "From: %s\nTo: play+%s@%s\nSubject: Re: Your turn\nMessage-ID: <stolen.1@example.org>\n\n"
		     "add 1\nend\n",
		 victim_from, victim, DOMAIN);
	CU_ASSERT_EQUAL_FATAL(post("message/rfc822", SECRET, b.data, b.len, &r), 0);
	CU_ASSERT(json_is_false(json_object_get(r.json, "duplicate")));
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "outcome")), "accepted");
	if (r.status != 200 || !json_is_false(json_object_get(r.json, "duplicate")))
		fprintf(stderr, "\n  HTTP %ld %s\n", r.status, r.body.data);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(move_count(), before + 2);
	/* and the same mail again, to the same address, is a duplicate as before */
	CU_ASSERT_EQUAL_FATAL(post("message/rfc822", SECRET, b.data, b.len, &r), 0);
	CU_ASSERT(json_is_true(json_object_get(r.json, "duplicate")));
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "outcome")), "accepted");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(move_count(), before + 2);
	/* the other player's turn now: played, so that the turn is where it was for the cases after this one */
	buf_reset(&b);
	buf_addf(&b, "From: %s\nTo: play+%s@%s\nSubject: Re: Your turn\nMessage-ID: <stolen.2@example.org>\n\n"
		     "add 1\nend\n",
		 thief_from, thief, DOMAIN);
	expect_accepted("the other player's turn", "message/rfc822", b.data, b.len, 2);
	CU_ASSERT_EQUAL(seat_to_move(), mover);
	buf_release(&b);
}

/*
 * A mail refused after a draw (docs/security.md, "Hidden draws"): the roll
 * is played, the answer and the reply name the lines that were not, and
 * nothing of it depends on a draw thrown away.
 */
static void test_inbound__refused_after_a_draw(void)
{
	struct buf b = BUF_INIT, msg = BUF_INIT;
	struct ht_resp r = {0};
	int mover = seat_to_move(), before = move_count();
	const char *mine = mover == 1 ? bob_token : ann_token, *other = mover == 1 ? ann_token : bob_token;
	const char *me = mover == 1 ? "bob@example.org" : "ann@example.org";
	const char *them = mover == 1 ? "ann@example.org" : "bob@example.org";

	CU_ASSERT_FATAL(mover == 0 || mover == 1);
	buf_addf(&b, "From: %s\nTo: play+%s@%s\nSubject: Re: Your turn\nMessage-ID: <peek.1@example.org>\n\n"
		     "roll\nadd 9\nend\n",
		 me, mine, DOMAIN);
	CU_ASSERT_EQUAL_FATAL(post("message/rfc822", SECRET, b.data, b.len, &r), 0);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "outcome")), "accepted");
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "not_applied")), 2);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(move_count(), before + 1);
	CU_ASSERT_EQUAL(wait_mails(me, "email_accepted", "(add 9) was refused", 1, &msg), 1);
	/* the turn goes on from the roll, and comes back to the mover for the cases after this one */
	buf_reset(&b);
	buf_addf(&b, "From: %s\nTo: play+%s@%s\nSubject: Re: Your turn\nMessage-ID: <peek.2@example.org>\n\n"
		     "add 1\nend\n",
		 me, mine, DOMAIN);
	expect_accepted("after the roll", "message/rfc822", b.data, b.len, 2);
	buf_reset(&b);
	buf_addf(&b, "From: %s\nTo: play+%s@%s\nSubject: Re: Your turn\nMessage-ID: <peek.3@example.org>\n\n"
		     "add 1\nend\n",
		 them, other, DOMAIN);
	expect_accepted("the other player's turn", "message/rfc822", b.data, b.len, 2);
	CU_ASSERT_EQUAL(seat_to_move(), mover);
	buf_release(&b);
	buf_release(&msg);
}

/* A signature header, which can only be checked with the body, does not raise the body limit. */
static void test_inbound__forged_signature_keeps_the_limit(void)
{
	struct buf b = BUF_INIT;
	struct ht_resp r = {0};
	const char *headers[] = { "Content-Type: message/rfc822",
				  "X-Turnpost-Signature: sha256=0000000000000000000000000000000000000000000000000000000000000000",
				  NULL };

	buf_addf(&b, "From: ann@example.org\r\nTo: play+%s@%s\r\nSubject: big\r\n\r\n", ann_token, DOMAIN);
	while (b.len < 200 * 1024)
		buf_adds(&b, "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0\r\n");
	CU_ASSERT_EQUAL(ht_request(&d, "POST", "/api/v1/inbound/email", NULL, headers, b.data, b.len, &r), 0);
	CU_ASSERT_EQUAL(r.status, 413);
	ht_resp_release(&r);
	buf_release(&b);
}

/* ---- what players write: disclaimers, fences, subjects, auto-replies, loops ---- */

/* A new game with Bob in the first seat (to play first): its id, and Bob's reply token from his invitation. */
static long long game_for_bob(char *token, size_t size)
{
	const char *body = "{\"game\":\"counting-race\",\"options\":{\"target\":1000},\"players\":["
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"},{\"name\":\"Ann\",\"email\":\"ann@example.org\"}]}";
	struct ht_resp r = {0};
	struct buf msg = BUF_INIT;
	char needle[64];
	long long id = -1;

	token[0] = '\0';
	if (ht_request(&d, "POST", "/api/v1/games", admin_token, NULL, body, strlen(body), &r) == 0 && r.status == 201)
		id = (long long)json_integer_value(json_object_get(r.json, "id"));
	ht_resp_release(&r);
	snprintf(needle, sizeof(needle), "X-Turnpost-Game: %lld\r\n", id);
	if (id < 0 || wait_mails("bob@example.org", "invite", needle, 1, &msg) != 1 || reply_token(&msg, token, size) < 0)
		id = -1;
	buf_release(&msg);
	return id;
}

/* POST a raw message (made here) with the secret; the outcome (static) or "". */
static const char *post_raw(const struct buf *raw, struct ht_resp *r)
{
	memset(r, 0, sizeof(*r));
	if (post("message/rfc822", SECRET, raw->data, raw->len, r) < 0 || r->status != 200 || !r->json)
		return "";
	return json_string_value(json_object_get(r->json, "outcome"));
}

static void test_inbound__disclaimer_ends_the_orders(void)
{
	struct ht_resp r;
	struct buf msg = BUF_INIT;
	char tok[40], needle[64];
	long long id = game_for_bob(tok, sizeof(tok));

	CU_ASSERT_FATAL(id > 0);
	/* Outlook, a signature block and a corporate disclaimer, no "-- " line: the two steps are played */
	ASSERT_STR_EQ(post_corpus("disclaimer_outlook.eml", tok, &r), "accepted");
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "applied")), 2);
	CU_ASSERT(json_array_size(json_object_get(r.json, "ignored")) >= 3);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(json_object_get(r.json, "ignored"), 0), "text")),
		      "Bob Builder | Senior Analyst | Example Holdings plc");
	ht_resp_release(&r);
	/* the answer says which lines were read and which were not */
	snprintf(needle, sizeof(needle), "X-Turnpost-Game: %lld\r\n", id);
	CU_ASSERT_EQUAL_FATAL(wait_mails("bob@example.org", "email_accepted", needle, 1, &msg), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "  1. add 1\r\n  2. end\r\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "These lines were not read: they are no steps, so your steps ended above them:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "  3. Bob Builder | Senior Analyst"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "CONFIDENTIALITY NOTICE: This e-mail message"));
	buf_release(&msg);

	/* a mistyped step above a disclaimer is still refused, with the usual message: nothing is played */
	id = game_for_bob(tok, sizeof(tok));
	CU_ASSERT_FATAL(id > 0);
	ASSERT_STR_EQ(post_corpus("disclaimer_mistyped_step.eml", tok, &r), "refused");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r.json, "failed_line")), 2);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "code")), "illegal_move");
	CU_ASSERT_PTR_NULL(json_object_get(r.json, "ignored"));
	ht_resp_release(&r);
}

static void test_inbound__begin_and_end_fence_the_orders(void)
{
	struct ht_resp r;
	char tok[40];
	long long id = game_for_bob(tok, sizeof(tok));

	CU_ASSERT_FATAL(id > 0);
	/* a greeting above, a sign-off below: only the fenced lines are steps, the turn's own "end" among them */
	ASSERT_STR_EQ(post_corpus("fenced_orders.eml", tok, &r), "accepted");
	CU_ASSERT_EQUAL_FATAL(json_array_size(json_object_get(r.json, "applied")), 2);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(json_object_get(r.json, "applied"), 0), "text")),
		      "add 2");
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(json_object_get(r.json, "applied"), 1), "text")),
		      "end");
	ht_resp_release(&r);
}

static void test_inbound__subjects_say_what_happened_now(void)
{
	struct ht_resp r;
	struct buf msg = BUF_INIT;
	char tok[40], needle[64];
	long long id = game_for_bob(tok, sizeof(tok));

	CU_ASSERT_FATAL(id > 0);
	/* "AW: RE: Re: ... - not played" from an earlier refusal: one "Re:", and this time's outcome */
	ASSERT_STR_EQ(post_corpus("subject_stacked.eml", tok, &r), "accepted");
	ht_resp_release(&r);
	snprintf(needle, sizeof(needle), "X-Turnpost-Game: %lld\r\n", id);
	CU_ASSERT_EQUAL_FATAL(wait_mails("bob@example.org", "email_accepted", needle, 1, &msg), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg.data, "\r\nSubject: Re: Your turn in Counting Race (test game) (game 1) - accepted\r\n"));
	CU_ASSERT_PTR_NULL(strstr(msg.data, "not played"));
	buf_release(&msg);
}

static void test_inbound__auto_replies_without_headers(void)
{
	struct ht_resp r;
	char tok[40];
	long long id = game_for_bob(tok, sizeof(tok));

	CU_ASSERT_FATAL(id > 0);
	ASSERT_STR_EQ(post_corpus("autoreply_german.eml", tok, &r), "ignored");
	ht_resp_release(&r);
	ASSERT_STR_EQ(post_corpus("autoreply_french.eml", tok, &r), "ignored");
	ht_resp_release(&r);
	sleep_ms(1500);
	CU_ASSERT_EQUAL(mails("bob@example.org", "email_refused", "abwesend-0001", NULL), 0);
	CU_ASSERT_EQUAL(mails("bob@example.org", "email_refused", "absence-0001", NULL), 0);
}

static void test_inbound__no_mail_loops(void)
{
	struct ht_resp r;
	struct buf msg = BUF_INIT, raw = BUF_INIT, tmp = BUF_INIT;
	char tok[40], needle[64], answer[128];
	const char *p, *q;
	long long id = game_for_bob(tok, sizeof(tok));

	CU_ASSERT_FATAL(id > 0);
	snprintf(needle, sizeof(needle), "X-Turnpost-Game: %lld\r\n", id);
	/* a reply without steps is refused, by email */
	ASSERT_STR_EQ(post_corpus("quote_only.eml", tok, &r), "refused");
	CU_ASSERT(json_is_true(json_object_get(r.json, "answered")));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(wait_mails("bob@example.org", "email_refused", needle, 1, &msg), 1);
	p = strstr(msg.data, "Message-ID: <");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	p += strlen("Message-ID: <");
	q = strchr(p, '>');
	snprintf(answer, sizeof(answer), "%.*s", (int)(q - p), p);
	/* an auto-responder (no standard headers) answers that refusal: refused, but never answered */
	CU_ASSERT_EQUAL_FATAL(corpus("reply_to_our_refusal.eml", tok, &tmp), 0);
	for (const char *s = tmp.data; *s;) {
		const char *at = strstr(s, "{{ANSWER}}");
		if (!at) {
			buf_adds(&raw, s);
			break;
		}
		buf_add(&raw, s, (size_t)(at - s));
		buf_adds(&raw, answer);
		s = at + strlen("{{ANSWER}}");
	}
	ASSERT_STR_EQ(post_raw(&raw, &r), "refused");
	CU_ASSERT(json_is_false(json_object_get(r.json, "answered")));
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r.json, "not_answered")), "answers our own answer"));
	ht_resp_release(&r);
	/* mails that are not answers to ours: at most five refusals an hour, then silence */
	for (int i = 0; i < 5; i++) {
		buf_reset(&raw);
		buf_addf(&raw, "From: Bob Builder <bob@example.org>\r\nTo: play+%s@" DOMAIN "\r\n"
			       "Subject: Re: Your turn\r\nMessage-ID: <no-steps-%d@example.org>\r\n\r\n"
			       "Thank you for your message. It will be answered as soon as possible.\r\n", tok, i);
		ASSERT_STR_EQ(post_raw(&raw, &r), "refused");
		CU_ASSERT_EQUAL(json_is_true(json_object_get(r.json, "answered")), i < 4);
		if (i == 4)
			CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r.json, "not_answered")),
						      "refusals were emailed to this seat in the last hour"));
		ht_resp_release(&r);
	}
	sleep_ms(1500);
	CU_ASSERT_EQUAL(mails("bob@example.org", "email_refused", needle, NULL), 5);
	buf_release(&msg);
	buf_release(&raw);
	buf_release(&tmp);
}

static CU_TestInfo inbound_cases[] = {
	{ "test_inbound__reply_addresses", test_inbound__reply_addresses },
	{ "test_inbound__authentication", test_inbound__authentication },
	{ "test_inbound__whole_turn", test_inbound__whole_turn },
	{ "test_inbound__duplicate_message_id", test_inbound__duplicate_message_id },
	{ "test_inbound__turn_with_a_bad_line", test_inbound__turn_with_a_bad_line },
	{ "test_inbound__wrong_sender", test_inbound__wrong_sender },
	{ "test_inbound__no_steps_and_auto_replies", test_inbound__no_steps_and_auto_replies },
	{ "test_inbound__reply_styles_and_shapes", test_inbound__reply_styles_and_shapes },
	{ "test_inbound__not_your_turn", test_inbound__not_your_turn },
	{ "test_inbound__body_limits", test_inbound__body_limits },
	{ "test_inbound__message_id_scoped_to_the_address", test_inbound__message_id_scoped_to_the_address },
	{ "test_inbound__refused_after_a_draw", test_inbound__refused_after_a_draw },
	{ "test_inbound__forged_signature_keeps_the_limit", test_inbound__forged_signature_keeps_the_limit },
	{ "test_inbound__stale_address", test_inbound__stale_address },
	{ "test_inbound__disclaimer_ends_the_orders", test_inbound__disclaimer_ends_the_orders },
	{ "test_inbound__begin_and_end_fence_the_orders", test_inbound__begin_and_end_fence_the_orders },
	{ "test_inbound__subjects_say_what_happened_now", test_inbound__subjects_say_what_happened_now },
	{ "test_inbound__auto_replies_without_headers", test_inbound__auto_replies_without_headers },
	{ "test_inbound__no_mail_loops", test_inbound__no_mail_loops },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("inbound", suite_init, suite_clean, inbound_cases);
	return 0;
}
