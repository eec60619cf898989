/* engine/unsubscribe.h: one-click unsubscribe: signed per-recipient, per-kind links (RFC 8058) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_UNSUBSCRIBE_H
#define TURNPOST_ENGINE_UNSUBSCRIBE_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/*
 * An unsubscribe token names one user and one kind of email and is signed
 * with the server key "unsubscribe" (an HMAC-SHA256 cut to 128 bits):
 * "<user id>-<kind>-<26 characters of base32>", lower case, so it fits both
 * a URL path and the local part of an address (mail systems change case).
 * It turns that kind of email on or off for that user and does nothing
 * else: it is no bearer token, no session and no seat link. The kind is one
 * of notify_events, or "all" (a digest: every kind).
 */
#define UNSUBSCRIBE_TOKEN_MAX 80

/* The token for (user_id, kind) into out. ERR_INPUT for an unknown kind. */
int unsubscribe_token(struct store *s, int64_t user_id, const char *kind, char out[UNSUBSCRIBE_TOKEN_MAX],
		      struct err *err);

/*
 * Check a presented token (any case): 0 with the user and the kind (out of
 * UNSUBSCRIBE_TOKEN_MAX bytes), or ERR_NOTFOUND for anything that is not a
 * token we signed (the signature compared in constant time).
 */
int unsubscribe_check(struct store *s, const char *token, int64_t *user_id, char *kind, struct err *err);

/*
 * Turn the token's kind of email off (on = 0) or back on (on = 1) for its
 * user, through account_update. *out (new, may be NULL) is {"email",
 * "kind", "label", "on"}: the state after the change. ERR_NOTFOUND for a bad
 * token or a user that is gone.
 */
int unsubscribe_set(struct store *s, const char *token, int on, json_t **out, struct err *err);

/* The state now, as unsubscribe_set answers it, without changing anything. */
int unsubscribe_get(struct store *s, const char *token, json_t **out, struct err *err);

#endif
