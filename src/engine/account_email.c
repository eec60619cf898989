/* engine/account_email.c: changing an account's email address, confirmed by a link sent to the new one */
/* SPDX-License-Identifier: MIT */
#include "engine/account_email.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/account.h"
#include "store/email_change.h"
#include "util/banned.h"

/*
 * Why a link, and why only in the account's own browser: an address decides
 * which account a seat invited to it joins (store_user_ensure), so an
 * address taken without proof would capture seats meant for its owner; and a
 * link its owner opens anywhere could still be a trap (someone else asked
 * for the change to the owner's address), so it counts only in a browser
 * signed in as the account that asked.
 */

int account_email_request(struct store *s, int64_t user_id, const char *email, int64_t now, int *queued,
			  struct err *err)
{
	struct store_conn *c = NULL;
	struct store_user me = {0}, other = {0};
	json_t *payload = NULL;
	char *text = NULL;
	int rc;

	*queued = 0;
	if (!account_valid_email(email) || strlen(email) > ACCOUNT_EMAIL_MAX)
		return err_set(err, ERR_INPUT, "That does not look like an email address.");
	if ((rc = store_write_begin(s, &c, err)) < 0) {
		c = NULL;
		goto done;
	}
	if ((rc = store_user_by_id(c, user_id, &me, err)) < 0)
		goto done;
	if (strcasecmp(me.email, email) == 0) {
		rc = store_email_change_drop(c, user_id, err);
		goto done;
	}
	rc = store_user_by_email(c, email, &other, err);
	if (rc == 0) {
		rc = err_set(err, ERR_CONFLICT, "another account already uses %s", email);
		goto done;
	}
	if (rc != ERR_NOTFOUND)
		goto done;
	err_clear(err);
	payload = json_pack("{s:s}", "email", email);
	text = payload ? json_dumps(payload, JSON_COMPACT) : NULL;
	if (!text) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	if ((rc = store_email_change_put(c, user_id, email, now, err)) < 0 ||
	    (rc = store_outbox_add(c, "email_change", 0, -1, user_id, text, now, NULL, err)) < 0)
		goto done;
	*queued = 1;
done:
	if (c && rc < 0)
		store_write_rollback(c);
	else if (c)
		rc = store_write_commit(c, err);
	if (rc < 0)
		*queued = 0;
	json_decref(payload);
	free(text);
	store_user_release(&me);
	store_user_release(&other);
	return rc;
}

int account_email_link_new(struct store *s, int64_t user_id, const char *email, int64_t now,
			   char text[TOKEN_TEXT_MAX], struct err *err)
{
	struct store_conn *c;
	unsigned char hash[32];
	int rc;

	token_new(text, hash);
	if ((rc = store_write_begin(s, &c, err)) < 0)
		goto done;
	if ((rc = store_email_change_link(c, user_id, email, hash, now + ACCOUNT_EMAIL_LINK_MS, err)) < 0)
		store_write_rollback(c);
	else
		rc = store_write_commit(c, err);
done:
	if (rc < 0)
		memset(text, 0, TOKEN_TEXT_MAX);
	return rc;
}

int account_email_confirm(struct store *s, int64_t user_id, const char *text, int64_t now, char email[256],
			  struct err *err)
{
	struct store_conn *c = NULL;
	struct store_email_change ch;
	unsigned char hash[32];
	int rc;

	if (email)
		email[0] = '\0';
	if (!text || token_hash(text, hash) < 0)
		return err_set(err, ERR_UNAUTH, "This link is not valid.");
	if ((rc = store_write_begin(s, &c, err)) < 0) {
		c = NULL;
		goto done;
	}
	rc = store_email_change_by_hash(c, hash, now, &ch, err);
	if (rc == ERR_NOTFOUND)
		rc = err_set(err, ERR_UNAUTH, "This link has expired or a newer one replaced it. Ask again on your account page.");
	if (rc < 0)
		goto done;
	if (ch.user_id != user_id) {
		rc = err_set(err, ERR_UNAUTH, "This link belongs to another account: open it where that account is signed in.");
		goto done;
	}
	if ((rc = store_user_set_email(c, user_id, ch.email, err)) < 0 ||
	    (rc = store_email_change_drop(c, user_id, err)) < 0)
		goto done;
	if (email)
		snprintf(email, 256, "%s", ch.email);
done:
	if (c && rc < 0)
		store_write_rollback(c);
	else if (c)
		rc = store_write_commit(c, err);
	return rc;
}

int account_email_pending(struct store *s, int64_t user_id, char email[256], struct err *err)
{
	struct store_conn *c;
	struct store_email_change ch;
	int rc;

	email[0] = '\0';
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_email_change_get(c, user_id, &ch, err);
	store_read_release(c);
	if (rc == ERR_NOTFOUND) {
		err_clear(err);
		return 0;
	}
	if (rc == 0)
		snprintf(email, 256, "%s", ch.email);
	return rc;
}
