/* http/api.c: the JSON API's shared parts: bodies, errors, names, entity tags, the caller's seat */
/* SPDX-License-Identifier: MIT */
#include "http/api.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/views.h"
#include "util/banned.h"


void api_reply_err(struct http_reply *r, int rc, const struct err *e)
{
	http_reply_problem(r, rc, NULL, e->msg, NULL);
}

void api_reply_result(struct http_reply *r, int rc, const struct err *e, json_t *res)
{
	if (rc < 0)
		api_reply_err(r, rc, e);
	else
		http_reply_json(r, 200, res);
}

/*
 * Which seat of game id the caller acts as: a seat token's own seat; for an
 * account token the seat given by ?seat= or the body, else the user's only
 * seat. Admins without a seat see as spectators (-1). Replies and returns <0
 * when the caller has no business with this game.
 */
int api_seat_resolve(struct http_request *rq, struct http_reply *r, int64_t id, int wanted, int *seat,
			int *with_emails)
{
	struct store_game g;
	struct store_seat *seats = NULL;
	struct err e = {0};
	int nseats = 0, rc, found = -1, owned = 0;

	*seat = -1;
	*with_emails = 0;
	/*
	 * A seat token of this very game needs no lookup here (it is on every
	 * move's path twice): each caller reads the game next, and answers 404
	 * from there when it is gone.
	 */
	if (rq->auth.kind == TOKEN_SEAT && rq->auth.game_id == id) {
		*seat = rq->auth.seat;
		*with_emails = VIEWS_EMAILS_IF_SHARED;
		return 0;
	}
	if ((rc = views_game_info(http_store(rq), id, &g, &seats, &nseats, &e)) < 0) {
		api_reply_err(r, rc, &e);
		goto done;
	}
	if (rq->auth.kind == TOKEN_SEAT) {
		if (rq->auth.game_id != id) {
			rc = ERR_FORBIDDEN;
			http_reply_problem(r, rc, "wrong_game", "this seat token belongs to another game", NULL);
			goto done;
		}
		*seat = rq->auth.seat;
		*with_emails = VIEWS_EMAILS_IF_SHARED;
		rc = 0;
		goto done;
	}
	for (int i = 0; i < nseats; i++) {
		if (!rq->auth.user_id || seats[i].user_id != rq->auth.user_id)
			continue;
		owned++;
		if (wanted < 0 ? found < 0 : seats[i].seat == wanted)
			found = seats[i].seat;
	}
	if (wanted >= 0 && found < 0 && !rq->auth.is_admin) {
		rc = ERR_FORBIDDEN;
		http_reply_problem(r, rc, "not_your_seat", "you do not hold that seat in this game", NULL);
		goto done;
	}
	if (found < 0 && !rq->auth.is_admin) {
		rc = ERR_FORBIDDEN;
		http_reply_problem(r, rc, "not_a_player", "you are not a player in this game", NULL);
		goto done;
	}
	(void)owned;
	*seat = found;
	/* players see each other's addresses only when the creator chose so; admins and the creator always */
	*with_emails = rq->auth.is_admin || (g.created_by && g.created_by == rq->auth.user_id) ? VIEWS_EMAILS_ALL
												: VIEWS_EMAILS_IF_SHARED;
	rc = 0;
done:
	views_game_info_release(&g, seats, nseats);
	return rc;
}

int api_seat_query(struct http_request *rq, struct http_reply *r, int *wanted)
{
	const char *q = http_query(rq, "seat");
	char *end;
	long v;

	*wanted = -1;
	if (!q)
		return 0;
	v = strtol(q, &end, 10);
	if (!*q || *end || v < 0 || v >= GAME_MAX_SEATS) {
		http_reply_problem(r, ERR_INPUT, "bad_seat", "?seat= must be a seat number such as 0", NULL);
		return -1;
	}
	*wanted = (int)v;
	return 0;
}

/* Parse an entity tag "N" (also W/"N" or bare N); -1 when it is not one. */
int api_parse_etag(const char *v)
{
	char *end;
	long n;

	while (*v == ' ')
		v++;
	if (strncmp(v, "W/", 2) == 0)
		v += 2;
	if (*v == '"')
		v++;
	if (!isdigit((unsigned char)*v))
		return -1;
	n = strtol(v, &end, 10);
	if (*end == '"')
		end++;
	while (*end == ' ')
		end++;
	return *end || n < 0 || n > 1000000000 ? -1 : (int)n;
}

