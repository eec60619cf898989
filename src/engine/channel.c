/* engine/channel.c: chat-app channels of a game and users' own destinations: attach, show, remove */
/* SPDX-License-Identifier: MIT */
#include "engine/channel.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify/dest.h"
#include "util/buf.h"
#include "util/seal.h"
#include "util/banned.h"

const char *const channel_events[] = { "your_turn", "reminder", "chat", "game_over", NULL };

static const char *const game_kinds[] = { "discord", "slack", "matrix", NULL };
static const char *const user_kinds[] = { "discord", "slack", "matrix", "ntfy", "webhook", NULL };

static int in(const char *const *list, const char *s)
{
	for (; s && *list; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

int channel_kind_game(const char *kind)
{
	return in(game_kinds, kind);
}

int channel_kind_user(const char *kind)
{
	return in(user_kinds, kind);
}

static const char *field(const json_t *body, const char *name)
{
	const char *v = json_string_value(json_object_get(body, name));

	return v && *v ? v : NULL;
}

/*
 * What it takes to reach a destination of kind, from the body: *plain the
 * JSON text to seal (new), hint what may be shown. The URL is checked
 * (notify/dest.h). For a webhook a new signing secret is made: *secret (new).
 */
static int parse_target(const char *kind, const json_t *body, char **plain, char *hint, size_t hsize, char **secret,
			struct err *err)
{
	json_t *cfg = NULL;
	const char *url;
	int rc = 0;

	*plain = NULL;
	*secret = NULL;
	if (!json_is_object(body))
		return err_set(err, ERR_INPUT, "the body must be a JSON object");
	if (strcmp(kind, "matrix") == 0) {
		const char *room = field(body, "room_id"), *tok = field(body, "access_token");
		url = field(body, "homeserver");
		if (!url || !room || !tok)
			return err_set(err, ERR_INPUT,
				       "a Matrix room needs \"homeserver\" (https://...), \"room_id\" (!...:server) and "
				       "\"access_token\"");
		if (room[0] != '!' || !strchr(room, ':') || strlen(room) > 255)
			return err_set(err, ERR_INPUT, "\"room_id\" must be a room id such as !abc123:example.org");
		if (strpbrk(tok, " \r\n\t") || strlen(tok) > 1024)
			return err_set(err, ERR_INPUT, "\"access_token\" is not a Matrix access token");
		cfg = json_pack("{s:s,s:s,s:s}", "homeserver", url, "room", room, "token", tok);
		notify_dest_hint(url, tok, hint, hsize);
		{
			/* the room is no secret, and tells channels apart */
			size_t len = strlen(hint);
			snprintf(hint + len, hsize - len, " %.40s", room);
		}
	} else {
		const char *name = strcmp(kind, "discord") == 0 || strcmp(kind, "slack") == 0 ? "webhook_url" : "url";
		url = field(body, name);
		if (!url)
			return err_set(err, ERR_INPUT, "a %s destination needs \"%s\": \"https://...\"", kind, name);
		if (strlen(url) > 2048)
			return err_set(err, ERR_INPUT, "\"%s\" is too long", name);
		cfg = json_pack("{s:s}", "url", url);
		notify_dest_hint(url, NULL, hint, hsize);
		if (strcmp(kind, "webhook") == 0) {
			unsigned char key[24];
			char b64[sodium_base64_ENCODED_LEN(sizeof(key), sodium_base64_VARIANT_ORIGINAL)];
			struct buf b = BUF_INIT;
			randombytes_buf(key, sizeof(key));
			sodium_bin2base64(b64, sizeof(b64), key, sizeof(key), sodium_base64_VARIANT_ORIGINAL);
			sodium_memzero(key, sizeof(key));
			buf_addf(&b, "whsec_%s", b64);
			*secret = buf_detach(&b, NULL);
			json_object_set_new(cfg, "secret", json_string(*secret));
		}
	}
	if ((rc = notify_dest_check(url, NULL, err)) < 0)
		goto done;
	if (!(*plain = json_dumps(cfg, JSON_COMPACT)))
		rc = err_set(err, ERR_NOMEM, "out of memory");
done:
	if (rc < 0) {
		free(*secret);
		*secret = NULL;
	}
	json_decref(cfg);
	return rc;
}

/* Seal plain with the server's key; *box new. */
static int seal(struct store_conn *c, const char *plain, unsigned char **box, size_t *len, struct err *err)
{
	unsigned char key[STORE_SERVER_KEY_LEN];
	int rc;

	if ((rc = store_server_key_get(c, "destinations", key, err)) < 0)
		return rc;
	rc = seal_box(key, plain, box, len, err);
	sodium_memzero(key, sizeof(key));
	return rc;
}

static void wipe_free(char *s)
{
	if (s) {
		sodium_memzero(s, strlen(s));
		free(s);
	}
}

/* A channel as the API shows it: never what it takes to reach it. New. */
static json_t *channel_json(const struct store_channel *ch)
{
	json_t *o = json_pack("{s:I,s:s,s:s,s:I}", "id", (json_int_t)ch->id, "kind", ch->kind, "hint", ch->hint,
			      "created_at", (json_int_t)ch->created_at);

	if (ch->user_id) {
		json_t *ev = json_array();
		for (const char *const *e = channel_events; *e; e++) {
			char pat[40];
			snprintf(pat, sizeof(pat), ",%s,", *e);
			if (strstr(ch->events, pat))
				json_array_append_new(ev, json_string(*e));
		}
		json_object_set_new(o, "events", ev);
	} else {
		json_object_set_new(o, "game", json_integer(ch->game_id));
		json_object_set_new(o, "dashboard", json_boolean(ch->dashboard));
	}
	return o;
}

/* May user_id manage game_id's channels? ERR_NOTFOUND, ERR_FORBIDDEN. */
static int may_manage(struct store_conn *c, int64_t game_id, int64_t user_id, int is_admin, struct err *err)
{
	struct store_game g = {0};
	int rc = store_game_get(c, game_id, &g, err);

	if (rc == 0 && !is_admin && (!user_id || g.created_by != user_id))
		rc = err_set(err, ERR_FORBIDDEN, "Only the game's creator (or an admin) may change its chat channels.");
	store_game_release(&g);
	return rc;
}

static int unknown_kind(const char *kind, int game, struct err *err)
{
	return err_set(err, ERR_NOTFOUND, "\"%.32s\" is not a kind of %s (%s)", kind ? kind : "",
		       game ? "channel" : "destination",
		       game ? "discord, slack or matrix" : "discord, slack, matrix, ntfy or webhook");
}

int channel_game_manager(struct store *s, int64_t game_id, int64_t user_id, int is_admin)
{
	struct store_conn *c;
	struct err e = {0};
	int rc;

	if (store_read_acquire(s, &c, &e) < 0)
		return 0;
	rc = may_manage(c, game_id, user_id, is_admin, &e);
	store_read_release(c);
	return rc == 0;
}

/* The body's "dashboard" (absent: 0) into *on; ERR_INPUT when not a boolean, ERR_ILLEGAL for Slack. */
static int parse_dashboard(const char *kind, const json_t *body, int *on, struct err *err)
{
	const json_t *v = json_object_get(body, "dashboard");

	*on = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_boolean(v))
		return err_set(err, ERR_INPUT, "\"dashboard\" must be true or false");
	*on = json_is_true(v);
	if (*on && strcmp(kind, "slack") == 0)
		return err_set(err, ERR_ILLEGAL,
			       "Slack's incoming webhooks cannot edit a message they posted, so a Slack channel cannot "
			       "keep a dashboard message: use Discord or Matrix for that, or leave \"dashboard\" out to "
			       "get a new message each turn");
	return 0;
}

int channel_game_set(struct store *s, int64_t game_id, int64_t user_id, int is_admin, const char *kind,
		     const json_t *body, int64_t now, json_t **out, struct err *err)
{
	struct store_conn *c = NULL;
	unsigned char *box = NULL;
	size_t blen = 0;
	char *plain = NULL, *secret = NULL, hint[128];
	int64_t id = 0;
	int rc, dashboard = 0;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = may_manage(c, game_id, user_id, is_admin, err);
	store_read_release(c);
	c = NULL;
	if (rc < 0)
		return rc;
	if (!channel_kind_game(kind))
		return unknown_kind(kind, 1, err);
	if ((rc = parse_dashboard(kind, body, &dashboard, err)) < 0)
		return rc;
	/* the check resolves names: before the writer is taken */
	if ((rc = parse_target(kind, body, &plain, hint, sizeof(hint), &secret, err)) < 0)
		goto done;
	if ((rc = store_write_begin(s, &c, err)) < 0) {
		c = NULL;
		goto done;
	}
	if ((rc = may_manage(c, game_id, user_id, is_admin, err)) < 0 || (rc = seal(c, plain, &box, &blen, err)) < 0 ||
	    (rc = store_channel_set_game(c, game_id, kind, box, blen, hint, dashboard, user_id, now, &id, err)) < 0)
		goto done;
	/* a dashboard is posted now, showing the game as it is, and edited from then on */
	if (dashboard && (rc = store_channel_queue_one(c, id, game_id, "dashboard", -1, now, err)) < 0)
		goto done;
	{
		struct store_channel ch = {0};
		if ((rc = store_channel_get_game(c, game_id, kind, &ch, err)) == 0)
			*out = channel_json(&ch);
		store_channel_release(&ch);
	}
done:
	if (c && rc < 0)
		store_write_rollback(c);
	else if (c)
		rc = store_write_commit(c, err);
	if (rc < 0) {
		json_decref(*out);
		*out = NULL;
	}
	wipe_free(plain);
	wipe_free(secret);
	free(box);
	return rc;
}

int channel_game_get(struct store *s, int64_t game_id, int64_t user_id, int is_admin, const char *kind,
		     json_t **out, struct err *err)
{
	struct store_channel ch = {0};
	struct store_conn *c;
	int rc;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	if ((rc = may_manage(c, game_id, user_id, is_admin, err)) < 0)
		goto done;
	if (!channel_kind_game(kind)) {
		rc = unknown_kind(kind, 1, err);
		goto done;
	}
	if ((rc = store_channel_get_game(c, game_id, kind, &ch, err)) == ERR_NOTFOUND)
		rc = err_set(err, ERR_NOTFOUND, "the game has no %s channel", kind);
	if (rc == 0)
		*out = channel_json(&ch);
done:
	store_read_release(c);
	store_channel_release(&ch);
	return rc;
}

int channel_game_list(struct store *s, int64_t game_id, int64_t user_id, int is_admin, json_t **out,
		      struct err *err)
{
	struct store_channel *list = NULL;
	struct store_conn *c;
	int n = 0, rc;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	if ((rc = may_manage(c, game_id, user_id, is_admin, err)) == 0 &&
	    (rc = store_channel_list(c, game_id, 0, &list, &n, err)) == 0) {
		*out = json_array();
		for (int i = 0; i < n; i++)
			json_array_append_new(*out, channel_json(&list[i]));
	}
	store_read_release(c);
	store_channels_free(list, n);
	return rc;
}

int channel_game_delete(struct store *s, int64_t game_id, int64_t user_id, int is_admin, const char *kind,
			struct err *err)
{
	struct store_conn *c;
	int rc;

	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = may_manage(c, game_id, user_id, is_admin, err)) < 0)
		goto done;
	if (!channel_kind_game(kind)) {
		rc = unknown_kind(kind, 1, err);
		goto done;
	}
	if ((rc = store_channel_delete_game(c, game_id, kind, err)) == ERR_NOTFOUND)
		rc = err_set(err, ERR_NOTFOUND, "the game has no %s channel", kind);
done:
	if (rc < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

/* ",your_turn,chat," from ["your_turn","chat"] (or {"your_turn": true, ...}); NULL: the default, all. */
static int parse_events(const json_t *ev, char *out, size_t size, struct err *err)
{
	struct buf b = BUF_INIT;
	int rc = 0;

	buf_adds(&b, ",");
	if (!ev) {
		for (const char *const *e = channel_events; *e; e++)
			buf_addf(&b, "%s,", *e);
	} else if (json_is_array(ev) || json_is_object(ev)) {
		for (const char *const *e = channel_events; *e; e++) {
			int on = 0;
			size_t i;
			json_t *v;
			if (json_is_array(ev)) {
				json_array_foreach(ev, i, v)
					on |= json_is_string(v) && strcmp(json_string_value(v), *e) == 0;
			} else {
				on = json_is_true(json_object_get(ev, *e));
			}
			if (on)
				buf_addf(&b, "%s,", *e);
		}
		if (json_is_array(ev)) {
			size_t i;
			json_t *v;
			json_array_foreach(ev, i, v)
				if (!json_is_string(v) || !in(channel_events, json_string_value(v)))
					rc = err_set(err, ERR_INPUT,
						     "\"events\" holds only your_turn, reminder, chat and game_over");
		} else {
			const char *k;
			json_t *v;
			json_object_foreach((json_t *)ev, k, v)
				if (!in(channel_events, k) || !json_is_boolean(v))
					rc = err_set(err, ERR_INPUT,
						     "\"events\" holds only your_turn, reminder, chat and game_over");
		}
	} else {
		rc = err_set(err, ERR_INPUT, "\"events\" must be a list such as [\"your_turn\", \"game_over\"]");
	}
	if (rc == 0)
		snprintf(out, size, "%s", b.data);
	buf_release(&b);
	return rc;
}

int channel_user_add(struct store *s, int64_t user_id, const char *kind, const json_t *body, int64_t now,
		     json_t **out, struct err *err)
{
	struct store_conn *c = NULL;
	unsigned char *box = NULL;
	size_t blen = 0;
	char *plain = NULL, *secret = NULL, hint[128], events[160];
	int64_t id = 0;
	int rc;

	*out = NULL;
	if (!channel_kind_user(kind))
		return err_set(err, ERR_INPUT, "\"kind\" must be discord, slack, matrix, ntfy or webhook");
	if ((rc = parse_events(json_object_get(body, "events"), events, sizeof(events), err)) < 0)
		return rc;
	if ((rc = parse_target(kind, body, &plain, hint, sizeof(hint), &secret, err)) < 0)
		goto done;
	if ((rc = store_write_begin(s, &c, err)) < 0) {
		c = NULL;
		goto done;
	}
	if ((rc = seal(c, plain, &box, &blen, err)) < 0 ||
	    (rc = store_channel_add_user(c, user_id, kind, box, blen, hint, events, now, &id, err)) < 0)
		goto done;
	{
		struct store_channel ch = {0};
		if ((rc = store_channel_get(c, id, &ch, err)) == 0) {
			*out = channel_json(&ch);
			if (secret)
				json_object_set_new(*out, "secret", json_string(secret));
		}
		store_channel_release(&ch);
	}
done:
	if (c && rc < 0)
		store_write_rollback(c);
	else if (c)
		rc = store_write_commit(c, err);
	if (rc < 0) {
		json_decref(*out);
		*out = NULL;
	}
	wipe_free(plain);
	wipe_free(secret);
	free(box);
	return rc;
}

int channel_user_list(struct store *s, int64_t user_id, json_t **out, struct err *err)
{
	struct store_channel *list = NULL;
	struct store_conn *c;
	int n = 0, rc;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	if ((rc = store_channel_list(c, 0, user_id, &list, &n, err)) == 0) {
		*out = json_array();
		for (int i = 0; i < n; i++)
			json_array_append_new(*out, channel_json(&list[i]));
	}
	store_read_release(c);
	store_channels_free(list, n);
	return rc;
}

int channel_user_events(struct store *s, int64_t user_id, int64_t id, const json_t *events, struct err *err)
{
	struct store_conn *c;
	char ev[160];
	int rc;

	if (!events)
		return err_set(err, ERR_INPUT, "give \"events\": [\"your_turn\", ...]");
	if ((rc = parse_events(events, ev, sizeof(ev), err)) < 0)
		return rc;
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_channel_set_events(c, user_id, id, ev, err)) < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

int channel_user_delete(struct store *s, int64_t user_id, int64_t id, struct err *err)
{
	struct store_conn *c;
	int rc;

	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_channel_delete_user(c, user_id, id, err)) < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

int channel_queue(struct store_conn *c, int64_t game_id, int64_t user_id, const char *event, int seat, int64_t now,
		  struct err *err)
{
	return store_channel_queue(c, game_id, user_id, event, seat, NULL, now, NULL, err);
}
