/* http/api.c: the JSON API v1 handlers (see docs/api.md) */
/* SPDX-License-Identifier: MIT */
#include "http/api.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/play.h"
#include "engine/play_admin.h"
#include "engine/registry.h"
#include "http/answers.h"
#include "http/metrics.h"
#include "notify/notify.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

#define MAX_NAME 80
#define MAX_EMAIL 254
#define MAX_IDEM_KEY 128
#define MAX_GAMES_LISTED 200

static void reply_err(struct http_reply *r, int rc, const struct err *e)
{
	http_reply_problem(r, rc, NULL, e->msg, NULL);
}

/* Parse the body as a JSON object; replies 400 and returns NULL when it is not one. */
static json_t *body_json(struct http_request *rq, struct http_reply *r)
{
	json_error_t jerr;
	json_t *v;

	if (!rq->body.len) {
		http_reply_problem(r, ERR_INPUT, "empty_body", "this needs a JSON object in the request body", NULL);
		return NULL;
	}
	v = json_loadb(rq->body.data, rq->body.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!v) {
		char detail[256];
		snprintf(detail, sizeof(detail), "the body is not valid JSON: %s at line %d column %d", jerr.text,
			 jerr.line, jerr.column);
		http_reply_problem(r, ERR_INPUT, "malformed_json", detail, NULL);
		return NULL;
	}
	if (!json_is_object(v)) {
		json_decref(v);
		http_reply_problem(r, ERR_INPUT, "malformed_json", "the body must be a JSON object", NULL);
		return NULL;
	}
	return v;
}

void api_healthz(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};

	if (store_ping(http_store(rq), &e) < 0) {
		http_reply_problem(r, ERR_STORE, "database_unavailable", e.msg, NULL);
		return;
	}
	http_reply_json(r, 200, json_pack("{s:s,s:i}", "status", "ok", "schema",
					  store_schema_version(http_store(rq))));
}

void api_metrics(struct http_request *rq, struct http_reply *r)
{
	r->status = 200;
	r->content_type = "text/plain; version=0.0.4";
	metrics_render(&r->body, http_store(rq));
}

void api_catalog(struct http_request *rq, struct http_reply *r)
{
	json_t *games = json_array();
	const struct game_ops *ops;

	(void)rq;
	for (size_t i = 0; (ops = registry_at(i)); i++) {
		json_t *g = json_object();
		json_object_set_new(g, "id", json_string(ops->id));
		json_object_set_new(g, "title", json_string(ops->title));
		json_object_set_new(g, "min_players", json_integer(ops->min_players));
		json_object_set_new(g, "max_players", json_integer(ops->max_players));
		json_object_set_new(g, "options", ops->options ? ops->options() : json_object());
		json_array_append_new(games, g);
	}
	http_reply_json(r, 200, json_pack("{s:o}", "games", games));
}

void api_me(struct http_request *rq, struct http_reply *r)
{
	const struct http_auth *a = &rq->auth;
	json_t *o = json_object();
	struct store_conn *c;
	struct err e = {0};

	json_object_set_new(o, "token_id", json_integer(a->token_id));
	json_object_set_new(o, "kind", json_string(a->kind == TOKEN_SEAT ? "seat" : "account"));
	json_object_set_new(o, "admin", json_boolean(a->is_admin));
	if (a->kind == TOKEN_SEAT) {
		json_object_set_new(o, "game", json_integer(a->game_id));
		json_object_set_new(o, "seat", json_integer(a->seat));
	}
	if (a->user_id && store_read_acquire(http_store(rq), &c, &e) == 0) {
		struct store_user u;
		if (store_user_by_id(c, a->user_id, &u, &e) == 0) {
			json_object_set_new(o, "user", json_pack("{s:I,s:s,s:s}", "id", (json_int_t)u.id, "email",
								 u.email, "name", u.name));
		}
		store_user_release(&u);
		store_read_release(c);
	}
	http_reply_json(r, 200, o);
}

void api_token_create(struct http_request *rq, struct http_reply *r)
{
	struct store_conn *c;
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX];
	unsigned char hash[32];
	const char *label = NULL;
	json_t *body = NULL;
	int64_t id;
	int rc;

	if (rq->auth.kind == TOKEN_SEAT || !rq->auth.user_id) {
		http_reply_problem(r, ERR_FORBIDDEN, "account_token_needed",
				   "a seat token cannot make new tokens; use your account token", NULL);
		return;
	}
	if (rq->body.len) {
		if (!(body = body_json(rq, r)))
			return;
		label = json_string_value(json_object_get(body, "label"));
		if (label && strlen(label) > MAX_NAME) {
			json_decref(body);
			http_reply_problem(r, ERR_INPUT, "bad_label", "a token label is at most 80 characters", NULL);
			return;
		}
	}
	token_new(tok, hash);
	if ((rc = store_write_begin(http_store(rq), &c, &e)) == 0) {
		rc = store_token_add(c, hash, TOKEN_API, rq->auth.user_id, 0, -1, label ? label : "api", 0, &id, &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	if (rc < 0)
		reply_err(r, rc, &e);
	else
		http_reply_json(r, 201, json_pack("{s:I,s:s,s:s?}", "id", (json_int_t)id, "token", tok, "label",
						  label));
	json_decref(body);
}

/* reason (may be NULL): why an admin revokes someone else's token, for the audit row */
static void revoke(struct http_request *rq, struct http_reply *r, int64_t id, const char *reason)
{
	struct store_conn *c;
	struct err e = {0};
	char detail[48];
	int rc;

	if ((rc = play_admin_reason_check(reason, 0, &e)) < 0) {
		http_reply_problem(r, rc, "bad_reason", e.msg, NULL);
		return;
	}
	if (reason && !*reason)
		reason = NULL;
	snprintf(detail, sizeof(detail), "{\"token\":%lld}", (long long)id);
	if ((rc = store_write_begin(http_store(rq), &c, &e)) == 0) {
		rc = store_token_revoke(c, id, clock_now_ms(), &e);
		if (rc == 0 && rq->auth.is_admin && id != rq->auth.token_id)
			rc = store_audit_add(c, rq->auth.user_id, "api", "token_revoke", 0, reason, -1, -1, detail,
					     clock_now_ms(), &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	if (rc < 0)
		reply_err(r, rc, &e);
	else
		http_reply_json(r, 200, json_pack("{s:I,s:b}", "id", (json_int_t)id, "revoked", 1));
}

void api_token_revoke_current(struct http_request *rq, struct http_reply *r)
{
	revoke(rq, r, rq->auth.token_id, NULL);
}

void api_token_revoke(struct http_request *rq, struct http_reply *r)
{
	revoke(rq, r, rq->ids[0], http_query(rq, "reason"));
}

/*
 * Which seat of game id the caller acts as: a seat token's own seat; for an
 * account token the seat given by ?seat= or the body, else the user's only
 * seat. Admins without a seat see as spectators (-1). Replies and returns <0
 * when the caller has no business with this game.
 */
static int resolve_seat(struct http_request *rq, struct http_reply *r, int64_t id, int wanted, int *seat,
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
		*with_emails = 1;
		return 0;
	}
	if ((rc = play_game_info(http_store(rq), id, &g, &seats, &nseats, &e)) < 0) {
		reply_err(r, rc, &e);
		goto done;
	}
	if (rq->auth.kind == TOKEN_SEAT) {
		if (rq->auth.game_id != id) {
			rc = ERR_FORBIDDEN;
			http_reply_problem(r, rc, "wrong_game", "this seat token belongs to another game", NULL);
			goto done;
		}
		*seat = rq->auth.seat;
		*with_emails = 1;
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
	*with_emails = 1;
	rc = 0;
done:
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

static int query_seat(struct http_request *rq, struct http_reply *r, int *wanted)
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
static int parse_etag(const char *v)
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

void api_game_get(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	const char *inm = http_header(rq, "If-None-Match");
	struct store *store = http_store(rq);
	struct err e = {0};
	json_t *o;
	uint64_t v0 = 0, v1 = 0;
	int seat, with_emails, wanted, rc, count, versioned;
	char etag[32];

	if (query_seat(rq, r, &wanted) < 0 || resolve_seat(rq, r, id, wanted, &seat, &with_emails) < 0)
		return;
	/* the same answer as last time while nothing at all was committed since (http/answers.h) */
	versioned = store_data_version(store, &v0, &e) == 0;
	if (versioned && inm && answers_get(store_id(store), id, seat, with_emails, v0, NULL, etag) &&
	    (strcmp(inm, "*") == 0 || parse_etag(inm) == (int)strtol(etag, NULL, 10))) {
		snprintf(r->etag, sizeof(r->etag), "%s", etag);
		r->status = 304;
		return;
	}
	if (versioned && answers_get(store_id(store), id, seat, with_emails, v0, &r->body, etag)) {
		snprintf(r->etag, sizeof(r->etag), "%s", etag);
		r->status = 200;
		r->content_type = "application/json";
		return;
	}
	err_clear(&e);
	if (inm && play_move_count(http_store(rq), id, &count, &e) == 0 &&
	    (strcmp(inm, "*") == 0 || parse_etag(inm) == count)) {
		r->status = 304;
		snprintf(r->etag, sizeof(r->etag), "%d", count);
		/* the ETag alone is kept for the next If-None-Match, under the same rules as a whole answer */
		if (versioned && store_data_version(store, &v1, &e) == 0 && v1 == v0 && store_synced(store))
			answers_put(store_id(store), id, seat, with_emails, v0, NULL, 0, r->etag);
		return;
	}
	if ((rc = play_game_json(http_store(rq), id, seat, with_emails, &o, &e)) < 0) {
		reply_err(r, rc, &e);
		return;
	}
	{
		json_t *clock = NULL;
		/* an answer missing its clock (a failed read) is sent, not kept */
		if (notify_clock_json(http_store(rq), id, &clock, &e) == 0 && clock)
			json_object_set_new(o, "clock", clock);
		else
			versioned = 0;
	}
	snprintf(r->etag, sizeof(r->etag), "%lld", (long long)json_integer_value(json_object_get(o, "move_count")));
	http_reply_json(r, 200, o);
	/*
	 * Kept only when no commit came between the two versions (then it is the
	 * answer at v0) and everything committed is on disk (so it is not a state
	 * a power loss could take back while the kept text lives on).
	 */
	if (versioned && r->status == 200 && store_data_version(store, &v1, &e) == 0 && v1 == v0 &&
	    store_synced(store))
		answers_put(store_id(store), id, seat, with_emails, v0, r->body.data, r->body.len, r->etag);
}

void api_game_legal(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct err e = {0};
	json_t *o;
	int seat, with_emails, wanted, rc;

	if (query_seat(rq, r, &wanted) < 0 || resolve_seat(rq, r, id, wanted, &seat, &with_emails) < 0)
		return;
	if (seat < 0) {
		http_reply_problem(r, ERR_FORBIDDEN, "not_a_player", "spectators have no legal steps", NULL);
		return;
	}
	if ((rc = play_legal_json(http_store(rq), id, seat, &o, &e)) < 0) {
		reply_err(r, rc, &e);
		return;
	}
	snprintf(r->etag, sizeof(r->etag), "%lld", (long long)json_integer_value(json_object_get(o, "move_count")));
	http_reply_json(r, 200, o);
}

void api_game_moves(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	struct err e = {0};
	json_t *o;
	int seat, with_emails, rc;

	if (resolve_seat(rq, r, id, -1, &seat, &with_emails) < 0)
		return;
	if ((rc = play_moves_json(http_store(rq), id, &o, &e)) < 0) {
		reply_err(r, rc, &e);
		return;
	}
	http_reply_json(r, 200, o);
}

/* Lines from a text/plain body: blank lines and whole-line # comments are skipped. */
static int text_lines(char *text, const char **lines, int max)
{
	int n = 0;

	for (char *line = text; line && *line;) {
		char *next = strchr(line, '\n');
		char *p = line;
		if (next)
			*next++ = '\0';
		line[strcspn(line, "\r")] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p && *p != '#') {
			if (n == max)
				return -1;
			lines[n++] = p;
		}
		line = next;
	}
	return n;
}

/* Whether a Prefer header (RFC 7240) asks for return=minimal: "return=minimal", also among others or quoted. */
int api_prefers_minimal(const char *v)
{
	while (v && *v) {
		const char *p = v;

		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (strncasecmp(p, "return", 6) == 0) {
			p += 6;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p++ == '=') {
				while (*p == ' ' || *p == '\t')
					p++;
				if (*p == '"')
					p++;
				if (strncasecmp(p, "minimal", 7) == 0) {
					p += 7;
					if (*p == '"')
						p++;
					while (*p == ' ' || *p == '\t')
						p++;
					if (!*p || *p == ',' || *p == ';')
						return 1;
				}
			}
		}
		v = strchr(v, ',');
		if (v)
			v++;
	}
	return 0;
}

/* The answer to a move: its error (lines: the steps sent, for the one that failed) or its result (taken). */
static void move_reply(struct http_reply *r, int rc, json_t *res, const struct play_outcome *out,
		       const struct err *e, const char *const *lines, int no_view)
{
	if (rc < 0) {
		json_t *extra = NULL;
		if (out->failed_line && lines)
			extra = json_pack("{s:i,s:s}", "line", out->failed_line, "text", lines[out->failed_line - 1]);
		http_reply_problem(r, rc, rc == ERR_ILLEGAL ? "illegal_move" : NULL, e->msg, extra);
		return;
	}
	if (!out->replayed)
		metrics_count_moves((int)json_array_size(json_object_get(res, "applied")));
	snprintf(r->etag, sizeof(r->etag), "%lld", (long long)json_integer_value(json_object_get(res, "move_count")));
	if (no_view) {
		json_object_del(res, "view");
		r->preference_applied = "return=minimal";
	}
	http_reply_json(r, out->replayed ? out->status : 200, res);
}

/* A move whose write waits for its commit and sync. */
struct move_wait {
	struct play_pending *pending;
	int no_view;
};

static void move_finish(struct http_request *rq, struct http_reply *r, void *ctx)
{
	struct move_wait *mv = ctx;
	struct play_outcome out;
	struct err e = {0};
	json_t *res;
	int rc;

	(void)rq;
	rc = play_submit_finish(mv->pending, &res, &out, &e);
	move_reply(r, rc, res, &out, &e, NULL, mv->no_view);
	free(mv);
}

void api_game_move(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	const char *ctype = http_header(rq, "Content-Type");
	const char *if_match = http_header(rq, "If-Match");
	const char *idem = http_header(rq, "Idempotency-Key");
	const char *lines[PLAY_MAX_LINES];
	struct play_submit sub = { .game_id = id, .via = "api", .client = rq->client, .if_match = -1,
				   .no_view = api_prefers_minimal(http_header(rq, "Prefer")) };
	struct play_outcome out;
	struct err e = {0};
	struct buf hashed = BUF_INIT;
	unsigned char hash[32];
	struct move_wait *mv;
	json_t *body = NULL, *arr;
	int seat, with_emails, wanted = -1, n = 0, rc;

	if (ctype && strncmp(ctype, "text/plain", 10) == 0) {
		n = text_lines(rq->body.data, lines, PLAY_MAX_LINES);
		if (n < 0) {
			http_reply_problem(r, ERR_INPUT, "too_many_moves", "at most 64 steps in one request", NULL);
			goto done;
		}
	} else {
		if (!(body = body_json(rq, r)))
			goto done;
		arr = json_object_get(body, "moves");
		if (!json_is_array(arr)) {
			http_reply_problem(r, ERR_INPUT, "bad_moves",
					   "the body needs \"moves\": an array of step texts", NULL);
			goto done;
		}
		if (json_array_size(arr) > PLAY_MAX_LINES) {
			http_reply_problem(r, ERR_INPUT, "too_many_moves", "at most 64 steps in one request", NULL);
			goto done;
		}
		for (size_t i = 0; i < json_array_size(arr); i++) {
			const char *t = json_string_value(json_array_get(arr, i));
			if (!t) {
				http_reply_problem(r, ERR_INPUT, "bad_moves", "every entry of \"moves\" must be a string",
						   NULL);
				goto done;
			}
			lines[n++] = t;
		}
		if (json_is_integer(json_object_get(body, "seat")))
			wanted = (int)json_integer_value(json_object_get(body, "seat"));
	}
	if (n == 0) {
		http_reply_problem(r, ERR_INPUT, "no_moves", "no steps given", NULL);
		goto done;
	}
	if (if_match && strcmp(if_match, "*") != 0) {
		sub.if_match = parse_etag(if_match);
		if (sub.if_match < 0) {
			http_reply_problem(r, ERR_INPUT, "bad_if_match", "If-Match must be the game's ETag, such as \"12\"",
					   NULL);
			goto done;
		}
	}
	if (idem) {
		size_t len = strlen(idem);
		int ok = len >= 1 && len <= MAX_IDEM_KEY;
		for (size_t i = 0; ok && i < len; i++)
			ok = idem[i] > 32 && idem[i] < 127;
		if (!ok) {
			http_reply_problem(r, ERR_INPUT, "bad_idempotency_key",
					   "Idempotency-Key must be 1 to 128 visible ASCII characters", NULL);
			goto done;
		}
	}
	if (resolve_seat(rq, r, id, wanted, &seat, &with_emails) < 0)
		goto done;
	if (seat < 0) {
		http_reply_problem(r, ERR_FORBIDDEN, "not_a_player", "you hold no seat in this game", NULL);
		goto done;
	}
	sub.seat = seat;
	sub.lines = lines;
	sub.nlines = n;
	if (idem) {
		buf_addf(&hashed, "%lld\n%d\n", (long long)id, seat);
		for (int i = 0; i < n; i++)
			buf_addf(&hashed, "%s\n", lines[i]);
		token_hash_bytes(hashed.data, hashed.len, hash);
		sub.idem_token = rq->auth.token_id;
		sub.idem_key = idem;
		sub.request_hash = hash;
	}
	if (!(mv = calloc(1, sizeof(*mv)))) {
		http_reply_problem(r, ERR_NOMEM, NULL, "out of memory", NULL);
		goto done;
	}
	mv->no_view = sub.no_view;
	/* the thread serves other connections while the move waits for the disk */
	rc = play_submit_start(http_store(rq), &sub, http_wake, rq, &mv->pending, &out, &e);
	if (rc < 0) {
		move_reply(r, rc, NULL, &out, &e, lines, 0);
		free(mv);
	} else {
		http_defer(rq, r, move_finish, mv);
	}
done:
	buf_release(&hashed);
	json_decref(body);
}

int api_valid_email(const char *s)
{
	const char *at = s ? strchr(s, '@') : NULL;
	size_t n = s ? strlen(s) : 0;

	if (!at || at == s || !at[1] || n > MAX_EMAIL || strchr(at + 1, '@'))
		return 0;
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p <= 32 || *p == '<' || *p == '>' || *p == '"' || *p == ',' || *p == '\\' ||
		    (unsigned char)*p == 127)
			return 0;
	return 1;
}

int api_valid_name(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n < 1 || n > MAX_NAME)
		return 0;
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 32 || (unsigned char)*p == 127)
			return 0;
	return 1;
}

void api_games_create(struct http_request *rq, struct http_reply *r)
{
	struct play_player players[GAME_MAX_SEATS];
	char tokens[GAME_MAX_SEATS][TOKEN_TEXT_MAX];
	struct play_new_game ng = {0};
	struct store_clock clock;
	const struct game_ops *ops;
	struct err e = {0};
	json_t *body, *pl, *opts, *seats, *res;
	char detail[200];
	int64_t id;
	size_t n;
	int rc;

	if (rq->auth.kind == TOKEN_SEAT || !rq->auth.user_id) {
		http_reply_problem(r, ERR_FORBIDDEN, "account_token_needed",
				   "creating a game needs an account token, not a seat token", NULL);
		return;
	}
	if (!(body = body_json(rq, r)))
		return;
	ng.game = json_string_value(json_object_get(body, "game"));
	if (!ng.game || !(ops = registry_find(ng.game))) {
		snprintf(detail, sizeof(detail), "\"game\" must name a hosted game (see /api/v1/catalog)%s%s%s",
			 ng.game ? "; there is no \"" : "", ng.game ? ng.game : "", ng.game ? "\"" : "");
		http_reply_problem(r, ERR_INPUT, "unknown_game", detail, NULL);
		goto done;
	}
	pl = json_object_get(body, "players");
	n = json_array_size(pl);
	if (!json_is_array(pl) || n < (size_t)ops->min_players || n > (size_t)ops->max_players) {
		snprintf(detail, sizeof(detail), "\"players\" must be an array of %d to %d players for %s",
			 ops->min_players, ops->max_players, ops->title);
		http_reply_problem(r, ERR_INPUT, "bad_players", detail, NULL);
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *p = json_array_get(pl, i);
		players[i].name = json_string_value(json_object_get(p, "name"));
		players[i].email = json_string_value(json_object_get(p, "email"));
		if (!api_valid_name(players[i].name)) {
			snprintf(detail, sizeof(detail), "player %zu needs a \"name\" of 1 to %d printable characters",
				 i + 1, MAX_NAME);
			http_reply_problem(r, ERR_INPUT, "bad_players", detail, NULL);
			goto done;
		}
		if (json_object_get(p, "email") && !json_is_null(json_object_get(p, "email")) &&
		    !api_valid_email(players[i].email)) {
			snprintf(detail, sizeof(detail), "player %zu: \"%s\" is not an email address", i + 1,
				 players[i].email ? players[i].email : "(not a string)");
			http_reply_problem(r, ERR_INPUT, "bad_email", detail, NULL);
			goto done;
		}
	}
	opts = json_object_get(body, "options");
	if (opts && !json_is_object(opts)) {
		http_reply_problem(r, ERR_INPUT, "bad_options", "\"options\" must be an object", NULL);
		goto done;
	}
	if (json_object_get(body, "clock") && !json_is_null(json_object_get(body, "clock"))) {
		if (notify_clock_parse(json_object_get(body, "clock"), &clock, &e) < 0) {
			http_reply_problem(r, ERR_INPUT, "bad_clock", e.msg, NULL);
			goto done;
		}
		if ((!strcmp(clock.timeout, "bot") || !strcmp(clock.timeout, "drop")) && !ops->bot) {
			http_reply_problem(r, ERR_INPUT, "bad_clock",
					   "this game has no bot to play for a player who runs out of time: use "
					   "\"timeout\": \"notify\"", NULL);
			goto done;
		}
		ng.clock = &clock;
	}
	ng.options = opts;
	ng.players = players;
	ng.nplayers = (int)n;
	ng.created_by = rq->auth.user_id;
	if ((rc = play_game_create(http_store(rq), &ng, &id, tokens, &e)) < 0) {
		http_reply_problem(r, rc, rc == ERR_INPUT ? "bad_options" : NULL, e.msg, NULL);
		goto done;
	}
	seats = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *s = json_pack("{s:i,s:s,s:s?}", "seat", (int)i, "name", players[i].name, "email",
				      players[i].email);
		if (rq->auth.is_admin)
			json_object_set_new(s, "token", json_string(tokens[i]));
		json_array_append_new(seats, s);
	}
	res = json_pack("{s:I,s:s,s:s,s:o}", "id", (json_int_t)id, "game", ops->id, "status", "active", "seats",
			seats);
	snprintf(r->location, sizeof(r->location), "/api/v1/games/%lld", (long long)id);
	http_reply_json(r, 201, res);
done:
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		memset(tokens[i], 0, TOKEN_TEXT_MAX);
	json_decref(body);
}

void api_games_list(struct http_request *rq, struct http_reply *r)
{
	int64_t *ids = NULL;
	int n = 0, rc;
	struct store_conn *c;
	struct err e = {0};
	json_t *list = json_array();
	int64_t user = rq->auth.is_admin ? 0 : rq->auth.user_id;

	if (rq->auth.kind == TOKEN_SEAT) {
		ids = malloc(sizeof(*ids));
		ids[0] = rq->auth.game_id;
		n = 1;
	} else {
		if ((rc = store_read_acquire(http_store(rq), &c, &e)) < 0) {
			json_decref(list);
			reply_err(r, rc, &e);
			return;
		}
		rc = store_game_ids(c, user, MAX_GAMES_LISTED, &ids, &n, &e);
		store_read_release(c);
		if (rc < 0) {
			json_decref(list);
			reply_err(r, rc, &e);
			return;
		}
	}
	for (int i = 0; i < n; i++) {
		struct store_game g;
		struct store_seat *seats = NULL;
		int nseats = 0;
		json_t *o, *sa, *mine;

		if (play_game_info(http_store(rq), ids[i], &g, &seats, &nseats, &e) < 0) {
			store_game_release(&g);
			continue;
		}
		sa = json_array();
		mine = json_array();
		for (int k = 0; k < nseats; k++) {
			json_array_append_new(sa, json_pack("{s:i,s:s}", "seat", seats[k].seat, "name", seats[k].name));
			if ((rq->auth.kind == TOKEN_SEAT && seats[k].seat == rq->auth.seat) ||
			    (rq->auth.kind != TOKEN_SEAT && rq->auth.user_id && seats[k].user_id == rq->auth.user_id))
				json_array_append_new(mine, json_integer(seats[k].seat));
		}
		o = json_pack("{s:I,s:s,s:s,s:i,s:o,s:o,s:I,s:I}", "id", (json_int_t)g.id, "game", g.game, "status",
			      g.status, "move_count", g.move_count, "seats", sa, "your_seats", mine, "created_at",
			      (json_int_t)g.created_at, "updated_at", (json_int_t)g.updated_at);
		json_t *active = json_array();
		for (int s = 0; s < GAME_MAX_SEATS; s++)
			if (g.active_seats & (1u << s))
				json_array_append_new(active, json_integer(s));
		json_object_set_new(o, "active_seats", active);
		json_array_append_new(list, o);
		store_seats_free(seats, nseats);
		store_game_release(&g);
	}
	free(ids);
	http_reply_json(r, 200, json_pack("{s:o}", "games", list));
}

void api_admin_export(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *o;
	int rc;

	if ((rc = play_export(http_store(rq), rq->ids[0], &o, &e)) < 0) {
		reply_err(r, rc, &e);
		return;
	}
	http_reply_json(r, 200, o);
}

void api_admin_verify(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	struct play_admin_actor a = { .user_id = rq->auth.user_id, .channel = "api", .client = rq->client };
	json_t *body = NULL;
	int first_bad, rc;

	/* an optional {"reason": "..."} for the audit row */
	if (rq->body.len) {
		body = json_loadb(rq->body.data, rq->body.len, 0, NULL);
		if (!json_is_object(body)) {
			json_decref(body);
			http_reply_problem(r, ERR_INPUT, "malformed_json", "the body, when any, must be a JSON object", NULL);
			return;
		}
		a.reason = json_string_value(json_object_get(body, "reason"));
	}
	rc = play_admin_verify(http_store(rq), &a, rq->ids[0], &first_bad, NULL, &e);
	json_decref(body);
	if (rc == 0)
		http_reply_json(r, 200, json_pack("{s:I,s:b}", "game", (json_int_t)rq->ids[0], "ok", 1));
	else if (rc == ERR_CONFLICT)
		http_reply_json(r, 200, json_pack("{s:I,s:b,s:i,s:s}", "game", (json_int_t)rq->ids[0], "ok", 0,
						  "first_difference", first_bad, "detail", e.msg));
	else
		reply_err(r, rc, &e);
}
