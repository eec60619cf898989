/* engine/feeds.h: a user's private feeds: the token that opens them, and the games they list */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_FEEDS_H
#define TURNPOST_ENGINE_FEEDS_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"
#include "util/token.h"

/*
 * A feed token opens one account's feeds (/feeds/TOKEN/games.atom and
 * /feeds/TOKEN/deadlines.ics) and nothing else: it is kept, as its hash
 * only, in a table of its own that no other check reads, and no feed
 * accepts any other token. One per account: a new one replaces the old.
 */

/* A new feed token for user_id into tok (shown once), replacing the one before. */
int feeds_token_new(struct store *s, int64_t user_id, int64_t now, char tok[TOKEN_TEXT_MAX], struct err *err);
/* Revoke user_id's feed token: its feeds answer 404 from now on (0 also when there was none). */
int feeds_token_revoke(struct store *s, int64_t user_id, struct err *err);
/* When user_id's feed token was made into *created_at; 0 when the account has none. */
int feeds_token_state(struct store *s, int64_t user_id, int64_t *created_at, struct err *err);
/* The account a presented feed token opens; ERR_NOTFOUND for anything else (revoked, replaced, another kind). */
int feeds_token_user(struct store *s, const char *tok, int64_t *user_id, struct err *err);

/*
 * What the feeds list for user_id: the user's games (at most 200), newest
 * first, as a new array of
 * {"id","title","status","move_count","updated_at","players" ("Ann, Bob"),
 *  "yours" (the game waits for one of the user's seats), "waiting_for"
 *  ("you and Bob"; null when over), "result" ("Ann 12, Bob 9"; null while
 *  running or without scores), "deadlines" ([{"seat","at","since"}]: the user's
 *  seats whose clock runs now, with when their move is due and when that
 *  turn began)}.
 */
int feeds_games(struct store *s, int64_t user_id, json_t **out, struct err *err);

#endif
