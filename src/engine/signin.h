/* engine/signin.h: signing in: sign-in links (asked for, made, used once) and the web sessions' tokens */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_SIGNIN_H
#define TURNPOST_ENGINE_SIGNIN_H

#include <stdint.h>

#include "engine/tokens.h"
#include "store/store.h"
#include "util/err.h"
#include "util/token.h"

#define SIGNIN_LINK_MS (3600LL * 1000)  /* a sign-in link works once, for an hour */
#define SIGNIN_SESSION_DAYS 30          /* a web session lasts this long */

/*
 * Someone asks for a sign-in link for email: when an account has it, a
 * "signin" notification is queued for it (the notifier makes the link);
 * when none does, nothing happens and the answer is the same 0, so nobody
 * learns who plays here. ERR_INPUT when email is not an address
 * (account_valid_email); else only the store's errors.
 */
int signin_link_request(struct store *s, const char *email, int64_t now, struct err *err);

/*
 * Make a sign-in link token for user_id, valid SIGNIN_LINK_MS from now,
 * with label (e.g. "sign-in link", "cli sign-in link"). text receives the
 * token ("" on failure).
 */
int signin_link_new(struct store *s, int64_t user_id, const char *label, int64_t now, char text[TOKEN_TEXT_MAX],
		    struct err *err);

/*
 * Use a sign-in link: the token is spent (revoked) in the same transaction
 * that finds it, so a link works once. *user_id gets its account (0 on
 * failure). ERR_UNAUTH when text is not a live sign-in link.
 */
int signin_link_use(struct store *s, const char *text, int64_t now, int64_t *user_id, struct err *err);

/* A new web session token for user_id, valid SIGNIN_SESSION_DAYS; text receives it ("" on failure). */
int signin_session_new(struct store *s, int64_t user_id, int64_t now, char text[TOKEN_TEXT_MAX], struct err *err);

/*
 * A new session for a seat link (docs/security.md): a session token bound
 * to seat->game_id and seat->seat, for seat->user_id, valid
 * SIGNIN_SESSION_DAYS or until the seat token expires, whichever is first
 * (*expires gets when). seat is a live seat token (signin_seat_link) with a
 * player, else ERR_INPUT. text receives the token ("" on failure).
 */
int signin_seat_session_new(struct store *s, const struct tokens_holder *seat, int64_t now,
			    char text[TOKEN_TEXT_MAX], int64_t *expires, struct err *err);

/*
 * The account of a session cookie's token: ERR_UNAUTH unless text is a live
 * session token with an account (then *out is zeroed, seat -1). A seat
 * link's session has its game_id and seat set; its is_admin is always 0.
 */
int signin_session_find(struct store *s, const char *text, int64_t now, struct tokens_holder *out,
			struct err *err);

/*
 * The seat of a seat link (/s/TOKEN): ERR_UNAUTH unless text is a live seat
 * token (then *out is zeroed, seat -1). A seat without a player gives
 * user_id 0: the caller decides.
 */
int signin_seat_link(struct store *s, const char *text, int64_t now, struct tokens_holder *out, struct err *err);

#endif
