/* http/routes.c: the route table and its matcher */
/* SPDX-License-Identifier: MIT */
#include "http/routes.h"

#include <stdlib.h>
#include <string.h>

#include "http/admin.h"
#include "http/api.h"
#include "http/inbound.h"
#include "http/web.h"
#include "util/banned.h"

const struct route routes[] = {
	{ "GET", "/healthz", api_healthz, ROUTE_PUBLIC, "liveness: 200 when the database answers" },
	{ "GET", "/metrics", api_metrics, ROUTE_PUBLIC, "counters in Prometheus text format" },
	{ "GET", "/api/v1/catalog", api_catalog, ROUTE_PUBLIC, "the hosted games, player counts and options" },
	{ "GET", "/api/v1/me", api_me, ROUTE_AUTH, "who this token belongs to" },
	{ "GET", "/api/v1/me/preferences", api_prefs_get, ROUTE_AUTH, "which notifications you get, and how" },
	{ "PUT", "/api/v1/me/preferences", api_prefs_put, ROUTE_AUTH | ROUTE_BODY, "change your notification preferences" },
	{ "GET", "/api/v1/me/vacation", api_vacation_get, ROUTE_AUTH, "your vacation and what is left of the allowance" },
	{ "POST", "/api/v1/me/vacation", api_vacation_post, ROUTE_AUTH | ROUTE_BODY, "start or end a vacation" },
	{ "GET", "/api/v1/admin/outbox", api_admin_outbox, ROUTE_ADMIN, "notifications by state (?state=dead)" },
	{ "POST", "/api/v1/admin/outbox/{id}/resend", api_admin_outbox_resend, ROUTE_ADMIN,
	  "deliver a dead notification again" },
	{ "POST", "/api/v1/inbound/email", inbound_email, ROUTE_PUBLIC | ROUTE_BODY | ROUTE_INBOUND,
	  "a reply to a notification: its move lines are played (shared secret; docs/email.md)" },
	{ "POST", "/api/v1/tokens", api_token_create, ROUTE_AUTH | ROUTE_BODY, "a new API token for yourself" },
	{ "DELETE", "/api/v1/tokens/current", api_token_revoke_current, ROUTE_AUTH, "revoke the token in use" },
	{ "DELETE", "/api/v1/tokens/{id}", api_token_revoke, ROUTE_ADMIN, "revoke any token (admins)" },
	{ "GET", "/api/v1/games", api_games_list, ROUTE_AUTH, "your games (admins: all)" },
	{ "POST", "/api/v1/games", api_games_create, ROUTE_AUTH | ROUTE_BODY, "create a game" },
	{ "GET", "/api/v1/games/{id}", api_game_get, ROUTE_AUTH, "a game: status, seats, your view" },
	{ "GET", "/api/v1/games/{id}/legal", api_game_legal, ROUTE_AUTH, "your legal steps now" },
	{ "GET", "/api/v1/games/{id}/moves", api_game_moves, ROUTE_AUTH, "the steps made so far" },
	{ "POST", "/api/v1/games/{id}/moves", api_game_move, ROUTE_AUTH | ROUTE_BODY, "make steps, all or nothing" },
	{ "GET", "/", web_home, ROUTE_WEB, "home: your games, those waiting for you first" },
	{ "GET", "/static/{token}", web_static, ROUTE_PUBLIC, "the stylesheet and script" },
	{ "GET", "/signin", web_signin_form, ROUTE_WEB, "ask for a sign-in link" },
	{ "POST", "/signin", web_signin_send, ROUTE_WEB, "email a sign-in link" },
	{ "GET", "/signin/{token}", web_signin_confirm, ROUTE_WEB, "confirm a sign-in link" },
	{ "POST", "/signin/{token}", web_signin_use, ROUTE_WEB, "use a sign-in link" },
	{ "GET", "/s/{token}", web_seat_link, ROUTE_WEB, "a notification's seat link: signs in to that seat" },
	{ "POST", "/signout", web_signout, ROUTE_WEB, "sign out" },
	{ "GET", "/account", web_account, ROUTE_WEB, "name and notification preferences" },
	{ "POST", "/account", web_account_save, ROUTE_WEB, "save the account" },
	{ "GET", "/games/new", web_new_game_form, ROUTE_WEB, "choose a game and invite players" },
	{ "POST", "/games/new", web_new_game, ROUTE_WEB, "create a game" },
	{ "GET", "/games/{id}", web_game, ROUTE_WEB, "the game page: board, turn, legal steps, chat" },
	{ "POST", "/games/{id}/move", web_game_move, ROUTE_WEB, "make steps from the game page" },
	{ "POST", "/games/{id}/chat", web_game_chat, ROUTE_WEB, "say something in the game's chat" },
	{ "POST", "/games/{id}/join", web_game_join, ROUTE_WEB, "take an open seat" },
	{ "GET", "/games/{id}/history", web_history, ROUTE_WEB, "every step with player and time" },
	{ "GET", "/api/v1/admin/games/{id}/export", api_admin_export, ROUTE_ADMIN, "a game's replay file" },
	{ "POST", "/api/v1/admin/games/{id}/verify", api_admin_verify, ROUTE_ADMIN,
	  "replay a game and compare every snapshot" },
	/* the admin console (docs/admin.md): JSON under /api/v1/admin/, pages under /admin */
	{ "GET", "/api/v1/admin/games", admin_api_games, ROUTE_ADMIN,
	  "games by ?game=, ?status=, ?email=, ?waiting_days=, ?dead=1" },
	{ "POST", "/api/v1/admin/games/import", admin_api_import, ROUTE_ADMIN | ROUTE_BODY | ROUTE_UPLOAD,
	  "create a game from a replay file" },
	{ "GET", "/api/v1/admin/games/{id}", admin_api_game, ROUTE_ADMIN,
	  "a game with emails, clocks, tokens, notifications and chat" },
	{ "GET", "/api/v1/admin/games/{id}/timeline", admin_api_timeline, ROUTE_ADMIN,
	  "every step with seat, player, channel, time and client address" },
	{ "GET", "/api/v1/admin/games/{id}/position", admin_api_position, ROUTE_ADMIN,
	  "the position after step ?n= (0: the set-up)" },
	{ "GET", "/api/v1/admin/games/{id}/diff", admin_api_diff, ROUTE_ADMIN,
	  "what changed in the view from step ?from= to ?to=" },
	{ "GET", "/api/v1/admin/games/{id}/notifications", admin_api_notifications, ROUTE_ADMIN,
	  "a game's notifications and their delivery state" },
	{ "GET", "/api/v1/admin/games/{id}/chat", admin_api_chat, ROUTE_ADMIN, "a game's chat" },
	{ "POST", "/api/v1/admin/games/{id}/rollback", admin_api_rollback, ROUTE_ADMIN | ROUTE_BODY,
	  "roll back to an earlier step" },
	{ "POST", "/api/v1/admin/games/{id}/seat", admin_api_seat, ROUTE_ADMIN | ROUTE_BODY,
	  "give a seat another player or email" },
	{ "POST", "/api/v1/admin/games/{id}/drop", admin_api_drop, ROUTE_ADMIN | ROUTE_BODY,
	  "drop a player: the bot plays the seat" },
	{ "POST", "/api/v1/admin/games/{id}/extend", admin_api_extend, ROUTE_ADMIN | ROUTE_BODY,
	  "extend a seat's deadline" },
	{ "POST", "/api/v1/admin/games/{id}/abort", admin_api_abort, ROUTE_ADMIN | ROUTE_BODY, "abort a game" },
	{ "POST", "/api/v1/admin/notifications/{id}/resend", admin_api_resend, ROUTE_ADMIN | ROUTE_BODY,
	  "deliver a dead notification again, with a reason" },
	{ "POST", "/api/v1/admin/tokens/{id}/revoke", admin_api_revoke, ROUTE_ADMIN | ROUTE_BODY,
	  "revoke any token, with a reason" },
	{ "GET", "/api/v1/admin/audit", admin_api_audit, ROUTE_ADMIN, "the audit log by ?game=, ?action=, ?actor=" },
	{ "GET", "/admin", admin_web_index, ROUTE_WEB | ROUTE_ADMIN, "admin: games with filters, import" },
	{ "GET", "/admin/audit", admin_web_audit, ROUTE_WEB | ROUTE_ADMIN, "admin: the audit log with filters" },
	{ "POST", "/admin/import", admin_web_import, ROUTE_WEB | ROUTE_ADMIN | ROUTE_UPLOAD,
	  "admin: import a replay file" },
	{ "POST", "/admin/tokens/revoke", admin_web_revoke, ROUTE_WEB | ROUTE_ADMIN, "admin: revoke a token" },
	{ "POST", "/admin/notifications/{id}/resend", admin_web_resend, ROUTE_WEB | ROUTE_ADMIN,
	  "admin: deliver a dead notification again" },
	{ "GET", "/admin/games/{id}", admin_web_game, ROUTE_WEB | ROUTE_ADMIN,
	  "admin: a game's seats, timeline, notifications, chat and actions" },
	{ "GET", "/admin/games/{id}/step", admin_web_step, ROUTE_WEB | ROUTE_ADMIN,
	  "admin: the board at step ?n=, and the diff to step ?diff=" },
	{ "GET", "/admin/games/{id}/export", admin_web_export, ROUTE_WEB | ROUTE_ADMIN, "admin: download the replay file" },
	{ "POST", "/admin/games/{id}/verify", admin_web_verify, ROUTE_WEB | ROUTE_ADMIN, "admin: verify a game" },
	{ "POST", "/admin/games/{id}/rollback", admin_web_rollback, ROUTE_WEB | ROUTE_ADMIN, "admin: roll back" },
	{ "POST", "/admin/games/{id}/seat", admin_web_seat, ROUTE_WEB | ROUTE_ADMIN, "admin: replace a seat's player" },
	{ "POST", "/admin/games/{id}/drop", admin_web_drop, ROUTE_WEB | ROUTE_ADMIN, "admin: drop a player" },
	{ "POST", "/admin/games/{id}/extend", admin_web_extend, ROUTE_WEB | ROUTE_ADMIN, "admin: extend a deadline" },
	{ "POST", "/admin/games/{id}/abort", admin_web_abort, ROUTE_WEB | ROUTE_ADMIN, "admin: abort a game" },
	{ NULL, NULL, NULL, 0, NULL }
};

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
