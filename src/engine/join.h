/* engine/join.h: taking an open seat of a running game */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_JOIN_H
#define TURNPOST_ENGINE_JOIN_H

#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/*
 * user_id takes the lowest open seat of game_id (a seat without a player
 * that the bot does not play), under the account's name and email, in one
 * transaction. *seat gets it (-1 on failure). No audit row.
 * ERR_NOTFOUND: no such game or account; ERR_CONFLICT: the user already
 * plays in this game, or no seat is open (or the game is over).
 */
int join_game(struct store *s, int64_t game_id, int64_t user_id, int *seat, struct err *err);

#endif
