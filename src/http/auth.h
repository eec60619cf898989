/* http/auth.h: who is asking: bearer tokens */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_AUTH_H
#define TURNPOST_HTTP_AUTH_H

#include "http/http.h"

/*
 * Read "Authorization: Bearer TOKEN", hash it and look it up. ERR_UNAUTH with
 * a message when missing, malformed, unknown, revoked or expired. A token
 * found is remembered for up to a second, and forgotten as soon as this
 * process commits a change to an existing token, user or seat
 * (store_change_generation), so a revocation made through this server
 * applies to the next request.
 */
int auth_request(const struct http_request *rq, struct http_auth *out, struct err *err);

/* Turn the cache of auth_request on (the default) or off; either way it is emptied. */
void auth_cache_enable(int on);

#endif
