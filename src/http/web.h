/* http/web.h: the HTML pages: home, sign-in, games, history, chat, account */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_H
#define TURNPOST_HTTP_WEB_H

#include "http/http.h"

/* An HTML error page with status and a message a person can act on. */
void web_error_page(struct http_request *rq, struct http_reply *r, int status, const char *message);
/* Render template name with data (stolen), adding the common fields (title, user, csrf). */
void web_render(struct http_request *rq, struct http_reply *r, int status, const char *name, const char *title,
		json_t *data);

void web_home(struct http_request *rq, struct http_reply *r);
void web_static(struct http_request *rq, struct http_reply *r);
void web_signin_form(struct http_request *rq, struct http_reply *r);
void web_signin_send(struct http_request *rq, struct http_reply *r);
void web_signin_confirm(struct http_request *rq, struct http_reply *r);
void web_signin_use(struct http_request *rq, struct http_reply *r);
void web_seat_link(struct http_request *rq, struct http_reply *r);
void web_signout(struct http_request *rq, struct http_reply *r);
void web_account(struct http_request *rq, struct http_reply *r);
void web_account_save(struct http_request *rq, struct http_reply *r);
void web_new_game_form(struct http_request *rq, struct http_reply *r);
void web_new_game(struct http_request *rq, struct http_reply *r);
void web_game(struct http_request *rq, struct http_reply *r);
void web_game_move(struct http_request *rq, struct http_reply *r);
void web_game_chat(struct http_request *rq, struct http_reply *r);
void web_game_join(struct http_request *rq, struct http_reply *r);
void web_history(struct http_request *rq, struct http_reply *r);

#endif
