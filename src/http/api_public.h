/* http/api_public.h: the public routes: liveness, metrics, the catalog */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_API_PUBLIC_H
#define TURNPOST_HTTP_API_PUBLIC_H

#include "http/http.h"

/* Liveness and how the server does: "ok", or "degraded" with the problems (200); 503 when the database does not answer. */
void api_public_healthz(struct http_request *rq, struct http_reply *r);
/* Readiness for traffic: 200 when the database answers and writes can be made durable, else 503. */
void api_public_readyz(struct http_request *rq, struct http_reply *r);
void api_public_metrics(struct http_request *rq, struct http_reply *r);
void api_public_catalog(struct http_request *rq, struct http_reply *r);

#endif
