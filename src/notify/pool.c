/* notify/pool.c: the delivery pool: a few threads deliver at once, one destination at a time each */
/* SPDX-License-Identifier: MIT */
#include "notify/notify_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/banned.h"

#define QUEUE_MAX 256 /* jobs waiting; the notifier claims no more rows while the queue is this long */

void notify__job_free(struct notify_job *j)
{
	if (!j)
		return;
	store_outbox_rows_free(j->rows, j->nrows);
	free(j);
}

/* Is some queued or running job holding row id? Under qlock. */
static int holds_row(const struct notify *n, int64_t id)
{
	for (const struct notify_job *j = n->queue; j; j = j->next)
		for (int i = 0; i < j->nrows; i++)
			if (j->rows[i].id == id)
				return 1;
	for (int w = 0; w < n->cfg.workers; w++)
		if (n->active[w])
			for (int i = 0; i < n->active[w]->nrows; i++)
				if (n->active[w]->rows[i].id == id)
					return 1;
	return 0;
}

/*
 * The first queued job that may run now: no running job has its key, and no
 * job queued before it has (that one goes first). Unlinked. Under qlock.
 */
static struct notify_job *take(struct notify *n)
{
	struct notify_job *prev = NULL;

	for (struct notify_job *j = n->queue; j; prev = j, j = j->next) {
		int blocked = 0;

		for (int w = 0; w < n->cfg.workers && !blocked; w++)
			blocked = n->active[w] && strcmp(n->active[w]->key, j->key) == 0;
		for (const struct notify_job *e = n->queue; e != j && !blocked; e = e->next)
			blocked = strcmp(e->key, j->key) == 0;
		if (blocked)
			continue;
		if (prev)
			prev->next = j->next;
		else
			n->queue = j->next;
		if (n->queue_tail == j)
			n->queue_tail = prev;
		j->next = NULL;
		n->queued--;
		return j;
	}
	return NULL;
}

/* A job is over (done or dropped): whoever waits for it counts it. Under qlock. */
static void settle(struct notify *n, struct notify_job *j, const struct notify_stats *st, int rc,
		   const struct err *e)
{
	struct notify_pass *p = j->pass;

	if (p) {
		p->st.sent += st->sent;
		p->st.retried += st->retried;
		p->st.dead += st->dead;
		p->st.skipped += st->skipped;
		p->st.superseded += st->superseded;
		p->st.deferred += st->deferred;
		if (rc < 0 && p->rc == 0) {
			p->rc = rc;
			p->err = *e;
		}
		p->pending--;
		pthread_cond_broadcast(&n->qdone);
	} else if (rc < 0) {
		log_error("notifier: %s", e->msg);
	}
}

struct worker_arg {
	struct notify *n;
	int slot;
};

static void *worker(void *arg)
{
	struct worker_arg *wa = arg;
	struct notify *n = wa->n;
	int slot = wa->slot;

	free(wa);
	pthread_mutex_lock(&n->qlock);
	for (;;) {
		struct notify_job *j = NULL;
		struct notify_stats st = {0};
		struct err e = {0};
		int rc = 0;

		while (!n->quit && !(j = take(n)))
			pthread_cond_wait(&n->qcond, &n->qlock);
		if (!j)
			break;
		if (atomic_load(&n->stopping)) {
			/* stopping: the rows stay leased and go out after the next start */
			settle(n, j, &st, 0, &e);
			notify__job_free(j);
			continue;
		}
		n->active[slot] = j;
		pthread_mutex_unlock(&n->qlock);
		rc = notify__job_run(n, j, &st, &e);
		pthread_mutex_lock(&n->qlock);
		n->active[slot] = NULL;
		settle(n, j, &st, rc, &e);
		notify__job_free(j);
		/* its destination is free: a job queued behind it may go */
		pthread_cond_broadcast(&n->qcond);
	}
	pthread_mutex_unlock(&n->qlock);
	return NULL;
}

int notify__pool_start(struct notify *n, struct err *err)
{
	int rc = 0;

	pthread_mutex_lock(&n->qlock);
	if (n->nworkers) {
		pthread_mutex_unlock(&n->qlock);
		return 0;
	}
	n->quit = 0;
	if (!n->workers)
		n->workers = calloc((size_t)n->cfg.workers, sizeof(*n->workers));
	if (!n->active)
		n->active = calloc((size_t)n->cfg.workers, sizeof(*n->active));
	if (!n->workers || !n->active) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	for (int w = 0; w < n->cfg.workers; w++) {
		struct worker_arg *wa = malloc(sizeof(*wa));
		if (!wa)
			abort();
		*wa = (struct worker_arg){ n, w };
		if (pthread_create(&n->workers[w], NULL, worker, wa) != 0) {
			free(wa);
			rc = err_set(err, ERR_INTERNAL, "cannot start a delivery thread");
			break;
		}
		n->nworkers++;
	}
done:
	pthread_mutex_unlock(&n->qlock);
	if (rc < 0)
		notify__pool_stop(n);
	return rc;
}

void notify__pool_stop(struct notify *n)
{
	int running;

	pthread_mutex_lock(&n->qlock);
	running = n->nworkers;
	n->quit = 1;
	pthread_cond_broadcast(&n->qcond);
	pthread_mutex_unlock(&n->qlock);
	for (int w = 0; w < running; w++)
		pthread_join(n->workers[w], NULL);
	pthread_mutex_lock(&n->qlock);
	n->nworkers = 0;
	while (n->queue) {
		struct notify_job *j = n->queue;
		struct notify_stats st = {0};
		struct err e = {0};

		n->queue = j->next;
		settle(n, j, &st, 0, &e);
		notify__job_free(j);
	}
	n->queue_tail = NULL;
	n->queued = 0;
	pthread_mutex_unlock(&n->qlock);
}

int notify__pool_add(struct notify *n, struct notify_job *j)
{
	pthread_mutex_lock(&n->qlock);
	for (int i = 0; i < j->nrows; i++) {
		if (holds_row(n, j->rows[i].id)) {
			pthread_mutex_unlock(&n->qlock);
			log_warn("notifier: notification %lld is still being delivered; not queued twice",
				 (long long)j->rows[i].id);
			notify__job_free(j);
			return 1;
		}
	}
	if (j->pass)
		j->pass->pending++;
	j->next = NULL;
	if (n->queue_tail)
		n->queue_tail->next = j;
	else
		n->queue = j;
	n->queue_tail = j;
	n->queued++;
	pthread_cond_broadcast(&n->qcond);
	pthread_mutex_unlock(&n->qlock);
	return 0;
}

int notify__pool_room(struct notify *n)
{
	int room;

	pthread_mutex_lock(&n->qlock);
	room = QUEUE_MAX - n->queued;
	pthread_mutex_unlock(&n->qlock);
	return room > 0 ? room : 0;
}

void notify__pool_wait(struct notify *n, struct notify_pass *p)
{
	pthread_mutex_lock(&n->qlock);
	while (p->pending > 0)
		pthread_cond_wait(&n->qdone, &n->qlock);
	pthread_mutex_unlock(&n->qlock);
}
