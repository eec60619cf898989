/* tests/unit/test_push.c: CUnit suite for notify/push.c: RFC 8291 encryption, VAPID, delivery to a push service */
/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/chat.h"
#include "engine/create.h"
#include "engine/registry.h"
#include "engine/submit.h"
#include "fake_game.h"
#include "notify/dest.h"
#include "notify/notify.h"
#include "notify/push.h"
#include "notify/push_service.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/token.h"

#include <sodium.h>

/* ---- RFC 8291 Appendix A ---- */

#define RFC_PLAIN "When I grow up, I want to be a watermelon"
#define RFC_AS_PRIVATE "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
#define RFC_AS_PUBLIC "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
#define RFC_UA_PUBLIC "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
#define RFC_SALT "DGv6ra1nlYgDCS1FRnbzlw"
#define RFC_AUTH "BTBZMqHH6r4Tts7J_aSIgg"
#define RFC_BODY                                                                                                     \
	"DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl" \
	"7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

static void test_push__rfc8291_example(void)
{
	unsigned char as_priv[32], ua[65], auth[16], salt[16], pub[65];
	struct buf body = BUF_INIT, b64 = BUF_INIT;
	struct err e = {0};

	CU_ASSERT_EQUAL_FATAL(notify_push_unb64(RFC_AS_PRIVATE, as_priv, sizeof(as_priv), &e), 0);
	CU_ASSERT_EQUAL_FATAL(notify_push_unb64(RFC_UA_PUBLIC, ua, sizeof(ua), &e), 0);
	CU_ASSERT_EQUAL_FATAL(notify_push_unb64(RFC_AUTH, auth, sizeof(auth), &e), 0);
	CU_ASSERT_EQUAL_FATAL(notify_push_unb64(RFC_SALT, salt, sizeof(salt), &e), 0);
	/* the sender's public key from its private one */
	CU_ASSERT_EQUAL_FATAL(notify_push_public(as_priv, pub, &e), 0);
	notify_push_b64(pub, sizeof(pub), &b64);
	ASSERT_STR_EQ(b64.data, RFC_AS_PUBLIC);
	buf_reset(&b64);
	/* the whole body, byte for byte */
	CU_ASSERT_EQUAL_FATAL(notify_push_encrypt(ua, auth, as_priv, salt, RFC_PLAIN, strlen(RFC_PLAIN), &body, &e), 0);
	CU_ASSERT_EQUAL(body.len, 16 + 4 + 1 + 65 + strlen(RFC_PLAIN) + 1 + 16);
	notify_push_b64((const unsigned char *)body.data, body.len, &b64);
	ASSERT_STR_EQ(b64.data, RFC_BODY);
	buf_release(&body);
	buf_release(&b64);

	/* a fresh key and salt every time: two messages of one text differ */
	{
		struct buf a = BUF_INIT, b = BUF_INIT;
		CU_ASSERT_EQUAL(notify_push_encrypt(ua, auth, NULL, NULL, "hi", 2, &a, &e), 0);
		CU_ASSERT_EQUAL(notify_push_encrypt(ua, auth, NULL, NULL, "hi", 2, &b, &e), 0);
		CU_ASSERT_EQUAL(a.len, b.len);
		CU_ASSERT_NOT_EQUAL(memcmp(a.data, b.data, a.len), 0);
		buf_release(&a);
		buf_release(&b);
	}
	/* too long for one record; a point off the curve */
	{
		char *big = calloc(NOTIFY_PUSH_PLAIN_MAX + 1, 1);
		unsigned char bad[65] = { 0x04, 1, 2, 3 };
		CU_ASSERT_EQUAL(notify_push_encrypt(ua, auth, NULL, NULL, big, NOTIFY_PUSH_PLAIN_MAX + 1, &body, &e),
				ERR_TOOLARGE);
		CU_ASSERT_EQUAL(notify_push_encrypt(bad, auth, NULL, NULL, "x", 1, &body, &e), ERR_INPUT);
		CU_ASSERT_EQUAL(body.len, 0);
		free(big);
	}
}

static void test_push__jwt_claims(void)
{
	unsigned char priv[32];
	struct buf jwt = BUF_INIT, origin = BUF_INIT;
	struct err e = {0};
	char *dot, claims[512];
	size_t got = 0;
	json_t *c;

	memset(priv, 7, sizeof(priv));
	CU_ASSERT_EQUAL(notify_push_origin("https://push.example.net:8443/wpush/v2/abc?x=1", &origin, &e), 0);
	ASSERT_STR_EQ(origin.data, "https://push.example.net:8443");
	buf_reset(&origin);
	CU_ASSERT_EQUAL(notify_push_origin("HTTPS://FCM.googleapis.com:443/fcm/send/x", &origin, &e), 0);
	ASSERT_STR_EQ(origin.data, "https://fcm.googleapis.com");
	buf_reset(&origin);
	CU_ASSERT_EQUAL(notify_push_origin("http://127.0.0.1:80", &origin, &e), 0);
	ASSERT_STR_EQ(origin.data, "http://127.0.0.1");
	CU_ASSERT_EQUAL(notify_push_origin("ftp://x/y", &origin, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(notify_push_origin("https://user@x/y", &origin, &e), ERR_INPUT);
	buf_release(&origin);

	CU_ASSERT_EQUAL_FATAL(notify_push_jwt(priv, "https://push.example.net/wpush/v2/abc", "mailto:ops@example.org",
					      1800000000, &jwt, &e), 0);
	/* header.claims.signature, the signature 64 bytes (86 characters) */
	dot = strchr(jwt.data, '.');
	CU_ASSERT_PTR_NOT_NULL_FATAL(dot);
	CU_ASSERT_EQUAL(strncmp(jwt.data, "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9.", 37), 0);
	CU_ASSERT_EQUAL(strlen(strrchr(jwt.data, '.') + 1), 86);
	CU_ASSERT_EQUAL(sodium_base642bin((unsigned char *)claims, sizeof(claims) - 1, dot + 1,
					  (size_t)(strrchr(jwt.data, '.') - dot - 1), NULL, &got, NULL,
					  sodium_base64_VARIANT_URLSAFE_NO_PADDING), 0);
	claims[got] = '\0';
	c = json_loads(claims, 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	ASSERT_STR_EQ(json_string_value(json_object_get(c, "aud")), "https://push.example.net");
	ASSERT_STR_EQ(json_string_value(json_object_get(c, "sub")), "mailto:ops@example.org");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "exp")), 1800000000);
	json_decref(c);
	buf_release(&jwt);
}

static void test_push__check_subscription(void)
{
	struct err e = {0};

	/* the shape only: where it points is notify_dest_check's (test_push__subscribe_refuses_private_addresses) */
	CU_ASSERT_EQUAL(notify_push_check("https://push.example.net/x", RFC_UA_PUBLIC, RFC_AUTH, &e), 0);
	/* plain http only when loopback destinations are allowed (a test's push service) */
	CU_ASSERT_EQUAL(notify_push_check("http://127.0.0.1:9/x", RFC_UA_PUBLIC, RFC_AUTH, &e), ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "endpoint"));
	notify_dest_allow_loopback(1);
	CU_ASSERT_EQUAL(notify_push_check("http://127.0.0.1:9/x", RFC_UA_PUBLIC, RFC_AUTH, &e), 0);
	notify_dest_allow_loopback(0);
	CU_ASSERT_EQUAL(notify_push_check("", RFC_UA_PUBLIC, RFC_AUTH, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(notify_push_check("https://x/ y", RFC_UA_PUBLIC, RFC_AUTH, &e), ERR_INPUT);
	/* a key of the right length that is not on the curve; an auth secret of 15 bytes */
	CU_ASSERT_EQUAL(notify_push_check("https://push.example.net/x",
					  "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
					  RFC_AUTH, &e), ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "p256dh"));
	CU_ASSERT_EQUAL(notify_push_check("https://push.example.net/x", RFC_UA_PUBLIC, "BTBZMqHH6r4Tts7J_aSI", &e),
			ERR_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "auth"));
	/* the standard alphabet with padding, as some libraries send it */
	CU_ASSERT_EQUAL(notify_push_check("https://push.example.net/x", RFC_UA_PUBLIC, "BTBZMqHH6r4Tts7J/aSIgg==", &e), 0);
}

/* ---- delivery to a push service ---- */

struct env {
	char dir[64];
	char mail[96];
	int64_t now; /* real time: the push service checks the JWT's exp against its clock */
	struct store *st;
	struct notify *n;
	struct push_service *ps;
	struct notify_config cfg;
	int64_t game, ann, bob;
};

static int env_open(struct env *E)
{
	char path[128];
	struct err e = {0};

	memset(E, 0, sizeof(*E));
	E->now = (int64_t)time(NULL) * 1000;
	clock_set_fake_ms(E->now);
	snprintf(E->dir, sizeof(E->dir), "/tmp/tp-push-XXXXXX");
	if (!mkdtemp(E->dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", E->dir);
	snprintf(E->mail, sizeof(E->mail), "%s/mail", E->dir);
	if (store_open(path, NULL, &E->st, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	E->cfg.transport = NOTIFY_FILE;
	E->cfg.base_url = "https://games.example.org/";
	E->cfg.mail_dir = E->mail;
	E->cfg.from = "Turnpost <turnpost@games.example.org>";
	E->cfg.max_attempts = 6;
	E->cfg.backoff_ms = 1000;
	E->cfg.timeout_ms = 2000;
	if (notify_new(&E->cfg, E->st, &E->n, &e) < 0) {
		fprintf(stderr, "notify_new: %s\n", e.msg);
		return -1;
	}
	if (!(E->ps = ps_start()))
		return -1;
	/* the push service of the tests is on loopback, as --allow-loopback-destinations lets it be */
	notify_dest_allow_loopback(1);
	return 0;
}

static void env_close(struct env *E)
{
	char cmd[128];

	notify_free(E->n);
	store_close(E->st);
	ps_stop(E->ps);
	if (E->dir[0] && !getenv("KEEP_TEST_DIRS")) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", E->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", E->dir);
	}
	clock_set_fake_ms(0);
	notify_dest_allow_loopback(0);
	notify_dest_fake_host(NULL, NULL);
}

/* Ann and Bob's counting race; invitations delivered (by email only: nobody subscribed yet). */
static void new_game(struct env *E)
{
	struct create_player players[2] = { { "Ann", "ann@example.org" }, { "Bob", "bob@example.org" } };
	struct create_spec ng = { .game = "counting-race", .players = players, .nplayers = 2, .seed = 7,
				    .have_seed = 1, .created_at = E->now };
	struct notify_stats s;
	struct store_conn *c;
	struct err e = {0};

	CU_ASSERT_EQUAL_FATAL(store_write_begin(E->st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_ensure(c, "ann@example.org", "Ann", &E->ann, &e), 0);
	CU_ASSERT_EQUAL(store_user_ensure(c, "bob@example.org", "Bob", &E->bob, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	ng.created_by = E->ann;
	CU_ASSERT_EQUAL_FATAL(create_setup(E->st, &ng, &E->game, NULL, &e), 0);
	CU_ASSERT_EQUAL(notify_run_once(E->n, E->now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 2);
}

/* A subscription of user at the push service, stored as the API would; its id. */
static int64_t subscribe(struct env *E, int64_t user, const char *name)
{
	char endpoint[128], p256dh[100], auth[32];
	struct store_conn *c;
	struct err e = {0};
	int64_t id = 0;

	CU_ASSERT_EQUAL_FATAL(ps_subscribe(E->ps, name, endpoint, p256dh, auth), 0);
	CU_ASSERT_EQUAL(notify_push_check(endpoint, p256dh, auth, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(E->st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_push_sub_add(c, user, endpoint, p256dh, auth, "Firefox on Linux", E->now, &id, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	return id;
}

static int play(struct env *E, int seat, const char *l1, const char *l2)
{
	const char *lines[2] = { l1, l2 };
	struct submit_request rq = { .game_id = E->game, .seat = seat, .lines = lines, .nlines = l2 ? 2 : 1,
				  .via = "api", .if_match = -1, .at = E->now };
	struct submit_outcome po;
	struct err e = {0};
	json_t *res = NULL;
	int rc = submit_steps(E->st, &rq, &res, &po, &e);

	if (rc < 0)
		fprintf(stderr, "submit: %s\n", e.msg);
	json_decref(res);
	return rc;
}

/* The rows of the outbox, and how many of them are web push rows in state (NULL: any). */
static int count_rows(struct env *E, int push, const char *state)
{
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	struct err e = {0};
	int n = 0, k = 0;

	CU_ASSERT_EQUAL_FATAL(store_read_acquire(E->st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_list(c, NULL, 0, 1000, &rows, &n, &e), 0);
	store_read_release(c);
	for (int i = 0; i < n; i++)
		if ((strstr(rows[i].payload, "\"push_sub\"") != NULL) == push && (!state || !strcmp(rows[i].state, state)))
			k++;
	store_outbox_rows_free(rows, n);
	return k;
}

static void test_push__turn_delivered_and_decrypted(void)
{
	struct env E;
	struct notify_stats s;
	struct err e = {0};
	char vapid[NOTIFY_PUSH_B64_MAX], url[96];
	const struct ps_delivery *d;
	struct store_push_sub sub;
	struct store_conn *c;
	long long now_s;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	new_game(&E);
	subscribe(&E, E.bob, "bob-phone");
	CU_ASSERT_EQUAL(notify_push_vapid_public(E.st, vapid, &e), 0);
	CU_ASSERT_EQUAL(strlen(vapid), 87);

	/* Ann's turn: Bob gets the email and, on his phone, the push */
	CU_ASSERT_EQUAL(play(&E, 0, "add 2", "end"), 0);
	CU_ASSERT_EQUAL(count_rows(&E, 1, "pending"), 1);
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 2);
	CU_ASSERT_EQUAL(s.superseded, 0);
	CU_ASSERT_EQUAL(count_rows(&E, 0, "sent"), 3); /* two invitations, Bob's "your turn" email */
	CU_ASSERT_EQUAL(count_rows(&E, 1, "sent"), 1);
	CU_ASSERT_EQUAL_FATAL(ps_count(E.ps), 1);
	d = ps_get(E.ps, 0);
	ASSERT_STR_EQ(d->path, "/push/bob-phone");
	CU_ASSERT_EQUAL(d->status, 201);
	if (!d->vapid_ok)
		fprintf(stderr, "vapid: %s\n", d->vapid_error);
	CU_ASSERT(d->vapid_ok);
	/* the key that signed is the server's, the one browsers subscribe with */
	ASSERT_STR_EQ(d->k, vapid);
	ASSERT_STR_EQ(d->sub, "https://games.example.org");
	now_s = (long long)(E.now / 1000);
	CU_ASSERT(d->exp > now_s && d->exp <= now_s + 24 * 3600);
	ASSERT_STR_EQ(d->encoding, "aes128gcm");
	ASSERT_STR_EQ(d->type, "application/octet-stream");
	ASSERT_STR_EQ(d->ttl, "345600");
	ASSERT_STR_EQ(d->urgency, "high");
	ASSERT_STR_EQ(d->topic, "turn-1-1");
	if (!d->plain)
		fprintf(stderr, "decrypt: %s\n", d->decrypt_error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d->json);
	ASSERT_STR_EQ(json_string_value(json_object_get(d->json, "title")), "Your turn in Counting Race (test game) (game 1)");
	ASSERT_STR_EQ(json_string_value(json_object_get(d->json, "event")), "your_turn");
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(d->json, "body")), "Ann: add 2."));
	snprintf(url, sizeof(url), "https://games.example.org/games/%lld", (long long)E.game);
	ASSERT_STR_EQ(json_string_value(json_object_get(d->json, "url")), url);
	/* no seat link in a push: the phone is signed in already */
	CU_ASSERT_PTR_NULL(strstr(d->plain, "/s/"));
	/* the subscription remembers the success */
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(E.st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_push_sub_get(c, 1, &sub, &e), 0);
	store_read_release(c);
	CU_ASSERT_EQUAL(sub.last_success_at, E.now);
	store_push_sub_release(&sub);

	/* a chat line: Ann's words, Urgency normal, no Topic; Ann herself gets no push */
	subscribe(&E, E.ann, "ann-laptop");
	CU_ASSERT_EQUAL(chat_post(E.st, E.game, 1, E.bob, "gg so far", E.now, &e), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now, &s, &e), 0);
	CU_ASSERT_EQUAL_FATAL(ps_count(E.ps), 2);
	d = ps_get(E.ps, 1);
	ASSERT_STR_EQ(d->path, "/push/ann-laptop");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d->json);
	ASSERT_STR_EQ(json_string_value(json_object_get(d->json, "body")), "Bob: gg so far");
	ASSERT_STR_EQ(d->urgency, "normal");
	ASSERT_STR_EQ(d->ttl, "86400");
	ASSERT_STR_EQ(d->topic, "");
	env_close(&E);
}

static void test_push__gone_removes_subscription(void)
{
	struct env E;
	struct notify_stats s;
	struct err e = {0};
	struct store_push_sub sub;
	struct store_conn *c;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	new_game(&E);
	id = subscribe(&E, E.bob, "bob-old-phone");
	ps_answer(E.ps, 410, 0);
	CU_ASSERT_EQUAL(play(&E, 0, "add 1", "end"), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now, &s, &e), 0);
	/* the email went; the push row is dead at once (no retry) and the subscription is gone */
	CU_ASSERT_EQUAL(s.sent, 1);
	CU_ASSERT_EQUAL(s.dead, 1);
	CU_ASSERT_EQUAL(s.retried, 0);
	CU_ASSERT_EQUAL(ps_count(E.ps), 1);
	CU_ASSERT_EQUAL(count_rows(&E, 1, "dead"), 1);
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(E.st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_push_sub_get(c, id, &sub, &e), ERR_NOTFOUND);
	store_read_release(c);
	/* Bob's next turn: an email, no push row any more */
	CU_ASSERT_EQUAL(play(&E, 1, "add 1", "end"), 0);
	CU_ASSERT_EQUAL(play(&E, 0, "add 1", "end"), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now, &s, &e), 0);
	CU_ASSERT_EQUAL(count_rows(&E, 1, NULL), 1);
	CU_ASSERT_EQUAL(ps_count(E.ps), 1);
	env_close(&E);
}

static void test_push__failing_then_recovering_once(void)
{
	struct env E;
	struct notify_stats s;
	struct err e = {0};
	int64_t t;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	new_game(&E);
	subscribe(&E, E.bob, "bob-phone");
	ps_answer(E.ps, 500, 0);
	ps_answer(E.ps, 429, 2);
	CU_ASSERT_EQUAL(play(&E, 0, "add 3", "end"), 0);
	CU_ASSERT_EQUAL(chat_post(E.st, E.game, 0, E.ann, "your move", E.now, &e), 0);
	/* the turn's push meets the 500, the chat's the 429: both wait, the emails go */
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 2);
	CU_ASSERT_EQUAL(s.retried, 2);
	CU_ASSERT_EQUAL(count_rows(&E, 1, "pending"), 2);
	/* 429 said two seconds: not before */
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now + 1000, &s, &e), 0);
	CU_ASSERT_EQUAL(ps_accepted(E.ps, "bob-phone"), 1); /* the 500's retry (back-off 0.5 to 1 s) went */
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now + 2000, &s, &e), 0);
	/* later rounds find nothing more to send */
	for (t = E.now + 3000; t <= E.now + 60000; t += 10000)
		CU_ASSERT_EQUAL(notify_run_once(E.n, t, &s, &e), 0);
	CU_ASSERT_EQUAL(ps_count(E.ps), 4);
	CU_ASSERT_EQUAL(ps_accepted(E.ps, "bob-phone"), 2);
	CU_ASSERT_EQUAL(count_rows(&E, 1, "sent"), 2);
	/* each message once: one "your turn", one chat line */
	{
		int turns = 0, chats = 0;
		for (int i = 0; i < ps_count(E.ps); i++) {
			const struct ps_delivery *d = ps_get(E.ps, i);
			const char *ev;
			if (d->status < 200 || d->status >= 300)
				continue;
			ev = json_string_value(json_object_get(d->json, "event"));
			turns += ev && !strcmp(ev, "your_turn");
			chats += ev && !strcmp(ev, "chat");
		}
		CU_ASSERT_EQUAL(turns, 1);
		CU_ASSERT_EQUAL(chats, 1);
	}
	env_close(&E);
}

static void test_push__preferences(void)
{
	struct env E;
	struct notify_stats s;
	struct err e = {0};
	struct store_conn *c;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	new_game(&E);
	subscribe(&E, E.bob, "bob-phone");
	/* chat off, and the rest as a daily digest */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(E.st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_set_prefs(c, E.bob, "{\"events\":{\"chat\":false},\"digest\":true,\"digest_hour\":7}",
					     &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT_EQUAL(play(&E, 0, "add 2", "end"), 0);
	CU_ASSERT_EQUAL(chat_post(E.st, E.game, 0, E.ann, "hello", E.now, &e), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now, &s, &e), 0);
	/* the turn: email kept for the digest, push at once; the chat: neither */
	CU_ASSERT_EQUAL(s.deferred, 1);
	CU_ASSERT_EQUAL(s.sent, 1);
	CU_ASSERT_EQUAL(s.skipped, 2);
	CU_ASSERT_EQUAL_FATAL(ps_count(E.ps), 1);
	ASSERT_STR_EQ(json_string_value(json_object_get(ps_get(E.ps, 0)->json, "event")), "your_turn");
	/* a push of a turn the player already took is not sent */
	CU_ASSERT_EQUAL(play(&E, 1, "add 1", "end"), 0);
	CU_ASSERT_EQUAL(play(&E, 0, "add 1", "end"), 0);
	CU_ASSERT_EQUAL(play(&E, 1, "add 1", "end"), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now, &s, &e), 0);
	CU_ASSERT_EQUAL(ps_count(E.ps), 1);
	CU_ASSERT(s.superseded >= 1);
	env_close(&E);
}

static void test_push__subscribe_limits_and_labels(void)
{
	struct env E;
	struct err e = {0};
	char endpoint[96], label[200];
	json_t *list = NULL;
	int64_t id = 0, first = 0;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	new_game(&E);
	/* a label without control characters, cut to 80 bytes between characters */
	memset(label, 0, sizeof(label));
	strcpy(label, "Phone\x01 x");
	for (int i = 0; i < 40; i++)
		strcat(label, "\xc3\xa9"); /* 2 bytes each: the 80-byte cut falls inside the 37th */
	CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, "https://127.0.0.1:8443/0", RFC_UA_PUBLIC, RFC_AUTH, label,
					      E.now, &first, &e), 0);
	CU_ASSERT_EQUAL_FATAL(notify_push_list_json(E.st, E.bob, &list, &e), 0);
	{
		const char *l = json_string_value(json_object_get(json_array_get(json_object_get(list, "subscriptions"), 0),
								  "label"));
		CU_ASSERT_EQUAL(strncmp(l, "Phone x\xc3\xa9", 9), 0);
		CU_ASSERT_EQUAL(strlen(l), 7 + 36 * 2);
		ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(json_object_get(list, "subscriptions"), 0),
								"service")), "https://127.0.0.1:8443");
	}
	json_decref(list);
	/* refused before anything is stored: plain http unless allowed */
	notify_dest_allow_loopback(0);
	CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, "http://127.0.0.1:8080/x", RFC_UA_PUBLIC, RFC_AUTH, NULL,
					      E.now, &id, &e), ERR_INPUT);
	CU_ASSERT_EQUAL(id, 0);
	notify_dest_allow_loopback(1);
	/* twenty browsers at most; the same one again is no more */
	for (int i = 1; i < NOTIFY_PUSH_MAX_SUBS; i++) {
		snprintf(endpoint, sizeof(endpoint), "https://127.0.0.1:8443/%d", i);
		CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, endpoint, RFC_UA_PUBLIC, RFC_AUTH, NULL, E.now, &id, &e),
				0);
	}
	CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, "https://127.0.0.1:8443/one-more", RFC_UA_PUBLIC, RFC_AUTH,
					      NULL, E.now, &id, &e), ERR_LIMIT);
	CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, "https://127.0.0.1:8443/0", RFC_UA_PUBLIC, RFC_AUTH, "again",
					      E.now, &id, &e), 0);
	CU_ASSERT(id > first);
	/* removing: only one's own */
	CU_ASSERT_EQUAL(notify_push_remove(E.st, E.ann, id, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(notify_push_remove(E.st, E.bob, id, &e), 0);
	CU_ASSERT_EQUAL(notify_push_remove(E.st, E.bob, id, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, "https://127.0.0.1:8443/one-more", RFC_UA_PUBLIC, RFC_AUTH,
					      NULL, E.now, &id, &e), 0);
	env_close(&E);
}

/* The newest web push row's state and last error. */
static void newest_push_row(struct env *E, char *state, size_t ssize, char *error, size_t esize)
{
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	struct err e = {0};
	int64_t best = 0;
	int n = 0;

	state[0] = error[0] = '\0';
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(E->st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_list(c, NULL, 0, 1000, &rows, &n, &e), 0);
	store_read_release(c);
	for (int i = 0; i < n; i++)
		if (strstr(rows[i].payload, "\"push_sub\"") && rows[i].id > best) {
			best = rows[i].id;
			snprintf(state, ssize, "%s", rows[i].state);
			snprintf(error, esize, "%s", rows[i].last_error ? rows[i].last_error : "");
		}
	store_outbox_rows_free(rows, n);
}

static int subscriptions_of(struct env *E, int64_t user)
{
	struct err e = {0};
	json_t *list = NULL;
	int k;

	CU_ASSERT_EQUAL_FATAL(notify_push_list_json(E->st, user, &list, &e), 0);
	k = (int)json_array_size(json_object_get(list, "subscriptions"));
	json_decref(list);
	return k;
}

static void test_push__subscribe_refuses_private_addresses(void)
{
	/* what a name server under someone's control could answer */
	static const struct {
		const char *name, *addr;
	} names[] = {
		{ "push.loopback.test", "127.0.0.1" },     { "push.private.test", "10.1.2.3" },
		{ "push.metadata.test", "169.254.169.254" }, { "push.v6-loopback.test", "::1" },
		{ "push.mapped.test", "::ffff:169.254.169.254" }, { "push.mapped-private.test", "::ffff:10.9.8.7" },
		{ "push.ula.test", "fd00::7" },            { "push.cgnat.test", "100.64.1.1" },
	};
	/* and addresses written out */
	static const char *const literal[] = {
		"https://localhost/push/secret-path",          "https://[::1]/push/secret-path",
		"https://[::ffff:127.0.0.1]/push/secret-path", "https://10.0.0.1/push/secret-path",
		"https://169.254.169.254/latest/meta-data",    "https://[::ffff:169.254.169.254]/push/secret-path",
		"https://[64:ff9b::a9fe:a9fe]/push/secret-path", "https://192.168.1.1:8443/push/secret-path",
		"https://[fe80::1]/push/secret-path",          "https://0.0.0.0/push/secret-path",
		"https://nowhere.invalid/push/secret-path",
	};
	struct env E;
	struct err e = {0};
	char url[128];
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	new_game(&E);
	notify_dest_allow_loopback(0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		notify_dest_fake_host(names[i].name, names[i].addr);
		snprintf(url, sizeof(url), "https://%s/push/secret-path", names[i].name);
		err_clear(&e);
		id = -1;
		CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, url, RFC_UA_PUBLIC, RFC_AUTH, NULL, E.now, &id, &e),
				ERR_ILLEGAL);
		CU_ASSERT_EQUAL(id, 0);
		/* the reason names the host, never the path (the browser's address) */
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "refused"));
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, names[i].name));
		CU_ASSERT_PTR_NULL(strstr(e.msg, "secret-path"));
	}
	for (size_t i = 0; i < sizeof(literal) / sizeof(literal[0]); i++) {
		err_clear(&e);
		CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, literal[i], RFC_UA_PUBLIC, RFC_AUTH, NULL, E.now, &id, &e),
				ERR_ILLEGAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "refused"));
	}
	/* loopback allowed (tests): the rest stays refused, and plain http goes to loopback alone */
	notify_dest_allow_loopback(1);
	CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, "https://push.metadata.test/x", RFC_UA_PUBLIC, RFC_AUTH, NULL,
					      E.now, &id, &e), ERR_ILLEGAL);
	CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, "https://push.mapped-private.test/x", RFC_UA_PUBLIC, RFC_AUTH,
					      NULL, E.now, &id, &e), ERR_ILLEGAL);
	notify_dest_fake_host("push.public.test", "8.8.8.8");
	CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, "http://push.public.test/x", RFC_UA_PUBLIC, RFC_AUTH, NULL,
					      E.now, &id, &e), ERR_ILLEGAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "https"));
	/* nothing of it was stored */
	CU_ASSERT_EQUAL(subscriptions_of(&E, E.bob), 0);
	/* a public address is taken (saving connects to nothing) */
	notify_dest_allow_loopback(0);
	CU_ASSERT_EQUAL(notify_push_subscribe(E.st, E.bob, "https://push.public.test/push/x", RFC_UA_PUBLIC, RFC_AUTH,
					      NULL, E.now, &id, &e), 0);
	CU_ASSERT_EQUAL(subscriptions_of(&E, E.bob), 1);
	env_close(&E);
}

/* user's subscription at the push service, its endpoint naming host, saved as the API would; its id. */
static int64_t subscribe_named(struct env *E, int64_t user, const char *name, const char *host)
{
	char endpoint[128], p256dh[100], auth[32];
	struct err e = {0};
	int64_t id = 0;

	ps_host(E->ps, host);
	CU_ASSERT_EQUAL_FATAL(ps_subscribe(E->ps, name, endpoint, p256dh, auth), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(endpoint, host));
	CU_ASSERT_EQUAL(notify_push_subscribe(E->st, user, endpoint, p256dh, auth, "Firefox on Android", E->now, &id, &e),
			0);
	return id;
}

/* Ann, then Bob, then Ann ends a turn: Bob's turn again. */
static void round_trip(struct env *E)
{
	CU_ASSERT_EQUAL(play(E, 1, "add 1", "end"), 0);
	CU_ASSERT_EQUAL(play(E, 0, "add 1", "end"), 0);
}

static void test_push__send_checks_the_address_again(void)
{
	struct env E;
	struct notify_stats s;
	struct err e = {0};
	struct store_push_sub sub;
	struct store_conn *c;
	char state[16], error[512];
	int64_t id, t;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	new_game(&E);
	notify_dest_fake_host("push.rebind.test", "127.0.0.1");
	id = subscribe_named(&E, E.bob, "bob-phone", "push.rebind.test");
	CU_ASSERT_FATAL(id > 0);

	/* a name only the check knows (the system's resolver has never heard of it): sent to the address it found */
	CU_ASSERT_EQUAL(play(&E, 0, "add 2", "end"), 0);
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 2);
	CU_ASSERT_EQUAL_FATAL(ps_count(E.ps), 1);
	CU_ASSERT_EQUAL(ps_get(E.ps, 0)->status, 201);
	ASSERT_STR_EQ(ps_get(E.ps, 0)->path, "/push/bob-phone");

	/* the name now answers the cloud metadata address: no request, the row dead at once, the email still goes */
	notify_dest_fake_host("push.rebind.test", "169.254.169.254");
	round_trip(&E);
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 1);
	CU_ASSERT_EQUAL(s.dead, 1);
	CU_ASSERT_EQUAL(s.retried, 0);
	CU_ASSERT_EQUAL(ps_count(E.ps), 1);
	newest_push_row(&E, state, sizeof(state), error, sizeof(error));
	ASSERT_STR_EQ(state, "dead");
	CU_ASSERT_PTR_NOT_NULL(strstr(error, "refused"));
	CU_ASSERT_PTR_NOT_NULL(strstr(error, "169.254.169.254"));
	CU_ASSERT_PTR_NULL(strstr(error, "bob-phone"));
	/* the subscription stays: the operator may put the name server right */
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(E.st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_push_sub_get(c, id, &sub, &e), 0);
	store_read_release(c);
	store_push_sub_release(&sub);

	/* an IPv4-mapped loopback address once loopback is no longer allowed: refused the same way */
	notify_dest_fake_host("push.rebind.test", "::ffff:127.0.0.1");
	notify_dest_allow_loopback(0);
	round_trip(&E);
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.dead, 1);
	CU_ASSERT_EQUAL(ps_count(E.ps), 1);
	notify_dest_allow_loopback(1);

	/* the name server failing for now is not the address refused: tried again, then sent once */
	notify_dest_fake_host("push.rebind.test", "");
	round_trip(&E);
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now, &s, &e), 0);
	CU_ASSERT_EQUAL(s.dead, 0);
	CU_ASSERT_EQUAL(s.retried, 1);
	newest_push_row(&E, state, sizeof(state), error, sizeof(error));
	ASSERT_STR_EQ(state, "pending");
	CU_ASSERT_PTR_NOT_NULL(strstr(error, "does not resolve"));
	notify_dest_fake_host("push.rebind.test", "127.0.0.1");
	for (t = E.now + 2000; t <= E.now + 60000; t += 10000)
		CU_ASSERT_EQUAL(notify_run_once(E.n, t, &s, &e), 0);
	CU_ASSERT_EQUAL(ps_count(E.ps), 2);
	CU_ASSERT_EQUAL(ps_accepted(E.ps, "bob-phone"), 2);
	newest_push_row(&E, state, sizeof(state), error, sizeof(error));
	ASSERT_STR_EQ(state, "sent");

	/* a redirect is not followed: dead, with the reason */
	ps_answer(E.ps, 307, 0);
	round_trip(&E);
	CU_ASSERT_EQUAL(notify_run_once(E.n, E.now + 60000, &s, &e), 0);
	CU_ASSERT_EQUAL(s.dead, 1);
	CU_ASSERT_EQUAL(ps_count(E.ps), 3);
	newest_push_row(&E, state, sizeof(state), error, sizeof(error));
	ASSERT_STR_EQ(state, "dead");
	CU_ASSERT_PTR_NOT_NULL(strstr(error, "redirects are not followed"));
	env_close(&E);
}

static CU_TestInfo cases[] = {
	{ "test_push__rfc8291_example", test_push__rfc8291_example },
	{ "test_push__jwt_claims", test_push__jwt_claims },
	{ "test_push__check_subscription", test_push__check_subscription },
	{ "test_push__turn_delivered_and_decrypted", test_push__turn_delivered_and_decrypted },
	{ "test_push__gone_removes_subscription", test_push__gone_removes_subscription },
	{ "test_push__failing_then_recovering_once", test_push__failing_then_recovering_once },
	{ "test_push__preferences", test_push__preferences },
	{ "test_push__subscribe_limits_and_labels", test_push__subscribe_limits_and_labels },
	{ "test_push__subscribe_refuses_private_addresses", test_push__subscribe_refuses_private_addresses },
	{ "test_push__send_checks_the_address_again", test_push__send_checks_the_address_again },
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
	TESTS_SUITE("push", suite_init, NULL, cases);
	return 0;
}
