/* store/store_int.h: what the files of store/ share (connections, statement cache) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_STORE_INT_H
#define TURNPOST_STORE_STORE_INT_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>

#include "store/store.h"

/*
 * The statement layer: the store's modules speak SQL through these types
 * and functions only, never through a database library's own. A backend
 * (store/sqlite.c; docs/store.md) fills one struct store__ops; every
 * connection and every statement points at its backend's table.
 */
struct sqlite3;
struct pg_conn;
/* What store__step answers (SQLite's own numbers, so its backend passes them on as they are). */
#define STORE__ROW 100  /* a row is ready: read it with store__col_* */
#define STORE__DONE 101 /* no more rows; a write has run */
/* Anything else from store__step is a failure: store__fail reads it from the connection. */

/* A prepared statement: the first member of each backend's own. */
struct store__st {
	const struct store__ops *ops;
	struct store_conn *conn;
};

struct store__ops {
	const char *name; /* "sqlite", "postgresql" */
	int postgres;     /* 1: PostgreSQL's dialect (STORE__SQL) */
	const char *begin_read;  /* starts a read transaction of one snapshot */
	const char *begin_write; /* starts the writer's transaction */
	/* A new statement for sql (placeholders ? and ?N); NULL with err set (store__fail) on failure. */
	struct store__st *(*prepare)(struct store_conn *c, const char *sql, struct err *err);
	void (*finalize)(struct store__st *st); /* accepts NULL */
	/* Back to before its first step, every binding cleared. */
	void (*reset)(struct store__st *st);
	/* Bindings (idx from 1). Text and blobs are borrowed: they must outlive the next step. */
	void (*bind_int64)(struct store__st *st, int idx, int64_t v);
	void (*bind_text)(struct store__st *st, int idx, const char *s); /* NULL: SQL NULL */
	void (*bind_blob)(struct store__st *st, int idx, const void *p, int n);
	void (*bind_null)(struct store__st *st, int idx);
	int (*step)(struct store__st *st); /* STORE__ROW, STORE__DONE or a failure */
	/* The current row's columns (from 0). Text and blobs are borrowed until the next step or reset. */
	int64_t (*col_int64)(struct store__st *st, int col);
	const char *(*col_text)(struct store__st *st, int col); /* NULL for SQL NULL */
	const void *(*col_blob)(struct store__st *st, int col);
	int (*col_bytes)(struct store__st *st, int col);
	int (*col_null)(struct store__st *st, int col);
	/* Rows changed by the connection's last write; the id of its last insert. */
	int64_t (*changes)(struct store_conn *c);
	int64_t (*last_id)(struct store_conn *c);
	/* err from the connection's last failure: ERR_CONFLICT for a constraint, else ERR_STORE. */
	int (*fail)(struct store_conn *c, const char *what, struct err *err);
	/* Run statements without parameters or rows (BEGIN, a migration's text): 0 or a failure (store__fail). */
	int (*exec)(struct store_conn *c, const char *sql);
	/* 1 while the connection is inside a transaction (an aborted one included). */
	int (*in_txn)(struct store_conn *c);
};

extern const struct store__ops store__sqlite_ops;
extern const struct store__ops store__pg_ops;

/* The text of a statement in the connection's dialect: SQLite's, or PostgreSQL's where it differs. */
#define STORE__SQL(c, sqlite_sql, pg_sql) ((c)->ops->postgres ? (pg_sql) : (sqlite_sql))

#define STORE__CACHE 256
/* At most this many grouped writes share one commit (bounds the wait of the first). */
#define STORE__GROUP_MAX 48

/*
 * A write waiting until it is durable or has failed: first in its group
 * (store->group) until the group commits, then among the committed writes
 * waiting for the sync (store->unsynced). Whoever ends its wait either
 * posts its semaphore (a ticket on its caller's stack) or, for an
 * asynchronous write, calls its fn and frees it; after that nobody touches
 * it.
 */
struct store__ticket {
	struct store__ticket *next;
	struct err *err; /* the caller's: set when the write fails */
	int rc;          /* 0: committed and synced */
	uint64_t seq;    /* the number of the commit that holds it */
	sem_t done;
	store_done_fn fn; /* asynchronous: called instead of posting done */
	void *arg;
};

struct store_conn {
	struct store *store;
	const struct store__ops *ops;
	struct sqlite3 *db; /* the SQLite backend's connection */
	struct pg_conn *pg; /* the PostgreSQL backend's */
	void *priv;         /* ... and what it keeps of its last statement */
	int writer;
	int busy; /* lent out */
	struct {
		const char *sql; /* static string: the cache key is its address */
		struct store__st *stmt;
	} cache[STORE__CACHE];
};

/*
 * The latest step of recently read games (store_game_head). A stored step's
 * row never changes once committed (steps are only appended; nothing in
 * turnpost updates or deletes one), so (game, step number) names its
 * snapshot for good and an entry is right for as long as the game row says
 * that is its latest step. Filled only from read connections, which see
 * committed rows alone. One entry per game, at game id modulo the size.
 */
#define STORE__HEADS 4096
struct store__head {
	int64_t game_id; /* 0: empty */
	int n;
	int back, undo_seat, seat;
	int64_t at;
	char *snapshot;
};

struct store {
	char *path;
	struct store_conn writer;
	pthread_mutex_t heads_lock;
	struct store__head heads[STORE__HEADS];
	uint64_t head_hits, head_misses; /* heads_lock */
	pthread_mutex_t write_lock;   /* held by whoever uses the writer connection */
	atomic_int write_waiters;     /* threads blocked on write_lock */
	/* group commit (store.c): the open shared transaction and its members */
	int group_open;
	int group_members;
	struct store__ticket *group;
	uint64_t group_commits, group_writes;
	/*
	 * Durability (store.c). In WAL mode the writer commits with
	 * synchronous=NORMAL (COMMIT writes the WAL without waiting for the disk)
	 * and the store's sync thread syncs the WAL, outside the writer mutex, so
	 * one transaction is written while the previous one is being synced.
	 * Every commit gets a number; a write is acknowledged once synced_seq
	 * reaches its number. Without WAL (own_sync 0) the writer keeps
	 * synchronous=FULL and a commit is durable when it returns.
	 * Lock order: write_lock before sync_lock.
	 */
	int outbox_dirty;             /* the open transaction touched the outbox (writer mutex) */
	int auth_dirty;               /* ... changed tokens, users or seats (writer mutex) */
	int own_sync;
	atomic_ullong commit_seq;     /* the last commit whose WAL frames are written */
	pthread_mutex_t sync_lock;
	pthread_cond_t sync_work;     /* to the sync thread: a commit waits for it, or stop */
	struct store__ticket *unsynced; /* committed writes waiting for the sync (sync_lock) */
	uint64_t synced_seq;          /* every commit up to this one is on disk */
	atomic_int syncing;           /* the sync thread is syncing */
	pthread_t syncer;
	int syncer_started, syncer_stop;
	int sync_failed;              /* sticky: the disk refused a sync */
	struct err sync_err;
	int wal_fd;                   /* our own descriptor of the WAL file, opened at the first sync */
	int lock_fd;                  /* PATH-lock, held shared (store_options.hold_lock), else -1 */
	char *wal_path;
	atomic_int fail_syncs;        /* tests: this many syncs fail as a failing disk's would, */
	int fail_sync_delay_ms;       /* ... each after this long */
	uint64_t id;                  /* unique among the stores this process opened */
	uint64_t syncs;
	/* store_data_version: a read-only connection that only asks PRAGMA data_version */
	struct store_conn watch;
	pthread_mutex_t watch_lock;
	/* the checkpointer (store_options.background_checkpoints) */
	struct store_conn ckpt;
	pthread_t ckpt_thread;
	int ckpt_started;
	pthread_mutex_t ckpt_lock;
	pthread_cond_t ckpt_wake;
	int ckpt_stop;
	atomic_int wal_pages;         /* the WAL's size in pages after the last commit */
	atomic_int ckpt_done;         /* ... of which the last checkpoint copied this many */
	int ckpt_pages;               /* at this many WAL pages a commit finishes the copy itself */
	int ckpt_retry_at;            /* ... or at this many, when a reader kept the last one short (writer mutex) */
	uint64_t checkpoints;
	struct store_conn *readers;
	int nreaders;
	pthread_mutex_t read_lock;
	pthread_cond_t read_free;
	int schema_version;
	/* PostgreSQL: the session lock of store_lead (on watch), 0 when not held */
	int64_t lead_key;
	/* PostgreSQL: the thread that LISTENs to the other daemons' commits, on its own connection */
	struct store_conn listener;
	pthread_t listen_thread;
	int listen_started;
	atomic_int listen_stop;
};

/*
 * The cached prepared statement for sql (a string literal), reset and with
 * bindings cleared. Borrowed: do not finalize. NULL with err set on failure.
 */
struct store__st *store__stmt(struct store_conn *c, const char *sql, struct err *err);
/* Set err from the connection's last error; returns ERR_STORE (or ERR_CONFLICT on a constraint). */
int store__fail(struct store_conn *c, const char *what, struct err *err);
/* A new copy of a text column, or NULL for SQL NULL. */
char *store__text(struct store__st *st, int col);
/* Copy a text column into a fixed buffer of size bytes (cut to fit; "" for SQL NULL). */
void store__copy_text(struct store__st *st, int col, char *dst, size_t size);
/*
 * Room for one more element of size bytes in a growing list of count
 * elements: doubles *alloc when count reached it. Aborts when out of memory,
 * like every allocation of the store's readers of rows.
 */
void *store__grow(void *list, int count, int *alloc, size_t size);
/* Bind text or NULL. */
void store__bind_text(struct store__st *st, int idx, const char *s);
/*
 * Step st (a cached query of one row by id, its only parameter; NULL when
 * preparing it failed) to that row: 0, ERR_NOTFOUND "no <noun> <id>", or
 * ERR_STORE naming `what`.
 */
int store__row_by_id(struct store_conn *c, struct store__st *st, int64_t id, const char *noun, const char *what,
		     struct err *err);
/* The writer's transaction queued a notification or made one due again: its commit bumps store_outbox_generation. */
void store__outbox_changed(struct store_conn *c);
/* A transaction that store__outbox_changed marked committed (store/outbox.c keeps the generation). */
void store__outbox_committed(void);
/* The open write changes a token, a user or a seat: store_change_generation moves at its commit. */
void store__auth_changed(struct store_conn *c);
/* store/pg.c: whether target names a PostgreSQL database (postgres://, postgresql://, key=value ...). */
int store__pg_target(const char *target);
/* Connect c to s->path, set up as a writer or a reader (store_conn's fields of a PostgreSQL connection). */
int store__pg_connect(struct store *s, struct store_conn *c, int writer, struct err *err);
/* 1 when c's session is lost; store__pg_reconnect makes a new one (0, or ERR_STORE "database unavailable"). */
int store__pg_lost(struct store_conn *c);
int store__pg_reconnect(struct store_conn *c, struct err *err);
void store__pg_close(struct store_conn *c);
/* Apply the migrations of sql/pg/ the database lacks, behind the schema guard, one daemon at a time. */
int store__pg_migrate(struct store *s, struct err *err);
/* The channels of LISTEN/NOTIFY between daemons: tokens, users or seats changed; the outbox did. */
#define STORE__PG_AUTH "turnpost_auth"
#define STORE__PG_OUTBOX "turnpost_outbox"
/* pg_try_advisory_lock(key) on c's session: *got 1 when it holds it now. */
int store__pg_try_lock(struct store_conn *c, int64_t key, int *got, struct err *err);
/* Wait up to ms for notifications on c (which LISTENs): *auth, *outbox set when those channels spoke. */
int store__pg_wait_notify(struct store_conn *c, int ms, int *auth, int *outbox, struct err *err);
/* store_data_version on PostgreSQL, asked on c. */
int store__pg_data_version(struct store_conn *c, uint64_t *version, struct err *err);
/* Empty the cache of latest steps (store_close). */
void store__heads_free(struct store *s);

static inline void store__bind_int64(struct store__st *st, int idx, int64_t v)
{
	st->ops->bind_int64(st, idx, v);
}
static inline void store__bind_int(struct store__st *st, int idx, int v)
{
	st->ops->bind_int64(st, idx, v);
}
static inline void store__bind_null(struct store__st *st, int idx)
{
	st->ops->bind_null(st, idx);
}
static inline void store__bind_blob(struct store__st *st, int idx, const void *p, int n)
{
	st->ops->bind_blob(st, idx, p, n);
}
static inline int store__step(struct store__st *st)
{
	return st->ops->step(st);
}
static inline void store__reset(struct store__st *st)
{
	st->ops->reset(st);
}
static inline void store__finalize(struct store__st *st)
{
	if (st)
		st->ops->finalize(st);
}
static inline int64_t store__col_int64(struct store__st *st, int col)
{
	return st->ops->col_int64(st, col);
}
static inline int store__col_int(struct store__st *st, int col)
{
	return (int)st->ops->col_int64(st, col);
}
static inline const char *store__col_text(struct store__st *st, int col)
{
	return st->ops->col_text(st, col);
}
static inline const void *store__col_blob(struct store__st *st, int col)
{
	return st->ops->col_blob(st, col);
}
static inline int store__col_bytes(struct store__st *st, int col)
{
	return st->ops->col_bytes(st, col);
}
static inline int store__col_null(struct store__st *st, int col)
{
	return st->ops->col_null(st, col);
}
static inline int64_t store__changes(struct store_conn *c)
{
	return c->ops->changes(c);
}
static inline int64_t store__last_id(struct store_conn *c)
{
	return c->ops->last_id(c);
}
static inline int store__exec(struct store_conn *c, const char *sql)
{
	return c->ops->exec(c, sql);
}
static inline int store__in_txn(struct store_conn *c)
{
	return c->ops->in_txn(c);
}
/* A new statement outside the connection's cache (finalize it): for statements run seldom. */
static inline struct store__st *store__prepare(struct store_conn *c, const char *sql, struct err *err)
{
	return c->ops->prepare(c, sql, err);
}

#endif
