/* store/store.h: the SQLite storage of turnpost (the only code that knows SQL) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_STORE_H
#define TURNPOST_STORE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/*
 * One store = one database file in WAL mode with foreign keys on: one writer
 * connection behind a mutex (all writes go through store_write_begin or
 * store_write_grouped, so there is one writer path) and a pool of read
 * connections. Every statement is prepared once per connection and cached.
 */
struct store;
/* A connection lent by the store: a reader, or the writer inside a transaction. */
struct store_conn;

struct store_options {
	int read_connections; /* pool size; 0 means 8 */
	int busy_timeout_ms;  /* 0 means 5000 */
	/*
	 * 1: copy the WAL into the database mostly from a thread of the store
	 * (its own connection, PASSIVE: writers and readers go on meanwhile),
	 * every 1,000 new pages and once a second; at checkpoint_pages the
	 * commit that got there copies the rest itself, so the WAL starts again
	 * (store.c says why both). Instead of SQLite's checkpoint of 1,000 pages
	 * inside a commit, which holds the writer through the copy and two syncs
	 * and copies hot pages more often. For a long-running process (turnpostd).
	 */
	int background_checkpoints;
	int checkpoint_pages; /* the WAL's length in pages when a commit finishes the copy; 0 means 8000 (32 MB) */
};

/* Open (creating the file and its directory's database if needed) and apply migrations. */
int store_open(const char *path, const struct store_options *opt, struct store **out, struct err *err);
/* Checkpoint and close every connection. Accepts NULL. */
void store_close(struct store *s);
/* Number of migrations applied (the schema version). */
int store_schema_version(struct store *s);

/* Borrow a read connection; always give it back with store_read_release. */
int store_read_acquire(struct store *s, struct store_conn **out, struct err *err);
/*
 * Borrow a read connection inside one read transaction: every statement run
 * on it until store_read_release sees the same committed state (the snapshot
 * the first statement takes), and the statements share one WAL read lock and
 * the connection's page cache instead of each taking its own.
 */
int store_read_begin(struct store *s, struct store_conn **out, struct err *err);
/* Give a read connection back (ending the transaction of store_read_begin). */
void store_read_release(struct store_conn *c);

/*
 * Take the writer (blocking other writers) and BEGIN IMMEDIATE. End with
 * exactly one of store_write_commit (durable on return) or
 * store_write_rollback (nothing kept).
 */
int store_write_begin(struct store *s, struct store_conn **out, struct err *err);
int store_write_commit(struct store_conn *c, struct err *err);
void store_write_rollback(struct store_conn *c);

/*
 * Group commit. Run fn(c, ctx, err) on the writer inside a savepoint of the
 * one transaction shared by the writes submitted at the same time, and
 * return once that transaction is durable (its WAL frames synced to disk;
 * store.c says how): 0 when fn
 * succeeded and its writes are committed. When fn fails, its savepoint is
 * rolled back (nothing of it is kept, the other writes of the group are not
 * affected) and its code is returned at once. When the shared commit fails,
 * every write of the group gets ERR_STORE and nothing of them is kept, so a
 * caller must not act on what fn produced unless 0 is returned. fn runs on
 * the caller's thread with the writer held, must neither begin nor end a
 * transaction, and sees the uncommitted writes of the group's earlier members.
 */
typedef int (*store_write_fn)(struct store_conn *c, void *ctx, struct err *err);
int store_write_grouped(struct store *s, store_write_fn fn, void *ctx, struct err *err);
/*
 * The same without waiting: fn runs as above, and when it fails its code is
 * returned (done is not called). Else 0 is returned and done(arg, rc, e) is
 * called exactly once when the write is durable (rc 0) or its commit or
 * sync failed (rc < 0, e says why): from any thread, possibly this one
 * before this returns, and possibly with the store's mutexes held, so done
 * must only hand the outcome on (post, signal, resume) and never call the
 * store.
 */
typedef void (*store_done_fn)(void *arg, int rc, const struct err *e);
int store_write_grouped_async(struct store *s, store_write_fn fn, void *ctx, store_done_fn done, void *arg,
			      struct err *err);
/* Since store_open: commits of grouped transactions and the successful writes they held. */
void store_write_group_stats(struct store *s, uint64_t *commits, uint64_t *writes);
/* Since store_open: syncs of the WAL file (each one makes every commit before it durable). */
uint64_t store_sync_count(struct store *s);
/*
 * A number that changes whenever a transaction that changed the database is
 * committed, by this store's writer or any other connection or process
 * (PRAGMA data_version on a connection of its own). Something computed from
 * the database between two calls that gave the same number was computed
 * from the state that number stands for.
 */
int store_data_version(struct store *s, uint64_t *version, struct err *err);
/* Since store_open: checkpoints run by the background checkpointer (0 without one). */
uint64_t store_checkpoint_count(struct store *s);
/*
 * Tests: the next n syncs of the WAL fail as a failing disk's would, each
 * after delay_ms. The first failure fails the waiting writes, rolls back the
 * group that gathered meanwhile, and fails every later write and
 * store_ping of this store (a restart is what recovers: after a failed sync
 * the disk's state is unknown).
 */
void store_fail_syncs_for_tests(struct store *s, int n, int delay_ms);
/* 1 when every commit made so far is on disk (a reader sees nothing that a power loss could take back). */
int store_synced(struct store *s);
/* A number unique among the stores this process has opened (a key for caches of what a store holds). */
uint64_t store_id(struct store *s);
/*
 * A number that changes whenever this process opens a store, commits a
 * change to an existing token, user or seat (a revocation, a new owner or
 * address, preferences), or fails a commit. New rows (a new game's seats and
 * tokens) do not change it: they cannot make a lookup that succeeded wrong.
 * A cache of token lookups is still current while the number is the one it
 * was filled under (changes by other processes are not seen: bound such a
 * cache's age too).
 */
uint64_t store_change_generation(void);

/* A cheap query proving the database answers (for /healthz). */
int store_ping(struct store *s, struct err *err);
/* Online backup of the whole database into a new file. */
int store_backup(struct store *s, const char *dest, struct err *err);

/* ---- users and tokens (store/user.c) ---- */

struct store_user {
	int64_t id;
	char *email;
	char *name;
	int is_admin;
	char *prefs;
	int64_t created_at;
};
void store_user_release(struct store_user *u);

int store_user_add(struct store_conn *c, const char *email, const char *name, int is_admin,
		   int64_t *id, struct err *err);
/* The user with this email (ERR_NOTFOUND when none). */
int store_user_by_email(struct store_conn *c, const char *email, struct store_user *out, struct err *err);
int store_user_by_id(struct store_conn *c, int64_t id, struct store_user *out, struct err *err);
/* The user with this email, made (not admin) when missing; *id set either way. */
int store_user_ensure(struct store_conn *c, const char *email, const char *name, int64_t *id, struct err *err);
/* Calls fn for every user in id order; a non-zero return from fn stops and is returned. */
int store_user_each(struct store_conn *c, int (*fn)(void *ctx, const struct store_user *u), void *ctx,
		    struct err *err);
int store_user_count_admins(struct store_conn *c, int *count, struct err *err);

enum store_token_kind { TOKEN_API, TOKEN_SEAT, TOKEN_SIGNIN, TOKEN_SESSION };

struct store_token {
	int64_t id;
	enum store_token_kind kind;
	int64_t user_id;  /* 0 when none */
	int64_t game_id;  /* seat tokens */
	int seat;         /* seat tokens; -1 otherwise */
	int64_t expires_at; /* 0: never */
	int64_t revoked_at; /* 0: live */
};

/*
 * Store a token's hash (32 bytes) and return its id. The plain token never
 * reaches the database.
 */
int store_token_add(struct store_conn *c, const unsigned char hash[32], enum store_token_kind kind,
		    int64_t user_id, int64_t game_id, int seat, const char *label, int64_t expires_at,
		    int64_t *id, struct err *err);
/* The live token with this hash (ERR_UNAUTH when none, revoked or expired). */
int store_token_by_hash(struct store_conn *c, const unsigned char hash[32], int64_t now,
			struct store_token *out, struct err *err);
/* Revoke; ERR_NOTFOUND when no live token has this id. */
int store_token_revoke(struct store_conn *c, int64_t id, int64_t now, struct err *err);

/* ---- games, seats, moves (store/game.c) ---- */

struct store_game {
	int64_t id;
	char game[48];
	char *options;
	char *seed;
	char status[12];
	int nplayers;
	int move_count;
	unsigned active_seats;
	char *result; /* NULL while running */
	char *initial;
	int64_t created_by;
	int64_t created_at;
	int64_t updated_at;
};
void store_game_release(struct store_game *g);

struct store_seat {
	int seat;
	int64_t user_id;
	char *name;
	char *email;
};
void store_seats_free(struct store_seat *seats, int n);

/* What a stored step is: a player's step (or undo), or an admin's rollback to an earlier position. */
enum store_move_kind { STORE_MOVE_STEP = 0, STORE_MOVE_ROLLBACK = 1 };

struct store_move {
	int n;
	enum store_move_kind kind;
	int target;     /* STORE_MOVE_ROLLBACK: the step whose position it restores; else 0 */
	int seat;
	char *text;
	char via[12];
	char *client;
	int64_t at;
	int back;
	int undo_seat;
	char *snapshot; /* filled only when asked for */
};
void store_move_release(struct store_move *m);
void store_moves_free(struct store_move *moves, int n);

int store_game_insert(struct store_conn *c, const struct store_game *g, int64_t *id, struct err *err);
int store_game_get(struct store_conn *c, int64_t id, struct store_game *out, struct err *err);
/*
 * What reading and making moves need: the game row's id, game, status,
 * nplayers, move_count, active_seats and updated_at (the other fields are
 * left empty) and the step that row names as the latest, with its snapshot,
 * back and undo_seat (the set-up's snapshot, back 0 and undo_seat -1 at move
 * count 0). The row is one statement; the step comes from the store's memory
 * when it was read before (a stored step never changes), else from a second
 * statement by number, so both agree without a transaction around them.
 * Release both.
 */
int store_game_head(struct store_conn *c, int64_t id, struct store_game *g, struct store_move *head,
		    struct err *err);
/*
 * Since store_open: store_game_head reads whose step came from the store's
 * memory of recent latest steps, and those that read it from the database.
 */
void store_head_stats(struct store *s, uint64_t *hits, uint64_t *misses);
/* Remember m, a committed step of game_id, as what store_game_head reads when the game is at m->n. */
void store_head_remember(struct store *s, int64_t game_id, const struct store_move *m);
/*
 * store_game_update, only while the game is still active at move count
 * `expected`: ERR_STALE (nothing changed) when it is not, or is gone.
 */
int store_game_advance(struct store_conn *c, int64_t id, int expected, int move_count, unsigned active_seats,
		       const char *status, const char *result, int64_t now, struct err *err);
/* Set move_count, active_seats, status and result (NULL keeps none) after a step. */
int store_game_update(struct store_conn *c, int64_t id, int move_count, unsigned active_seats,
		      const char *status, const char *result, int64_t now, struct err *err);

int store_seat_insert(struct store_conn *c, int64_t game_id, const struct store_seat *s, struct err *err);
/* All seats of a game in seat order; *out is new (store_seats_free). */
int store_seats_get(struct store_conn *c, int64_t game_id, struct store_seat **out, int *n, struct err *err);

/* Game ids, newest first: all (user_id 0) or those where the user holds a seat. */
int store_game_ids(struct store_conn *c, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err);

int store_move_append(struct store_conn *c, int64_t game_id, const struct store_move *m, struct err *err);
/* One step with its snapshot; n == 0 gives the set-up position from games.initial. */
int store_move_get(struct store_conn *c, int64_t game_id, int n, struct store_move *out, struct err *err);
/* All steps in order, with snapshots when with_snapshots; *out new (store_moves_free). */
int store_moves_list(struct store_conn *c, int64_t game_id, int with_snapshots, struct store_move **out,
		     int *n, struct err *err);
/*
 * Replace one stored snapshot. Nothing in turnpost calls it: it stands for a
 * row changed behind turnpost's back in the tests of verify. A running
 * turnpostd keeps showing the snapshot it read before for a game's latest
 * step (store_game_head); verify reads the rows themselves.
 */
int store_move_set_snapshot(struct store_conn *c, int64_t game_id, int n, const char *snapshot, struct err *err);

/* ---- chat, open seats, account (store/game.c, store/user.c) ---- */

struct store_chat {
	int64_t id;
	int seat;          /* -1: not a player */
	char *name;        /* the user's name at reading time */
	char *text;
	int64_t at;
};
void store_chats_free(struct store_chat *list, int n);
int store_chat_add(struct store_conn *c, int64_t game_id, int seat, int64_t user_id, const char *text, int64_t at,
		   struct err *err);
/* The last `limit` messages of a game, oldest first; *out new. */
int store_chat_list(struct store_conn *c, int64_t game_id, int limit, struct store_chat **out, int *n,
		    struct err *err);
/* Give the lowest open seat (no user) of an active game to a user. ERR_CONFLICT when none is open. */
int store_seat_claim(struct store_conn *c, int64_t game_id, int64_t user_id, const char *name, const char *email,
		     int *seat, struct err *err);
/* Ids of active games with an open seat that user_id does not already sit in, newest first. */
int store_games_open(struct store_conn *c, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err);
/* Change a user's email, and the email shown on their seats. ERR_CONFLICT when another user has it. */
int store_user_set_email(struct store_conn *c, int64_t id, const char *email, struct err *err);
/* Change a user's name and preferences (JSON text). */
int store_user_update(struct store_conn *c, int64_t id, const char *name, const char *prefs, struct err *err);

/* ---- idempotency, outbox, audit (store/game.c) ---- */

/* The stored answer for (token, key): ERR_NOTFOUND when none. body is new. */
int store_idem_get(struct store_conn *c, int64_t token_id, const char *key, unsigned char hash[32],
		   int64_t *game_id, int *status, char **body, struct err *err);
int store_idem_put(struct store_conn *c, int64_t token_id, const char *key, const unsigned char hash[32],
		   int64_t game_id, int status, const char *body, int64_t now, struct err *err);

int store_outbox_add(struct store_conn *c, const char *event, int64_t game_id, int seat, int64_t user_id,
		     const char *payload, int64_t now, struct err *err);
int store_outbox_count(struct store_conn *c, int64_t game_id, const char *event, int *count, struct err *err);

int store_audit_add(struct store_conn *c, int64_t actor_user_id, const char *actor, const char *action,
		    int64_t game_id, const char *reason, int before, int after, const char *detail,
		    int64_t now, struct err *err);

/*
 * ---- notifications: outbox delivery (store/outbox.c), time controls and
 * vacations (store/clock.c). Owned by the notifier (src/notify/). ----
 */

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

/* Queue a notification (as store_outbox_add) and give its id. seat -1, game_id/user_id 0: none. */
int store_outbox_insert(struct store_conn *c, const char *event, int64_t game_id, int seat, int64_t user_id,
			const char *payload, int64_t now, int64_t *id, struct err *err);
/*
 * Inside a write transaction: up to max pending rows due at now, oldest
 * first, leased until lease_until (their next_at moves there, so a notifier
 * that dies while delivering leaves them due again then). *out new.
 */
/* *due = 1 when some pending notification is due at now (a read: no lease is taken). */
int store_outbox_due(struct store_conn *c, int64_t now, int *due, struct err *err);
/*
 * A number that changes whenever this process commits a transaction that
 * queued a notification or made one due again: the daemon wakes the notifier
 * after a write request only when it changed.
 */
uint64_t store_outbox_generation(void);
int store_outbox_claim(struct store_conn *c, int64_t now, int64_t lease_until, int max,
		       struct store_outbox_row **out, int *n, struct err *err);
/* At start-up: rows leased by a notifier that is gone become due at now. *count: how many (may be NULL). */
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

/* Replace a user's notification preferences (JSON text, validated by the caller). */
int store_user_set_prefs(struct store_conn *c, int64_t user_id, const char *prefs, struct err *err);

/* A game's time control. mode "none" has no row. */
struct store_clock {
	char mode[12];        /* "none", "per_turn", "bank" */
	int64_t turn_ms;      /* per_turn: the time for each turn */
	int64_t bank_ms;      /* bank: each seat's starting time */
	int64_t increment_ms; /* bank: added after each turn */
	int64_t reminder_ms;  /* a reminder this long before the deadline; 0: none */
	char timeout[8];      /* "bot", "drop", "notify" */
	int bot_level;        /* for "bot" and "drop" */
};

/* One seat's clock. Times are 0 when not set. */
struct store_seat_clock {
	int64_t game_id;
	int seat;
	int64_t user_id;        /* the seat's player (0: none) */
	int64_t bank_ms;        /* what is left of a chess clock */
	int64_t turn_started_at;/* the seat must act since then; 0 while it need not */
	int64_t deadline_at;
	int64_t remind_at;
	int reminded, timed_out, dropped;
};

/* Store the time control of a new game and start the clocks of the seats in active. */
int store_clock_create(struct store_conn *c, int64_t game_id, const struct store_clock *k, int nseats,
		       unsigned active, int64_t now, struct err *err);
/* The game's time control; ERR_NOTFOUND (mode "none") when it has none. */
int store_clock_get(struct store_conn *c, int64_t game_id, struct store_clock *out, struct err *err);
/*
 * After a step, in its transaction: active is the set of seats that must act
 * now (0 once the game is over). Seats that stopped acting stop their clock
 * (a chess clock is charged the time outside vacations and gets its
 * increment); seats that started get a deadline and a reminder time. No-op
 * for games without a time control.
 */
int store_clock_step(struct store_conn *c, int64_t game_id, unsigned active, int64_t now, struct err *err);
/* Every seat clock of a game in seat order; *out new (free()). */
int store_clock_seats(struct store_conn *c, int64_t game_id, struct store_seat_clock **out, int *n,
		      struct err *err);
/* Seats of active games whose reminder or deadline has come and was not handled yet; *out new (free()). */
int store_clock_due(struct store_conn *c, int64_t now, int max, struct store_seat_clock **out, int *n,
		    struct err *err);
/* Set a seat's flags (-1 keeps one); dropping reschedules a running clock to act at once. */
int store_clock_flag(struct store_conn *c, int64_t game_id, int seat, int reminded, int timed_out, int dropped,
		     int64_t now, struct err *err);
/* Recompute the deadlines of the user's running clocks (after a vacation changed). */
int store_clock_refresh_user(struct store_conn *c, int64_t user_id, int64_t now, struct err *err);

int store_vacation_add(struct store_conn *c, int64_t user_id, int64_t start, int64_t end, int64_t now,
		       struct err *err);
/* End the user's running vacation at now and drop planned ones; *ended: rows changed (may be NULL). */
int store_vacation_end(struct store_conn *c, int64_t user_id, int64_t now, int *ended, struct err *err);
/*
 * Vacation time of the user that falls between from and to (*used_ms), and
 * the vacation running at now (*cur_start, *cur_end; 0 when none).
 */
int store_vacation_summary(struct store_conn *c, int64_t user_id, int64_t from, int64_t to, int64_t now,
			   int64_t *used_ms, int64_t *cur_start, int64_t *cur_end, struct err *err);

#endif
