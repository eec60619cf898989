/* http/api_channel.h: the JSON API of chat channels: a game's (Discord, Slack, Matrix) and your own destinations */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_CHANNEL_H
#define TURNPOST_HTTP_API_CHANNEL_H

#include "http/http.h"

/* /api/v1/games/{id}/channels/{kind}: the game's creator or an admin */
void api_channel_game_get(struct http_request *rq, struct http_reply *r);
void api_channel_game_put(struct http_request *rq, struct http_reply *r);
void api_channel_game_delete(struct http_request *rq, struct http_reply *r);
/* /api/v1/me/destinations[/{id}] */
void api_channel_me_list(struct http_request *rq, struct http_reply *r);
void api_channel_me_add(struct http_request *rq, struct http_reply *r);
void api_channel_me_put(struct http_request *rq, struct http_reply *r);
void api_channel_me_delete(struct http_request *rq, struct http_reply *r);

#endif
