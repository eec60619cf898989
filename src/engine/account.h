/* engine/account.h: accounts: who they are (name, email), their notification preferences, new accounts */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_ACCOUNT_H
#define TURNPOST_ENGINE_ACCOUNT_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"
#include "util/token.h"

#define ACCOUNT_NAME_MAX 80
#define ACCOUNT_EMAIL_MAX 254

/*
 * 0 when s is a name: 1 to ACCOUNT_NAME_MAX bytes of UTF-8 without control,
 * invisible or text-direction characters (docs/security.md); else ERR_INPUT
 * with a message that says what is wrong. Every path that sets a name checks it.
 */
int account_check_name(const char *s, struct err *err);
/* 1 when account_check_name accepts s. */
int account_valid_name(const char *s);
/* 1 when s looks like one email address (one @, something on both sides, no blanks or <>",\). */
int account_valid_email(const char *s);

/*
 * The account as a new object: {"id","name","email","admin","prefs"}
 * (prefs as notify_prefs_get shows them). ERR_NOTFOUND when there is none;
 * *out NULL on failure.
 */
int account_get(struct store *s, int64_t user_id, json_t **out, struct err *err);

/* The id of the account with this email (case does not matter); ERR_NOTFOUND when none (*user_id 0). */
int account_find_email(struct store *s, const char *email, int64_t *user_id, struct err *err);

/*
 * Change an account, all or nothing, in one transaction: name (NULL: keep;
 * else account_valid_name), email (NULL: keep; else account_valid_email;
 * ERR_CONFLICT when another account has it; the seats' shown email follows)
 * and a preferences change (NULL: none; merged into the stored ones with
 * notify_prefs_merge, so settings the change does not name stay). ERR_INPUT
 * names the bad field. No audit row. *prefs_out (may be NULL) gets the
 * preferences after the change (new; NULL on failure).
 */
int account_update(struct store *s, int64_t user_id, const char *name, const char *email, const json_t *prefs,
		   json_t **prefs_out, struct err *err);

/*
 * A new account (email valid and free, name valid; is_admin) with its first
 * API token, labelled label, in one transaction: *user_id and text (shown
 * once; "" on failure). ERR_CONFLICT when the email has an account.
 */
int account_add(struct store *s, const char *email, const char *name, int is_admin, const char *label,
		int64_t *user_id, char text[TOKEN_TEXT_MAX], struct err *err);

#endif
