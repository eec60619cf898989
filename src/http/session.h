/* http/session.h: browser sessions (cookie), sign-in and CSRF tokens */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_SESSION_H
#define TURNPOST_HTTP_SESSION_H

#include "engine/tokens.h"
#include "http/http.h"

#define SESSION_COOKIE "tp_session"
#define CSRF_COOKIE "tp_csrf"

/*
 * Fill rq->sess from the session cookie (signed out when there is none or it
 * is not live) and work out the CSRF token forms must carry: derived from the
 * session token when signed in, else a random double-submit cookie.
 */
void session_load(struct http_request *rq);
/* Does the presented form token match (constant time)? */
int session_csrf_ok(const struct http_request *rq, const char *presented);
/* Start a session for user_id: a new session token, set as cookie. */
int session_start(struct http_request *rq, struct http_reply *r, int64_t user_id, struct err *err);
/*
 * Start a seat link's session for the seat of a live seat token: it plays
 * that one seat of that one game (docs/security.md), and lives as long as a
 * session or the seat token, whichever ends first.
 */
int session_start_seat(struct http_request *rq, struct http_reply *r, const struct tokens_holder *seat,
		       struct err *err);
/* Revoke the current session's token (a new session's cookie is about to replace it). */
void session_revoke(struct http_request *rq);
/* End the current session: revoke its token and clear the cookie. */
void session_end(struct http_request *rq, struct http_reply *r);
/* Send the CSRF cookie when session_load made a new one. */
void session_finish_reply(struct http_request *rq, struct http_reply *r);

#endif
