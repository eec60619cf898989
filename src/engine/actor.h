/* engine/actor.h: who performs an action, and the one audit row an action writes */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_ACTOR_H
#define TURNPOST_ENGINE_ACTOR_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

#define ACTOR_REASON_MAX 500

enum actor_flags {
	ACTOR_REASON_OPTIONAL = 1 << 0 /* the channel lets the reason be left out (the older API endpoints, the CLI) */
};

/* Who acts, through what, and why: every audited action writes this into its audit row. */
struct actor {
	int64_t user_id;     /* the acting account; 0 for the command line */
	const char *channel; /* "web", "api", "cli" (NULL: "cli") */
	const char *client;  /* client address or NULL */
	const char *reason;  /* 1 to ACTOR_REASON_MAX characters, no control characters; see flags */
	unsigned flags;      /* enum actor_flags */
};

/*
 * Check a reason: 1 to ACTOR_REASON_MAX characters without control
 * characters (trailing blanks do not count); when !required, none (NULL or
 * blank) is fine too. 0 or ERR_INPUT with a message.
 */
int actor_reason_check(const char *reason, int required, struct err *err);

/* actor_reason_check of a->reason, required unless a's flags say otherwise. */
int actor_check(const struct actor *a, struct err *err);

/*
 * Write the audit row of an action inside the caller's write transaction:
 * actor_user_id, channel, action, game_id (0: none), the reason (NULL when
 * blank), before/after move counts (-1: none) and detail, a JSON object
 * stored compact with sorted keys, to which "client" is added when a has
 * one. detail is stolen (NULL: {}).
 */
int actor_audit(struct store_conn *c, const struct actor *a, const char *action, int64_t game_id, int before,
		int after, json_t *detail, int64_t now, struct err *err);

/* The move count of a game for an audit row: -1 when game_id is 0 or there is no such game. */
int actor_move_count(struct store_conn *c, int64_t game_id);

#endif
