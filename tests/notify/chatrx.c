/* tests/notify/chatrx.c: a fake chat service on loopback (Discord, Slack, Matrix, ntfy): records each request, answers as told */
/* SPDX-License-Identifier: MIT */
#include "chatrx.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

struct crx_answer {
	int status, retry_after;
	char location[256];
};

struct chatrx {
	struct MHD_Daemon *d;
	char base[64];
	pthread_mutex_t lock;
	struct crx_answer queue[CRX_MAX];
	int qhead, qlen;
	struct crx_request seen[CRX_MAX];
	int nseen;
};

static void copy_header(struct MHD_Connection *conn, const char *name, char *out, size_t size)
{
	const char *v = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);

	snprintf(out, size, "%s", v ? v : "");
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
			       const char *version, const char *data, size_t *size, void **req_cls)
{
	struct chatrx *x = cls;
	struct buf *body = *req_cls;
	struct crx_answer a = { 200, 0, "" };
	struct MHD_Response *resp;
	enum MHD_Result ret;

	(void)version;
	if (!body) {
		body = calloc(1, sizeof(*body));
		buf_init(body);
		*req_cls = body;
		return MHD_YES;
	}
	if (*size) {
		buf_add(body, data, *size);
		*size = 0;
		return MHD_YES;
	}
	pthread_mutex_lock(&x->lock);
	if (x->qlen) {
		a = x->queue[x->qhead];
		x->qhead = (x->qhead + 1) % CRX_MAX;
		x->qlen--;
	}
	if (x->nseen < CRX_MAX) {
		struct crx_request *r = &x->seen[x->nseen++];
		snprintf(r->method, sizeof(r->method), "%s", method);
		snprintf(r->path, sizeof(r->path), "%s", url);
		copy_header(conn, "Authorization", r->auth, sizeof(r->auth));
		copy_header(conn, "Content-Type", r->ctype, sizeof(r->ctype));
		copy_header(conn, "webhook-id", r->webhook_id, sizeof(r->webhook_id));
		copy_header(conn, "webhook-timestamp", r->webhook_ts, sizeof(r->webhook_ts));
		copy_header(conn, "webhook-signature", r->webhook_sig, sizeof(r->webhook_sig));
		r->body = strndup(body->data, body->len);
		r->json = json_loadb(body->data, body->len, 0, NULL);
		r->status = a.status;
	}
	pthread_mutex_unlock(&x->lock);
	resp = MHD_create_response_from_buffer(2, (void *)"{}", MHD_RESPMEM_PERSISTENT);
	if (a.retry_after) {
		char v[16];
		snprintf(v, sizeof(v), "%d", a.retry_after);
		MHD_add_response_header(resp, "Retry-After", v);
	}
	if (a.location[0])
		MHD_add_response_header(resp, "Location", a.location);
	ret = MHD_queue_response(conn, (unsigned)a.status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static void completed(void *cls, struct MHD_Connection *conn, void **req_cls, enum MHD_RequestTerminationCode t)
{
	struct buf *body = *req_cls;

	(void)cls, (void)conn, (void)t;
	if (body) {
		buf_release(body);
		free(body);
	}
	*req_cls = NULL;
}

struct chatrx *crx_start(void)
{
	struct chatrx *x = calloc(1, sizeof(*x));
	const union MHD_DaemonInfo *info;

	pthread_mutex_init(&x->lock, NULL);
	x->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG, 0,
				NULL, NULL, handler, x, MHD_OPTION_NOTIFY_COMPLETED, completed, x, MHD_OPTION_END);
	info = x->d ? MHD_get_daemon_info(x->d, MHD_DAEMON_INFO_BIND_PORT) : NULL;
	if (!info || !info->port) {
		crx_stop(x);
		return NULL;
	}
	snprintf(x->base, sizeof(x->base), "http://127.0.0.1:%d", info->port);
	return x;
}

const char *crx_base(const struct chatrx *x)
{
	return x->base;
}

void crx_push(struct chatrx *x, int status, int retry_after, const char *location)
{
	pthread_mutex_lock(&x->lock);
	if (x->qlen < CRX_MAX) {
		struct crx_answer *a = &x->queue[(x->qhead + x->qlen) % CRX_MAX];
		a->status = status;
		a->retry_after = retry_after;
		snprintf(a->location, sizeof(a->location), "%s", location ? location : "");
		x->qlen++;
	}
	pthread_mutex_unlock(&x->lock);
}

int crx_count(struct chatrx *x)
{
	int n;

	pthread_mutex_lock(&x->lock);
	n = x->nseen;
	pthread_mutex_unlock(&x->lock);
	return n;
}

const struct crx_request *crx_get(struct chatrx *x, int i)
{
	return i >= 0 && i < x->nseen ? &x->seen[i] : NULL;
}

void crx_stop(struct chatrx *x)
{
	if (!x)
		return;
	if (x->d)
		MHD_stop_daemon(x->d);
	for (int i = 0; i < x->nseen; i++) {
		free(x->seen[i].body);
		json_decref(x->seen[i].json);
	}
	pthread_mutex_destroy(&x->lock);
	free(x);
}
