/* notify/chan.c: chat messages: a game's channel or a user's destination (Discord, Slack, Matrix, ntfy, webhook) */
/* SPDX-License-Identifier: MIT */
#include <config.h>

#include "notify/notify_int.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "engine/story.h"
#include "engine/views.h"
#include "notify/dest.h"
#include "util/seal.h"
#include "util/log.h"
#include "util/banned.h"

#define CHAN_TEXT_MAX 1800  /* Discord's limit is 2000 characters */
#define CHAN_LAST_STEPS 12  /* of the last turn, at most this many sentences */
#define CHAN_ANSWER_MAX 65536 /* of an answer, at most this much is kept (a posted message's id, the error) */

struct notify_chan {
	int64_t id;      /* the channel's */
	int dashboard;   /* a game channel's one message, edited (msg: its id in the chat app; "": post it) */
	char msg[128];
	char kind[16];
	json_t *cfg;     /* what it takes to reach it: {"url"} or {"homeserver","room","token"}, and "secret" */
	char *mention;   /* the chat id of the player to mention; NULL: none */
	char event[24];  /* what the message is about: your_turn, reminder, chat, game_over */
	char link[512];  /* the game's page */
};

void notify__chan_free(struct notify_chan *ch)
{
	if (!ch)
		return;
	json_decref(ch->cfg);
	free(ch->mention);
	free(ch);
}

/* The chat id the user recorded for kind (account page, preferences "chat_ids"); NULL: none. New. */
static char *chat_id(struct notify *n, int64_t user_id, const char *kind)
{
	struct store_conn *c;
	struct store_user u = {0};
	struct err e = {0};
	json_t *p = NULL;
	char *out = NULL;
	const char *v;

	if (!user_id || store_read_acquire(n->store, &c, &e) < 0)
		return NULL;
	if (store_user_by_id(c, user_id, &u, &e) == 0 && u.prefs)
		p = json_loads(u.prefs, 0, NULL);
	store_read_release(c);
	v = json_string_value(json_object_get(json_object_get(p, "chat_ids"), kind));
	if (v && *v && !(out = strdup(v)))
		abort();
	json_decref(p);
	store_user_release(&u);
	return out;
}

/* "(rolled 2 3 5)" at the end of a prompt, or "". */
static void prompt_detail(const char *prompt, char *out, size_t size)
{
	const char *open = prompt ? strrchr(prompt, '(') : NULL;
	size_t len;

	out[0] = '\0';
	if (!open)
		return;
	len = strlen(open);
	if (len > 2 && open[len - 1] == ')' && len < size)
		snprintf(out, size, " %s", open);
}

/* The last turn in words: the newest entries that share the last entry's seat, oldest first, as lines. */
static void last_turn(const json_t *log, struct buf *out)
{
	size_t n = json_array_size(log), first = n;
	json_int_t seat;

	if (!n)
		return;
	seat = json_integer_value(json_object_get(json_array_get(log, n - 1), "seat"));
	while (first > 0 && n - first < CHAN_LAST_STEPS &&
	       json_integer_value(json_object_get(json_array_get(log, first - 1), "seat")) == seat)
		first--;
	for (size_t i = first; i < n; i++) {
		const char *t = json_string_value(json_object_get(json_array_get(log, i), "text"));
		if (t && *t)
			buf_addf(out, "\n%s", t);
	}
}

/* The words of a mention in kind's own syntax, before the message; "" when none. */
static void mention_text(const struct notify_chan *ch, struct buf *out)
{
	if (!ch->mention)
		return;
	if (strcmp(ch->kind, "discord") == 0)
		buf_addf(out, "<@%s> ", ch->mention);
	else if (strcmp(ch->kind, "slack") == 0)
		buf_addf(out, "<@%s> ", ch->mention);
	else if (strcmp(ch->kind, "matrix") == 0)
		buf_addf(out, "%s: ", ch->mention);
}

int notify__chan_compose(struct notify *n, const struct store_outbox_row *row, int64_t now, struct notify_msg *out,
			 struct err *err)
{
	struct store_channel ch = {0};
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	struct notify_chan *nc = NULL;
	unsigned char key[STORE_SERVER_KEY_LEN];
	json_t *payload = NULL, *game = NULL, *log = NULL, *data;
	char *plain = NULL, detail[96];
	const char *event, *title, *who = NULL;
	struct buf b = BUF_INIT, names = BUF_INIT;
	int nseats = 0, rc;

	(void)now;
	memset(out, 0, sizeof(*out));
	snprintf(out->id, sizeof(out->id), "msg_%s", row->uid);
	snprintf(out->event, sizeof(out->event), "channel");
	out->seat = row->seat;
	out->created_at = row->created_at;
	out->game_id = row->game_id;
	payload = json_loads(row->payload ? row->payload : "{}", 0, NULL);
	event = json_string_value(json_object_get(payload, "event"));
	data = json_object_get(payload, "data");
	if (!event || !json_is_integer(json_object_get(payload, "channel"))) {
		rc = err_set(err, ERR_INPUT, "a channel message without its channel");
		goto done;
	}
	if ((rc = store_read_acquire(n->store, &c, err)) < 0)
		goto done;
	rc = store_channel_get(c, json_integer_value(json_object_get(payload, "channel")), &ch, err);
	if (rc == 0)
		rc = store_server_key_get(c, "destinations", key, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	rc = seal_open(key, ch.sealed, ch.sealed_len, &plain, err);
	sodium_memzero(key, sizeof(key));
	if (rc < 0)
		goto done;
	if (!(nc = calloc(1, sizeof(*nc))))
		abort();
	snprintf(nc->kind, sizeof(nc->kind), "%s", ch.kind);
	nc->id = ch.id;
	/* Slack cannot edit: such a channel (refused when saved) posts as any other */
	nc->dashboard = ch.dashboard && ch.game_id && strcmp(ch.kind, "slack") != 0;
	snprintf(nc->msg, sizeof(nc->msg), "%s", ch.dashboard_msg);
	snprintf(nc->event, sizeof(nc->event), "%s", event);
	nc->cfg = json_loads(plain, 0, NULL);
	sodium_memzero(plain, strlen(plain));
	if (!json_is_object(nc->cfg)) {
		rc = err_set(err, ERR_INPUT, "a channel's sealed settings are not JSON");
		goto done;
	}
	/* what is shown of it in the outbox and the log */
	out->to = strdup(ch.hint);
	out->to_name = strdup(ch.kind);
	snprintf(nc->link, sizeof(nc->link), "%s/games/%lld", n->base_url, (long long)row->game_id);

	if (row->game_id) {
		if ((rc = views_game_info(n->store, row->game_id, &g, &seats, &nseats, err)) < 0 ||
		    (rc = views_game_json(n->store, row->game_id, -1, 0, &game, err)) < 0 ||
		    (rc = story_log(n->store, row->game_id, -1, &log, err)) < 0)
			goto done;
		title = json_string_value(json_object_get(game, "title"));
		out->game_title = strdup(title ? title : g.game);
		if (nc->dashboard) {
			/*
			 * the game as it is now, whatever the row was queued for: an update
			 * late or out of order still shows the truth. No mention: an edit
			 * pings nobody, so only the first post would
			 */
			event = strcmp(g.status, "active") == 0 ? "your_turn" : "game_over";
			for (int i = 0; i < nseats; i++)
				if (g.active_seats & (1u << seats[i].seat))
					buf_addf(&names, "%s%s", names.len ? " and " : "", seats[i].name);
			who = names.len ? names.data : NULL;
		}
		for (int i = 0; i < nseats && !nc->dashboard; i++)
			if (seats[i].seat == row->seat) {
				who = seats[i].name;
				/* a game's channel mentions the player to act; a user's destination is their own */
				if (!ch.user_id && seats[i].user_id)
					nc->mention = chat_id(n, seats[i].user_id, ch.kind);
			}
		if (nc->mention && !notify_chat_id_ok(ch.kind, nc->mention)) {
			free(nc->mention);
			nc->mention = NULL;
		}
	}
	mention_text(nc, &b);
	if (strcmp(event, "your_turn") == 0 || strcmp(event, "reminder") == 0) {
		prompt_detail(json_string_value(json_object_get(json_object_get(game, "pending"), "prompt")), detail,
			      sizeof(detail));
		if (strcmp(event, "reminder") == 0)
			buf_adds(&b, "Reminder: ");
		if (ch.user_id)
			buf_addf(&b, "%s turn in %s #%lld%s: %s", strcmp(event, "reminder") == 0 ? "your" : "Your",
				 out->game_title, (long long)row->game_id, detail, nc->link);
		else
			buf_addf(&b, "%s's turn in %s #%lld%s: %s", who ? who : "Someone", out->game_title,
				 (long long)row->game_id, detail, nc->link);
		if (strcmp(event, "your_turn") == 0)
			last_turn(log, &b);
	} else if (strcmp(event, "game_over") == 0) {
		const json_t *w = json_object_get(json_object_get(game, "result"), "winners");
		size_t i, k = 0;
		json_t *v;
		buf_addf(&b, "%s #%lld is over", out->game_title, (long long)row->game_id);
		json_array_foreach(w, i, v)
			for (int s = 0; s < nseats; s++)
				if (json_is_integer(v) && seats[s].seat == json_integer_value(v))
					buf_addf(&b, "%s%s", k++ ? ", " : ": won by ", seats[s].name);
		buf_addf(&b, ": %s", nc->link);
		last_turn(log, &b);
	} else if (strcmp(event, "chat") == 0) {
		const char *name = json_string_value(json_object_get(data, "name"));
		const char *text = json_string_value(json_object_get(data, "text"));
		buf_addf(&b, "%s in %s #%lld: %s\n%s", name ? name : "A player", out->game_title ? out->game_title : "a game",
			 (long long)row->game_id, text ? text : "", nc->link);
	} else {
		buf_addf(&b, "%s in %s #%lld: %s", event, out->game_title ? out->game_title : "a game",
			 (long long)row->game_id, nc->link);
	}
	if (b.len > CHAN_TEXT_MAX) {
		/* cut at a character's start, and say so */
		size_t cut = CHAN_TEXT_MAX;
		while (cut > 0 && ((unsigned char)b.data[cut] & 0xC0) == 0x80)
			cut--;
		b.data[cut] = '\0';
		b.len = cut;
		buf_adds(&b, " ...");
	}
	out->text = buf_detach(&b, NULL);
	out->subject = strdup(event);
	out->chan = nc;
	nc = NULL;
	rc = 0;
done:
	if (rc < 0)
		notify__msg_release(out);
	if (plain) {
		sodium_memzero(plain, strlen(plain));
		free(plain);
	}
	notify__chan_free(nc);
	buf_release(&b);
	buf_release(&names);
	json_decref(payload);
	json_decref(game);
	json_decref(log);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	store_channel_release(&ch);
	return rc;
}

/* ---- delivery ---- */

struct answer {
	struct buf body;         /* the first CHAN_ANSWER_MAX bytes */
	char retry_after[NOTIFY_RETRY_AFTER_LEN];
};

static size_t body_cb(char *ptr, size_t size, size_t nmemb, void *ctx)
{
	struct answer *a = ctx;
	size_t n = size * nmemb;

	if (a->body.len < CHAN_ANSWER_MAX)
		buf_add(&a->body, ptr, n > CHAN_ANSWER_MAX - a->body.len ? CHAN_ANSWER_MAX - a->body.len : n);
	return n;
}

static int stop_cb(void *ctx, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	struct notify *n = ctx;

	(void)dt, (void)ut, (void)un;
	/* an answer is bounded too: a receiver that streams forever is cut off */
	return atomic_load(&n->stopping) || dn > 1024 * 1024 ? 1 : 0;
}

/* "https://matrix.example.org" + path, without a doubled slash. New. */
static char *join_url(const char *base, const char *path)
{
	struct buf b = BUF_INIT;
	size_t len = strlen(base);

	while (len && base[len - 1] == '/')
		len--;
	buf_add(&b, base, len);
	buf_adds(&b, path);
	return buf_detach(&b, NULL);
}

/*
 * One request to url (checked again now, and connected to the address the
 * check resolved), never following a redirect; the outcome into res, the
 * answer's body (its first CHAN_ANSWER_MAX bytes) into answer when not NULL.
 * Returns the HTTP status, 0 when there was none.
 */
static long request(struct notify *n, const struct notify_msg *m, const char *method, const char *url,
		    struct curl_slist *hdrs, const char *body, int64_t now, struct notify_result *res,
		    struct buf *answer)
{
	struct notify_dest_target t;
	struct curl_slist *resolve = NULL;
	struct answer a = { BUF_INIT, "" };
	struct err e = {0};
	long status = 0;
	CURLcode cc;
	CURL *h = NULL;

	if (notify_dest_check(url, &t, &e) < 0) {
		/* refused now (its name resolves elsewhere since, or the setting changed): never sent */
		snprintf(res->error, sizeof(res->error), "%s: %.200s", m->chan->kind, e.msg);
		/* the name server failing for now is not a refusal: tried again later, as web push does */
		res->permanent = !t.again && (e.code == ERR_ILLEGAL || e.code == ERR_INPUT);
		goto done;
	}
	if (!(h = curl_easy_init())) {
		snprintf(res->error, sizeof(res->error), "cannot make a libcurl handle");
		goto done;
	}
	resolve = curl_slist_append(resolve, t.resolve);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_RESOLVE, resolve);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, t.https ? "https" : "http");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)n->cfg.timeout_ms);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)n->cfg.timeout_ms);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, stop_cb);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, n);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, body_cb);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &a);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, notify__retry_after_cb);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, a.retry_after);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	cc = curl_easy_perform(h);
	if (cc != CURLE_OK) {
		/* the URL holds the secret: libcurl's words only, and the host */
		snprintf(res->error, sizeof(res->error), "%s: %.100s (%.80s)", m->chan->kind, curl_easy_strerror(cc), t.host);
		res->permanent = cc == CURLE_UNSUPPORTED_PROTOCOL || cc == CURLE_URL_MALFORMAT;
		goto done;
	}
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	if (status >= 200 && status < 300) {
		res->ok = 1;
		log_info("chat message %s (%s) delivered to %s %s with %ld", m->id, m->chan->event, m->chan->kind, m->to,
			 status);
		goto done;
	}
	if (status >= 300 && status < 400) {
		snprintf(res->error, sizeof(res->error), "%s: HTTP %ld from %.80s: redirects are not followed", m->chan->kind,
			 status, t.host);
		res->permanent = 1;
		goto done;
	}
	snprintf(res->error, sizeof(res->error), "%s: HTTP %ld from %.80s%s%.*s", m->chan->kind, status, t.host,
		 a.body.len ? ": " : "", (int)(a.body.len > 120 ? 120 : a.body.len), a.body.data);
	/* keep the error on one line */
	for (char *p = res->error; *p; p++)
		if (*p == '\r' || *p == '\n')
			*p = ' ';
	if (status == 429 || status >= 500 || status == 408)
		res->retry_after_ms = notify__retry_after_ms(a.retry_after, now);
	else
		res->permanent = 1;
done:
	if (answer && a.body.len)
		buf_add(answer, a.body.data, a.body.len);
	curl_easy_cleanup(h);
	curl_slist_free_all(resolve);
	buf_release(&a.body);
	return status;
}

static long send_json(struct notify *n, const struct notify_msg *m, const char *method, const char *url,
		      json_t *o, const char *auth, int64_t now, struct notify_result *res, struct buf *answer)
{
	struct curl_slist *hdrs = NULL;
	char *body = json_dumps(o, JSON_COMPACT);
	long status = 0;

	hdrs = curl_slist_append(hdrs, "Content-Type: application/json");
	hdrs = curl_slist_append(hdrs, "User-Agent: turnpost/" PACKAGE_VERSION);
	hdrs = curl_slist_append(hdrs, "Expect:");
	if (auth)
		hdrs = curl_slist_append(hdrs, auth);
	if (!body) {
		snprintf(res->error, sizeof(res->error), "cannot encode the message");
		res->permanent = 1;
	} else {
		status = request(n, m, method, url, hdrs, body, now, res, answer);
	}
	curl_slist_free_all(hdrs);
	free(body);
	return status;
}

/* ---- the dashboard: one message per game channel, edited ---- */

/*
 * Keep msg (NULL: none) as channel id's dashboard message. The message is out
 * already: a failure here is logged, not retried (that would post it twice);
 * the next turn then posts a new one.
 */
static void keep_dashboard_msg(struct notify *n, const struct notify_msg *m, const char *msg)
{
	struct store_conn *c;
	struct err e = {0};
	int rc;

	if ((rc = store_write_begin(n->store, &c, &e)) == 0) {
		if ((rc = store_channel_set_dashboard_msg(c, m->chan->id, msg, &e)) < 0)
			store_write_rollback(c);
		else
			rc = store_write_commit(c, &e);
	}
	if (rc < 0 && rc != ERR_NOTFOUND)
		log_warn("chat message %s: the %s dashboard message's id was not kept (the next turn posts a new one): %s",
			 m->id, m->chan->kind, e.msg);
}

/* The string field name of the JSON answer, if it is a usable message id (no quotes, slashes or controls). */
static const char *answer_id(json_t *o, const char *name)
{
	const char *v = json_string_value(json_object_get(o, name));
	size_t len = v ? strlen(v) : 0;

	if (!len || len >= sizeof(((struct notify_chan *)0)->msg))
		return NULL;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)v[i] <= ' ' || v[i] == '/' || v[i] == '?' || v[i] == '#' || v[i] == '"' || v[i] == '\\')
			return NULL;
	return v;
}

/* After a new dashboard message was posted: its id (field name of the answer) kept for the next edits. */
static void posted_dashboard(struct notify *n, const struct notify_msg *m, const struct buf *answer,
			     const char *name)
{
	json_t *o = json_loadb(answer->data ? answer->data : "", answer->len, 0, NULL);
	const char *id = answer_id(o, name);

	if (!id)
		log_warn("chat message %s: %s's answer has no message id: the next turn posts a new dashboard message",
			 m->id, m->chan->kind);
	else
		log_info("chat message %s: a new %s dashboard message for game %lld", m->id, m->chan->kind,
			 (long long)m->game_id);
	keep_dashboard_msg(n, m, id);
	json_decref(o);
}

/* url with "/messages/ID" before its query, or with its query extended by "wait=true" (ID NULL). New. */
static char *discord_url(const char *url, const char *id)
{
	struct buf b = BUF_INIT;
	const char *q = strchr(url, '?');

	if (id) {
		buf_add(&b, url, q ? (size_t)(q - url) : strlen(url));
		buf_addf(&b, "/messages/%s%s", id, q ? q : "");
	} else {
		buf_addf(&b, "%s%swait=true", url, q ? (q[1] ? "&" : "") : "?");
	}
	return buf_detach(&b, NULL);
}

static void deliver_discord(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res)
{
	const char *url = json_string_value(json_object_get(m->chan->cfg, "url"));
	/* only the player named may be pinged: never @everyone or a role from a player's name */
	json_t *am = json_pack("{s:[]}", "parse");
	json_t *o;

	struct buf answer = BUF_INIT;
	char *u = NULL;

	if (m->chan->mention)
		json_object_set_new(am, "users", json_pack("[s]", m->chan->mention));
	o = json_pack("{s:s,s:o}", "content", m->text, "allowed_mentions", am);
	if (!m->chan->dashboard) {
		send_json(n, m, "POST", url ? url : "", o, NULL, now, res, NULL);
		goto done;
	}
	if (!url)
		url = "";
	if (m->chan->msg[0]) {
		/* edit the message in place (PATCH .../messages/ID); deleted in Discord (404): post a new one */
		u = discord_url(url, m->chan->msg);
		if (send_json(n, m, "PATCH", u, o, NULL, now, res, NULL) != 404 || res->ok)
			goto done;
		log_info("chat message %s: the Discord dashboard message of game %lld is gone: posting a new one", m->id,
			 (long long)m->game_id);
		memset(res, 0, sizeof(*res));
		free(u);
	}
	/* ?wait=true: Discord answers with the message, whose id the edits need */
	u = discord_url(url, NULL);
	send_json(n, m, "POST", u, o, NULL, now, res, &answer);
	if (res->ok)
		posted_dashboard(n, m, &answer, "id");
done:
	free(u);
	buf_release(&answer);
	json_decref(o);
}

static void deliver_slack(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res)
{
	const char *url = json_string_value(json_object_get(m->chan->cfg, "url"));
	json_t *o = json_pack("{s:s}", "text", m->text);

	send_json(n, m, "POST", url ? url : "", o, NULL, now, res, NULL);
	json_decref(o);
}

/*
 * PUT o as an m.room.message event with transaction id txn to the channel's
 * room; the HTTP status (the answer into answer when not NULL). A retry
 * with the same txn is the same event to the homeserver, not a second one.
 */
static long matrix_send(struct notify *n, const struct notify_msg *m, const char *txn, json_t *o, int64_t now,
			struct notify_result *res, struct buf *answer)
{
	const char *hs = json_string_value(json_object_get(m->chan->cfg, "homeserver"));
	const char *room = json_string_value(json_object_get(m->chan->cfg, "room"));
	const char *tok = json_string_value(json_object_get(m->chan->cfg, "token"));
	char *eroom = NULL, *url = NULL;
	struct buf path = BUF_INIT, auth = BUF_INIT;
	long status;

	if (!hs || !room || !tok) {
		snprintf(res->error, sizeof(res->error), "matrix: the room's settings are incomplete");
		res->permanent = 1;
		return 0;
	}
	eroom = curl_easy_escape(NULL, room, 0);
	buf_addf(&path, "/_matrix/client/v3/rooms/%s/send/m.room.message/%s", eroom ? eroom : "", txn);
	url = join_url(hs, path.data);
	buf_addf(&auth, "Authorization: Bearer %s", tok);
	status = send_json(n, m, "PUT", url, o, auth.data, now, res, answer);
	sodium_memzero(auth.data, auth.len);
	buf_release(&auth);
	buf_release(&path);
	curl_free(eroom);
	free(url);
	return status;
}

static void deliver_matrix(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res)
{
	struct buf answer = BUF_INIT;
	json_t *o = json_pack("{s:s,s:s}", "msgtype", "m.text", "body", m->text);

	if (m->chan->dashboard) {
		/* nobody is pinged by a dashboard: it is edited every turn */
		json_object_set_new(o, "m.mentions", json_object());
		if (m->chan->msg[0]) {
			/*
			 * an edit (m.replace): clients show the new content in place of the
			 * event's, and "* text" where edits are not understood. Its own
			 * transaction id, so that a retry is the same edit
			 */
			char txn[80];
			struct buf star = BUF_INIT;
			json_t *e;
			buf_addf(&star, "* %s", m->text);
			e = json_pack("{s:s,s:s,s:O,s:{s:s,s:s},s:{}}", "msgtype", "m.text", "body", star.data,
				      "m.new_content", o, "m.relates_to", "rel_type", "m.replace", "event_id", m->chan->msg,
				      "m.mentions");
			buf_release(&star);
			snprintf(txn, sizeof(txn), "%s-edit", m->id);
			if (matrix_send(n, m, txn, e, now, res, NULL) != 404 || res->ok) {
				json_decref(e);
				goto done;
			}
			json_decref(e);
			log_info("chat message %s: the Matrix dashboard event of game %lld is gone: sending a new one",
				 m->id, (long long)m->game_id);
			memset(res, 0, sizeof(*res));
		}
		if (matrix_send(n, m, m->id, o, now, res, &answer) && res->ok)
			posted_dashboard(n, m, &answer, "event_id");
		goto done;
	}
	json_object_set_new(o, "m.mentions",
			    m->chan->mention ? json_pack("{s:[s]}", "user_ids", m->chan->mention) : json_object());
	/* the transaction id is the message's: a retry is the same event, not a second message */
	matrix_send(n, m, m->id, o, now, res, NULL);
done:
	buf_release(&answer);
	json_decref(o);
}

static void deliver_ntfy(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res)
{
	const char *url = json_string_value(json_object_get(m->chan->cfg, "url"));
	struct curl_slist *hdrs = NULL;
	struct buf click = BUF_INIT;

	hdrs = curl_slist_append(hdrs, "Content-Type: text/plain; charset=utf-8");
	hdrs = curl_slist_append(hdrs, "User-Agent: turnpost/" PACKAGE_VERSION);
	hdrs = curl_slist_append(hdrs, "Expect:");
	buf_addf(&click, "Click: %s", m->chan->link);
	hdrs = curl_slist_append(hdrs, click.data);
	hdrs = curl_slist_append(hdrs, "Title: turnpost");
	request(n, m, "POST", url ? url : "", hdrs, m->text, now, res, NULL);
	curl_slist_free_all(hdrs);
	buf_release(&click);
}

static void deliver_webhook(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res)
{
	const char *url = json_string_value(json_object_get(m->chan->cfg, "url"));
	const char *secret = json_string_value(json_object_get(m->chan->cfg, "secret"));
	struct curl_slist *hdrs = NULL;
	unsigned char *key = NULL;
	size_t klen = 0;
	char line[256], sig[128];
	long long ts = (long long)(now / 1000);
	struct err e = {0};
	char *body = NULL;
	json_t *o;

	if (notify__secret_decode(secret, &key, &klen, &e) < 0) {
		snprintf(res->error, sizeof(res->error), "webhook: the destination's secret is not whsec_...");
		res->permanent = 1;
		return;
	}
	o = json_pack("{s:s,s:s,s:s,s:s,s:I}", "id", m->id, "event", m->chan->event, "text", m->text, "link",
		      m->chan->link, "created_at", (json_int_t)m->created_at);
	if (m->game_id)
		json_object_set_new(o, "game", json_pack("{s:I,s:s?}", "id", (json_int_t)m->game_id, "title", m->game_title));
	body = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (!body) {
		snprintf(res->error, sizeof(res->error), "cannot encode the message");
		res->permanent = 1;
		goto done;
	}
	notify__webhook_sign(key, klen, m->id, ts, body, strlen(body), sig, sizeof(sig));
	hdrs = curl_slist_append(hdrs, "Content-Type: application/json");
	snprintf(line, sizeof(line), "webhook-id: %s", m->id);
	hdrs = curl_slist_append(hdrs, line);
	snprintf(line, sizeof(line), "webhook-timestamp: %lld", ts);
	hdrs = curl_slist_append(hdrs, line);
	snprintf(line, sizeof(line), "webhook-signature: %s", sig);
	hdrs = curl_slist_append(hdrs, line);
	hdrs = curl_slist_append(hdrs, "User-Agent: turnpost/" PACKAGE_VERSION);
	hdrs = curl_slist_append(hdrs, "Expect:");
	request(n, m, "POST", url ? url : "", hdrs, body, now, res, NULL);
done:
	curl_slist_free_all(hdrs);
	free(body);
	if (key)
		sodium_memzero(key, klen);
	free(key);
}

void notify__chan_deliver(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res)
{
	/* metric: the transport's name in /metrics (a destination's webhook is not the mail webhook) */
	static const struct {
		const char *kind, *metric;
		void (*fn)(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res);
	} kinds[] = {
		{ "discord", "discord", deliver_discord }, { "slack", "slack", deliver_slack },
		{ "matrix", "matrix", deliver_matrix },    { "ntfy", "ntfy", deliver_ntfy },
		{ "webhook", "user_webhook", deliver_webhook },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].kind, m->chan->kind) == 0) {
			kinds[i].fn(n, m, now, res);
			res->transport = kinds[i].metric;
			return;
		}
	snprintf(res->error, sizeof(res->error), "no transport for chat kind %s", m->chan->kind);
	res->permanent = 1;
}
