/* tests/unit/test_chan.c: CUnit suite for chat channels: destination safety, sealing, and delivery to fake chat services */
/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/channel.h"
#include "engine/create.h"
#include "engine/registry.h"
#include "engine/submit.h"
#include "fake_game.h"
#include "notify/chatrx.h"
#include "notify/dest.h"
#include "notify/notify.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/seal.h"
#include "util/token.h"

#define T0 1800000000000LL
#define HOUR (3600LL * 1000)

struct env {
	char dir[64];
	struct store *st;
	struct notify *n;
	struct notify_config cfg;
	struct chatrx *x;
	int64_t ann, bob, game;
};

static int submit1(struct env *E, int seat, int64_t at, const char *line)
{
	const char *lines[1] = { line };
	struct submit_request rq = { .game_id = E->game, .seat = seat, .lines = lines, .nlines = 1, .via = "api",
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

/* A whole turn of seat: two steps. */
static int turn(struct env *E, int seat, int64_t at)
{
	int rc = submit1(E, seat, at, "add 1");

	return rc < 0 ? rc : submit1(E, seat, at + 1, "end");
}

/* A counting race of Ann (creator) and Bob; Bob's Discord id 4242, Slack id U77, Matrix id @bob:example.org. */
static int env_open(struct env *E)
{
	struct create_player players[2] = { { "Ann", "ann@example.org" }, { "Bob", "bob@example.org" } };
	struct create_spec ng = { .game = "counting-race", .players = players, .nplayers = 2, .seed = 7,
				    .have_seed = 1, .created_at = T0 };
	struct store_conn *c;
	struct err e = {0};
	char path[128];

	memset(E, 0, sizeof(*E));
	clock_set_fake_ms(T0);
	snprintf(E->dir, sizeof(E->dir), "/tmp/tp-chan-XXXXXX");
	if (!mkdtemp(E->dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", E->dir);
	if (store_open(path, NULL, &E->st, &e) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/mail", E->dir);
	E->cfg.transport = NOTIFY_FILE;
	E->cfg.mail_dir = strdup(path);
	E->cfg.base_url = "https://games.example.org";
	E->cfg.max_attempts = 4;
	E->cfg.backoff_ms = 1000;
	E->cfg.timeout_ms = 2000;
	if (notify_new(&E->cfg, E->st, &E->n, &e) < 0)
		return -1;
	if (!(E->x = crx_start()))
		return -1;
	notify_dest_allow_loopback(1);
	if (store_write_begin(E->st, &c, &e) < 0)
		return -1;
	store_user_ensure(c, "ann@example.org", "Ann", &E->ann, &e);
	store_user_ensure(c, "bob@example.org", "Bob", &E->bob, &e);
	store_user_update(c, E->bob, "Bob",
			  "{\"chat_ids\":{\"discord\":\"4242\",\"slack\":\"U77\",\"matrix\":\"@bob:example.org\"}}", &e);
	if (store_write_commit(c, &e) < 0)
		return -1;
	ng.created_by = E->ann;
	return create_setup(E->st, &ng, &E->game, NULL, &e);
}

static void env_close(struct env *E)
{
	char cmd[128];

	notify_free(E->n);
	store_close(E->st);
	crx_stop(E->x);
	free((char *)E->cfg.mail_dir);
	notify_dest_allow_loopback(0);
	if (E->dir[0] && !getenv("KEEP_TEST_DIRS")) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", E->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", E->dir);
	}
	clock_set_fake_ms(0);
}

/* Attach kind to the game as Ann, with the fake service's URL + path. */
static int attach(struct env *E, const char *kind, const char *path, json_t **out)
{
	char url[256];
	struct err e = {0};
	json_t *body;
	int rc;

	snprintf(url, sizeof(url), "%s%s", crx_base(E->x), path);
	if (strcmp(kind, "matrix") == 0)
		body = json_pack("{s:s,s:s,s:s}", "homeserver", url, "room_id", "!room:example.org", "access_token",
				 "syt_secret_token_0123456789");
	else
		body = json_pack("{s:s}", "webhook_url", url);
	rc = channel_game_set(E->st, E->game, E->ann, 0, kind, body, T0, out, &e);
	if (rc < 0)
		fprintf(stderr, "attach: %s\n", e.msg);
	json_decref(body);
	return rc;
}

/* The channel rows of the outbox: how many in state (NULL: all), and the newest one's error. */
static int channel_rows(struct env *E, const char *state, char *last_error, size_t size)
{
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	struct err e = {0};
	int n = 0, k = 0;

	store_read_acquire(E->st, &c, &e);
	store_outbox_list(c, NULL, 0, 500, &rows, &n, &e);
	store_read_release(c);
	for (int i = 0; i < n; i++)
		if (strcmp(rows[i].event, "channel") == 0 && (!state || strcmp(rows[i].state, state) == 0)) {
			/* newest first: the newest one's error */
			if (k++ == 0 && last_error && rows[i].last_error)
				snprintf(last_error, size, "%s", rows[i].last_error);
		}
	store_outbox_rows_free(rows, n);
	return k;
}

static void test_chan__dest_refuses_private_addresses(void)
{
	static const char *const refused[] = {
		"https://10.1.2.3/hook", "https://169.254.169.254/latest/meta-data", "https://[::1]:8443/x",
		"https://100.64.0.7/x", "https://192.168.1.1/x", "https://172.16.5.4/x", "https://[fe80::1]/x",
		"https://[fd00::5]/x", "https://[::ffff:10.0.0.1]/x", "https://[64:ff9b::a9fe:a9fe]/x",
		"https://0.0.0.0/x", "https://224.0.0.1/x", "https://localhost/x", "http://8.8.8.8/x",
	};
	struct notify_dest_target t;
	struct err e = {0};
	char hint[128];

	notify_dest_allow_loopback(0);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		err_clear(&e);
		CU_ASSERT_EQUAL(notify_dest_check(refused[i], &t, &e), ERR_ILLEGAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "refused"));
	}
	/* not URLs at all */
	CU_ASSERT_EQUAL(notify_dest_check("ftp://8.8.8.8/x", &t, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(notify_dest_check("https://user:pw@8.8.8.8/x", &t, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(notify_dest_check("https:///x", &t, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(notify_dest_check("https://8.8.8.8:99999/x", &t, &e), ERR_INPUT);
	/* a public address: resolved once, and that address is what the delivery connects to */
	CU_ASSERT_EQUAL(notify_dest_check("https://8.8.8.8/api/webhooks/1/abc", &t, &e), 0);
	CU_ASSERT_STRING_EQUAL(t.resolve, "8.8.8.8:443:8.8.8.8");
	CU_ASSERT_EQUAL(notify_dest_check("https://[2606:4700::1111]:8443/x", &t, &e), 0);
	CU_ASSERT_STRING_EQUAL(t.resolve, "2606:4700::1111:8443:[2606:4700::1111]");
	/* loopback (and plain http to it) only with the setting */
	CU_ASSERT_EQUAL(notify_dest_check("http://127.0.0.1:9/x", &t, &e), ERR_ILLEGAL);
	notify_dest_allow_loopback(1);
	CU_ASSERT_EQUAL(notify_dest_check("http://127.0.0.1:9/x", &t, &e), 0);
	CU_ASSERT_EQUAL(t.port, 9);
	CU_ASSERT_EQUAL(t.https, 0);
	CU_ASSERT_EQUAL(notify_dest_check("https://10.1.2.3/hook", &t, &e), ERR_ILLEGAL);
	CU_ASSERT_EQUAL(notify_dest_check("http://8.8.8.8/x", &t, &e), ERR_ILLEGAL);
	notify_dest_allow_loopback(0);
	/* what may be shown: host and last 4 */
	notify_dest_hint("https://discord.com/api/webhooks/123/abcdefwxyz", NULL, hint, sizeof(hint));
	CU_ASSERT_STRING_EQUAL(hint, "discord.com ...wxyz");
}

static void test_chan__seal_round_trip(void)
{
	unsigned char key[SEAL_KEY_LEN], other[SEAL_KEY_LEN], *box = NULL;
	size_t len = 0;
	char *text = NULL;
	struct err e = {0};

	randombytes_buf(key, sizeof(key));
	randombytes_buf(other, sizeof(other));
	CU_ASSERT_EQUAL_FATAL(seal_box(key, "{\"url\":\"https://x/secret\"}", &box, &len, &e), 0);
	CU_ASSERT_PTR_NULL(memmem(box, len, "secret", 6));
	CU_ASSERT_EQUAL(seal_open(other, box, len, &text, &e), ERR_INPUT);
	CU_ASSERT_PTR_NULL(text);
	box[len - 1] ^= 1;
	CU_ASSERT_EQUAL(seal_open(key, box, len, &text, &e), ERR_INPUT);
	box[len - 1] ^= 1;
	CU_ASSERT_EQUAL_FATAL(seal_open(key, box, len, &text, &e), 0);
	CU_ASSERT_STRING_EQUAL(text, "{\"url\":\"https://x/secret\"}");
	free(text);
	free(box);
}

static void test_chan__who_may_attach(void)
{
	struct env E;
	struct err e = {0};
	json_t *o = NULL, *body = json_pack("{s:s}", "webhook_url", "https://10.0.0.8/api/webhooks/1/x");

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	/* Bob plays but did not make the game */
	CU_ASSERT_EQUAL(channel_game_set(E.st, E.game, E.bob, 0, "discord", body, T0, &o, &e), ERR_FORBIDDEN);
	CU_ASSERT_EQUAL(channel_game_get(E.st, E.game, E.bob, 0, "discord", &o, &e), ERR_FORBIDDEN);
	CU_ASSERT_EQUAL(channel_game_set(E.st, E.game, E.ann, 0, "irc", body, T0, &o, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(channel_game_set(E.st, E.game + 99, E.ann, 0, "discord", body, T0, &o, &e), ERR_NOTFOUND);
	/* a private address is refused when saved, with the reason */
	CU_ASSERT_EQUAL(channel_game_set(E.st, E.game, E.ann, 0, "discord", body, T0, &o, &e), ERR_ILLEGAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "10.0.0.8"));
	json_decref(body);
	body = json_pack("{s:i}", "webhook_url", 3);
	CU_ASSERT_EQUAL(channel_game_set(E.st, E.game, E.ann, 0, "slack", body, T0, &o, &e), ERR_INPUT);
	json_decref(body);
	body = json_pack("{s:s,s:s}", "homeserver", "https://8.8.8.8", "room_id", "!r:x");
	CU_ASSERT_EQUAL(channel_game_set(E.st, E.game, E.ann, 0, "matrix", body, T0, &o, &e), ERR_INPUT);
	json_decref(body);
	/* an admin may; the answer shows the host and the last 4, never the URL */
	CU_ASSERT_EQUAL(attach(&E, "slack", "/services/T0/B0/topsecretZZZZ", &o), 0);
	{
		char *dump = json_dumps(o, 0);
		CU_ASSERT_PTR_NULL(strstr(dump, "topsecret"));
		CU_ASSERT_PTR_NOT_NULL(strstr(dump, "127.0.0.1 ...ZZZZ"));
		free(dump);
	}
	json_decref(o);
	CU_ASSERT_EQUAL(channel_game_get(E.st, E.game, E.bob, 1, "slack", &o, &e), 0);
	json_decref(o);
	CU_ASSERT_EQUAL(channel_game_delete(E.st, E.game, E.bob, 0, "slack", &e), ERR_FORBIDDEN);
	CU_ASSERT_EQUAL(channel_game_delete(E.st, E.game, E.ann, 0, "slack", &e), 0);
	CU_ASSERT_EQUAL(channel_game_get(E.st, E.game, E.ann, 0, "slack", &o, &e), ERR_NOTFOUND);
	env_close(&E);
}

/* A multi-step turn is one message, to Discord, mentioning the player to act and telling the last turn. */
static void test_chan__discord_one_message_per_turn(void)
{
	struct env E;
	struct notify_stats st;
	struct err e = {0};
	json_t *o = NULL;
	const struct crx_request *r;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	CU_ASSERT_EQUAL_FATAL(attach(&E, "discord", "/api/webhooks/1/discordsecret", &o), 0);
	json_decref(o);
	CU_ASSERT_EQUAL(submit1(&E, 0, T0 + 1000, "add 1"), 0);
	CU_ASSERT_EQUAL(submit1(&E, 0, T0 + 2000, "add 2"), 0);
	CU_ASSERT_EQUAL(channel_rows(&E, NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(submit1(&E, 0, T0 + 3000, "end"), 0);
	CU_ASSERT_EQUAL(channel_rows(&E, NULL, NULL, 0), 1);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 4000, &st, &e), 0);
	CU_ASSERT_EQUAL_FATAL(crx_count(E.x), 1);
	r = crx_get(E.x, 0);
	CU_ASSERT_STRING_EQUAL(r->method, "POST");
	CU_ASSERT_STRING_EQUAL(r->path, "/api/webhooks/1/discordsecret");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r->json);
	{
		const char *content = json_string_value(json_object_get(r->json, "content"));
		json_t *am = json_object_get(r->json, "allowed_mentions");
		CU_ASSERT_PTR_NOT_NULL_FATAL(content);
		CU_ASSERT_PTR_NOT_NULL(strstr(content, "<@4242> Bob's turn in Counting Race (test game) #"));
		CU_ASSERT_PTR_NOT_NULL(strstr(content, ": https://games.example.org/games/"));
		/* the last turn in words: Ann's three steps */
		CU_ASSERT_PTR_NOT_NULL(strstr(content, "\nAnn"));
		CU_ASSERT_EQUAL(json_array_size(json_object_get(am, "parse")), 0);
		CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(json_object_get(am, "users"), 0)), "4242");
		/* no seat link: it would sign anyone in the channel in as Bob */
		CU_ASSERT_PTR_NULL(strstr(content, "/s/"));
	}
	CU_ASSERT_EQUAL(channel_rows(&E, "sent", NULL, 0), 1);
	/* nothing more to send */
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 5000, &st, &e), 0);
	CU_ASSERT_EQUAL(crx_count(E.x), 1);
	env_close(&E);
}

/* Slack's shape; a message for every turn, and one for the end. */
static void test_chan__slack_and_game_over(void)
{
	struct env E;
	struct notify_stats st;
	struct err e = {0};
	json_t *o = NULL;
	const struct crx_request *r;
	int64_t at = T0;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	CU_ASSERT_EQUAL_FATAL(attach(&E, "slack", "/services/T1/B1/slacksecret", &o), 0);
	json_decref(o);
	/* to 10: Ann adds 3, 3, 3, then 1 over her turns; Bob adds 1 */
	for (int t = 0; t < 4; t++) {
		CU_ASSERT_EQUAL(submit1(&E, 0, at += 1000, t == 3 ? "add 1" : "add 3"), 0);
		CU_ASSERT_EQUAL(submit1(&E, 0, at += 1000, "end"), 0);
		CU_ASSERT_EQUAL(notify_run_once(E.n, at += 1000, &st, &e), 0);
		if (t < 3) {
			CU_ASSERT_EQUAL(turn(&E, 1, at += 1000), 0);
			CU_ASSERT_EQUAL(notify_run_once(E.n, at += 1000, &st, &e), 0);
		}
	}
	/* Bob's turns, Ann's turns, and the end */
	CU_ASSERT_EQUAL_FATAL(crx_count(E.x), 7);
	r = crx_get(E.x, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r->json);
	CU_ASSERT_EQUAL(json_object_size(r->json), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r->json, "text")), "<@U77> Bob's turn in"));
	r = crx_get(E.x, crx_count(E.x) - 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r->json, "text")), "is over: won by Ann"));
	env_close(&E);
}

/* Matrix: a PUT with the token and the outbox id as transaction id; a failure and a retry post it once. */
static void test_chan__matrix_retry_same_transaction(void)
{
	struct env E;
	struct notify_stats st;
	struct err e = {0};
	json_t *o = NULL;
	const struct crx_request *a, *b;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	CU_ASSERT_EQUAL_FATAL(attach(&E, "matrix", "/", &o), 0);
	CU_ASSERT_PTR_NULL(strstr(json_string_value(json_object_get(o, "hint")), "syt_secret"));
	json_decref(o);
	crx_push(E.x, 502, 0, NULL);
	CU_ASSERT_EQUAL(submit1(&E, 0, T0 + 1000, "add 1"), 0);
	CU_ASSERT_EQUAL(submit1(&E, 0, T0 + 2000, "end"), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 3000, &st, &e), 0);
	CU_ASSERT_EQUAL(st.retried, 1);
	CU_ASSERT_EQUAL(channel_rows(&E, "pending", NULL, 0), 1);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 3000 + HOUR, &st, &e), 0);
	CU_ASSERT_EQUAL(channel_rows(&E, "sent", NULL, 0), 1);
	CU_ASSERT_EQUAL_FATAL(crx_count(E.x), 2);
	a = crx_get(E.x, 0);
	b = crx_get(E.x, 1);
	CU_ASSERT_STRING_EQUAL(a->method, "PUT");
	CU_ASSERT_PTR_NOT_NULL(strstr(a->path, "/_matrix/client/v3/rooms/!room:example.org/send/m.room.message/msg_"));
	CU_ASSERT_STRING_EQUAL(a->path, b->path);
	CU_ASSERT_STRING_EQUAL(a->auth, "Bearer syt_secret_token_0123456789");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b->json);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(b->json, "msgtype")), "m.text");
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(b->json, "body")), "@bob:example.org: Bob's turn"));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(
				       json_object_get(json_object_get(b->json, "m.mentions"), "user_ids"), 0)),
			       "@bob:example.org");
	env_close(&E);
}

/* 429 with Retry-After waits as long as asked. */
static void test_chan__rate_limited_waits(void)
{
	struct env E;
	struct notify_stats st;
	struct err e = {0};
	json_t *o = NULL;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	CU_ASSERT_EQUAL_FATAL(attach(&E, "discord", "/api/webhooks/2/x", &o), 0);
	json_decref(o);
	crx_push(E.x, 429, 120, NULL);
	CU_ASSERT_EQUAL(turn(&E, 0, T0 + 1000), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 2000, &st, &e), 0);
	CU_ASSERT_EQUAL(crx_count(E.x), 1);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 2000 + 119 * 1000, &st, &e), 0);
	CU_ASSERT_EQUAL(crx_count(E.x), 1);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 2000 + 120 * 1000, &st, &e), 0);
	CU_ASSERT_EQUAL(crx_count(E.x), 2);
	CU_ASSERT_EQUAL(channel_rows(&E, "sent", NULL, 0), 1);
	env_close(&E);
}

/* Refused when sent: a redirect is not followed, a loopback address no longer allowed is not connected to. */
static void test_chan__refused_at_send(void)
{
	struct env E;
	struct notify_stats st;
	struct err e = {0};
	char why[256] = "", logpath[128], *log = NULL;
	json_t *o = NULL;
	FILE *f;
	long len;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	snprintf(logpath, sizeof(logpath), "%s/log", E.dir);
	CU_ASSERT_EQUAL(log_open(logpath, &e), 0);
	CU_ASSERT_EQUAL_FATAL(attach(&E, "discord", "/api/webhooks/3/redirectsecret", &o), 0);
	json_decref(o);
	crx_push(E.x, 302, 0, "http://169.254.169.254/latest/meta-data");
	CU_ASSERT_EQUAL(turn(&E, 0, T0 + 1000), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 2000, &st, &e), 0);
	CU_ASSERT_EQUAL(crx_count(E.x), 1);
	CU_ASSERT_EQUAL(channel_rows(&E, "dead", why, sizeof(why)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "redirects are not followed"));
	CU_ASSERT_PTR_NULL(strstr(why, "redirectsecret"));
	/* the operator takes the setting away: the next message is refused, not sent */
	notify_dest_allow_loopback(0);
	CU_ASSERT_EQUAL(turn(&E, 1, T0 + 3000), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 4000, &st, &e), 0);
	CU_ASSERT_EQUAL(crx_count(E.x), 1);
	CU_ASSERT_EQUAL(channel_rows(&E, "dead", why, sizeof(why)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "refused"));
	log_open(NULL, &e);
	/* nothing of the secret path in the log */
	f = fopen(logpath, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	log = calloc(1, (size_t)len + 1);
	CU_ASSERT_EQUAL(fread(log, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "dead"));
	CU_ASSERT_PTR_NULL(strstr(log, "redirectsecret"));
	free(log);
	env_close(&E);
}

/* The name server failing for now at send is not a refusal: the message waits and goes once, later. */
static void test_chan__name_server_down_at_send(void)
{
	struct env E;
	struct notify_stats st;
	struct err e = {0};
	char url[256], why[256] = "";
	json_t *body, *o = NULL;
	int64_t t;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	/* the receiver under a name (its port from the base URL http://127.0.0.1:PORT) */
	notify_dest_fake_host("chat.flaky.test", "127.0.0.1");
	snprintf(url, sizeof(url), "http://chat.flaky.test:%s/api/webhooks/4/flakysecret",
		 strrchr(crx_base(E.x), ':') + 1);
	body = json_pack("{s:s}", "webhook_url", url);
	CU_ASSERT_EQUAL_FATAL(channel_game_set(E.st, E.game, E.ann, 0, "discord", body, T0, &o, &e), 0);
	json_decref(body);
	json_decref(o);
	notify_dest_fake_host("chat.flaky.test", "");
	CU_ASSERT_EQUAL(turn(&E, 0, T0 + 1000), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 2000, &st, &e), 0);
	CU_ASSERT_EQUAL(st.dead, 0);
	CU_ASSERT_EQUAL(crx_count(E.x), 0);
	CU_ASSERT_EQUAL(channel_rows(&E, "pending", why, sizeof(why)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "does not resolve"));
	CU_ASSERT_PTR_NULL(strstr(why, "flakysecret"));
	/* the name server is back: sent once */
	notify_dest_fake_host("chat.flaky.test", "127.0.0.1");
	for (t = T0 + 4000; t <= T0 + 120 * 1000; t += 10000)
		CU_ASSERT_EQUAL(notify_run_once(E.n, t, &st, &e), 0);
	CU_ASSERT_EQUAL(crx_count(E.x), 1);
	CU_ASSERT_EQUAL(channel_rows(&E, "sent", NULL, 0), 1);
	CU_ASSERT_EQUAL(channel_rows(&E, "dead", NULL, 0), 0);
	notify_dest_fake_host(NULL, NULL);
	env_close(&E);
}

/* A user's own destinations: chosen events only; ntfy's shape; a signed webhook with the secret shown once. */
static void test_chan__user_destinations(void)
{
	struct env E;
	struct notify_stats st;
	struct err e = {0};
	json_t *o = NULL, *body, *list = NULL;
	char url[256];
	int n_ntfy = 0, n_hook = 0;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	snprintf(url, sizeof(url), "%s/bobs-topic-secret", crx_base(E.x));
	body = json_pack("{s:s,s:[s]}", "url", url, "events", "your_turn");
	CU_ASSERT_EQUAL_FATAL(channel_user_add(E.st, E.bob, "ntfy", body, T0, &o, &e), 0);
	json_decref(body);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(o, "events")), 1);
	CU_ASSERT_PTR_NULL(json_object_get(o, "secret"));
	json_decref(o);
	snprintf(url, sizeof(url), "%s/hook", crx_base(E.x));
	body = json_pack("{s:s,s:[s,s]}", "url", url, "events", "chat", "your_turn");
	CU_ASSERT_EQUAL_FATAL(channel_user_add(E.st, E.bob, "webhook", body, T0, &o, &e), 0);
	json_decref(body);
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(o, "secret")), "whsec_"));
	json_decref(o);
	body = json_pack("{s:s,s:[s]}", "url", "https://10.9.9.9/x", "events", "chat");
	CU_ASSERT_EQUAL(channel_user_add(E.st, E.bob, "ntfy", body, T0, &o, &e), ERR_ILLEGAL);
	json_decref(body);
	body = json_pack("{s:s,s:[s]}", "url", url, "events", "everything");
	CU_ASSERT_EQUAL(channel_user_add(E.st, E.bob, "ntfy", body, T0, &o, &e), ERR_INPUT);
	json_decref(body);
	/* listing shows no secret */
	CU_ASSERT_EQUAL(channel_user_list(E.st, E.bob, &list, &e), 0);
	CU_ASSERT_EQUAL(json_array_size(list), 2);
	{
		char *dump = json_dumps(list, 0);
		CU_ASSERT_PTR_NULL(strstr(dump, "whsec_"));
		CU_ASSERT_PTR_NULL(strstr(dump, "topic-secret"));
		free(dump);
	}
	json_decref(list);
	/* Ann ends her turn: Bob's turn reaches both of his destinations */
	CU_ASSERT_EQUAL(turn(&E, 0, T0 + 1000), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 2000, &st, &e), 0);
	for (int i = 0; i < crx_count(E.x); i++) {
		const struct crx_request *r = crx_get(E.x, i);
		if (strcmp(r->path, "/bobs-topic-secret") == 0) {
			n_ntfy++;
			CU_ASSERT_PTR_NOT_NULL(strstr(r->body, "Your turn in Counting Race"));
			CU_ASSERT_PTR_NOT_NULL(strstr(r->ctype, "text/plain"));
		} else if (strcmp(r->path, "/hook") == 0) {
			n_hook++;
			CU_ASSERT_PTR_NOT_NULL(strstr(r->webhook_sig, "v1,"));
			CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(r->json, "event")), "your_turn");
		}
	}
	CU_ASSERT_EQUAL(n_ntfy, 1);
	CU_ASSERT_EQUAL(n_hook, 1);
	/* Bob ends his: Ann has no destination; nothing more for Bob's */
	CU_ASSERT_EQUAL(turn(&E, 1, T0 + 3000), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, T0 + 4000, &st, &e), 0);
	CU_ASSERT_EQUAL(crx_count(E.x), 2);
	CU_ASSERT_EQUAL(channel_user_delete(E.st, E.ann, 1, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(channel_user_list(E.st, E.bob, &list, &e), 0);
	CU_ASSERT_EQUAL(channel_user_delete(E.st, E.bob, json_integer_value(json_object_get(json_array_get(list, 0), "id")),
					    &e),
			0);
	json_decref(list);
	CU_ASSERT_EQUAL(channel_user_list(E.st, E.bob, &list, &e), 0);
	CU_ASSERT_EQUAL(json_array_size(list), 1);
	json_decref(list);
	env_close(&E);
}

/* The ids players record to be mentioned: each app's own form, "" to remove, the rest of the preferences kept. */
static void test_chan__chat_ids_in_preferences(void)
{
	struct err e = {0};
	char *merged = NULL, *again = NULL;
	json_t *change = json_pack("{s:{s:s,s:s}}", "chat_ids", "discord", "80351110224678912", "matrix", "@ann:example.org");
	json_t *p;

	CU_ASSERT_EQUAL_FATAL(notify_prefs_merge("{\"digest\":true}", change, &merged, &e), 0);
	json_decref(change);
	p = notify_prefs_get(merged);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(p, "chat_ids"), "discord")),
			       "80351110224678912");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(p, "chat_ids"), "slack")), "");
	CU_ASSERT(json_is_true(json_object_get(p, "digest")));
	json_decref(p);
	change = json_pack("{s:{s:s}}", "chat_ids", "discord", "");
	CU_ASSERT_EQUAL(notify_prefs_merge(merged, change, &again, &e), 0);
	json_decref(change);
	p = notify_prefs_get(again);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(p, "chat_ids"), "discord")), "");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(p, "chat_ids"), "matrix")),
			       "@ann:example.org");
	json_decref(p);
	free(again);
	again = NULL;
	/* not an id: a mention that could be anything, or an app that is not one */
	static const char *const bad[] = { "{\"chat_ids\":{\"discord\":\"@everyone\"}}",
					   "{\"chat_ids\":{\"slack\":\"<!channel>\"}}",
					   "{\"chat_ids\":{\"matrix\":\"ann\"}}", "{\"chat_ids\":{\"irc\":\"ann\"}}",
					   "{\"chat_ids\":[]}" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		change = json_loads(bad[i], 0, NULL);
		CU_ASSERT_EQUAL(notify_prefs_merge(merged, change, &again, &e), ERR_INPUT);
		CU_ASSERT_PTR_NULL(again);
		json_decref(change);
	}
	free(merged);
}

static CU_TestInfo cases[] = {
	{ "test_chan__chat_ids_in_preferences", test_chan__chat_ids_in_preferences },
	{ "test_chan__dest_refuses_private_addresses", test_chan__dest_refuses_private_addresses },
	{ "test_chan__seal_round_trip", test_chan__seal_round_trip },
	{ "test_chan__who_may_attach", test_chan__who_may_attach },
	{ "test_chan__discord_one_message_per_turn", test_chan__discord_one_message_per_turn },
	{ "test_chan__slack_and_game_over", test_chan__slack_and_game_over },
	{ "test_chan__matrix_retry_same_transaction", test_chan__matrix_retry_same_transaction },
	{ "test_chan__rate_limited_waits", test_chan__rate_limited_waits },
	{ "test_chan__refused_at_send", test_chan__refused_at_send },
	{ "test_chan__name_server_down_at_send", test_chan__name_server_down_at_send },
	{ "test_chan__user_destinations", test_chan__user_destinations },
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
	TESTS_SUITE("chan", suite_init, NULL, cases);
	return 0;
}
