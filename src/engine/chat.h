/* engine/chat.h: a game's chat: players write, everyone seated is told, messages are read back */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_CHAT_H
#define TURNPOST_ENGINE_CHAT_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

#define CHAT_TEXT_MAX 1000

/*
 * user_id writes text in game_id's chat as the player of seat. Trailing
 * blanks are dropped; what is left must be 1 to CHAT_TEXT_MAX bytes
 * (ERR_INPUT). The message and a "chat" notification for every other
 * seated player are written in one transaction. No audit row.
 * ERR_NOTFOUND: no such game; ERR_FORBIDDEN: user_id does not hold seat.
 */
int chat_post(struct store *s, int64_t game_id, int seat, int64_t user_id, const char *text, int64_t now,
	      struct err *err);

/*
 * The last limit messages of a game, oldest first, as a new array in *out
 * (NULL on failure): [{"id","seat","name","text","at","time"}] (time: UTC).
 */
int chat_list(struct store *s, int64_t game_id, int limit, json_t **out, struct err *err);

#endif
