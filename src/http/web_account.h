/* http/web_account.h: the account page */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_WEB_ACCOUNT_H
#define TURNPOST_HTTP_WEB_ACCOUNT_H

#include "http/http.h"

void web_account_show(struct http_request *rq, struct http_reply *r);
void web_account_save(struct http_request *rq, struct http_reply *r);
/* GET /account/email/{token}: the page whose button confirms a new address (mail scanners only GET). */
void web_account_email_confirm(struct http_request *rq, struct http_reply *r);
/* POST /account/email/{token}: the signed-in account's new address becomes its own. */
void web_account_email_use(struct http_request *rq, struct http_reply *r);

#endif
