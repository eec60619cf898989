/* store/channel.c: chat-app channels of games and users' own destinations */
/* SPDX-License-Identifier: MIT */
#include "store/channel.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/banned.h"

#define COLS "id, game_id, user_id, kind, sealed, hint, events, created_by, created_at, dashboard, dashboard_msg"

void store_channel_release(struct store_channel *ch)
{
	if (!ch)
		return;
	free(ch->sealed);
	memset(ch, 0, sizeof(*ch));
}

void store_channels_free(struct store_channel *list, int n)
{
	for (int i = 0; list && i < n; i++)
		store_channel_release(&list[i]);
	free(list);
}

static void read_row(struct store__st *st, struct store_channel *ch)
{
	int len = store__col_bytes(st, 4);

	memset(ch, 0, sizeof(*ch));
	ch->id = store__col_int64(st, 0);
	ch->game_id = store__col_null(st, 1) ? 0 : store__col_int64(st, 1);
	ch->user_id = store__col_null(st, 2) ? 0 : store__col_int64(st, 2);
	store__copy_text(st, 3, ch->kind, sizeof(ch->kind));
	if (len > 0) {
		if (!(ch->sealed = malloc((size_t)len)))
			abort();
		memcpy(ch->sealed, store__col_blob(st, 4), (size_t)len);
		ch->sealed_len = (size_t)len;
	}
	store__copy_text(st, 5, ch->hint, sizeof(ch->hint));
	store__copy_text(st, 6, ch->events, sizeof(ch->events));
	ch->created_by = store__col_null(st, 7) ? 0 : store__col_int64(st, 7);
	ch->created_at = store__col_int64(st, 8);
	ch->dashboard = store__col_int(st, 9);
	if (!store__col_null(st, 10))
		store__copy_text(st, 10, ch->dashboard_msg, sizeof(ch->dashboard_msg));
}

int store_channel_set_game(struct store_conn *c, int64_t game_id, const char *kind, const unsigned char *sealed,
			   size_t len, const char *hint, int dashboard, int64_t by, int64_t now, int64_t *id,
			   struct err *err)
{
	static const char del[] = "DELETE FROM chat_channels WHERE game_id = ? AND kind = ?";
	static const char ins[] = "INSERT INTO chat_channels(game_id, kind, sealed, hint, created_by, created_at, dashboard)"
				  " VALUES (?, ?, ?, ?, nullif(?, 0), ?, ?)";
	struct store__st *st;

	if (id)
		*id = 0;
	if (!(st = store__stmt(c, del, err)))
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_text(st, 2, kind);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "replace a game's channel", err);
	if (!(st = store__stmt(c, ins, err)))
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_text(st, 2, kind);
	store__bind_blob(st, 3, sealed, (int)len);
	store__bind_text(st, 4, hint);
	store__bind_int64(st, 5, by);
	store__bind_int64(st, 6, now);
	store__bind_int(st, 7, dashboard ? 1 : 0);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "add a game's channel", err);
	if (id)
		*id = store__last_id(c);
	return 0;
}

int store_channel_set_dashboard_msg(struct store_conn *c, int64_t id, const char *msg, struct err *err)
{
	static const char sql[] = "UPDATE chat_channels SET dashboard_msg = nullif(?, '') WHERE id = ?";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, msg ? msg : "");
	store__bind_int64(st, 2, id);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "keep a dashboard message's id", err);
	if (store__changes(c) == 0)
		return err_set(err, ERR_NOTFOUND, "no such channel");
	return 0;
}

int store_channel_add_user(struct store_conn *c, int64_t user_id, const char *kind, const unsigned char *sealed,
			   size_t len, const char *hint, const char *events, int64_t now, int64_t *id,
			   struct err *err)
{
	static const char ins[] = "INSERT INTO chat_channels(user_id, kind, sealed, hint, events, created_by, created_at)"
				  " VALUES (?1, ?2, ?3, ?4, ?5, ?1, ?6)";
	struct store__st *st;

	if (id)
		*id = 0;
	if (!(st = store__stmt(c, ins, err)))
		return ERR_STORE;
	store__bind_int64(st, 1, user_id);
	store__bind_text(st, 2, kind);
	store__bind_blob(st, 3, sealed, (int)len);
	store__bind_text(st, 4, hint);
	store__bind_text(st, 5, events);
	store__bind_int64(st, 6, now);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "add a destination", err);
	if (id)
		*id = store__last_id(c);
	return 0;
}

static int get_one(struct store_conn *c, struct store__st *st, struct store_channel *out, struct err *err)
{
	int r = store__step(st);

	if (r == STORE__ROW) {
		read_row(st, out);
		store__reset(st);
		return 0;
	}
	if (r == STORE__DONE)
		return err_set(err, ERR_NOTFOUND, "no such channel");
	return store__fail(c, "read a channel", err);
}

int store_channel_get(struct store_conn *c, int64_t id, struct store_channel *out, struct err *err)
{
	static const char sql[] = "SELECT " COLS " FROM chat_channels WHERE id = ?";
	struct store__st *st = store__stmt(c, sql, err);

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, id);
	return get_one(c, st, out, err);
}

int store_channel_get_game(struct store_conn *c, int64_t game_id, const char *kind, struct store_channel *out,
			   struct err *err)
{
	static const char sql[] = "SELECT " COLS " FROM chat_channels WHERE game_id = ? AND kind = ?";
	struct store__st *st = store__stmt(c, sql, err);

	memset(out, 0, sizeof(*out));
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_text(st, 2, kind);
	return get_one(c, st, out, err);
}

int store_channel_list(struct store_conn *c, int64_t game_id, int64_t user_id, struct store_channel **out, int *n,
		       struct err *err)
{
	static const char by_game[] = "SELECT " COLS " FROM chat_channels WHERE game_id = ? ORDER BY id";
	static const char by_user[] = "SELECT " COLS " FROM chat_channels WHERE user_id = ? ORDER BY id";
	struct store__st *st = store__stmt(c, game_id ? by_game : by_user, err);
	struct store_channel *list = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id ? game_id : user_id);
	while ((r = store__step(st)) == STORE__ROW) {
		list = store__grow(list, count, &alloc, sizeof(*list));
		read_row(st, &list[count++]);
	}
	if (r != STORE__DONE) {
		store_channels_free(list, count);
		return store__fail(c, "list channels", err);
	}
	*out = list;
	*n = count;
	return 0;
}

static int delete_where(struct store_conn *c, const char *sql, int64_t a, const char *kind, int64_t b,
			struct err *err)
{
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, a);
	if (kind)
		store__bind_text(st, 2, kind);
	else
		store__bind_int64(st, 2, b);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "remove a channel", err);
	if (store__changes(c) == 0)
		return err_set(err, ERR_NOTFOUND, "no such channel");
	return 0;
}

int store_channel_delete_game(struct store_conn *c, int64_t game_id, const char *kind, struct err *err)
{
	static const char sql[] = "DELETE FROM chat_channels WHERE game_id = ? AND kind = ?";

	return delete_where(c, sql, game_id, kind, 0, err);
}

int store_channel_delete_user(struct store_conn *c, int64_t user_id, int64_t id, struct err *err)
{
	static const char sql[] = "DELETE FROM chat_channels WHERE user_id = ? AND id = ?";

	return delete_where(c, sql, user_id, NULL, id, err);
}

int store_channel_set_events(struct store_conn *c, int64_t user_id, int64_t id, const char *events, struct err *err)
{
	static const char sql[] = "UPDATE chat_channels SET events = ? WHERE user_id = ? AND id = ?";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, events);
	store__bind_int64(st, 2, user_id);
	store__bind_int64(st, 3, id);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "change a destination", err);
	if (store__changes(c) == 0)
		return err_set(err, ERR_NOTFOUND, "no such destination");
	return 0;
}

int store_channel_queue(struct store_conn *c, int64_t game_id, int64_t user_id, const char *event, int seat,
			const char *data, int64_t now, int *count, struct err *err)
{
	/* the payload is built in SQL so that one statement queues them all, inside the caller's transaction */
	static const char by_game[] =
		"INSERT INTO outbox(event, game_id, seat, user_id, payload, next_at, created_at)"
		" SELECT 'channel', ?1, nullif(?2, -1), NULL,"
		" '{\"channel\":' || CAST(id AS TEXT) || ',\"event\":\"' || CAST(?3 AS TEXT) || '\",\"data\":'"
		" || CAST(?5 AS TEXT) || '}', ?4, ?4"
		" FROM chat_channels WHERE game_id = ?1 ORDER BY id";
	static const char by_user[] =
		"INSERT INTO outbox(event, game_id, seat, user_id, payload, next_at, created_at)"
		" SELECT 'channel', nullif(?1, 0), nullif(?2, -1), user_id,"
		" '{\"channel\":' || CAST(id AS TEXT) || ',\"event\":\"' || CAST(?3 AS TEXT) || '\",\"data\":'"
		" || CAST(?6 AS TEXT) || '}', ?4, ?4"
		" FROM chat_channels WHERE user_id = ?5 AND events LIKE '%,' || CAST(?3 AS TEXT) || ',%' ORDER BY id";
	struct store__st *st;
	int changed;

	if (count)
		*count = 0;
	if (!(st = store__stmt(c, user_id ? by_user : by_game, err)))
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_int(st, 2, seat);
	store__bind_text(st, 3, event);
	store__bind_int64(st, 4, now);
	/* the user's statement has the user as ?5 and the data as ?6, the game's the data as ?5 */
	if (user_id)
		store__bind_int64(st, 5, user_id);
	store__bind_text(st, user_id ? 6 : 5, data && *data ? data : "{}");
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "queue channel messages", err);
	changed = (int)store__changes(c);
	if (changed > 0)
		store__outbox_changed(c);
	if (count)
		*count = changed;
	return 0;
}

int store_channel_queue_one(struct store_conn *c, int64_t id, int64_t game_id, const char *event, int seat,
			    int64_t now, struct err *err)
{
	static const char sql[] =
		"INSERT INTO outbox(event, game_id, seat, user_id, payload, next_at, created_at)"
		" SELECT 'channel', ?1, nullif(?2, -1), NULL,"
		" '{\"channel\":' || CAST(id AS TEXT) || ',\"event\":\"' || CAST(?3 AS TEXT) || '\",\"data\":{}}', ?4, ?4"
		" FROM chat_channels WHERE id = ?5 AND game_id = ?1";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_int(st, 2, seat);
	store__bind_text(st, 3, event);
	store__bind_int64(st, 4, now);
	store__bind_int64(st, 5, id);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "queue a channel message", err);
	if (store__changes(c) > 0)
		store__outbox_changed(c);
	return 0;
}
