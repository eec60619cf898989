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

/* The replay file {"format":"turnpost-replay","version":1,"game","options","seed","seats","moves"}. New. */
int replay_export(struct store *s, int64_t id, json_t **out, struct err *err);
/*
 * Create a game from a replay file, replaying every step, in one transaction:
 * all or nothing. No step queues a notification: with notify, each seat that
 * must act once the last step is in gets one "your_turn" (nothing for a
 * finished game); without, nobody is told.
 */
int replay_import(struct store *s, const json_t *file, int64_t created_by, int notify, int64_t *id,
		  struct err *err);

#endif
