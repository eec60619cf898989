/* http/connwatch.c: time limits on a whole request: its headers, then its body, however slowly they trickle */
/* SPDX-License-Identifier: MIT */
#include "http/connwatch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/banned.h"

enum phase { PHASE_HEADERS, PHASE_BODY, PHASE_ANSWER };

struct entry {
	struct entry *prev, *next;
	int fd;
	enum phase phase;
	double deadline; /* monotonic ms; 0: none */
	int cut;
};

struct connwatch {
	unsigned header_s, body_s;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	int quit;
	struct entry *head;
	atomic_ulong cut;
};

/* The entry's deadline for its phase. Under lock. */
static void arm(struct connwatch *w, struct entry *e, enum phase phase)
{
	unsigned s = phase == PHASE_HEADERS ? w->header_s : phase == PHASE_BODY ? w->body_s : 0;

	e->phase = phase;
	e->deadline = s ? clock_mono_ms() + s * 1000.0 : 0;
}

static void *watch(void *arg)
{
	struct connwatch *w = arg;

	pthread_mutex_lock(&w->lock);
	while (!w->quit) {
		struct timespec ts;
		double now = clock_mono_ms();
		int headers = 0, bodies = 0;

		for (struct entry *e = w->head; e; e = e->next) {
			if (!e->deadline || e->cut || now < e->deadline)
				continue;
			/* the fd is the server's until the connection's end is told (connwatch_closed, under lock) */
			shutdown(e->fd, SHUT_RDWR);
			e->cut = 1;
			if (e->phase == PHASE_HEADERS)
				headers++;
			else
				bodies++;
		}
		if (headers || bodies) {
			atomic_fetch_add(&w->cut, (unsigned long)(headers + bodies));
			log_warn("connections closed: %d with headers not complete after %u s, %d with a body not complete "
				 "after %u s (--header-timeout, --body-timeout)",
				 headers, w->header_s, bodies, w->body_s);
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 250 * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&w->cond, &w->lock, &ts);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int connwatch_new(unsigned header_s, unsigned body_s, struct connwatch **out, struct err *err)
{
	struct connwatch *w = calloc(1, sizeof(*w));

	*out = NULL;
	if (!w)
		return err_set(err, ERR_NOMEM, "out of memory");
	w->header_s = header_s;
	w->body_s = body_s;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (pthread_create(&w->thread, NULL, watch, w) != 0) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		free(w);
		return err_set(err, ERR_INTERNAL, "cannot start the connection watch");
	}
	*out = w;
	return 0;
}

void connwatch_free(struct connwatch *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->quit = 1;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	while (w->head) {
		struct entry *e = w->head;
		w->head = e->next;
		free(e);
	}
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}

void connwatch_started(struct connwatch *w, int fd, void **ctx)
{
	struct entry *e;

	*ctx = NULL;
	if (!w || !(e = calloc(1, sizeof(*e))))
		return;
	e->fd = fd;
	pthread_mutex_lock(&w->lock);
	arm(w, e, PHASE_HEADERS);
	e->next = w->head;
	if (w->head)
		w->head->prev = e;
	w->head = e;
	pthread_mutex_unlock(&w->lock);
	*ctx = e;
}

void connwatch_closed(struct connwatch *w, void **ctx)
{
	struct entry *e = *ctx;

	if (!w || !e)
		return;
	pthread_mutex_lock(&w->lock);
	if (e->prev)
		e->prev->next = e->next;
	else
		w->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	pthread_mutex_unlock(&w->lock);
	free(e);
	*ctx = NULL;
}

static void set_phase(struct connwatch *w, void *ctx, enum phase phase)
{
	if (!w || !ctx)
		return;
	pthread_mutex_lock(&w->lock);
	arm(w, ctx, phase);
	pthread_mutex_unlock(&w->lock);
}

void connwatch_headers_read(struct connwatch *w, void *ctx)
{
	set_phase(w, ctx, PHASE_BODY);
}

void connwatch_request_read(struct connwatch *w, void *ctx)
{
	set_phase(w, ctx, PHASE_ANSWER);
}

void connwatch_answered(struct connwatch *w, void *ctx)
{
	/* a kept-alive connection: the next request's headers are due from now */
	set_phase(w, ctx, PHASE_HEADERS);
}

unsigned long connwatch_cut(const struct connwatch *w)
{
	return w ? atomic_load(&w->cut) : 0;
}
