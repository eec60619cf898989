/* notify/retention.c: the daemon's background pruning: idempotency answers, delivered notifications, inbound mails, mail files */
/* SPDX-License-Identifier: MIT */
#include "notify/retention.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/retention.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/banned.h"

#define DAY_MS (86400LL * 1000)
#define BATCH 500

struct retention {
	struct retention_config cfg;
	char mail_dir[512];
	struct store *store;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	atomic_int stopping;
};

/* Delete kind's rows older than before, a batch per transaction, until none is left; *total gets how many. */
static int prune_rows(struct store *s, enum store_retention_kind kind, int64_t before, const atomic_int *stopping,
		      int *total, struct err *err)
{
	struct store_conn *c;
	int n, rc;

	*total = 0;
	do {
		if ((rc = store_write_begin(s, &c, err)) < 0)
			return rc;
		if ((rc = store_retention_prune(c, kind, before, BATCH, &n, err)) < 0) {
			store_write_rollback(c);
			return rc;
		}
		if ((rc = store_write_commit(c, err)) < 0)
			return rc;
		*total += n;
	} while (n == BATCH && !(stopping && atomic_load(stopping)));
	return 0;
}

/* Remove the .eml files in dir last written before before_s (seconds); *total gets how many. */
static int prune_files(const char *dir, time_t before_s, int *total, struct err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[1024];
	struct stat sb;
	size_t len;

	*total = 0;
	if (!d)
		return errno == ENOENT ? 0 : err_set(err, ERR_IO, "cannot read %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".eml") != 0)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		if (lstat(path, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_mtime >= before_s)
			continue;
		if (unlink(path) == 0)
			(*total)++;
		else if (errno != ENOENT)
			log_error("retention: cannot remove %s: %s", path, strerror(errno));
	}
	closedir(d);
	return 0;
}

static int run_once(struct store *s, const struct retention_config *cfg, int64_t now, int leading,
		    const atomic_int *stopping, struct retention_stats *st, struct err *err)
{
	int rc = 0;

	memset(st, 0, sizeof(*st));
	if (leading && cfg->idempotency_days)
		rc = prune_rows(s, STORE_RETAIN_IDEMPOTENCY, now - cfg->idempotency_days * DAY_MS, stopping,
				&st->idempotency, err);
	if (rc == 0 && leading && cfg->outbox_days)
		rc = prune_rows(s, STORE_RETAIN_OUTBOX, now - cfg->outbox_days * DAY_MS, stopping, &st->outbox, err);
	if (rc == 0 && leading && cfg->inbound_days)
		rc = prune_rows(s, STORE_RETAIN_INBOUND, now - cfg->inbound_days * DAY_MS, stopping, &st->inbound, err);
	if (rc == 0 && cfg->mail_files_days && cfg->mail_dir && *cfg->mail_dir)
		rc = prune_files(cfg->mail_dir, (time_t)((now - cfg->mail_files_days * DAY_MS) / 1000), &st->mail_files,
				 err);
	if (st->idempotency || st->outbox || st->inbound || st->mail_files)
		log_info("retention: pruned %d idempotency answers, %d delivered notifications, %d inbound mails, "
			 "%d mail files", st->idempotency, st->outbox, st->inbound, st->mail_files);
	return rc;
}

int retention_run_once(struct store *s, const struct retention_config *cfg, int64_t now, int leading,
		       struct retention_stats *st, struct err *err)
{
	return run_once(s, cfg, now, leading, NULL, st, err);
}

/* Wait up to ms or until stopped; 1 when stopping. */
static int nap(struct retention *r, int64_t ms)
{
	struct timespec until;
	int stop;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += (time_t)(ms / 1000);
	until.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&r->lock);
	while (!(stop = atomic_load(&r->stopping)) && pthread_cond_timedwait(&r->wake, &r->lock, &until) == 0)
		;
	stop = atomic_load(&r->stopping);
	pthread_mutex_unlock(&r->lock);
	return stop;
}

static void *thread_main(void *arg)
{
	struct retention *r = arg;
	struct retention_stats st;

	if (nap(r, r->cfg.first_ms))
		return NULL;
	do {
		struct err e = {0};
		int leading = 1;

		/* under PostgreSQL the daemon that fires the deadlines prunes the shared rows */
		if (store_lead(r->store, STORE_LEAD_TIMERS, &leading, &e) < 0 ||
		    run_once(r->store, &r->cfg, clock_now_ms(), leading, &r->stopping, &st, &e) < 0)
			log_error("retention: %s (tried again in %lld minutes)", e.msg,
				  (long long)(r->cfg.interval_ms / 60000));
	} while (!nap(r, r->cfg.interval_ms));
	return NULL;
}

int retention_start(const struct retention_config *cfg, struct store *s, struct retention **out, struct err *err)
{
	struct retention *r;

	*out = NULL;
	if (!cfg->idempotency_days && !cfg->outbox_days && !cfg->inbound_days && !cfg->mail_files_days)
		return 0;
	if (!(r = calloc(1, sizeof(*r))))
		abort();
	r->cfg = *cfg;
	if (cfg->mail_dir) {
		snprintf(r->mail_dir, sizeof(r->mail_dir), "%s", cfg->mail_dir);
		r->cfg.mail_dir = r->mail_dir;
	}
	if (!r->cfg.interval_ms)
		r->cfg.interval_ms = 3600 * 1000;
	if (!r->cfg.first_ms)
		r->cfg.first_ms = 2000;
	r->store = s;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->wake, NULL);
	if (pthread_create(&r->thread, NULL, thread_main, r) != 0) {
		pthread_cond_destroy(&r->wake);
		pthread_mutex_destroy(&r->lock);
		free(r);
		return err_set(err, ERR_IO, "cannot start the retention thread");
	}
	*out = r;
	return 0;
}

void retention_stop(struct retention *r)
{
	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	atomic_store(&r->stopping, 1);
	pthread_cond_broadcast(&r->wake);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	pthread_cond_destroy(&r->wake);
	pthread_mutex_destroy(&r->lock);
	free(r);
}
