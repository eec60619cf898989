/* engine/unsubscribe.c: one-click unsubscribe: signed per-recipient, per-kind links (RFC 8058) */
/* SPDX-License-Identifier: MIT */
#include "engine/unsubscribe.h"

#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/account.h"
#include "notify/notify.h"
#include "util/banned.h"

#define MAC_BYTES 16
#define MAC_TEXT 26 /* base32 of 16 bytes, no padding */

static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";

/* What each kind of email is called on the page. */
static const struct {
	const char *kind, *label;
} labels[] = {
	{ "invite", "invitations to new games" },
	{ "your_turn", "\"your turn\" emails" },
	{ "game_over", "\"game over\" emails" },
	{ "chat", "chat messages" },
	{ "reminder", "deadline reminders" },
	{ "timeout", "notices of missed deadlines" },
	{ "rollback", "notices of rollbacks" },
	{ "all", "all game emails" },
};

static const char *kind_label(const char *kind)
{
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (strcmp(labels[i].kind, kind) == 0)
			return labels[i].label;
	return NULL;
}

static int known_kind(const char *kind)
{
	if (strcmp(kind, "all") == 0)
		return 1;
	for (const char *const *k = notify_events; *k; k++)
		if (strcmp(*k, kind) == 0)
			return 1;
	return 0;
}

/* The signature of (user, kind) as base32 text (MAC_TEXT characters and a NUL). */
static int sign(struct store *s, int64_t user_id, const char *kind, char text[MAC_TEXT + 1], struct err *err)
{
	unsigned char key[STORE_SERVER_KEY_LEN], mac[crypto_auth_hmacsha256_BYTES];
	char msg[128];
	struct store_conn *c;
	unsigned acc = 0;
	int bits = 0, n = 0, rc, len;

	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_server_key_get(c, "unsubscribe", key, err);
	store_read_release(c);
	if (rc < 0)
		return rc;
	len = snprintf(msg, sizeof(msg), "turnpost unsubscribe\n%" PRId64 "\n%s", user_id, kind);
	crypto_auth_hmacsha256(mac, (const unsigned char *)msg, (unsigned long long)len, key);
	sodium_memzero(key, sizeof(key));
	for (int i = 0; i < MAC_BYTES; i++) {
		acc = (acc << 8) | mac[i];
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			text[n++] = b32[(acc >> bits) & 31];
		}
	}
	if (bits)
		text[n++] = b32[(acc << (5 - bits)) & 31];
	text[n] = '\0';
	return 0;
}

int unsubscribe_token(struct store *s, int64_t user_id, const char *kind, char out[UNSUBSCRIBE_TOKEN_MAX],
		      struct err *err)
{
	char mac[MAC_TEXT + 1];
	int rc;

	out[0] = '\0';
	if (!kind || !known_kind(kind))
		return err_set(err, ERR_INPUT, "no such kind of email: %s", kind ? kind : "(none)");
	if ((rc = sign(s, user_id, kind, mac, err)) < 0)
		return rc;
	snprintf(out, UNSUBSCRIBE_TOKEN_MAX, "%" PRId64 "-%s-%s", user_id, kind, mac);
	return 0;
}

int unsubscribe_check(struct store *s, const char *token, int64_t *user_id, char *kind, struct err *err)
{
	char lower[UNSUBSCRIBE_TOKEN_MAX], mac[MAC_TEXT + 1];
	const char *dash1, *dash2;
	size_t len = token ? strlen(token) : 0, klen;
	int64_t uid = 0;
	int rc;

	*user_id = 0;
	kind[0] = '\0';
	if (!len || len >= sizeof(lower))
		goto bad;
	for (size_t i = 0; i <= len; i++)
		lower[i] = (char)(token[i] >= 'A' && token[i] <= 'Z' ? token[i] + 32 : token[i]);
	dash1 = strchr(lower, '-');
	dash2 = strrchr(lower, '-');
	if (!dash1 || dash2 == dash1 || strlen(dash2 + 1) != MAC_TEXT || dash1 == lower || dash1 - lower > 18)
		goto bad;
	for (const char *p = lower; p < dash1; p++) {
		if (*p < '0' || *p > '9')
			goto bad;
		uid = uid * 10 + (*p - '0');
	}
	klen = (size_t)(dash2 - dash1 - 1);
	if (!uid || !klen || klen >= UNSUBSCRIBE_TOKEN_MAX)
		goto bad;
	memcpy(kind, dash1 + 1, klen);
	kind[klen] = '\0';
	if (!known_kind(kind))
		goto bad;
	if ((rc = sign(s, uid, kind, mac, err)) < 0) {
		kind[0] = '\0';
		return rc;
	}
	if (sodium_memcmp(mac, dash2 + 1, MAC_TEXT) != 0)
		goto bad;
	*user_id = uid;
	return 0;
bad:
	kind[0] = '\0';
	return err_set(err, ERR_NOTFOUND, "this unsubscribe link is not valid: copy the whole link from the email");
}

/* {"email","kind","label","on"} of a user's preferences (prefs borrowed). */
static json_t *state_json(const json_t *account, const json_t *prefs, const char *kind)
{
	const json_t *events = json_object_get(prefs, "events");
	int on;

	if (strcmp(kind, "all") == 0) {
		const char *k;
		json_t *v;
		on = 0;
		json_object_foreach((json_t *)events, k, v)
			if (json_is_true(v))
				on = 1;
	} else {
		on = json_is_true(json_object_get(events, kind));
	}
	return json_pack("{s:s,s:s,s:s,s:b}", "email", json_string_value(json_object_get(account, "email")), "kind",
			 kind, "label", kind_label(kind), "on", on);
}

static int act(struct store *s, const char *token, int change, int on, json_t **out, struct err *err)
{
	char kind[UNSUBSCRIBE_TOKEN_MAX];
	int64_t uid;
	json_t *account = NULL, *prefs = NULL, *events = NULL;
	int rc;

	if (out)
		*out = NULL;
	if ((rc = unsubscribe_check(s, token, &uid, kind, err)) < 0)
		return rc;
	if ((rc = account_get(s, uid, &account, err)) < 0) {
		if (rc == ERR_NOTFOUND)
			err_set(err, ERR_NOTFOUND, "the account of this unsubscribe link is gone");
		goto done;
	}
	if (change) {
		json_t *change_json;
		events = json_object();
		for (const char *const *k = notify_events; *k; k++)
			if (strcmp(kind, "all") == 0 || strcmp(kind, *k) == 0)
				json_object_set_new(events, *k, json_boolean(on));
		change_json = json_pack("{s:O}", "events", events);
		rc = account_update(s, uid, NULL, NULL, change_json, &prefs, err);
		json_decref(change_json);
		if (rc < 0)
			goto done;
	} else {
		prefs = json_incref(json_object_get(account, "prefs"));
	}
	if (out)
		*out = state_json(account, prefs, kind);
done:
	json_decref(account);
	json_decref(prefs);
	json_decref(events);
	return rc;
}

int unsubscribe_set(struct store *s, const char *token, int on, json_t **out, struct err *err)
{
	return act(s, token, 1, on ? 1 : 0, out, err);
}

int unsubscribe_get(struct store *s, const char *token, json_t **out, struct err *err)
{
	return act(s, token, 0, 0, out, err);
}
