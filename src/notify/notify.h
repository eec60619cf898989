/* notify/notify.h: the notifier: outbox delivery (file, SMTP, webhook), reminders, deadlines, vacations */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_NOTIFY_NOTIFY_H
#define TURNPOST_NOTIFY_NOTIFY_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/*
 * Events write outbox rows in their own transaction (engine/submit.c). The
 * notifier claims due rows, composes each message at delivery time from the
 * templates and the game as it is then, and hands it to the configured
 * transport. A row is marked sent only after the transport accepted it, so a
 * crash between commit and delivery loses nothing; a message delivered twice
 * carries the same id (webhook-id, Message-ID) both times.
 */

enum notify_transport_kind { NOTIFY_FILE, NOTIFY_SMTP, NOTIFY_WEBHOOK };

struct notify_config {
	enum notify_transport_kind transport;
	const char *base_url;       /* public URL of the server, no trailing slash needed */
	const char *mail_dir;       /* file: where <id>.eml files go (created when missing) */
	const char *smtp_url;       /* smtp: smtp://host:587 or smtps://user:pass@host:465 */
	enum notify_smtp_tls { NOTIFY_TLS_AUTO, NOTIFY_TLS_TRY, NOTIFY_TLS_REQUIRED } smtp_tls;
				    /* smtp://: STARTTLS when offered (try), or never in the clear (required);
				       auto: required when the URL holds a user, else try */
	const char *from;           /* From: address (file and smtp); NULL: turnpost@<base-url host> */
	const char *reply_to;       /* Reply-To:; NULL: From */
	const char *reply_domain;   /* set: a seat's notification gets Reply-To: play+TOKEN@reply_domain (mail/) */
	int reply_days;             /* how long such a reply address works; 0 means 30 days */
	const char *webhook_url;    /* webhook: http(s) URL the JSON is POSTed to */
	const char *webhook_secret; /* webhook: "whsec_<base64>" */
	const char *templates_dir;  /* NULL: the templates compiled in; else DIR/email/NAME.mustache override them */
	int max_attempts;           /* deliveries before a row is dead; 0 means 8 */
	int64_t backoff_ms;         /* first retry delay, doubled each time; 0 means 30 s */
	int64_t backoff_max_ms;     /* at most this; 0 means 6 h */
	int64_t timeout_ms;         /* one delivery's time limit; 0 means 15 s */
	int64_t lease_ms;           /* a claimed row is due again after this; 0 means 10 min */
	int tick_ms;                /* the thread's poll interval; 0 means 1000 */
	int workers;                /* deliveries made at the same time (to different destinations); 0 means 4 */
};

struct notify;

/* Check the configuration, load the templates, and make a notifier (not started). */
int notify_new(const struct notify_config *cfg, struct store *store, struct notify **out, struct err *err);
/* Stop (if started) and free. Accepts NULL. */
void notify_free(struct notify *n);

/* Start the thread: it frees leases left by an earlier process, then works every tick. */
int notify_start(struct notify *n, struct err *err);
/* Ask the thread to stop, abort a delivery in flight (its row is retried later) and join. */
void notify_stop(struct notify *n);
/* Wake the thread now (after a commit that queued rows). Safe from any thread. */
void notify_wake(struct notify *n);
/*
 * Load the email templates again (--templates DIR edited) before the next
 * delivery; when they do not load, the ones in use stay and the error is
 * logged. Safe from any thread (SIGHUP).
 */
void notify_reload(struct notify *n);

struct notify_stats {
	int reminders;   /* reminder rows queued */
	int timeouts;    /* deadlines handled */
	int sent;        /* messages delivered (a digest counts once) */
	int retried;     /* deliveries that failed and will be tried again */
	int dead;        /* rows that failed for the last time */
	int skipped;     /* rows the recipient did not want, or no longer true (superseded) */
	int superseded;  /* of those: "your turn" and reminders no longer true when their turn to be sent came */
	int deferred;    /* rows put off to a digest */
};

/*
 * One round, as the thread does it, beginning at `now`: handle due reminders
 * and deadlines, then deliver every due row (on the delivery threads, several
 * destinations at once) and wait for all of them. Each attempt is made at its
 * own time: now plus what the clock says has passed since. Tests
 * drive the notifier with this and the injected clock. stats may be NULL.
 */
int notify_run_once(struct notify *n, int64_t now, struct notify_stats *stats, struct err *err);
/* At start-up: make rows leased by a process that is gone due at now. */
int notify_recover(struct notify *n, int64_t now, int *released, struct err *err);

/* What became of this process's deliveries, by transport, for /metrics (notify/counts.c). */
#define NOTIFY_COUNTS_MAX 16
struct notify_count {
	char transport[24]; /* "file", "smtp", "webhook", ... */
	uint64_t delivered; /* messages accepted by the receiver */
	uint64_t failed;    /* attempts that failed (retried or dead) */
	uint64_t dead;      /* messages dead-lettered */
};
/* Every transport used or configured so far, into out (up to max); how many. */
int notify_counts(struct notify_count *out, int max);

/* ---- time controls, vacations and preferences (notify/timers.c, notify/prefs.c) ---- */

/*
 * Read a game's "clock" object from the API:
 * {"mode": "none"|"per_turn"|"bank", "turn_hours": 24, "bank_hours": 72, "increment_hours": 12,
 *  "reminder_hours": 4, "timeout": "bot"|"drop"|"notify", "bot_level": 2}
 * (each *_hours may be given as *_minutes or *_ms instead). NULL gives mode none.
 * ERR_INPUT with a message naming the field.
 */
int notify_clock_parse(const json_t *in, struct store_game_clock *out, struct err *err);
/* The clock of a game as JSON for the API (new), with every seat's deadline and bank. */
int notify_clock_json(struct store *s, int64_t game_id, json_t **out, struct err *err);

/* The yearly vacation allowance in days (set once at start-up; default 30). */
void notify_set_vacation_days(int days);
int notify_vacation_days(void);
/*
 * Start a vacation of `days` days (fractions allowed; 0 ends the running one)
 * at now, within the allowance for the calendar year (UTC); the user's
 * deadlines move accordingly. ERR_LIMIT when the allowance is used up.
 */
int notify_vacation_set(struct store *s, int64_t user_id, double days, int64_t now, struct err *err);
/* {"on_vacation","start","end","allowance_days","used_days","left_days"}. New. */
int notify_vacation_json(struct store *s, int64_t user_id, int64_t now, json_t **out, struct err *err);

/* The events a user may choose for, NULL-terminated. */
extern const char *const notify_events[];
/*
 * A user's preferences as the API shows them (new), from the stored JSON text
 * (may be NULL; other keys are ignored). The stored form is shared with the
 * web account page: {"events": {"your_turn": true, "chat": false, ...},
 * "digest": false, "digest_hour": 7}: an event missing is on, and "digest"
 * sends all that are on in one daily email at digest_hour (UTC).
 */
json_t *notify_prefs_get(const char *stored);
/*
 * Merge a change (same shape, any subset) into the stored JSON text, keeping
 * its other keys; *merged is new text to store. ERR_INPUT naming the bad field.
 */
int notify_prefs_merge(const char *stored, const json_t *change, char **merged, struct err *err);
/*
 * The chat apps a user may record their own id in, to be mentioned in a
 * game's channel ("chat_ids" of the preferences: {"discord": "8035...",
 * "slack": "U024BE7LH", "matrix": "@ann:example.org"}; "" for none),
 * NULL-terminated; and whether id is one of kind ("" is: it removes it).
 */
extern const char *const notify_chat_kinds[];
int notify_chat_id_ok(const char *kind, const char *id);
/* How the user wants event: "now", "digest" or "off". */
const char *notify_prefs_mode(const json_t *prefs, const char *event);

#endif
