/* http/web_move.c: steps made from the game page's form */
/* SPDX-License-Identifier: MIT */
#include "http/web_move.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/submit.h"
#include "http/form.h"
#include "http/web.h"
#include "http/web_game.h"
#include "util/banned.h"

/* Lines of a textarea: blank and # comment lines skipped. */
static int split_lines(char *text, const char **lines, int max)
{
	int n = 0;

	for (char *line = text; line && *line;) {
		char *next = strchr(line, '\n'), *p = line;
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

/* The answer to a move from the form: the game page with the error (lines: the steps, for the failed one), or back to the game. */
static void web_move_reply(struct http_request *rq, struct http_reply *r, int64_t id, int seat, int held, int rc,
			   const struct submit_outcome *out, const struct err *e, const char *const *lines,
			   const char *typed)
{
	char path[48];

	if (rc < 0) {
		json_t *error = json_pack("{s:s}", "detail",
					  rc == ERR_STALE ? "The game moved on while you were looking; here is the new "
							    "position. Nothing of yours was applied."
							  : e->msg);
		if (out->failed_line && lines) {
			json_object_set_new(error, "line", json_integer(out->failed_line));
			json_object_set_new(error, "text", json_string(lines[out->failed_line - 1]));
		}
		web_game_page(rq, r, id, http_status_for(rc), error, typed);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	if (held > 1)
		snprintf(path, sizeof(path), "/games/%lld?seat=%d", (long long)id, seat);
	http_reply_redirect(r, path);
}

/*
 * Stored, but a step revealed something and the lines after it were not
 * tried (engine/submit.h): the game page says so, with those lines in the
 * box to send again.
 */
static void web_move_untried(struct http_request *rq, struct http_reply *r, int64_t id, const json_t *res)
{
	struct buf typed = BUF_INIT;
	json_t *line;
	size_t i;

	json_array_foreach(json_object_get(res, "not_applied"), i, line)
		buf_addf(&typed, "%s%s", i ? "\n" : "", json_string_value(line));
	web_game_page(rq, r, id, 200, json_pack("{s:s}", "detail", json_string_value(json_object_get(res, "note"))),
		      typed.data);
	buf_release(&typed);
}

/* A move from the form whose write waits for its commit and sync. */
struct web_move_wait {
	struct submit_pending *pending;
	int64_t id;
	int seat, held;
};

static void web_move_finish(struct http_request *rq, struct http_reply *r, void *ctx)
{
	struct web_move_wait *mv = ctx;
	struct submit_outcome out;
	struct err e = {0};
	json_t *res = NULL;
	int rc;

	rc = submit_finish(mv->pending, &res, &out, &e);
	if (rc == 0 && json_array_size(json_object_get(res, "not_applied"))) {
		web_move_untried(rq, r, mv->id, res);
		json_decref(res);
		free(mv);
		return;
	}
	json_decref(res);
	web_move_reply(rq, r, mv->id, mv->seat, mv->held, rc, &out, &e, NULL, form_get(rq->form, "moves"));
	free(mv);
}

void web_move_post(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	const char *one = form_get(rq->form, "move"), *typed = form_get(rq->form, "moves");
	const char *mc = form_get(rq->form, "mc");
	const char *lines[SUBMIT_MAX_LINES];
	struct submit_request sub = { .game_id = id, .via = "web", .client = rq->client, .if_match = -1 };
	struct submit_outcome out;
	struct web_move_wait *mv;
	struct err e = {0};
	char *copy = NULL;
	int held = rq->held, seat = rq->seat, n = 0, rc;

	/* a signed-in player of this game (routes.h: ROUTE_USER | ROUTE_SEAT | ROUTE_PLAYER) */
	if (one && *one) {
		lines[n++] = one;
	} else if (typed) {
		copy = strdup(typed);
		n = split_lines(copy, lines, SUBMIT_MAX_LINES);
	}
	if (n <= 0) {
		web_game_page(rq, r, id, 400,
			  json_pack("{s:s}", "detail", n < 0 ? "At most 64 steps at once." : "Choose a step or type one."),
			  typed);
		free(copy);
		return;
	}
	sub.seat = seat;
	sub.lines = lines;
	sub.nlines = n;
	if (mc && *mc)
		sub.if_match = (int)strtol(mc, NULL, 10);
	if (!(mv = calloc(1, sizeof(*mv)))) {
		web_error_page(rq, r, 503, "Out of memory; try again.");
		free(copy);
		return;
	}
	mv->id = id;
	mv->seat = seat;
	mv->held = held;
	/* as for the API: the thread serves others while the move waits for the disk */
	rc = submit_start(http_store(rq), &sub, http_wake, rq, &mv->pending, &out, &e);
	if (rc < 0) {
		web_move_reply(rq, r, id, seat, held, rc, &out, &e, lines, typed);
		free(mv);
	} else {
		http_defer(rq, r, web_move_finish, mv);
	}
	free(copy);
}
