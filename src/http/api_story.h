/* http/api_story.h: the story of a game in the JSON API: its log in words */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_STORY_H
#define TURNPOST_HTTP_API_STORY_H

#include "http/http.h"

/* GET /api/v1/games/{id}/log: {"move_count","entries":[{"n","seat","name","text","at","channel"},...]}, newest last. */
void api_story_log(struct http_request *rq, struct http_reply *r);

#endif
