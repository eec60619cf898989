/* http/api_move.c: the JSON API of moves: steps sent as JSON or text, all or nothing */
/* SPDX-License-Identifier: MIT */
#include "http/api_move.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/submit.h"
#include "http/api.h"
#include "http/metrics.h"
#include "util/token.h"
#include "util/banned.h"

#define MAX_IDEM_KEY 128

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
int api_move_prefers_minimal(const char *v)
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
static void move_reply(struct http_reply *r, int rc, json_t *res, const struct submit_outcome *out,
		       const struct err *e, const char *const *lines, int no_view)
{
	if (rc < 0) {
		json_t *extra = NULL;
		if (out->failed_line && lines)
			extra = json_pack("{s:i,s:s}", "line", out->failed_line, "text", lines[out->failed_line - 1]);
		http_reply_problem(r, rc, out->code ? out->code : rc == ERR_ILLEGAL ? "illegal_move" : NULL, e->msg, extra);
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
	struct submit_pending *pending;
	int no_view;
};

static void move_finish(struct http_request *rq, struct http_reply *r, void *ctx)
{
	struct move_wait *mv = ctx;
	struct submit_outcome out;
	struct err e = {0};
	json_t *res;
	int rc;

	(void)rq;
	rc = submit_finish(mv->pending, &res, &out, &e);
	move_reply(r, rc, res, &out, &e, NULL, mv->no_view);
	free(mv);
}

void api_move_post(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	const char *if_match = http_header(rq, "If-Match");
	const char *idem = http_header(rq, "Idempotency-Key");
	const char *lines[SUBMIT_MAX_LINES];
	struct submit_request sub = { .game_id = id, .via = "api", .client = rq->client, .if_match = -1,
				   .no_view = api_move_prefers_minimal(http_header(rq, "Prefer")) };
	struct submit_outcome out;
	struct err e = {0};
	struct buf hashed = BUF_INIT;
	unsigned char hash[32];
	struct move_wait *mv;
	json_t *arr;
	int seat = rq->seat, n = 0, rc;

	/* the body is text (ROUTE_TEXT) or a JSON object, and the seat is resolved (routes.h) */
	if (!rq->json) {
		n = text_lines(rq->body.data, lines, SUBMIT_MAX_LINES);
		if (n < 0) {
			http_reply_problem(r, ERR_INPUT, "too_many_moves", "at most 64 steps in one request", NULL);
			goto done;
		}
	} else {
		arr = json_object_get(rq->json, "moves");
		if (!json_is_array(arr)) {
			http_reply_problem(r, ERR_INPUT, "bad_moves",
					   "the body needs \"moves\": an array of step texts", NULL);
			goto done;
		}
		if (json_array_size(arr) > SUBMIT_MAX_LINES) {
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
	}
	if (n == 0) {
		http_reply_problem(r, ERR_INPUT, "no_moves", "no steps given", NULL);
		goto done;
	}
	if (if_match && strcmp(if_match, "*") != 0) {
		/* If-Match compares strongly (RFC 9110, 13.1.1): a weak tag never matches */
		if (strncmp(if_match + strspn(if_match, " "), "W/", 2) == 0) {
			http_reply_problem(r, ERR_STALE, "weak_etag",
					   "If-Match compares strong ETags: send the game's ETag without W/, such as \"12\"",
					   NULL);
			goto done;
		}
		sub.if_match = api_parse_etag(if_match);
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
	rc = submit_start(http_store(rq), &sub, http_wake, rq, &mv->pending, &out, &e);
	if (rc < 0) {
		move_reply(r, rc, NULL, &out, &e, lines, 0);
		free(mv);
	} else {
		http_defer(rq, r, move_finish, mv);
	}
done:
	buf_release(&hashed);
}
