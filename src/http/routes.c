/* http/routes.c: the route table and its matcher */
/* SPDX-License-Identifier: MIT */
#include "http/routes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/manage.h"

#include "http/api.h"
#include "http/api_channel.h"
#include "http/api_game.h"
#include "http/api_games.h"
#include "http/api_inbound.h"
#include "http/api_feeds.h"
#include "http/api_me.h"
#include "http/api_move.h"
#include "http/api_public.h"
#include "http/api_push.h"
#include "http/api_story.h"
#include "http/api_token.h"
#include "http/console_act.h"
#include "http/console_api.h"
#include "http/console_form.h"
#include "http/console_game.h"
#include "http/console_web.h"
#include "http/form.h"
#include "http/web.h"
#include "http/web_account.h"
#include "http/web_channel.h"
#include "http/web_chat.h"
#include "http/web_feeds.h"
#include "http/web_game.h"
#include "http/web_home.h"
#include "http/web_join.h"
#include "http/web_move.h"
#include "http/web_new_game.h"
#include "http/web_push.h"
#include "http/web_signin.h"
#include "http/web_story.h"
#include "http/web_unsubscribe.h"
#include "util/banned.h"

const struct route routes[] = {
	{ "GET", "/healthz", api_public_healthz, ROUTE_PUBLIC,
	  "liveness and status: ok or degraded (notifications dead-lettered or failing), 503 when the database does not answer" },
	{ "GET", "/readyz", api_public_readyz, ROUTE_PUBLIC, "readiness: 200 when requests can be served, else 503" },
	{ "GET", "/metrics", api_public_metrics, ROUTE_PUBLIC | ROUTE_OWN_SECRET,
	  "counters in Prometheus text format (--metrics-allow, --metrics-token)" },
	{ "GET", "/api/v1/catalog", api_public_catalog, ROUTE_PUBLIC, "the hosted games, player counts and options" },
	{ "GET", "/api/v1/me", api_me_get, ROUTE_AUTH, "who this token belongs to" },
	{ "GET", "/api/v1/me/preferences", api_me_prefs_get, ROUTE_AUTH | ROUTE_ACCOUNT,
	  "which notifications you get, and how" },
	{ "PUT", "/api/v1/me/preferences", api_me_prefs_put, ROUTE_AUTH | ROUTE_ACCOUNT | ROUTE_JSON,
	  "change your notification preferences" },
	{ "GET", "/api/v1/me/vacation", api_me_vacation_get, ROUTE_AUTH | ROUTE_ACCOUNT,
	  "your vacation and what is left of the allowance" },
	{ "POST", "/api/v1/me/vacation", api_me_vacation_post, ROUTE_AUTH | ROUTE_ACCOUNT | ROUTE_JSON,
	  "start or end a vacation" },
	{ "GET", "/api/v1/me/feed-token", api_feeds_token_get, ROUTE_AUTH | ROUTE_ACCOUNT,
	  "whether you have a feed token, and since when (never the token)" },
	{ "POST", "/api/v1/me/feed-token", api_feeds_token_post, ROUTE_AUTH | ROUTE_ACCOUNT,
	  "a new private feed token and its links, replacing the one before" },
	{ "DELETE", "/api/v1/me/feed-token", api_feeds_token_delete, ROUTE_AUTH | ROUTE_ACCOUNT,
	  "revoke your feed token: its feeds answer 404" },
	{ "GET", "/feeds/{token}/games.atom", web_feeds_atom, ROUTE_PUBLIC,
	  "a feed token's Atom feed: games waiting for its account, and finished games" },
	{ "GET", "/feeds/{token}/deadlines.ics", web_feeds_ics, ROUTE_PUBLIC,
	  "a feed token's calendar of its account's turn deadlines (iCalendar)" },
	{ "GET", "/api/v1/me/push-subscriptions", api_push_list, ROUTE_AUTH | ROUTE_ACCOUNT,
	  "the key to subscribe a browser with, and your browsers that get notifications" },
	{ "POST", "/api/v1/me/push-subscriptions", api_push_add, ROUTE_AUTH | ROUTE_ACCOUNT | ROUTE_JSON,
	  "notify a browser too (its PushSubscription)" },
	{ "DELETE", "/api/v1/me/push-subscriptions/{id}", api_push_remove, ROUTE_AUTH | ROUTE_ACCOUNT,
	  "stop notifying one of your browsers" },
	{ "GET", "/api/v1/admin/outbox", console_api_outbox, ROUTE_ADMIN, "notifications by state (?state=dead)" },
	{ "POST", "/api/v1/admin/outbox/{id}/resend", console_act_outbox_resend,
	  ROUTE_ADMIN | ROUTE_JSON | ROUTE_JSON_OPTIONAL | ROUTE_REASON_OPTIONAL, "deliver a dead notification again" },
	{ "POST", "/api/v1/inbound/email", api_inbound_email, ROUTE_PUBLIC | ROUTE_BODY | ROUTE_INBOUND,
	  "a reply to a notification: its move lines are played (shared secret; docs/email.md)" },
	{ "POST", "/api/v1/tokens", api_token_create, ROUTE_AUTH | ROUTE_ACCOUNT | ROUTE_JSON | ROUTE_JSON_OPTIONAL,
	  "a new API token for yourself" },
	{ "DELETE", "/api/v1/tokens/current", api_token_revoke_current, ROUTE_AUTH, "revoke the token in use" },
	{ "DELETE", "/api/v1/tokens/{id}", api_token_revoke, ROUTE_ADMIN | ROUTE_REASON_OPTIONAL,
	  "revoke any token (admins)" },
	{ "GET", "/api/v1/games", api_games_list, ROUTE_AUTH, "your games (admins: all)" },
	{ "POST", "/api/v1/games", api_games_create, ROUTE_AUTH | ROUTE_ACCOUNT | ROUTE_JSON, "create a game" },
	{ "GET", "/api/v1/games/{id}", api_game_get, ROUTE_AUTH | ROUTE_SEAT, "a game: status, seats, your view" },
	{ "GET", "/api/v1/games/{id}/legal", api_game_legal, ROUTE_AUTH | ROUTE_SEAT | ROUTE_PLAYER,
	  "your legal steps now" },
	{ "GET", "/api/v1/games/{id}/moves", api_game_moves, ROUTE_AUTH | ROUTE_SEAT, "the steps made so far" },
	{ "GET", "/api/v1/games/{id}/log", api_story_log, ROUTE_AUTH | ROUTE_SEAT | ROUTE_PLAYER,
	  "the story so far in words, as you may see it" },
	{ "GET", "/api/v1/games/{id}/channels/{token}", api_channel_game_get, ROUTE_AUTH | ROUTE_ACCOUNT,
	  "a game's chat channel (discord, slack, matrix): its kind and hint; the creator or an admin" },
	{ "PUT", "/api/v1/games/{id}/channels/{token}", api_channel_game_put, ROUTE_AUTH | ROUTE_ACCOUNT | ROUTE_JSON,
	  "attach or replace a game's chat channel; the creator or an admin" },
	{ "DELETE", "/api/v1/games/{id}/channels/{token}", api_channel_game_delete, ROUTE_AUTH | ROUTE_ACCOUNT,
	  "remove a game's chat channel; the creator or an admin" },
	{ "GET", "/api/v1/me/destinations", api_channel_me_list, ROUTE_AUTH | ROUTE_ACCOUNT,
	  "your own chat destinations (hints only)" },
	{ "POST", "/api/v1/me/destinations", api_channel_me_add, ROUTE_AUTH | ROUTE_ACCOUNT | ROUTE_JSON,
	  "add a destination: discord, slack, matrix, ntfy or webhook, and its events" },
	{ "PUT", "/api/v1/me/destinations/{id}", api_channel_me_put, ROUTE_AUTH | ROUTE_ACCOUNT | ROUTE_JSON,
	  "choose which events a destination gets" },
	{ "DELETE", "/api/v1/me/destinations/{id}", api_channel_me_delete, ROUTE_AUTH | ROUTE_ACCOUNT,
	  "remove one of your destinations" },
	{ "POST", "/api/v1/games/{id}/moves", api_move_post,
	  ROUTE_AUTH | ROUTE_JSON | ROUTE_TEXT | ROUTE_SEAT | ROUTE_PLAYER, "make steps, all or nothing" },
	{ "GET", "/", web_home_show, ROUTE_WEB, "home: your games, those waiting for you first" },
	{ "GET", "/static/{token}", web_static, ROUTE_PUBLIC, "the stylesheet and script" },
	{ "GET", "/signin", web_signin_form, ROUTE_WEB, "ask for a sign-in link" },
	{ "POST", "/signin", web_signin_send, ROUTE_WEB, "email a sign-in link" },
	{ "GET", "/signin/{token}", web_signin_confirm, ROUTE_WEB, "confirm a sign-in link" },
	{ "POST", "/signin/{token}", web_signin_use, ROUTE_WEB, "use a sign-in link" },
	{ "GET", "/s/{token}", web_signin_seat_link, ROUTE_WEB,
	  "a notification's seat link: a session for that seat (asks first when signed in as someone else)" },
	{ "POST", "/s/{token}", web_signin_seat_switch, ROUTE_WEB, "switch this browser to a seat link's player" },
	{ "POST", "/signout", web_signin_out, ROUTE_WEB, "sign out" },
	{ "GET", "/unsubscribe/{token}", web_unsubscribe_show, ROUTE_PUBLIC,
	  "an email's unsubscribe link: that kind of email, on or off, and a button to change it" },
	{ "POST", "/unsubscribe/{token}", web_unsubscribe_post, ROUTE_PUBLIC | ROUTE_BODY,
	  "one-click unsubscribe (RFC 8058), or the page's undo: no sign-in, the signed link is enough" },
	{ "GET", "/account", web_account_show, ROUTE_WEB | ROUTE_USER, "name and notification preferences" },
	{ "POST", "/account", web_account_save, ROUTE_WEB | ROUTE_USER, "save the account" },
	{ "POST", "/account/chat-ids", web_channel_ids_post, ROUTE_WEB | ROUTE_USER,
	  "save your ids in the chat apps, to be mentioned" },
	{ "POST", "/account/destinations", web_channel_dest_add, ROUTE_WEB | ROUTE_USER,
	  "add one of your own chat destinations" },
	{ "POST", "/account/destinations/{id}/remove", web_channel_dest_remove, ROUTE_WEB | ROUTE_USER,
	  "remove one of your own chat destinations" },
	{ "POST", "/account/feed-token", web_feeds_token_post, ROUTE_WEB | ROUTE_USER,
	  "new private feed links (shown once), or with action=revoke revoke them" },
	{ "GET", "/account/email/{token}", web_account_email_confirm, ROUTE_WEB | ROUTE_USER,
	  "the link sent to a new address: a page that confirms it" },
	{ "POST", "/account/email/{token}", web_account_email_use, ROUTE_WEB | ROUTE_USER,
	  "make the confirmed address the account's" },
	{ "POST", "/account/push", web_push_add, ROUTE_WEB | ROUTE_USER,
	  "notify this browser too (the account page's script posts its subscription)" },
	{ "POST", "/account/push/{id}/remove", web_push_remove, ROUTE_WEB | ROUTE_USER, "stop notifying a browser" },
	{ "GET", "/sw.js", web_push_worker, ROUTE_PUBLIC, "the service worker that shows notifications" },
	{ "GET", "/games/new", web_new_game_form, ROUTE_WEB | ROUTE_USER, "choose a game and invite players" },
	{ "POST", "/games/new", web_new_game_create, ROUTE_WEB | ROUTE_USER, "create a game" },
	{ "GET", "/games/{id}", web_game_show, ROUTE_WEB | ROUTE_USER | ROUTE_SEAT_LINK,
	  "the game page: board, turn, legal steps, chat" },
	{ "POST", "/games/{id}/move", web_move_post, ROUTE_WEB | ROUTE_USER | ROUTE_SEAT | ROUTE_PLAYER | ROUTE_SEAT_LINK,
	  "make steps from the game page" },
	{ "POST", "/games/{id}/chat", web_chat_post, ROUTE_WEB | ROUTE_USER | ROUTE_SEAT | ROUTE_PLAYER | ROUTE_SEAT_LINK,
	  "say something in the game's chat" },
	{ "POST", "/games/{id}/channels", web_channel_game_post, ROUTE_WEB | ROUTE_USER,
	  "attach, replace or remove a chat channel of the game (its creator or an admin)" },
	{ "POST", "/games/{id}/join", web_join_post, ROUTE_WEB | ROUTE_USER, "take an open seat" },
	{ "GET", "/games/{id}/steps", web_game_steps, ROUTE_WEB | ROUTE_USER | ROUTE_SEAT_LINK,
	  "every legal step as a button, when the game page has too many to show" },
	{ "GET", "/games/{id}/history", web_story_log, ROUTE_WEB | ROUTE_USER | ROUTE_SEAT | ROUTE_SEAT_LINK,
	  "the whole story in words, newest first, with who, when and the channel" },
	{ "GET", "/games/{id}/replay", web_story_replay, ROUTE_WEB | ROUTE_USER | ROUTE_SEAT_LINK,
	  "the board at each step (?n=) in your view; anyone's once the game is over" },
	{ "POST", "/games/{id}/share", web_story_share_post,
	  ROUTE_WEB | ROUTE_USER | ROUTE_SEAT | ROUTE_PLAYER | ROUTE_SEAT_LINK,
	  "allow (allow=1) or stop allowing (0) the game to be shown to anyone by its link" },
	{ "GET", "/games/{id}/watch", web_story_watch, ROUTE_WEB,
	  "a finished game's replay for anyone, once all its players allow it" },
	{ "GET", "/api/v1/admin/games/{id}/export", console_api_export, ROUTE_ADMIN, "a game's replay file" },
	{ "POST", "/api/v1/admin/games/{id}/verify", console_act_verify,
	  ROUTE_ADMIN | ROUTE_JSON | ROUTE_JSON_OPTIONAL | ROUTE_REASON_OPTIONAL,
	  "replay a game and compare every snapshot" },
	/* the admin console (docs/admin.md): JSON under /api/v1/admin/, pages under /admin */
	{ "GET", "/api/v1/admin/games", console_api_games, ROUTE_ADMIN,
	  "games by ?game=, ?status=, ?email=, ?waiting_days=, ?dead=1" },
	{ "POST", "/api/v1/admin/games/import", console_act_import,
	  ROUTE_ADMIN | ROUTE_JSON | ROUTE_UPLOAD | ROUTE_REASON, "create a game from a replay file" },
	{ "GET", "/api/v1/admin/games/{id}", console_api_game, ROUTE_ADMIN,
	  "a game with emails, clocks, tokens, notifications and chat" },
	{ "GET", "/api/v1/admin/games/{id}/timeline", console_api_timeline, ROUTE_ADMIN,
	  "every step with seat, player, channel, time and client address" },
	{ "GET", "/api/v1/admin/games/{id}/position", console_api_position, ROUTE_ADMIN,
	  "the position after step ?n= (0: the set-up)" },
	{ "GET", "/api/v1/admin/games/{id}/diff", console_api_diff, ROUTE_ADMIN,
	  "what changed in the view from step ?from= to ?to=" },
	{ "GET", "/api/v1/admin/games/{id}/notifications", console_api_notifications, ROUTE_ADMIN,
	  "a game's notifications and their delivery state" },
	{ "GET", "/api/v1/admin/games/{id}/chat", console_api_chat, ROUTE_ADMIN, "a game's chat" },
	{ "POST", "/api/v1/admin/games/{id}/rollback", console_act_rollback, ROUTE_ADMIN | ROUTE_JSON | ROUTE_REASON,
	  "roll back to an earlier step" },
	{ "POST", "/api/v1/admin/games/{id}/seat", console_act_seat, ROUTE_ADMIN | ROUTE_JSON | ROUTE_REASON,
	  "give a seat another player or email" },
	{ "POST", "/api/v1/admin/games/{id}/drop", console_act_drop, ROUTE_ADMIN | ROUTE_JSON | ROUTE_REASON,
	  "drop a player: the bot plays the seat" },
	{ "POST", "/api/v1/admin/games/{id}/extend", console_act_extend, ROUTE_ADMIN | ROUTE_JSON | ROUTE_REASON,
	  "extend a seat's deadline" },
	{ "POST", "/api/v1/admin/games/{id}/abort", console_act_abort, ROUTE_ADMIN | ROUTE_JSON | ROUTE_REASON,
	  "abort a game" },
	{ "POST", "/api/v1/admin/notifications/{id}/resend", console_act_resend,
	  ROUTE_ADMIN | ROUTE_JSON | ROUTE_REASON, "deliver a dead notification again, with a reason" },
	{ "POST", "/api/v1/admin/tokens/{id}/revoke", console_act_revoke, ROUTE_ADMIN | ROUTE_JSON | ROUTE_REASON,
	  "revoke any token, with a reason" },
	{ "GET", "/api/v1/admin/audit", console_api_audit, ROUTE_ADMIN, "the audit log by ?game=, ?action=, ?actor=" },
	{ "GET", "/admin", console_web_index, ROUTE_WEB | ROUTE_ADMIN, "admin: games with filters, import" },
	{ "GET", "/admin/audit", console_web_audit, ROUTE_WEB | ROUTE_ADMIN, "admin: the audit log with filters" },
	{ "POST", "/admin/import", console_form_import, ROUTE_WEB | ROUTE_ADMIN | ROUTE_UPLOAD | ROUTE_REASON,
	  "admin: import a replay file" },
	{ "POST", "/admin/tokens/revoke", console_form_revoke, ROUTE_WEB | ROUTE_ADMIN | ROUTE_REASON,
	  "admin: revoke a token" },
	{ "POST", "/admin/notifications/{id}/resend", console_form_resend, ROUTE_WEB | ROUTE_ADMIN | ROUTE_REASON,
	  "admin: deliver a dead notification again" },
	{ "GET", "/admin/games/{id}", console_game_show, ROUTE_WEB | ROUTE_ADMIN,
	  "admin: a game's seats, timeline, notifications, chat and actions" },
	{ "GET", "/admin/games/{id}/step", console_game_step, ROUTE_WEB | ROUTE_ADMIN,
	  "admin: the board at step ?n=, and the diff to step ?diff=" },
	{ "GET", "/admin/games/{id}/export", console_game_export, ROUTE_WEB | ROUTE_ADMIN,
	  "admin: download the replay file" },
	{ "POST", "/admin/games/{id}/verify", console_form_verify, ROUTE_WEB | ROUTE_ADMIN | ROUTE_REASON_OPTIONAL,
	  "admin: verify a game" },
	{ "POST", "/admin/games/{id}/rollback", console_form_rollback, ROUTE_WEB | ROUTE_ADMIN | ROUTE_REASON,
	  "admin: roll back" },
	{ "POST", "/admin/games/{id}/seat", console_form_seat, ROUTE_WEB | ROUTE_ADMIN | ROUTE_REASON,
	  "admin: replace a seat's player" },
	{ "POST", "/admin/games/{id}/drop", console_form_drop, ROUTE_WEB | ROUTE_ADMIN | ROUTE_REASON,
	  "admin: drop a player" },
	{ "POST", "/admin/games/{id}/extend", console_form_extend, ROUTE_WEB | ROUTE_ADMIN | ROUTE_REASON,
	  "admin: extend a deadline" },
	{ "POST", "/admin/games/{id}/abort", console_form_abort, ROUTE_WEB | ROUTE_ADMIN | ROUTE_REASON,
	  "admin: abort a game" },
	{ NULL, NULL, NULL, 0, NULL }
};

/* ---- what the declarations mean: done once here, before the handler ---- */

/* application/json or application/SOMETHING+json, with or without parameters. */
static int json_media_type(const char *ctype)
{
	size_t n = strcspn(ctype, "; \t");

	if (n == 16 && strncasecmp(ctype, "application/json", 16) == 0)
		return 1;
	return n > 17 && strncasecmp(ctype, "application/", 12) == 0 && strncasecmp(ctype + n - 5, "+json", 5) == 0;
}

/* The problem answered for every ROUTE_JSON route whose body is not a JSON object. */
static int json_body(struct http_request *rq, struct http_reply *r, unsigned flags)
{
	const char *ctype = http_header(rq, "Content-Type");
	json_error_t jerr;
	char detail[256];

	if ((flags & ROUTE_TEXT) && ctype && strncmp(ctype, "text/plain", 10) == 0)
		return 0;
	/* a body sent as something else than JSON (a form, say) is refused before it is read as JSON */
	if (rq->body.len && ctype && !json_media_type(ctype)) {
		snprintf(detail, sizeof(detail), "the body must be sent as application/json%s, not %.80s",
			 (flags & ROUTE_TEXT) ? " (or text/plain, one step per line)" : "", ctype);
		http_reply_problem(r, ERR_UNSUPPORTED, "unsupported_media_type", detail, NULL);
		return -1;
	}
	if (!rq->body.len) {
		if (flags & ROUTE_JSON_OPTIONAL)
			return 0;
		http_reply_problem(r, ERR_INPUT, "empty_body", "this needs a JSON object in the request body", NULL);
		return -1;
	}
	rq->json = json_loadb(rq->body.data, rq->body.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!rq->json) {
		snprintf(detail, sizeof(detail), "the body is not valid JSON: %s at line %d column %d", jerr.text,
			 jerr.line, jerr.column);
		http_reply_problem(r, ERR_INPUT, "malformed_json", detail, NULL);
		return -1;
	}
	if (!json_is_object(rq->json)) {
		http_reply_problem(r, ERR_INPUT, "malformed_json", "the body must be a JSON object", NULL);
		return -1;
	}
	return 0;
}

/* The reason of an admin action: the form's field, the JSON body's "reason", else ?reason=. */
static int reason(struct http_request *rq, struct http_reply *r, unsigned flags)
{
	struct err e = {0};
	const char *text;
	int rc;

	if (flags & ROUTE_WEB)
		text = form_get(rq->form, "reason");
	else if (rq->json)
		text = json_string_value(json_object_get(rq->json, "reason"));
	else
		text = http_query(rq, "reason");
	if ((rc = actor_reason_check(text, (flags & ROUTE_REASON) != 0, &e)) < 0) {
		if (flags & ROUTE_WEB)
			web_error_page(rq, r, http_status_for(rc), e.msg);
		else
			http_reply_problem(r, rc, "bad_reason", e.msg, NULL);
		return -1;
	}
	rq->reason = text && *text ? text : NULL;
	return 0;
}

/* The caller's seat in game ids[0] (ROUTE_SEAT), refused as the flags say. */
static int seat(const struct route *rt, struct http_request *rq, struct http_reply *r)
{
	int wanted = -1;

	if (rt->flags & ROUTE_WEB) {
		rq->seat = web_seat(rq, rq->ids[0], &rq->held);
		if (rq->seat >= 0)
			return 0;
		if (rt->flags & ROUTE_PLAYER) {
			web_error_page(rq, r, 403, "Only the players of this game can do this.");
			return -1;
		}
		if (!rq->sess.is_admin) {
			web_error_page(rq, r, 403, "Only the players of this game can see this.");
			return -1;
		}
		return 0;
	}
	if (json_is_integer(json_object_get(rq->json, "seat")))
		wanted = (int)json_integer_value(json_object_get(rq->json, "seat"));
	else if (api_seat_query(rq, r, &wanted) < 0)
		return -1;
	if (api_seat_resolve(rq, r, rq->ids[0], wanted, &rq->seat, &rq->with_emails) < 0)
		return -1;
	if ((rt->flags & ROUTE_PLAYER) && rq->seat < 0) {
		http_reply_problem(r, ERR_FORBIDDEN, "not_a_player", "you hold no seat in this game", NULL);
		return -1;
	}
	return 0;
}

int routes_prepare(const struct route *rt, struct http_request *rq, struct http_reply *r)
{
	unsigned f = rt->flags;

	rq->seat = -1;
	/* a seat link's session is signed in on its own game's pages only (docs/security.md) */
	if (rq->sess.only_game && (f & ROUTE_SEAT_LINK) && rq->nids > 0 && rq->ids[0] == rq->sess.only_game)
		rq->sess.user_id = rq->sess.link_user;
	if ((f & ROUTE_USER) && !rq->sess.user_id) {
		http_reply_redirect(r, "/signin");
		return -1;
	}
	if ((f & ROUTE_ACCOUNT) && (rq->auth.kind == TOKEN_SEAT || !rq->auth.user_id)) {
		http_reply_problem(r, ERR_FORBIDDEN, "account_token_needed",
				   "this needs your account token, not a seat token", NULL);
		return -1;
	}
	if ((f & ROUTE_JSON) && json_body(rq, r, f) < 0)
		return -1;
	if ((f & (ROUTE_REASON | ROUTE_REASON_OPTIONAL)) && reason(rq, r, f) < 0)
		return -1;
	if ((f & ROUTE_SEAT) && seat(rt, rq, r) < 0)
		return -1;
	return 0;
}

static int match(const char *pattern, const char *path, int64_t ids[2], int *nids, char param[96])
{
	*nids = 0;
	param[0] = '\0';
	while (*pattern && *path) {
		if (*pattern != '{') {
			/* the common case first: a literal character of the pattern */
			if (*pattern != *path)
				return 0;
			pattern++;
			path++;
			continue;
		}
		if (strncmp(pattern, "{token}", 7) == 0) {
			size_t n = 0;
			while ((path[n] >= 'a' && path[n] <= 'z') || (path[n] >= 'A' && path[n] <= 'Z') ||
			       (path[n] >= '0' && path[n] <= '9') || path[n] == '-' || path[n] == '_' ||
			       (path[n] == '.' && n > 0))
				n++;
			if (n == 0 || n >= 96)
				return 0;
			memcpy(param, path, n);
			param[n] = '\0';
			pattern += 7;
			path += n;
			continue;
		}
		if (strncmp(pattern, "{id}", 4) == 0) {
			char *end;
			long long v;

			if (*path < '1' || *path > '9')
				return 0;
			v = strtoll(path, &end, 10);
			if (v <= 0 || *nids >= 2)
				return 0;
			ids[(*nids)++] = v;
			pattern += 4;
			path = end;
			continue;
		}
		if (*pattern != *path)
			return 0;
		pattern++;
		path++;
	}
	/* a trailing slash is tolerated */
	if (*path == '/' && path[1] == '\0')
		path++;
	return !*pattern && !*path;
}

const struct route *routes_match(const char *method, const char *path, struct http_request *rq,
				 int *path_known)
{
	int64_t ids[2];
	char param[96];
	int nids;

	*path_known = 0;
	for (const struct route *r = routes; r->method; r++) {
		if (!match(r->pattern, path, ids, &nids, param))
			continue;
		if (strcmp(r->method, method) != 0 &&
		    !(strcmp(method, "HEAD") == 0 && strcmp(r->method, "GET") == 0)) {
			*path_known = 1;
			continue;
		}
		memcpy(rq->ids, ids, sizeof(ids));
		rq->nids = nids;
		memcpy(rq->param, param, sizeof(param));
		return r;
	}
	return NULL;
}
