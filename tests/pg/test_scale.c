/* tests/pg/test_scale.c: two turnpostd daemons on one PostgreSQL database under load, killed, and whole games */
/* SPDX-License-Identifier: MIT */
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "../fake_game.h"
#include "../http/httptest.h"
#include "engine/engine.h"
#include "engine/registry.h"
#include "engine/rng.h"
#include "notify/notify.h"
#include "store/store.h"
#include "testutil.h"

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- a webhook receiver that counts the accepted deliveries of each webhook-id ---- */

#define HOOK_MAX 4096

static struct hook {
	struct MHD_Daemon *d;
	char url[64];
	pthread_mutex_t lock;
	char ids[HOOK_MAX][48];
	int nids; /* deliveries accepted (a repeated id counts again) */
} hook = { .lock = PTHREAD_MUTEX_INITIALIZER };

static enum MHD_Result hook_handler(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				    const char *version, const char *data, size_t *size, void **req_cls)
{
	static int first;
	struct MHD_Response *resp;
	const char *id;
	enum MHD_Result ret;

	(void)cls, (void)url, (void)method, (void)version, (void)data;
	if (!*req_cls) {
		*req_cls = &first;
		return MHD_YES;
	}
	if (*size) {
		*size = 0;
		return MHD_YES;
	}
	id = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "webhook-id");
	pthread_mutex_lock(&hook.lock);
	if (id && hook.nids < HOOK_MAX)
		snprintf(hook.ids[hook.nids++], sizeof(hook.ids[0]), "%s", id);
	pthread_mutex_unlock(&hook.lock);
	resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
	ret = MHD_queue_response(conn, 204, resp);
	MHD_destroy_response(resp);
	return ret;
}

static int hook_start(void)
{
	const union MHD_DaemonInfo *info;

	hook.d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG,
				  0, NULL, NULL, hook_handler, NULL, MHD_OPTION_END);
	if (!hook.d)
		return -1;
	info = MHD_get_daemon_info(hook.d, MHD_DAEMON_INFO_BIND_PORT);
	if (!info || !info->port)
		return -1;
	snprintf(hook.url, sizeof(hook.url), "http://127.0.0.1:%d/hook", info->port);
	return 0;
}

/* How many accepted deliveries carried id. */
static int hook_count(const char *id)
{
	int n = 0;

	pthread_mutex_lock(&hook.lock);
	for (int i = 0; i < hook.nids; i++)
		n += strcmp(hook.ids[i], id) == 0;
	pthread_mutex_unlock(&hook.lock);
	return n;
}

/* ---- the two daemons, one of which the test kills and starts again ---- */

#define SECRET "whsec_dGVzdC1zZWNyZXQtZm9yLXRoZS1zY2FsZS10ZXN0cw=="

static struct ht_daemon a, b;
static pthread_mutex_t daemons_lock = PTHREAD_MUTEX_INITIALIZER;
static int a_up;
static char db[512];
static struct store *st;
static char admin_token[64];
static const char *hook_args[] = { "--mail-transport", "webhook", "--webhook-url", hook.url, "--webhook-secret",
				   SECRET, NULL };

static int suite_init(void)
{
	struct buf out = BUF_INIT;
	struct err e = {0};
	int rc;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	/* the notifier of this process composes mails of the daemons' test game */
	registry_add_for_tests(&fake_game);
	if (hook_start() < 0 || ht_pg_database(db, sizeof(db)) != 0)
		return -1;
	if (ht_start_db(&a, db, hook_args) < 0 || ht_start_db(&b, db, hook_args) < 0)
		return -1;
	a_up = 1;
	rc = ht_cli(&a, "user add admin@example.org --name Admin --admin", &out);
	ht_last_line(&out, admin_token, sizeof(admin_token));
	buf_release(&out);
	if (rc != 0 || strncmp(admin_token, "tp_", 3) != 0)
		return -1;
	return store_open(db, NULL, &st, &e) < 0 ? -1 : 0;
}

static int suite_clean(void)
{
	store_close(st);
	ht_cleanup(&a);
	ht_cleanup(&b);
	if (hook.d)
		MHD_stop_daemon(hook.d);
	curl_global_cleanup();
	return 0;
}

/* A copy of daemon which (0: a, 1: b) to talk to; 0, or -1 while a is down. */
static int daemon_get(int which, struct ht_daemon *out)
{
	int up;

	pthread_mutex_lock(&daemons_lock);
	*out = which ? b : a;
	up = which || a_up;
	pthread_mutex_unlock(&daemons_lock);
	return up ? 0 : -1;
}

/* A game made by the admin through daemon b: its id, and its seats' tokens (up to 4). */
static int64_t new_game(const char *game, int players, const char *options, char tokens[][64])
{
	static const char *const names[] = { "Ann", "Bob", "Cid", "Dee" };
	json_t *req = json_pack("{s:s,s:[]}", "game", game, "players");
	struct ht_resp r;
	char *body;
	int64_t id = 0;

	for (int i = 0; i < players; i++) {
		char email[64];
		snprintf(email, sizeof(email), "%s@example.org", names[i]);
		json_array_append_new(json_object_get(req, "players"), json_pack("{s:s,s:s}", "name", names[i], "email",
										   email));
	}
	if (options)
		json_object_set_new(req, "options", json_loads(options, 0, NULL));
	body = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	if (ht_request(&b, "POST", "/api/v1/games", admin_token, NULL, body, strlen(body), &r) == 0 &&
	    r.status == 201) {
		json_t *seats = json_object_get(r.json, "seats");
		id = json_integer_value(json_object_get(r.json, "id"));
		for (int i = 0; i < players; i++) {
			const char *tok = json_string_value(json_object_get(json_array_get(seats, (size_t)i), "token"));
			snprintf(tokens[i], 64, "%s", tok ? tok : "");
		}
	} else {
		fprintf(stderr, "game create %s: %ld %s\n", game, r.status, r.body.data ? r.body.data : "");
	}
	ht_resp_release(&r);
	free(body);
	return id;
}

static int stored_moves(int64_t game_id, struct store_move **moves)
{
	struct store_conn *c;
	struct err e = {0};
	int n = -1;

	*moves = NULL;
	if (store_read_acquire(st, &c, &e) < 0)
		return -1;
	if (store_moves_list(c, game_id, 0, moves, &n, &e) < 0)
		n = -1;
	store_read_release(c);
	return n;
}

/* ---- SIGKILL under load ---- */

#define LOAD_CLIENTS 6
#define KILLS 3

static atomic_int load_stop;
static atomic_int epoch; /* how many times a was killed so far */

struct client {
	int64_t game;
	char tokens[2][64];
	int turns;       /* turns acknowledged (200) */
	int unknown;     /* requests whose answer was lost (a killed daemon, a 503), sent again */
	int stale;       /* 412 although the retry had the same Idempotency-Key: should never happen */
	int other;       /* any other answer */
	int b_down;      /* b (never killed) did not answer at all */
	int b_ok[KILLS + 1]; /* b's 200s in each stretch between two kills */
	int a_ok[KILLS + 1]; /* and a's */
};

/*
 * One client: whole turns (add 1, end) of its own game with If-Match and
 * an Idempotency-Key per turn, alternating daemons; an answer lost to a
 * kill (or a 503) is asked again, with the same key, of the other daemon
 * until it is known. So a turn is acknowledged once, and stored once.
 */
static void *client_main(void *arg)
{
	struct client *cl = arg;
	char path[64], match[40], key[80];
	const char *headers[] = { match, key, "Prefer: return=minimal", NULL };
	const char *body = "{\"moves\":[\"add 1\",\"end\"]}";
	int n = 0, which = 0;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)cl->game);
	while (!atomic_load(&load_stop)) {
		int done = 0;

		snprintf(match, sizeof(match), "If-Match: \"%d\"", n);
		snprintf(key, sizeof(key), "Idempotency-Key: g%lld-n%d", (long long)cl->game, n);
		for (int attempt = 0; !done && attempt < 400; attempt++) {
			struct ht_daemon d;
			struct ht_resp r;
			int e = atomic_load(&epoch);

			which ^= 1;
			if (daemon_get(which, &d) < 0)
				continue;
			if (ht_request(&d, "POST", path, cl->tokens[(n / 2) % 2], headers, body, strlen(body), &r) != 0) {
				cl->unknown++;
				cl->b_down += which == 1;
				continue;
			}
			if (r.status == 200) {
				n += 2;
				cl->turns++;
				if (which == 1)
					cl->b_ok[e < KILLS ? e : KILLS]++;
				else
					cl->a_ok[e < KILLS ? e : KILLS]++;
				done = 1;
			} else if (r.status == 503) {
				/* a killed daemon's partner, or the database restarting: up to 8 s of 503s per turn */
				cl->unknown++;
				pause_ms(20);
			} else if (r.status == 412) {
				cl->stale++;
				done = -1;
			} else {
				fprintf(stderr, "game %lld, move %d: %ld %s\n", (long long)cl->game, n, r.status,
					r.body.data ? r.body.data : "");
				cl->other++;
				done = -1;
			}
			ht_resp_release(&r);
		}
		if (done != 1)
			break;
	}
	return NULL;
}

/* Pending notifications in all, and how many of them are leased (claimed by a notifier). */
static int pending_rows(int64_t now, int *leased)
{
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	struct err e = {0};
	int n = 0, due = 0;

	*leased = 0;
	if (store_read_acquire(st, &c, &e) < 0)
		return -1;
	if (store_outbox_list(c, "pending", 0, 100000, &rows, &n, &e) < 0)
		n = -1;
	if (n > 0 && store_outbox_due(c, now, &due, &e) == 0)
		*leased = due ? 0 : n;
	store_read_release(c);
	store_outbox_rows_free(rows, n > 0 ? n : 0);
	return n;
}

/*
 * Two daemons on one database, clients posting turns to both and the
 * notifications going to a webhook receiver; daemon a is killed with
 * SIGKILL several times under the load and started again. Afterwards
 * every acknowledged turn is stored once (and nothing else is), every
 * notification is delivered (the rows the killed daemon had claimed by
 * another notifier once their lease ran out), a delivery is repeated only
 * when a kill cut it off between the receiver's answer and its record,
 * verify passes, and b served all along.
 */
static void test_scale__sigkill_under_load(void)
{
	static struct client cl[LOAD_CLIENTS];
	pthread_t t[LOAD_CLIENTS];
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	struct notify *n = NULL;
	struct buf out = BUF_INIT;
	struct err e = {0};
	int nrows = 0, leased = 0, pending, turns = 0, sent = 0, missing = 0, repeats = 0, unknown = 0, ids = 0;

	for (int i = 0; i < LOAD_CLIENTS; i++) {
		cl[i] = (struct client){ 0 };
		cl[i].game = new_game("counting-race", 2, "{\"target\":1000}", cl[i].tokens);
		CU_ASSERT_FATAL(cl[i].game > 0);
	}
	atomic_store(&load_stop, 0);
	atomic_store(&epoch, 0);
	for (int i = 0; i < LOAD_CLIENTS; i++)
		pthread_create(&t[i], NULL, client_main, &cl[i]);
	for (int k = 0; k < KILLS; k++) {
		struct ht_daemon again;

		pause_ms(700 + 250 * k);
		pthread_mutex_lock(&daemons_lock);
		a_up = 0;
		pthread_mutex_unlock(&daemons_lock);
		/* a's clients may still be talking to it: the kill cuts them off wherever they are */
		CU_ASSERT_EQUAL(ht_stop(&a, SIGKILL), 128 + SIGKILL);
		atomic_fetch_add(&epoch, 1);
		again = a;
		CU_ASSERT_EQUAL_FATAL(ht_restart(&again), 0);
		pthread_mutex_lock(&daemons_lock);
		a = again;
		a_up = 1;
		pthread_mutex_unlock(&daemons_lock);
	}
	pause_ms(700);
	atomic_store(&load_stop, 1);
	for (int i = 0; i < LOAD_CLIENTS; i++) {
		struct store_move *moves = NULL;
		int stored;

		pthread_join(t[i], NULL);
		CU_ASSERT_EQUAL(cl[i].stale, 0);
		CU_ASSERT_EQUAL(cl[i].other, 0);
		CU_ASSERT_EQUAL(cl[i].b_down, 0);
		turns += cl[i].turns;
		unknown += cl[i].unknown;
		/* each acknowledged turn stored once, in order, and nothing else */
		stored = stored_moves(cl[i].game, &moves);
		CU_ASSERT_EQUAL(stored, 2 * cl[i].turns);
		for (int m = 0; m < stored; m++) {
			CU_ASSERT_EQUAL(moves[m].n, m + 1);
			CU_ASSERT_STRING_EQUAL(moves[m].text, m % 2 ? "end" : "add 1");
			CU_ASSERT_EQUAL(moves[m].seat, (m / 2) % 2);
		}
		store_moves_free(moves, stored > 0 ? stored : 0);
	}
	fprintf(stderr, "  %d turns acknowledged, %d answers lost to %d kills and asked again\n", turns, unknown,
		KILLS);
	CU_ASSERT(turns >= 5 * LOAD_CLIENTS);
	/* b kept serving between the kills */
	for (int k = 0; k <= KILLS; k++) {
		int ok = 0;
		for (int i = 0; i < LOAD_CLIENTS; i++)
			ok += cl[i].b_ok[k];
		CU_ASSERT(ok > 0);
	}
	/*
	 * The daemons' notifiers deliver what is due (until nothing has
	 * changed for a second); the killed ones' claims wait for their lease.
	 * Then both stop, so that nothing they hold is in flight when another
	 * notifier takes the rows whose lease ran out.
	 */
	for (int i = 0, last = -1, still = 0; i < 600 && still < 10; i++) {
		pending = pending_rows(now_ms(), &leased);
		still = pending == last && pending == leased ? still + 1 : 0;
		last = pending;
		pause_ms(100);
	}
	fprintf(stderr, "  %d notifications left claimed by the killed daemon\n", leased);
	/* b never stopped (its clients' requests never went unanswered, above) */
	CU_ASSERT_EQUAL(kill(b.pid, 0), 0);
	CU_ASSERT_NOT_EQUAL(ht_stop(&a, SIGTERM), -1);
	CU_ASSERT_NOT_EQUAL(ht_stop(&b, SIGTERM), -1);
	/* ... which another notifier delivers once the lease ran out (ten minutes on: the clock injected) */
	{
		struct notify_config cfg = { .transport = NOTIFY_WEBHOOK, .webhook_url = hook.url,
					     .webhook_secret = SECRET };
		CU_ASSERT_EQUAL_FATAL(notify_new(&cfg, st, &n, &e), 0);
		for (int i = 0; i < 10 && pending_rows(now_ms(), &leased) > 0; i++)
			CU_ASSERT_EQUAL(notify_run_once(n, now_ms() + 11 * 60 * 1000, NULL, &e), 0);
		notify_free(n);
	}
	CU_ASSERT_EQUAL(pending_rows(now_ms(), &leased), 0);
	/* every notification sent is delivered, none sent is lost; a delivery repeats only when cut off by a kill */
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_outbox_list(c, NULL, 0, 100000, &rows, &nrows, &e), 0);
	store_read_release(c);
	for (int i = 0; i < nrows; i++) {
		char id[48];
		int count;

		snprintf(id, sizeof(id), "msg_%s", rows[i].uid);
		count = hook_count(id);
		ids += count > 0;
		CU_ASSERT_STRING_NOT_EQUAL(rows[i].state, "dead");
		if (strcmp(rows[i].state, "sent") == 0) {
			sent++;
			missing += count == 0;
		}
		repeats += count > 1 ? count - 1 : 0;
	}
	fprintf(stderr, "  %d notifications, %d sent, %d deliveries repeated\n", nrows, sent, repeats);
	CU_ASSERT(sent > 0);
	CU_ASSERT_EQUAL(missing, 0);
	CU_ASSERT(repeats <= KILLS);
	/* nothing delivered that is not a notification of the outbox (and, at most once a kill, no longer sent) */
	pthread_mutex_lock(&hook.lock);
	CU_ASSERT_EQUAL(hook.nids - repeats, ids);
	CU_ASSERT(ids - sent <= KILLS);
	pthread_mutex_unlock(&hook.lock);
	store_outbox_rows_free(rows, nrows);
	CU_ASSERT_EQUAL(ht_cli(&b, "verify", &out), 0);
	if (out.data && strstr(out.data, "FAIL"))
		fprintf(stderr, "%s\n", out.data);
	buf_release(&out);
}

/*
 * PostgreSQL itself restarts (pg_ctl restart -m fast) while clients post
 * turns to both daemons: the daemons answer 503 while it is away and serve
 * again when it is back, without being restarted; every acknowledged turn
 * is stored once and nothing else is, and verify passes.
 */
static void test_scale__postgres_restart_under_load(void)
{
	static struct client cl[LOAD_CLIENTS];
	const char *ctl = getenv("TURNPOST_TEST_PG_CTL");
	pthread_t t[LOAD_CLIENTS];
	pid_t pa = a.pid, pb = b.pid;
	struct buf out = BUF_INIT;
	struct err e = {0};
	char cmd[1024];
	int turns = 0, unknown = 0, a_after = 0, b_after = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ctl);
	for (int i = 0; i < LOAD_CLIENTS; i++) {
		cl[i] = (struct client){ 0 };
		cl[i].game = new_game("counting-race", 2, "{\"target\":1000}", cl[i].tokens);
		CU_ASSERT_FATAL(cl[i].game > 0);
	}
	atomic_store(&load_stop, 0);
	atomic_store(&epoch, 0);
	for (int i = 0; i < LOAD_CLIENTS; i++)
		pthread_create(&t[i], NULL, client_main, &cl[i]);
	pause_ms(700);
	snprintf(cmd, sizeof(cmd), "%s -m fast -w restart >/dev/null", ctl);
	CU_ASSERT_EQUAL(system(cmd), 0);
	atomic_fetch_add(&epoch, 1);
	/* this process's own connection went with the restart: the test opens a new one (the daemons reconnect) */
	store_close(st);
	st = NULL;
	CU_ASSERT_EQUAL_FATAL(store_open(db, NULL, &st, &e), 0);
	pause_ms(1500);
	atomic_store(&load_stop, 1);
	for (int i = 0; i < LOAD_CLIENTS; i++) {
		struct store_move *moves = NULL;
		int stored;

		pthread_join(t[i], NULL);
		CU_ASSERT_EQUAL(cl[i].stale, 0);
		CU_ASSERT_EQUAL(cl[i].other, 0);
		CU_ASSERT_EQUAL(cl[i].b_down, 0);
		turns += cl[i].turns;
		unknown += cl[i].unknown;
		a_after += cl[i].a_ok[1];
		b_after += cl[i].b_ok[1];
		stored = stored_moves(cl[i].game, &moves);
		CU_ASSERT_EQUAL(stored, 2 * cl[i].turns);
		for (int m = 0; m < stored; m++)
			CU_ASSERT_EQUAL(moves[m].n, m + 1);
		store_moves_free(moves, stored > 0 ? stored : 0);
	}
	fprintf(stderr, "  %d turns acknowledged, %d answers 503 or lost while the database restarted; "
		"after it: %d turns by a, %d by b\n", turns, unknown, a_after, b_after);
	/* both daemons served again after the restart, and neither was restarted */
	CU_ASSERT(a_after > 0);
	CU_ASSERT(b_after > 0);
	CU_ASSERT_EQUAL(a.pid, pa);
	CU_ASSERT_EQUAL(b.pid, pb);
	CU_ASSERT_EQUAL(kill(pa, 0), 0);
	CU_ASSERT_EQUAL(kill(pb, 0), 0);
	CU_ASSERT_EQUAL(ht_cli(&b, "verify", &out), 0);
	buf_release(&out);
}

/* ---- whole games across the two daemons ---- */

struct full_game {
	const char *game;
	int players;
	int64_t id;
	char tokens[4][64];
	uint64_t seed;
	int steps, finished, failures;
};

/*
 * The step the greedy bot (level 1) makes in the stored position: its
 * seat and text (new). Random legal steps do not end every game (two
 * random players of Space Station Phoenix may play on for ever), greedy
 * bots do. 0, or -1 when the game is over or on failure.
 */
static int bot_step(struct full_game *g, int *seat, char **text)
{
	const struct game_ops *ops = registry_find(g->game);
	struct store_conn *c;
	struct store_game row = {0};
	struct store_move head = {0};
	struct engine_game eg = {0};
	struct game_pending p;
	struct buf out = BUF_INIT;
	struct err e = {0};
	struct rng r;
	void *move = NULL;
	int rc = -1;

	*text = NULL;
	*seat = -1;
	if (!ops || store_read_acquire(st, &c, &e) < 0)
		return -1;
	if (store_game_get(c, g->id, &row, &e) == 0 && row.move_count == g->steps)
		rc = store_move_get(c, g->id, row.move_count, &head, &e);
	store_read_release(c);
	if (rc < 0 || engine_game_decode(ops, head.snapshot, &eg, &e) < 0)
		goto done;
	rc = -1;
	engine_game_pending(&eg, &p);
	for (int s = 0; s < g->players && *seat < 0; s++)
		if ((p.seats >> s) & 1u)
			*seat = s;
	rng_seed(&r, g->seed + (uint64_t)g->steps);
	if (*seat < 0 || ops->bot(eg.state, *seat, 1, &r, &move, &e) < 0 || ops->format(eg.state, move, &out, &e) < 0)
		goto done;
	*text = buf_detach(&out, NULL);
	rc = 0;
done:
	if (rc < 0 && e.msg[0])
		fprintf(stderr, "%s: the bot at move %d: %s\n", g->game, g->steps, e.msg);
	if (move)
		ops->move_free(move);
	buf_release(&out);
	engine_game_release(&eg);
	store_move_release(&head);
	store_game_release(&row);
	return rc;
}

/*
 * Play one game to its end, a step at a time: the bot's step for the
 * position stored, the seat's legal steps read from one daemon (which must
 * have seen the last step, made through the other, and list the bot's
 * step), the step posted to the other daemon with If-Match. So each
 * daemon's caches must follow the other's writes at every step.
 */
static void *full_game_main(void *arg)
{
	struct full_game *g = arg;
	char game_path[64], legal_path[80], moves_path[80];
	struct ht_resp r;

	snprintf(game_path, sizeof(game_path), "/api/v1/games/%lld", (long long)g->id);
	snprintf(legal_path, sizeof(legal_path), "%s/legal", game_path);
	snprintf(moves_path, sizeof(moves_path), "%s/moves", game_path);
	for (int step = 0; step < 5000 && !g->finished && !g->failures; step++) {
		const struct ht_daemon *rd = step % 2 ? &a : &b, *wr = step % 2 ? &b : &a;
		char *text = NULL, *body, match[40];
		const char *headers[] = { match, "Prefer: return=minimal", NULL };
		json_t *req;
		int seat, listed = 0;

		if (bot_step(g, &seat, &text) < 0) {
			g->failures++;
			break;
		}
		if (ht_request(rd, "GET", legal_path, g->tokens[seat], NULL, NULL, 0, &r) != 0 || r.status != 200) {
			g->failures++;
		} else if (json_integer_value(json_object_get(r.json, "move_count")) != g->steps) {
			/* the other daemon's last write not seen */
			fprintf(stderr, "%s: move_count %lld, %d steps made\n", g->game,
				(long long)json_integer_value(json_object_get(r.json, "move_count")), g->steps);
			g->failures++;
		} else {
			json_t *moves = json_object_get(r.json, "moves");
			for (size_t i = 0; i < json_array_size(moves); i++)
				listed |= strcmp(json_string_value(json_array_get(moves, i)), text) == 0;
			if (!listed) {
				fprintf(stderr, "%s: the bot's step \"%s\" is not among seat %d's %zu legal steps at move %d\n",
					g->game, text, seat, json_array_size(moves), g->steps);
				g->failures++;
			}
		}
		ht_resp_release(&r);
		if (g->failures) {
			free(text);
			break;
		}
		req = json_pack("{s:[s]}", "moves", text);
		body = json_dumps(req, JSON_COMPACT);
		snprintf(match, sizeof(match), "If-Match: \"%d\"", g->steps);
		if (ht_request(wr, "POST", moves_path, g->tokens[seat], headers, body, strlen(body), &r) == 0 &&
		    r.status == 200) {
			const char *status = json_string_value(json_object_get(r.json, "status"));
			g->steps = (int)json_integer_value(json_object_get(r.json, "move_count"));
			g->finished = status && strcmp(status, "finished") == 0;
		} else {
			fprintf(stderr, "%s: step %d \"%s\" of seat %d: %ld %s\n", g->game, g->steps, text, seat, r.status,
				r.body.data ? r.body.data : "");
			g->failures++;
		}
		ht_resp_release(&r);
		json_decref(req);
		free(body);
		free(text);
	}
	return NULL;
}

/*
 * A whole game of each of the three games, played by greedy bots with the
 * requests alternating the two daemons; at the end both give the same answers
 * (the game as each seat sees it, its steps) and verify passes.
 */
static void test_scale__full_games_across_daemons(void)
{
	struct full_game games[] = {
		{ "alien-frontiers", 2, 0, { "" }, 0x2545F491u, 0, 0, 0 },
		{ "space-station-phoenix", 2, 0, { "" }, 0x9E3779B97F4A7C15ull, 0, 0, 0 },
		{ "starship-merchants", 2, 0, { "" }, 0x85EBCA6Bu, 0, 0, 0 },
	};
	const int ngames = (int)(sizeof(games) / sizeof(games[0]));
	pthread_t t[3];

	for (int i = 0; i < ngames; i++) {
		games[i].id = new_game(games[i].game, games[i].players, NULL, games[i].tokens);
		CU_ASSERT_FATAL(games[i].id > 0);
	}
	for (int i = 0; i < ngames; i++)
		pthread_create(&t[i], NULL, full_game_main, &games[i]);
	for (int i = 0; i < ngames; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < ngames; i++) {
		struct full_game *g = &games[i];
		char path[80], args[64];
		struct buf out = BUF_INIT;

		fprintf(stderr, "  %s: %d steps, %s\n", g->game, g->steps, g->finished ? "finished" : "not finished");
		CU_ASSERT_EQUAL(g->failures, 0);
		CU_ASSERT_EQUAL(g->finished, 1);
		/* the same answers from both daemons, for every seat */
		for (int s = 0; s < g->players; s++) {
			const char *const kinds[] = { "", "/moves", "/legal" };
			for (int k = 0; k < 3; k++) {
				struct ht_resp ra, rb;
				snprintf(path, sizeof(path), "/api/v1/games/%lld%s", (long long)g->id, kinds[k]);
				CU_ASSERT_EQUAL_FATAL(ht_request(&a, "GET", path, g->tokens[s], NULL, NULL, 0, &ra), 0);
				CU_ASSERT_EQUAL_FATAL(ht_request(&b, "GET", path, g->tokens[s], NULL, NULL, 0, &rb), 0);
				CU_ASSERT_EQUAL(ra.status, 200);
				CU_ASSERT_EQUAL(ra.status, rb.status);
				CU_ASSERT(ra.json && rb.json && json_equal(ra.json, rb.json));
				CU_ASSERT_STRING_EQUAL(ra.etag, rb.etag);
				ht_resp_release(&ra);
				ht_resp_release(&rb);
			}
		}
		snprintf(args, sizeof(args), "verify %lld", (long long)g->id);
		CU_ASSERT_EQUAL(ht_cli(&a, args, &out), 0);
		buf_release(&out);
	}
}

static CU_TestInfo scale_cases[] = {
	{ "test_scale__full_games_across_daemons", test_scale__full_games_across_daemons },
	{ "test_scale__postgres_restart_under_load", test_scale__postgres_restart_under_load },
	{ "test_scale__sigkill_under_load", test_scale__sigkill_under_load },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	const char *pg = getenv("TURNPOST_TEST_PG");

	if (!pg || !*pg) {
		/* run again under a cluster of its own (run.sh skips, saying why, without PostgreSQL) */
		const char *top = getenv("TOP_SRCDIR");
		char run[512], self[512];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n <= 0)
			return -1;
		self[n] = '\0';
		snprintf(run, sizeof(run), "%s/tests/pg/run.sh", top && *top ? top : ".");
		fflush(NULL);
		execl("/bin/sh", "sh", run, self, (char *)NULL);
		fprintf(stderr, "cannot run %s\n", run);
		return -1;
	}
	TESTS_SUITE("scale", suite_init, suite_clean, scale_cases);
	return 0;
}
