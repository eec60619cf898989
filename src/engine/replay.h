/* engine/replay.h: a game's whole log: verify it by replaying, export it, import a replay file */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_REPLAY_H
#define TURNPOST_ENGINE_REPLAY_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/*
 * Replay the game from its seed and log and compare every stored snapshot.
 * 0 when all match; ERR_CONFLICT with the first difference in err otherwise
 * (*first_bad = that step, 0 for the set-up).
 */
int replay_verify(struct store *s, int64_t id, int *first_bad, struct err *err);

/*
 * The replay file {"format":"turnpost-replay","version":1,"game","options",
 * "seed","seats","moves","status","players_see_emails","clock","chat"}: the
 * log, and what the game keeps besides (its time control with every seat's
 * clock, null without one; its chat). New.
 */
int replay_export(struct store *s, int64_t id, json_t **out, struct err *err);
/*
 * Create a game from a replay file, replaying every step, in one transaction:
 * all or nothing. The clocks and the chat are put back as the file has them.
 * No step queues a notification: with notify, each seat with an email gets
 * one "invite" (its new seat link; it says whose turn it is); without,
 * nobody is told.
 */
int replay_import(struct store *s, const json_t *file, int64_t created_by, int notify, int64_t *id,
		  struct err *err);

#endif
