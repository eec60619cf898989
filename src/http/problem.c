/* http/problem.c: errors as application/problem+json, and the one error-to-status mapping */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "http/http.h"
#include "http/jsonw.h"
#include "util/banned.h"

int http_status_for(int errcode)
{
	switch (errcode) {
	case ERR_OK: return 200;
	case ERR_INPUT: return 400;
	case ERR_UNAUTH: return 401;
	case ERR_FORBIDDEN: return 403;
	case ERR_NOTFOUND: return 404;
	case ERR_CONFLICT: return 409;
	case ERR_STALE: return 412;
	case ERR_TOOLARGE: return 413;
	case ERR_UNSUPPORTED: return 415;
	case ERR_ILLEGAL: return 422;
	case ERR_LIMIT: return 429;
	case ERR_STORE: return 503;
	default: return 500;
	}
}

static const char *title_for(int status)
{
	switch (status) {
	case 400: return "Bad request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not found";
	case 405: return "Method not allowed";
	case 409: return "Conflict";
	case 412: return "Precondition failed";
	case 413: return "Content too large";
	case 415: return "Unsupported media type";
	case 422: return "Unprocessable content";
	case 429: return "Too many requests";
	case 503: return "Service unavailable";
	default: return "Internal server error";
	}
}

void http_reply_json(struct http_reply *r, int status, json_t *value)
{
	r->status = status;
	r->content_type = "application/json";
	buf_reset(&r->body);
	/* the same text as json_dumps(JSON_COMPACT), without its allocations per node */
	if (jsonw_dump(&r->body, value, 0) == 0)
		buf_addc(&r->body, '\n');
	json_decref(value);
}

void http_reply_problem(struct http_reply *r, int errcode, const char *code, const char *detail, json_t *extra)
{
	int status = http_status_for(errcode);
	json_t *o = json_object();

	json_object_set_new(o, "type", json_string("about:blank"));
	json_object_set_new(o, "title", json_string(title_for(status)));
	json_object_set_new(o, "status", json_integer(status));
	json_object_set_new(o, "code", json_string(code ? code : err_code_name(errcode)));
	json_object_set_new(o, "detail", json_string(detail && *detail ? detail : title_for(status)));
	if (extra) {
		json_object_update(o, extra);
		json_decref(extra);
	}
	if (r->request_id && *r->request_id)
		json_object_set_new(o, "request_id", json_string(r->request_id));
	http_reply_json(r, status, o);
	r->content_type = "application/problem+json";
}
