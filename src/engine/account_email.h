/* engine/account_email.h: changing an account's email address, confirmed by a link sent to the new one */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_ACCOUNT_EMAIL_H
#define TURNPOST_ENGINE_ACCOUNT_EMAIL_H

#include <stdint.h>

#include "store/store.h"
#include "util/err.h"
#include "util/token.h"

#define ACCOUNT_EMAIL_LINK_MS (24LL * 3600 * 1000) /* a confirmation link works for a day */

/*
 * user_id asks for its address to become email (docs/security.md, "An
 * address is the account's once confirmed"): the account keeps its address;
 * the change waits, and an "email_change" notification to the new address
 * is queued (the notifier makes its link), in one transaction. A change
 * asked for before is replaced. ERR_INPUT when email is not an address;
 * ERR_CONFLICT when another account has it. Asking for the address the
 * account has withdraws a waiting change (*queued 0); else *queued is 1.
 */
int account_email_request(struct store *s, int64_t user_id, const char *email, int64_t now, int *queued,
			  struct err *err);

/*
 * The link's token for user_id's waiting change to email (the notifier,
 * when the email goes out): valid ACCOUNT_EMAIL_LINK_MS; a link made before
 * for it stops working. text receives it ("" on failure). ERR_NOTFOUND when
 * the account waits for no change to that address.
 */
int account_email_link_new(struct store *s, int64_t user_id, const char *email, int64_t now,
			   char text[TOKEN_TEXT_MAX], struct err *err);

/*
 * Confirm with the link's token, signed in as user_id: the address
 * becomes the account's (and its seats' shown address), and the change is
 * done, in one transaction. *email (may be NULL) gets the new address.
 * ERR_UNAUTH when text is no live link, or a link of another account;
 * ERR_CONFLICT when another account took the address meanwhile.
 */
int account_email_confirm(struct store *s, int64_t user_id, const char *text, int64_t now, char email[256],
			  struct err *err);

/* The address user_id's waiting change asks for into email ("" when none). */
int account_email_pending(struct store *s, int64_t user_id, char email[256], struct err *err);

#endif
