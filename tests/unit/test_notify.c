/* tests/unit/test_notify.c: CUnit suite for notify/: transports, retries, dead letters, recovery, clocks, vacations, digests */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/create.h"
#include "engine/submit.h"
#include "engine/views.h"
#include "engine/registry.h"
#include "engine/replay.h"
#include "fake_game.h"
#include "notify/notify.h"
#include "notify/receiver.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/token.h"

#define T0 1800000000000LL /* 2027-01-15T08:00:00Z */
#define HOUR (3600LL * 1000)
#define SECRET "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

struct env {
	char dir[64];
	char mail[96];
	struct store *st;
	struct notify *n;
	struct receiver *rx;
	struct notify_config cfg;
};

static int env_open(struct env *E, enum notify_transport_kind kind, const char *url)
{
	char path[128];
	struct err e = {0};

	memset(E, 0, sizeof(*E));
	clock_set_fake_ms(T0);
	snprintf(E->dir, sizeof(E->dir), "/tmp/tp-notify-XXXXXX");
	if (!mkdtemp(E->dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", E->dir);
	snprintf(E->mail, sizeof(E->mail), "%s/mail", E->dir);
	if (store_open(path, NULL, &E->st, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	E->cfg.transport = kind;
	E->cfg.base_url = "https://games.example.org/";
	E->cfg.mail_dir = E->mail;
	E->cfg.from = "turnpost@games.example.org";
	E->cfg.max_attempts = 6;
	E->cfg.backoff_ms = 1000;
	E->cfg.timeout_ms = 400;
	if (kind == NOTIFY_WEBHOOK) {
		E->rx = rx_start(SECRET);
		if (!E->rx)
			return -1;
		E->cfg.webhook_url = rx_url(E->rx);
		E->cfg.webhook_secret = SECRET;
	}
	if (kind == NOTIFY_SMTP)
		E->cfg.smtp_url = url;
	if (notify_new(&E->cfg, E->st, &E->n, &e) < 0) {
		fprintf(stderr, "notify_new: %s\n", e.msg);
		return -1;
	}
	return 0;
}

static void env_close(struct env *E)
{
	char cmd[128];

	notify_free(E->n);
	store_close(E->st);
	rx_stop(E->rx);
	if (E->dir[0] && !getenv("KEEP_TEST_DIRS")) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", E->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", E->dir);
	}
	clock_set_fake_ms(0);
}

/* A counting-race game of Ann and Bob (both with emails), created by Ann's user, with an optional clock. */
static int64_t new_game(struct env *E, const char *clock_json, int64_t at)
{
	struct create_player players[2] = { { "Ann", "ann@example.org" }, { "Bob", "bob@example.org" } };
	struct create_spec ng = { .game = "counting-race", .players = players, .nplayers = 2, .seed = 7,
				    .have_seed = 1, .created_at = at };
	struct store_game_clock k;
	struct err e = {0};
	int64_t id = 0, ann = 0;
	struct store_conn *c;

	if (clock_json) {
		json_t *j = json_loads(clock_json, 0, NULL);
		CU_ASSERT_EQUAL_FATAL(notify_clock_parse(j, &k, &e), 0);
		json_decref(j);
		ng.clock = &k;
	}
	CU_ASSERT_EQUAL_FATAL(store_write_begin(E->st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_ensure(c, "ann@example.org", "Ann", &ann, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	ng.created_by = ann;
	CU_ASSERT_EQUAL_FATAL(create_setup(E->st, &ng, &id, NULL, &e), 0);
	return id;
}

static int submit(struct env *E, int64_t id, int seat, int64_t at, const char *l1, const char *l2)
{
	const char *lines[2] = { l1, l2 };
	struct submit_request rq = { .game_id = id, .seat = seat, .lines = lines, .nlines = l2 ? 2 : 1, .via = "api",
				  .if_match = -1, .at = at };
	struct submit_outcome po;
	struct err e = {0};
	json_t *res = NULL;
	int rc = submit_steps(E->st, &rq, &res, &po, &e);

	if (rc < 0)
		fprintf(stderr, "submit: %s\n", e.msg);
	json_decref(res);
	return rc;
}

/* All outbox rows, oldest first (*out new). */
static int rows(struct env *E, struct store_outbox_row **out)
{
	struct store_conn *c;
	struct err e = {0};
	int n = 0;

	store_read_acquire(E->st, &c, &e);
	CU_ASSERT_EQUAL(store_outbox_list(c, NULL, 0, 500, out, &n, &e), 0);
	store_read_release(c);
	/* newest first from the store: turn round */
	for (int i = 0; i < n / 2; i++) {
		struct store_outbox_row t = (*out)[i];
		(*out)[i] = (*out)[n - 1 - i];
		(*out)[n - 1 - i] = t;
	}
	return n;
}

/* The row of event for user's seat (first found), copied into *r (strings not kept). 0 or -1. */
static int find_row(struct env *E, const char *event, int seat, struct store_outbox_row *r)
{
	struct store_outbox_row *all = NULL;
	int n = rows(E, &all), found = -1;

	for (int i = 0; i < n; i++) {
		if (strcmp(all[i].event, event) == 0 && (seat < 0 || all[i].seat == seat)) {
			*r = all[i];
			r->payload = NULL;
			r->last_error = NULL;
			found = 0;
			break;
		}
	}
	store_outbox_rows_free(all, n);
	return found;
}

static int count_state(struct env *E, const char *state)
{
	struct store_outbox_row *all = NULL;
	int n = rows(E, &all), k = 0;

	for (int i = 0; i < n; i++)
		k += strcmp(all[i].state, state) == 0;
	store_outbox_rows_free(all, n);
	return k;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	return buf_detach(&b, NULL);
}

/* Quoted-printable decoding of a whole message (headers unfolded), CRLF to LF. */
static char *qp_decode(const char *s)
{
	struct buf b = BUF_INIT;
	int in_headers = 1;

	for (const char *p = s; *p; p++) {
		/* header lines folded under 78 characters are read unfolded */
		if (in_headers && p[0] == '\r' && p[1] == '\n' && (p[2] == ' ' || p[2] == '\t')) {
			p++;
			continue;
		}
		if (in_headers && p[0] == '\r' && p[1] == '\n' && p[2] == '\r' && p[3] == '\n')
			in_headers = 0;
		if (*p == '\r')
			continue;
		if (*p == '=' && p[1] == '\r' && p[2] == '\n') {
			p += 2;
			continue;
		}
		if (*p == '=' && p[1] && p[2] && strchr("0123456789ABCDEF", p[1]) && strchr("0123456789ABCDEF", p[2])) {
			char hx[3] = { p[1], p[2], 0 };
			buf_addc(&b, (char)strtol(hx, NULL, 16));
			p += 2;
			continue;
		}
		buf_addc(&b, *p);
	}
	return buf_detach(&b, NULL);
}

/* The decoded .eml written for message id msg_<uid> in the mail dir (new) or NULL. */
static char *mail_for(struct env *E, const char *uid)
{
	char path[256], *raw, *dec;

	snprintf(path, sizeof(path), "%s/msg_%s.eml", E->mail, uid);
	raw = read_file(path);
	if (!raw)
		return NULL;
	dec = qp_decode(raw);
	free(raw);
	return dec;
}

static int count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += strstr(de->d_name, ".eml") != NULL && de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* The seat token in a link ".../s/TOKEN" of text, checked against the store: 0 when it signs in to seat. */
static int check_seat_link(struct env *E, const char *text, int64_t game, int seat)
{
	const char *p = strstr(text, "https://games.example.org/s/tp_");
	char tok[80];
	unsigned char hash[32];
	struct store_token t;
	struct store_conn *c;
	struct err e = {0};
	int rc;

	if (!p)
		return -1;
	p += strlen("https://games.example.org/s/");
	snprintf(tok, sizeof(tok), "%.*s", (int)strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"), p);
	if (token_hash(tok, hash) < 0)
		return -1;
	store_read_acquire(E->st, &c, &e);
	rc = store_token_by_hash(c, hash, clock_now_ms(), &t, &e);
	store_read_release(c);
	if (rc < 0 || t.kind != TOKEN_SEAT || t.game_id != game || t.seat != seat)
		return -1;
	/* valid for 30 days from now */
	return t.expires_at == clock_now_ms() + 30 * 24 * HOUR ? 0 : -1;
}

/* ---- file transport and content ---- */

static void test_notify__file_invite_and_turn(void)
{
	struct env E;
	struct notify_stats s;
	struct store_outbox_row r;
	struct err e = {0};
	char *mail;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	id = new_game(&E, NULL, T0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 2);
	CU_ASSERT_EQUAL(count_files(E.mail), 2);
	CU_ASSERT_EQUAL(count_state(&E, "sent"), 2);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "invite", 1, &r), 0);
	mail = mail_for(&E, r.uid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mail);
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "To: \"Bob\" <bob@example.org>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "Subject: You are invited to Counting Race (test game)"));
	/* one-click unsubscribe from invitations, signed for Bob (RFC 8058) */
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "List-Unsubscribe: <https://games.example.org/unsubscribe/"));
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "-invite-"));
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "Reply-To: turnpost@games.example.org"));
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "Content-Type: multipart/alternative"));
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "Content-Type: text/html; charset=utf-8"));
	{
		char mid[96];
		snprintf(mid, sizeof(mid), "Message-ID: <msg_%s@games.example.org>", r.uid);
		CU_ASSERT_PTR_NOT_NULL(strstr(mail, mid));
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "Ann to play first"));
	CU_ASSERT_EQUAL(check_seat_link(&E, mail, id, 1), 0);
	/* without a reply domain nobody is told to answer by email */
	CU_ASSERT_PTR_NULL(strstr(mail, "To play by email"));
	free(mail);

	/* Ann plays a turn: Bob's your_turn tells him what she did, with a fresh seat link */
	clock_set_fake_ms(T0 + HOUR);
	CU_ASSERT_EQUAL(submit(&E, id, 0, T0 + HOUR, "add 2", "end"), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 1);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "your_turn", 1, &r), 0);
	ASSERT_STR_EQ(r.state, "sent");
	CU_ASSERT_EQUAL(r.sent_at, T0 + HOUR);
	mail = mail_for(&E, r.uid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mail);
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "Subject: Your turn in Counting Race (test game)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "Since your last turn:\n  Ann: add 2\n  Ann: end\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "<li>Ann: add 2</li>"));
	CU_ASSERT_EQUAL(check_seat_link(&E, mail, id, 1), 0);
	free(mail);
	/* nothing more to do */
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 2 * HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 0);
	env_close(&E);
}

/* With a reply domain, the invitation, "your turn" and the reminder say that a reply plays, in both parts. */
static void test_notify__reply_hint_with_a_reply_address(void)
{
	static const char hint_text[] = "\nTo play by email, reply to this email: your steps one per line";
	static const char hint_html[] = "<p>To play by email, reply to this email: your steps one per line";
	static const char *const events[] = { "invite", "your_turn", "reminder" };
	struct env E;
	struct notify_stats s;
	struct store_outbox_row r;
	struct err e = {0};
	char *mail;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	notify_free(E.n);
	E.cfg.reply_domain = "reply.example.org";
	CU_ASSERT_EQUAL_FATAL(notify_new(&E.cfg, E.st, &E.n, &e), 0);
	id = new_game(&E, "{\"mode\":\"per_turn\",\"turn_hours\":24,\"reminder_hours\":6,\"timeout\":\"notify\"}", T0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0, &s, &e), 0);
	/* Ann plays; Bob's turn; 18 hours later Bob is reminded */
	clock_set_fake_ms(T0 + HOUR);
	CU_ASSERT_EQUAL(submit(&E, id, 0, T0 + HOUR, "add 2", "end"), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + HOUR, &s, &e), 0);
	clock_set_fake_ms(T0 + 19 * HOUR);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 19 * HOUR, &s, &e), 0);
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(find_row(&E, events[i], 1, &r), 0);
		ASSERT_STR_EQ(r.state, "sent");
		mail = mail_for(&E, r.uid);
		CU_ASSERT_PTR_NOT_NULL_FATAL(mail);
		CU_ASSERT_PTR_NOT_NULL(strstr(mail, "Reply-To: play+"));
		if (!strstr(mail, hint_text) || !strstr(mail, hint_html))
			fprintf(stderr, "\n  %s has no reply hint\n", events[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(mail, hint_text));
		CU_ASSERT_PTR_NOT_NULL(strstr(mail, hint_html));
		free(mail);
	}
	env_close(&E);
}

static void test_notify__templates_override(void)
{
	struct env E;
	struct notify_stats s;
	struct store_outbox_row r;
	struct err e = {0};
	struct notify *other = NULL;
	char tdir[160], path[200], *mail;
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	snprintf(tdir, sizeof(tdir), "%s/tmpl", E.dir);
	mkdir(tdir, 0700);
	snprintf(path, sizeof(path), "%s/email", tdir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/email/invite.subject.mustache", tdir);
	f = fopen(path, "w");
	fputs("Come and play {{{game.title}}}, {{{to.name}}}!\n", f);
	fclose(f);
	E.cfg.templates_dir = tdir;
	CU_ASSERT_EQUAL_FATAL(notify_new(&E.cfg, E.st, &other, &e), 0);
	new_game(&E, NULL, T0);
	CU_ASSERT_EQUAL(notify_run_once(other, T0, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 2);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "invite", 0, &r), 0);
	mail = mail_for(&E, r.uid);
	CU_ASSERT_PTR_NOT_NULL(mail && strstr(mail, "Subject: Come and play Counting Race (test game), Ann!"));
	/* the other templates still come from the built-in set */
	CU_ASSERT_PTR_NOT_NULL(mail && strstr(mail, "Open your seat"));
	free(mail);
	notify_free(other);
	/* a broken override is refused at start-up, naming the file */
	f = fopen(path, "w");
	fputs("{{#game}} never closed\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(notify_new(&E.cfg, E.st, &other, &e), ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "invite.subject"));
	env_close(&E);
}

/* ---- webhooks ---- */

static void test_notify__webhook_signed_payload(void)
{
	struct env E;
	struct notify_stats s;
	struct store_outbox_row r;
	struct err e = {0};
	const struct rx_delivery *d;
	char want[64];
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_WEBHOOK, NULL), 0);
	id = new_game(&E, NULL, T0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 2);
	CU_ASSERT_EQUAL_FATAL(rx_count(E.rx), 2);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "invite", 0, &r), 0);
	snprintf(want, sizeof(want), "msg_%s", r.uid);
	d = rx_get(E.rx, 0);
	ASSERT_STR_EQ(d->id, want);
	CU_ASSERT_EQUAL(d->sig_ok, 1);
	CU_ASSERT_EQUAL(d->timestamp, T0 / 1000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d->body);
	ASSERT_STR_EQ(json_string_value(json_object_get(d->body, "to")), "ann@example.org");
	ASSERT_STR_EQ(json_string_value(json_object_get(d->body, "event")), "invite");
	ASSERT_STR_EQ(json_string_value(json_object_get(d->body, "id")), want);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(d->body, "game"), "id")), id);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(d->body, "seat")), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(d->body, "subject")), "invited"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(d->body, "html")), "<p>Hello Ann,</p>"));
	CU_ASSERT_EQUAL(check_seat_link(&E, json_string_value(json_object_get(json_object_get(d->body, "links"), "seat")),
					id, 0), 0);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_object_get(d->body, "links"), "preferences")),
		      "https://games.example.org/account");
	CU_ASSERT_EQUAL(rx_accepted(E.rx, want), 1);
	/* the invitation has no story yet; Bob's turn carries Ann's steps in words next to the machine fields */
	CU_ASSERT_EQUAL(json_array_size(json_object_get(json_object_get(d->body, "story"), "since")), 0);
	CU_ASSERT_EQUAL(submit(&E, id, 0, T0 + HOUR, "add 2", "end"), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL_FATAL(rx_count(E.rx), 3);
	d = rx_get(E.rx, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d->body);
	ASSERT_STR_EQ(json_string_value(json_object_get(d->body, "event")), "your_turn");
	{
		json_t *story = json_object_get(d->body, "story"), *since = json_object_get(story, "since");
		CU_ASSERT_EQUAL(json_array_size(since), 2);
		ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(since, 0), "text")), "Ann: add 2");
		ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(since, 1), "name")), "Ann");
		CU_ASSERT(json_is_true(json_object_get(json_object_get(story, "turn"), "yours")));
	}
	env_close(&E);
}

/* A row's state after one round at `now`. */
static void row_now(struct env *E, int64_t rowid, struct store_outbox_row *r)
{
	struct store_conn *c;
	struct err e = {0};

	store_read_acquire(E->st, &c, &e);
	CU_ASSERT_EQUAL(store_outbox_get(c, rowid, r, &e), 0);
	store_read_release(c);
}

static void test_notify__webhook_retries_exactly_once(void)
{
	struct env E;
	struct notify_stats s;
	struct store_outbox_row r0, r;
	struct err e = {0};
	int64_t now = T0;
	char id0[64];

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_WEBHOOK, NULL), 0);
	new_game(&E, NULL, T0);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "invite", 0, &r0), 0);
	snprintf(id0, sizeof(id0), "msg_%s", r0.uid);

	/* 1: 500 for Ann's, 429 with Retry-After for Bob's */
	rx_push(E.rx, RX_500, 0, 0);
	rx_push(E.rx, RX_429, 120, 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.retried, 2);
	CU_ASSERT_EQUAL(s.sent, 0);
	row_now(&E, r0.id, &r);
	ASSERT_STR_EQ(r.state, "pending");
	CU_ASSERT_EQUAL(r.attempts, 1);
	/* back-off with jitter: between half and all of the first delay */
	CU_ASSERT(r.next_at >= now + 500 && r.next_at <= now + 1000);
	CU_ASSERT_PTR_NOT_NULL(r.last_error && strstr(r.last_error, "HTTP 500"));
	free(r.payload);
	free(r.last_error);
	row_now(&E, r0.id + 1, &r);
	CU_ASSERT_EQUAL(r.next_at, now + 120 * 1000); /* Retry-After honoured */
	CU_ASSERT_PTR_NOT_NULL(r.last_error && strstr(r.last_error, "HTTP 429"));
	free(r.payload);
	free(r.last_error);

	/* 2: nothing is due yet */
	CU_ASSERT_EQUAL(notify_run_once(E.n, now + 400, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent + s.retried, 0);

	/* 3: Ann's again: the receiver hangs past the time limit */
	now += 1000;
	rx_push(E.rx, RX_HANG, 0, 1200);
	CU_ASSERT_EQUAL(notify_run_once(E.n, now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.retried, 1);
	row_now(&E, r0.id, &r);
	CU_ASSERT_EQUAL(r.attempts, 2);
	CU_ASSERT(r.next_at >= now + 1000 && r.next_at <= now + 2000); /* doubled */
	CU_ASSERT_PTR_NOT_NULL(r.last_error && strstr(r.last_error, "imeout"));
	free(r.payload);
	free(r.last_error);

	/* 4: connection refused */
	rx_close(E.rx);
	now += 2000;
	CU_ASSERT_EQUAL(notify_run_once(E.n, now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.retried, 1);
	row_now(&E, r0.id, &r);
	CU_ASSERT_EQUAL(r.attempts, 3);
	CU_ASSERT_PTR_NOT_NULL(r.last_error && strstr(r.last_error, "onnect"));
	free(r.payload);
	free(r.last_error);

	/* 5: the receiver is back; far later everything arrives, each exactly once, with its first id */
	CU_ASSERT_EQUAL_FATAL(rx_reopen(E.rx), 0);
	now += 10 * 60 * 1000;
	CU_ASSERT_EQUAL(notify_run_once(E.n, now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 2);
	CU_ASSERT_EQUAL(count_state(&E, "sent"), 2);
	CU_ASSERT_EQUAL(rx_accepted(E.rx, id0), 1);
	for (int i = 0; i < rx_count(E.rx); i++) {
		const struct rx_delivery *d = rx_get(E.rx, i);
		CU_ASSERT_EQUAL(d->sig_ok, 1);
		CU_ASSERT_EQUAL(rx_accepted(E.rx, d->id), 1);
	}
	env_close(&E);
}

static void test_notify__dead_letter_and_resend(void)
{
	struct env E;
	struct notify_stats s;
	struct store_outbox_row r0, r;
	struct store_conn *c;
	struct err e = {0};
	int64_t now = T0;
	char id0[64];

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_WEBHOOK, NULL), 0);
	notify_free(E.n);
	E.cfg.max_attempts = 3;
	CU_ASSERT_EQUAL_FATAL(notify_new(&E.cfg, E.st, &E.n, &e), 0);
	new_game(&E, NULL, T0);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "invite", 0, &r0), 0);
	snprintf(id0, sizeof(id0), "msg_%s", r0.uid);
	/* Bob's invite is refused for good (400): dead at once */
	rx_push(E.rx, RX_500, 0, 0);
	rx_push(E.rx, RX_400, 0, 0);
	rx_push(E.rx, RX_500, 0, 0);
	rx_push(E.rx, RX_500, 0, 0);
	for (int round = 0; round < 3; round++) {
		CU_ASSERT_EQUAL(notify_run_once(E.n, now, &s, &e), 0);
		now += 60 * 60 * 1000;
	}
	row_now(&E, r0.id, &r);
	ASSERT_STR_EQ(r.state, "dead");
	CU_ASSERT_EQUAL(r.attempts, 3);
	free(r.payload);
	free(r.last_error);
	row_now(&E, r0.id + 1, &r);
	ASSERT_STR_EQ(r.state, "dead");
	CU_ASSERT_EQUAL(r.attempts, 1);
	CU_ASSERT_PTR_NOT_NULL(r.last_error && strstr(r.last_error, "HTTP 400"));
	free(r.payload);
	free(r.last_error);
	CU_ASSERT_EQUAL(rx_accepted(E.rx, id0), 0);
	/* dead rows stay dead */
	CU_ASSERT_EQUAL(notify_run_once(E.n, now + 10 * HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 0);
	/* an admin resends one: same id, delivered once */
	store_write_begin(E.st, &c, &e);
	CU_ASSERT_EQUAL(store_outbox_resend(c, r0.id, now, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_resend(c, r0.id, now, &e), ERR_CONFLICT);
	store_write_commit(c, &e);
	CU_ASSERT_EQUAL(notify_run_once(E.n, now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 1);
	CU_ASSERT_EQUAL(rx_accepted(E.rx, id0), 1);
	CU_ASSERT_EQUAL(count_state(&E, "dead"), 1);
	env_close(&E);
}

/* A notifier that dies after claiming rows loses nothing: the next one delivers them. */
static void test_notify__crash_between_commit_and_delivery(void)
{
	struct env E;
	struct notify_stats s;
	struct store_outbox_row *claimed = NULL;
	struct store_conn *c;
	struct err e = {0};
	int n = 0, released = 0;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_WEBHOOK, NULL), 0);
	new_game(&E, NULL, T0);
	/* the dying process: claimed both rows, then nothing */
	store_write_begin(E.st, &c, &e);
	CU_ASSERT_EQUAL(store_outbox_claim(c, T0, T0 + 10 * 60 * 1000, 10, &claimed, &n, &e), 0);
	store_write_commit(c, &e);
	CU_ASSERT_EQUAL(n, 2);
	store_outbox_rows_free(claimed, n);
	/* while leased they are not due */
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 1000, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 0);
	/* a new process starts: leases are freed, both go out, once each */
	CU_ASSERT_EQUAL(notify_recover(E.n, T0 + 2000, &released, &e), 0);
	CU_ASSERT_EQUAL(released, 2);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 2000, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 2);
	CU_ASSERT_EQUAL(rx_count(E.rx), 2);
	CU_ASSERT_EQUAL(count_state(&E, "sent"), 2);
	env_close(&E);
}

/* The thread: started, delivers on its own with the real clock, stops cleanly. */
static void test_notify__thread_delivers(void)
{
	struct env E;
	struct err e = {0};

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	clock_set_fake_ms(0);
	new_game(&E, NULL, 0);
	CU_ASSERT_EQUAL(notify_start(E.n, &e), 0);
	notify_wake(E.n);
	for (int i = 0; i < 500 && count_files(E.mail) < 2; i++) {
		struct timespec t = { 0, 10 * 1000 * 1000 };
		nanosleep(&t, NULL);
	}
	notify_stop(E.n);
	CU_ASSERT_EQUAL(count_files(E.mail), 2);
	CU_ASSERT_EQUAL(count_state(&E, "sent"), 2);
	env_close(&E);
}

/* ---- SMTP to a real local sink (Debian's python3-aiosmtpd) ---- */

static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	bind(fd, (struct sockaddr *)&a, sizeof(a));
	getsockname(fd, (struct sockaddr *)&a, &len);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static int port_open(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
				 .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), ok;

	ok = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ok;
}

static void test_notify__smtp_aiosmtpd(void)
{
	struct env E;
	struct notify_stats s;
	struct err e = {0};
	char url[64], maildir[128], listen[32], cmd[2048];
	int port = free_port();
	pid_t pid;
	FILE *p;
	struct buf out = BUF_INIT;
	char line[1024];

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	snprintf(maildir, sizeof(maildir), "%s/smtp-sink", E.dir);
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	pid = fork();
	if (pid == 0) {
		FILE *q = freopen("/dev/null", "w", stderr);
		(void)q;
		execl("/usr/bin/python3", "python3", "-m", "aiosmtpd", "-n", "-l", listen, "-c",
		      "aiosmtpd.handlers.Mailbox", maildir, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 1000 && !port_open(port); i++) {
		struct timespec t = { 0, 10 * 1000 * 1000 };
		nanosleep(&t, NULL);
	}
	CU_ASSERT_FATAL(port_open(port));
	notify_free(E.n);
	snprintf(url, sizeof(url), "smtp://127.0.0.1:%d", port);
	E.cfg.transport = NOTIFY_SMTP;
	E.cfg.smtp_url = url;
	E.cfg.timeout_ms = 5000;
	E.cfg.reply_to = "games@example.org";
	CU_ASSERT_EQUAL_FATAL(notify_new(&E.cfg, E.st, &E.n, &e), 0);
	{
		/* a name that needs RFC 2047 encoding */
		struct create_player players[2] = { { "Zoë", "zoe@example.org" }, { "Bob", "bob@example.org" } };
		struct create_spec ng = { .game = "counting-race", .players = players, .nplayers = 2, .seed = 1,
					    .have_seed = 1, .created_at = T0 };
		int64_t id;
		CU_ASSERT_EQUAL_FATAL(create_setup(E.st, &ng, &id, NULL, &e), 0);
	}
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 2);
	CU_ASSERT_EQUAL(count_state(&E, "sent"), 2);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	/* parse what arrived with Python's email package: headers and both parts */
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 -c \""
		 "import email, email.policy, glob, sys\n"
		 "for f in sorted(glob.glob('%s/new/*')):\n"
		 "    m = email.message_from_binary_file(open(f, 'rb'), policy=email.policy.default)\n"
		 "    print('TO', m['To']); print('SUBJECT', m['Subject']); print('MID', m['Message-ID'])\n"
		 "    print('REPLY', m['Reply-To']); print('UNSUB', m['List-Unsubscribe']); print('DATE', m['Date'] is not None)\n"
		 "    print('TYPE', m.get_content_type())\n"
		 "    for part in m.iter_parts(): print('PART', part.get_content_type(), repr(part.get_content()[:2000]))\n"
		 "\"",
		 maildir);
	p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	while (fgets(line, sizeof(line), p))
		buf_adds(&out, line);
	pclose(p);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "TO Zoë <zoe@example.org>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "TO Bob <bob@example.org>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "SUBJECT You are invited to Counting Race (test game) (game 1)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "MID <msg_"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "@games.example.org>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "REPLY games@example.org"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "UNSUB <https://games.example.org/unsubscribe/"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "DATE True"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "TYPE multipart/alternative"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "PART text/plain 'Hello Zoë,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "PART text/html '<!DOCTYPE html>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "https://games.example.org/s/tp_"));
	if (!strstr(out.data, "PART text/html"))
		fprintf(stderr, "\nparsed:\n%s\n", out.data);
	buf_release(&out);

	/* the sink is gone now: connection refused is retried, not lost */
	clock_set_fake_ms(T0 + HOUR);
	CU_ASSERT_EQUAL(submit(&E, 1, 0, T0 + HOUR, "add 1", "end"), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.retried, 1);
	CU_ASSERT_EQUAL(count_state(&E, "pending"), 1);
	env_close(&E);
}

/* ---- clocks: reminders, deadlines and each timeout action ---- */

/* The id of the account of email (0 when there is none). */
static int64_t user_id(struct env *E, const char *email)
{
	struct store_user u;
	struct store_conn *c;
	struct err e = {0};
	int64_t id = 0;

	if (store_read_acquire(E->st, &c, &e) < 0)
		return 0;
	if (store_user_by_email(c, email, &u, &e) == 0) {
		id = u.id;
		store_user_release(&u);
	}
	store_read_release(c);
	return id;
}

static void seat_clock(struct env *E, int64_t game, int seat, struct store_seat_clock *out)
{
	struct store_seat_clock *all = NULL;
	struct store_conn *c;
	struct err e = {0};
	int n = 0;

	memset(out, 0, sizeof(*out));
	store_read_acquire(E->st, &c, &e);
	CU_ASSERT_EQUAL(store_game_clock_seats(c, game, &all, &n, &e), 0);
	store_read_release(c);
	for (int i = 0; i < n; i++)
		if (all[i].seat == seat)
			*out = all[i];
	free(all);
}

static void test_notify__reminder_and_notify_creator(void)
{
	struct env E;
	struct notify_stats s;
	struct store_seat_clock k;
	struct store_outbox_row r;
	struct err e = {0};
	char *mail;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	id = new_game(&E, "{\"mode\":\"per_turn\",\"turn_hours\":24,\"reminder_hours\":6,\"timeout\":\"notify\"}", T0);
	seat_clock(&E, id, 0, &k);
	CU_ASSERT_EQUAL(k.turn_started_at, T0);
	CU_ASSERT_EQUAL(k.deadline_at, T0 + 24 * HOUR);
	CU_ASSERT_EQUAL(k.remind_at, T0 + 18 * HOUR);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0, &s, &e), 0);
	CU_ASSERT_EQUAL(s.reminders, 0);
	/* 18 hours later: one reminder to Ann, with the deadline in it */
	clock_set_fake_ms(T0 + 18 * HOUR);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 18 * HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.reminders, 1);
	CU_ASSERT_EQUAL(s.sent, 1);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "reminder", 0, &r), 0);
	mail = mail_for(&E, r.uid);
	CU_ASSERT_PTR_NOT_NULL(mail && strstr(mail, "Subject: Reminder: your move in Counting Race (test game) (game 1) is due in 6 hours"));
	CU_ASSERT_PTR_NOT_NULL(mail && strstr(mail, "2027-01-16T08:00:00Z"));
	free(mail);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 19 * HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.reminders, 0);
	/* the deadline passes: the creator (Ann, here also the late player) is told once; the game waits */
	clock_set_fake_ms(T0 + 24 * HOUR);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 24 * HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.timeouts, 1);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "timeout", -1, &r), 0);
	mail = mail_for(&E, r.uid);
	CU_ASSERT_PTR_NOT_NULL(mail && strstr(mail, "Subject: Ann missed the deadline in Counting Race"));
	free(mail);
	seat_clock(&E, id, 0, &k);
	CU_ASSERT_EQUAL(k.timed_out, 1);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 30 * HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.timeouts, 0);
	/* when Ann moves after all, Bob's clock starts and Ann's stops */
	CU_ASSERT_EQUAL(submit(&E, id, 0, T0 + 30 * HOUR, "add 1", "end"), 0);
	seat_clock(&E, id, 0, &k);
	CU_ASSERT_EQUAL(k.turn_started_at, 0);
	CU_ASSERT_EQUAL(k.timed_out, 0);
	seat_clock(&E, id, 1, &k);
	CU_ASSERT_EQUAL(k.deadline_at, T0 + 54 * HOUR);
	env_close(&E);
}

static void test_notify__timeout_bot_plays(void)
{
	struct env E;
	struct notify_stats s;
	struct store_outbox_row r;
	struct err e = {0};
	json_t *moves = NULL;
	char *mail;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	id = new_game(&E, "{\"mode\":\"per_turn\",\"turn_hours\":24,\"reminder_hours\":0,\"timeout\":\"bot\"}", T0);
	clock_set_fake_ms(T0 + 25 * HOUR);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 25 * HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.timeouts, 1);
	CU_ASSERT_EQUAL(s.reminders, 0);
	/* the bot's steps are stored with via "timeout", and it is Bob's turn now */
	CU_ASSERT_EQUAL_FATAL(views_moves_json(E.st, id, &moves, &e), 0);
	CU_ASSERT(json_array_size(json_object_get(moves, "moves")) >= 2);
	for (size_t i = 0; i < json_array_size(json_object_get(moves, "moves")); i++) {
		json_t *m = json_array_get(json_object_get(moves, "moves"), i);
		ASSERT_STR_EQ(json_string_value(json_object_get(m, "via")), "timeout");
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(m, "seat")), 0);
	}
	json_decref(moves);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "timeout", 0, &r), 0);
	mail = mail_for(&E, r.uid);
	CU_ASSERT_PTR_NOT_NULL(mail && strstr(mail, "so the bot played for you:"));
	CU_ASSERT_PTR_NOT_NULL(mail && strstr(mail, "  end"));
	free(mail);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "your_turn", 1, &r), 0);
	ASSERT_STR_EQ(r.state, "sent");
	mail = mail_for(&E, r.uid);
	CU_ASSERT_PTR_NOT_NULL(mail && strstr(mail, "(played by the bot after a missed deadline)"));
	free(mail);
	env_close(&E);
}

static void test_notify__timeout_drop(void)
{
	struct env E;
	struct notify_stats s;
	struct store_seat_clock k;
	struct store_outbox_row r;
	struct err e = {0};
	json_t *moves = NULL;
	int64_t id;
	size_t before;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	id = new_game(&E, "{\"mode\":\"per_turn\",\"turn_hours\":24,\"timeout\":\"drop\"}", T0);
	clock_set_fake_ms(T0 + 24 * HOUR);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 24 * HOUR, &s, &e), 0);
	seat_clock(&E, id, 0, &k);
	CU_ASSERT_EQUAL(k.dropped, 1);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "timeout", 0, &r), 0);
	ASSERT_STR_EQ(r.state, "sent");
	/* Bob plays; Ann's seat is played at once by the bot, without waiting a day */
	clock_set_fake_ms(T0 + 25 * HOUR);
	CU_ASSERT_EQUAL(submit(&E, id, 1, T0 + 25 * HOUR, "add 1", "end"), 0);
	CU_ASSERT_EQUAL_FATAL(views_moves_json(E.st, id, &moves, &e), 0);
	before = json_array_size(json_object_get(moves, "moves"));
	json_decref(moves);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 25 * HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.timeouts, 1);
	CU_ASSERT_EQUAL_FATAL(views_moves_json(E.st, id, &moves, &e), 0);
	CU_ASSERT(json_array_size(json_object_get(moves, "moves")) > before);
	ASSERT_STR_EQ(json_string_value(json_object_get(
			      json_array_get(json_object_get(moves, "moves"), json_array_size(json_object_get(moves, "moves")) - 1),
			      "via")),
		      "timeout");
	json_decref(moves);
	seat_clock(&E, id, 1, &k);
	CU_ASSERT_EQUAL(k.turn_started_at, T0 + 25 * HOUR); /* Bob's turn again */
	env_close(&E);
}

static void test_notify__bank_clock(void)
{
	struct env E;
	struct store_seat_clock k;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	id = new_game(&E, "{\"mode\":\"bank\",\"bank_hours\":10,\"increment_hours\":1,\"reminder_hours\":2}", T0);
	seat_clock(&E, id, 0, &k);
	CU_ASSERT_EQUAL(k.bank_ms, 10 * HOUR);
	CU_ASSERT_EQUAL(k.deadline_at, T0 + 10 * HOUR);
	CU_ASSERT_EQUAL(k.remind_at, T0 + 8 * HOUR);
	/* Ann takes 3 hours: 10 - 3 + 1 = 8 left */
	CU_ASSERT_EQUAL(submit(&E, id, 0, T0 + 3 * HOUR, "add 1", "end"), 0);
	seat_clock(&E, id, 0, &k);
	CU_ASSERT_EQUAL(k.bank_ms, 8 * HOUR);
	CU_ASSERT_EQUAL(k.turn_started_at, 0);
	seat_clock(&E, id, 1, &k);
	CU_ASSERT_EQUAL(k.deadline_at, T0 + 13 * HOUR);
	/* Bob overruns by far: his bank goes to zero, then gets the increment */
	CU_ASSERT_EQUAL(submit(&E, id, 1, T0 + 30 * HOUR, "add 1", "end"), 0);
	seat_clock(&E, id, 1, &k);
	CU_ASSERT_EQUAL(k.bank_ms, 1 * HOUR);
	seat_clock(&E, id, 0, &k);
	CU_ASSERT_EQUAL(k.deadline_at, T0 + 38 * HOUR);
	env_close(&E);
}

static void test_notify__vacation_pauses_clock(void)
{
	struct env E;
	struct notify_stats s;
	struct store_seat_clock k;
	struct err e = {0};
	json_t *v = NULL;
	int64_t id, ann;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	notify_set_vacation_days(10);
	id = new_game(&E, "{\"mode\":\"per_turn\",\"turn_hours\":24,\"timeout\":\"notify\"}", T0);
	ann = user_id(&E, "ann@example.org");
	/* two hours into her turn Ann leaves for 3 days: her deadline moves 3 days on */
	CU_ASSERT_EQUAL(notify_vacation_set(E.st, ann, 3, T0 + 2 * HOUR, &e), 0);
	seat_clock(&E, id, 0, &k);
	CU_ASSERT_EQUAL(k.deadline_at, T0 + 24 * HOUR + 72 * HOUR);
	CU_ASSERT_EQUAL(notify_vacation_json(E.st, ann, T0 + 3 * HOUR, &v, &e), 0);
	CU_ASSERT(json_is_true(json_object_get(v, "on_vacation")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(v, "end")), T0 + 2 * HOUR + 72 * HOUR);
	json_decref(v);
	/* nothing happens at the old deadline */
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 30 * HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.timeouts, 0);
	/* more than the allowance is refused and changes nothing */
	CU_ASSERT_EQUAL(notify_vacation_set(E.st, ann, 11, T0 + 30 * HOUR, &e), ERR_LIMIT);
	seat_clock(&E, id, 0, &k);
	CU_ASSERT_EQUAL(k.deadline_at, T0 + 96 * HOUR);
	/* back early after one day (at T0+26h): the unused days return and the deadline comes nearer */
	CU_ASSERT_EQUAL(notify_vacation_set(E.st, ann, 0, T0 + 26 * HOUR, &e), 0);
	seat_clock(&E, id, 0, &k);
	CU_ASSERT_EQUAL(k.deadline_at, T0 + 48 * HOUR);
	CU_ASSERT_EQUAL(notify_vacation_json(E.st, ann, T0 + 27 * HOUR, &v, &e), 0);
	CU_ASSERT(json_is_false(json_object_get(v, "on_vacation")));
	CU_ASSERT(json_real_value(json_object_get(v, "used_days")) == 1.0);
	json_decref(v);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 48 * HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.timeouts, 1);
	notify_set_vacation_days(30);
	env_close(&E);
}

/* A vacation across New Year pays each year's allowance for its own part: in December a long vacation
 * is not nearly free because most of it falls in a year nobody checked. */
static void test_notify__vacation_across_new_year(void)
{
	const int64_t dec25 = 1798156800000LL; /* 2026-12-25T00:00:00Z: 7 days of 2026 left */
	struct env E;
	struct err e = {0};
	json_t *v = NULL;
	int64_t ann;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	notify_set_vacation_days(10);
	new_game(&E, "{\"mode\":\"per_turn\",\"turn_hours\":24,\"timeout\":\"notify\"}", dec25);
	ann = user_id(&E, "ann@example.org");
	/* 25 days: 7 in 2026 (within 10) but 18 in 2027 (over 10): refused, and nothing starts */
	CU_ASSERT_EQUAL(notify_vacation_set(E.st, ann, 25, dec25, &e), ERR_LIMIT);
	CU_ASSERT(strstr(e.msg, "next year's") != NULL);
	CU_ASSERT_EQUAL(notify_vacation_json(E.st, ann, dec25 + HOUR, &v, &e), 0);
	CU_ASSERT(json_is_false(json_object_get(v, "on_vacation")));
	json_decref(v);
	/* 366 days is refused however little of this year is left */
	CU_ASSERT_EQUAL(notify_vacation_set(E.st, ann, 366, dec25, &e), ERR_LIMIT);
	/* 14 days: 7 and 7, each within its year's 10 */
	CU_ASSERT_EQUAL(notify_vacation_set(E.st, ann, 14, dec25, &e), 0);
	CU_ASSERT_EQUAL(notify_vacation_json(E.st, ann, dec25 + HOUR, &v, &e), 0);
	CU_ASSERT(json_is_true(json_object_get(v, "on_vacation")));
	json_decref(v);
	notify_set_vacation_days(30);
	env_close(&E);
}

/* ---- preferences: off and daily digest ---- */

static void test_notify__prefs_digest_and_off(void)
{
	struct env E;
	struct notify_stats s;
	struct store_conn *c;
	struct store_user u;
	struct store_outbox_row r;
	struct err e = {0};
	json_t *change;
	char *merged = NULL, *mail;
	int64_t id;
	int64_t digest_at = T0 - 8 * HOUR + 24 * HOUR + 7 * HOUR; /* 07:00 UTC the next day */

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	id = new_game(&E, NULL, T0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0, &s, &e), 0);
	/* Bob wants a daily digest at 07:00 and no game-over mail */
	change = json_loads("{\"events\":{\"game_over\":false},\"digest\":true,\"digest_hour\":7}", 0, NULL);
	store_write_begin(E.st, &c, &e);
	store_user_by_email(c, "bob@example.org", &u, &e);
	CU_ASSERT_EQUAL(notify_prefs_merge(u.prefs, change, &merged, &e), 0);
	CU_ASSERT_EQUAL(store_user_set_prefs(c, u.id, merged, &e), 0);
	/* a chat line for Bob, queued as the chat feature would */
	CU_ASSERT_EQUAL(store_outbox_add(c, "chat", id, 1, u.id, "{\"name\":\"Ann\",\"text\":\"good luck!\"}", T0,
					 NULL, &e), 0);
	store_write_commit(c, &e);
	free(merged);
	json_decref(change);
	/* bad preferences are refused */
	change = json_loads("{\"events\":{\"your_turn\":\"sometimes\"}}", 0, NULL);
	CU_ASSERT_EQUAL(notify_prefs_merge(u.prefs, change, &merged, &e), ERR_INPUT);
	json_decref(change);
	store_user_release(&u);

	CU_ASSERT_EQUAL(submit(&E, id, 0, T0 + HOUR, "add 2", "end"), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL(s.deferred, 2);
	CU_ASSERT_EQUAL(s.sent, 0);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "your_turn", 1, &r), 0);
	CU_ASSERT_EQUAL(r.digest, 1);
	CU_ASSERT_EQUAL(r.next_at, digest_at);
	CU_ASSERT_EQUAL(notify_run_once(E.n, digest_at - 1, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 0);
	/* at 07:00 one message holds both */
	clock_set_fake_ms(digest_at);
	CU_ASSERT_EQUAL(notify_run_once(E.n, digest_at, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 1);
	CU_ASSERT_EQUAL(count_files(E.mail), 3);
	mail = NULL;
	{
		struct store_outbox_row chat;
		CU_ASSERT_EQUAL_FATAL(find_row(&E, "chat", 1, &chat), 0);
		ASSERT_STR_EQ(chat.state, "sent");
		/* the digest is named after its first row */
		mail = mail_for(&E, chat.uid);
		if (!mail)
			mail = mail_for(&E, r.uid);
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(mail);
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "Subject: turnpost: 2 updates in your games"));
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "good luck!"));
	CU_ASSERT_PTR_NOT_NULL(strstr(mail, "it is your turn in Counting Race"));
	free(mail);
	/* game over is off for Bob: skipped, Ann still gets hers */
	for (int t = 0; t < 6; t++)
		if (submit(&E, id, 1, digest_at + t, "add 3", "end") < 0 || submit(&E, id, 0, digest_at + t, "add 3", "end") < 0)
			break;
	{
		struct store_game g;
		struct store_seat *seats = NULL;
		int ns = 0;
		CU_ASSERT_EQUAL(views_game_info(E.st, id, &g, &seats, &ns, &e), 0);
		ASSERT_STR_EQ(g.status, "finished");
		store_seats_free(seats, ns);
		store_game_release(&g);
	}
	CU_ASSERT_EQUAL(notify_run_once(E.n, digest_at + HOUR, &s, &e), 0);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "game_over", 1, &r), 0);
	ASSERT_STR_EQ(r.state, "skipped");
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "game_over", 0, &r), 0);
	ASSERT_STR_EQ(r.state, "sent");
	env_close(&E);
}

static void test_notify__clock_parse_errors(void)
{
	static const char *const bad[] = {
		"{\"mode\":\"sometimes\"}",
		"{\"mode\":\"per_turn\"}",
		"{\"mode\":\"per_turn\",\"turn_hours\":-1}",
		"{\"mode\":\"bank\",\"turn_hours\":24}",
		"{\"mode\":\"per_turn\",\"turn_hours\":24,\"timeout\":\"shrug\"}",
		"{\"mode\":\"per_turn\",\"turn_hours\":24,\"colour\":\"red\"}",
		"{\"mode\":\"per_turn\",\"turn_hours\":24,\"timeout\":\"bot\",\"bot_level\":3}",
		"{\"mode\":\"per_turn\",\"turn_hours\":24,\"timeout\":\"bot\",\"bot_level\":-1}",
		"[]",
		NULL
	};
	struct store_game_clock k;
	struct err e = {0};
	json_t *j;

	for (int i = 0; bad[i]; i++) {
		j = json_loads(bad[i], 0, NULL);
		CU_ASSERT_EQUAL(notify_clock_parse(j, &k, &e), ERR_INPUT);
		json_decref(j);
	}
	j = json_loads("{\"mode\":\"per_turn\",\"turn_minutes\":90,\"timeout\":\"bot\"}", 0, NULL);
	CU_ASSERT_EQUAL(notify_clock_parse(j, &k, &e), 0);
	CU_ASSERT_EQUAL(k.turn_ms, 90 * 60000);
	CU_ASSERT_EQUAL(k.reminder_ms, 90 * 60000 / 4);
	ASSERT_STR_EQ(k.timeout, "bot");
	/* the strong bot stands in unless the creator asks for another */
	CU_ASSERT_EQUAL(k.bot_level, 2);
	json_decref(j);
	j = json_loads("{\"mode\":\"per_turn\",\"turn_hours\":24,\"timeout\":\"drop\",\"bot_level\":1}", 0, NULL);
	CU_ASSERT_EQUAL(notify_clock_parse(j, &k, &e), 0);
	CU_ASSERT_EQUAL(k.bot_level, 1);
	json_decref(j);
}

/* The web pages' sign-in mail: a single-use link of kind signin, sent now even for digest readers. */
static void test_notify__signin_link(void)
{
	struct env E;
	struct notify_stats s;
	struct store_conn *c;
	struct store_outbox_row r;
	struct store_token t;
	struct err e = {0};
	unsigned char hash[32];
	char *mail, tok[80];
	const char *p;
	int64_t uid = 0;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	store_write_begin(E.st, &c, &e);
	CU_ASSERT_EQUAL(store_user_ensure(c, "cy@example.org", "Cy", &uid, &e), 0);
	CU_ASSERT_EQUAL(store_user_set_prefs(c, uid, "{\"digest\":true}", &e), 0);
	CU_ASSERT_EQUAL(store_outbox_add(c, "signin", 0, -1, uid, NULL, T0, NULL, &e), 0);
	store_write_commit(c, &e);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 1);
	CU_ASSERT_EQUAL_FATAL(find_row(&E, "signin", -1, &r), 0);
	mail = mail_for(&E, r.uid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mail);
	p = strstr(mail, "https://games.example.org/signin/");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	p += strlen("https://games.example.org/signin/");
	snprintf(tok, sizeof(tok), "%.*s", (int)strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"), p);
	CU_ASSERT_EQUAL_FATAL(token_hash(tok, hash), 0);
	store_read_acquire(E.st, &c, &e);
	CU_ASSERT_EQUAL(store_token_by_hash(c, hash, T0, &t, &e), 0);
	store_read_release(c);
	CU_ASSERT_EQUAL(t.kind, TOKEN_SIGNIN);
	CU_ASSERT_EQUAL(t.user_id, uid);
	CU_ASSERT_EQUAL(t.expires_at, T0 + HOUR);
	free(mail);
	env_close(&E);
}

/* The state of the newest row of event to seat (copied into state, "" when none). */
static void newest_state(struct env *E, const char *event, int seat, char *state, size_t size)
{
	struct store_outbox_row *all = NULL;
	int n = rows(E, &all);

	state[0] = '\0';
	for (int i = 0; i < n; i++)
		if (strcmp(all[i].event, event) == 0 && all[i].seat == seat)
			snprintf(state, size, "%s", all[i].state);
	store_outbox_rows_free(all, n);
}

/* No floods: a "your turn" no longer true when its turn to be sent comes is superseded, not sent. */
static void test_notify__stale_your_turn_is_superseded(void)
{
	struct env E;
	struct notify_stats s;
	struct err e = {0};
	char state[16];
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	id = new_game(&E, NULL, T0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 2);
	/* four turns before the notifier comes round (a lively evening on the web pages) */
	CU_ASSERT_EQUAL(submit(&E, id, 0, T0 + HOUR, "add 2", "end"), 0);
	CU_ASSERT_EQUAL(submit(&E, id, 1, T0 + HOUR, "add 1", "end"), 0);
	CU_ASSERT_EQUAL(submit(&E, id, 0, T0 + HOUR, "add 1", "end"), 0);
	CU_ASSERT_EQUAL(submit(&E, id, 1, T0 + HOUR, "add 3", "end"), 0);
	CU_ASSERT_EQUAL(count_state(&E, "pending"), 4);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + HOUR, &s, &e), 0);
	/* Bob's two are no longer true (he moved since), Ann's first has a newer twin: only that one goes */
	CU_ASSERT_EQUAL(s.superseded, 3);
	CU_ASSERT_EQUAL(s.sent, 1);
	CU_ASSERT_EQUAL(count_files(E.mail), 3);
	newest_state(&E, "your_turn", 0, state, sizeof(state));
	ASSERT_STR_EQ(state, "sent");
	newest_state(&E, "your_turn", 1, state, sizeof(state));
	ASSERT_STR_EQ(state, "skipped");
	{
		struct store_outbox_row *all = NULL;
		int n = rows(&E, &all), superseded = 0;
		for (int i = 0; i < n; i++)
			superseded += all[i].last_error && strncmp(all[i].last_error, "superseded: ", 12) == 0;
		CU_ASSERT_EQUAL(superseded, 3);
		store_outbox_rows_free(all, n);
	}
	env_close(&E);
}

/* No floods: an imported game tells each seat once (an invitation) when asked, and nobody otherwise. */
static void test_notify__import_tells_each_seat_once(void)
{
	struct env E;
	struct err e = {0};
	struct store_conn *c;
	json_t *file = NULL;
	int64_t id, copy = 0, quiet = 0;
	int turns = 0, invites = 0, n;

	CU_ASSERT_EQUAL_FATAL(env_open(&E, NOTIFY_FILE, NULL), 0);
	id = new_game(&E, NULL, T0);
	for (int t = 0; t < 12; t++)
		CU_ASSERT_EQUAL(submit(&E, id, t % 2, T0 + t, "add 1", "end"), 0);
	CU_ASSERT_EQUAL_FATAL(replay_export(E.st, id, &file, &e), 0);
	CU_ASSERT_EQUAL_FATAL(replay_import(E.st, file, 0, 1, &copy, &e), 0);
	CU_ASSERT_EQUAL_FATAL(replay_import(E.st, file, 0, 0, &quiet, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(E.st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_count(c, copy, "your_turn", &turns, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_count(c, copy, "invite", &invites, &e), 0);
	/* 24 steps, 12 changes of turn: no "your turn" at all, one invitation per seat (it says whose turn it is) */
	CU_ASSERT_EQUAL(turns, 0);
	CU_ASSERT_EQUAL(invites, 2);
	CU_ASSERT_EQUAL(store_outbox_count(c, quiet, "your_turn", &n, &e), 0);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(store_outbox_count(c, quiet, "invite", &n, &e), 0);
	CU_ASSERT_EQUAL(n, 0);
	store_read_release(c);
	{
		struct store_outbox_row *all = NULL;
		int k = rows(&E, &all), found = 0;
		for (int i = 0; i < k; i++)
			if (all[i].game_id == copy && strcmp(all[i].event, "invite") == 0 && all[i].seat == 0)
				found++;
		CU_ASSERT_EQUAL(found, 1);
		store_outbox_rows_free(all, k);
	}
	json_decref(file);
	env_close(&E);
}

static CU_TestInfo cases[] = {
	{ "test_notify__stale_your_turn_is_superseded", test_notify__stale_your_turn_is_superseded },
	{ "test_notify__import_tells_each_seat_once", test_notify__import_tells_each_seat_once },
	{ "test_notify__signin_link", test_notify__signin_link },
	{ "test_notify__file_invite_and_turn", test_notify__file_invite_and_turn },
	{ "test_notify__templates_override", test_notify__templates_override },
	{ "test_notify__reply_hint_with_a_reply_address", test_notify__reply_hint_with_a_reply_address },
	{ "test_notify__webhook_signed_payload", test_notify__webhook_signed_payload },
	{ "test_notify__webhook_retries_exactly_once", test_notify__webhook_retries_exactly_once },
	{ "test_notify__dead_letter_and_resend", test_notify__dead_letter_and_resend },
	{ "test_notify__crash_between_commit_and_delivery", test_notify__crash_between_commit_and_delivery },
	{ "test_notify__thread_delivers", test_notify__thread_delivers },
	{ "test_notify__smtp_aiosmtpd", test_notify__smtp_aiosmtpd },
	{ "test_notify__reminder_and_notify_creator", test_notify__reminder_and_notify_creator },
	{ "test_notify__timeout_bot_plays", test_notify__timeout_bot_plays },
	{ "test_notify__timeout_drop", test_notify__timeout_drop },
	{ "test_notify__bank_clock", test_notify__bank_clock },
	{ "test_notify__vacation_pauses_clock", test_notify__vacation_pauses_clock },
	{ "test_notify__vacation_across_new_year", test_notify__vacation_across_new_year },
	{ "test_notify__prefs_digest_and_off", test_notify__prefs_digest_and_off },
	{ "test_notify__clock_parse_errors", test_notify__clock_parse_errors },
	CU_TEST_INFO_NULL,
};

static int suite_init(void)
{
	signal(SIGPIPE, SIG_IGN);
	token_init();
	registry_add_for_tests(&fake_game);
	return 0;
}

int tests_register(void)
{
	TESTS_SUITE("notify", suite_init, NULL, cases);
	return 0;
}
