/* http/auth.h: who is asking: bearer tokens */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_AUTH_H
#define TURNPOST_HTTP_AUTH_H

#include "http/http.h"

/*
 * Read "Authorization: Bearer TOKEN", hash it and look it up. ERR_UNAUTH with
 * a message when missing, malformed, unknown, revoked or expired.
 */
int auth_request(const struct http_request *rq, struct http_auth *out, struct err *err);

#endif
