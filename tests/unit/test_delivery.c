/* tests/unit/test_delivery.c: CUnit suite for notify/'s delivery under stress: per-attempt clock, parallel destinations */
/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/create.h"
#include "engine/registry.h"
#include "engine/submit.h"
#include "fake_game.h"
#include "notify/notify.h"
#include "notify/receiver.h"
#include "testutil.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/token.h"

#define SECRET "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

struct env {
	char dir[64];
	struct store *st;
	struct notify *n;
	struct receiver *rx;
	struct notify_config cfg;
};

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&t, NULL);
}

/* A store in a new directory, on the real clock; the notifier is made by the test. */
static int env_open(struct env *E)
{
	char path[128];
	struct err e = {0};

	memset(E, 0, sizeof(*E));
	clock_set_fake_ms(0);
	snprintf(E->dir, sizeof(E->dir), "/tmp/tp-delivery-XXXXXX");
	if (!mkdtemp(E->dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", E->dir);
	if (store_open(path, NULL, &E->st, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	E->cfg.base_url = "https://games.example.org/";
	E->cfg.from = "turnpost@games.example.org";
	E->cfg.max_attempts = 6;
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
}

/* A counting-race game of Ann (seat 0, to play first) and Bob, made now: each gets an invitation. */
static int64_t new_game(struct env *E)
{
	struct create_player players[2] = { { "Ann", "ann@example.org" }, { "Bob", "bob@example.org" } };
	struct create_spec ng = { .game = "counting-race", .players = players, .nplayers = 2, .seed = 7,
				    .have_seed = 1, .created_at = clock_now_ms() };
	struct err e = {0};
	int64_t id = 0;

	CU_ASSERT_EQUAL_FATAL(create_setup(E->st, &ng, &id, NULL, &e), 0);
	return id;
}

static int submit(struct env *E, int64_t id, int seat, const char *l1, const char *l2)
{
	const char *lines[2] = { l1, l2 };
	struct submit_request rq = { .game_id = id, .seat = seat, .lines = lines, .nlines = 2, .via = "api",
				  .if_match = -1, .at = clock_now_ms() };
	struct submit_outcome po;
	struct err e = {0};
	json_t *res = NULL;
	int rc = submit_steps(E->st, &rq, &res, &po, &e);

	if (rc < 0)
		fprintf(stderr, "submit: %s\n", e.msg);
	json_decref(res);
	return rc;
}

static int count_state(struct env *E, const char *state)
{
	struct store_outbox_row *all = NULL;
	struct store_conn *c;
	struct err e = {0};
	int n = 0, k = 0;

	store_read_acquire(E->st, &c, &e);
	CU_ASSERT_EQUAL(store_outbox_list(c, state, 0, 500, &all, &n, &e), 0);
	store_read_release(c);
	k = n;
	store_outbox_rows_free(all, n);
	return k;
}

static void row_get(struct env *E, int64_t id, struct store_outbox_row *r)
{
	struct store_conn *c;
	struct err e = {0};

	store_read_acquire(E->st, &c, &e);
	CU_ASSERT_EQUAL(store_outbox_get(c, id, r, &e), 0);
	store_read_release(c);
}

/* The index of the n-th (0-based) request the receiver saw for webhook-id id; -1 when none. */
static int rx_nth(struct receiver *rx, const char *id, int nth)
{
	for (int i = 0; i < rx_count(rx); i++)
		if (strcmp(rx_get(rx, i)->id, id) == 0 && nth-- == 0)
			return i;
	return -1;
}

/*
 * One delivery at a time, and the first receiver hangs past the time limit:
 * the message behind it is signed when it is sent, so a receiver that refuses
 * timestamps older than 2 s takes it, and the hung one is retried no sooner
 * than its back-off after it failed. Nothing is lost or dead-lettered.
 */
static void test_delivery__signed_and_scheduled_at_attempt(void)
{
	struct env E;
	struct notify_stats s;
	struct store_outbox_row ann, bob, r;
	struct err e = {0};
	char ann_id[64], bob_id[64];
	int first, second;
	int64_t retry_at, t0;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	E.rx = rx_start(SECRET);
	CU_ASSERT_PTR_NOT_NULL_FATAL(E.rx);
	rx_set_max_age(E.rx, 2000);
	E.cfg.transport = NOTIFY_WEBHOOK;
	E.cfg.webhook_url = rx_url(E.rx);
	E.cfg.webhook_secret = SECRET;
	E.cfg.timeout_ms = 2500;
	E.cfg.backoff_ms = 1000;
	E.cfg.workers = 1;
	CU_ASSERT_EQUAL_FATAL(notify_new(&E.cfg, E.st, &E.n, &e), 0);
	new_game(&E);
	row_get(&E, 1, &ann);
	row_get(&E, 2, &bob);
	CU_ASSERT_EQUAL_FATAL(ann.seat, 0);
	snprintf(ann_id, sizeof(ann_id), "msg_%s", ann.uid);
	snprintf(bob_id, sizeof(bob_id), "msg_%s", bob.uid);
	free(ann.payload);
	free(bob.payload);

	/* Ann's invitation hangs (3 s, the limit is 2.5 s); Bob's waits behind it */
	rx_push(E.rx, RX_HANG, 0, 3000);
	t0 = clock_now_ms();
	CU_ASSERT_EQUAL(notify_run_once(E.n, t0, &s, &e), 0);
	CU_ASSERT_EQUAL(s.sent, 1);
	CU_ASSERT_EQUAL(s.retried, 1);
	CU_ASSERT_EQUAL(s.dead, 0);
	first = rx_nth(E.rx, ann_id, 0);
	CU_ASSERT_FATAL(first >= 0);
	CU_ASSERT_EQUAL(rx_accepted(E.rx, bob_id), 1);
	CU_ASSERT_FATAL(rx_nth(E.rx, bob_id, 0) >= 0);
	/* Bob's was stamped when it went, 2.5 s after the pass began */
	{
		const struct rx_delivery *d = rx_get(E.rx, rx_nth(E.rx, bob_id, 0));
		CU_ASSERT(d->timestamp * 1000 >= t0 + 1000);
		CU_ASSERT(d->sig_ok);
	}
	/* Ann's retry is due its back-off (0.5 to 1 s) after the failure, not after the pass began */
	row_get(&E, ann.id, &r);
	CU_ASSERT_EQUAL(r.attempts, 1);
	retry_at = r.next_at;
	CU_ASSERT(retry_at >= t0 + 2500 + 500);
	free(r.payload);
	free(r.last_error);

	/* the notifier keeps going round: Ann's goes out again, not before it is due */
	for (int i = 0; i < 200 && !rx_accepted(E.rx, ann_id); i++) {
		CU_ASSERT_EQUAL(notify_run_once(E.n, clock_now_ms(), &s, &e), 0);
		sleep_ms(20);
	}
	CU_ASSERT_EQUAL(rx_accepted(E.rx, ann_id), 1);
	second = rx_nth(E.rx, ann_id, 1);
	CU_ASSERT_FATAL(second >= 0);
	CU_ASSERT(rx_get(E.rx, second)->at_ms >= retry_at);
	CU_ASSERT_EQUAL(count_state(&E, "sent"), 2);
	CU_ASSERT_EQUAL(count_state(&E, "dead"), 0);
	env_close(&E);
}

/* The sink's log lines of one kind ("rcpt" or "sent") for an address, their times into at[]; how many. */
static int sink_times(const char *log, const char *kind, const char *addr, const char *event, long long *at, int max)
{
	FILE *f = fopen(log, "r");
	char line[512], k[16], a[128], ev[32];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && n < max) {
		long long ms;
		if (strcmp(kind, "rcpt") == 0 && sscanf(line, "%15s %127s %lld", k, a, &ms) == 3 &&
		    strcmp(k, "rcpt") == 0 && strcmp(a, addr) == 0)
			at[n++] = ms;
		else if (strcmp(kind, "sent") == 0 && sscanf(line, "%15s %127s %31s %lld", k, a, ev, &ms) == 4 &&
			 strcmp(k, "sent") == 0 && strcmp(a, addr) == 0 && (!event || strcmp(ev, event) == 0))
			at[n++] = ms;
	}
	fclose(f);
	return n;
}

/*
 * Several destinations at once: the SMTP server hangs on Ann's first message
 * (the notifier gives up after 4 s); Bob's invitations, the one queued with
 * it and one of a game made while it hangs, go out at once, and Ann's second
 * message waits for her first (one address, one delivery at a time, in order).
 */
static void test_delivery__hung_destination_holds_up_only_its_own(void)
{
	struct env E;
	struct err e = {0};
	char portfile[128], log[128], url[64], script[512];
	long long bob[4], ann_rcpt[4], ann_sent[4], started, second_game;
	int port = 0, nb = 0;
	int64_t id;
	pid_t pid;
	const char *srcdir = getenv("TOP_SRCDIR");

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	snprintf(portfile, sizeof(portfile), "%s/port", E.dir);
	snprintf(log, sizeof(log), "%s/sink.log", E.dir);
	snprintf(script, sizeof(script), "%s/tests/notify/slow_smtp.py", srcdir && *srcdir ? srcdir : "..");
	pid = fork();
	if (pid == 0) {
		execl("/usr/bin/python3", "python3", script, portfile, log, "ann@example.org", "6", (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 500 && port == 0; i++) {
		FILE *f = fopen(portfile, "r");
		if (f) {
			if (fscanf(f, "%d", &port) != 1)
				port = 0;
			fclose(f);
		}
		if (!port)
			sleep_ms(10);
	}
	CU_ASSERT_FATAL(port > 0);
	snprintf(url, sizeof(url), "smtp://127.0.0.1:%d", port);
	E.cfg.transport = NOTIFY_SMTP;
	E.cfg.smtp_url = url;
	E.cfg.timeout_ms = 4000;
	E.cfg.backoff_ms = 60 * 1000;
	E.cfg.tick_ms = 50;
	CU_ASSERT_EQUAL_FATAL(notify_new(&E.cfg, E.st, &E.n, &e), 0);

	/* invitations, then a turn each: Ann has a "your turn" queued after her invitation */
	id = new_game(&E);
	CU_ASSERT_EQUAL(submit(&E, id, 0, "add 1", "end"), 0);
	CU_ASSERT_EQUAL(submit(&E, id, 1, "add 1", "end"), 0);
	started = clock_now_ms();
	CU_ASSERT_EQUAL_FATAL(notify_start(E.n, &e), 0);
	notify_wake(E.n);
	for (int i = 0; i < 300 && sink_times(log, "sent", "bob@example.org", "invite", bob, 4) < 1; i++)
		sleep_ms(10);
	CU_ASSERT_EQUAL_FATAL(sink_times(log, "sent", "bob@example.org", "invite", bob, 4), 1);
	CU_ASSERT(bob[0] - started < 2000);

	/* while Ann's still hangs, a new game: Bob's invitation does not wait for it either */
	sleep_ms(200);
	second_game = clock_now_ms();
	new_game(&E);
	notify_wake(E.n);
	for (int i = 0; i < 300 && (nb = sink_times(log, "sent", "bob@example.org", "invite", bob, 4)) < 2; i++)
		sleep_ms(10);
	CU_ASSERT_EQUAL_FATAL(nb, 2);
	CU_ASSERT(bob[1] - second_game < 2000);
	CU_ASSERT(bob[1] - started < 4000); /* before Ann's first message was given up */

	/* Ann's: the first is given up after 4 s, then her turn and her second invitation, one after the other */
	for (int i = 0; i < 1200 && sink_times(log, "sent", "ann@example.org", NULL, ann_sent, 4) < 2; i++)
		sleep_ms(10);
	CU_ASSERT_EQUAL(sink_times(log, "sent", "ann@example.org", NULL, ann_sent, 4), 2);
	CU_ASSERT_EQUAL_FATAL(sink_times(log, "rcpt", "ann@example.org", NULL, ann_rcpt, 4), 3);
	CU_ASSERT(ann_rcpt[1] - ann_rcpt[0] >= 3900);
	CU_ASSERT(ann_rcpt[2] >= ann_rcpt[1]);
	CU_ASSERT_EQUAL(sink_times(log, "sent", "ann@example.org", "your_turn", ann_sent, 4), 1);
	CU_ASSERT(ann_sent[0] <= ann_rcpt[2]); /* the turn went before the later invitation began */
	notify_stop(E.n);
	/* the hung one waits for its retry; nothing is dead */
	CU_ASSERT_EQUAL(count_state(&E, "dead"), 0);
	CU_ASSERT_EQUAL(count_state(&E, "pending"), 1);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	env_close(&E);
}

static CU_TestInfo cases[] = {
	{ "test_delivery__signed_and_scheduled_at_attempt", test_delivery__signed_and_scheduled_at_attempt },
	{ "test_delivery__hung_destination_holds_up_only_its_own", test_delivery__hung_destination_holds_up_only_its_own },
	CU_TEST_INFO_NULL
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
	TESTS_SUITE("delivery", suite_init, NULL, cases);
	return 0;
}
