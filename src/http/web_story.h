/* http/web_story.h: the story of a game on the pages: since your last turn, the whole story, the replay */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_STORY_H
#define TURNPOST_HTTP_WEB_STORY_H

#include "http/http.h"

/*
 * The game page's part of the story: adds "story" to game (the game page's
 * data, borrowed): {"title","entries":[{"text","when","channel"}],"none",
 * "earlier" (entries not shown, 0 when none),"id","seat"} with what
 * happened since seat's last turn (a spectator: the latest steps), newest
 * first. Rendered by templates/web/game_story.mustache. A failure leaves
 * game without "story" (the page shows the rest). Returns the time (ms since
 * the epoch) at which an entry's "... ago" would read otherwise, 0 when none
 * is shown.
 */
int64_t web_story_since(struct http_request *rq, int64_t id, int seat, json_t *game);

/* GET /games/{id}/history: the whole story in words, newest first, with who, when and the channel. */
void web_story_log(struct http_request *rq, struct http_reply *r);

/*
 * GET /games/{id}/replay?n=N: the board after step N as the reader sees it,
 * the step in words, what changed, and first/back/forward/last. Players see
 * their seat's view at every step; once the game is over anyone signed in
 * sees it as a spectator (admins always).
 */
void web_story_replay(struct http_request *rq, struct http_reply *r);

/* GET /games/{id}/watch: the replay of a shared game for anyone, signed in or not (404 unless shared). */
void web_story_watch(struct http_request *rq, struct http_reply *r);

/* POST /games/{id}/share: the seat's player allows (allow=1) or stops allowing (0) the game to be shown by its link. */
void web_story_share_post(struct http_request *rq, struct http_reply *r);

#endif
