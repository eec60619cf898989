/* engine/outbox.c: the notifications as people see them: listing, one JSON shape, re-sending a dead one */
/* SPDX-License-Identifier: MIT */
#include "engine/outbox.h"

#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/banned.h"

json_t *outbox_row_json(const struct store_outbox_row *r)
{
	json_t *o = json_object(), *payload = r->payload ? json_loads(r->payload, 0, NULL) : NULL;
	char t[32];

	if (!o) {
		json_decref(payload);
		return NULL;
	}
	json_object_set_new(o, "id", json_integer(r->id));
	json_object_set_new(o, "message_id", json_sprintf("msg_%s", r->uid));
	json_object_set_new(o, "event", json_string(r->event));
	json_object_set_new(o, "game", r->game_id ? json_integer(r->game_id) : json_null());
	json_object_set_new(o, "seat", r->seat >= 0 ? json_integer(r->seat) : json_null());
	json_object_set_new(o, "user", r->user_id ? json_integer(r->user_id) : json_null());
	json_object_set_new(o, "state", json_string(r->state));
	json_object_set_new(o, "attempts", json_integer(r->attempts));
	json_object_set_new(o, "digest", json_boolean(r->digest));
	json_object_set_new(o, "last_error", r->last_error ? json_string(r->last_error) : json_null());
	json_object_set_new(o, "payload", payload ? payload : json_object());
	json_object_set_new(o, "created_at", json_integer(r->created_at));
	clock_format_utc(r->created_at, t);
	json_object_set_new(o, "created", json_string(t));
	json_object_set_new(o, "next_at", strcmp(r->state, "pending") == 0 ? json_integer(r->next_at) : json_null());
	json_object_set_new(o, "sent_at", r->sent_at ? json_integer(r->sent_at) : json_null());
	return o;
}

int outbox_state_valid(const char *state)
{
	return !state || !strcmp(state, "pending") || !strcmp(state, "sent") || !strcmp(state, "dead") ||
	       !strcmp(state, "skipped");
}

int outbox_list(struct store *s, const char *state, int limit, json_t **out, struct err *err)
{
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	json_t *list = NULL;
	int n = 0, rc;

	*out = NULL;
	if (!outbox_state_valid(state))
		return err_set(err, ERR_INPUT, "a notification's state is pending, sent, dead or skipped");
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_outbox_list(c, state, 0, limit, &rows, &n, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	if (!(list = json_array())) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	for (int i = 0; i < n; i++)
		if (json_array_append_new(list, outbox_row_json(&rows[i])) < 0) {
			rc = err_set(err, ERR_NOMEM, "out of memory");
			goto done;
		}
	*out = list;
	list = NULL;
done:
	json_decref(list);
	store_outbox_rows_free(rows, n);
	return rc;
}

int outbox_resend(struct store *s, const struct actor *a, int64_t outbox_id, json_t **out, struct err *err)
{
	struct store_outbox_row row = {0}, after = {0};
	struct store_conn *c;
	int64_t now = clock_now_ms();
	json_t *res = NULL;
	int rc, count;

	if (out)
		*out = NULL;
	if ((rc = actor_check(a, err)) < 0)
		return rc;
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_outbox_get(c, outbox_id, &row, err)) < 0)
		goto done;
	if ((rc = store_outbox_resend(c, outbox_id, now, err)) < 0)
		goto done;
	count = actor_move_count(c, row.game_id);
	if ((rc = actor_audit(c, a, "outbox_resend", row.game_id, count, count,
			      json_pack("{s:I,s:s,s:i,s:I,s:i}", "outbox", (json_int_t)outbox_id, "event", row.event,
					"seat", row.seat, "user", (json_int_t)row.user_id, "attempts", row.attempts),
			      now, err)) < 0)
		goto done;
	if (!out)
		goto done;
	if ((rc = store_outbox_get(c, outbox_id, &after, err)) < 0)
		goto done;
	if (!(res = outbox_row_json(&after)) || json_object_set_new(res, "action", json_string("outbox_resend")) < 0)
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
	free(row.payload);
	free(row.last_error);
	free(after.payload);
	free(after.last_error);
	return rc;
}
