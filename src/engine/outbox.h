/* engine/outbox.h: the notifications as people see them: listing, one JSON shape, re-sending a dead one */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_OUTBOX_H
#define TURNPOST_ENGINE_OUTBOX_H

#include <jansson.h>
#include <stdint.h>

#include "engine/actor.h"
#include "store/store.h"
#include "util/err.h"

/*
 * An outbox row as the API, the console and the command line show it, new:
 * {"id","message_id","event","game","seat","user","state","attempts","digest",
 *  "last_error","payload","created_at","created","next_at","sent_at"};
 * game, seat, user, last_error and sent_at are null when none, next_at is
 * null unless the row is pending, created is the UTC time of created_at.
 * NULL only when out of memory.
 */
json_t *outbox_row_json(const struct store_outbox_row *r);

/* Is state one a row can be in ("pending", "sent", "dead", "skipped")? NULL counts as "all". */
int outbox_state_valid(const char *state);

/*
 * The newest rows first, in state (NULL: all; else ERR_INPUT unless
 * outbox_state_valid), at most limit (0: 100): a new array of
 * outbox_row_json objects in *out (NULL on failure).
 */
int outbox_list(struct store *s, const char *state, int limit, json_t **out, struct err *err);

/*
 * The admin action: a dead notification is queued again (same id, its
 * attempts reset). One transaction with the audit row "outbox_resend":
 * game = the row's game (0: none), before = after = its move count (-1:
 * none), detail {"outbox","event","seat","user","attempts"[,"client"]}
 * (attempts: those before the re-send). The reason is checked by
 * actor_check first. *out (may be NULL) gets the row as outbox_row_json
 * shows it after the re-send, with "action":"outbox_resend" (new; NULL on
 * failure). ERR_NOTFOUND when there is no such row, ERR_CONFLICT when it is
 * not dead.
 */
int outbox_resend(struct store *s, const struct actor *a, int64_t outbox_id, json_t **out, struct err *err);

#endif
