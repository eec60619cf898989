/* notify/notify_int.h: what the files of notify/ share (messages, transports, templates) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_NOTIFY_NOTIFY_INT_H
#define TURNPOST_NOTIFY_NOTIFY_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "notify/notify.h"
#include "render/render.h"
#include "util/buf.h"
#include "util/embed.h"

/* The email templates compiled in from templates/email/ (tools/embed.sh). */
extern const struct embed_file embed_email[];

struct notify_chan;

/* One message ready to go out. All strings owned (notify__msg_release). */
struct notify_msg {
	char id[48];          /* "msg_<uid>": webhook-id and the left part of Message-ID */
	char event[24];
	int64_t game_id;      /* 0: none */
	char *game_title;     /* NULL when none */
	int seat;             /* -1: none */
	char *to;             /* address */
	char *to_name;
	char *subject, *text, *html;
	char *seat_link;      /* NULL when none */
	char *reply_to;       /* the seat's reply address play+TOKEN@domain; NULL: the configured Reply-To */
	char *in_reply_to;    /* the Message-ID this answers (an answer to a player's email); NULL when none */
	char *prefs_link;
	char *references;     /* Message-IDs (no angle brackets, space-separated) the answer's References carry
				 after the game's root, oldest first; NULL when none */
	char *unsubscribe_url;    /* the signed one-click link for this recipient and kind; NULL: none */
	char *unsubscribe_mailto; /* unsubscribe+TOKEN@reply-domain; NULL when none */
	int64_t created_at;
	json_t *story;        /* new; NULL when none: {"since":[{"text","name","by_timeout"}],"turn":{"names","yours","prompt"}} */
	int64_t push_sub;     /* > 0: goes by web push to this subscription (notify/push.c), not by the transport */
	char *push_json;      /* with push_sub: what the browser shows, {"title","body","url","event"} */
	struct notify_chan *chan; /* a chat message (event "channel", notify/chan.c): where it goes; NULL: mail.
				     Then to is the channel's hint, to_name its kind and text the message */
};
void notify__msg_release(struct notify_msg *m);

/* What a transport made of one message. */
struct notify_result {
	int ok;                 /* delivered */
	int permanent;          /* failed in a way retrying will not fix */
	int64_t retry_after_ms; /* > 0: the receiver asked us to wait this long (429/503 Retry-After) */
	char error[256];
	const char *transport;  /* the transport's name for /metrics (static); NULL: the configured one */
};

/* The configured transport's name ("file", "smtp", "webhook"). */
const char *notify__transport_name(const struct notify *n);

/*
 * A libcurl header callback (CURLOPT_HEADERFUNCTION) that keeps an answer's
 * Retry-After value in ctx, a char[NOTIFY_RETRY_AFTER_LEN]; and that value
 * (delta seconds or an HTTP date) in ms from now, 0 when absent or past.
 * Every transport that honours Retry-After uses these (transport.c).
 */
#define NOTIFY_RETRY_AFTER_LEN 64
size_t notify__retry_after_cb(char *ptr, size_t size, size_t nmemb, void *ctx);
int64_t notify__retry_after_ms(const char *v, int64_t now);
/* Count an outcome (enum store_outbox_outcome; -1: none, only make the transport known) for /metrics. */
void notify__count(const char *transport, int outcome);

/*
 * One delivery to make: a row, or the rows of one digest. The pool (notify/pool.c)
 * runs jobs on its threads; two jobs with the same key (one destination) never
 * run at once, and they run in the order they were queued.
 */
struct notify_job {
	struct notify_job *next;
	struct store_outbox_row *rows; /* owned (store_outbox_rows_free) */
	int nrows;
	char key[200];                 /* notify__dest_key of rows[0] */
	int64_t queued_at;             /* the pass's time, and */
	int64_t queued_clock;          /* the clock when queued: an attempt's time is measured from them */
	struct notify_pass *pass;      /* who waits for it; NULL: nobody */
};

/* The jobs of one notify_run_once: it waits until none is left, then reads the sum. */
struct notify_pass {
	int pending;
	struct notify_stats st;
	int rc;
	struct err err;
};

struct notify {
	struct notify_config cfg;
	char *base_url, *mail_dir, *smtp_url, *from, *reply_to, *webhook_url, *reply_domain;
	char *smtp_where; /* smtp_url without its user and password: what the log may show */
	int smtp_tls_required; /* never send over smtp:// without STARTTLS */
	char *host;                 /* of base_url, for Message-ID */
	unsigned char *secret;      /* decoded webhook secret */
	size_t secret_len;
	struct store *store;
	struct render_set *tmpl;
	pthread_rwlock_t tmpl_lock; /* read while composing (delivery threads), written to swap in reloaded ones */
	pthread_t thread;
	int started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int wake;
	atomic_int stopping;
	atomic_int reload; /* notify_reload asked: load the templates again before the next pass */
	/* the delivery pool (notify/pool.c), all under qlock */
	pthread_t *workers;
	int nworkers;               /* running */
	int quit;
	pthread_mutex_t qlock;
	pthread_cond_t qcond;       /* a job was queued, a destination became free, or quit */
	pthread_cond_t qdone;       /* a job was done */
	struct notify_job *queue, *queue_tail; /* waiting, oldest first */
	struct notify_job **active; /* running, one slot per worker (NULL: idle) */
	int queued;
};

/* Build the messages for rows (one row, or the rows of one digest). */
int notify__compose(struct notify *n, const struct store_outbox_row *rows, int nrows, int64_t now,
		    struct notify_msg *out, struct err *err);
/* Load templates: DIR/email/NAME.mustache first, then the compiled-in ones for names still missing. */
int notify__templates_load(const char *dir, struct render_set **out, struct err *err);

/*
 * The destination of a row, as a key: two messages with one key are never
 * delivered at the same time, and go in the order they were claimed, so they
 * cannot overtake each other; messages with different keys go in parallel
 * (--delivery-workers). Today: the webhook URL (one for every message), the
 * recipient (file and SMTP: one address per user), or a browser's push
 * subscription. A transport that sends some rows elsewhere gives them the
 * key of that place.
 */
void notify__dest_key(const struct notify *n, const struct store_outbox_row *r, char *out, size_t size);

/* ---- the delivery pool (notify/pool.c) ---- */

/* Start the workers when not running (cfg.workers of them). */
int notify__pool_start(struct notify *n, struct err *err);
/* Stop and join the workers; jobs not yet begun are dropped (their rows stay leased, notify_recover). */
void notify__pool_stop(struct notify *n);
/*
 * Queue j (the pool owns it from now on, whatever the result): 0, or 1 when
 * a row of j is already queued or running (j is dropped: a lease that ran out
 * while it waited, claimed again).
 */
int notify__pool_add(struct notify *n, struct notify_job *j);
/* How many more jobs the queue takes now. */
int notify__pool_room(struct notify *n);
/* Wait until every job of p is done. */
void notify__pool_wait(struct notify *n, struct notify_pass *p);
/* Free a job and its rows. Accepts NULL. */
void notify__job_free(struct notify_job *j);
/* Do a job (notify.c): on a worker, with the stats of this job. */
int notify__job_run(struct notify *n, struct notify_job *j, struct notify_stats *st, struct err *err);

/* Deliver m through the configured transport; never fails itself, the outcome is in res. */
void notify__deliver(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res);
/* The RFC 5322 message (CRLF line ends) for the file and SMTP transports. */
void notify__rfc5322(const struct notify *n, const struct notify_msg *m, int64_t now, struct buf *out);
/* The Standard Webhooks signature "v1,<base64>" of id.timestamp.body with key. */
void notify__webhook_sign(const unsigned char *key, size_t keylen, const char *id, long long ts,
			  const char *body, size_t len, char *out, size_t outsz);
/* Decode "whsec_<base64>"; *key new. ERR_INPUT. */
int notify__secret_decode(const char *text, unsigned char **key, size_t *len, struct err *err);

/* Deliver m (m->push_sub set) by web push to its subscription (notify/push.c); the outcome in res. */
void notify__push_deliver(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res);
/*
 * The JSON text (new) a browser is sent for a message: {"title": subject,
 * "body": the story's newest sentences (or the chat line), "url": the game's
 * page, "event"}, from the message's template data.
 */
char *notify__push_payload(const struct notify *n, const char *event, int64_t game_id, const char *subject,
			   const json_t *data);
/* The web push subscription an outbox row is for (its payload's "push_sub"); 0: none, the row is an email. */
int64_t notify__row_push_sub(const struct store_outbox_row *r);
/* ---- chat messages (notify/chan.c) ---- */
/* Compose the message of an outbox row of event "channel" (a game's channel or a user's destination). */
int notify__chan_compose(struct notify *n, const struct store_outbox_row *row, int64_t now, struct notify_msg *out,
			 struct err *err);
/* Deliver it to Discord, Slack, Matrix, ntfy or a signed webhook, the URL checked again (notify/dest.h). */
void notify__chan_deliver(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res);
void notify__chan_free(struct notify_chan *ch);

/* Reminders and deadlines due at now. */
int notify__timers(struct notify *n, int64_t now, struct notify_stats *st, struct err *err);

#endif
