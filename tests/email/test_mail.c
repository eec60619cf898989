/* tests/email/test_mail.c: the mail parser against a corpus of real-world replies, and its pieces */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <sodium.h>

#include "mail/mail.h"
#include "testutil.h"
#include "util/buf.h"

#define TOKEN "abcdefghijklmnopqrstuvwxyz234567"

/* A corpus file with {{TOKEN}} replaced; 0 or -1. */
static int load(const char *name, struct buf *out)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[512], chunk[4096];
	struct buf raw = BUF_INIT;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/tests/email/corpus/%s", top && *top ? top : ".", name);
	if (!(f = fopen(path, "rb"))) {
		fprintf(stderr, "\n  cannot open %s\n", path);
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&raw, chunk, n);
	fclose(f);
	for (size_t i = 0; i < raw.len; i++) {
		if (raw.len - i >= 9 && memcmp(raw.data + i, "{{TOKEN}}", 9) == 0) {
			buf_adds(out, TOKEN);
			i += 8;
		} else {
			buf_addc(out, raw.data[i]);
		}
	}
	buf_release(&raw);
	return 0;
}

/* The move lines joined by "|". */
static void joined(const struct mail_lines *l, struct buf *out)
{
	for (int i = 0; i < l->n; i++) {
		if (i)
			buf_addc(out, '|');
		buf_adds(out, l->lines[i]);
	}
}

struct corpus_case {
	const char *file;
	const char *from;
	const char *subject;
	const char *message_id;
	const char *lines; /* "|"-joined */
	int from_html;
	int auto_reply;
	int crlf; /* also try it with CRLF line ends */
	const char *contains; /* the text must contain this (NULL: nothing more) */
};

static const struct corpus_case corpus[] = {
	{ "gmail_whole_turn.eml", "ann@example.org", "Re: Your turn in Counting Race (test game) (game 1)",
	  "CAJx9rQ8GmAiL+whole.turn.4f2a@mail.gmail.com", "add 3|add 2|roll|end", 0, 0, 1, NULL },
	{ "outlook_desktop.eml", "bob@example.org", "RE: Your turn in Counting Race (test game) (game 1)",
	  "AM0PR07MB1234A1B2C3D4E5F6G7H8@AM0PR07MB1234.eurprd07.prod.outlook.com", "add 2|end", 0, 0, 1, "To: Bob Bürger <bob@example.org>" },
	{ "outlook_mobile.eml", "bob@example.org", "Re: Your turn in Counting Race (test game) (game 1)",
	  "DB9PR02MB7890.mobile.reply.77a1@DB9PR02MB7890.eurprd02.prod.outlook.com", "add 1|end", 0, 0, 0, NULL },
	/* Outlook's rich text: the body and a winmail.dat (application/ms-tnef) attachment, which is not read */
	{ "outlook_winmail.eml", "bob@example.org", "RE: Your turn in Counting Race (test game) (game 1)",
	  "DB8PR09MB4321WINMAIL0001@DB8PR09MB4321.eurprd09.prod.outlook.com", "roll|end", 0, 0, 0, NULL },
	{ "apple_iphone.eml", "ann@example.org", "Re: Your turn in Counting Race (test game) (game 1)",
	  "6E0B1E6C-3B0A-4C36-9C61-AE1B3C2D9F11@example.org", "Add 1|End", 0, 0, 0, NULL },
	{ "apple_mail_desktop.eml", "ann@example.org", "Re: Your turn in Counting Race (test game) (game 1)",
	  "1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9@example.org", "add 3|end", 0, 0, 0, NULL },
	{ "k9_bottom_post.eml", "bob@example.org", "Re: Your turn in Counting Race (test game) (game 1)",
	  "9A2C1E0B-8F7D-4E6C-A5B4-K9MAIL0000001@example.org", "roll|end", 0, 0, 0, NULL },
	{ "html_only_base64.eml", "ann@example.org", "Re: Your turn in Counting Race (test game) (game 1)",
	  "1875342201.1234567.1763739900000@mail.yahoo.com", "add 2|end", 1, 0, 0, NULL },
	{ "base64_plain.eml", "bob@example.org", "Re: Your turn \xE2\x80\x94 Counting Race",
	  "base64.plain.20261121160500@example.org", "add 1|end", 0, 0, 0, NULL },
	{ "latin1_qp.eml", "ann@example.org", "Rép. : Your turn in Counting Race", "latin1.reply.5512@webmail.example.org",
	  "add 2|end", 0, 0, 0, NULL },
	{ "forward.eml", "ann@example.org", "Fwd: Your turn in Counting Race (test game) (game 1)",
	  "CAJx9rQ8forward.7c1e@mail.gmail.com", "roll|end", 0, 0, 0, NULL },
	{ "wrong_sender.eml", "mallory@example.net", "Re: Your turn in Counting Race (test game) (game 1)",
	  "not-bob-0001@example.net", "add 3|end", 0, 0, 0, NULL },
	{ "bad_line.eml", "bob@example.org", "Re: Your turn in Counting Race (test game) (game 1)",
	  "bad-line-turn-0001@example.org", "add 2|add 5|end", 0, 0, 0, NULL },
	{ "auto_reply.eml", "bob@example.org", "Automatic reply: Your turn in Counting Race (test game) (game 1)",
	  "auto-reply-0001@example.org", "I am out of the office until Monday.", 0, 1, 0, NULL },
	{ "quote_only.eml", "bob@example.org", "Re: Your turn in Counting Race (test game) (game 1)",
	  "quote-only-0001@example.org", "", 0, 0, 0, NULL },
	{ "nested_attachment.eml", "ann@example.org", "Re: Your turn \xE2\x80\x93 photo of my notes",
	  "nested.multipart.0001@example.org", "add 1|end", 0, 0, 1, NULL },
	/* what players write (the inbound side decides what of it is read: tests/email/test_inbound.c) */
	{ "disclaimer_outlook.eml", "bob@example.org", "RE: Your turn in Counting Race (test game) (game 1)",
	  "AM9PR03MB7000DISCLAIMER01@AM9PR03MB7000.eurprd03.prod.outlook.com",
	  "add 1|end|Bob Builder | Senior Analyst | Example Holdings plc|T +44 20 7946 0000 | bob@example.org|"
	  "CONFIDENTIALITY NOTICE: This e-mail message, including any attachments, is for the sole use of the intended "
	  "recipient(s) and may contain confidential and privileged information. Any unauthorised review, use, "
	  "disclosure or distribution is prohibited. If you are not the intended recipient, please contact the sender "
	  "by reply e-mail and destroy all copies of the original message.|Example Holdings plc is registered in "
	  "England and Wales, company number 01234567.", 0, 0, 0, NULL },
	{ "disclaimer_mistyped_step.eml", "bob@example.org", "Re: Your turn in Counting Race (test game) (game 1)",
	  "mistyped-then-disclaimer-0001@example.org",
	  "add 1|add 7|This email and any files transmitted with it are confidential and intended|solely for the use of "
	  "the individual or entity to whom they are addressed.", 0, 0, 0, NULL },
	{ "fenced_orders.eml", "bob@example.org", "Re: Your turn in Counting Race (test game) (game 1)",
	  "fenced-orders-0001@example.org", "add 2|end", 0, 0, 0, NULL },
	{ "autoreply_german.eml", "bob@example.org",
	  "Automatische Antwort: Your turn in Counting Race (test game) (game 1)", "abwesend-0001@mail.example.de",
	  "Vielen Dank f\xC3\xBCr Ihre Nachricht. Ich bin bis zum 30. November nicht im B\xC3\xBCro und lese meine "
	  "E-Mails nur unregelm\xC3\xA4\xC3\x9Fig.", 0, 1, 0, NULL },
	{ "autoreply_french.eml", "bob@example.org", "R\xC3\xA9ponse automatique : Your turn in Counting Race",
	  "absence-0001@mail.example.fr", "Bonjour, je suis absent du bureau jusqu'au 30 novembre.", 0, 1, 0, NULL },
	{ "subject_stacked.eml", "bob@example.org",
	  "AW: RE: Re: Your turn in Counting Race (test game) (game 1) - not played", "stacked-subject-0001@mail.example.de",
	  "add 1|end", 0, 0, 0, NULL },
	{ "reply_to_our_refusal.eml", "bob@example.org",
	  "Re: Re: Your turn in Counting Race (test game) (game 1) - not played", "travelling-0001@example.org",
	  "I am travelling with limited access to email until 2 December.|For urgent matters please contact the front "
	  "desk.", 0, 0, 0, NULL },
	{ NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL }
};

static void check_case(const struct corpus_case *c, const struct buf *raw)
{
	struct mail_msg m;
	struct mail_lines l;
	struct err e = {0};
	struct buf got = BUF_INIT;
	char token[MAIL_TOKEN_LEN + 1];

	CU_ASSERT_EQUAL_FATAL(mail_parse(raw->data, raw->len, &m, &e), 0);
	ASSERT_STR_EQ(m.from, c->from);
	ASSERT_STR_EQ(m.subject, c->subject);
	ASSERT_STR_EQ(m.message_id, c->message_id);
	CU_ASSERT_EQUAL(m.from_html, c->from_html);
	CU_ASSERT_EQUAL(m.auto_reply, c->auto_reply);
	CU_ASSERT_EQUAL(mail_reply_lines(m.text, &l, &e), 0);
	joined(&l, &got);
	if (strcmp(got.data, c->lines) != 0)
		fprintf(stderr, "\n  %s: text was:\n%s\n", c->file, m.text);
	ASSERT_STR_EQ(got.data, c->lines);
	CU_ASSERT_EQUAL(mail_token_find(&m, token), 0);
	ASSERT_STR_EQ(token, TOKEN);
	if (c->contains)
		CU_ASSERT_PTR_NOT_NULL(strstr(m.text, c->contains));
	mail_lines_release(&l);
	mail_msg_release(&m);
	buf_release(&got);
}

static void test_mail__corpus(void)
{
	for (const struct corpus_case *c = corpus; c->file; c++) {
		struct buf raw = BUF_INIT, crlf = BUF_INIT;

		CU_ASSERT_EQUAL_FATAL(load(c->file, &raw), 0);
		check_case(c, &raw);
		if (c->crlf) {
			for (size_t i = 0; i < raw.len; i++) {
				if (raw.data[i] == '\n' && (i == 0 || raw.data[i - 1] != '\r'))
					buf_addc(&crlf, '\r');
				buf_addc(&crlf, raw.data[i]);
			}
			check_case(c, &crlf);
		}
		buf_release(&raw);
		buf_release(&crlf);
	}
}

/* begin/end fences: the lines between are the steps, the rest is kept aside; a begin needs its end */
static void test_mail__fences(void)
{
	struct mail_lines l;
	struct err e = {0};
	struct buf got = BUF_INIT;

	CU_ASSERT_EQUAL_FATAL(mail_reply_lines("Hello,\nbegin\nadd 2\nend\nend\nBye\n", &l, &e), 0);
	joined(&l, &got);
	ASSERT_STR_EQ(got.data, "add 2|end");
	CU_ASSERT_EQUAL(l.fenced, 1);
	CU_ASSERT_EQUAL_FATAL(l.noutside, 2);
	ASSERT_STR_EQ(l.outside[0], "Hello,");
	ASSERT_STR_EQ(l.outside[1], "Bye");
	mail_lines_release(&l);
	/* "#end" closes at once: an "end" step may follow it outside no more */
	buf_reset(&got);
	CU_ASSERT_EQUAL_FATAL(mail_reply_lines("#BEGIN\nroll\nend\n#end\nend\n", &l, &e), 0);
	joined(&l, &got);
	ASSERT_STR_EQ(got.data, "roll|end");
	mail_lines_release(&l);
	/* without fences "#end" and "#begin" are comments like any other */
	buf_reset(&got);
	CU_ASSERT_EQUAL_FATAL(mail_reply_lines("add 1\n#end\nend\n", &l, &e), 0);
	joined(&l, &got);
	ASSERT_STR_EQ(got.data, "add 1|end");
	CU_ASSERT_EQUAL(l.fenced, 0);
	mail_lines_release(&l);
	CU_ASSERT_EQUAL(mail_reply_lines("begin\nadd 1\n", &l, &e), ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "close them with an \"end\" line"));
	CU_ASSERT_EQUAL(l.n, 0);
	buf_release(&got);
}

static void test_mail__unknown_token_in_corpus(void)
{
	struct buf raw = BUF_INIT;
	struct mail_msg m;
	struct err e = {0};
	char token[MAIL_TOKEN_LEN + 1];
	unsigned char h1[32], h2[32];

	CU_ASSERT_EQUAL_FATAL(load("unknown_token.eml", &raw), 0);
	CU_ASSERT_EQUAL_FATAL(mail_parse(raw.data, raw.len, &m, &e), 0);
	/* it has the form of a reply address; that the store does not know it is for the endpoint to find */
	CU_ASSERT_EQUAL(mail_token_find(&m, token), 0);
	ASSERT_STR_EQ(token, "aaaabbbbccccddddeeeeffffgggghhhh");
	CU_ASSERT_EQUAL(mail_token_hash(token, h1), 0);
	CU_ASSERT_EQUAL(mail_token_hash("AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH", h2), 0);
	CU_ASSERT_EQUAL(memcmp(h1, h2, 32), 0);
	mail_msg_release(&m);
	buf_release(&raw);
}

static void test_mail__header_decode(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "=?ISO-8859-1?Q?Andr=E9?= Pirard", "André Pirard" },
		{ "=?UTF-8?B?w6Rw?= =?UTF-8?B?ZmVs?=", "äpfel" },     /* space between words dropped */
		{ "=?utf-8?q?a_b?=  =?utf-8?q?_c?=", "a b c" },
		{ "=?ISO-8859-15?Q?=A4uro?=", "€uro" },
		{ "=?windows-1252?Q?=80_and_=93quotes=94?=", "€ and \xE2\x80\x9Cquotes\xE2\x80\x9D" },
		{ "plain  =?UTF-8?Q?w=C3=B6rd?= end", "plain wörd end" },
		{ "Gr\xC3\xBC\xC3\x9F" "e raw UTF-8", "Grüße raw UTF-8" },
		{ "Gr\xFC\xDF" "e raw Latin-1", "Grüße raw Latin-1" },
		{ "=?UTF-8?X?bad?= =?broken", "=?UTF-8?X?bad?= =?broken" },
		{ "=?UTF-8*en?Q?lang?=", "lang" },
		{ NULL, NULL }
	};

	for (int i = 0; cases[i].in; i++) {
		char *got = mail_header_decode(cases[i].in, strlen(cases[i].in));
		ASSERT_STR_EQ(got, cases[i].out);
		free(got);
	}
}

static void test_mail__charsets(void)
{
	static const struct {
		const char *cs, *in, *out;
	} cases[] = {
		{ "ISO-8859-1", "caf\xE9", "café" },
		{ "latin1", "\x80", "€" },               /* read as Windows-1252, as browsers do */
		{ "iso-8859-15", "\xA4\xBD", "€œ" },
		{ "Windows-1252", "\x93hi\x94 \x85", "\xE2\x80\x9Chi\xE2\x80\x9D \xE2\x80\xA6" },
		{ "us-ascii", "na\xC3\xAFve", "naïve" }, /* mislabelled UTF-8 kept */
		{ "us-ascii", "na\xEFve", "naïve" },
		{ "utf-8", "ok \xFF end", "ok \xEF\xBF\xBD end" },
		{ "utf-8", "\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" }, /* a surrogate is not UTF-8 */
		{ "\"UTF-8\"", "\xC3\xA9", "é" },
		{ "koi8-r", "\xC1", "а" },                /* through iconv */
		{ "no-such-charset", "plain", "plain" },
		{ NULL, NULL, NULL }
	};

	for (int i = 0; cases[i].cs; i++) {
		struct buf b = BUF_INIT;
		mail_to_utf8(cases[i].cs, cases[i].in, strlen(cases[i].in), &b);
		ASSERT_STR_EQ(b.data, cases[i].out);
		buf_release(&b);
	}
}

static void test_mail__transfer_encodings(void)
{
	struct buf b = BUF_INIT;
	const char *qp = "caf=C3=A9 soft=\r\nbreak =3D sign=20\r\ntrailing   \r\nbad =ZZ end=";

	mail_qp_decode(qp, strlen(qp), &b);
	ASSERT_STR_EQ(b.data, "café softbreak = sign \ntrailing\nbad =ZZ end");
	buf_reset(&b);
	mail_base64_decode("aGVs\r\nbG8g\nd29y bGQ=junk", 30, &b);
	ASSERT_STR_EQ(b.data, "hello world");
	buf_release(&b);
}

static void test_mail__html(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "<div>add 1</div><div>end</div>", "add 1\nend\n" },
		{ "add&nbsp;2<br>end<BR/>x &amp; y &lt;z&gt; &#233;&#x20AC;", "add 2\nend\nx & y <z> é€\n" },
		{ "<p>a</p><blockquote><p>quoted</p><blockquote>deeper</blockquote></blockquote>after",
		  "a\n> quoted\n> > deeper\nafter\n" },
		{ "<head><title>t</title><style>p{}</style></head><script>x<y</script>body", "body\n" },
		{ "<!-- <div>hidden</div> -->shown", "shown\n" },
		{ "a <b>bold</b>   and\n\n spaces", "a bold and spaces\n" },
		{ "<pre>line 1\n  line 2</pre>", "line 1\n  line 2\n" },
		{ "1 < 2 <unfinished", "1 < 2\n" },
		{ "fish & chips &zz; &#; &", "fish & chips &zz; &#; &\n" },
		{ "shown<script>never closed \xC3\xA9", "shown\n" },
		{ NULL, NULL }
	};

	for (int i = 0; cases[i].in; i++) {
		struct buf b = BUF_INIT;
		mail_html_to_text(cases[i].in, strlen(cases[i].in), &b);
		ASSERT_STR_EQ(b.data, cases[i].out);
		buf_release(&b);
	}
}

static void test_mail__reply_lines(void)
{
	static const struct {
		const char *text, *lines;
	} cases[] = {
		{ "add 1\n-- \nAnn\nadd 2\n", "add 1" },
		{ "add 1\n--\nAnn\n", "add 1" },
		{ "  add 1  \n\n\n# a comment\nend\n", "add 1|end" },
		{ "add 1\nSent from my iPad\n", "add 1" },
		{ "add 1\nVon meinem iPhone gesendet\n", "add 1" },
		{ "add 1\n\nOn Tue, 3 Nov 2026 at 10:00, turnpost <a@b.org>\nwrote:\n> x\n", "add 1" },
		{ "add 1\n\nAm 03.11.2026 um 10:00 schrieb turnpost <a@b.org>:\n> x\n", "add 1" },
		{ "add 1\n*From:* turnpost <a@b.org>\n*Sent:* Monday\n*To:* Ann\n", "add 1" },
		{ "add 1\nVon: turnpost\nGesendet: Montag\n", "add 1" },
		{ "add 1\n-----Original Message-----\nadd 2\n", "add 1" },
		{ "add 1\n-------- Ursprüngliche Nachricht --------\nadd 2\n", "add 1" },
		{ "add 1\nBegin forwarded message:\n\nadd 2\n", "add 1" },
		{ "add 1\n> quoted\nadd 2\n", "add 1" },
		{ "> quoted first\n>\n\nadd 1\nend\n", "add 1|end" },
		{ "add\xC2\xA0" "1\xE2\x80\x8B\n\xEF\xBB\xBF" "end\n", "add 1|end" },
		{ "From the west: add 1\n", "From the west: add 1" },
		{ "", "" },
		{ NULL, NULL }
	};
	struct err e = {0};
	struct buf many = BUF_INIT, got = BUF_INIT;
	struct mail_lines l;

	for (int i = 0; cases[i].text; i++) {
		CU_ASSERT_EQUAL(mail_reply_lines(cases[i].text, &l, &e), 0);
		buf_reset(&got);
		joined(&l, &got);
		ASSERT_STR_EQ(got.data, cases[i].lines);
		mail_lines_release(&l);
	}
	for (int i = 0; i < MAIL_MAX_LINES; i++)
		buf_addf(&many, "add %d\n", 1 + i % 3);
	CU_ASSERT_EQUAL(mail_reply_lines(many.data, &l, &e), 0);
	CU_ASSERT_EQUAL(l.n, MAIL_MAX_LINES);
	mail_lines_release(&l);
	buf_adds(&many, "end\n");
	CU_ASSERT_EQUAL(mail_reply_lines(many.data, &l, &e), ERR_TOOLARGE);
	CU_ASSERT_EQUAL(l.n, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "64"));
	buf_reset(&many);
	for (int i = 0; i < MAIL_MAX_LINE + 1; i++)
		buf_addc(&many, 'x');
	CU_ASSERT_EQUAL(mail_reply_lines(many.data, &l, &e), ERR_TOOLARGE);
	buf_release(&many);
	buf_release(&got);
}

static void test_mail__addresses(void)
{
	char *a[8] = { NULL };
	int n = 0;
	char *name = NULL;

	mail_addresses("\"Doe, Jane\" <Jane@Example.ORG>, bob@b.org (Bob), team: c@c.org, d@d.org;, not an address, "
		       "=?UTF-8?Q?Z=C3=BC?= <z@z.org>",
		       a, &n, 8, &name);
	CU_ASSERT_EQUAL_FATAL(n, 5);
	ASSERT_STR_EQ(a[0], "Jane@example.org");
	ASSERT_STR_EQ(a[1], "bob@b.org");
	ASSERT_STR_EQ(a[2], "c@c.org");
	ASSERT_STR_EQ(a[3], "d@d.org");
	ASSERT_STR_EQ(a[4], "z@z.org");
	ASSERT_STR_EQ(name, "Doe, Jane");
	for (int i = 0; i < n; i++)
		free(a[i]);
	free(name);
}

static void test_mail__not_an_email(void)
{
	const char *mbox = "From a@b Sat Nov 21 10:00:00 2026\nFrom: a@b.org\n\nadd 1\n";
	struct mail_msg m;
	struct err e = {0};

	CU_ASSERT_EQUAL(mail_parse("add 1\nend\n", 10, &m, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(mail_parse("", 0, &m, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(mail_parse("X-Foo: bar\n\nbody", 16, &m, &e), ERR_INPUT);
	/* a minimal message is fine; an mbox From line is skipped */
	CU_ASSERT_EQUAL_FATAL(mail_parse(mbox, strlen(mbox), &m, &e), 0);
	ASSERT_STR_EQ(m.from, "a@b.org");
	ASSERT_STR_EQ(m.text, "add 1\n");
	mail_msg_release(&m);
}

static void test_mail__json_postmark(void)
{
	const char *body =
		"{\"FromName\":\"Ann\",\"From\":\"ann@example.org\",\"FromFull\":{\"Email\":\"ann@example.org\",\"Name\":\"Ann\"},"
		"\"To\":\"\\\"turnpost\\\" <play+" TOKEN "@play.example.org>\","
		"\"ToFull\":[{\"Email\":\"play+" TOKEN "@play.example.org\",\"Name\":\"turnpost\"}],"
		"\"Subject\":\"Re: Your turn\",\"MessageID\":\"22c74902-a0c1-4511-804f-341342852c90\","
		"\"TextBody\":\"add 1\\r\\nend\\r\\n\\r\\nOn Sat, turnpost wrote:\\r\\n> hi\",\"HtmlBody\":\"<p>ignored</p>\","
		"\"StrippedTextReply\":\"add 1\\nend\","
		"\"Headers\":[{\"Name\":\"Message-ID\",\"Value\":\"<CAHhH=real.id@mail.gmail.com>\"},"
		"{\"Name\":\"In-Reply-To\",\"Value\":\"<msg_x@games.example.org>\"}]}";
	json_t *j = json_loads(body, 0, NULL);
	struct mail_msg m;
	struct mail_lines l;
	struct err e = {0};
	struct buf got = BUF_INIT;
	char token[MAIL_TOKEN_LEN + 1];

	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL_FATAL(mail_from_json(j, &m, &e), 0);
	ASSERT_STR_EQ(m.from, "ann@example.org");
	ASSERT_STR_EQ(m.message_id, "CAHhH=real.id@mail.gmail.com"); /* the header, not Postmark's own id */
	ASSERT_STR_EQ(m.in_reply_to, "msg_x@games.example.org");
	CU_ASSERT_EQUAL(mail_token_find(&m, token), 0);
	CU_ASSERT_EQUAL(mail_reply_lines(m.text, &l, &e), 0);
	joined(&l, &got);
	ASSERT_STR_EQ(got.data, "add 1|end");
	mail_lines_release(&l);
	mail_msg_release(&m);
	json_decref(j);
	/* neither text nor html nor a raw message */
	j = json_pack("{s:s}", "from", "ann@example.org");
	CU_ASSERT_EQUAL(mail_from_json(j, &m, &e), ERR_INPUT);
	json_decref(j);
	buf_release(&got);
}

static void test_mail__form_data_sendgrid(void)
{
	const char *body =
		"--xYzZY\r\nContent-Disposition: form-data; name=\"headers\"\r\n\r\n"
		"Message-ID: <sg.form.1@example.org>\r\nAuto-Submitted: no\r\n\r\n"
		"--xYzZY\r\nContent-Disposition: form-data; name=\"from\"\r\n\r\nBob <bob@example.org>\r\n"
		"--xYzZY\r\nContent-Disposition: form-data; name=\"to\"\r\n\r\nplay+" TOKEN "@play.example.org\r\n"
		"--xYzZY\r\nContent-Disposition: form-data; name=\"subject\"\r\n\r\nRe: \xE9t\xE9\r\n"
		"--xYzZY\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nadd 2\r\nend caf\xE9\r\n"
		"--xYzZY\r\nContent-Disposition: form-data; name=\"charsets\"\r\n\r\n"
		"{\"to\":\"UTF-8\",\"subject\":\"iso-8859-1\",\"text\":\"iso-8859-1\"}\r\n"
		"--xYzZY\r\nContent-Disposition: form-data; name=\"attachment1\"; filename=\"a.bin\"\r\n"
		"Content-Type: application/octet-stream\r\n\r\n\x01\x02\x03\r\n"
		"--xYzZY--\r\n";
	struct mail_field *f = NULL;
	struct mail_msg m;
	struct err e = {0};
	int n = 0;

	CU_ASSERT_EQUAL_FATAL(mail_form_data("multipart/form-data; boundary=xYzZY", body, strlen(body), &f, &n, &e), 0);
	CU_ASSERT_EQUAL(n, 7);
	CU_ASSERT_EQUAL_FATAL(mail_from_fields(f, n, &m, &e), 0);
	ASSERT_STR_EQ(m.from, "bob@example.org");
	ASSERT_STR_EQ(m.subject, "Re: été");
	ASSERT_STR_EQ(m.message_id, "sg.form.1@example.org");
	ASSERT_STR_EQ(m.text, "add 2\nend café");
	CU_ASSERT_EQUAL(m.auto_reply, 0);
	mail_msg_release(&m);
	mail_fields_free(f, n);
	CU_ASSERT_EQUAL(mail_form_data("multipart/form-data", body, strlen(body), &f, &n, &e), ERR_INPUT);
}

static void test_mail__urlencoded_mailgun(void)
{
	const char *body = "recipient=play%2B" TOKEN "%40play.example.org&sender=bob%40example.org"
			   "&from=Bob+%3Cbob%40example.org%3E&subject=Re%3A+Your+turn"
			   "&body-plain=roll%0D%0Aend%0D%0A%0D%0A-- %0D%0ABob&stripped-text=roll%0D%0Aend"
			   "&Message-Id=%3Cmg.1%40example.org%3E&bad=%ZZ%4";
	struct mail_field *f = NULL;
	struct mail_msg m;
	struct mail_lines l;
	struct err e = {0};
	struct buf got = BUF_INIT;
	int n = 0;

	CU_ASSERT_EQUAL_FATAL(mail_form_urlencoded(body, strlen(body), &f, &n, &e), 0);
	CU_ASSERT_EQUAL(n, 8);
	ASSERT_STR_EQ(f[7].value, "%ZZ%4");
	CU_ASSERT_EQUAL_FATAL(mail_from_fields(f, n, &m, &e), 0);
	ASSERT_STR_EQ(m.from, "bob@example.org");
	ASSERT_STR_EQ(m.message_id, "mg.1@example.org");
	ASSERT_STR_EQ(m.rcpt[0], "play+" TOKEN "@play.example.org");
	CU_ASSERT_EQUAL(mail_reply_lines(m.text, &l, &e), 0);
	joined(&l, &got);
	ASSERT_STR_EQ(got.data, "roll|end");
	mail_lines_release(&l);
	mail_msg_release(&m);
	mail_fields_free(f, n);
	buf_release(&got);
}

static void test_mail__tokens(void)
{
	char t1[MAIL_TOKEN_LEN + 1], t2[MAIL_TOKEN_LEN + 1], upper[MAIL_TOKEN_LEN + 1];
	unsigned char h1[32], h2[32], h3[32];
	struct buf addr = BUF_INIT;
	struct mail_msg m = {0};
	char found[MAIL_TOKEN_LEN + 1];

	mail_token_new(t1, h1);
	mail_token_new(t2, h2);
	CU_ASSERT_EQUAL(strlen(t1), MAIL_TOKEN_LEN);
	CU_ASSERT_NOT_EQUAL(strcmp(t1, t2), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(h1, h2, 32), 0);
	CU_ASSERT_EQUAL(strspn(t1, "abcdefghijklmnopqrstuvwxyz234567"), MAIL_TOKEN_LEN);
	/* mail systems may change the case of an address: the token survives it */
	for (int i = 0; i <= MAIL_TOKEN_LEN; i++)
		upper[i] = (char)(t1[i] >= 'a' && t1[i] <= 'z' ? t1[i] - 32 : t1[i]);
	CU_ASSERT_EQUAL(mail_token_hash(upper, h3), 0);
	CU_ASSERT_EQUAL(memcmp(h1, h3, 32), 0);
	CU_ASSERT_EQUAL(mail_token_hash("short", h3), -1);
	CU_ASSERT_EQUAL(mail_token_hash("abcdefghijklmnopqrstuvwxyz234568", h3), -1);
	mail_reply_address(t1, "play.example.org", &addr);
	m.rcpt[m.nrcpt++] = strdup("someone@else.org");
	m.rcpt[m.nrcpt++] = strdup("play+tooshort@play.example.org");
	for (int i = 0; addr.data[i]; i++)
		if (addr.data[i] >= 'a' && addr.data[i] <= 'z')
			addr.data[i] = (char)(addr.data[i] - 32);
	m.rcpt[m.nrcpt++] = strdup(addr.data);
	CU_ASSERT_EQUAL(mail_token_find(&m, found), 0);
	ASSERT_STR_EQ(found, t1);
	free(m.rcpt[2]);
	m.nrcpt = 2;
	CU_ASSERT_EQUAL(mail_token_find(&m, found), ERR_NOTFOUND);
	mail_msg_release(&m);
	buf_release(&addr);
}

static CU_TestInfo mail_cases[] = {
	{ "test_mail__corpus", test_mail__corpus },
	{ "test_mail__unknown_token_in_corpus", test_mail__unknown_token_in_corpus },
	{ "test_mail__fences", test_mail__fences },
	{ "test_mail__header_decode", test_mail__header_decode },
	{ "test_mail__charsets", test_mail__charsets },
	{ "test_mail__transfer_encodings", test_mail__transfer_encodings },
	{ "test_mail__html", test_mail__html },
	{ "test_mail__reply_lines", test_mail__reply_lines },
	{ "test_mail__addresses", test_mail__addresses },
	{ "test_mail__not_an_email", test_mail__not_an_email },
	{ "test_mail__json_postmark", test_mail__json_postmark },
	{ "test_mail__form_data_sendgrid", test_mail__form_data_sendgrid },
	{ "test_mail__urlencoded_mailgun", test_mail__urlencoded_mailgun },
	{ "test_mail__tokens", test_mail__tokens },
	CU_TEST_INFO_NULL
};

static int suite_init(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

int tests_register(void)
{
	TESTS_SUITE("mail", suite_init, NULL, mail_cases);
	return 0;
}
