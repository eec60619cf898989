/* store/audit.c: the audit log of admin actions: writing rows, reading them */
/* SPDX-License-Identifier: MIT */
#include "store/audit.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

#define AUDIT_LIMIT 100
#define AUDIT_MAX 1000

void store_audit_rows_free(struct store_audit_row *rows, int n)
{
	for (int i = 0; rows && i < n; i++) {
		free(rows[i].actor_email);
		free(rows[i].reason);
		free(rows[i].detail);
	}
	free(rows);
}

/* Read every row of a prepared statement with the columns of store_audit_list. */
static int collect(struct store_conn *c, struct store__st *st, struct store_audit_row **out, int *n, struct err *err)
{
	struct store_audit_row *rows = NULL;
	int count = 0, alloc = 0, r;

	while ((r = store__step(st)) == STORE__ROW) {
		struct store_audit_row *x;
		if (count == alloc) {
			struct store_audit_row *grown;
			alloc = alloc ? alloc * 2 : 16;
			if (!(grown = realloc(rows, sizeof(*rows) * (size_t)alloc)))
				abort();
			rows = grown;
		}
		x = &rows[count++];
		memset(x, 0, sizeof(*x));
		x->id = store__col_int64(st, 0);
		x->at = store__col_int64(st, 1);
		x->actor_user_id = store__col_int64(st, 2);
		x->actor_email = store__text(st, 3);
		store__copy_text(st, 4, x->actor, sizeof(x->actor));
		store__copy_text(st, 5, x->action, sizeof(x->action));
		x->game_id = store__col_int64(st, 6);
		x->reason = store__text(st, 7);
		x->before = store__col_int(st, 8);
		x->after = store__col_int(st, 9);
		x->detail = store__text(st, 10);
	}
	if (r != STORE__DONE) {
		store_audit_rows_free(rows, count);
		return store__fail(c, "read the audit log", err);
	}
	store__reset(st);
	*out = rows;
	*n = count;
	return 0;
}

#define AUDIT_COLS                                                                                             \
	"a.id, a.at, coalesce(a.actor_user_id, 0), u.email, a.actor, a.action, coalesce(a.game_id, 0), a.reason," \
	" coalesce(a.before_count, -1), coalesce(a.after_count, -1), a.detail"

int store_audit_seat_changes(struct store_conn *c, int64_t game_id, struct store_audit_row **out, int *n,
			     struct err *err)
{
	static const char sql[] = "SELECT " AUDIT_COLS " FROM audit a LEFT JOIN users u ON u.id = a.actor_user_id"
				  " WHERE a.game_id = ? AND a.action IN ('seat_replace', 'drop') ORDER BY a.id";
	struct store__st *st = store__stmt(c, sql, err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	return collect(c, st, out, n, err);
}

int store_audit_list(struct store_conn *c, const struct store_audit_filter *f, struct store_audit_row **out,
		     int *n, struct err *err)
{
	static const char sql[] =
		"SELECT " AUDIT_COLS " FROM audit a LEFT JOIN users u ON u.id = a.actor_user_id"
		" WHERE (?1 = 0 OR a.game_id = ?1) AND (?2 IS NULL OR a.action = ?2)"
		" AND (?3 IS NULL OR a.actor = ?3 OR u.email = ?3 COLLATE NOCASE) AND (?4 = 0 OR a.id < ?4)"
		" ORDER BY a.id DESC LIMIT ?5";
	static const char pg_sql[] =
		"SELECT " AUDIT_COLS " FROM audit a LEFT JOIN users u ON u.id = a.actor_user_id"
		" WHERE (?1 = 0 OR a.game_id = ?1) AND (?2::text IS NULL OR a.action = ?2::text)"
		" AND (?3::text IS NULL OR a.actor = ?3::text OR lower(u.email::text) = lower(?3::text))"
		" AND (?4 = 0 OR a.id < ?4)"
		" ORDER BY a.id DESC LIMIT ?5";
	struct store__st *st = store__stmt(c, STORE__SQL(c, sql, pg_sql), err);
	int limit = f->limit > 0 ? f->limit : AUDIT_LIMIT;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, f->game_id);
	if (f->action && *f->action)
		store__bind_text(st, 2, f->action);
	if (f->actor && *f->actor)
		store__bind_text(st, 3, f->actor);
	store__bind_int64(st, 4, f->before_id);
	store__bind_int(st, 5, limit > AUDIT_MAX ? AUDIT_MAX : limit);
	return collect(c, st, out, n, err);
}

int store_audit_add(struct store_conn *c, int64_t actor_user_id, const char *actor, const char *action,
		    int64_t game_id, const char *reason, int before, int after, const char *detail,
		    int64_t now, struct err *err)
{
	static const char sql[] =
		"INSERT INTO audit(at, actor_user_id, actor, action, game_id, reason, before_count, after_count,"
		" detail) VALUES (?,?,?,?,?,?,?,?,?)";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, now);
	if (actor_user_id)
		store__bind_int64(st, 2, actor_user_id);
	store__bind_text(st, 3, actor);
	store__bind_text(st, 4, action);
	if (game_id)
		store__bind_int64(st, 5, game_id);
	store__bind_text(st, 6, reason);
	if (before >= 0)
		store__bind_int(st, 7, before);
	if (after >= 0)
		store__bind_int(st, 8, after);
	store__bind_text(st, 9, detail ? detail : "{}");
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "write audit", err);
	return 0;
}
