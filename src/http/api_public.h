/* http/api_public.h: the public routes: liveness, metrics, the catalog */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_PUBLIC_H
#define TURNPOST_HTTP_API_PUBLIC_H

#include "http/http.h"

void api_public_healthz(struct http_request *rq, struct http_reply *r);
void api_public_metrics(struct http_request *rq, struct http_reply *r);
void api_public_catalog(struct http_request *rq, struct http_reply *r);

#endif
