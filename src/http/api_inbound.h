/* http/api_inbound.h: the inbound email endpoint (replies to notifications, from a mail service or a local MTA) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_INBOUND_H
#define TURNPOST_HTTP_API_INBOUND_H

#include "http/http.h"

/*
 * Does the request carry the inbound secret (Authorization: Bearer SECRET,
 * or Basic with SECRET as the password)? A signature header cannot be
 * checked before the body is there: has_signature says whether there is one.
 */
int api_inbound_credentials_ok(const struct http_request *rq, int *has_signature);

/* POST /api/v1/inbound/email (docs/email.md). */
void api_inbound_email(struct http_request *rq, struct http_reply *r);

#endif
