/* http/web.c: the pages' shared plumbing: rendering, error pages, static files, the signed-in user and their seat */
/* SPDX-License-Identifier: MIT */
#include "http/web.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/access.h"
#include "engine/registry.h"
#include "http/form.h"
#include "util/embed.h"
#include "util/log.h"
#include "util/banned.h"

/*
 * The stylesheet's version: a hash of its text, in its link (?v=), so a
 * browser that kept an older one (it may for an hour) fetches the one the
 * boards' classes are drawn for.
 */
static char style_version[9];
static pthread_once_t style_once = PTHREAD_ONCE_INIT;

static void style_hash(void)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (const struct embed_file *f = embed_static; f->name; f++)
		if (!strcmp(f->name, "style.css"))
			for (const unsigned char *c = (const unsigned char *)f->text; *c; c++)
				h = (h ^ *c) * 16777619u;
	snprintf(style_version, sizeof(style_version), "%08x", (unsigned)h);
}

void web_render(struct http_request *rq, struct http_reply *r, int status, const char *name, const char *title,
		json_t *data)
{
	struct err e = {0};

	if (!data)
		data = json_object();
	json_object_set_new(data, "title", json_string(title));
	json_object_set_new(data, "csrf", json_string(rq->sess.csrf));
	pthread_once(&style_once, style_hash);
	json_object_set_new(data, "style_v", json_string(style_version));
	if (rq->sess.user_id)
		json_object_set_new(data, "user", json_pack("{s:s,s:s,s:b,s:b}", "name", rq->sess.name, "email",
							    rq->sess.email, "admin", rq->sess.is_admin, "seat_link",
							    rq->sess.only_game != 0));
	buf_reset(&r->body);
	if (render_set_render(http_pages(rq), name, data, &r->body, &e) < 0) {
		log_error("rendering %s: %s", name, e.msg);
		buf_reset(&r->body);
		buf_adds(&r->body, "<!DOCTYPE html><title>Error</title><p>This page could not be drawn.</p>");
		status = 500;
	}
	json_decref(data);
	r->status = status;
	r->content_type = WEB_HTML;
}

void web_error_page(struct http_request *rq, struct http_reply *r, int status, const char *message)
{
	const char *title = status == 404 ? "Not found" : status == 403 ? "Not allowed" : status == 401 ? "Sign in"
		: status >= 500 ? "Something went wrong" : "That did not work";

	web_render(rq, r, status, "error", title, json_pack("{s:s}", "message", message));
}

void web_static(struct http_request *rq, struct http_reply *r)
{
	for (const struct embed_file *f = embed_static; f->name; f++) {
		size_t n = strlen(f->name);
		if (strcmp(f->name, rq->param) != 0)
			continue;
		r->status = 200;
		r->content_type = n > 4 && strcmp(f->name + n - 4, ".css") == 0 ? "text/css; charset=utf-8"
			: "text/javascript; charset=utf-8";
		r->cache = 1;
		buf_adds(&r->body, f->text);
		return;
	}
	web_error_page(rq, r, 404, "No such file.");
}

const char *web_game_title(const char *id)
{
	const struct game_ops *ops = registry_find(id);
	return ops ? ops->title : id;
}

int web_board(const char *id, const json_t *view, const json_t *seats, int seat, const struct game_tapset *taps,
	      struct buf *out)
{
	return web_board_marked(id, view, seats, seat, taps, NULL, out);
}

int web_board_marked(const char *id, const json_t *view, const json_t *seats, int seat, const struct game_tapset *taps,
		     const json_t *before, struct buf *out)
{
	const struct game_ops *ops = registry_find(id);
	struct game_board_in in = { .view = view, .seats = seats, .seat = seat, .taps = taps, .before = before };
	struct err e = {0};

	if (!ops || !ops->board)
		return ERR_NOTFOUND;
	return ops->board(&in, out, &e);
}

/* Who asks (the session) and the seat they ask for (?seat= or the form's; -1 any). */
static int access_viewer_of(struct http_request *rq, struct access_viewer *v)
{
	const char *want = rq->form ? form_get(rq->form, "seat") : http_query(rq, "seat");

	*v = (struct access_viewer){ .user_id = rq->sess.user_id, .is_admin = rq->sess.is_admin,
				     .only_game = rq->sess.only_game, .only_seat = rq->sess.only_seat };
	return want ? (int)strtol(want, NULL, 10) : -1;
}

int web_access(struct http_request *rq, int64_t game_id, struct access_grant *out)
{
	struct access_viewer v;
	int wanted = access_viewer_of(rq, &v);
	struct err e = {0};

	return access_game(http_store(rq), game_id, &v, wanted, out, &e);
}

int web_access_at(struct http_request *rq, const struct store_game *g, const struct store_seat *seats, int nseats,
		  struct access_grant *out)
{
	struct access_viewer v;
	int wanted = access_viewer_of(rq, &v);
	struct err e = {0};

	return access_game_at(http_store(rq), g, seats, nseats, &v, wanted, out, &e);
}

/* The seat this browser plays in the game: ?seat= or the form's seat when the user holds it, else their first. */
int web_seat(struct http_request *rq, int64_t game_id, int *held)
{
	struct access_grant a;

	if (web_access(rq, game_id, &a) < 0) {
		*held = 0;
		return -1;
	}
	*held = a.held;
	return a.seat;
}
