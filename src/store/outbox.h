/* store/outbox.h: the outbox of notifications: queueing, delivery bookkeeping, listing (store/outbox.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_OUTBOX_H
#define TURNPOST_STORE_OUTBOX_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

/* Owned by the notifier (src/notify/): the engine queues rows, the notifier delivers them. */
struct store_outbox_row {
	int64_t id;
	char uid[32];       /* stable random id: the webhook-id and Message-ID, kept over retries */
	char event[24];     /* "invite", "your_turn", "game_over", "chat", "reminder", "timeout", "rollback" */
	int64_t game_id;    /* 0: none */
	int seat;           /* -1: none */
	int64_t user_id;    /* the recipient; 0: none */
	char *payload;      /* JSON text */
	char state[12];     /* "pending", "sent", "dead", "skipped" */
	int attempts;       /* deliveries tried */
	int64_t next_at;    /* when it is due */
	int digest;         /* 1: waits for the recipient's daily digest */
	char *last_error;   /* NULL when none */
	int64_t created_at;
	int64_t sent_at;    /* 0 until sent */
};
void store_outbox_rows_free(struct store_outbox_row *rows, int n);

/*
 * Queue a notification, due at now. game_id and user_id 0, seat -1: none;
 * payload NULL: "{}". *id (may be NULL) is its id, 0 on failure.
 */
int store_outbox_add(struct store_conn *c, const char *event, int64_t game_id, int seat, int64_t user_id,
		     const char *payload, int64_t now, int64_t *id, struct err *err);
/* How many notifications of this event a game has queued (any state). */
int store_outbox_count(struct store_conn *c, int64_t game_id, const char *event, int *count, struct err *err);
/* *due = 1 when some pending notification is due at now (a read: no lease is taken). */
int store_outbox_due(struct store_conn *c, int64_t now, int *due, struct err *err);
/*
 * A number that changes whenever this process commits a transaction that
 * queued a notification or made one due again: the daemon wakes the notifier
 * after a write request only when it changed.
 */
uint64_t store_outbox_generation(void);
/*
 * Inside a write transaction: up to max pending rows due at now, oldest
 * first, leased until lease_until (their next_at moves there, so a notifier
 * that dies while delivering leaves them due again then). *out new.
 */
int store_outbox_claim(struct store_conn *c, int64_t now, int64_t lease_until, int max,
		       struct store_outbox_row **out, int *n, struct err *err);
/*
 * At start-up: rows leased by a notifier that is gone become due at now.
 * *count: how many (may be NULL). On PostgreSQL, where other daemons'
 * notifiers may hold leases at work, only the leases that ran out by now.
 */
int store_outbox_release_leases(struct store_conn *c, int64_t now, int *count, struct err *err);

enum store_outbox_outcome {
	STORE_OUTBOX_SENT = 0,    /* delivered at `at` */
	STORE_OUTBOX_RETRY = 1,   /* failed with error; try again at `at` */
	STORE_OUTBOX_DEAD = 2,    /* failed for the last time with error */
	STORE_OUTBOX_SKIPPED = 3, /* not sent: the recipient does not want it (error says why) */
	STORE_OUTBOX_DIGEST = 4   /* wait for the recipient's digest due at `at` */
};
/* Record what became of a pending row; ERR_NOTFOUND when it is not pending. */
int store_outbox_finish(struct store_conn *c, int64_t id, enum store_outbox_outcome how, int64_t at,
			const char *error, struct err *err);
/* Rows newest first, only in state (NULL: all) and to user_id (0: all), at most limit (0: 100). *out new. */
int store_outbox_list(struct store_conn *c, const char *state, int64_t user_id, int limit,
		      struct store_outbox_row **out, int *n, struct err *err);
int store_outbox_get(struct store_conn *c, int64_t id, struct store_outbox_row *out, struct err *err);
/* A dead row becomes pending again at now with its attempts reset (same uid). ERR_CONFLICT when not dead. */
int store_outbox_resend(struct store_conn *c, int64_t id, int64_t now, struct err *err);

/* Every notification of a game, oldest first; *out new (store_outbox_rows_free). */
int store_outbox_list_game(struct store_conn *c, int64_t game_id, struct store_outbox_row **out, int *n,
			   struct err *err);
/* How many of the game's notifications are dead. */
int store_outbox_dead_count(struct store_conn *c, int64_t game_id, int *count, struct err *err);

/* How delivery goes, for /healthz. */
struct store_outbox_health {
	int dead_recent;       /* dead-lettered at or after the given time */
	int failing;           /* pending after at least one failed attempt */
	int64_t failing_since; /* the oldest of those was queued then (ms); 0 when none */
};
int store_outbox_health(struct store_conn *c, int64_t dead_since, struct store_outbox_health *out, struct err *err);

#endif
