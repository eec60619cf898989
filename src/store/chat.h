/* store/chat.h: the chat of games (store/chat.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_CHAT_H
#define TURNPOST_STORE_CHAT_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

struct store_chat {
	int64_t id;
	int seat;          /* -1: not a player */
	char *name;        /* the user's name at reading time */
	char *text;
	int64_t at;
	char *email;       /* the writer's account's address (NULL: none); store_chat_list_all only */
};
void store_chats_free(struct store_chat *list, int n);
int store_chat_add(struct store_conn *c, int64_t game_id, int seat, int64_t user_id, const char *text, int64_t at,
		   struct err *err);
/* The last `limit` messages of a game, oldest first; *out new. */
int store_chat_list(struct store_conn *c, int64_t game_id, int limit, struct store_chat **out, int *n,
		    struct err *err);

/* Every message of a game, oldest first, with its writer's email (export); *out new. */
int store_chat_list_all(struct store_conn *c, int64_t game_id, struct store_chat **out, int *n, struct err *err);
#endif
