/* store/user.c: persistence of users (account, preferences) and their tokens */
/* SPDX-License-Identifier: MIT */
#include "store/user.h"

#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/token.h"
#include "store/store_int.h"
#include "util/banned.h"

#define TOKENS_LIMIT 200

#define TOKEN_COLS \
	"id, kind, coalesce(user_id, 0), coalesce(game_id, 0), coalesce(seat, -1), coalesce(label, ''), created_at," \
	" coalesce(expires_at, 0), coalesce(revoked_at, 0)"

static const char *const kind_names[] = { "api", "seat", "signin", "session" };

void store_user_release(struct store_user *u)
{
	if (!u)
		return;
	free(u->email);
	free(u->name);
	free(u->prefs);
	memset(u, 0, sizeof(*u));
}

int store_user_add(struct store_conn *c, const char *email, const char *name, int is_admin, int64_t *id,
		   struct err *err)
{
	static const char sql[] =
		"INSERT INTO users(email, name, is_admin, created_at) VALUES (?, ?, ?, ?)";
	struct store__st *st = store__stmt(c, sql, err);

	if (id)
		*id = 0;
	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, email);
	store__bind_text(st, 2, name);
	store__bind_int(st, 3, is_admin ? 1 : 0);
	store__bind_int64(st, 4, clock_now_ms());
	if (store__step(st) != STORE__DONE) {
		int rc = store__fail(c, "add user", err);
		if (rc == ERR_CONFLICT)
			err_set(err, ERR_CONFLICT, "a user with email %s already exists", email);
		return rc;
	}
	if (id)
		*id = store__last_id(c);
	return 0;
}

static void user_row(struct store__st *st, struct store_user *out)
{
	out->id = store__col_int64(st, 0);
	out->email = store__text(st, 1);
	out->name = store__text(st, 2);
	out->is_admin = store__col_int(st, 3);
	out->prefs = store__text(st, 4);
	out->created_at = store__col_int64(st, 5);
}

#define USER_COLS "id, email, name, is_admin, prefs, created_at"

int store_user_by_email(struct store_conn *c, const char *email, struct store_user *out, struct err *err)
{
	static const char sql[] = "SELECT " USER_COLS " FROM users WHERE email = ?";
	struct store__st *st = store__stmt(c, sql, err);
	int r;

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, email);
	r = store__step(st);
	if (r == STORE__DONE)
		return err_set(err, ERR_NOTFOUND, "no user with email %s", email);
	if (r != STORE__ROW)
		return store__fail(c, "find user", err);
	user_row(st, out);
	store__reset(st);
	return 0;
}

int store_user_by_id(struct store_conn *c, int64_t id, struct store_user *out, struct err *err)
{
	static const char sql[] = "SELECT " USER_COLS " FROM users WHERE id = ?";
	struct store__st *st = store__stmt(c, sql, err);
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = store__row_by_id(c, st, id, "user with id", "find user", err)) < 0)
		return rc;
	user_row(st, out);
	store__reset(st);
	return 0;
}

int store_user_ensure(struct store_conn *c, const char *email, const char *name, int64_t *id, struct err *err)
{
	struct store_user u;
	int rc;

	*id = 0;
	rc = store_user_by_email(c, email, &u, err);
	if (rc == 0) {
		*id = u.id;
		store_user_release(&u);
		return 0;
	}
	if (rc != ERR_NOTFOUND)
		return rc;
	err_clear(err);
	return store_user_add(c, email, name, 0, id, err);
}

int store_user_each(struct store_conn *c, int (*fn)(void *ctx, const struct store_user *u), void *ctx,
		    struct err *err)
{
	static const char sql[] = "SELECT " USER_COLS " FROM users ORDER BY id";
	struct store__st *st = store__stmt(c, sql, err);
	int r, rc = 0;

	if (!st)
		return ERR_STORE;
	while ((r = store__step(st)) == STORE__ROW) {
		struct store_user u;
		user_row(st, &u);
		rc = fn(ctx, &u);
		store_user_release(&u);
		if (rc)
			break;
	}
	if (!rc && r != STORE__DONE)
		rc = store__fail(c, "list users", err);
	store__reset(st);
	return rc;
}

int store_user_count_admins(struct store_conn *c, int *count, struct err *err)
{
	static const char sql[] = "SELECT count(*) FROM users WHERE is_admin = 1";
	struct store__st *st = store__stmt(c, sql, err);

	*count = 0;
	if (!st)
		return ERR_STORE;
	if (store__step(st) != STORE__ROW)
		return store__fail(c, "count admins", err);
	*count = store__col_int(st, 0);
	store__reset(st);
	return 0;
}

int store_token_add(struct store_conn *c, const unsigned char hash[32], enum store_token_kind kind,
		    int64_t user_id, int64_t game_id, int seat, const char *label, int64_t expires_at,
		    int64_t *id, struct err *err)
{
	static const char sql[] =
		"INSERT INTO tokens(hash, kind, user_id, game_id, seat, label, created_at, expires_at)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
	struct store__st *st = store__stmt(c, sql, err);

	if (id)
		*id = 0;
	if (!st)
		return ERR_STORE;
	store__bind_blob(st, 1, hash, 32);
	store__bind_text(st, 2, kind_names[kind]);
	if (user_id)
		store__bind_int64(st, 3, user_id);
	if (game_id)
		store__bind_int64(st, 4, game_id);
	if (seat >= 0)
		store__bind_int(st, 5, seat);
	store__bind_text(st, 6, label);
	store__bind_int64(st, 7, clock_now_ms());
	if (expires_at)
		store__bind_int64(st, 8, expires_at);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "add token", err);
	if (id)
		*id = store__last_id(c);
	return 0;
}

int store_token_by_hash(struct store_conn *c, const unsigned char hash[32], int64_t now,
			struct store_token *out, struct err *err)
{
	static const char sql[] =
		"SELECT id, kind, user_id, game_id, seat, expires_at, revoked_at, hash FROM tokens WHERE hash = ?";
	struct store__st *st = store__stmt(c, sql, err);
	const char *kind;
	int r, rc = 0;

	memset(out, 0, sizeof(*out));
	out->seat = -1;
	if (!st)
		return ERR_STORE;
	store__bind_blob(st, 1, hash, 32);
	r = store__step(st);
	if (r == STORE__DONE)
		return err_set(err, ERR_UNAUTH, "unknown token");
	if (r != STORE__ROW)
		return store__fail(c, "find token", err);
	out->id = store__col_int64(st, 0);
	kind = store__col_text(st, 1);
	for (int k = 0; k < 4; k++)
		if (kind && strcmp(kind, kind_names[k]) == 0)
			out->kind = (enum store_token_kind)k;
	out->user_id = store__col_int64(st, 2);
	out->game_id = store__col_int64(st, 3);
	out->seat = store__col_null(st, 4) ? -1 : store__col_int(st, 4);
	out->expires_at = store__col_int64(st, 5);
	out->revoked_at = store__col_int64(st, 6);
	if (store__col_bytes(st, 7) != 32 || !token_hash_equal(store__col_blob(st, 7), hash))
		rc = err_set(err, ERR_UNAUTH, "unknown token");
	else if (out->revoked_at)
		rc = err_set(err, ERR_UNAUTH, "this token was revoked");
	else if (out->expires_at && out->expires_at <= now)
		rc = err_set(err, ERR_UNAUTH, "this token has expired");
	store__reset(st);
	if (rc < 0) {
		/* nothing of a token that does not let its holder in is handed out */
		memset(out, 0, sizeof(*out));
		out->seat = -1;
	}
	return rc;
}

int store_token_revoke(struct store_conn *c, int64_t id, int64_t now, struct err *err)
{
	static const char sql[] = "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL";
	struct store__st *st = store__stmt(c, sql, err);

	/* a cached lookup of a token may be stale now (store_change_generation) */
	store__auth_changed(c);
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, now);
	store__bind_int64(st, 2, id);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "revoke token", err);
	if (store__changes(c) == 0)
		return err_set(err, ERR_NOTFOUND, "no live token with id %lld", (long long)id);
	return 0;
}

int store_user_update(struct store_conn *c, int64_t id, const char *name, const char *prefs, struct err *err)
{
	static const char sql[] = "UPDATE users SET name = COALESCE(?, name), prefs = COALESCE(?, prefs) WHERE id = ?";
	struct store__st *st = store__stmt(c, sql, err);

	/* a cached lookup of a token may be stale now (store_change_generation) */
	store__auth_changed(c);
	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, name);
	store__bind_text(st, 2, prefs);
	store__bind_int64(st, 3, id);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "update user", err);
	if (store__changes(c) != 1)
		return err_set(err, ERR_NOTFOUND, "no user with id %lld", (long long)id);
	return 0;
}

int store_user_set_email(struct store_conn *c, int64_t id, const char *email, struct err *err)
{
	static const char sql[] = "UPDATE users SET email = ? WHERE id = ?";
	static const char seats_sql[] = "UPDATE seats SET email = ? WHERE user_id = ?";
	struct store__st *st = store__stmt(c, sql, err);

	/* a cached lookup of a token may be stale now (store_change_generation) */
	store__auth_changed(c);
	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, email);
	store__bind_int64(st, 2, id);
	if (store__step(st) != STORE__DONE) {
		int rc = store__fail(c, "change email", err);
		if (rc == ERR_CONFLICT)
			err_set(err, ERR_CONFLICT, "another account already uses %s", email);
		return rc;
	}
	if (store__changes(c) != 1)
		return err_set(err, ERR_NOTFOUND, "no user with id %lld", (long long)id);
	if (!(st = store__stmt(c, seats_sql, err)))
		return ERR_STORE;
	store__bind_text(st, 1, email);
	store__bind_int64(st, 2, id);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "change seats' email", err);
	return 0;
}

int store_user_set_prefs(struct store_conn *c, int64_t user_id, const char *prefs, struct err *err)
{
	static const char sql[] = "UPDATE users SET prefs = ? WHERE id = ?";
	struct store__st *st = store__stmt(c, sql, err);

	/* a cached lookup of a token may be stale now (store_change_generation) */
	store__auth_changed(c);
	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, prefs);
	store__bind_int64(st, 2, user_id);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "save preferences", err);
	if (store__changes(c) == 0)
		return err_set(err, ERR_NOTFOUND, "no user %lld", (long long)user_id);
	return 0;
}

static void token_row(struct store__st *st, struct store_token_info *t)
{
	memset(t, 0, sizeof(*t));
	t->id = store__col_int64(st, 0);
	store__copy_text(st, 1, t->kind, sizeof(t->kind));
	t->user_id = store__col_int64(st, 2);
	t->game_id = store__col_int64(st, 3);
	t->seat = store__col_int(st, 4);
	store__copy_text(st, 5, t->label, sizeof(t->label));
	t->created_at = store__col_int64(st, 6);
	t->expires_at = store__col_int64(st, 7);
	t->revoked_at = store__col_int64(st, 8);
}

int store_token_get(struct store_conn *c, int64_t id, struct store_token_info *out, struct err *err)
{
	static const char sql[] = "SELECT " TOKEN_COLS " FROM tokens WHERE id = ?";
	struct store__st *st = store__stmt(c, sql, err);
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = store__row_by_id(c, st, id, "token with id", "load token", err)) < 0)
		return rc;
	token_row(st, out);
	store__reset(st);
	return 0;
}

int store_token_list_game(struct store_conn *c, int64_t game_id, struct store_token_info **out, int *n,
			  struct err *err)
{
	static const char sql[] = "SELECT " TOKEN_COLS " FROM tokens WHERE game_id = ? AND kind = 'seat'"
				  " ORDER BY id DESC LIMIT ?";
	struct store__st *st = store__stmt(c, sql, err);
	struct store_token_info *list = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_int(st, 2, TOKENS_LIMIT);
	while ((r = store__step(st)) == STORE__ROW) {
		if (count == alloc) {
			struct store_token_info *grown;
			alloc = alloc ? alloc * 2 : 8;
			if (!(grown = realloc(list, sizeof(*list) * (size_t)alloc)))
				abort();
			list = grown;
		}
		token_row(st, &list[count++]);
	}
	if (r != STORE__DONE) {
		free(list);
		return store__fail(c, "list tokens", err);
	}
	store__reset(st);
	*out = list;
	*n = count;
	return 0;
}

int store_token_revoke_seat(struct store_conn *c, int64_t game_id, int seat, int64_t now, int *count,
			    struct err *err)
{
	static const char sql[] = "UPDATE tokens SET revoked_at = ? WHERE game_id = ? AND seat = ? AND kind = 'seat'"
				  " AND revoked_at IS NULL";
	struct store__st *st = store__stmt(c, sql, err);

	/* a cached lookup of a token may be stale now (store_change_generation) */
	store__auth_changed(c);
	if (count)
		*count = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, now);
	store__bind_int64(st, 2, game_id);
	store__bind_int(st, 3, seat);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "revoke seat tokens", err);
	if (count)
		*count = store__changes(c);
	return 0;
}
