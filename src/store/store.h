/* store/store.h: the store: opening, connections, transactions and durability (store/store.c); includes every store header */
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
 *
 * Every function of the store's headers returns 0 or a negative code of
 * util/err.h with the message in err. On failure every output is empty:
 * pointers NULL, counts and ids 0, a seat -1, structs zeroed (safe to
 * release), so nothing half-read is acted on. docs/store.md has the modules
 * and what a second backend must provide.
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
	/*
	 * 1: hold an exclusive lock (flock) on PATH-lock while open, which
	 * store_restore waits for in vain (a restore cannot replace the database
	 * under a running server) and a second turnpostd on the same database
	 * too (ERR_CONFLICT: it does not start). The turnpost command does not
	 * take it and works beside a running turnpostd. For turnpostd.
	 */
	int hold_lock;
};

/*
 * Open (creating the file and its directory's database if needed) and apply
 * the migrations it lacks, each logged. Refused (ERR_INPUT, nothing changed):
 * a file that is not SQLite, an SQLite database that is not turnpost's (not
 * empty, no schema_migrations), and one with a migration this build does not
 * know (a newer turnpost upgraded it).
 */
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

/*
 * Whether target names a PostgreSQL database (postgres://..., postgresql://...
 * or a libpq keyword string such as "host=/run/postgresql dbname=turnpost")
 * rather than an SQLite file.
 */
int store_target_is_postgres(const char *target);
/* target as it may be shown in a log or a message: a URL's password replaced by ***. */
void store_target_redact(const char *target, char *out, size_t size);
/*
 * Whether this process leads the work that one daemon at a time must do
 * (deadlines, reminders, timeouts), named by key: *leading 1 or 0. SQLite:
 * always (one process serves a database file). PostgreSQL: a session lock
 * held by the store's own connection from the first call that gets it until
 * the process ends or loses the database; then the next daemon that asks
 * takes it over.
 */
int store_lead(struct store *s, int64_t key, int *leading, struct err *err);
#define STORE_LEAD_TIMERS 0x74706c6561640001LL

/* A cheap query proving the database answers (for /healthz). */
int store_ping(struct store *s, struct err *err);
/*
 * Copy the whole database into dest: one read transaction (VACUUM INTO), so
 * writers go on meanwhile and the copy is the state of one moment; it is
 * synced and checked (store_file_check) before it takes dest's name. An
 * existing dest is ERR_CONFLICT unless overwrite.
 */
int store_backup(struct store *s, const char *dest, int overwrite, struct err *err);
/*
 * Check a database file without changing it: a turnpost database (not empty)
 * whose migrations this build knows, that passes SQLite's integrity check.
 * *version: the migrations it has. ERR_INPUT (err says why) when it fails.
 */
int store_file_check(const char *path, int *version, struct err *err);
/*
 * Replace the database at path by a copy of src, checked first
 * (store_file_check). ERR_CONFLICT while a process holds path's lock
 * (store_options.hold_lock: turnpostd is running). An existing database is
 * kept, with its WAL, as PATH.pre-restore-TIME: *kept (new, NULL when there
 * was none).
 */
int store_restore(const char *src, const char *path, char **kept, struct err *err);

/* The store's parts, one header each (callers may include this one for all of them). */
#include "store/user.h"
#include "store/game.h"
#include "store/seat.h"
#include "store/move.h"
#include "store/chat.h"
#include "store/idem.h"
#include "store/outbox.h"
#include "store/audit.h"
#include "store/game_clock.h"
#include "store/vacation.h"
#include "store/reply_token.h"
#include "store/inbound_mail.h"
#include "store/server_key.h"
#include "store/push_sub.h"
#include "store/channel.h"

#endif
