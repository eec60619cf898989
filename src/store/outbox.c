/* store/outbox.c: the outbox of notifications: queueing, delivery bookkeeping (claim, sent, retry, dead, digest), listing */
/* SPDX-License-Identifier: MIT */
#include "store/outbox.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "store/channel.h"
#include "store/store_int.h"
#include "util/banned.h"

#define OUTBOX_COLS \
	"id, uid, event, coalesce(game_id, 0), coalesce(seat, -1), coalesce(user_id, 0), payload, state," \
	" attempts, next_at, digest, last_error, created_at, coalesce(sent_at, 0)"

static void outbox_row(struct store__st *st, struct store_outbox_row *r)
{
	memset(r, 0, sizeof(*r));
	r->id = store__col_int64(st, 0);
	store__copy_text(st, 1, r->uid, sizeof(r->uid));
	store__copy_text(st, 2, r->event, sizeof(r->event));
	r->game_id = store__col_int64(st, 3);
	r->seat = store__col_int(st, 4);
	r->user_id = store__col_int64(st, 5);
	r->payload = store__text(st, 6);
	store__copy_text(st, 7, r->state, sizeof(r->state));
	r->attempts = store__col_int(st, 8);
	r->next_at = store__col_int64(st, 9);
	r->digest = store__col_int(st, 10);
	r->last_error = store__text(st, 11);
	r->created_at = store__col_int64(st, 12);
	r->sent_at = store__col_int64(st, 13);
}

/* Bumped by every commit that queued a notification or made one due (store_outbox_generation). */
static atomic_ulong generation = 1;

uint64_t store_outbox_generation(void)
{
	return atomic_load(&generation);
}

void store__outbox_changed(struct store_conn *c)
{
	c->store->outbox_dirty = 1;
}

void store__outbox_committed(void)
{
	atomic_fetch_add(&generation, 1);
}

void store_outbox_rows_free(struct store_outbox_row *rows, int n)
{
	for (int i = 0; rows && i < n; i++) {
		free(rows[i].payload);
		free(rows[i].last_error);
	}
	free(rows);
}

/* Step st to the end, collecting rows. */
static int collect(struct store_conn *c, struct store__st *st, const char *what, struct store_outbox_row **out,
		   int *n, struct err *err)
{
	struct store_outbox_row *rows = NULL;
	int count = 0, alloc = 0, r;

	while ((r = store__step(st)) == STORE__ROW) {
		if (count == alloc) {
			struct store_outbox_row *grown;
			alloc = alloc ? alloc * 2 : 8;
			grown = realloc(rows, sizeof(*rows) * (size_t)alloc);
			if (!grown)
				abort();
			rows = grown;
		}
		outbox_row(st, &rows[count++]);
	}
	if (r != STORE__DONE) {
		store_outbox_rows_free(rows, count);
		return store__fail(c, what, err);
	}
	store__reset(st);
	*out = rows;
	*n = count;
	return 0;
}

int store_outbox_due(struct store_conn *c, int64_t now, int *due, struct err *err)
{
	static const char sql[] = "SELECT 1 FROM outbox WHERE state = 'pending' AND next_at <= ? LIMIT 1";
	struct store__st *st = store__stmt(c, sql, err);
	int r;

	*due = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, now);
	r = store__step(st);
	if (r != STORE__ROW && r != STORE__DONE)
		return store__fail(c, "look for due notifications", err);
	*due = r == STORE__ROW;
	store__reset(st);
	return 0;
}

int store_outbox_claim(struct store_conn *c, int64_t now, int64_t lease_until, int max,
		       struct store_outbox_row **out, int *n, struct err *err)
{
	static const char sel[] = "SELECT " OUTBOX_COLS " FROM outbox WHERE state = 'pending' AND next_at <= ?"
				  " ORDER BY next_at, id LIMIT ?";
	/* several daemons claim at once: each takes rows no other holds (locked until its commit) */
	static const char pg_sel[] = "SELECT " OUTBOX_COLS " FROM outbox WHERE state = 'pending' AND next_at <= ?"
				     " ORDER BY next_at, id LIMIT ? FOR UPDATE SKIP LOCKED";
	static const char upd[] = "UPDATE outbox SET lease_until = ?, next_at = ? WHERE id = ?";
	struct store__st *st = store__stmt(c, STORE__SQL(c, sel, pg_sel), err);
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, now);
	store__bind_int(st, 2, max);
	if ((rc = collect(c, st, "claim notifications", out, n, err)) < 0)
		return rc;
	for (int i = 0; i < *n; i++) {
		if (!(st = store__stmt(c, upd, err)))
			goto fail;
		store__bind_int64(st, 1, lease_until);
		store__bind_int64(st, 2, lease_until);
		store__bind_int64(st, 3, (*out)[i].id);
		if (store__step(st) != STORE__DONE) {
			store__fail(c, "claim notification", err);
			goto fail;
		}
	}
	return 0;
fail:
	store_outbox_rows_free(*out, *n);
	*out = NULL;
	*n = 0;
	return ERR_STORE;
}

int store_outbox_release_leases(struct store_conn *c, int64_t now, int *count, struct err *err)
{
	static const char sql[] = "UPDATE outbox SET next_at = min(next_at, ?), lease_until = NULL"
				  " WHERE state = 'pending' AND lease_until IS NOT NULL";
	/*
	 * On a database shared by several daemons a lease may be another
	 * daemon's, at work: only the leases that ran out are released (their
	 * rows were due again at lease_until already, for whoever claims first).
	 */
	static const char pg_sql[] = "UPDATE outbox SET lease_until = NULL"
				     " WHERE state = 'pending' AND lease_until IS NOT NULL AND lease_until <= ?";
	struct store__st *st = store__stmt(c, STORE__SQL(c, sql, pg_sql), err);

	if (count)
		*count = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, now);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "release notification leases", err);
	if (count)
		*count = store__changes(c);
	return 0;
}

int store_outbox_finish(struct store_conn *c, int64_t id, enum store_outbox_outcome how, int64_t at,
			const char *error, struct err *err)
{
	/* one statement for every outcome keeps the statement cache small */
	static const char sql[] =
		"UPDATE outbox SET"
		" state = CASE ?2 WHEN 0 THEN 'sent' WHEN 1 THEN 'pending' WHEN 2 THEN 'dead' WHEN 3 THEN 'skipped'"
		"   ELSE 'pending' END,"
		" attempts = attempts + (CASE WHEN ?2 IN (0, 1, 2) THEN 1 ELSE 0 END),"
		" next_at = CASE WHEN ?2 IN (1, 4) THEN ?3 ELSE next_at END,"
		" sent_at = CASE WHEN ?2 = 0 THEN ?3 ELSE sent_at END,"
		" digest = CASE WHEN ?2 = 4 THEN 1 ELSE digest END,"
		" last_error = CASE WHEN ?2 = 0 THEN NULL WHEN CAST(?4 AS TEXT) IS NULL THEN last_error ELSE CAST(?4 AS TEXT) END,"
		" lease_until = NULL"
		" WHERE id = ?1 AND state = 'pending'";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, id);
	store__bind_int(st, 2, (int)how);
	store__bind_int64(st, 3, at);
	store__bind_text(st, 4, error);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "update notification", err);
	if (store__changes(c) == 0)
		return err_set(err, ERR_NOTFOUND, "no pending notification %lld", (long long)id);
	return 0;
}

int store_outbox_list(struct store_conn *c, const char *state, int64_t user_id, int limit,
		      struct store_outbox_row **out, int *n, struct err *err)
{
	static const char sql[] = "SELECT " OUTBOX_COLS " FROM outbox WHERE (CAST(?1 AS TEXT) IS NULL OR state = CAST(?1 AS TEXT))"
				  " AND (?2 = 0 OR user_id = ?2) ORDER BY id DESC LIMIT ?3";
	struct store__st *st = store__stmt(c, sql, err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, state);
	store__bind_int64(st, 2, user_id);
	store__bind_int(st, 3, limit > 0 ? limit : 100);
	return collect(c, st, "list notifications", out, n, err);
}

int store_outbox_get(struct store_conn *c, int64_t id, struct store_outbox_row *out, struct err *err)
{
	static const char sql[] = "SELECT " OUTBOX_COLS " FROM outbox WHERE id = ?";
	struct store__st *st = store__stmt(c, sql, err);
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = store__row_by_id(c, st, id, "notification", "read notification", err)) < 0)
		return rc;
	outbox_row(st, out);
	store__reset(st);
	return 0;
}

int store_outbox_resend(struct store_conn *c, int64_t id, int64_t now, struct err *err)
{
	static const char sql[] = "UPDATE outbox SET state = 'pending', attempts = 0, next_at = ?2, digest = 0,"
				  " lease_until = NULL, last_error = NULL WHERE id = ?1 AND state = 'dead'";
	struct store_outbox_row row;
	struct store__st *st;
	int rc;

	if ((rc = store_outbox_get(c, id, &row, err)) < 0)
		return rc;
	if (strcmp(row.state, "dead") != 0)
		rc = err_set(err, ERR_CONFLICT, "notification %lld is %s, not dead: only dead notifications are resent",
			     (long long)id, row.state);
	free(row.payload);
	free(row.last_error);
	if (rc < 0)
		return rc;
	if (!(st = store__stmt(c, sql, err)))
		return ERR_STORE;
	store__bind_int64(st, 1, id);
	store__bind_int64(st, 2, now);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "resend notification", err);
	store__outbox_changed(c);
	return 0;
}

/* The events a browser that allowed notifications gets by web push as well. */
static int pushed_event(const char *event)
{
	static const char *const events[] = { "your_turn", "reminder", "chat", "game_over", NULL };

	for (int i = 0; events[i]; i++)
		if (strcmp(event, events[i]) == 0)
			return 1;
	return 0;
}

/*
 * One more row per web push subscription of the recipient, in the same
 * transaction: each browser's message is retried, dead-lettered and marked
 * sent on its own, like the email. The row is the email's (same event, game,
 * seat and user), its payload the email's with "push_sub" (the
 * subscription's id) first: notify/ delivers a row with push_sub by web push.
 */
static int push_fan_out(struct store_conn *c, const char *event, int64_t game_id, int seat, int64_t user_id,
			const char *payload, int64_t now, struct err *err)
{
	static const char sql[] =
		"INSERT INTO outbox(event, game_id, seat, user_id, payload, next_at, created_at)"
		" SELECT ?1, nullif(?2, 0), nullif(?3, -1), ?4,"
		" '{\"push_sub\":' || CAST(id AS TEXT) || CASE WHEN CAST(?5 AS TEXT) = '' THEN '}' ELSE ',' || CAST(?5 AS TEXT) END, ?6, ?6"
		" FROM push_subscriptions WHERE user_id = ?4 ORDER BY id";
	const char *rest = "";
	size_t len;
	char *inner = NULL;
	struct store__st *st;
	int rc = 0;

	if (!user_id || !pushed_event(event))
		return 0;
	/* the email's payload object without its opening brace ("" for an empty one) */
	if (payload) {
		while (*payload == ' ' || *payload == '\t' || *payload == '\n')
			payload++;
		len = strlen(payload);
		while (len && (payload[len - 1] == ' ' || payload[len - 1] == '\n'))
			len--;
		if (len > 2 && payload[0] == '{' && payload[len - 1] == '}') {
			if (!(inner = strndup(payload + 1, len - 1)))
				abort();
			rest = inner;
			for (const char *p = inner; *p == ' '; p++)
				if (p[1] == '}')
					rest = "";
		}
	}
	if (!(st = store__stmt(c, sql, err))) {
		rc = ERR_STORE;
		goto done;
	}
	store__bind_text(st, 1, event);
	store__bind_int64(st, 2, game_id);
	store__bind_int(st, 3, seat);
	store__bind_int64(st, 4, user_id);
	store__bind_text(st, 5, rest);
	store__bind_int64(st, 6, now);
	if (store__step(st) != STORE__DONE)
		rc = store__fail(c, "queue web push notifications", err);
done:
	free(inner);
	return rc;
}

int store_outbox_add(struct store_conn *c, const char *event, int64_t game_id, int seat, int64_t user_id,
		     const char *payload, int64_t now, int64_t *id, struct err *err)
{
	static const char sql[] =
		"INSERT INTO outbox(event, game_id, seat, user_id, payload, next_at, created_at)"
		" VALUES (?1, nullif(?2, 0), nullif(?3, -1), nullif(?4, 0), ?5, ?6, ?6)";
	struct store__st *st = store__stmt(c, sql, err);

	if (id)
		*id = 0;
	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, event);
	store__bind_int64(st, 2, game_id);
	store__bind_int(st, 3, seat);
	store__bind_int64(st, 4, user_id);
	store__bind_text(st, 5, payload ? payload : "{}");
	store__bind_int64(st, 6, now);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "queue notification", err);
	store__outbox_changed(c);
	if (id)
		*id = store__last_id(c);
	{
		int64_t keep = id ? *id : 0;
		int rc = push_fan_out(c, event, game_id, seat, user_id, payload, now, err);
		/*
		 * the recipient's own chat destinations that chose this event hear it
		 * too, in the same transaction (store/channel.h)
		 */
		if (rc == 0 && user_id &&
		    (strcmp(event, "your_turn") == 0 || strcmp(event, "reminder") == 0 || strcmp(event, "chat") == 0 ||
		     strcmp(event, "game_over") == 0))
			rc = store_channel_queue(c, game_id, user_id, event, seat, payload, now, NULL, err);
		if (id)
			*id = rc < 0 ? 0 : keep;
		return rc;
	}
}

int store_outbox_count(struct store_conn *c, int64_t game_id, const char *event, int *count, struct err *err)
{
	static const char sql[] = "SELECT count(*) FROM outbox WHERE game_id = ? AND event = ?";
	struct store__st *st = store__stmt(c, sql, err);

	*count = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_text(st, 2, event);
	if (store__step(st) != STORE__ROW)
		return store__fail(c, "count notifications", err);
	*count = store__col_int(st, 0);
	store__reset(st);
	return 0;
}

int store_outbox_list_game(struct store_conn *c, int64_t game_id, struct store_outbox_row **out, int *n,
			   struct err *err)
{
	static const char sql[] =
		"SELECT id, uid, event, coalesce(seat, -1), coalesce(user_id, 0), payload, state, attempts, next_at,"
		" digest, last_error, created_at, coalesce(sent_at, 0) FROM outbox WHERE game_id = ? ORDER BY id";
	struct store__st *st = store__stmt(c, sql, err);
	struct store_outbox_row *rows = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	while ((r = store__step(st)) == STORE__ROW) {
		struct store_outbox_row *x;
		if (count == alloc) {
			struct store_outbox_row *grown;
			alloc = alloc ? alloc * 2 : 16;
			if (!(grown = realloc(rows, sizeof(*rows) * (size_t)alloc)))
				abort();
			rows = grown;
		}
		x = &rows[count++];
		memset(x, 0, sizeof(*x));
		x->id = store__col_int64(st, 0);
		store__copy_text(st, 1, x->uid, sizeof(x->uid));
		store__copy_text(st, 2, x->event, sizeof(x->event));
		x->game_id = game_id;
		x->seat = store__col_int(st, 3);
		x->user_id = store__col_int64(st, 4);
		x->payload = store__text(st, 5);
		store__copy_text(st, 6, x->state, sizeof(x->state));
		x->attempts = store__col_int(st, 7);
		x->next_at = store__col_int64(st, 8);
		x->digest = store__col_int(st, 9);
		x->last_error = store__text(st, 10);
		x->created_at = store__col_int64(st, 11);
		x->sent_at = store__col_int64(st, 12);
	}
	if (r != STORE__DONE) {
		store_outbox_rows_free(rows, count);
		return store__fail(c, "list a game's notifications", err);
	}
	store__reset(st);
	*out = rows;
	*n = count;
	return 0;
}

int store_outbox_dead_count(struct store_conn *c, int64_t game_id, int *count, struct err *err)
{
	static const char sql[] = "SELECT count(*) FROM outbox WHERE game_id = ? AND state = 'dead'";
	struct store__st *st = store__stmt(c, sql, err);

	*count = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	if (store__step(st) != STORE__ROW)
		return store__fail(c, "count dead notifications", err);
	*count = store__col_int(st, 0);
	store__reset(st);
	return 0;
}

int store_outbox_health(struct store_conn *c, int64_t dead_since, struct store_outbox_health *out, struct err *err)
{
	static const char sql[] =
		"SELECT (SELECT count(*) FROM outbox WHERE state = 'dead' AND next_at >= ?),"
		" (SELECT count(*) FROM outbox WHERE state = 'pending' AND attempts > 0),"
		" (SELECT coalesce(min(created_at), 0) FROM outbox WHERE state = 'pending' AND attempts > 0)";
	struct store__st *st = store__stmt(c, sql, err);

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, dead_since);
	if (store__step(st) != STORE__ROW)
		return store__fail(c, "look at the delivery of notifications", err);
	out->dead_recent = store__col_int(st, 0);
	out->failing = store__col_int(st, 1);
	out->failing_since = store__col_int64(st, 2);
	store__reset(st);
	return 0;
}
