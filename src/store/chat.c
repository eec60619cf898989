/* store/chat.c: persistence of the chat of games */
/* SPDX-License-Identifier: MIT */
#include "store/chat.h"

#include <stdlib.h>

#include "store/store_int.h"
#include "util/banned.h"

void store_chats_free(struct store_chat *list, int n)
{
	for (int i = 0; list && i < n; i++) {
		free(list[i].name);
		free(list[i].text);
		free(list[i].email);
	}
	free(list);
}

int store_chat_add(struct store_conn *c, int64_t game_id, int seat, int64_t user_id, const char *text, int64_t at,
		   struct err *err)
{
	static const char sql[] = "INSERT INTO chat(game_id, seat, user_id, text, at) VALUES (?,?,?,?,?)";
	struct store__st *st = store__stmt(c, sql, err);

	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	if (seat >= 0)
		store__bind_int(st, 2, seat);
	if (user_id)
		store__bind_int64(st, 3, user_id);
	store__bind_text(st, 4, text);
	store__bind_int64(st, 5, at);
	if (store__step(st) != STORE__DONE)
		return store__fail(c, "add chat message", err);
	return 0;
}

int store_chat_list(struct store_conn *c, int64_t game_id, int limit, struct store_chat **out, int *n,
		    struct err *err)
{
	static const char sql[] =
		"SELECT * FROM (SELECT ch.id, ch.seat, COALESCE(u.name, s.name, 'someone'), ch.text, ch.at FROM chat ch"
		" LEFT JOIN users u ON u.id = ch.user_id"
		" LEFT JOIN seats s ON s.game_id = ch.game_id AND s.seat = ch.seat"
		" WHERE ch.game_id = ? ORDER BY ch.id DESC LIMIT ?) AS recent ORDER BY 1";
	struct store__st *st = store__stmt(c, sql, err);
	struct store_chat *list = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	store__bind_int(st, 2, limit);
	while ((r = store__step(st)) == STORE__ROW) {
		list = store__grow(list, count, &alloc, sizeof(*list));
		list[count].id = store__col_int64(st, 0);
		list[count].seat = store__col_null(st, 1) ? -1 : store__col_int(st, 1);
		list[count].name = store__text(st, 2);
		list[count].text = store__text(st, 3);
		list[count].at = store__col_int64(st, 4);
		list[count].email = NULL;
		count++;
	}
	if (r != STORE__DONE) {
		store_chats_free(list, count);
		return store__fail(c, "list chat", err);
	}
	*out = list;
	*n = count;
	return 0;
}

int store_chat_list_all(struct store_conn *c, int64_t game_id, struct store_chat **out, int *n, struct err *err)
{
	static const char sql[] =
		"SELECT ch.id, ch.seat, COALESCE(u.name, s.name, 'someone'), ch.text, ch.at, u.email FROM chat ch"
		" LEFT JOIN users u ON u.id = ch.user_id"
		" LEFT JOIN seats s ON s.game_id = ch.game_id AND s.seat = ch.seat"
		" WHERE ch.game_id = ? ORDER BY ch.id";
	struct store__st *st = store__stmt(c, sql, err);
	struct store_chat *list = NULL;
	int count = 0, alloc = 0, r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_STORE;
	store__bind_int64(st, 1, game_id);
	while ((r = store__step(st)) == STORE__ROW) {
		list = store__grow(list, count, &alloc, sizeof(*list));
		list[count].id = store__col_int64(st, 0);
		list[count].seat = store__col_null(st, 1) ? -1 : store__col_int(st, 1);
		list[count].name = store__text(st, 2);
		list[count].text = store__text(st, 3);
		list[count].at = store__col_int64(st, 4);
		list[count].email = store__col_null(st, 5) ? NULL : store__text(st, 5);
		count++;
	}
	if (r != STORE__DONE) {
		store_chats_free(list, count);
		return store__fail(c, "list chat", err);
	}
	*out = list;
	*n = count;
	return 0;
}
