/* notify/prefs.c: per-user notification preferences: which events, now or in a daily digest */
/* SPDX-License-Identifier: MIT */
#include "notify/notify_int.h"

#include <string.h>

#include "util/banned.h"

#define DEFAULT_DIGEST_HOUR 7

const char *const notify_events[] = {
	"invite", "your_turn", "game_over", "chat", "reminder", "timeout", "rollback", NULL
};

static int known_event(const char *e)
{
	for (const char *const *k = notify_events; *k; k++)
		if (strcmp(*k, e) == 0)
			return 1;
	return 0;
}

/*
 * The stored form, shared with the web account page:
 * {"events": {"your_turn": true, "chat": false, ...}, "digest": false, "digest_hour": 7}.
 * A missing event is on; "digest" sends every event that is on in one daily message.
 */
json_t *notify_prefs_get(const char *stored)
{
	json_t *root = stored ? json_loads(stored, 0, NULL) : NULL;
	json_t *events = json_object(), *have = json_object_get(root, "events");
	json_t *hour = json_object_get(root, "digest_hour"), *out;

	for (const char *const *k = notify_events; *k; k++) {
		json_t *v = json_object_get(have, *k);
		json_object_set_new(events, *k, json_boolean(!v || json_is_true(v)));
	}
	out = json_pack("{s:o,s:b,s:i}", "events", events, "digest", json_is_true(json_object_get(root, "digest")),
			"digest_hour",
			json_is_integer(hour) && json_integer_value(hour) >= 0 && json_integer_value(hour) <= 23
				? (int)json_integer_value(hour)
				: DEFAULT_DIGEST_HOUR);
	/* the ids to mention the user by in chat channels (notify/chan.c) */
	{
		json_t *ids = json_object(), *have_ids = json_object_get(root, "chat_ids");
		for (const char *const *k = notify_chat_kinds; *k; k++) {
			const char *v = json_string_value(json_object_get(have_ids, *k));
			json_object_set_new(ids, *k, json_string(v ? v : ""));
		}
		json_object_set_new(out, "chat_ids", ids);
	}
	json_decref(root);
	return out;
}

const char *const notify_chat_kinds[] = { "discord", "slack", "matrix", NULL };

int notify_chat_id_ok(const char *kind, const char *id)
{
	size_t len = strlen(id);

	if (!len)
		return 1;
	if (len > 255)
		return 0;
	if (strcmp(kind, "discord") == 0)
		return strspn(id, "0123456789") == len;
	if (strcmp(kind, "slack") == 0)
		return strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == len && (id[0] == 'U' || id[0] == 'W');
	if (strcmp(kind, "matrix") == 0)
		return id[0] == '@' && strchr(id, ':') && !strpbrk(id, " <>\"\r\n\t");
	return 0;
}

/* Merge "chat_ids" of change into cur. */
static int merge_chat_ids(json_t *cur, const json_t *ids, struct err *err)
{
	const char *key;
	json_t *v;

	if (!json_is_object(ids))
		return err_set(err, ERR_INPUT, "\"chat_ids\" must be an object such as {\"discord\": \"80351110224678912\"}");
	json_object_foreach((json_t *)ids, key, v) {
		int known = 0;
		for (const char *const *k = notify_chat_kinds; *k; k++)
			known |= strcmp(*k, key) == 0;
		if (!known)
			return err_set(err, ERR_INPUT, "\"%s\" is not a chat app (discord, slack, matrix)", key);
		if (!json_is_string(v) || !notify_chat_id_ok(key, json_string_value(v)))
			return err_set(err, ERR_INPUT,
				       "chat_ids.%s: a Discord id is digits (80351110224678912), a Slack id U or W and "
				       "capitals or digits (U024BE7LH), a Matrix id @user:server; \"\" removes it",
				       key);
		json_object_set(json_object_get(cur, "chat_ids"), key, v);
	}
	return 0;
}

const char *notify_prefs_mode(const json_t *prefs, const char *event)
{
	const json_t *v = json_object_get(json_object_get(prefs, "events"), event);

	if (v && !json_is_true(v))
		return "off";
	return json_is_true(json_object_get(prefs, "digest")) ? "digest" : "now";
}

int notify_prefs_merge(const char *stored, const json_t *change, char **merged, struct err *err)
{
	json_t *root = stored ? json_loads(stored, 0, NULL) : NULL;
	json_t *cur = notify_prefs_get(stored), *events, *hour, *digest, *v;
	const char *key;
	int rc = 0;

	*merged = NULL;
	if (!json_is_object(root)) {
		json_decref(root);
		root = json_object();
	}
	if (!json_is_object(change)) {
		rc = err_set(err, ERR_INPUT, "preferences must be a JSON object");
		goto done;
	}
	json_object_foreach((json_t *)change, key, v) {
		if (strcmp(key, "events") != 0 && strcmp(key, "digest") != 0 && strcmp(key, "digest_hour") != 0 &&
		    strcmp(key, "chat_ids") != 0) {
			rc = err_set(err, ERR_INPUT,
				     "unknown preference \"%s\" (use \"events\", \"digest\", \"digest_hour\" and \"chat_ids\")",
				     key);
			goto done;
		}
	}
	events = json_object_get(change, "events");
	if (events && !json_is_object(events)) {
		rc = err_set(err, ERR_INPUT, "\"events\" must be an object such as {\"chat\": false}");
		goto done;
	}
	json_object_foreach(events, key, v) {
		if (!known_event(key)) {
			rc = err_set(err, ERR_INPUT,
				     "\"%s\" is not an event (invite, your_turn, game_over, chat, reminder, timeout, rollback)",
				     key);
			goto done;
		}
		if (!json_is_boolean(v)) {
			rc = err_set(err, ERR_INPUT, "event \"%s\" must be true or false", key);
			goto done;
		}
		json_object_set(json_object_get(cur, "events"), key, v);
	}
	if (json_object_get(change, "chat_ids") &&
	    (rc = merge_chat_ids(cur, json_object_get(change, "chat_ids"), err)) < 0)
		goto done;
	digest = json_object_get(change, "digest");
	if (digest) {
		if (!json_is_boolean(digest)) {
			rc = err_set(err, ERR_INPUT, "\"digest\" must be true (one daily email) or false (right away)");
			goto done;
		}
		json_object_set(cur, "digest", digest);
	}
	hour = json_object_get(change, "digest_hour");
	if (hour) {
		if (!json_is_integer(hour) || json_integer_value(hour) < 0 || json_integer_value(hour) > 23) {
			rc = err_set(err, ERR_INPUT, "\"digest_hour\" must be an hour of the day, 0 to 23 (UTC)");
			goto done;
		}
		json_object_set(cur, "digest_hour", hour);
	}
	/* keep whatever else the stored object holds */
	json_object_update(root, cur);
	*merged = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS);
	if (!*merged)
		rc = err_set(err, ERR_NOMEM, "out of memory");
done:
	json_decref(cur);
	json_decref(root);
	return rc;
}
