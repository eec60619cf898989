/* tests/unit/test_group.c: CUnit suite for group commit (store_write_grouped and submit_steps under concurrency) */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/create.h"
#include "engine/replay.h"
#include "engine/submit.h"
#include "engine/views.h"
#include "engine/registry.h"
#include "fake_game.h"
#include "store/store.h"
#include "testutil.h"
#include "util/token.h"
#include "util/banned.h"

#define NTHREADS 12

static char dir[64];
static char path[128];
static struct store *st;
/* a second store on the same file: its own connections see only what is committed */
static struct store *other;

static int suite_init(void)
{
	struct err e = {0};

	snprintf(dir, sizeof(dir), "/tmp/tp-group-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", dir);
	token_init();
	registry_add_for_tests(&fake_game);
	if (store_open(path, NULL, &st, &e) < 0 || store_open(path, NULL, &other, &e) < 0)
		return -1;
	return 0;
}

static int suite_clean(void)
{
	char cmd[160];

	store_close(other);
	store_close(st);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Reopen the database from the file alone and give the move count of a game (-1 when unreadable). */
static int durable_move_count(struct store *s, int64_t id)
{
	struct err e = {0};
	int n = -1;

	if (views_move_count(s, id, &n, &e) < 0)
		return -1;
	return n;
}

static int user_exists(struct store *s, const char *email)
{
	struct store_conn *c;
	struct store_user u = {0};
	struct err e = {0};
	int rc;

	if (store_read_acquire(s, &c, &e) < 0)
		return -1;
	rc = store_user_by_email(c, email, &u, &e);
	store_read_release(c);
	store_user_release(&u);
	return rc == 0;
}

/* ---- store level ---- */

struct user_job {
	pthread_barrier_t *start;
	int i;
	int fail;      /* 1: add a user, then fail with ERR_ILLEGAL; 2: add a user, then a duplicate */
	int rc;
	int visible;   /* seen by the other store right after the acknowledgement */
	struct err e;
};

static int add_user_fn(struct store_conn *c, void *ctx, struct err *err)
{
	struct user_job *j = ctx;
	char email[64];
	int64_t id;
	int rc;

	snprintf(email, sizeof(email), "u%d@example.org", j->i);
	if ((rc = store_user_add(c, email, "U", 0, &id, err)) < 0)
		return rc;
	/* hold the writer a moment so the other threads queue up behind it and share the commit */
	sleep_ms(2);
	if (j->fail == 1)
		return err_set(err, ERR_ILLEGAL, "refused after writing");
	if (j->fail == 2)
		return store_user_add(c, "first@example.org", "dup", 0, &id, err);
	return 0;
}

static int ok_fn(struct store_conn *c, void *ctx, struct err *err)
{
	int64_t id;

	return store_user_add(c, (const char *)ctx, "B", 0, &id, err);
}

static void *user_thread(void *arg)
{
	struct user_job *j = arg;
	char email[64];

	pthread_barrier_wait(j->start);
	j->rc = store_write_grouped(st, add_user_fn, j, &j->e);
	snprintf(email, sizeof(email), "u%d@example.org", j->i);
	if (j->rc == 0)
		j->visible = user_exists(other, email);
	return NULL;
}

static void test_group__store_writes_share_commits(void)
{
	pthread_t th[NTHREADS];
	struct user_job jobs[NTHREADS];
	pthread_barrier_t start;
	uint64_t c0, w0, c1, w1;
	char email[64];

	{
		struct err e = {0};
		CU_ASSERT_EQUAL(store_write_grouped(st, ok_fn, "first@example.org", &e), 0);
	}
	store_write_group_stats(st, &c0, &w0);
	pthread_barrier_init(&start, NULL, NTHREADS);
	memset(jobs, 0, sizeof(jobs));
	for (int i = 0; i < NTHREADS; i++) {
		jobs[i].start = &start;
		jobs[i].i = i;
		/* two members in the middle of the group fail: one on its own, one on a constraint */
		jobs[i].fail = i == 5 ? 1 : i == 7 ? 2 : 0;
		pthread_create(&th[i], NULL, user_thread, &jobs[i]);
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	store_write_group_stats(st, &c1, &w1);

	for (int i = 0; i < NTHREADS; i++) {
		snprintf(email, sizeof(email), "u%d@example.org", i);
		if (i == 5) {
			CU_ASSERT_EQUAL(jobs[i].rc, ERR_ILLEGAL);
			ASSERT_STR_EQ(jobs[i].e.msg, "refused after writing");
		} else if (i == 7) {
			CU_ASSERT_EQUAL(jobs[i].rc, ERR_CONFLICT);
		} else {
			CU_ASSERT_EQUAL(jobs[i].rc, 0);
			/* acknowledged only once committed: another connection sees it at once */
			CU_ASSERT_EQUAL(jobs[i].visible, 1);
		}
		/* the failed members' first inserts were undone with their savepoints */
		CU_ASSERT_EQUAL(user_exists(st, email), i != 5 && i != 7);
	}
	CU_ASSERT_EQUAL(w1 - w0, NTHREADS - 2);
	/* the writers queued behind the sleeping one shared commits */
	CU_ASSERT(c1 - c0 < w1 - w0);
	CU_ASSERT(c1 - c0 >= 1);
}

static int fail_fn(struct store_conn *c, void *ctx, struct err *err)
{
	int64_t id;
	int rc;

	(void)ctx;
	if ((rc = store_user_add(c, "alone@example.org", "A", 0, &id, err)) < 0)
		return rc;
	return err_set(err, ERR_FORBIDDEN, "no");
}

static void test_group__alone_and_mixed_with_exclusive_writes(void)
{
	struct store_conn *c;
	struct err e = {0};
	int64_t id;

	/* a write alone is committed at once; a failing one alone leaves nothing */
	CU_ASSERT_EQUAL(store_write_grouped(st, fail_fn, NULL, &e), ERR_FORBIDDEN);
	CU_ASSERT_EQUAL(user_exists(other, "alone@example.org"), 0);
	CU_ASSERT_EQUAL(store_write_grouped(st, ok_fn, "solo@example.org", &e), 0);
	CU_ASSERT_EQUAL(user_exists(other, "solo@example.org"), 1);
	/* an exclusive transaction after it works as before */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_add(c, "excl@example.org", "E", 0, &id, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT_EQUAL(user_exists(other, "excl@example.org"), 1);
	/* a duplicate inside a grouped write is a conflict and changes nothing */
	CU_ASSERT_EQUAL(store_write_grouped(st, ok_fn, "excl@example.org", &e), ERR_CONFLICT);
	CU_ASSERT_EQUAL(store_write_grouped(st, ok_fn, "after@example.org", &e), 0);
	CU_ASSERT_EQUAL(user_exists(other, "after@example.org"), 1);
}

/* ---- submit_steps under concurrency ---- */

static int64_t new_game(uint64_t seed)
{
	struct create_player players[2] = { { "Ann", NULL }, { "Bob", NULL } };
	struct create_spec ng = { .game = "counting-race", .players = players, .nplayers = 2,
				    .seed = seed, .have_seed = 1, .quiet = 1 };
	struct err e = {0};
	int64_t id = 0;

	CU_ASSERT_EQUAL(create_setup(st, &ng, &id, NULL, &e), 0);
	return id;
}

struct play_job {
	pthread_barrier_t *start;
	int64_t game;
	int seat;
	int if_match;
	const char *lines[3];
	int nlines;
	int rounds;      /* submit this many times, following the game */
	int rc;          /* the last code */
	int acked;       /* steps acknowledged */
	int seen_after;  /* move count the other store saw right after the last acknowledgement */
	int failed_line;
	int json_ok;
};

static void *play_thread(void *arg)
{
	struct play_job *j = arg;

	pthread_barrier_wait(j->start);
	for (int r = 0; r < j->rounds; r++) {
		struct submit_request rq = { .game_id = j->game, .seat = j->seat, .lines = j->lines,
					  .nlines = j->nlines, .via = "api", .if_match = j->if_match };
		struct submit_outcome out;
		struct err e = {0};
		json_t *res = NULL;

		j->rc = submit_steps(st, &rq, &res, &out, &e);
		j->failed_line = out.failed_line;
		if (j->rc == 0) {
			int count = (int)json_integer_value(json_object_get(res, "move_count"));
			j->json_ok = count > 0;
			j->acked += j->nlines;
			j->seen_after = durable_move_count(other, j->game);
			if (j->if_match >= 0)
				j->if_match = count;
		}
		json_decref(res);
		if (j->rc < 0)
			break;
	}
	return NULL;
}

static void run_jobs(struct play_job *jobs, int n)
{
	pthread_t th[32];
	pthread_barrier_t start;

	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (int i = 0; i < n; i++) {
		jobs[i].start = &start;
		pthread_create(&th[i], NULL, play_thread, &jobs[i]);
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
}

static void test_group__submit_many_games_one_failing(void)
{
	struct play_job jobs[NTHREADS];
	int64_t ids[NTHREADS];

	memset(jobs, 0, sizeof(jobs));
	for (int i = 0; i < NTHREADS; i++) {
		ids[i] = new_game(100 + (uint64_t)i);
		jobs[i].game = ids[i];
		jobs[i].seat = 0;
		jobs[i].if_match = 0;
		/* seat 0 keeps the turn until "end": each thread adds to its own game, following its ETag */
		jobs[i].lines[0] = "add 1";
		jobs[i].nlines = 1;
		jobs[i].rounds = 20;
	}
	uint64_t s0, s1;

	/* one thread in the middle sends an illegal step on its second line */
	jobs[6].lines[1] = "add 9";
	jobs[6].nlines = 2;
	jobs[6].rounds = 1;
	s0 = store_sync_count(st);
	run_jobs(jobs, NTHREADS);
	s1 = store_sync_count(st);
	/* every acknowledgement waited for a sync of the log; concurrent moves shared them */
	CU_ASSERT(s1 > s0);
	CU_ASSERT(s1 - s0 <= (uint64_t)(NTHREADS - 1) * 20);
	for (int i = 0; i < NTHREADS; i++) {
		if (i == 6) {
			CU_ASSERT_EQUAL(jobs[i].rc, ERR_ILLEGAL);
			CU_ASSERT_EQUAL(jobs[i].failed_line, 2);
			CU_ASSERT_EQUAL(jobs[i].acked, 0);
			CU_ASSERT_EQUAL(durable_move_count(st, ids[i]), 0);
			continue;
		}
		CU_ASSERT_EQUAL(jobs[i].rc, 0);
		CU_ASSERT_EQUAL(jobs[i].acked, 20);
		CU_ASSERT(jobs[i].json_ok);
		/* acknowledged means committed: a separate connection already saw all of it */
		CU_ASSERT_EQUAL(jobs[i].seen_after, 20);
	}
}

static void test_group__submit_same_game_if_match(void)
{
	struct play_job jobs[NTHREADS];
	int64_t id = new_game(7);
	int wins = 0, stale = 0;

	memset(jobs, 0, sizeof(jobs));
	/* everyone races for the same step with the same If-Match: exactly one wins */
	for (int i = 0; i < NTHREADS; i++) {
		jobs[i].game = id;
		jobs[i].seat = 0;
		jobs[i].if_match = 0;
		jobs[i].lines[0] = "add 1";
		jobs[i].nlines = 1;
		jobs[i].rounds = 1;
	}
	run_jobs(jobs, NTHREADS);
	for (int i = 0; i < NTHREADS; i++) {
		wins += jobs[i].rc == 0;
		stale += jobs[i].rc == ERR_STALE;
	}
	CU_ASSERT_EQUAL(wins, 1);
	CU_ASSERT_EQUAL(stale, NTHREADS - 1);
	CU_ASSERT_EQUAL(durable_move_count(other, id), 1);

	/* without If-Match, all of them are applied one after the other on the same game */
	for (int i = 0; i < NTHREADS; i++) {
		memset(&jobs[i], 0, sizeof(jobs[i]));
		jobs[i].game = id;
		jobs[i].seat = 0;
		jobs[i].if_match = -1;
		jobs[i].lines[0] = "add 1";
		jobs[i].nlines = 1;
		jobs[i].rounds = 5;
	}
	run_jobs(jobs, NTHREADS);
	for (int i = 0; i < NTHREADS; i++) {
		CU_ASSERT_EQUAL(jobs[i].rc, 0);
		CU_ASSERT_EQUAL(jobs[i].acked, 5);
	}
	CU_ASSERT_EQUAL(durable_move_count(other, id), 1 + NTHREADS * 5);
	/* every step was stored on the position it was checked on: replaying the log gives the same snapshots */
	{
		struct err e = {0};
		int first_bad = -1;
		CU_ASSERT_EQUAL(replay_verify(st, id, &first_bad, &e), 0);
	}
}

static void test_group__acknowledged_moves_survive_reopen(void)
{
	struct play_job jobs[8];
	int64_t ids[4];
	struct store *again = NULL;
	struct err e = {0};
	int total = 0, counted = 0;

	memset(jobs, 0, sizeof(jobs));
	for (int g = 0; g < 4; g++)
		ids[g] = new_game(300 + (uint64_t)g);
	/* two threads per game, interleaving their steps */
	for (int i = 0; i < 8; i++) {
		jobs[i].game = ids[i % 4];
		jobs[i].seat = 0;
		jobs[i].if_match = -1;
		jobs[i].lines[0] = "add 2";
		jobs[i].nlines = 1;
		jobs[i].rounds = 25;
	}
	run_jobs(jobs, 8);
	for (int i = 0; i < 8; i++) {
		CU_ASSERT_EQUAL(jobs[i].rc, 0);
		total += jobs[i].acked;
	}
	/* close everything and read the file afresh */
	store_close(other);
	other = NULL;
	store_close(st);
	st = NULL;
	CU_ASSERT_EQUAL_FATAL(store_open(path, NULL, &again, &e), 0);
	for (int g = 0; g < 4; g++)
		counted += durable_move_count(again, ids[g]);
	CU_ASSERT_EQUAL(counted, total);
	CU_ASSERT_EQUAL(total, 8 * 25);
	st = again;
	CU_ASSERT_EQUAL(store_open(path, NULL, &other, &e), 0);
}

/* A sync the disk refuses fails the writes waiting for it and every later one, until the store is reopened. */
static void test_group__failed_sync_fails_writes(void)
{
	char p2[160];
	struct store *s2 = NULL;
	struct store_conn *c;
	struct err e = {0};
	int64_t id;
	uint64_t s0;

	snprintf(p2, sizeof(p2), "%s/sync.db", dir);
	CU_ASSERT_EQUAL_FATAL(store_open(p2, NULL, &s2, &e), 0);
	s0 = store_sync_count(s2);
	CU_ASSERT_EQUAL(store_write_grouped(s2, ok_fn, "kept@example.org", &e), 0);
	CU_ASSERT(store_sync_count(s2) > s0);
	store_fail_syncs_for_tests(s2, 1, 0);
	CU_ASSERT_EQUAL(store_write_grouped(s2, ok_fn, "unsure@example.org", &e), ERR_STORE);
	CU_ASSERT(strstr(e.msg, "the disk failed to confirm a write") != NULL);
	CU_ASSERT(strstr(e.msg, "restart") != NULL);
	/* sticky: neither kind of write is taken any more, and nothing of them is written */
	err_clear(&e);
	CU_ASSERT_EQUAL(store_write_grouped(s2, ok_fn, "later@example.org", &e), ERR_STORE);
	CU_ASSERT(strstr(e.msg, "the disk failed to confirm a write") != NULL);
	err_clear(&e);
	CU_ASSERT_EQUAL(store_write_begin(s2, &c, &e), ERR_STORE);
	CU_ASSERT_EQUAL(user_exists(s2, "later@example.org"), 0);
	CU_ASSERT_EQUAL(user_exists(s2, "kept@example.org"), 1);
	/* and it no longer says it is healthy */
	err_clear(&e);
	CU_ASSERT_EQUAL(store_ping(s2, &e), ERR_STORE);
	CU_ASSERT(strstr(e.msg, "the disk failed to confirm a write") != NULL);
	store_close(s2);
	s2 = NULL;
	/* a new start syncs first and writes again */
	CU_ASSERT_EQUAL_FATAL(store_open(p2, NULL, &s2, &e), 0);
	CU_ASSERT_EQUAL(store_write_begin(s2, &c, &e), 0);
	CU_ASSERT_EQUAL(store_user_add(c, "again@example.org", "A", 0, &id, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	CU_ASSERT_EQUAL(user_exists(s2, "again@example.org"), 1);
	CU_ASSERT_EQUAL(user_exists(s2, "kept@example.org"), 1);
	store_close(s2);
}

/* With background checkpoints the WAL is copied into the database by the store's own thread. */
static void test_group__background_checkpoints(void)
{
	char p3[160], email[64];
	struct store_options opt = { .background_checkpoints = 1, .checkpoint_pages = 20 };
	struct store *s3 = NULL, *again = NULL;
	struct err e = {0};
	int found = 0;

	snprintf(p3, sizeof(p3), "%s/ckpt.db", dir);
	CU_ASSERT_EQUAL_FATAL(store_open(p3, &opt, &s3, &e), 0);
	CU_ASSERT_EQUAL(store_checkpoint_count(s3), 0);
	for (int i = 0; i < 60; i++) {
		snprintf(email, sizeof(email), "c%d@example.org", i);
		CU_ASSERT_EQUAL(store_write_grouped(s3, ok_fn, email, &e), 0);
	}
	/* 60 commits wrote well over 20 pages: checkpoints ran (the thread's also once a second) */
	for (int t = 0; t < 300 && store_checkpoint_count(s3) == 0; t++)
		sleep_ms(10);
	CU_ASSERT(store_checkpoint_count(s3) >= 1);
	/*
	 * and the WAL started again each time it was copied: 300 more commits (two pages or more each) leave its
	 * file within about 20 pages of the size it had, not 600+ pages longer. The file never shrinks, and the
	 * migrations of a new database alone fill more than 100 pages of it before the first checkpoint, so the
	 * growth is what is measured.
	 */
	{
		struct stat sb;
		char wal[200];
		off_t before;
		snprintf(wal, sizeof(wal), "%s-wal", p3);
		CU_ASSERT_EQUAL_FATAL(stat(wal, &sb), 0);
		before = sb.st_size;
		for (int i = 0; i < 300; i++) {
			snprintf(email, sizeof(email), "w%d@example.org", i);
			CU_ASSERT_EQUAL(store_write_grouped(s3, ok_fn, email, &e), 0);
		}
		CU_ASSERT_EQUAL_FATAL(stat(wal, &sb), 0);
		CU_ASSERT(sb.st_size < before + 100 * 4096);
	}
	/* a store without the option has no checkpointer */
	CU_ASSERT_EQUAL_FATAL(store_open(p3, NULL, &again, &e), 0);
	CU_ASSERT_EQUAL(store_checkpoint_count(again), 0);
	for (int i = 0; i < 60; i++) {
		snprintf(email, sizeof(email), "c%d@example.org", i);
		found += user_exists(again, email) == 1;
	}
	CU_ASSERT_EQUAL(found, 60);
	store_close(again);
	store_close(s3);
}

struct slow_job {
	struct store *s;
	const char *email;
	long delay_ms;
	int rc;
};

static void *slow_writer(void *arg)
{
	struct slow_job *j = arg;
	struct err e = {0};

	sleep_ms(j->delay_ms);
	j->rc = store_write_grouped(j->s, ok_fn, (void *)j->email, &e);
	return NULL;
}

/* A write that joins while a failing sync runs is rolled back, not committed and reported failed. */
static void test_group__write_during_failing_sync_is_not_kept(void)
{
	char p4[160];
	struct store *s4 = NULL, *again = NULL;
	struct slow_job a = { .email = "during-a@example.org" }, b = { .email = "during-b@example.org", .delay_ms = 100 };
	pthread_t ta, tb;
	struct err e = {0};

	snprintf(p4, sizeof(p4), "%s/slow.db", dir);
	CU_ASSERT_EQUAL_FATAL(store_open(p4, NULL, &s4, &e), 0);
	a.s = b.s = s4;
	/* the next sync takes 400 ms and then fails; b arrives while it runs */
	store_fail_syncs_for_tests(s4, 1, 400);
	pthread_create(&ta, NULL, slow_writer, &a);
	pthread_create(&tb, NULL, slow_writer, &b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	CU_ASSERT_EQUAL(a.rc, ERR_STORE);
	CU_ASSERT_EQUAL(b.rc, ERR_STORE);
	/* b was never committed: not visible now, not after a reopen */
	CU_ASSERT_EQUAL(user_exists(s4, "during-b@example.org"), 0);
	store_close(s4);
	CU_ASSERT_EQUAL_FATAL(store_open(p4, NULL, &again, &e), 0);
	CU_ASSERT_EQUAL(user_exists(again, "during-b@example.org"), 0);
	CU_ASSERT_EQUAL(store_ping(again, &e), 0);
	store_close(again);
}


/* ---- writes that do not wait (store_write_grouped_async, submit_start) ---- */

struct done_rec {
	pthread_mutex_t lock;
	sem_t posted;
	int calls;
	int rc;
	struct err e;
};

static void done_rec_init(struct done_rec *d)
{
	memset(d, 0, sizeof(*d));
	pthread_mutex_init(&d->lock, NULL);
	sem_init(&d->posted, 0, 0);
	d->rc = 1;
}

/* 0 once posted, -1 after 10 s without (a missing wake-up fails the test instead of hanging it) */
static int wait_posted(sem_t *sem)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	while (sem_timedwait(sem, &ts) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static void done_rec_free(struct done_rec *d)
{
	sem_destroy(&d->posted);
	pthread_mutex_destroy(&d->lock);
}

static void record_done(void *arg, int rc, const struct err *e)
{
	struct done_rec *d = arg;

	pthread_mutex_lock(&d->lock);
	d->calls++;
	d->rc = rc;
	if (e)
		d->e = *e;
	pthread_mutex_unlock(&d->lock);
	sem_post(&d->posted);
}

static void test_group__async_write_calls_back_once(void)
{
	struct done_rec ok, refused, later, failing;
	struct user_job bad = { .i = 901, .fail = 1 };
	struct store *s5 = NULL;
	struct err e = {0};
	char p5[160];
	uint64_t s0 = store_sync_count(st);

	/* a write that succeeds: done once, with 0, after a sync; the row is then seen by another store */
	done_rec_init(&ok);
	CU_ASSERT_EQUAL(store_write_grouped_async(st, ok_fn, "async@example.org", record_done, &ok, &e), 0);
	CU_ASSERT_EQUAL_FATAL(wait_posted(&ok.posted), 0);
	CU_ASSERT_EQUAL(ok.rc, 0);
	CU_ASSERT_STRING_EQUAL(ok.e.msg, "");
	CU_ASSERT(store_sync_count(st) > s0);
	CU_ASSERT_EQUAL(user_exists(other, "async@example.org"), 1);

	/* a write whose function fails: its error at once, nothing kept, done never called */
	done_rec_init(&refused);
	CU_ASSERT_EQUAL(store_write_grouped_async(st, add_user_fn, &bad, record_done, &refused, &e), ERR_ILLEGAL);
	CU_ASSERT_STRING_EQUAL(e.msg, "refused after writing");
	CU_ASSERT_EQUAL(user_exists(st, "u901@example.org"), 0);
	/* the next write's commit and sync are over: had the refused one been queued, it would be done too */
	done_rec_init(&later);
	CU_ASSERT_EQUAL(store_write_grouped_async(st, ok_fn, "async-later@example.org", record_done, &later, &e), 0);
	CU_ASSERT_EQUAL_FATAL(wait_posted(&later.posted), 0);
	CU_ASSERT_EQUAL(later.rc, 0);
	CU_ASSERT_EQUAL(refused.calls, 0);
	CU_ASSERT_EQUAL(ok.calls, 1);
	CU_ASSERT_EQUAL(later.calls, 1);

	/* a sync that fails: done gets the store's error, once */
	snprintf(p5, sizeof(p5), "%s/async.db", dir);
	CU_ASSERT_EQUAL_FATAL(store_open(p5, NULL, &s5, &e), 0);
	done_rec_init(&failing);
	store_fail_syncs_for_tests(s5, 1, 50);
	CU_ASSERT_EQUAL(store_write_grouped_async(s5, ok_fn, "unsure@example.org", record_done, &failing, &e), 0);
	CU_ASSERT_EQUAL_FATAL(wait_posted(&failing.posted), 0);
	CU_ASSERT_EQUAL(failing.rc, ERR_STORE);
	CU_ASSERT(strstr(failing.e.msg, "the disk failed to confirm a write") != NULL);
	/* and later writes are refused at once, without a call */
	CU_ASSERT_EQUAL(store_write_grouped_async(s5, ok_fn, "after@example.org", record_done, &failing, &e),
			ERR_STORE);
	store_close(s5);
	CU_ASSERT_EQUAL(failing.calls, 1);
	done_rec_free(&ok);
	done_rec_free(&refused);
	done_rec_free(&later);
	done_rec_free(&failing);
}

static void post_sem(void *arg)
{
	sem_post(arg);
}

static void test_group__submit_start_and_finish(void)
{
	const char *good[] = { "add 2" }, *bad[] = { "add 1", "add 9" };
	int64_t id = new_game(31);
	struct submit_request rq = { .game_id = id, .seat = 0, .lines = good, .nlines = 1, .via = "api",
				  .if_match = 0 };
	struct submit_pending *pp = NULL;
	struct submit_outcome out;
	struct err e = {0};
	json_t *res = NULL;
	sem_t done;

	sem_init(&done, 0, 0);
	CU_ASSERT_EQUAL_FATAL(submit_start(st, &rq, post_sem, &done, &pp, &out, &e), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pp);
	CU_ASSERT_EQUAL_FATAL(wait_posted(&done), 0);
	CU_ASSERT_EQUAL(submit_finish(pp, &res, &out, &e), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "move_count")), 1);
	CU_ASSERT_EQUAL(out.replayed, 0);
	json_decref(res);
	/* durable before done: a store of its own reads it from the file */
	CU_ASSERT_EQUAL(durable_move_count(other, id), 1);

	/* an illegal second line: the error at once, with its line; nothing pending, nothing stored */
	rq.lines = bad;
	rq.nlines = 2;
	rq.if_match = 1;
	CU_ASSERT_EQUAL(submit_start(st, &rq, post_sem, &done, &pp, &out, &e), ERR_ILLEGAL);
	CU_ASSERT_PTR_NULL(pp);
	CU_ASSERT_EQUAL(out.failed_line, 2);
	CU_ASSERT_EQUAL(durable_move_count(other, id), 1);
	/* a stale If-Match: ERR_STALE at once */
	rq.lines = good;
	rq.nlines = 1;
	rq.if_match = 0;
	CU_ASSERT_EQUAL(submit_start(st, &rq, post_sem, &done, &pp, &out, &e), ERR_STALE);
	CU_ASSERT_EQUAL(sem_trywait(&done), -1);
	sem_destroy(&done);
}

static CU_TestInfo group_cases[] = {
	{ "test_group__store_writes_share_commits", test_group__store_writes_share_commits },
	{ "test_group__alone_and_mixed_with_exclusive_writes", test_group__alone_and_mixed_with_exclusive_writes },
	{ "test_group__submit_many_games_one_failing", test_group__submit_many_games_one_failing },
	{ "test_group__submit_same_game_if_match", test_group__submit_same_game_if_match },
	{ "test_group__failed_sync_fails_writes", test_group__failed_sync_fails_writes },
	{ "test_group__write_during_failing_sync_is_not_kept", test_group__write_during_failing_sync_is_not_kept },
	{ "test_group__background_checkpoints", test_group__background_checkpoints },
	{ "test_group__acknowledged_moves_survive_reopen", test_group__acknowledged_moves_survive_reopen },
	{ "test_group__async_write_calls_back_once", test_group__async_write_calls_back_once },
	{ "test_group__submit_start_and_finish", test_group__submit_start_and_finish },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("group", suite_init, suite_clean, group_cases);
	return 0;
}
