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

/* The next code point of UTF-8 text at *p (advanced), or -1 when it is not well-formed UTF-8. */
static long utf8_next(const unsigned char **p)
{
	const unsigned char *q = *p;
	long cp;
	int n;

	if (q[0] < 0x80) {
		*p = q + 1;
		return q[0];
	}
	if (q[0] >= 0xc2 && q[0] <= 0xdf)
		n = 1, cp = q[0] & 0x1f;
	else if (q[0] >= 0xe0 && q[0] <= 0xef)
		n = 2, cp = q[0] & 0x0f;
	else if (q[0] >= 0xf0 && q[0] <= 0xf4)
		n = 3, cp = q[0] & 0x07;
	else
		return -1;
	for (int i = 1; i <= n; i++) {
		if ((q[i] & 0xc0) != 0x80)
			return -1;
		cp = (cp << 6) | (q[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
	if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return -1;
	*p = q + n + 1;
	return cp;
}

/*
 * Characters a name may not hold because they show nothing, or reorder
 * what is shown, so that one name can pass for another: controls (Cc), the
 * format characters (Cf: bidirectional embeddings, overrides and isolates,
 * zero-width spaces and joiners, marks, the BOM, tags), line and paragraph
 * separators, and the fillers that render as blank.
 */
static int invisible(long cp)
{
	static const long ranges[][2] = {
		{ 0x0000, 0x001f }, { 0x007f, 0x009f }, { 0x00ad, 0x00ad }, { 0x034f, 0x034f },
		{ 0x0600, 0x0605 }, { 0x061c, 0x061c }, { 0x06dd, 0x06dd }, { 0x070f, 0x070f },
		{ 0x0890, 0x0891 }, { 0x08e2, 0x08e2 }, { 0x115f, 0x1160 }, { 0x17b4, 0x17b5 },
		{ 0x180e, 0x180e }, { 0x200b, 0x200f }, { 0x2028, 0x202e }, { 0x2060, 0x206f },
		{ 0x3164, 0x3164 }, { 0xfeff, 0xfeff }, { 0xffa0, 0xffa0 }, { 0xfff9, 0xfffb },
		{ 0x110bd, 0x110bd }, { 0x110cd, 0x110cd }, { 0x13430, 0x1343f }, { 0x1bca0, 0x1bca3 },
		{ 0x1d173, 0x1d17a }, { 0xe0000, 0xe0fff },
	};

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (cp >= ranges[i][0] && cp <= ranges[i][1])
			return 1;
	return 0;
}

int account_check_name(const char *s, struct err *err)
{
	size_t n = s ? strlen(s) : 0;
	const unsigned char *p;

	if (n < 1 || n > ACCOUNT_NAME_MAX)
		return err_set(err, ERR_INPUT, "A name must be 1 to %d characters.", ACCOUNT_NAME_MAX);
	for (p = (const unsigned char *)s; *p;) {
		long cp = utf8_next(&p);
		if (cp < 0)
			return err_set(err, ERR_INPUT, "A name must be UTF-8 text.");
		if (invisible(cp))
			return err_set(err, ERR_INPUT,
				       "A name cannot contain control, invisible or text-direction characters "
				       "(it has U+%04lX), as they let one name look like another.",
				       cp);
	}
	return 0;
}

int account_valid_name(const char *s)
{
	return account_check_name(s, NULL) == 0;
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
	if (name && (rc = account_check_name(name, err)) < 0)
		return rc;
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
	if ((rc = account_check_name(name, err)) < 0)
		return rc;
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
