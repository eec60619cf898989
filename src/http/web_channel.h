/* http/web_channel.h: the chat forms of the pages: a game's channels, your chat ids and destinations */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_CHANNEL_H
#define TURNPOST_HTTP_WEB_CHANNEL_H

#include <jansson.h>

#include "http/http.h"

/* Add "channels" to a game page's game object when the signed-in user may manage them (creator, admin). */
void web_channel_game(struct http_request *rq, int64_t id, json_t *game);
/* Add "chat" (your chat ids and destinations) to the account page's data. */
void web_channel_account(struct http_request *rq, json_t *data);

/* POST /games/{id}/channels: kind and its fields, or remove=KIND */
void web_channel_game_post(struct http_request *rq, struct http_reply *r);
/* POST /account/chat-ids: discord, slack, matrix */
void web_channel_ids_post(struct http_request *rq, struct http_reply *r);
/* POST /account/destinations: kind, url (or the Matrix fields), ev_* */
void web_channel_dest_add(struct http_request *rq, struct http_reply *r);
/* POST /account/destinations/{id}/remove */
void web_channel_dest_remove(struct http_request *rq, struct http_reply *r);

#endif
