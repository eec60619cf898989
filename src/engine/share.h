/* engine/share.h: a finished game shown to anyone by a link, when all its players allow it */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_SHARE_H
#define TURNPOST_ENGINE_SHARE_H

#include <stdint.h>

#include "engine/actor.h"
#include "store/store.h"
#include "util/err.h"

/*
 * Each player decides for their seat whether a game may be shown to anyone
 * who has its link (its replay, as a spectator sees it, without signing
 * in); the link works once the game is over and every seat with a player
 * allows it. A decision is an audit row ("share", detail {"seat","allow",
 * "user"}: the seat's account that decided), so a new player in the seat
 * decides again.
 */

struct share_state {
	unsigned players;  /* bit i: seat i has a player */
	unsigned allowed;  /* bit i: seat i's player allows it */
	int over;          /* the game is over (finished or aborted) */
	int shared;        /* over, and every seat with a player allows it */
};

/*
 * Seat's player (user_id, holding the seat) allows (allow 1) or no longer
 * allows (0) showing game id to anyone with its link. ERR_FORBIDDEN when
 * user_id does not hold seat; ERR_NOTFOUND for no such game.
 */
int share_set(struct store *s, int64_t id, int seat, int64_t user_id, int allow, const struct actor *a,
	      int64_t now, struct err *err);
/* Who allows it, and whether the link works now. ERR_NOTFOUND for no such game. */
int share_state(struct store *s, int64_t id, struct share_state *out, struct err *err);

#endif
