/* engine/tokens.c: API tokens: make, look up and revoke (the admin action and the holder's own) */
/* SPDX-License-Identifier: MIT */
#include "engine/tokens.h"

#include <stdio.h>
#include <string.h>

#include "store/store.h"
#include "util/clock.h"
#include "util/banned.h"

static void holder_clear(struct tokens_holder *out)
{
	memset(out, 0, sizeof(*out));
	out->seat = -1;
}

int tokens_lookup(struct store *s, const unsigned char hash[32], int64_t now, struct tokens_holder *out,
		  struct err *err)
{
	struct store_conn *c;
	struct store_token t;
	struct store_user u = {0};
	int rc;

	holder_clear(out);
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	if ((rc = store_token_by_hash(c, hash, now, &t, err)) < 0)
		goto done;
	out->token_id = t.id;
	out->kind = t.kind;
	out->user_id = t.user_id;
	out->game_id = t.game_id;
	out->seat = t.seat;
	out->expires_at = t.expires_at;
	if (t.user_id) {
		struct err ue = {0};
		/* an account that is gone leaves the token without one, as before */
		if (store_user_by_id(c, t.user_id, &u, &ue) == 0) {
			out->has_account = 1;
			out->is_admin = t.kind != TOKEN_SEAT && u.is_admin;
			snprintf(out->name, sizeof(out->name), "%s", u.name);
			snprintf(out->email, sizeof(out->email), "%s", u.email);
		}
	}
	rc = 0;
done:
	store_user_release(&u);
	store_read_release(c);
	if (rc < 0)
		holder_clear(out);
	return rc;
}

uint64_t tokens_generation(void)
{
	return store_change_generation();
}

int tokens_api_new(struct store *s, int64_t user_id, const char *label, char text[TOKEN_TEXT_MAX], int64_t *id,
		   struct err *err)
{
	struct store_conn *c;
	unsigned char hash[32];
	int rc;

	text[0] = '\0';
	if (id)
		*id = 0;
	if (!label)
		label = "api";
	if (strlen(label) > TOKENS_LABEL_MAX)
		return err_set(err, ERR_INPUT, "a token label is at most %d characters", TOKENS_LABEL_MAX);
	token_new(text, hash);
	if ((rc = store_write_begin(s, &c, err)) < 0)
		goto done;
	if ((rc = store_token_add(c, hash, TOKEN_API, user_id, 0, -1, label, 0, id, err)) < 0) {
		store_write_rollback(c);
		goto done;
	}
	rc = store_write_commit(c, err);
done:
	if (rc < 0) {
		memset(text, 0, TOKEN_TEXT_MAX);
		if (id)
			*id = 0;
	}
	return rc;
}

int tokens_revoke(struct store *s, const struct actor *a, int64_t token_id, json_t **out, struct err *err)
{
	struct store_conn *c;
	struct store_token_info t;
	int64_t now = clock_now_ms();
	json_t *res = NULL;
	int rc, count;

	if (out)
		*out = NULL;
	if ((rc = actor_check(a, err)) < 0)
		return rc;
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_token_get(c, token_id, &t, err)) < 0)
		goto done;
	if ((rc = store_token_revoke(c, token_id, now, err)) < 0)
		goto done;
	count = actor_move_count(c, t.game_id);
	if ((rc = actor_audit(c, a, "token_revoke", t.game_id, count, count,
			      json_pack("{s:I,s:s,s:I,s:i,s:s}", "token", (json_int_t)token_id, "kind", t.kind, "user",
					(json_int_t)t.user_id, "seat", t.seat, "label", t.label),
			      now, err)) < 0)
		goto done;
	if (out && !(res = json_pack("{s:I,s:s,s:b}", "id", (json_int_t)token_id, "action", "token_revoke", "revoked",
				     1)))
		rc = err_set(err, ERR_NOMEM, "out of memory");
done:
	if (rc < 0)
		store_write_rollback(c);
	else
		rc = store_write_commit(c, err);
	if (rc < 0) {
		json_decref(res);
		res = NULL;
	}
	if (out)
		*out = res;
	return rc;
}

int tokens_revoke_own(struct store *s, int64_t token_id, struct err *err)
{
	struct store_conn *c;
	int rc;

	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_token_revoke(c, token_id, clock_now_ms(), err)) < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}
