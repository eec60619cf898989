/* http/web.h: the HTML pages' shared plumbing (web.c); each page group has its web_*.c */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_H
#define TURNPOST_HTTP_WEB_H

#include "engine/access.h"
#include "engine/game.h"
#include "http/http.h"

/* The content type of every page. */
#define WEB_HTML "text/html; charset=utf-8"

/* An HTML error page with status and a message a person can act on. */
void web_error_page(struct http_request *rq, struct http_reply *r, int status, const char *message);
/* Render template name with data (stolen), adding the common fields (title, user, csrf). */
void web_render(struct http_request *rq, struct http_reply *r, int status, const char *name, const char *title,
		json_t *data);
/* The title of a game id of the registry (the id itself when unknown). Borrowed. */
const char *web_game_title(const char *id);
/*
 * Append the board of game id (its game_ops.board) drawn from view for seat
 * (-1: a spectator); seats names the players. 0, or a negative ERR_* when the
 * game is unknown, draws no board or cannot draw this view: the page then
 * lists the view instead. taps (may be NULL) is the step seat is building
 * by taps: the drawer makes its offered parts links and greys the rest.
 */
int web_board(const char *id, const json_t *view, const json_t *seats, int seat, const struct game_tapset *taps,
	      struct buf *out);
/* The same, with the parts that differ from before (seat's view after its last step; NULL: none) marked changed. */
int web_board_marked(const char *id, const json_t *view, const json_t *seats, int seat, const struct game_tapset *taps,
		     const json_t *before, struct buf *out);
/*
 * What this browser may see of game_id (engine/access.h, the one rule),
 * with the seat it plays: ?seat= (or the form's seat) when it holds it,
 * else its first. ERR_NOTFOUND when there is no such game.
 */
int web_access(struct http_request *rq, int64_t game_id, struct access_grant *out);
/* The same from the game's row and seats already read (access_game_at). */
int web_access_at(struct http_request *rq, const struct store_game *g, const struct store_seat *seats, int nseats,
		  struct access_grant *out);
/*
 * The seat this browser plays in game_id: ?seat= (or the form's seat) when the
 * user holds it, else their first; -1 when none. *held: how many seats they hold.
 */
int web_seat(struct http_request *rq, int64_t game_id, int *held);

/* GET /static/{token}: the stylesheet and script. */
void web_static(struct http_request *rq, struct http_reply *r);

#endif
