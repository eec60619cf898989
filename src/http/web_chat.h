/* http/web_chat.h: a game's chat from the game page */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_CHAT_H
#define TURNPOST_HTTP_WEB_CHAT_H

#include "http/http.h"

void web_chat_post(struct http_request *rq, struct http_reply *r);

#endif
