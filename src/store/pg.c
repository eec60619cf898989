/* store/pg.c: the statement layer and connections on PostgreSQL (libpq) */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store/store_int.h"
#include "util/embed.h"
#include "util/log.h"
#include "util/banned.h"

#define BYTEAOID 17
#define INT8OID 20
#define TEXTOID 25
/* More than any statement of the store has. */
#define PG_PARAMS 24

/*
 * A statement: its SQL with PostgreSQL's placeholders ($1...), the values
 * bound since the last reset, and the result of its execution, read row by
 * row. It runs (PQexecParams: parsed by the server each time, so nothing of
 * it lives on the server and a reconnected session needs no re-preparing)
 * at the first step after a reset.
 */
struct pg_st {
	struct store__st base;
	char *sql;
	int nparams;
	unsigned used; /* bit k-1: the SQL names parameter k */
	const char *values[PG_PARAMS];
	int lengths[PG_PARAMS];
	int formats[PG_PARAMS];
	Oid types[PG_PARAMS];
	char ints[PG_PARAMS][24];
	PGresult *res;
	int row;      /* the current row; -1 before the first */
	int executed;
	int write;    /* INSERT, UPDATE or DELETE: run in a savepoint inside a transaction */
	int commit;   /* COMMIT: fails when the server rolled back instead */
	unsigned char *blob; /* the last bytea column read, decoded */
	size_t blob_len;
};

/* What a connection remembers of its last statement. */
struct pg_conn_state {
	char sqlstate[6];
	char msg[400];
	int64_t changes;
};

static int pg_exec(struct store_conn *c, const char *sql);
static int pg_in_txn(struct store_conn *c);

static struct pg_st *pst(struct store__st *st)
{
	return (struct pg_st *)st;
}

static void redact(const char *target, char *out, size_t size);

int store_target_is_postgres(const char *target)
{
	return store__pg_target(target);
}

int store__pg_target(const char *target)
{
	const char *p = target;

	if (strncmp(target, "postgres://", 11) == 0 || strncmp(target, "postgresql://", 13) == 0)
		return 1;
	/* a libpq keyword string starts with "keyword =" (a file's path has no such start) */
	while (*p == ' ')
		p++;
	if (!((*p >= 'a' && *p <= 'z') || *p == '_'))
		return 0;
	while ((*p >= 'a' && *p <= 'z') || *p == '_')
		p++;
	while (*p == ' ')
		p++;
	return *p == '=';
}

/* Remember the failure of res (NULL: of the connection) for store__fail. */
static void remember(struct store_conn *c, const PGresult *res)
{
	struct pg_conn_state *ps = c->priv;
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;

	if (!msg)
		msg = PQerrorMessage(c->pg);
	snprintf(ps->sqlstate, sizeof(ps->sqlstate), "%s", state ? state : "");
	snprintf(ps->msg, sizeof(ps->msg), "%s", msg && *msg ? msg : "unknown error");
	/* libpq's messages end in a newline */
	for (size_t n = strlen(ps->msg); n && (ps->msg[n - 1] == '\n' || ps->msg[n - 1] == ' ');)
		ps->msg[--n] = '\0';
}

static int pg_fail(struct store_conn *c, const char *what, struct err *err)
{
	struct pg_conn_state *ps = c->priv;

	if (strncmp(ps->sqlstate, "23", 2) == 0)
		return err_set(err, ERR_CONFLICT, "%s: %s", what, ps->msg);
	if (!c->pg || PQstatus(c->pg) != CONNECTION_OK || strncmp(ps->sqlstate, "08", 2) == 0 ||
	    strncmp(ps->sqlstate, "57P", 3) == 0)
		return err_set(err, ERR_STORE, "database unavailable (%s): %s", what, ps->msg);
	return err_set(err, ERR_STORE, "database error (%s): %s", what, ps->msg);
}

/* sql with ? and ?N turned into $N (outside quoted strings), as SQLite numbers them; *used: bit N-1 for each. */
static char *translate(const char *sql, int *nparams, unsigned *used)
{
	size_t size = strlen(sql) * 3 + 1;
	char *out = malloc(size), *o = out;
	int max = 0, quote = 0;

	if (!out)
		abort();
	for (const char *p = sql; *p; p++) {
		if (*p == '\'')
			quote = !quote;
		if (quote || *p != '?') {
			*o++ = *p;
			continue;
		}
		int k;
		if (p[1] >= '0' && p[1] <= '9') {
			k = 0;
			while (p[1] >= '0' && p[1] <= '9')
				k = k * 10 + (*++p - '0');
		} else {
			k = max + 1;
		}
		if (k > max)
			max = k;
		if (k >= 1 && k <= 32)
			*used |= 1u << (k - 1);
		o += snprintf(o, size - (size_t)(o - out), "$%d", k);
	}
	*o = '\0';
	*nparams = max;
	return out;
}

static void clear_result(struct pg_st *st)
{
	PQclear(st->res);
	st->res = NULL;
	st->row = -1;
	st->executed = 0;
	free(st->blob);
	st->blob = NULL;
	st->blob_len = 0;
}

static struct store__st *pg_prepare(struct store_conn *c, const char *sql, struct err *err)
{
	struct pg_st *st = calloc(1, sizeof(*st));

	if (!st)
		abort();
	st->base.ops = &store__pg_ops;
	st->base.conn = c;
	st->sql = translate(sql, &st->nparams, &st->used);
	if (st->nparams > PG_PARAMS) {
		free(st->sql);
		free(st);
		err_set(err, ERR_INTERNAL, "a statement has more than %d parameters", PG_PARAMS);
		return NULL;
	}
	st->row = -1;
	st->write = strncasecmp(sql, "INSERT", 6) == 0 || strncasecmp(sql, "UPDATE", 6) == 0 ||
		    strncasecmp(sql, "DELETE", 6) == 0;
	st->commit = strcasecmp(sql, "COMMIT") == 0;
	return &st->base;
}

static void pg_finalize(struct store__st *s)
{
	struct pg_st *st = pst(s);

	if (!st)
		return;
	clear_result(st);
	free(st->sql);
	free(st);
}

static void pg_reset(struct store__st *s)
{
	struct pg_st *st = pst(s);

	clear_result(st);
	for (int i = 0; i < PG_PARAMS; i++) {
		st->values[i] = NULL;
		st->lengths[i] = 0;
		st->formats[i] = 0;
		st->types[i] = 0;
	}
}

static int slot(struct pg_st *st, int idx)
{
	if (st->executed)
		clear_result(st);
	return idx >= 1 && idx <= PG_PARAMS ? idx - 1 : -1;
}

static void pg_bind_int64(struct store__st *s, int idx, int64_t v)
{
	struct pg_st *st = pst(s);
	int i = slot(st, idx);

	if (i < 0)
		return;
	snprintf(st->ints[i], sizeof(st->ints[i]), "%lld", (long long)v);
	st->values[i] = st->ints[i];
	st->formats[i] = 0;
	st->types[i] = INT8OID;
}

static void pg_bind_null(struct store__st *s, int idx)
{
	struct pg_st *st = pst(s);
	int i = slot(st, idx);

	if (i < 0)
		return;
	st->values[i] = NULL;
	st->formats[i] = 0;
	st->types[i] = 0;
}

static void pg_bind_text(struct store__st *s, int idx, const char *text)
{
	struct pg_st *st = pst(s);
	int i = slot(st, idx);

	if (i < 0)
		return;
	/* type unknown: the server takes the column's or operator's (a citext e-mail compares without case) */
	st->values[i] = text;
	st->formats[i] = 0;
	st->types[i] = 0;
}

static void pg_bind_blob(struct store__st *s, int idx, const void *p, int n)
{
	struct pg_st *st = pst(s);
	int i = slot(st, idx);

	if (i < 0)
		return;
	st->values[i] = p;
	st->lengths[i] = n;
	st->formats[i] = 1;
	st->types[i] = BYTEAOID;
}

/*
 * After a failed statement: when the session is gone and no transaction
 * was open in it (nothing of the caller's is lost), connect again. 1 when
 * the statement may run again on the new session.
 */
static int retry_lost(struct store_conn *c, int idle)
{
	struct err e = {0};

	if (!idle || PQstatus(c->pg) != CONNECTION_BAD)
		return 0;
	return store__pg_connect(c->store, c, c->writer, &e) == 0;
}

static int pg_step(struct store__st *s)
{
	struct pg_st *st = pst(s);
	struct store_conn *c = s->conn;
	struct pg_conn_state *ps = c->priv;

	if (!st->executed) {
		ExecStatusType status;
		/*
		 * A failed statement aborts PostgreSQL's whole transaction, while
		 * the store's callers expect SQLite's way: the statement alone fails
		 * (a duplicate refused, the transaction going on). So inside a
		 * transaction a write runs in a savepoint of its own.
		 */
		int guard = st->write && pg_in_txn(c);
		int idle = PQtransactionStatus(c->pg) == PQTRANS_IDLE;

		st->executed = 1;
		st->row = -1;
		if (guard && pg_exec(c, "SAVEPOINT store_statement") < 0)
			return 1;
		/* a parameter the SQL does not name (one text bound for several statements) needs a type all the same */
		for (int i = 0; i < st->nparams; i++)
			if (!(st->used & (1u << i)) && !st->types[i])
				st->types[i] = TEXTOID;
		st->res = PQexecParams(c->pg, st->sql, st->nparams, st->types, st->values, st->lengths, st->formats, 0);
		status = st->res ? PQresultStatus(st->res) : PGRES_FATAL_ERROR;
		if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && !guard && retry_lost(c, idle)) {
			/* a session that died while idle (a restart of the server) is only noticed now: once more on a new one */
			PQclear(st->res);
			st->res = PQexecParams(c->pg, st->sql, st->nparams, st->types, st->values, st->lengths, st->formats,
					       0);
			status = st->res ? PQresultStatus(st->res) : PGRES_FATAL_ERROR;
		}
		if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
			remember(c, st->res);
			PQclear(st->res);
			st->res = NULL;
			if (guard) {
				struct pg_conn_state saved = *ps;
				pg_exec(c, "ROLLBACK TO SAVEPOINT store_statement; RELEASE SAVEPOINT store_statement");
				*ps = saved;
			}
			return 1;
		}
		if (guard && pg_exec(c, "RELEASE SAVEPOINT store_statement") < 0) {
			PQclear(st->res);
			st->res = NULL;
			return 1;
		}
		if (status == PGRES_COMMAND_OK && st->commit && strcmp(PQcmdStatus(st->res), "ROLLBACK") == 0) {
			/* COMMIT of a transaction a failed statement aborted: PostgreSQL rolled it back instead */
			struct pg_conn_state *cs = c->priv;
			snprintf(cs->sqlstate, sizeof(cs->sqlstate), "40000");
			snprintf(cs->msg, sizeof(cs->msg), "the transaction was rolled back: a statement in it had failed");
			PQclear(st->res);
			st->res = NULL;
			return 1;
		}
		if (status == PGRES_COMMAND_OK) {
			const char *n = PQcmdTuples(st->res);
			ps->changes = n && *n ? strtoll(n, NULL, 10) : 0;
			return STORE__DONE;
		}
		ps->changes = 0;
	}
	if (!st->res)
		return STORE__DONE;
	free(st->blob);
	st->blob = NULL;
	if (++st->row < PQntuples(st->res))
		return STORE__ROW;
	return STORE__DONE;
}

static const char *value(struct pg_st *st, int col)
{
	if (!st->res || st->row < 0 || st->row >= PQntuples(st->res) || col >= PQnfields(st->res) ||
	    PQgetisnull(st->res, st->row, col))
		return NULL;
	return PQgetvalue(st->res, st->row, col);
}

static int64_t pg_col_int64(struct store__st *s, int col)
{
	const char *v = value(pst(s), col);

	if (!v)
		return 0;
	/* a comparison's boolean, as SQLite's 0 or 1 */
	if (v[0] == 't' && !v[1])
		return 1;
	if (v[0] == 'f' && !v[1])
		return 0;
	return strtoll(v, NULL, 10);
}

static int hexval(int ch)
{
	return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch - 'A' + 10;
}

/* A bytea column, decoded from its hex text (\x...) into st->blob. */
static const unsigned char *blob(struct pg_st *st, int col)
{
	const char *v = value(st, col);
	size_t n;

	free(st->blob);
	st->blob = NULL;
	st->blob_len = 0;
	if (!v || v[0] != '\\' || v[1] != 'x')
		return NULL;
	n = (strlen(v) - 2) / 2;
	st->blob = malloc(n + 1);
	if (!st->blob)
		abort();
	for (size_t i = 0; i < n; i++)
		st->blob[i] = (unsigned char)(hexval(v[2 + 2 * i]) << 4 | hexval(v[3 + 2 * i]));
	st->blob_len = n;
	return st->blob;
}

static int is_bytea(struct pg_st *st, int col)
{
	return st->res && col < PQnfields(st->res) && PQftype(st->res, col) == BYTEAOID;
}

static const char *pg_col_text(struct store__st *s, int col)
{
	return value(pst(s), col);
}

static const void *pg_col_blob(struct store__st *s, int col)
{
	struct pg_st *st = pst(s);

	return is_bytea(st, col) ? (const void *)blob(st, col) : (const void *)value(st, col);
}

static int pg_col_bytes(struct store__st *s, int col)
{
	struct pg_st *st = pst(s);

	if (!value(st, col))
		return 0;
	if (is_bytea(st, col))
		return blob(st, col) ? (int)st->blob_len : 0;
	return PQgetlength(st->res, st->row, col);
}

static int pg_col_null(struct store__st *s, int col)
{
	return value(pst(s), col) == NULL;
}

static int64_t pg_changes(struct store_conn *c)
{
	return ((struct pg_conn_state *)c->priv)->changes;
}

static int64_t pg_last_id(struct store_conn *c)
{
	PGresult *res = PQexec(c->pg, "SELECT lastval()");
	int64_t id = 0;

	if (res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	else
		remember(c, res);
	PQclear(res);
	return id;
}

static int pg_exec(struct store_conn *c, const char *sql)
{
	PGresult *res = PQexec(c->pg, sql);
	ExecStatusType status = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	int rc = 0;

	if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
		remember(c, res);
		rc = -1;
	}
	PQclear(res);
	return rc;
}

static int pg_in_txn(struct store_conn *c)
{
	PGTransactionStatusType t = PQtransactionStatus(c->pg);

	return t == PQTRANS_INTRANS || t == PQTRANS_INERROR || t == PQTRANS_ACTIVE;
}

const struct store__ops store__pg_ops = {
	.name = "postgresql",
	.postgres = 1,
	.begin_read = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
	.begin_write = "BEGIN",
	.prepare = pg_prepare,
	.finalize = pg_finalize,
	.reset = pg_reset,
	.bind_int64 = pg_bind_int64,
	.bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob,
	.bind_null = pg_bind_null,
	.step = pg_step,
	.col_int64 = pg_col_int64,
	.col_text = pg_col_text,
	.col_blob = pg_col_blob,
	.col_bytes = pg_col_bytes,
	.col_null = pg_col_null,
	.changes = pg_changes,
	.last_id = pg_last_id,
	.fail = pg_fail,
	.exec = pg_exec,
	.in_txn = pg_in_txn,
};

/* ---- connections ---- */

void store_target_redact(const char *target, char *out, size_t size)
{
	redact(target, out, size);
}

/* The connection target without its password, for messages and logs. */
static void redact(const char *target, char *out, size_t size)
{
	const char *at = strchr(target, '@'), *scheme = strstr(target, "://");

	if (scheme && at && at > scheme) {
		const char *colon = memchr(scheme + 3, ':', (size_t)(at - scheme - 3));
		if (colon) {
			snprintf(out, size, "%.*s:***%s", (int)(colon - target), target, at);
			return;
		}
	}
	if (strstr(target, "password")) {
		snprintf(out, size, "(a connection string with a password)");
		return;
	}
	snprintf(out, size, "%s", target);
}

static void notice_quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

int store__pg_connect(struct store *s, struct store_conn *c, int writer, struct err *err)
{
	char shown[256];
	PGresult *res;
	const char *setup = writer ? "SET synchronous_commit = on; SET client_min_messages = warning"
				   : "SET default_transaction_read_only = on; SET client_min_messages = warning";

	c->ops = &store__pg_ops;
	if (!c->priv && !(c->priv = calloc(1, sizeof(struct pg_conn_state))))
		abort();
	if (c->pg)
		PQfinish(c->pg);
	c->pg = PQconnectdb(s->path);
	if (!c->pg || PQstatus(c->pg) != CONNECTION_OK) {
		redact(s->path, shown, sizeof(shown));
		remember(c, NULL);
		return err_set(err, ERR_STORE, "database unavailable: cannot connect to %s: %s", shown,
			       ((struct pg_conn_state *)c->priv)->msg);
	}
	PQsetNoticeProcessor(c->pg, notice_quiet, NULL);
	res = PQexec(c->pg, setup);
	if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
		remember(c, res);
		PQclear(res);
		return pg_fail(c, "set up the connection", err);
	}
	PQclear(res);
	return 0;
}

int store__pg_reconnect(struct store_conn *c, struct err *err)
{
	if (c->pg && PQstatus(c->pg) == CONNECTION_OK)
		return 0;
	/* a new session set up as the lost one was; statements hold nothing on the server */
	return store__pg_connect(c->store, c, c->writer, err);
}

int store__pg_lost(struct store_conn *c)
{
	return !c->pg || PQstatus(c->pg) != CONNECTION_OK;
}

void store__pg_close(struct store_conn *c)
{
	if (c->pg)
		PQfinish(c->pg);
	c->pg = NULL;
	free(c->priv);
	c->priv = NULL;
}

/* One statement of the set-up, its one text value copied into out (size bytes). */
static int query1(struct store_conn *c, const char *sql, char *out, size_t size, struct err *err)
{
	PGresult *res = PQexec(c->pg, sql);
	int rc = 0;

	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
		remember(c, res);
		rc = pg_fail(c, "schema", err);
	} else {
		snprintf(out, size, "%s", PQgetvalue(res, 0, 0));
	}
	PQclear(res);
	return rc;
}

/* The schema guard of store.c's SQLite (schema_check), on the connection's current schema. */
static int schema_check(struct store_conn *c, int *applied, struct err *err)
{
	char tables[32], ours[32], shown[256];
	const char *last = "none";
	PGresult *res = NULL;
	int rc;

	*applied = 0;
	redact(c->store->path, shown, sizeof(shown));
	if ((rc = query1(c,
			 "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()",
			 tables, sizeof(tables), err)) < 0 ||
	    (rc = query1(c,
			 "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"
			 " AND table_name = 'schema_migrations'",
			 ours, sizeof(ours), err)) < 0)
		return rc;
	if (strcmp(tables, "0") == 0)
		return 0;
	if (strcmp(ours, "0") == 0)
		return err_set(err, ERR_INPUT,
			       "%s is a PostgreSQL database but not turnpost's (its schema has tables but no "
			       "schema_migrations); refusing to change it",
			       shown);
	for (const struct embed_file *f = embed_sql_pg; f->name; f++)
		last = f->name;
	res = PQexec(c->pg, "SELECT name FROM schema_migrations ORDER BY name");
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		remember(c, res);
		PQclear(res);
		return pg_fail(c, "read the migrations", err);
	}
	for (int i = 0; i < PQntuples(res); i++) {
		const char *name = PQgetvalue(res, i, 0);
		int known = 0;

		for (const struct embed_file *f = embed_sql_pg; f->name; f++)
			known |= strcmp(f->name, name) == 0;
		if (!known) {
			rc = err_set(err, ERR_INPUT,
				     "the database %s has the schema migration %s, newer than this turnpost knows "
				     "(its last is %s): run the turnpost release that upgraded it, or a newer one",
				     shown, name, last);
			break;
		}
		(*applied)++;
	}
	PQclear(res);
	return rc;
}

static int exec_or_fail(struct store_conn *c, const char *sql, const char *what, struct err *err)
{
	return pg_exec(c, sql) < 0 ? pg_fail(c, what, err) : 0;
}

int store__pg_migrate(struct store *s, struct err *err)
{
	struct store_conn *c = &s->writer;
	char shown[256];
	int rc, applied = 0, before;

	redact(s->path, shown, sizeof(shown));
	/* one daemon migrates at a time; the others wait and find the work done */
	if ((rc = exec_or_fail(c, "SELECT pg_advisory_lock(7303418)", "lock for the migrations", err)) < 0)
		return rc;
	if ((rc = schema_check(c, &before, err)) < 0)
		goto done;
	if ((rc = exec_or_fail(c,
			       "CREATE TABLE IF NOT EXISTS schema_migrations ("
			       " name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)",
			       "migrations", err)) < 0)
		goto done;
	for (const struct embed_file *f = embed_sql_pg; f->name; f++) {
		const char *params[1] = { f->name };
		PGresult *res = PQexecParams(c->pg, "SELECT 1 FROM schema_migrations WHERE name = $1", 1, NULL, params,
					     NULL, NULL, 0);
		int have = res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;

		if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
			remember(c, res);
			PQclear(res);
			rc = pg_fail(c, "migrations", err);
			goto done;
		}
		PQclear(res);
		applied++;
		if (have)
			continue;
		if ((rc = exec_or_fail(c, "BEGIN", "migrations", err)) < 0)
			goto done;
		if (pg_exec(c, f->text) < 0) {
			rc = err_set(err, ERR_STORE, "migration %s failed: %s", f->name,
				     ((struct pg_conn_state *)c->priv)->msg);
			pg_exec(c, "ROLLBACK");
			goto done;
		}
		res = PQexecParams(c->pg,
				   "INSERT INTO schema_migrations(name, applied_at)"
				   " VALUES ($1, (extract(epoch FROM now()) * 1000)::bigint)",
				   1, NULL, params, NULL, NULL, 0);
		if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
			remember(c, res);
			PQclear(res);
			pg_exec(c, "ROLLBACK");
			rc = pg_fail(c, "migrations", err);
			goto done;
		}
		PQclear(res);
		if ((rc = exec_or_fail(c, "COMMIT", "migrations", err)) < 0)
			goto done;
		log_info("database %s: migration %s applied (schema version %d)", shown, f->name, applied);
	}
	s->schema_version = applied;
done:
	pg_exec(c, "SELECT pg_advisory_unlock(7303418)");
	return rc;
}

/*
 * A number that changes when any transaction commits: a hash of the
 * current snapshot (xmin, xmax and the transactions in progress), which
 * changes whenever the set of committed transactions does. Spurious
 * changes (another database of the cluster) only cost a cache miss.
 */
int store__pg_data_version(struct store_conn *c, uint64_t *version, struct err *err)
{
	PGresult *res = PQexec(c->pg, "SELECT pg_current_snapshot()::text");
	uint64_t h = 1469598103934665603ULL;
	int rc = 0;

	*version = 0;
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
		remember(c, res);
		rc = pg_fail(c, "data version", err);
	} else {
		for (const char *p = PQgetvalue(res, 0, 0); *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ULL;
		*version = h;
	}
	PQclear(res);
	return rc;
}

/* ---- several daemons: leading, notifications between them ---- */

int store__pg_try_lock(struct store_conn *c, int64_t key, int *got, struct err *err)
{
	char text[24];
	const char *params[1] = { text };
	PGresult *res;
	int rc = 0;

	*got = 0;
	snprintf(text, sizeof(text), "%lld", (long long)key);
	res = PQexecParams(c->pg, "SELECT pg_try_advisory_lock($1::bigint)", 1, NULL, params, NULL, NULL, 0);
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
		remember(c, res);
		rc = pg_fail(c, "lead", err);
	} else {
		*got = PQgetvalue(res, 0, 0)[0] == 't';
	}
	PQclear(res);
	return rc;
}

int store__pg_wait_notify(struct store_conn *c, int ms, int *auth, int *outbox, struct err *err)
{
	struct pollfd p = { .fd = PQsocket(c->pg), .events = POLLIN };
	PGnotify *n;

	if (p.fd < 0) {
		remember(c, NULL);
		return pg_fail(c, "listen", err);
	}
	if (poll(&p, 1, ms) < 0 && errno != EINTR)
		return err_set(err, ERR_STORE, "database unavailable (listen): %s", strerror(errno));
	if (!PQconsumeInput(c->pg)) {
		remember(c, NULL);
		return pg_fail(c, "listen", err);
	}
	while ((n = PQnotifies(c->pg))) {
		if (strcmp(n->relname, STORE__PG_AUTH) == 0)
			*auth = 1;
		else if (strcmp(n->relname, STORE__PG_OUTBOX) == 0)
			*outbox = 1;
		PQfreemem(n);
	}
	return 0;
}
