/* http/routes.c: the route table and its matcher */
/* SPDX-License-Identifier: MIT */
#include "http/routes.h"

#include <stdlib.h>
#include <string.h>

#include "http/api.h"
#include "util/banned.h"

const struct route routes[] = {
	{ "GET", "/healthz", api_healthz, ROUTE_PUBLIC, "liveness: 200 when the database answers" },
	{ "GET", "/metrics", api_metrics, ROUTE_PUBLIC, "counters in Prometheus text format" },
	{ "GET", "/api/v1/catalog", api_catalog, ROUTE_PUBLIC, "the hosted games, player counts and options" },
	{ "GET", "/api/v1/me", api_me, ROUTE_AUTH, "who this token belongs to" },
	{ "POST", "/api/v1/tokens", api_token_create, ROUTE_AUTH | ROUTE_BODY, "a new API token for yourself" },
	{ "DELETE", "/api/v1/tokens/current", api_token_revoke_current, ROUTE_AUTH, "revoke the token in use" },
	{ "DELETE", "/api/v1/tokens/{id}", api_token_revoke, ROUTE_ADMIN, "revoke any token (admins)" },
	{ "GET", "/api/v1/games", api_games_list, ROUTE_AUTH, "your games (admins: all)" },
	{ "POST", "/api/v1/games", api_games_create, ROUTE_AUTH | ROUTE_BODY, "create a game" },
	{ "GET", "/api/v1/games/{id}", api_game_get, ROUTE_AUTH, "a game: status, seats, your view" },
	{ "GET", "/api/v1/games/{id}/legal", api_game_legal, ROUTE_AUTH, "your legal steps now" },
	{ "GET", "/api/v1/games/{id}/moves", api_game_moves, ROUTE_AUTH, "the steps made so far" },
	{ "POST", "/api/v1/games/{id}/moves", api_game_move, ROUTE_AUTH | ROUTE_BODY, "make steps, all or nothing" },
	{ "GET", "/api/v1/admin/games/{id}/export", api_admin_export, ROUTE_ADMIN, "a game's replay file" },
	{ "POST", "/api/v1/admin/games/{id}/verify", api_admin_verify, ROUTE_ADMIN,
	  "replay a game and compare every snapshot" },
	{ NULL, NULL, NULL, 0, NULL }
};

static int match(const char *pattern, const char *path, int64_t ids[2], int *nids)
{
	*nids = 0;
	while (*pattern && *path) {
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
	int nids;

	*path_known = 0;
	for (const struct route *r = routes; r->method; r++) {
		if (!match(r->pattern, path, ids, &nids))
			continue;
		if (strcmp(r->method, method) != 0 &&
		    !(strcmp(method, "HEAD") == 0 && strcmp(r->method, "GET") == 0)) {
			*path_known = 1;
			continue;
		}
		memcpy(rq->ids, ids, sizeof(ids));
		rq->nids = nids;
		return r;
	}
	return NULL;
}
