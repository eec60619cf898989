/* store/sqlite.c: the statement layer on SQLite (the store's default backend) */
/* SPDX-License-Identifier: MIT */
#include <sqlite3.h>
#include <stdlib.h>

#include "store/store_int.h"
#include "util/banned.h"

struct sqlite_st {
	struct store__st base;
	sqlite3_stmt *stmt;
};

static sqlite3_stmt *raw(struct store__st *st)
{
	return ((struct sqlite_st *)st)->stmt;
}

static int sqlite_fail(struct store_conn *c, const char *what, struct err *err)
{
	int code = sqlite3_extended_errcode(c->db);

	if ((code & 0xff) == SQLITE_CONSTRAINT)
		return err_set(err, ERR_CONFLICT, "%s: %s", what, sqlite3_errmsg(c->db));
	return err_set(err, ERR_STORE, "database error (%s): %s", what, sqlite3_errmsg(c->db));
}

static struct store__st *sqlite_prepare(struct store_conn *c, const char *sql, struct err *err)
{
	struct sqlite_st *st;
	sqlite3_stmt *stmt = NULL;

	/* PERSISTENT: most statements live in the connection's cache for its whole life */
	if (sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK) {
		sqlite_fail(c, "prepare", err);
		sqlite3_finalize(stmt);
		return NULL;
	}
	st = malloc(sizeof(*st));
	if (!st)
		abort();
	st->base.ops = &store__sqlite_ops;
	st->base.conn = c;
	st->stmt = stmt;
	return &st->base;
}

static void sqlite_finalize(struct store__st *st)
{
	if (!st)
		return;
	sqlite3_finalize(raw(st));
	free(st);
}

static void sqlite_reset(struct store__st *st)
{
	sqlite3_reset(raw(st));
	sqlite3_clear_bindings(raw(st));
}

static void sqlite_bind_int64(struct store__st *st, int idx, int64_t v)
{
	sqlite3_bind_int64(raw(st), idx, v);
}

static void sqlite_bind_text(struct store__st *st, int idx, const char *s)
{
	if (!s)
		sqlite3_bind_null(raw(st), idx);
	else
		sqlite3_bind_text(raw(st), idx, s, -1, SQLITE_STATIC);
}

static void sqlite_bind_blob(struct store__st *st, int idx, const void *p, int n)
{
	sqlite3_bind_blob(raw(st), idx, p, n, SQLITE_STATIC);
}

static void sqlite_bind_null(struct store__st *st, int idx)
{
	sqlite3_bind_null(raw(st), idx);
}

static int sqlite_step(struct store__st *st)
{
	return sqlite3_step(raw(st));
}

static int64_t sqlite_col_int64(struct store__st *st, int col)
{
	return sqlite3_column_int64(raw(st), col);
}

static const char *sqlite_col_text(struct store__st *st, int col)
{
	return (const char *)sqlite3_column_text(raw(st), col);
}

static const void *sqlite_col_blob(struct store__st *st, int col)
{
	return sqlite3_column_blob(raw(st), col);
}

static int sqlite_col_bytes(struct store__st *st, int col)
{
	return sqlite3_column_bytes(raw(st), col);
}

static int sqlite_col_null(struct store__st *st, int col)
{
	return sqlite3_column_type(raw(st), col) == SQLITE_NULL;
}

static int64_t sqlite_changes(struct store_conn *c)
{
	return sqlite3_changes(c->db);
}

static int64_t sqlite_last_id(struct store_conn *c)
{
	return sqlite3_last_insert_rowid(c->db);
}

static int sqlite_exec(struct store_conn *c, const char *sql)
{
	return sqlite3_exec(c->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int sqlite_in_txn(struct store_conn *c)
{
	return !sqlite3_get_autocommit(c->db);
}

const struct store__ops store__sqlite_ops = {
	.name = "sqlite",
	.begin_read = "BEGIN",
	.begin_write = "BEGIN IMMEDIATE",
	.prepare = sqlite_prepare,
	.finalize = sqlite_finalize,
	.reset = sqlite_reset,
	.bind_int64 = sqlite_bind_int64,
	.bind_text = sqlite_bind_text,
	.bind_blob = sqlite_bind_blob,
	.bind_null = sqlite_bind_null,
	.step = sqlite_step,
	.col_int64 = sqlite_col_int64,
	.col_text = sqlite_col_text,
	.col_blob = sqlite_col_blob,
	.col_bytes = sqlite_col_bytes,
	.col_null = sqlite_col_null,
	.changes = sqlite_changes,
	.last_id = sqlite_last_id,
	.fail = sqlite_fail,
	.exec = sqlite_exec,
	.in_txn = sqlite_in_txn,
};
