/* engine/account.c: accounts: who they are (name, email), their notification preferences, new accounts */
/* SPDX-License-Identifier: MIT */
#include "engine/account.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "notify/notify.h"
#include "util/banned.h"

int account_valid_email(const char *s)
{
	const char *at = s ? strchr(s, '@') : NULL;
	size_t n = s ? strlen(s) : 0;

	if (!at || at == s || !at[1] || n > ACCOUNT_EMAIL_MAX || strchr(at + 1, '@'))
		return 0;
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p <= 32 || *p == '<' || *p == '>' || *p == '"' || *p == ',' || *p == '\\' ||
		    (unsigned char)*p == 127)
			return 0;
	return 1;
}

int account_valid_name(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n < 1 || n > ACCOUNT_NAME_MAX)
		return 0;
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 32 || (unsigned char)*p == 127)
			return 0;
	return 1;
}

int account_get(struct store *s, int64_t user_id, json_t **out, struct err *err)
{
	struct store_user u = {0};
	struct store_conn *c;
	int rc;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_user_by_id(c, user_id, &u, err);
	store_read_release(c);
	if (rc == 0 && !(*out = json_pack("{s:I,s:s,s:s,s:b,s:o}", "id", (json_int_t)u.id, "name", u.name, "email",
					  u.email, "admin", u.is_admin, "prefs", notify_prefs_get(u.prefs))))
		rc = err_set(err, ERR_NOMEM, "out of memory");
	store_user_release(&u);
	return rc;
}

int account_find_email(struct store *s, const char *email, int64_t *user_id, struct err *err)
{
	struct store_user u = {0};
	struct store_conn *c;
	int rc;

	*user_id = 0;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_user_by_email(c, email ? email : "", &u, err);
	store_read_release(c);
	if (rc == 0)
		*user_id = u.id;
	store_user_release(&u);
	return rc;
}

int account_update(struct store *s, int64_t user_id, const char *name, const char *email, const json_t *prefs,
		   json_t **prefs_out, struct err *err)
{
	struct store_user u = {0};
	struct store_conn *c = NULL;
	char *merged = NULL;
	int rc;

	if (prefs_out)
		*prefs_out = NULL;
	if (name && !account_valid_name(name))
		return err_set(err, ERR_INPUT, "Your name must be 1 to %d characters.", ACCOUNT_NAME_MAX);
	if (email && !account_valid_email(email))
		return err_set(err, ERR_INPUT, "That does not look like an email address.");
	/* read, merge and write under the writer, so two changes at once both count */
	if ((rc = store_write_begin(s, &c, err)) < 0) {
		c = NULL;
		goto done;
	}
	if ((rc = store_user_by_id(c, user_id, &u, err)) < 0)
		goto done;
	if (prefs && (rc = notify_prefs_merge(u.prefs, prefs, &merged, err)) < 0)
		goto done;
	if ((name || merged) && (rc = store_user_update(c, user_id, name ? name : u.name, merged ? merged : u.prefs,
							 err)) < 0)
		goto done;
	if (email && strcasecmp(email, u.email) != 0 && (rc = store_user_set_email(c, user_id, email, err)) < 0)
		goto done;
	if (prefs_out && !(*prefs_out = notify_prefs_get(merged ? merged : u.prefs)))
		rc = err_set(err, ERR_NOMEM, "out of memory");
done:
	if (c && rc < 0)
		store_write_rollback(c);
	else if (c)
		rc = store_write_commit(c, err);
	if (rc < 0 && prefs_out) {
		json_decref(*prefs_out);
		*prefs_out = NULL;
	}
	free(merged);
	store_user_release(&u);
	return rc;
}

int account_add(struct store *s, const char *email, const char *name, int is_admin, const char *label,
		int64_t *user_id, char text[TOKEN_TEXT_MAX], struct err *err)
{
	struct store_conn *c;
	unsigned char hash[32];
	int rc;

	*user_id = 0;
	text[0] = '\0';
	if (!account_valid_email(email))
		return err_set(err, ERR_INPUT, "\"%.80s\" is not an email address", email ? email : "");
	if (!account_valid_name(name))
		return err_set(err, ERR_INPUT, "a name is 1 to %d characters without control characters",
			       ACCOUNT_NAME_MAX);
	token_new(text, hash);
	if ((rc = store_write_begin(s, &c, err)) < 0)
		goto done;
	rc = store_user_add(c, email, name, is_admin, user_id, err);
	if (rc == 0)
		rc = store_token_add(c, hash, TOKEN_API, *user_id, 0, -1, label ? label : "api", 0, NULL, err);
	if (rc < 0)
		store_write_rollback(c);
	else
		rc = store_write_commit(c, err);
done:
	if (rc < 0) {
		*user_id = 0;
		memset(text, 0, TOKEN_TEXT_MAX);
	}
	return rc;
}
