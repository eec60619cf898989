/* notify/notify.c: the notifier's life (thread, start, stop) and one round of outbox delivery */
/* SPDX-License-Identifier: MIT */
#include "notify/notify_int.h"

#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <curl/curl.h>

#include "engine/game.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/banned.h"

#define CLAIM_BATCH 32
#define DAY_MS (24LL * 3600 * 1000)

void notify__msg_release(struct notify_msg *m)
{
	if (!m)
		return;
	free(m->game_title);
	free(m->to);
	free(m->to_name);
	free(m->subject);
	free(m->text);
	free(m->html);
	free(m->seat_link);
	free(m->reply_to);
	free(m->in_reply_to);
	free(m->prefs_link);
	json_decref(m->story);
	free(m->references);
	free(m->unsubscribe_url);
	free(m->unsubscribe_mailto);
	free(m->push_json);
	memset(m, 0, sizeof(*m));
}

static char *dup_or_null(const char *s)
{
	char *d;

	if (!s || !*s)
		return NULL;
	if (!(d = strdup(s)))
		abort();
	return d;
}

/* The host part of a URL ("games.example.org" of "https://games.example.org:8443/x"). */
static char *url_host(const char *url)
{
	const char *p = strstr(url, "://"), *end;
	char *h;

	p = p ? p + 3 : url;
	end = p + strcspn(p, ":/?#");
	if (end == p)
		return strdup("localhost");
	h = strndup(p, (size_t)(end - p));
	if (!h)
		abort();
	return h;
}

/* A URL without the "user:password@" of its authority (for the log); NULL for none. */
static char *url_without_userinfo(const char *url)
{
	const char *p, *at, *end;
	struct buf b = BUF_INIT;

	if (!url || !*url)
		return NULL;
	p = strstr(url, "://");
	p = p ? p + 3 : url;
	end = p + strcspn(p, "/?#");
	at = NULL;
	for (const char *q = p; q < end; q++)
		if (*q == '@')
			at = q;
	if (!at)
		return dup_or_null(url);
	buf_add(&b, url, (size_t)(p - url));
	buf_adds(&b, at + 1);
	return buf_detach(&b, NULL);
}

int notify_new(const struct notify_config *cfg, struct store *store, struct notify **out, struct err *err)
{
	struct notify *n = calloc(1, sizeof(*n));
	size_t blen;
	int rc;

	*out = NULL;
	if (!n)
		return err_set(err, ERR_NOMEM, "out of memory");
	n->cfg = *cfg;
	n->store = store;
	pthread_mutex_init(&n->lock, NULL);
	pthread_cond_init(&n->cond, NULL);
	if (!n->cfg.max_attempts)
		n->cfg.max_attempts = 8;
	if (!n->cfg.backoff_ms)
		n->cfg.backoff_ms = 30 * 1000;
	if (!n->cfg.backoff_max_ms)
		n->cfg.backoff_max_ms = 6 * 3600 * 1000LL;
	if (!n->cfg.timeout_ms)
		n->cfg.timeout_ms = 15 * 1000;
	if (!n->cfg.lease_ms)
		n->cfg.lease_ms = 10 * 60 * 1000;
	if (!n->cfg.tick_ms)
		n->cfg.tick_ms = 1000;
	n->base_url = strdup(cfg->base_url && *cfg->base_url ? cfg->base_url : "http://localhost:8080");
	blen = strlen(n->base_url);
	while (blen > 0 && n->base_url[blen - 1] == '/')
		n->base_url[--blen] = '\0';
	n->host = url_host(n->base_url);
	n->mail_dir = strdup(cfg->mail_dir && *cfg->mail_dir ? cfg->mail_dir : "./var/mail");
	n->smtp_url = dup_or_null(cfg->smtp_url);
	n->smtp_where = url_without_userinfo(cfg->smtp_url);
	/* a password is never sent where anyone on the path can read it */
	n->smtp_tls_required = cfg->smtp_tls == NOTIFY_TLS_REQUIRED ||
			       (cfg->smtp_tls == NOTIFY_TLS_AUTO && cfg->smtp_url && n->smtp_where &&
				strcmp(cfg->smtp_url, n->smtp_where) != 0);
	n->webhook_url = dup_or_null(cfg->webhook_url);
	n->reply_to = dup_or_null(cfg->reply_to);
	n->reply_domain = dup_or_null(cfg->reply_domain);
	if (!n->cfg.reply_days)
		n->cfg.reply_days = 30;
	if (cfg->from && *cfg->from) {
		n->from = strdup(cfg->from);
	} else {
		struct buf b = BUF_INIT;
		buf_addf(&b, "turnpost@%s", strchr(n->host, '.') ? n->host : "localhost.localdomain");
		n->from = buf_detach(&b, NULL);
	}
	switch (cfg->transport) {
	case NOTIFY_FILE:
		/* like mkdir -p */
		for (char *p = n->mail_dir + 1; *p; p++) {
			if (*p != '/')
				continue;
			*p = '\0';
			if (mkdir(n->mail_dir, 0700) < 0 && errno != EEXIST) {
				*p = '/';
				break;
			}
			*p = '/';
		}
		if (mkdir(n->mail_dir, 0700) < 0 && errno != EEXIST) {
			rc = err_set(err, ERR_IO, "cannot create the mail directory %s: %s", n->mail_dir,
				     strerror(errno));
			goto fail;
		}
		break;
	case NOTIFY_SMTP:
		if (!n->smtp_url || (strncmp(n->smtp_url, "smtp://", 7) != 0 && strncmp(n->smtp_url, "smtps://", 8) != 0)) {
			rc = err_set(err, ERR_INPUT, "the smtp transport needs --smtp-url smtp://HOST:PORT or smtps://...");
			goto fail;
		}
		break;
	case NOTIFY_WEBHOOK:
		if (!n->webhook_url ||
		    (strncmp(n->webhook_url, "http://", 7) != 0 && strncmp(n->webhook_url, "https://", 8) != 0)) {
			rc = err_set(err, ERR_INPUT, "the webhook transport needs --webhook-url https://...");
			goto fail;
		}
		if ((rc = notify__secret_decode(cfg->webhook_secret, &n->secret, &n->secret_len, err)) < 0)
			goto fail;
		break;
	}
	if ((rc = notify__templates_load(cfg->templates_dir, &n->tmpl, err)) < 0)
		goto fail;
	*out = n;
	return 0;
fail:
	notify_free(n);
	return rc;
}

void notify_free(struct notify *n)
{
	if (!n)
		return;
	notify_stop(n);
	render_set_free(n->tmpl);
	if (n->secret)
		sodium_memzero(n->secret, n->secret_len);
	free(n->secret);
	free(n->base_url);
	free(n->host);
	free(n->mail_dir);
	free(n->smtp_url);
	free(n->smtp_where);
	free(n->from);
	free(n->reply_to);
	free(n->reply_domain);
	free(n->webhook_url);
	pthread_mutex_destroy(&n->lock);
	pthread_cond_destroy(&n->cond);
	free(n);
}

/* The next daily digest time after now for a digest hour (UTC). */
static int64_t next_digest(int64_t now, int hour)
{
	int64_t day = now - ((now % DAY_MS) + DAY_MS) % DAY_MS;
	int64_t t = day + (int64_t)hour * 3600 * 1000;

	return t > now ? t : t + DAY_MS;
}

/* Exponential back-off with equal jitter: half the delay fixed, half random. */
static int64_t backoff(const struct notify *n, int attempts)
{
	int64_t d = n->cfg.backoff_ms;

	for (int i = 1; i < attempts && d < n->cfg.backoff_max_ms; i++)
		d *= 2;
	if (d > n->cfg.backoff_max_ms)
		d = n->cfg.backoff_max_ms;
	if (d < 2)
		return d;
	return d / 2 + (int64_t)randombytes_uniform((uint32_t)(d / 2 > 0x7fffffff ? 0x7fffffff : d / 2));
}

static int finish(struct notify *n, int64_t id, enum store_outbox_outcome how, int64_t at, const char *error,
		  struct err *err)
{
	struct store_conn *c;
	int rc;

	if ((rc = store_write_begin(n->store, &c, err)) < 0)
		return rc;
	rc = store_outbox_finish(c, id, how, at, error, err);
	if (rc == ERR_NOTFOUND) {
		/* resent or changed by an admin meanwhile: leave it be */
		err_clear(err);
		rc = 0;
	}
	if (rc < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

/* Deliver one message made of rows and record the outcome for every row. */
static int deliver_rows(struct notify *n, const struct store_outbox_row *rows, int nrows, int64_t now,
			struct notify_stats *st, struct err *err)
{
	struct notify_msg m = {0};
	struct notify_result res = {0};
	enum store_outbox_outcome how;
	int64_t at = now;
	int attempts = rows[0].attempts + 1, rc;
	struct err ce = {0};

	rc = notify__compose(n, rows, nrows, now, &m, &ce);
	if (rc < 0) {
		/* missing game or user, broken template: retrying will not help; a store error may */
		res.permanent = rc != ERR_STORE && rc != ERR_NOMEM;
		snprintf(res.error, sizeof(res.error), "compose: %.200s", ce.msg);
	} else {
		notify__deliver(n, &m, now, &res);
	}
	if (atomic_load(&n->stopping) && !res.ok) {
		/* interrupted by shutdown: the lease frees the rows at the next start */
		notify__msg_release(&m);
		return 0;
	}
	if (res.ok) {
		how = STORE_OUTBOX_SENT;
		st->sent++;
		log_info("notification %s (%s) delivered to %s", m.id, m.event, m.to);
	} else if (res.permanent || attempts >= n->cfg.max_attempts) {
		how = STORE_OUTBOX_DEAD;
		st->dead += nrows;
		log_warn("notification %lld (%s) is dead after %d attempt%s: %s", (long long)rows[0].id, rows[0].event,
			 attempts, attempts == 1 ? "" : "s", res.error);
	} else {
		how = STORE_OUTBOX_RETRY;
		at = now + (res.retry_after_ms > 0 ? (res.retry_after_ms < n->cfg.backoff_max_ms ? res.retry_after_ms
										      : n->cfg.backoff_max_ms)
						   : backoff(n, attempts));
		st->retried += nrows;
		log_info("notification %lld (%s) failed (attempt %d of %d), retrying in %lld ms: %s",
			 (long long)rows[0].id, rows[0].event, attempts, n->cfg.max_attempts, (long long)(at - now),
			 res.error);
	}
	for (int i = 0; i < nrows; i++)
		if ((rc = finish(n, rows[i].id, how, at, how == STORE_OUTBOX_SENT ? NULL : res.error, err)) < 0)
			break;
	notify__msg_release(&m);
	return rc < 0 ? rc : 0;
}

/*
 * Is row no longer true now that it is to be sent? A "your turn" or a
 * reminder for a seat that no longer has to act (it moved since, or the step
 * that gave it the turn was undone or rolled back), in a game that is over,
 * or with a newer "your turn" for the same seat queued after it. The reason
 * into why. A store failure answers no: a message too many beats one lost.
 */
static int superseded(struct notify *n, const struct store_outbox_row *r, char *why, size_t size)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_outbox_row *all = NULL;
	struct err e = {0};
	int nall = 0, out = 0;

	if ((strcmp(r->event, "your_turn") != 0 && strcmp(r->event, "reminder") != 0) || !r->game_id || r->seat < 0 ||
	    r->seat >= GAME_MAX_SEATS)
		return 0;
	if (store_read_acquire(n->store, &c, &e) < 0)
		return 0;
	if (store_game_get(c, r->game_id, &g, &e) == 0) {
		if (strcmp(g.status, "active") != 0) {
			snprintf(why, size, "superseded: the game is %s", g.status);
			out = 1;
		} else if (!(g.active_seats & (1u << r->seat))) {
			snprintf(why, size, "superseded: seat %d no longer has to act (move %d)", r->seat, g.move_count);
			out = 1;
		}
	}
	if (!out && strcmp(r->event, "your_turn") == 0 && store_outbox_list_game(c, r->game_id, &all, &nall, &e) == 0) {
		for (int i = 0; i < nall && !out; i++) {
			if (all[i].id > r->id && all[i].seat == r->seat && strcmp(all[i].event, "your_turn") == 0 &&
			    strcmp(all[i].state, "pending") == 0 &&
			    notify__row_push_sub(&all[i]) == notify__row_push_sub(r)) {
				snprintf(why, size, "superseded: a newer notification (%lld) says the same",
					 (long long)all[i].id);
				out = 1;
			}
		}
	}
	store_read_release(c);
	store_outbox_rows_free(all, nall);
	store_game_release(&g);
	return out;
}

/* The recipient's preferences (new JSON), defaults when there is no such user. */
static json_t *user_prefs(struct notify *n, int64_t user_id)
{
	struct store_conn *c;
	struct store_user u = {0};
	struct err e = {0};
	json_t *p;

	if (!user_id || store_read_acquire(n->store, &c, &e) < 0)
		return notify_prefs_get(NULL);
	if (store_user_by_id(c, user_id, &u, &e) < 0)
		p = notify_prefs_get(NULL);
	else
		p = notify_prefs_get(u.prefs);
	store_read_release(c);
	store_user_release(&u);
	return p;
}

int notify_run_once(struct notify *n, int64_t now, struct notify_stats *stats, struct err *err)
{
	struct notify_stats local = {0};
	struct notify_stats *st = stats ? stats : &local;
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	char *done = NULL, why[160];
	int nrows = 0, rc;

	memset(st, 0, sizeof(*st));
	{
		/* several daemons on one database: one of them at a time fires deadlines and reminders */
		int leading = 1;
		if ((rc = store_lead(n->store, STORE_LEAD_TIMERS, &leading, err)) < 0)
			return rc;
		if (leading && (rc = notify__timers(n, now, st, err)) < 0)
			return rc;
	}
	for (;;) {
		int due = 0;

		if (atomic_load(&n->stopping))
			return 0;
		/* a read first: the writer (shared with the moves) is taken only when something is due */
		if ((rc = store_read_acquire(n->store, &c, err)) < 0)
			return rc;
		rc = store_outbox_due(c, now, &due, err);
		store_read_release(c);
		if (rc < 0)
			return rc;
		if (!due)
			break;
		if ((rc = store_write_begin(n->store, &c, err)) < 0)
			return rc;
		if ((rc = store_outbox_claim(c, now, now + n->cfg.lease_ms, CLAIM_BATCH, &rows, &nrows, err)) < 0) {
			store_write_rollback(c);
			return rc;
		}
		if ((rc = store_write_commit(c, err)) < 0) {
			store_outbox_rows_free(rows, nrows);
			return rc;
		}
		if (!nrows)
			break;
		done = calloc((size_t)nrows, 1);
		if (!done)
			abort();
		for (int i = 0; i < nrows && rc == 0; i++) {
			struct store_outbox_row *r = &rows[i];
			json_t *prefs;
			const char *mode;

			if (done[i])
				continue;
			done[i] = 1;
			if (!r->user_id) {
				st->skipped++;
				rc = finish(n, r->id, STORE_OUTBOX_SKIPPED, now, "no recipient", err);
				continue;
			}
			if (superseded(n, r, why, sizeof(why))) {
				st->skipped++;
				st->superseded++;
				log_info("notification %lld (%s to seat %d of game %lld) not sent: %s", (long long)r->id,
					 r->event, r->seat, (long long)r->game_id, why);
				rc = finish(n, r->id, STORE_OUTBOX_SKIPPED, now, why, err);
				continue;
			}
			if (r->digest) {
				/* this user's digest: every claimed digest row of theirs goes in one message */
				struct store_outbox_row *group = calloc((size_t)nrows, sizeof(*group));
				int ng = 0;
				if (!group)
					abort();
				for (int k = i; k < nrows && rc == 0; k++) {
					if (!rows[k].digest || rows[k].user_id != r->user_id)
						continue;
					done[k] = 1;
					/* a digest leaves out what is no longer true */
					if (superseded(n, &rows[k], why, sizeof(why))) {
						st->skipped++;
						st->superseded++;
						rc = finish(n, rows[k].id, STORE_OUTBOX_SKIPPED, now, why, err);
						continue;
					}
					group[ng++] = rows[k];
				}
				if (rc == 0 && ng)
					rc = deliver_rows(n, group, ng, now, st, err);
				free(group);
				continue;
			}
			prefs = user_prefs(n, r->user_id);
			/*
			 * a sign-in link, the answer to a player's email, and an admin's abort or drop
			 * (the last word about a seat or a game) are wanted now, whatever the preferences say
			 */
			mode = strcmp(r->event, "signin") == 0 || strncmp(r->event, "email_", 6) == 0 ||
				       strcmp(r->event, "abort") == 0 || strcmp(r->event, "dropped") == 0
				       ? "now"
				       : notify_prefs_mode(prefs, r->event);
			/* the daily digest is an email: a browser that allowed notifications is told at once */
			if (strcmp(mode, "digest") == 0 && notify__row_push_sub(r))
				mode = "now";
			if (strcmp(mode, "off") == 0) {
				st->skipped++;
				rc = finish(n, r->id, STORE_OUTBOX_SKIPPED, now, "turned off in the preferences", err);
			} else if (strcmp(mode, "digest") == 0) {
				int hour = (int)json_integer_value(json_object_get(prefs, "digest_hour"));
				st->deferred++;
				rc = finish(n, r->id, STORE_OUTBOX_DIGEST, next_digest(now, hour), NULL, err);
			} else {
				rc = deliver_rows(n, r, 1, now, st, err);
			}
			json_decref(prefs);
		}
		free(done);
		done = NULL;
		store_outbox_rows_free(rows, nrows);
		rows = NULL;
		if (rc < 0)
			return rc;
		if (nrows < CLAIM_BATCH)
			break;
	}
	return 0;
}

int notify_recover(struct notify *n, int64_t now, int *released, struct err *err)
{
	struct store_conn *c;
	int rc;

	if ((rc = store_write_begin(n->store, &c, err)) < 0)
		return rc;
	if ((rc = store_outbox_release_leases(c, now, released, err)) < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

static void *notify_thread(void *arg)
{
	struct notify *n = arg;
	struct err e = {0};
	int released = 0;

	if (notify_recover(n, clock_now_ms(), &released, &e) < 0)
		log_error("notifier: %s", e.msg);
	else if (released)
		log_info("notifier: %d notification%s interrupted by the last stop will be delivered now", released,
			 released == 1 ? "" : "s");
	while (!atomic_load(&n->stopping)) {
		struct timespec ts;

		err_clear(&e);
		if (atomic_exchange(&n->reload, 0)) {
			struct render_set *fresh = NULL;
			if (notify__templates_load(n->cfg.templates_dir, &fresh, &e) < 0) {
				log_error("notifier: the templates were not reloaded, the ones in use stay: %s", e.msg);
				err_clear(&e);
			} else {
				render_set_free(n->tmpl);
				n->tmpl = fresh;
				const char *dir = n->cfg.templates_dir && *n->cfg.templates_dir ? n->cfg.templates_dir : NULL;
				log_info("notifier: templates reloaded%s%s", dir ? " from " : "", dir ? dir : "");
			}
		}
		if (notify_run_once(n, clock_now_ms(), NULL, &e) < 0)
			log_error("notifier: %s", e.msg);
		pthread_mutex_lock(&n->lock);
		if (!n->wake && !atomic_load(&n->stopping)) {
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += n->cfg.tick_ms / 1000;
			ts.tv_nsec += (long)(n->cfg.tick_ms % 1000) * 1000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&n->cond, &n->lock, &ts);
		}
		n->wake = 0;
		pthread_mutex_unlock(&n->lock);
	}
	return NULL;
}

int notify_start(struct notify *n, struct err *err)
{
	if (n->started)
		return 0;
	atomic_store(&n->stopping, 0);
	if (pthread_create(&n->thread, NULL, notify_thread, n) != 0)
		return err_set(err, ERR_INTERNAL, "cannot start the notifier thread");
	n->started = 1;
	return 0;
}

void notify_stop(struct notify *n)
{
	if (!n || !n->started)
		return;
	pthread_mutex_lock(&n->lock);
	atomic_store(&n->stopping, 1);
	pthread_cond_signal(&n->cond);
	pthread_mutex_unlock(&n->lock);
	pthread_join(n->thread, NULL);
	n->started = 0;
}

void notify_reload(struct notify *n)
{
	if (!n)
		return;
	atomic_store(&n->reload, 1);
	notify_wake(n);
}

void notify_wake(struct notify *n)
{
	if (!n)
		return;
	pthread_mutex_lock(&n->lock);
	n->wake = 1;
	pthread_cond_signal(&n->cond);
	pthread_mutex_unlock(&n->lock);
}

