/* http/web_account.h: the account page */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_ACCOUNT_H
#define TURNPOST_HTTP_WEB_ACCOUNT_H

#include "http/http.h"

void web_account_show(struct http_request *rq, struct http_reply *r);
void web_account_save(struct http_request *rq, struct http_reply *r);

#endif
