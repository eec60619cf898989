/* store/push_sub.c: browsers subscribed to web push notifications */
/* SPDX-License-Identifier: MIT */
#include "store/push_sub.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

#define COLS "id, user_id, endpoint, p256dh, auth, label, created_at, last_success_at"

void store_push_sub_release(struct store_push_sub *s)
{
	if (!s)
		return;
	free(s->endpoint);
	free(s->p256dh);
	free(s->auth);
	free(s->label);
	memset(s, 0, sizeof(*s));
}

void store_push_subs_free(struct store_push_sub *list, int n)
{
	for (int i = 0; i < n; i++)
		store_push_sub_release(&list[i]);
	free(list);
}

static void read_row(struct store__st *st, struct store_push_sub *s)
{
	s->id = store__col_int64(st, 0);
	s->user_id = store__col_int64(st, 1);
	s->endpoint = store__text(st, 2);
	s->p256dh = store__text(st, 3);
	s->auth = store__text(st, 4);
	s->label = store__text(st, 5);
	s->created_at = store__col_int64(st, 6);
	s->last_success_at = store__col_null(st, 7) ? 0 : store__col_int64(st, 7);
	if (!s->label)
		s->label = strdup("");
	if (!s->endpoint || !s->p256dh || !s->auth || !s->label)
		abort();
}

int store_push_sub_add(struct store_conn *c, int64_t user_id, const char *endpoint, const char *p256dh,
		       const char *auth, const char *label, int64_t now, int64_t *id, struct err *err)
{
	static const char del[] = "DELETE FROM push_subscriptions WHERE endpoint = ?";
	static const char ins[] = "INSERT INTO push_subscriptions(user_id, endpoint, p256dh, auth, label, created_at)"
				  " VALUES (?, ?, ?, ?, ?, ?)";
	struct store__st *st;

	if (id)
		*id = 0;
	/* a browser re-subscribing gets fresh keys: the old row (whoever's) goes */
	if (!(st = store__stmt(c, del, err)))
		return ERR_STORE;
	store__bind_text(st, 1, endpoint);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "replace push subscription", err);
	if (!(st = store__stmt(c, ins, err)))
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	store__bind_text(st, 2, endpoint);
	store__bind_text(st, 3, p256dh);
	store__bind_text(st, 4, auth);
	store__bind_text(st, 5, label ? label : "");
	store__bind_int64(st, 6, now);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "save push subscription", err);
	if (id)
		*id = store__last_id(c);
	return 0;
}

int store_push_sub_list(struct store_conn *c, int64_t user_id, struct store_push_sub **out, int *n,
			struct err *err)
{
	static const char sql[] = "SELECT " COLS " FROM push_subscriptions WHERE user_id = ? ORDER BY id";
	struct store__st *st = store__stmt(c, sql, err);
	struct store_push_sub *list = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	while ((r = store__step(st)) == STORE__ROW) {
		list = store__grow(list, count, &alloc, sizeof(*list));
		memset(&list[count], 0, sizeof(list[count]));
		read_row(st, &list[count]);
		count++;
	}
	if (r != STORE__DONE) {
		store_push_subs_free(list, count);
		return store__fail(c, "list push subscriptions", err);
	}
	*out = list;
	*n = count;
	return 0;
}

int store_push_sub_count(struct store_conn *c, int64_t user_id, int *count, struct err *err)
{
	static const char sql[] = "SELECT count(*) FROM push_subscriptions WHERE user_id = ?";
	struct store__st *st = store__stmt(c, sql, err);

	*count = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	if (store__step(st) != STORE__ROW)
		return store__fail(c, "count push subscriptions", err);
	*count = store__col_int(st, 0);
	store__reset(st);
	return 0;
}

int store_push_sub_get(struct store_conn *c, int64_t id, struct store_push_sub *out, struct err *err)
{
	static const char sql[] = "SELECT " COLS " FROM push_subscriptions WHERE id = ?";
	struct store__st *st = store__stmt(c, sql, err);
	int r;

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, id);
	r = store__step(st);
	if (r == STORE__ROW) {
		read_row(st, out);
		store__reset(st);
		return 0;
	}
	if (r == STORE__DONE)
		return err_set(err, ERR_NOTFOUND, "no push subscription %lld", (long long)id);
	return store__fail(c, "read push subscription", err);
}

int store_push_sub_delete(struct store_conn *c, int64_t id, int64_t user_id, int *removed, struct err *err)
{
	static const char sql[] = "DELETE FROM push_subscriptions WHERE id = ?1 AND (?2 = 0 OR user_id = ?2)";
	struct store__st *st = store__stmt(c, sql, err);

	if (removed)
		*removed = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, id);
	store__bind_int64(st, 2, user_id);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "remove push subscription", err);
	if (removed)
		*removed = store__changes(c) > 0;
	return 0;
}

int store_push_sub_touch(struct store_conn *c, int64_t id, int64_t now, struct err *err)
{
	static const char sql[] = "UPDATE push_subscriptions SET last_success_at = ? WHERE id = ?";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, now);
	store__bind_int64(st, 2, id);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "touch push subscription", err);
	return 0;
}
