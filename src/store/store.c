/* store/store.c: SQLite connections, the writer path, migrations, backup */
/* SPDX-License-Identifier: MIT */
#include "store/store_int.h"

#include <errno.h>
#include <sqlite3.h>
#include <fcntl.h>
#include <stdio.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/embed.h"
#include "util/log.h"
#include "util/banned.h"

/*
 * Bumped by every store_open and every commit that changed a token, a user
 * or a seat (store__auth_changed) or failed: what caches of such rows
 * compare (store_change_generation).
 */
static atomic_ulong change_generation = 1;

static int wal_sync(struct store *s, struct err *err);
static int check_sync_failed(struct store *s, struct err *err);
static int syncer_start(struct store *s, struct err *err);
static void syncer_stop(struct store *s);

void store__auth_changed(struct store_conn *c)
{
	c->store->auth_dirty = 1;
}

/*
 * After a commit (writer mutex held; failed: rc < 0): tell the notifier's
 * wake-up when the outbox changed, and the caches of token lookups when a
 * token, user or seat did (or a failed commit left it unknown).
 */
static void after_commit(struct store *s, int rc)
{
	if (s->outbox_dirty)
		store__outbox_committed();
	if (s->auth_dirty || rc < 0)
		atomic_fetch_add(&change_generation, 1);
	s->outbox_dirty = 0;
	s->auth_dirty = 0;
}

uint64_t store_change_generation(void)
{
	return atomic_load(&change_generation);
}

struct store__st *store__stmt(struct store_conn *c, const char *sql, struct err *err)
{
	struct store__st *st;
	int free_slot = -1;

	for (int i = 0; i < STORE__CACHE; i++) {
		if (c->cache[i].sql == sql) {
			st = c->cache[i].stmt;
			store__reset(st);
			return st;
		}
		if (!c->cache[i].sql && free_slot < 0)
			free_slot = i;
	}
	if (!(st = c->ops->prepare(c, sql, err)))
		return NULL;
	if (free_slot < 0) {
		/* The cache is sized for every statement we have; this would be a bug. */
		store__finalize(st);
		err_set(err, ERR_INTERNAL, "statement cache full");
		return NULL;
	}
	c->cache[free_slot].sql = sql;
	c->cache[free_slot].stmt = st;
	return st;
}

int store__fail(struct store_conn *c, const char *what, struct err *err)
{
	return c->ops->fail(c, what, err);
}

char *store__text(struct store__st *st, int col)
{
	const char *t = store__col_text(st, col);
	int n;
	char *s;

	if (!t)
		return NULL;
	n = store__col_bytes(st, col);
	s = malloc((size_t)n + 1);
	if (!s)
		abort();
	memcpy(s, t, (size_t)n);
	s[n] = '\0';
	return s;
}

int store__row_by_id(struct store_conn *c, struct store__st *st, int64_t id, const char *noun, const char *what,
		     struct err *err)
{
	int r;

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, id);
	r = store__step(st);
	if (r == STORE__DONE)
		return err_set(err, ERR_NOTFOUND, "no %s %lld", noun, (long long)id);
	if (r != STORE__ROW)
		return store__fail(c, what, err);
	return 0;
}

void store__copy_text(struct store__st *st, int col, char *dst, size_t size)
{
	const char *t = store__col_text(st, col);
	size_t n = t ? (size_t)store__col_bytes(st, col) : 0;

	if (n >= size)
		n = size - 1;
	if (n)
		memcpy(dst, t, n);
	dst[n] = '\0';
}

void *store__grow(void *list, int count, int *alloc, size_t size)
{
	void *grown;

	if (count < *alloc)
		return list;
	*alloc = *alloc ? *alloc * 2 : 16;
	grown = realloc(list, size * (size_t)*alloc);
	if (!grown)
		abort();
	return grown;
}

void store__bind_text(struct store__st *st, int idx, const char *s)
{
	st->ops->bind_text(st, idx, s);
}

/* Whether the connection's database is in WAL mode (an in-memory or read-only one may not be). */
static int wal_mode(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int wal = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		wal = sqlite3_column_text(st, 0) && strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
	sqlite3_finalize(st);
	return wal;
}

/* Whether name is one of this build's migrations. */
static int migration_known(const char *name)
{
	for (const struct embed_file *f = embed_sql; f->name; f++)
		if (strcmp(f->name, name) == 0)
			return 1;
	return 0;
}

/*
 * Whether db is a database this build may use, read before anything changes
 * it: empty (a new one), or turnpost's (schema_migrations) with only
 * migrations this build knows. *applied: how many it has.
 */
static int schema_check(sqlite3 *db, const char *path, int *applied, struct err *err)
{
	sqlite3_stmt *st = NULL;
	const char *last = "none";
	int rc = 0, r;

	*applied = 0;
	if (sqlite3_prepare_v2(db, "SELECT count(*), ifnull(sum(name = 'schema_migrations'), 0) FROM sqlite_master",
			       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		rc = err_set(err, ERR_INPUT, "cannot read the database %s: %s", path, sqlite3_errmsg(db));
		goto done;
	}
	if (sqlite3_column_int(st, 0) == 0)
		goto done;
	if (sqlite3_column_int(st, 1) == 0) {
		rc = err_set(err, ERR_INPUT,
			     "%s is an SQLite database but not turnpost's (it has no schema_migrations table); "
			     "refusing to change it",
			     path);
		goto done;
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "SELECT name FROM schema_migrations ORDER BY name", -1, &st, NULL) != SQLITE_OK) {
		rc = err_set(err, ERR_INPUT, "cannot read the migrations of %s: %s", path, sqlite3_errmsg(db));
		goto done;
	}
	for (const struct embed_file *f = embed_sql; f->name; f++)
		last = f->name;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		if (!name || !migration_known(name)) {
			rc = err_set(err, ERR_INPUT,
				     "the database %s has the schema migration %s, newer than this turnpost knows "
				     "(its last is %s): run the turnpost release that upgraded it, or a newer one",
				     path, name ? name : "NULL", last);
			goto done;
		}
		(*applied)++;
	}
	if (r != SQLITE_DONE)
		rc = err_set(err, ERR_INPUT, "cannot read the migrations of %s: %s", path, sqlite3_errmsg(db));
done:
	sqlite3_finalize(st);
	return rc;
}

/*
 * Run a connection's set-up pragmas. Turning a new database to WAL mode
 * needs it to itself, and SQLite may answer "database is locked" at once
 * rather than wait (waiting could deadlock), for instance while another
 * process opening the same new database does the same: the pragmas (each
 * harmless twice) are tried again until busy_ms have passed.
 */
static int set_up(sqlite3 *db, const char *pragmas, int busy_ms, char **msg)
{
	double until = clock_mono_ms() + busy_ms;
	int rc;

	for (;;) {
		rc = sqlite3_exec(db, pragmas, NULL, NULL, msg);
		if ((rc & 0xff) != SQLITE_BUSY || clock_mono_ms() >= until)
			return rc;
		sqlite3_free(*msg);
		*msg = NULL;
		sqlite3_sleep(5);
	}
}

static int conn_open(struct store *s, struct store_conn *c, int writer, int busy_ms, struct err *err)
{
	int applied;
	int flags = writer ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	char *msg = NULL;
	const char *pragmas = writer
		? "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"
		  "PRAGMA temp_store=MEMORY;"
		: "PRAGMA foreign_keys=ON; PRAGMA query_only=ON;";

	memset(c, 0, sizeof(*c));
	c->store = s;
	c->ops = &store__sqlite_ops;
	c->writer = writer;
	if (sqlite3_open_v2(s->path, &c->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		err_set(err, ERR_STORE, "cannot open database %s: %s", s->path,
			c->db ? sqlite3_errmsg(c->db) : "out of memory");
		sqlite3_close(c->db);
		c->db = NULL;
		return ERR_STORE;
	}
	sqlite3_busy_timeout(c->db, busy_ms);
	/* before WAL mode or a migration changes a file that is not ours */
	if (writer && schema_check(c->db, s->path, &applied, err) < 0)
		return ERR_INPUT;
	/* SQLite opens a file it may not write read-only, and every write would fail later */
	if (writer && sqlite3_db_readonly(c->db, "main") == 1)
		return err_set(err, ERR_STORE,
			       "database %s is read-only: its owner and mode must let this user write it and the directory "
			       "it is in", s->path);
	if (set_up(c->db, pragmas, busy_ms, &msg) != SQLITE_OK) {
		err_set(err, ERR_STORE, "cannot set up database %s: %s", s->path, msg ? msg : "?");
		sqlite3_free(msg);
		return ERR_STORE;
	}
	if (writer && wal_mode(c->db)) {
		/* COMMIT writes the WAL; the sync thread makes it durable outside the writer mutex */
		if (sqlite3_exec(c->db, "PRAGMA synchronous=NORMAL", NULL, NULL, &msg) != SQLITE_OK) {
			err_set(err, ERR_STORE, "cannot set up database %s: %s", s->path, msg ? msg : "?");
			sqlite3_free(msg);
			return ERR_STORE;
		}
		s->own_sync = 1;
	}
	return 0;
}

static void conn_close(struct store_conn *c)
{
	if (!c->db && !c->priv)
		return;
	for (int i = 0; i < STORE__CACHE; i++)
		store__finalize(c->cache[i].stmt);
	memset(c->cache, 0, sizeof(c->cache));
	if (c->ops == &store__pg_ops) {
		store__pg_close(c);
		return;
	}
	sqlite3_close(c->db);
	c->db = NULL;
}

/* A PostgreSQL connection: set up as the writer or a reader (conn_open's for SQLite). */
static int conn_open_pg(struct store *s, struct store_conn *c, int writer, struct err *err)
{
	memset(c, 0, sizeof(*c));
	c->store = s;
	c->writer = writer;
	return store__pg_connect(s, c, writer, err);
}

/*
 * Before a connection is used: a PostgreSQL session lost (a restart, a
 * network cut) is replaced by a new one, so the store recovers by itself;
 * ERR_STORE ("database unavailable") while the database cannot be reached.
 */
static int conn_ready(struct store_conn *c, struct err *err)
{
	if (c->ops != &store__pg_ops || !store__pg_lost(c))
		return 0;
	/* a new session holds no lock of the old one */
	if (c == &c->store->watch)
		c->store->lead_key = 0;
	return store__pg_reconnect(c, err);
}

int store_lead(struct store *s, int64_t key, int *leading, struct err *err)
{
	int rc = 0, got = 0;

	*leading = 1;
	if (s->watch.ops != &store__pg_ops)
		return 0;
	pthread_mutex_lock(&s->watch_lock);
	if ((rc = conn_ready(&s->watch, err)) == 0 && s->lead_key != key) {
		if ((rc = store__pg_try_lock(&s->watch, key, &got, err)) == 0 && got)
			s->lead_key = key;
	}
	*leading = rc == 0 && s->lead_key == key;
	pthread_mutex_unlock(&s->watch_lock);
	return rc;
}

/*
 * The other daemons' commits, heard through LISTEN/NOTIFY: a change of
 * tokens, users or seats moves store_change_generation (so a token revoked
 * on one daemon stops working on all of them at once); one of the outbox
 * moves the outbox generation (the notifier looks). While the connection is
 * lost nothing is heard, so both move when it is back.
 */
static void *listen_main(void *arg)
{
	struct store *s = arg;
	int listening = 0;

	while (!atomic_load(&s->listen_stop)) {
		struct err e = {0};
		int auth = 0, outbox = 0;

		if (!listening) {
			if (store__pg_reconnect(&s->listener, &e) == 0 &&
			    store__exec(&s->listener, "LISTEN " STORE__PG_AUTH "; LISTEN " STORE__PG_OUTBOX) == 0) {
				listening = 1;
				auth = outbox = 1;
			} else {
				struct timespec ts = { 0, 200 * 1000 * 1000 };
				nanosleep(&ts, NULL);
				continue;
			}
		} else if (store__pg_wait_notify(&s->listener, 200, &auth, &outbox, &e) < 0) {
			listening = 0;
			auth = outbox = 1;
		}
		if (auth)
			atomic_fetch_add(&change_generation, 1);
		if (outbox)
			store__outbox_committed();
	}
	return NULL;
}

/* Before the writer commits: tell the other daemons what the transaction changed (sent at the commit). */
static void notify_others(struct store *s)
{
	if (s->writer.ops != &store__pg_ops)
		return;
	if (s->auth_dirty)
		store__exec(&s->writer, "NOTIFY " STORE__PG_AUTH);
	if (s->outbox_dirty)
		store__exec(&s->writer, "NOTIFY " STORE__PG_OUTBOX);
}

/* Create the database's directory when missing (one level, like ./var), for its owner only. */
static int make_parent_dir(const char *path, struct err *err)
{
	char *copy = strdup(path), *dir;
	int rc = 0;

	if (!copy)
		return err_set(err, ERR_NOMEM, "out of memory");
	dir = dirname(copy);
	if (strcmp(dir, ".") != 0 && strcmp(dir, "/") != 0 && mkdir(dir, 0700) < 0 && errno != EEXIST)
		rc = err_set(err, ERR_IO, "cannot create directory %s for the database: %s", dir, strerror(errno));
	free(copy);
	return rc;
}

/*
 * Create a missing database file 0600 whatever the umask: SQLite gives
 * the WAL and shared-memory files the database file's mode, so they are
 * private too (docs/security.md). An existing file is left as it is.
 */
static int make_db_file(const char *path, struct err *err)
{
	int fd;

	if (strcmp(path, ":memory:") == 0 || strncmp(path, "file:", 5) == 0)
		return 0;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 && errno != EEXIST)
		return err_set(err, ERR_IO, "cannot create database %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return 0;
}

/*
 * Apply the migrations the database lacks, each in a transaction of its
 * own. Each looks for its row only once it holds the write lock (BEGIN
 * IMMEDIATE, waiting up to the busy timeout): several processes opening
 * one new database at once (a daemon starting while the command line adds
 * a user) would otherwise all find a migration missing and all run it,
 * and all but the first would fail ("table users already exists").
 */
static int migrate(struct store *s, struct err *err)
{
	struct store_conn *c = &s->writer;
	char *msg = NULL;
	int rc = 0, applied = 0;

	for (const struct embed_file *f = embed_sql; f->name; f++) {
		sqlite3_stmt *st = NULL;
		int have;

		if (sqlite3_exec(c->db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK)
			goto fail;
		if (f == embed_sql && sqlite3_exec(c->db,
						   "CREATE TABLE IF NOT EXISTS schema_migrations ("
						   " name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)",
						   NULL, NULL, &msg) != SQLITE_OK)
			goto fail;
		if (sqlite3_prepare_v2(c->db, "SELECT 1 FROM schema_migrations WHERE name = ?", -1, &st,
				       NULL) != SQLITE_OK) {
			rc = store__fail(c, "migrations", err);
			sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
			return rc;
		}
		sqlite3_bind_text(st, 1, f->name, -1, SQLITE_STATIC);
		have = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
		applied++;
		if (have) {
			if (sqlite3_exec(c->db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK)
				goto fail;
			continue;
		}
		if (sqlite3_exec(c->db, f->text, NULL, NULL, &msg) != SQLITE_OK) {
			err_set(err, ERR_STORE, "migration %s failed: %s", f->name, msg ? msg : "?");
			sqlite3_free(msg);
			sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
			return ERR_STORE;
		}
		if (sqlite3_prepare_v2(c->db,
				       "INSERT INTO schema_migrations(name, applied_at)"
				       " VALUES (?, CAST(strftime('%s','now') AS INTEGER) * 1000)",
				       -1, &st, NULL) != SQLITE_OK) {
			rc = store__fail(c, "migrations", err);
			sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
			return rc;
		}
		sqlite3_bind_text(st, 1, f->name, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE) {
			rc = store__fail(c, "migrations", err);
			sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
			return rc;
		}
		if (sqlite3_exec(c->db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK)
			goto fail;
		log_info("database %s: migration %s applied (schema version %d)", s->path, f->name, applied);
	}
	s->schema_version = applied;
	return 0;
fail:
	err_set(err, ERR_STORE, "migrations: %s", msg ? msg : sqlite3_errmsg(c->db));
	sqlite3_free(msg);
	if (!sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
	return ERR_STORE;
}

/* ---- the background checkpointer ---- */

/*
 * Copying the WAL back into the database file happens in two places. A
 * thread of the store copies whatever is new once the WAL holds
 * CKPT_BG_PAGES pages not copied yet (and once a second), PASSIVE, on its
 * own connection: nobody waits for it. But a WAL only starts again from its
 * beginning when a write begins after *everything* in it was copied, which
 * never happens while moves keep arriving during the copy. So when the WAL
 * reaches s->ckpt_pages pages, the commit that got it there finishes the
 * copy itself, holding the writer (the way SQLite checkpoints by default,
 * at 1,000 pages): only the pages the thread has not copied yet are left
 * then, and the next write starts the WAL again. Pages written again and
 * again (the games' rows, the ends of the moves' b-tree) are copied once per
 * checkpoint, so fewer, larger checkpoints copy less per move.
 */
#define CKPT_BG_PAGES 1000
#define CKPT_PAGES_DEFAULT 8000

/* Pages of the WAL not copied by the last checkpoint (a WAL started again counts from its start). */
static int wal_uncopied(struct store *s)
{
	int pages = atomic_load(&s->wal_pages), done = atomic_load(&s->ckpt_done);

	return pages >= done ? pages - done : pages;
}

static void checkpoint(struct store *s, sqlite3 *db)
{
	int log = 0, done = 0;

	/* PASSIVE: copies what no reader still needs, without waiting for or blocking anyone */
	if (sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done) != SQLITE_OK) {
		/* BUSY: the other place is checkpointing right now */
		if (sqlite3_errcode(db) != SQLITE_BUSY)
			log_error("checkpoint: %s", sqlite3_errmsg(db));
		return;
	}
	/* counted when it copied pages the last one had not */
	if (done > 0 && done != atomic_exchange(&s->ckpt_done, done)) {
		pthread_mutex_lock(&s->ckpt_lock);
		s->checkpoints++;
		pthread_mutex_unlock(&s->ckpt_lock);
	}
	atomic_store(&s->ckpt_done, done > 0 ? done : 0);
}

/* After every commit on the writer (its thread, writer mutex held). */
static int wal_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
	struct store *s = arg;

	(void)name;
	atomic_store(&s->wal_pages, pages);
	if (pages < s->ckpt_pages) {
		s->ckpt_retry_at = 0;
	} else if (pages >= s->ckpt_retry_at) {
		/*
		 * No write can come in between: all of it is copied, and the next
		 * write starts the WAL again. When a reader still needed some of it,
		 * try again 256 pages later, not at every commit.
		 */
		s->ckpt_retry_at = pages + 256;
		checkpoint(s, db);
	}
	if (wal_uncopied(s) >= CKPT_BG_PAGES) {
		pthread_mutex_lock(&s->ckpt_lock);
		pthread_cond_signal(&s->ckpt_wake);
		pthread_mutex_unlock(&s->ckpt_lock);
	}
	return SQLITE_OK;
}

static void *ckpt_thread(void *arg)
{
	struct store *s = arg;

	pthread_mutex_lock(&s->ckpt_lock);
	while (!s->ckpt_stop) {
		struct timespec ts;

		if (wal_uncopied(s) < CKPT_BG_PAGES) {
			/* also once a second, so a quiet server's WAL is copied back soon */
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 1;
			pthread_cond_timedwait(&s->ckpt_wake, &s->ckpt_lock, &ts);
			if (s->ckpt_stop)
				break;
		}
		pthread_mutex_unlock(&s->ckpt_lock);
		checkpoint(s, s->ckpt.db);
		pthread_mutex_lock(&s->ckpt_lock);
	}
	pthread_mutex_unlock(&s->ckpt_lock);
	return NULL;
}

static int ckpt_start(struct store *s, int busy, struct err *err)
{
	int rc;

	/* set up as the writer is (synchronous=NORMAL: a checkpoint syncs the WAL, then the database); it only checkpoints */
	if ((rc = conn_open(s, &s->ckpt, 1, busy, err)) < 0)
		return rc;
	/* replaces SQLite's own checkpoint-on-commit */
	sqlite3_wal_hook(s->writer.db, wal_hook, s);
	if (pthread_create(&s->ckpt_thread, NULL, ckpt_thread, s) != 0) {
		sqlite3_wal_autocheckpoint(s->writer.db, 1000);
		return err_set(err, ERR_INTERNAL, "cannot start the checkpointer thread");
	}
	s->ckpt_started = 1;
	return 0;
}

static void ckpt_stop(struct store *s)
{
	if (s->ckpt_started) {
		pthread_mutex_lock(&s->ckpt_lock);
		s->ckpt_stop = 1;
		pthread_cond_signal(&s->ckpt_wake);
		pthread_mutex_unlock(&s->ckpt_lock);
		pthread_join(s->ckpt_thread, NULL);
		s->ckpt_started = 0;
	}
	conn_close(&s->ckpt);
}

int store_data_version(struct store *s, uint64_t *version, struct err *err)
{
	static const char sql[] = "PRAGMA data_version";
	struct store__st *st;
	int rc = 0;

	*version = 0;
	pthread_mutex_lock(&s->watch_lock);
	if (s->watch.ops == &store__pg_ops) {
		if ((rc = conn_ready(&s->watch, err)) == 0)
			rc = store__pg_data_version(&s->watch, version, err);
		pthread_mutex_unlock(&s->watch_lock);
		return rc;
	}
	if (!(st = store__stmt(&s->watch, sql, err)))
		rc = ERR_STORE;
	else if (store__step(st) != STORE__ROW)
		rc = store__fail(&s->watch, "data version", err);
	else
		*version = (uint64_t)store__col_int64(st, 0);
	if (st)
		store__reset(st);
	pthread_mutex_unlock(&s->watch_lock);
	return rc;
}

uint64_t store_checkpoint_count(struct store *s)
{
	uint64_t n;

	pthread_mutex_lock(&s->ckpt_lock);
	n = s->checkpoints;
	pthread_mutex_unlock(&s->ckpt_lock);
	return n;
}

static pthread_once_t sqlite_once = PTHREAD_ONCE_INIT;
static atomic_ullong store_ids;

/*
 * Before SQLite's first use in this process: no memory statistics (they
 * take one process-wide mutex around every allocation SQLite makes, which
 * all the request threads then queue on; we read none of them).
 */
static void sqlite_setup(void)
{
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/*
 * Take PATH-lock, shared (a running turnpostd) or exclusive (a restore),
 * without waiting: ERR_CONFLICT when the other kind is held.
 */
static int store_lock(const char *path, int how, int *fd, struct err *err)
{
	char lock[PATH_MAX];

	if ((size_t)snprintf(lock, sizeof(lock), "%s-lock", path) >= sizeof(lock))
		return err_set(err, ERR_INPUT, "the database path %s is too long", path);
	*fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (*fd < 0)
		return err_set(err, ERR_IO, "cannot open the lock file %s: %s", lock, strerror(errno));
	if (flock(*fd, how | LOCK_NB) == 0)
		return 0;
	close(*fd);
	*fd = -1;
	if (errno != EWOULDBLOCK)
		return err_set(err, ERR_IO, "cannot lock %s: %s", lock, strerror(errno));
	return err_set(err, ERR_CONFLICT,
		       how == LOCK_SH ? "a restore is replacing the database %s (it holds %s)"
				      : "turnpostd is running on the database %s (it holds %s): stop it first",
		       path, lock);
}

/* The parts of a store both backends have: its locks, its id. NULL when out of memory. */
static struct store *store_new(const char *path)
{
	struct store *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->path = strdup(path);
	s->wal_fd = -1;
	s->lock_fd = -1;
	if (!s->path) {
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->sync_lock, NULL);
	pthread_cond_init(&s->sync_work, NULL);
	pthread_mutex_init(&s->ckpt_lock, NULL);
	pthread_mutex_init(&s->watch_lock, NULL);
	pthread_cond_init(&s->ckpt_wake, NULL);
	pthread_mutex_init(&s->write_lock, NULL);
	pthread_mutex_init(&s->heads_lock, NULL);
	pthread_mutex_init(&s->read_lock, NULL);
	pthread_cond_init(&s->read_free, NULL);
	s->id = atomic_fetch_add(&store_ids, 1) + 1;
	return s;
}

/*
 * On PostgreSQL: the writer (synchronous_commit on: a commit is durable when
 * it returns, so no sync thread), nread readers and the watch connection,
 * each a session of its own. No file, lock or checkpoint: the server's.
 */
static int open_pg(const char *target, int nread, struct store **out, struct err *err)
{
	struct store *s = store_new(target);
	int rc;

	if (!s)
		return err_set(err, ERR_NOMEM, "out of memory");
	if ((rc = conn_open_pg(s, &s->writer, 1, err)) < 0 || (rc = store__pg_migrate(s, err)) < 0)
		goto done;
	s->readers = calloc((size_t)nread, sizeof(*s->readers));
	if (!s->readers) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	s->nreaders = nread;
	for (int i = 0; i < nread; i++)
		if ((rc = conn_open_pg(s, &s->readers[i], 0, err)) < 0)
			goto done;
	if ((rc = conn_open_pg(s, &s->watch, 0, err)) < 0 || (rc = conn_open_pg(s, &s->listener, 0, err)) < 0)
		goto done;
	if (pthread_create(&s->listen_thread, NULL, listen_main, s) != 0) {
		rc = err_set(err, ERR_INTERNAL, "cannot start the store's listener thread");
		goto done;
	}
	s->listen_started = 1;
	atomic_fetch_add(&change_generation, 1);
	*out = s;
	s = NULL;
	rc = 0;
done:
	store_close(s);
	return rc;
}

int store_open(const char *path, const struct store_options *opt, struct store **out, struct err *err)
{
	struct store *s = NULL;
	int nread = opt && opt->read_connections > 0 ? opt->read_connections : 8;
	int busy = opt && opt->busy_timeout_ms > 0 ? opt->busy_timeout_ms : 5000;
	int rc;

	*out = NULL;
	if (store__pg_target(path))
		return open_pg(path, nread, out, err);
	if (sqlite3_threadsafe() == 0)
		return err_set(err, ERR_INTERNAL, "SQLite was built without thread support");
	pthread_once(&sqlite_once, sqlite_setup);
	if ((rc = make_parent_dir(path, err)) < 0 || (rc = make_db_file(path, err)) < 0)
		return rc;
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, ERR_NOMEM, "out of memory");
	s->path = strdup(path);
	s->wal_fd = -1;
	s->lock_fd = -1;
	s->wal_path = malloc(strlen(path) + sizeof("-wal"));
	if (!s->path || !s->wal_path) {
		free(s->wal_path);
		rc = err_set(err, ERR_NOMEM, "out of memory");
		free(s->path);
		free(s);
		return rc;
	}
	snprintf(s->wal_path, strlen(path) + sizeof("-wal"), "%s-wal", path);
	pthread_mutex_init(&s->sync_lock, NULL);
	pthread_cond_init(&s->sync_work, NULL);
	pthread_mutex_init(&s->ckpt_lock, NULL);
	pthread_mutex_init(&s->watch_lock, NULL);
	pthread_cond_init(&s->ckpt_wake, NULL);
	pthread_mutex_init(&s->write_lock, NULL);
	pthread_mutex_init(&s->heads_lock, NULL);
	pthread_mutex_init(&s->read_lock, NULL);
	pthread_cond_init(&s->read_free, NULL);
	/*
	 * one turnpostd per SQLite database: a second one would keep its own
	 * caches (positions, tokens, answers) and clocks beside the first
	 * one's, and neither would see the other's changes in time
	 */
	if (opt && opt->hold_lock && (rc = store_lock(path, LOCK_EX, &s->lock_fd, err)) < 0) {
		if (rc == ERR_CONFLICT)
			err_set(err, ERR_CONFLICT,
				"another turnpostd is running on the database %s (or a restore is replacing it): "
				"stop it first; each turnpostd needs a database of its own", path);
		goto done;
	}
	if ((rc = conn_open(s, &s->writer, 1, busy, err)) < 0)
		goto done;
	if ((rc = migrate(s, err)) < 0)
		goto done;
	/* the migrations' commits (and whatever an earlier process left unsynced) are on disk before anything else */
	if (s->own_sync && ((rc = wal_sync(s, err)) < 0 || (rc = syncer_start(s, err)) < 0))
		goto done;
	s->syncs += s->own_sync;
	s->id = atomic_fetch_add(&store_ids, 1) + 1;
	s->readers = calloc((size_t)nread, sizeof(*s->readers));
	if (!s->readers) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	s->nreaders = nread;
	for (int i = 0; i < nread; i++)
		if ((rc = conn_open(s, &s->readers[i], 0, busy, err)) < 0)
			goto done;
	if ((rc = conn_open(s, &s->watch, 0, busy, err)) < 0)
		goto done;
	s->ckpt_pages = opt && opt->checkpoint_pages > 0 ? opt->checkpoint_pages : CKPT_PAGES_DEFAULT;
	if (opt && opt->background_checkpoints && s->own_sync && (rc = ckpt_start(s, busy, err)) < 0)
		goto done;
	atomic_fetch_add(&change_generation, 1);
	*out = s;
	s = NULL;
	rc = 0;
done:
	store_close(s);
	return rc;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	syncer_stop(s);
	ckpt_stop(s);
	if (s->listen_started) {
		atomic_store(&s->listen_stop, 1);
		pthread_join(s->listen_thread, NULL);
	}
	conn_close(&s->listener);
	conn_close(&s->watch);
	for (int i = 0; i < s->nreaders; i++)
		conn_close(&s->readers[i]);
	free(s->readers);
	if (s->writer.db)
		store__exec(&s->writer, "PRAGMA wal_checkpoint(TRUNCATE)");
	conn_close(&s->writer);
	pthread_mutex_destroy(&s->write_lock);
	store__heads_free(s);
	pthread_mutex_destroy(&s->heads_lock);
	pthread_mutex_destroy(&s->read_lock);
	pthread_cond_destroy(&s->read_free);
	pthread_mutex_destroy(&s->sync_lock);
	pthread_cond_destroy(&s->sync_work);
	pthread_mutex_destroy(&s->ckpt_lock);
	pthread_mutex_destroy(&s->watch_lock);
	pthread_cond_destroy(&s->ckpt_wake);
	if (s->wal_fd >= 0)
		close(s->wal_fd);
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	free(s->wal_path);
	free(s->path);
	free(s);
}

int store_schema_version(struct store *s)
{
	return s->schema_version;
}

int store_read_acquire(struct store *s, struct store_conn **out, struct err *err)
{
	pthread_mutex_lock(&s->read_lock);
	for (;;) {
		for (int i = 0; i < s->nreaders; i++) {
			if (!s->readers[i].busy) {
				int rc;

				s->readers[i].busy = 1;
				pthread_mutex_unlock(&s->read_lock);
				*out = &s->readers[i];
				if ((rc = conn_ready(*out, err)) < 0) {
					store_read_release(*out);
					*out = NULL;
				}
				return rc;
			}
		}
		pthread_cond_wait(&s->read_free, &s->read_lock);
	}
}

int store_read_begin(struct store *s, struct store_conn **out, struct err *err)
{
	struct store__st *st;
	int rc;

	if ((rc = store_read_acquire(s, out, err)) < 0)
		return rc;
	if (!(st = store__stmt(*out, (*out)->ops->begin_read, err)) || store__step(st) != STORE__DONE) {
		rc = st ? store__fail(*out, "begin read", err) : ERR_STORE;
		store_read_release(*out);
		*out = NULL;
		return rc;
	}
	store__reset(st);
	return 0;
}

void store_read_release(struct store_conn *c)
{
	static const char sql[] = "COMMIT";
	struct store *s;
	struct store__st *st;

	if (!c)
		return;
	s = c->store;
	/* a read transaction of store_read_begin: end it (a read-only COMMIT cannot fail for lack of space) */
	if (store__in_txn(c)) {
		if ((st = store__stmt(c, sql, NULL)) && store__step(st) == STORE__DONE)
			store__reset(st);
		else
			store__exec(c, "ROLLBACK");
	}
	pthread_mutex_lock(&s->read_lock);
	c->busy = 0;
	pthread_cond_signal(&s->read_free);
	pthread_mutex_unlock(&s->read_lock);
}

/* Take the writer mutex, counted as waiting meanwhile so an open group knows more writes are coming. */
static void writer_lock(struct store *s)
{
	atomic_fetch_add(&s->write_waiters, 1);
	pthread_mutex_lock(&s->write_lock);
	atomic_fetch_sub(&s->write_waiters, 1);
}

static int writer_exec(struct store *s, const char *sql, const char *what, struct err *err)
{
	struct store__st *st = store__stmt(&s->writer, sql, err);

	if (!st)
		return ERR_STORE;
	if (store__step(st) != STORE__DONE) {
		int rc = store__fail(&s->writer, what, err);
		store__reset(st);
		return rc;
	}
	store__reset(st);
	return 0;
}

/* End a ticket's wait (after this, t may be gone). */
static void ticket_finish(struct store__ticket *t, int rc, const struct err *e)
{
	if (t->fn) {
		t->fn(t->arg, rc, rc < 0 ? e : NULL);
		free(t);
		return;
	}
	t->rc = rc;
	if (rc < 0 && t->err && e)
		*t->err = *e;
	sem_post(&t->done);
}

static int sync_failed(struct store *s, struct err *err);

/*
 * The writes of s->group after their commit (seq; rc < 0 when it failed,
 * e saying why): they wait for the sync thread when the store syncs the WAL
 * itself, else they are done. Writer mutex held.
 */
static void finish_group(struct store *s, int rc, const struct err *e, uint64_t seq)
{
	struct store__ticket *t = s->group, *next;

	if (rc < 0 || !s->own_sync) {
		for (; t; t = next) {
			next = t->next;
			ticket_finish(t, rc, e);
		}
		return;
	}
	pthread_mutex_lock(&s->sync_lock);
	for (; t; t = next) {
		next = t->next;
		if (s->sync_failed) {
			struct err f = {0};
			sync_failed(s, &f);
			ticket_finish(t, ERR_STORE, &f);
			continue;
		}
		t->seq = seq;
		t->next = s->unsynced;
		s->unsynced = t;
	}
	pthread_cond_signal(&s->sync_work);
	pthread_mutex_unlock(&s->sync_lock);
}

/*
 * End the open group with rc_in (0: commit it) and tell its members the
 * outcome. Called with write_lock held. Returns the group's outcome. After a
 * failed sync nothing more is committed: the group is rolled back.
 */
static int group_end(struct store *s, int rc_in, const struct err *why)
{
	struct err e = {0};
	uint64_t seq = 0;
	int rc = rc_in;

	if (!s->group_open)
		return 0;
	if (rc == 0 && check_sync_failed(s, &e) < 0)
		rc = ERR_STORE;
	else if (rc == 0 && !store__in_txn(&s->writer))
		rc = err_set(&e, ERR_STORE, "database error: the shared transaction was rolled back");
	else if (rc == 0) {
		notify_others(s);
		rc = writer_exec(s, "COMMIT", "commit", &e);
	}
	else if (why)
		e = *why;
	if (rc < 0) {
		if (e.code != ERR_STORE) {
			char msg[sizeof(e.msg)];
			snprintf(msg, sizeof(msg), "%s", e.msg);
			err_set(&e, ERR_STORE, "%s", msg);
		}
		rc = ERR_STORE;
		if (store__in_txn(&s->writer))
			store__exec(&s->writer, "ROLLBACK");
	} else {
		s->group_commits++;
		s->group_writes += (uint64_t)s->group_members;
		seq = atomic_fetch_add(&s->commit_seq, 1) + 1;
	}
	after_commit(s, rc);
	finish_group(s, rc, &e, seq);
	s->group = NULL;
	s->group_members = 0;
	s->group_open = 0;
	return rc;
}

/* ---- durability: the WAL is synced outside the writer mutex ---- */

/* fsync the directory holding path, so a file created in it stays there after a crash. */
static int sync_dir_of(const char *path, struct err *err)
{
	char *copy = strdup(path);
	int fd, rc = 0;

	if (!copy)
		return err_set(err, ERR_NOMEM, "out of memory");
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		rc = err_set(err, ERR_STORE, "cannot sync the database's directory: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	free(copy);
	return rc;
}

/*
 * fdatasync the WAL through a descriptor of our own: the page cache is the
 * file's, so this writes what any connection wrote to it. Run by one thread
 * at a time (the one that set s->syncing). The descriptor is checked against
 * the path each time and reopened if the file was replaced.
 */
static int wal_sync(struct store *s, struct err *err)
{
	struct stat a, b;
	int rc;

	if (atomic_load(&s->fail_syncs) > 0) {
		struct timespec ts = { s->fail_sync_delay_ms / 1000, (long)(s->fail_sync_delay_ms % 1000) * 1000000L };

		atomic_fetch_sub(&s->fail_syncs, 1);
		nanosleep(&ts, NULL);
		return err_set(err, ERR_STORE, "cannot sync %s: %s", s->wal_path, strerror(EIO));
	}
	if (s->wal_fd >= 0 && (fstat(s->wal_fd, &a) < 0 || stat(s->wal_path, &b) < 0 || a.st_ino != b.st_ino ||
			       a.st_dev != b.st_dev)) {
		close(s->wal_fd);
		s->wal_fd = -1;
	}
	if (s->wal_fd < 0) {
		s->wal_fd = open(s->wal_path, O_RDONLY | O_CLOEXEC);
		if (s->wal_fd < 0)
			return err_set(err, ERR_STORE, "cannot open %s to sync it: %s", s->wal_path, strerror(errno));
		if ((rc = sync_dir_of(s->wal_path, err)) < 0)
			return rc;
	}
	if (fdatasync(s->wal_fd) < 0)
		return err_set(err, ERR_STORE, "cannot sync %s: %s", s->wal_path, strerror(errno));
	return 0;
}

static int sync_failed(struct store *s, struct err *err)
{
	return err_set(err, ERR_STORE,
		       "the disk failed to confirm a write (%s); what was written since is not known to be kept:"
		       " check the disk, then restart turnpost",
		       s->sync_err.msg);
}

/*
 * The sync thread: while committed writes wait, fdatasync the WAL for every
 * commit made by then and acknowledge the writes it covers. While the disk
 * is busy the writer is free, so the next group gathers (store_write_grouped
 * leaves a group open while a sync runs); this thread commits it as soon as
 * the sync is done, and syncs it next.
 */
static void *sync_thread(void *arg)
{
	struct store *s = arg;

	pthread_mutex_lock(&s->sync_lock);
	for (;;) {
		struct err e = {0};
		uint64_t target;
		int ok;

		while (!s->unsynced && !s->syncer_stop)
			pthread_cond_wait(&s->sync_work, &s->sync_lock);
		if (!s->unsynced)
			break;
		atomic_store(&s->syncing, 1);
		/* every commit numbered up to target has written its frames: this sync covers them */
		target = atomic_load(&s->commit_seq);
		pthread_mutex_unlock(&s->sync_lock);
		ok = wal_sync(s, &e) == 0;
		pthread_mutex_lock(&s->sync_lock);
		s->syncs++;
		if (ok) {
			s->synced_seq = target;
		} else {
			s->sync_failed = 1;
			s->sync_err = e;
		}
		for (struct store__ticket **pp = &s->unsynced, *t; (t = *pp);) {
			if (!s->sync_failed && t->seq > target) {
				pp = &t->next;
				continue;
			}
			*pp = t->next;
			if (s->sync_failed) {
				struct err f = {0};
				sync_failed(s, &f);
				ticket_finish(t, ERR_STORE, &f);
			} else {
				ticket_finish(t, 0, NULL);
			}
		}
		atomic_store(&s->syncing, 0);
		pthread_mutex_unlock(&s->sync_lock);
		/* the group that gathered while the disk was busy (group_end rolls it back after a failed sync) */
		pthread_mutex_lock(&s->write_lock);
		if (s->group_open)
			group_end(s, 0, NULL);
		pthread_mutex_unlock(&s->write_lock);
		pthread_mutex_lock(&s->sync_lock);
	}
	pthread_mutex_unlock(&s->sync_lock);
	return NULL;
}

static int syncer_start(struct store *s, struct err *err)
{
	if (pthread_create(&s->syncer, NULL, sync_thread, s) != 0)
		return err_set(err, ERR_INTERNAL, "cannot start the store's sync thread");
	s->syncer_started = 1;
	return 0;
}

static void syncer_stop(struct store *s)
{
	if (!s->syncer_started)
		return;
	pthread_mutex_lock(&s->sync_lock);
	s->syncer_stop = 1;
	pthread_cond_signal(&s->sync_work);
	pthread_mutex_unlock(&s->sync_lock);
	pthread_join(s->syncer, NULL);
	s->syncer_started = 0;
}

/* Wait until t, committed as number seq outside a group, is durable: the sync thread finishes it. */
static int wait_durable(struct store *s, struct store__ticket *t, uint64_t seq, struct err *err)
{
	pthread_mutex_lock(&s->sync_lock);
	if (s->sync_failed) {
		pthread_mutex_unlock(&s->sync_lock);
		return sync_failed(s, err);
	}
	t->seq = seq;
	t->err = err;
	t->next = s->unsynced;
	s->unsynced = t;
	pthread_cond_signal(&s->sync_work);
	pthread_mutex_unlock(&s->sync_lock);
	while (sem_wait(&t->done) < 0)
		;
	return t->rc;
}

/* ERR_STORE once a sync has failed: nothing more is written until a restart. */
static int check_sync_failed(struct store *s, struct err *err)
{
	int rc = 0;

	if (!s->own_sync)
		return 0;
	pthread_mutex_lock(&s->sync_lock);
	if (s->sync_failed)
		rc = sync_failed(s, err);
	pthread_mutex_unlock(&s->sync_lock);
	return rc;
}

uint64_t store_sync_count(struct store *s)
{
	uint64_t n;

	pthread_mutex_lock(&s->sync_lock);
	n = s->syncs;
	pthread_mutex_unlock(&s->sync_lock);
	return n;
}

void store_fail_syncs_for_tests(struct store *s, int n, int delay_ms)
{
	s->fail_sync_delay_ms = delay_ms;
	atomic_store(&s->fail_syncs, n);
}

int store_synced(struct store *s)
{
	int all;

	if (!s->own_sync)
		return 1;
	pthread_mutex_lock(&s->sync_lock);
	all = s->synced_seq >= atomic_load(&s->commit_seq) && !s->sync_failed;
	pthread_mutex_unlock(&s->sync_lock);
	return all;
}

uint64_t store_id(struct store *s)
{
	return s->id;
}

int store_write_begin(struct store *s, struct store_conn **out, struct err *err)
{
	struct store__st *st;

	*out = NULL;
	writer_lock(s);
	/* a group waiting for more members is committed first: its members are acknowledged by it */
	group_end(s, 0, NULL);
	/* with the writer held, so a sync that failed while this thread waited for it counts */
	if (check_sync_failed(s, err) < 0) {
		pthread_mutex_unlock(&s->write_lock);
		return ERR_STORE;
	}
	if (conn_ready(&s->writer, err) < 0) {
		pthread_mutex_unlock(&s->write_lock);
		return ERR_STORE;
	}
	st = store__stmt(&s->writer, s->writer.ops->begin_write, err);
	if (!st || store__step(st) != STORE__DONE) {
		if (st)
			store__fail(&s->writer, "begin", err);
		pthread_mutex_unlock(&s->write_lock);
		return ERR_STORE;
	}
	*out = &s->writer;
	return 0;
}

int store_write_commit(struct store_conn *c, struct err *err)
{
	struct store *s = c->store;
	struct store__st *st;
	uint64_t seq = 0;
	int rc = 0;

	/* after a failed sync nothing more is committed */
	if ((rc = check_sync_failed(s, err)) < 0) {
		store_write_rollback(c);
		return rc;
	}
	notify_others(s);
	st = store__stmt(c, "COMMIT", err);
	if (!st || store__step(st) != STORE__DONE) {
		rc = st ? store__fail(c, "commit", err) : ERR_STORE;
		if (store__in_txn(c))
			store__exec(c, "ROLLBACK");
	} else {
		seq = atomic_fetch_add(&s->commit_seq, 1) + 1;
	}
	/* also after a failed commit: what changed is not known for sure */
	after_commit(s, rc);
	pthread_mutex_unlock(&s->write_lock);
	if (rc == 0 && s->own_sync) {
		struct store__ticket t = {0};

		sem_init(&t.done, 0, 0);
		rc = wait_durable(s, &t, seq, err);
		sem_destroy(&t.done);
	}
	return rc;
}

void store_write_rollback(struct store_conn *c)
{
	if (!c)
		return;
	if (store__in_txn(c))
		store__exec(c, "ROLLBACK");
	c->store->outbox_dirty = 0;
	c->store->auth_dirty = 0;
	pthread_mutex_unlock(&c->store->write_lock);
}

/*
 * Group commit without a dedicated thread: whoever holds the writer runs its
 * write in a savepoint of the open shared transaction (beginning one when
 * none is open). Then, when no other writer is waiting for the mutex (or the
 * group is full), it commits the group for everyone; otherwise it leaves the
 * commit to the next writer, and t waits until its group has ended. While
 * one group is being made durable, the writes that arrive queue on the mutex
 * and form the next group, so the number of commits adapts to the load.
 * Returns fn's failure (t was not queued) or 0 (t's wait is ended by
 * whoever ends its group or syncs it, maybe already before this returns).
 */
static int grouped_run(struct store *s, store_write_fn fn, void *ctx, struct store__ticket *t, struct err *err)
{
	int rc;

	writer_lock(s);
	/* with the writer held, so a sync that failed while this thread waited for it counts */
	if (check_sync_failed(s, err) < 0) {
		pthread_mutex_unlock(&s->write_lock);
		return ERR_STORE;
	}
	if (!s->group_open) {
		if ((rc = conn_ready(&s->writer, err)) < 0 ||
		    (rc = writer_exec(s, s->writer.ops->begin_write, "begin", err)) < 0) {
			pthread_mutex_unlock(&s->write_lock);
			return ERR_STORE;
		}
		s->group_open = 1;
	}
	if ((rc = writer_exec(s, "SAVEPOINT grouped", "savepoint", err)) < 0)
		goto failed;
	rc = fn(&s->writer, ctx, err);
	if (rc >= 0) {
		rc = writer_exec(s, "RELEASE grouped", "release", err);
		if (rc < 0 && store__in_txn(&s->writer)) {
			/* keep the transaction usable for the others */
			store__exec(&s->writer, "ROLLBACK TO grouped; RELEASE grouped");
		}
	} else if (store__in_txn(&s->writer)) {
		/* only this write is undone; its statement error left the transaction open */
		if (store__exec(&s->writer, "ROLLBACK TO grouped; RELEASE grouped") != 0) {
			struct err e = {0};
			store__fail(&s->writer, "rollback to savepoint", &e);
			group_end(s, ERR_STORE, &e);
		}
	}
failed:
	if (rc < 0 && s->group_open && !store__in_txn(&s->writer)) {
		/* the database rolled back the whole transaction (I/O error, full disk): the group is lost */
		struct err e = {0}, why = {0};
		store__fail(&s->writer, "rolled back", &why);
		err_set(&e, ERR_STORE, "database error: the transaction was rolled back (%s)", why.msg);
		group_end(s, ERR_STORE, &e);
	}
	if (rc >= 0) {
		rc = 0;
		t->next = s->group;
		s->group = t;
		s->group_members++;
	}
	/*
	 * Commit now unless more writes are on their way: one waiting for the
	 * mutex (it commits or leaves it to the next), or a sync running (its
	 * thread commits the group when the disk is done).
	 */
	if (s->group_open && ((atomic_load(&s->write_waiters) == 0 && !atomic_load(&s->syncing)) ||
			      s->group_members >= STORE__GROUP_MAX))
		group_end(s, 0, NULL);
	pthread_mutex_unlock(&s->write_lock);
	return rc;
}

int store_write_grouped(struct store *s, store_write_fn fn, void *ctx, struct err *err)
{
	struct store__ticket t = { .err = err };
	int rc;

	sem_init(&t.done, 0, 0);
	if ((rc = grouped_run(s, fn, ctx, &t, err)) == 0) {
		/* one wait: the group's commit failing, or the sync that covers it (the sync thread's) */
		while (sem_wait(&t.done) < 0)
			;
		rc = t.rc;
	}
	sem_destroy(&t.done);
	return rc;
}

int store_write_grouped_async(struct store *s, store_write_fn fn, void *ctx, store_done_fn done, void *arg,
			      struct err *err)
{
	struct store__ticket *t = calloc(1, sizeof(*t));
	int rc;

	if (!t)
		return err_set(err, ERR_NOMEM, "out of memory");
	t->fn = done;
	t->arg = arg;
	if ((rc = grouped_run(s, fn, ctx, t, err)) < 0)
		free(t);
	return rc;
}

void store_write_group_stats(struct store *s, uint64_t *commits, uint64_t *writes)
{
	pthread_mutex_lock(&s->write_lock);
	*commits = s->group_commits;
	*writes = s->group_writes;
	pthread_mutex_unlock(&s->write_lock);
}

int store_ping(struct store *s, struct err *err)
{
	struct store_conn *c;
	struct store__st *st;
	int rc;

	/* a store that can no longer write is not healthy */
	if ((rc = check_sync_failed(s, err)) < 0)
		return rc;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	st = store__stmt(c, "SELECT count(*) FROM schema_migrations", err);
	if (!st)
		rc = ERR_STORE;
	else if (store__step(st) != STORE__ROW)
		rc = store__fail(c, "ping", err);
	if (st)
		store__reset(st);
	store_read_release(c);
	return rc;
}

/* path with a suffix (new; NULL when out of memory). */
static char *path_with(const char *path, const char *suffix)
{
	size_t n = strlen(path) + strlen(suffix) + 1;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s%s", path, suffix);
	return p;
}

/* Sync a file, then the directory that names it (a rename is durable once its directory is synced). */
static int sync_file_and_dir(const char *path, struct err *err)
{
	char *copy = strdup(path);
	int fd, rc = 0;

	if (!copy)
		return err_set(err, ERR_NOMEM, "out of memory");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		rc = err_set(err, ERR_IO, "cannot sync %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	fd = rc ? -1 : open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
	return rc;
}

/*
 * VACUUM INTO dest (which must not exist or be empty) from the database at src, opened
 * read-only: one read transaction, so the copy is one committed state however
 * many writers commit meanwhile; then synced (VACUUM INTO does not).
 */
static int vacuum_into(const char *src, const char *dest, struct err *err)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (sqlite3_open_v2(src, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		rc = err_set(err, ERR_IO, "cannot open %s: %s", src, db ? sqlite3_errmsg(db) : "out of memory");
		goto done;
	}
	sqlite3_busy_timeout(db, 5000);
	if (sqlite3_prepare_v2(db, "VACUUM INTO ?", -1, &st, NULL) != SQLITE_OK) {
		rc = err_set(err, ERR_IO, "cannot copy %s: %s", src, sqlite3_errmsg(db));
		goto done;
	}
	sqlite3_bind_text(st, 1, dest, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		rc = err_set(err, ERR_IO, "copying %s to %s failed: %s", src, dest, sqlite3_errmsg(db));
		goto done;
	}
	rc = sync_file_and_dir(dest, err);
done:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}

int store_backup(struct store *s, const char *dest, int overwrite, struct err *err)
{
	char suffix[40];
	char *tmp = NULL;
	struct err check = {0};
	int rc, version;

	if (s->writer.ops == &store__pg_ops)
		return err_set(err, ERR_INPUT,
			       "backup copies an SQLite database; back a PostgreSQL one up with pg_dump"
			       " (docs/operations.md)");
	if (!overwrite && access(dest, F_OK) == 0)
		return err_set(err, ERR_CONFLICT, "%s exists", dest);
	snprintf(suffix, sizeof(suffix), ".tmp-%ld", (long)getpid());
	if (!(tmp = path_with(dest, suffix)))
		return err_set(err, ERR_NOMEM, "out of memory");
	unlink(tmp);
	/* VACUUM INTO fills an empty file: made here 0600, the copy is as private as the database */
	if ((rc = make_db_file(tmp, err)) < 0 || (rc = vacuum_into(s->path, tmp, err)) < 0)
		goto done;
	if ((rc = store_file_check(tmp, &version, &check)) < 0) {
		err_set(err, rc, "the copy fails its check: %s", check.msg);
		goto done;
	}
	if (overwrite) {
		if (rename(tmp, dest) < 0)
			rc = err_set(err, ERR_IO, "cannot rename %s to %s: %s", tmp, dest, strerror(errno));
	} else if (link(tmp, dest) < 0) {
		/* link, unlike rename, refuses a dest made meanwhile */
		if (errno == EEXIST)
			rc = err_set(err, ERR_CONFLICT, "%s exists", dest);
		else
			rc = err_set(err, ERR_IO, "cannot name the backup %s: %s", dest, strerror(errno));
	}
	if (!rc)
		rc = sync_file_and_dir(dest, err);
done:
	if (tmp)
		unlink(tmp);
	free(tmp);
	return rc;
}

int store_file_check(const char *path, int *version, struct err *err)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	const char *answer;
	int rc = 0;

	*version = 0;
	if (access(path, R_OK) < 0)
		return err_set(err, ERR_INPUT, "cannot read %s: %s", path, strerror(errno));
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		rc = err_set(err, ERR_INPUT, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		goto done;
	}
	if ((rc = schema_check(db, path, version, err)) < 0)
		goto done;
	if (*version == 0) {
		rc = err_set(err, ERR_INPUT, "%s is not a turnpost database (it is empty)", path);
		goto done;
	}
	if (sqlite3_prepare_v2(db, "PRAGMA integrity_check(1)", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		rc = err_set(err, ERR_INPUT, "%s fails SQLite's integrity check: %s", path, sqlite3_errmsg(db));
		goto done;
	}
	answer = (const char *)sqlite3_column_text(st, 0);
	if (!answer || strcmp(answer, "ok") != 0)
		rc = err_set(err, ERR_INPUT, "%s fails SQLite's integrity check: %s", path, answer ? answer : "?");
done:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}

int store_restore(const char *src, const char *path, char **kept, struct err *err)
{
	char suffix[64], stamp[32];
	char *tmp = NULL, *old = NULL, *from = NULL, *to = NULL;
	time_t now = time(NULL);
	struct tm tm;
	int fd = -1, rc, version;

	*kept = NULL;
	if (store_target_is_postgres(path))
		return err_set(err, ERR_INPUT,
			       "restore replaces an SQLite database; restore a PostgreSQL one with pg_restore, or copy"
			       " an SQLite backup into it with turnpost migrate-db (docs/operations.md)");
	if ((rc = make_parent_dir(path, err)) < 0)
		return rc;
	if ((rc = store_lock(path, LOCK_EX, &fd, err)) < 0)
		return rc;
	if ((rc = store_file_check(src, &version, err)) < 0)
		goto done;
	snprintf(suffix, sizeof(suffix), ".restore-%ld", (long)getpid());
	if (!(tmp = path_with(path, suffix))) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	unlink(tmp);
	if ((rc = vacuum_into(src, tmp, err)) < 0)
		goto done;
	if (access(path, F_OK) == 0) {
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), ".pre-restore-%Y%m%dT%H%M%SZ", &tm);
		if (!(old = path_with(path, stamp))) {
			rc = err_set(err, ERR_NOMEM, "out of memory");
			goto done;
		}
		if (rename(path, old) < 0) {
			rc = err_set(err, ERR_IO, "cannot move %s aside: %s", path, strerror(errno));
			goto done;
		}
		/* its WAL goes with it: SQLite finds OLD-wal beside OLD and recovers what it holds */
		from = path_with(path, "-wal");
		to = path_with(old, "-wal");
		if (!from || !to) {
			rc = err_set(err, ERR_NOMEM, "out of memory");
			goto done;
		}
		if (rename(from, to) < 0 && errno != ENOENT) {
			rc = err_set(err, ERR_IO, "cannot move %s aside: %s", from, strerror(errno));
			goto done;
		}
		*kept = old;
		old = NULL;
	}
	/* a WAL or shared memory left of the old database must never meet the new one */
	free(from);
	if (!(from = path_with(path, "-wal"))) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	unlink(from);
	memcpy(from + strlen(path), "-shm", 4);
	unlink(from);
	if (rename(tmp, path) < 0) {
		rc = err_set(err, ERR_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		goto done;
	}
	rc = sync_file_and_dir(path, err);
done:
	if (tmp)
		unlink(tmp);
	free(tmp);
	free(old);
	free(from);
	free(to);
	if (fd >= 0)
		close(fd);
	return rc;
}
