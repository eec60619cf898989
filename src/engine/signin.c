/* engine/signin.c: signing in: sign-in links (asked for, made, used once) and the web sessions' tokens */
/* SPDX-License-Identifier: MIT */
#include "engine/signin.h"

#include <string.h>

#include "engine/account.h"
#include "util/banned.h"

int signin_link_request(struct store *s, const char *email, int64_t now, struct err *err)
{
	struct store_conn *c;
	struct store_user u = {0};
	int rc;

	if (!account_valid_email(email))
		return err_set(err, ERR_INPUT, "That does not look like an email address.");
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	rc = store_user_by_email(c, email, &u, err);
	if (rc == ERR_NOTFOUND) {
		/* the same answer as for an account: nothing to send */
		store_write_rollback(c);
		err_clear(err);
		rc = 0;
		goto done;
	}
	if (rc == 0)
		rc = store_outbox_add(c, "signin", 0, -1, u.id, NULL, now, NULL, err);
	if (rc < 0)
		store_write_rollback(c);
	else
		rc = store_write_commit(c, err);
done:
	store_user_release(&u);
	return rc;
}

int signin_link_new(struct store *s, int64_t user_id, const char *label, int64_t now, char text[TOKEN_TEXT_MAX],
		    struct err *err)
{
	struct store_conn *c;
	unsigned char hash[32];
	int rc;

	token_new(text, hash);
	if ((rc = store_write_begin(s, &c, err)) < 0)
		goto done;
	if ((rc = store_token_add(c, hash, TOKEN_SIGNIN, user_id, 0, -1, label, now + SIGNIN_LINK_MS, NULL, err)) < 0)
		store_write_rollback(c);
	else
		rc = store_write_commit(c, err);
done:
	if (rc < 0)
		memset(text, 0, TOKEN_TEXT_MAX);
	return rc;
}

int signin_link_use(struct store *s, const char *text, int64_t now, int64_t *user_id, struct err *err)
{
	unsigned char hash[32];
	struct store_conn *c;
	struct store_token t;
	int rc;

	*user_id = 0;
	if (token_hash(text, hash) < 0)
		return err_set(err, ERR_UNAUTH, "this sign-in link is not valid");
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	rc = store_token_by_hash(c, hash, now, &t, err);
	if (rc == 0 && (t.kind != TOKEN_SIGNIN || !t.user_id))
		rc = err_set(err, ERR_UNAUTH, "this is not a sign-in link");
	/* single use: spent before any session starts */
	if (rc == 0)
		rc = store_token_revoke(c, t.id, now, err);
	if (rc < 0) {
		store_write_rollback(c);
		return rc;
	}
	if ((rc = store_write_commit(c, err)) == 0)
		*user_id = t.user_id;
	return rc;
}

int signin_session_new(struct store *s, int64_t user_id, int64_t now, char text[TOKEN_TEXT_MAX], struct err *err)
{
	struct store_conn *c;
	unsigned char hash[32];
	int rc;

	token_new(text, hash);
	if ((rc = store_write_begin(s, &c, err)) < 0)
		goto done;
	if ((rc = store_token_add(c, hash, TOKEN_SESSION, user_id, 0, -1, "web",
				  now + (int64_t)SIGNIN_SESSION_DAYS * 86400 * 1000, NULL, err)) < 0)
		store_write_rollback(c);
	else
		rc = store_write_commit(c, err);
done:
	if (rc < 0)
		memset(text, 0, TOKEN_TEXT_MAX);
	return rc;
}

int signin_seat_session_new(struct store *s, const struct tokens_holder *seat, int64_t now,
			    char text[TOKEN_TEXT_MAX], int64_t *expires, struct err *err)
{
	struct store_conn *c;
	unsigned char hash[32];
	int rc;

	memset(text, 0, TOKEN_TEXT_MAX);
	*expires = now + (int64_t)SIGNIN_SESSION_DAYS * 86400 * 1000;
	if (seat->kind != TOKEN_SEAT || !seat->user_id || !seat->game_id || seat->seat < 0)
		return err_set(err, ERR_INPUT, "a seat link's session needs a seat with a player");
	if (seat->expires_at && seat->expires_at < *expires)
		*expires = seat->expires_at;
	token_new(text, hash);
	if ((rc = store_write_begin(s, &c, err)) < 0)
		goto done;
	if ((rc = store_token_add(c, hash, TOKEN_SESSION, seat->user_id, seat->game_id, seat->seat, "web seat link",
				  *expires, NULL, err)) < 0)
		store_write_rollback(c);
	else
		rc = store_write_commit(c, err);
done:
	if (rc < 0)
		memset(text, 0, TOKEN_TEXT_MAX);
	return rc;
}

/* The live token of text when it is of kind (and, when need_user, has an account). */
static int find_kind(struct store *s, const char *text, int64_t now, enum store_token_kind kind, int need_user,
		     struct tokens_holder *out, struct err *err)
{
	unsigned char hash[32];
	int rc;

	memset(out, 0, sizeof(*out));
	out->seat = -1;
	if (!text || token_hash(text, hash) < 0)
		return err_set(err, ERR_UNAUTH, "that is not a turnpost token");
	if ((rc = tokens_lookup(s, hash, now, out, err)) < 0)
		return rc;
	if (out->kind != kind || (need_user && !out->has_account)) {
		memset(out, 0, sizeof(*out));
		out->seat = -1;
		return err_set(err, ERR_UNAUTH, "that token does not work here");
	}
	return 0;
}

int signin_session_find(struct store *s, const char *text, int64_t now, struct tokens_holder *out,
			struct err *err)
{
	int rc = find_kind(s, text, now, TOKEN_SESSION, 1, out, err);

	/* a seat link's session never carries its account's admin rights */
	if (rc == 0 && out->game_id)
		out->is_admin = 0;
	return rc;
}

int signin_seat_link(struct store *s, const char *text, int64_t now, struct tokens_holder *out, struct err *err)
{
	return find_kind(s, text, now, TOKEN_SEAT, 0, out, err);
}
