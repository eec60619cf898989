/* engine/actor.c: who performs an action, and the one audit row an action writes */
/* SPDX-License-Identifier: MIT */
#include "engine/actor.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/* The length of reason without trailing blanks. */
static size_t reason_len(const char *reason)
{
	size_t n = reason ? strlen(reason) : 0;

	while (n && (reason[n - 1] == ' ' || reason[n - 1] == '\n' || reason[n - 1] == '\r'))
		n--;
	return n;
}

int actor_reason_check(const char *reason, int required, struct err *err)
{
	size_t n = reason_len(reason);

	if (!n && !required)
		return 0;
	if (!n)
		return err_set(err, ERR_INPUT, "say why: every admin action needs a reason, which goes into the audit log");
	if (n > ACTOR_REASON_MAX)
		return err_set(err, ERR_INPUT, "a reason is at most %d characters", ACTOR_REASON_MAX);
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)reason[i] < 32 && reason[i] != '\n' && reason[i] != '\r' && reason[i] != '\t') ||
		    reason[i] == 127)
			return err_set(err, ERR_INPUT, "a reason may not contain control characters");
	return 0;
}

int actor_check(const struct actor *a, struct err *err)
{
	return actor_reason_check(a->reason, !(a->flags & ACTOR_REASON_OPTIONAL), err);
}

int actor_audit(struct store_conn *c, const struct actor *a, const char *action, int64_t game_id, int before,
		int after, json_t *detail, int64_t now, struct err *err)
{
	char *text = NULL;
	int rc;

	if (!detail)
		detail = json_object();
	if (!detail)
		return err_set(err, ERR_NOMEM, "out of memory");
	if (a->client && !json_object_get(detail, "client"))
		json_object_set_new(detail, "client", json_string(a->client));
	text = json_dumps(detail, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(detail);
	if (!text)
		return err_set(err, ERR_NOMEM, "out of memory");
	rc = store_audit_add(c, a->user_id, a->channel ? a->channel : "cli", action, game_id,
			     reason_len(a->reason) ? a->reason : NULL, before, after, text, now, err);
	free(text);
	return rc;
}

int actor_move_count(struct store_conn *c, int64_t game_id)
{
	struct store_game g = {0};
	struct err e = {0};
	int n = -1;

	if (game_id && store_game_get(c, game_id, &g, &e) == 0)
		n = g.move_count;
	store_game_release(&g);
	return n;
}
