/* store/copy.c: a whole site copied from one store to another (turnpost migrate-db), either backend to either */
/* SPDX-License-Identifier: MIT */
#include "store/copy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

/*
 * Every table of the schema (sql/ and sql/pg/ have the same tables and
 * columns), parents before the rows that refer to them; blob: the index of
 * the one column of hashes (bytea on PostgreSQL), or -1; id: whether the
 * table numbers its rows itself (PostgreSQL's identity is moved past the
 * copied ids afterwards).
 */
static const struct copy_table {
	const char *name;
	const char *cols;
	int ncols;
	int blob;
	int id;
} copy_tables[] = {
	{ "users", "id, email, name, is_admin, prefs, created_at", 6, -1, 1 },
	/* the keys the server signs with (copy_seeded): links and subscriptions made before the move stay valid */
	{ "server_keys", "name, secret, created_at", 3, 1, 0 },
	{ "games",
	  "id, game, options, seed, status, nplayers, move_count, active_seats, result, initial, created_by,"
	  " created_at, updated_at, players_see_emails",
	  14, -1, 1 },
	{ "seats", "game_id, seat, user_id, name, email", 5, -1, 0 },
	{ "tokens", "id, hash, kind, user_id, game_id, seat, label, created_at, expires_at, revoked_at", 10, 1, 1 },
	{ "moves", "id, game_id, n, seat, text, via, client, at, back, undo_seat, snapshot, kind, target", 13, -1, 1 },
	{ "idempotency", "token_id, key, game_id, request_hash, status, body, created_at", 7, 3, 0 },
	{ "chat", "id, game_id, seat, user_id, text, at", 6, -1, 1 },
	{ "outbox",
	  "id, uid, event, game_id, seat, user_id, payload, state, attempts, next_at, lease_until, digest,"
	  " last_error, created_at, sent_at",
	  15, -1, 1 },
	{ "audit", "id, at, actor_user_id, actor, action, game_id, reason, before_count, after_count, detail", 10, -1,
	  1 },
	{ "game_clocks", "game_id, mode, turn_ms, bank_ms, increment_ms, reminder_ms, timeout, bot_level", 8, -1, 0 },
	{ "seat_clocks", "game_id, seat, bank_ms, turn_started_at, deadline_at, remind_at, reminded, timed_out, dropped",
	  9, -1, 0 },
	{ "vacations", "id, user_id, start_at, end_at, created_at", 5, -1, 1 },
	{ "reply_tokens", "id, hash, game_id, seat, user_id, created_at, expires_at, revoked_at", 8, 1, 1 },
	{ "inbound_mail", "message_id, reply_token_id, game_id, seat, sender, status, outcome, created_at", 8, -1, 0 },
	{ "email_changes", "user_id, email, hash, created_at, expires_at", 5, 2, 0 },
	{ "push_subscriptions", "id, user_id, endpoint, p256dh, auth, label, created_at, last_success_at", 8, -1, 1 },
	{ "chat_channels",
	  "id, game_id, user_id, kind, sealed, hint, events, created_by, created_at, dashboard, dashboard_msg", 11, 4, 1 },
	{ "feed_tokens", "user_id, hash, created_at", 3, 1, 0 },
};

#define COPY_NTABLES (sizeof(copy_tables) / sizeof(copy_tables[0]))

/*
 * A table the migrations put rows of their own in: a new database's
 * server keys (the unsubscribe links' HMAC key, the push subscriptions'
 * VAPID key, the key chat destinations are sealed with). Its rows do not
 * make the destination "not empty", and the source's replace them, so that
 * the unsubscribe links of mails already sent, the browsers' subscriptions
 * and the chat destinations stay valid on the copy.
 */
static int copy_seeded(const struct copy_table *t)
{
	return strcmp(t->name, "server_keys") == 0;
}

/* The number of rows of table on c. */
static int count_rows(struct store_conn *c, const char *table, int64_t *n, struct err *err)
{
	char sql[128];
	struct store__st *st;
	int rc = 0;

	*n = 0;
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	if (!(st = store__prepare(c, sql, err)))
		return ERR_STORE;
	if (store__step(st) != STORE__ROW)
		rc = store__fail(c, "count rows", err);
	else
		*n = store__col_int64(st, 0);
	store__finalize(st);
	return rc;
}

/* Copy one table's rows from src to dst (the writer, in a transaction). */
static int copy_table(struct store_conn *src, struct store_conn *dst, const struct copy_table *t, int64_t *rows,
		      struct err *err)
{
	char sel[512], ins[640], what[64];
	struct store__st *from = NULL, *to = NULL;
	unsigned char hash[64];
	size_t off;
	int r, rc = 0;

	*rows = 0;
	snprintf(what, sizeof(what), "copy %s", t->name);
	snprintf(sel, sizeof(sel), "SELECT %s FROM %s ORDER BY 1", t->cols, t->name);
	off = (size_t)snprintf(ins, sizeof(ins), "INSERT INTO %s(%s) VALUES (", t->name, t->cols);
	for (int i = 0; i < t->ncols && off < sizeof(ins); i++)
		off += (size_t)snprintf(ins + off, sizeof(ins) - off, "%s?", i ? ", " : "");
	if (off + 2 >= sizeof(ins))
		return err_set(err, ERR_INTERNAL, "%s: the statement does not fit", what);
	snprintf(ins + off, sizeof(ins) - off, ")");
	if (!(from = store__prepare(src, sel, err)) || !(to = store__prepare(dst, ins, err))) {
		rc = ERR_STORE;
		goto done;
	}
	while ((r = store__step(from)) == STORE__ROW) {
		store__reset(to);
		for (int i = 0; i < t->ncols; i++) {
			if (store__col_null(from, i)) {
				store__bind_null(to, i + 1);
			} else if (i == t->blob) {
				/* hashes are 32 bytes: copied, as the source's own buffer may not outlive the next column */
				int n = store__col_bytes(from, i);
				const void *p = store__col_blob(from, i);
				if (n < 0 || (size_t)n > sizeof(hash) || !p) {
					rc = err_set(err, ERR_INPUT, "%s: a hash of %d bytes", what, n);
					goto done;
				}
				memcpy(hash, p, (size_t)n);
				store__bind_blob(to, i + 1, hash, n);
			} else {
				/* text either way: each backend stores it as its column's type */
				store__bind_text(to, i + 1, store__col_text(from, i));
			}
		}
		if (store__step(to) != STORE__DONE) {
			rc = store__fail(dst, what, err);
			goto done;
		}
		(*rows)++;
	}
	if (r != STORE__DONE)
		rc = store__fail(src, what, err);
done:
	store__finalize(from);
	store__finalize(to);
	return rc;
}

int store_copy(struct store *from, struct store *to, struct store_copy_stats *stats, struct err *err)
{
	struct store_conn *src = NULL, *dst = NULL;
	int64_t n;
	int rc;

	memset(stats, 0, sizeof(*stats));
	if (store_schema_version(from) != store_schema_version(to))
		return err_set(err, ERR_INPUT, "the two databases have different schemas (%d and %d migrations)",
			       store_schema_version(from), store_schema_version(to));
	if ((rc = store_read_begin(from, &src, err)) < 0)
		return rc;
	if ((rc = store_write_begin(to, &dst, err)) < 0) {
		store_read_release(src);
		return rc;
	}
	for (size_t i = 0; i < COPY_NTABLES; i++) {
		if (copy_seeded(&copy_tables[i]))
			continue;
		if ((rc = count_rows(dst, copy_tables[i].name, &n, err)) < 0)
			goto fail;
		if (n) {
			rc = err_set(err, ERR_CONFLICT,
				     "the destination is not empty (its table %s has %lld rows): migrate into a new database",
				     copy_tables[i].name, (long long)n);
			goto fail;
		}
	}
	for (size_t i = 0; i < COPY_NTABLES; i++) {
		const struct copy_table *t = &copy_tables[i];
		int64_t copied, have, want;

		if (copy_seeded(t)) {
			char sql[128];
			snprintf(sql, sizeof(sql), "DELETE FROM %s", t->name);
			if (store__exec(dst, sql) < 0) {
				rc = store__fail(dst, "replace the new database's own keys", err);
				goto fail;
			}
		}
		if ((rc = copy_table(src, dst, t, &copied, err)) < 0)
			goto fail;
		/* what the destination holds now is what the source held */
		if ((rc = count_rows(src, t->name, &want, err)) < 0 || (rc = count_rows(dst, t->name, &have, err)) < 0)
			goto fail;
		if (have != want || copied != want) {
			rc = err_set(err, ERR_STORE, "%s: %lld rows copied of %lld", t->name, (long long)have,
				     (long long)want);
			goto fail;
		}
		if (t->id && dst->ops->postgres) {
			char sql[256];
			snprintf(sql, sizeof(sql),
				 "SELECT setval(pg_get_serial_sequence('%s', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM %s),"
				 " false)",
				 t->name, t->name);
			if (store__exec(dst, sql) < 0) {
				rc = store__fail(dst, "number the copied rows", err);
				goto fail;
			}
		}
		stats->tables++;
		stats->rows += copied;
		if (strcmp(t->name, "games") == 0)
			stats->games = copied;
		else if (strcmp(t->name, "moves") == 0)
			stats->moves = copied;
		else if (strcmp(t->name, "users") == 0)
			stats->users = copied;
	}
	store_read_release(src);
	/* the whole site, or nothing of it */
	return store_write_commit(dst, err);
fail:
	store_write_rollback(dst);
	store_read_release(src);
	memset(stats, 0, sizeof(*stats));
	return rc;
}
