/* mail/inbound.h: acting on an inbound reply: find the seat, check the sender, play the lines, answer by email */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_MAIL_INBOUND_H
#define TURNPOST_MAIL_INBOUND_H

#include <jansson.h>
#include <stdint.h>

#include "mail/mail.h"
#include "store/store.h"

struct mail_inbound_config {
	int any_sender; /* accept replies from any address (default: only from the seat's own address) */
};

/*
 * Handle one parsed mail sent to a reply address play+TOKEN@...:
 * - the same Message-ID handled before: its first outcome with
 *   "duplicate": true, and nothing else happens;
 * - an automatic message (out-of-office, bounce): "ignored";
 * - no reply address or an unknown token: "unknown_address" (nobody is answered);
 * - a token expired or revoked, or a seat that changed hands: "expired";
 *   a sender that is not the seat's address: "wrong_sender";
 * - else the move lines (mail_reply_lines) go to submit_steps as one batch,
 *   via "email", idempotent on the Message-ID: "accepted" or "refused".
 * Each outcome but the first three is recorded by Message-ID together with
 * an answer in the outbox (event "email_accepted" or "email_refused") to the
 * seat's player, in one transaction; the moves themselves commit in
 * submit_steps's transaction before that.
 *
 * *answer (new) is {"outcome", "detail", "game", "seat", "applied",
 * "failed_line", "duplicate"}. Returns 0 for every outcome above; a negative
 * code only when the store failed (the sender should deliver again later).
 */
int mail_inbound_handle(struct store *s, const struct mail_inbound_config *cfg, const struct mail_msg *m,
			int64_t now, json_t **answer, struct err *err);

/*
 * A reply token for (game, seat, user), valid for days, stored as its hash
 * in its own transaction (expired ones are pruned then); the token text
 * into token.
 */
int mail_inbound_token_mint(struct store *s, int64_t game_id, int seat, int64_t user_id, int days, int64_t now,
			    char token[MAIL_TOKEN_LEN + 1], struct err *err);

#endif
