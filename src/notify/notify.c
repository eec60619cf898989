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
	notify__chan_free(m->chan);
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
	pthread_rwlock_init(&n->tmpl_lock, NULL);
	pthread_mutex_init(&n->qlock, NULL);
	pthread_cond_init(&n->qcond, NULL);
	pthread_cond_init(&n->qdone, NULL);
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
	if (n->cfg.workers <= 0)
		n->cfg.workers = 4;
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
	/* /metrics shows the transport's counters from the start, at 0 */
	notify__count(notify__transport_name(n), -1);
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
	pthread_rwlock_destroy(&n->tmpl_lock);
	pthread_mutex_destroy(&n->qlock);
	pthread_cond_destroy(&n->qcond);
	pthread_cond_destroy(&n->qdone);
	free(n->workers);
	free(n->active);
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

/*
 * The time of an attempt of j: the pass's time, and what the clock says has
 * passed since j was queued. Each attempt is signed, stamped and scheduled
 * with its own time, not the time its pass began: a slow receiver earlier in
 * the queue makes neither a stale Standard Webhooks timestamp nor a retry
 * that goes out before its back-off is over. (A clock fixed by a test does
 * not move: the pass's time then.)
 */
static int64_t job_now(const struct notify_job *j)
{
	int64_t d = clock_now_ms() - j->queued_clock;

	return j->queued_at + (d > 0 ? d : 0);
}

/* Deliver one message made of j's rows (or those of them in rows) and record the outcome for every row. */
static int deliver_rows(struct notify *n, const struct notify_job *j, const struct store_outbox_row *rows, int nrows,
			struct notify_stats *st, struct err *err)
{
	struct notify_msg m = {0};
	struct notify_result res = {0};
	enum store_outbox_outcome how;
	int64_t now = job_now(j), at;
	int attempts = rows[0].attempts + 1, rc;
	struct err ce = {0};

	if (strcmp(rows[0].event, "channel") == 0) {
		rc = notify__chan_compose(n, &rows[0], now, &m, &ce);
	} else {
		pthread_rwlock_rdlock(&n->tmpl_lock);
		rc = notify__compose(n, rows, nrows, now, &m, &ce);
		pthread_rwlock_unlock(&n->tmpl_lock);
	}
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
	/* the outcome is known now: a retry waits its delay from here */
	now = job_now(j);
	at = now;
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
	/* counted once recorded: a scrape never sees a delivery the outbox does not */
	notify__count(res.transport ? res.transport : notify__transport_name(n), (int)how);
	notify__msg_release(&m);
	return rc < 0 ? rc : 0;
}

static int superseded(struct notify *n, const struct store_outbox_row *r, char *why, size_t size);

/*
 * A newer row for the dashboard channel id of r's game still to send: it
 * shows the game as it is then, as r would. NULL when none. Borrowed from all.
 */
static const struct store_outbox_row *newer_dashboard(const struct store_outbox_row *r, int64_t id,
						      const struct store_outbox_row *all, int nall)
{
	for (int i = 0; i < nall; i++) {
		json_t *p;
		int same;
		if (all[i].id <= r->id || strcmp(all[i].event, "channel") != 0 || strcmp(all[i].state, "pending") != 0)
			continue;
		p = json_loads(all[i].payload ? all[i].payload : "{}", 0, NULL);
		same = json_integer_value(json_object_get(p, "channel")) == id;
		json_decref(p);
		if (same)
			return &all[i];
	}
	return NULL;
}

/*
 * A chat message no longer to send: its channel was removed, or what it says
 * (whose turn, a reminder) is no longer true, as for an email. A newer
 * message to the same channel does not supersede it: a channel keeps the
 * whole story of the game. A dashboard (one message, edited) is the
 * exception: it shows the game as it is when sent, so it is never out of
 * date, and a newer update queued for it makes this one needless.
 */
static int chan_superseded(struct notify *n, const struct store_outbox_row *r, char *why, size_t size)
{
	struct store_channel ch = {0};
	struct store_outbox_row as = *r;
	struct store_conn *c;
	struct err e = {0};
	json_t *p = json_loads(r->payload ? r->payload : "{}", 0, NULL);
	const char *event = json_string_value(json_object_get(p, "event"));
	int out = 0, rc = -1;

	if (store_read_acquire(n->store, &c, &e) == 0) {
		rc = store_channel_get(c, json_integer_value(json_object_get(p, "channel")), &ch, &e);
		store_read_release(c);
		if (rc == ERR_NOTFOUND) {
			snprintf(why, size, "superseded: the channel was removed");
			out = 1;
		}
	}
	if (!out && rc == 0 && !ch.dashboard && event && strcmp(event, "dashboard") == 0) {
		snprintf(why, size, "superseded: the channel no longer keeps a dashboard message");
		out = 1;
	}
	if (!out && rc == 0 && ch.dashboard && ch.game_id) {
		struct store_outbox_row *all = NULL;
		const struct store_outbox_row *newer;
		int nall = 0;
		if (store_read_acquire(n->store, &c, &e) == 0) {
			if (store_outbox_list_game(c, r->game_id, &all, &nall, &e) == 0 &&
			    (newer = newer_dashboard(r, ch.id, all, nall))) {
				snprintf(why, size, "superseded: a newer update of the dashboard (%lld) follows",
					 (long long)newer->id);
				out = 1;
			}
			store_read_release(c);
		}
		store_outbox_rows_free(all, nall);
		store_channel_release(&ch);
		json_decref(p);
		return out;
	}
	if (!out && event && (strcmp(event, "your_turn") == 0 || strcmp(event, "reminder") == 0) && r->game_id &&
	    r->seat >= 0 && r->seat < GAME_MAX_SEATS) {
		snprintf(as.event, sizeof(as.event), "%s", event);
		/* only whether the seat still has to act: "a newer one says the same" is about emails */
		as.id = INT64_MAX;
		out = superseded(n, &as, why, size);
	}
	store_channel_release(&ch);
	json_decref(p);
	return out;
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

	if (strcmp(r->event, "channel") == 0)
		return chan_superseded(n, r, why, size);
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

int notify__job_run(struct notify *n, struct notify_job *j, struct notify_stats *st, struct err *err)
{
	const struct store_outbox_row *r = &j->rows[0];
	int64_t now = job_now(j);
	char why[160];
	json_t *prefs;
	const char *mode;
	int rc = 0;

	if (r->digest) {
		/* this user's digest: every claimed digest row of theirs goes in one message */
		struct store_outbox_row *group = calloc((size_t)j->nrows, sizeof(*group));
		int ng = 0;

		if (!group)
			abort();
		for (int k = 0; k < j->nrows && rc == 0; k++) {
			/* a digest leaves out what is no longer true */
			if (superseded(n, &j->rows[k], why, sizeof(why))) {
				st->skipped++;
				st->superseded++;
				rc = finish(n, j->rows[k].id, STORE_OUTBOX_SKIPPED, now, why, err);
				continue;
			}
			group[ng++] = j->rows[k];
		}
		if (rc == 0 && ng)
			rc = deliver_rows(n, j, group, ng, st, err);
		free(group);
		return rc;
	}
	if (superseded(n, r, why, sizeof(why))) {
		st->skipped++;
		st->superseded++;
		log_info("notification %lld (%s to seat %d of game %lld) not sent: %s", (long long)r->id, r->event, r->seat,
			 (long long)r->game_id, why);
		return finish(n, r->id, STORE_OUTBOX_SKIPPED, now, why, err);
	}
	prefs = user_prefs(n, r->user_id);
	/*
	 * a sign-in link, the answer to a player's email, and an admin's abort or drop
	 * (the last word about a seat or a game) are wanted now, whatever the preferences say; a chat
	 * destination's choice of events was made when it was queued
	 */
	mode = strcmp(r->event, "channel") == 0 || strcmp(r->event, "signin") == 0 ||
			       strncmp(r->event, "email_", 6) == 0 || strcmp(r->event, "abort") == 0 ||
			       strcmp(r->event, "dropped") == 0
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
		rc = deliver_rows(n, j, j->rows, 1, st, err);
	}
	json_decref(prefs);
	return rc;
}

/* A job of rows[idx] (moved out of rows: the slot is left without strings), queued at now. */
static struct notify_job *job_new(struct notify *n, struct store_outbox_row *rows, const int *idx, int count,
				  int64_t now, int64_t clock, struct notify_pass *pass)
{
	struct notify_job *j = calloc(1, sizeof(*j));

	if (!j || !(j->rows = calloc((size_t)count, sizeof(*j->rows))))
		abort();
	for (int i = 0; i < count; i++) {
		j->rows[i] = rows[idx[i]];
		rows[idx[i]].payload = NULL;
		rows[idx[i]].last_error = NULL;
	}
	j->nrows = count;
	notify__dest_key(n, &j->rows[0], j->key, sizeof(j->key));
	j->queued_at = now;
	j->queued_clock = clock;
	j->pass = pass;
	return j;
}

/*
 * One round: deadlines and reminders, then every due row claimed and queued
 * for the pool. With pass set, wait until all of them were delivered and add
 * up what became of them there; without, return once they are queued (the
 * thread: a slow receiver never holds up the next round).
 */
static int run_pass(struct notify *n, int64_t now, struct notify_stats *st, struct notify_pass *pass,
		    struct err *err)
{
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	int64_t clock = clock_now_ms();
	char *done = NULL;
	int *idx = NULL;
	int nrows = 0, rc;

	{
		/* several daemons on one database: one of them at a time fires deadlines and reminders */
		int leading = 1;
		if ((rc = store_lead(n->store, STORE_LEAD_TIMERS, &leading, err)) < 0)
			return rc;
		if (leading && (rc = notify__timers(n, now, st, err)) < 0)
			return rc;
	}
	if ((rc = notify__pool_start(n, err)) < 0)
		return rc;
	for (;;) {
		int due = 0, room;

		if (atomic_load(&n->stopping))
			break;
		/* the queue is long (receivers slow): leave the rows due until there is room */
		if ((room = notify__pool_room(n)) <= 0)
			break;
		/* a read first: the writer (shared with the moves) is taken only when something is due */
		if ((rc = store_read_acquire(n->store, &c, err)) < 0)
			break;
		rc = store_outbox_due(c, now, &due, err);
		store_read_release(c);
		if (rc < 0 || !due)
			break;
		if ((rc = store_write_begin(n->store, &c, err)) < 0)
			break;
		if ((rc = store_outbox_claim(c, now, now + n->cfg.lease_ms, room < CLAIM_BATCH ? room : CLAIM_BATCH,
					     &rows, &nrows, err)) < 0) {
			store_write_rollback(c);
			break;
		}
		if ((rc = store_write_commit(c, err)) < 0) {
			store_outbox_rows_free(rows, nrows);
			rows = NULL;
			break;
		}
		if (!nrows)
			break;
		if (!(done = calloc((size_t)nrows, 1)) || !(idx = calloc((size_t)nrows, sizeof(*idx))))
			abort();
		for (int i = 0; i < nrows && rc == 0; i++) {
			struct store_outbox_row *r = &rows[i];
			int count = 0;

			if (done[i])
				continue;
			done[i] = 1;
			if (!r->user_id && strcmp(r->event, "channel") != 0) {
				st->skipped++;
				rc = finish(n, r->id, STORE_OUTBOX_SKIPPED, now, "no recipient", err);
				continue;
			}
			idx[count++] = i;
			/* a digest: every claimed digest row of this user goes in one message */
			for (int k = i + 1; r->digest && k < nrows; k++) {
				if (!done[k] && rows[k].digest && rows[k].user_id == r->user_id) {
					done[k] = 1;
					idx[count++] = k;
				}
			}
			notify__pool_add(n, job_new(n, rows, idx, count, now, clock, pass));
		}
		free(done);
		free(idx);
		done = NULL;
		idx = NULL;
		store_outbox_rows_free(rows, nrows);
		rows = NULL;
		if (rc < 0 || nrows < CLAIM_BATCH)
			break;
	}
	if (pass) {
		notify__pool_wait(n, pass);
		st->sent += pass->st.sent;
		st->retried += pass->st.retried;
		st->dead += pass->st.dead;
		st->skipped += pass->st.skipped;
		st->superseded += pass->st.superseded;
		st->deferred += pass->st.deferred;
		if (rc == 0 && pass->rc < 0) {
			rc = pass->rc;
			*err = pass->err;
		}
	}
	return rc < 0 ? rc : 0;
}

int notify_run_once(struct notify *n, int64_t now, struct notify_stats *stats, struct err *err)
{
	struct notify_stats local = {0};
	struct notify_pass pass = {0};

	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	if (atomic_load(&n->stopping))
		return 0;
	return run_pass(n, now, stats, &pass, err);
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
				/* the delivery threads compose with them: swap when none does */
				pthread_rwlock_wrlock(&n->tmpl_lock);
				render_set_free(n->tmpl);
				n->tmpl = fresh;
				pthread_rwlock_unlock(&n->tmpl_lock);
				const char *dir = n->cfg.templates_dir && *n->cfg.templates_dir ? n->cfg.templates_dir : NULL;
				log_info("notifier: templates reloaded%s%s", dir ? " from " : "", dir ? dir : "");
			}
		}
		{
			struct notify_stats st = {0};
			if (run_pass(n, clock_now_ms(), &st, NULL, &e) < 0)
				log_error("notifier: %s", e.msg);
		}
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
	if (!n)
		return;
	pthread_mutex_lock(&n->lock);
	atomic_store(&n->stopping, 1);
	pthread_cond_signal(&n->cond);
	pthread_mutex_unlock(&n->lock);
	if (n->started)
		pthread_join(n->thread, NULL);
	n->started = 0;
	/* deliveries in flight are aborted (progress_cb sees stopping); their rows are retried later */
	notify__pool_stop(n);
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

