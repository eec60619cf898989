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
	/* the messages posted (ids), and which were deleted */
	char msgs[CRX_MAX][80];
	int deleted[CRX_MAX];
	int nmsgs;
};

/* Is id a message posted and not deleted? Under the lock. */
static int msg_live(const struct chatrx *x, const char *id)
{
	for (int i = 0; i < x->nmsgs; i++)
		if (strcmp(x->msgs[i], id) == 0)
			return !x->deleted[i];
	return 0;
}

static void msg_add(struct chatrx *x, const char *id)
{
	if (x->nmsgs < CRX_MAX && !msg_live(x, id))
		snprintf(x->msgs[x->nmsgs++], sizeof(x->msgs[0]), "%s", id);
}

/*
 * What a chat app answers to a request (no answer queued): *status and the
 * body (new). Under the lock.
 */
static char *app_answer(struct chatrx *x, const char *method, const char *url, const char *wait, json_t *body,
			int *status)
{
	const char *m = strstr(url, "/messages/"), *send = strstr(url, "/send/m.room.message/");
	char id[80];
	json_t *o = NULL;
	char *out;

	if (strcmp(method, "POST") == 0 && strcmp(wait, "true") == 0) {
		/* a Discord message object: its id, and more than any short buffer holds */
		snprintf(id, sizeof(id), "%d", 1001 + x->nmsgs);
		msg_add(x, id);
		o = json_pack("{s:s,s:i,s:O?,s:s,s:{s:s,s:s,s:b},s:[],s:[],s:s}", "id", id, "type", 0, "content",
			      json_object_get(body, "content"), "channel_id", "290926798999357250", "author", "id",
			      "53908232506183680", "username", "turnpost", "bot", 1, "embeds", "attachments",
			      "timestamp", "2026-12-07T17:00:00.000000+00:00");
		json_object_set_new(o, "padding", json_string("a message object is long: ............................"
							      "............................................................"
							      "............................................................"
							      "............................................................"
							      "............................................................"));
	} else if (strcmp(method, "PATCH") == 0 && m) {
		if (!msg_live(x, m + strlen("/messages/"))) {
			*status = 404;
			o = json_pack("{s:s,s:i}", "message", "Unknown Message", "code", 10008);
		} else {
			o = json_pack("{s:s,s:O?}", "id", m + strlen("/messages/"), "content",
				      json_object_get(body, "content"));
		}
	} else if (strcmp(method, "PUT") == 0 && send) {
		const char *edits = json_string_value(
			json_object_get(json_object_get(body, "m.relates_to"), "event_id"));
		if (edits && !msg_live(x, edits)) {
			*status = 404;
			o = json_pack("{s:s,s:s}", "errcode", "M_NOT_FOUND", "error", "Unknown event");
		} else {
			snprintf(id, sizeof(id), "$ev-%s", send + strlen("/send/m.room.message/"));
			if (!edits)
				msg_add(x, id);
			o = json_pack("{s:s}", "event_id", id);
		}
	}
	out = o ? json_dumps(o, JSON_COMPACT) : strdup("{}");
	json_decref(o);
	return out;
}

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
	const char *wait;
	json_t *json;
	char *answer = NULL;
	int queued = 0;

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
	wait = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "wait");
	json = json_loadb(body->data, body->len, 0, NULL);
	pthread_mutex_lock(&x->lock);
	if (x->qlen) {
		a = x->queue[x->qhead];
		x->qhead = (x->qhead + 1) % CRX_MAX;
		x->qlen--;
		queued = 1;
	}
	if (!queued)
		answer = app_answer(x, method, url, wait ? wait : "", json, &a.status);
	if (x->nseen < CRX_MAX) {
		struct crx_request *r = &x->seen[x->nseen++];
		snprintf(r->method, sizeof(r->method), "%s", method);
		snprintf(r->path, sizeof(r->path), "%s", url);
		copy_header(conn, "Authorization", r->auth, sizeof(r->auth));
		copy_header(conn, "Content-Type", r->ctype, sizeof(r->ctype));
		copy_header(conn, "webhook-id", r->webhook_id, sizeof(r->webhook_id));
		copy_header(conn, "webhook-timestamp", r->webhook_ts, sizeof(r->webhook_ts));
		copy_header(conn, "webhook-signature", r->webhook_sig, sizeof(r->webhook_sig));
		snprintf(r->wait, sizeof(r->wait), "%s", wait ? wait : "");
		r->body = strndup(body->data, body->len);
		r->json = json;
		json = NULL;
		r->status = a.status;
	}
	pthread_mutex_unlock(&x->lock);
	json_decref(json);
	if (answer)
		resp = MHD_create_response_from_buffer(strlen(answer), answer, MHD_RESPMEM_MUST_FREE);
	else
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

void crx_delete(struct chatrx *x, const char *id)
{
	pthread_mutex_lock(&x->lock);
	for (int i = 0; i < x->nmsgs; i++)
		if (strcmp(x->msgs[i], id) == 0)
			x->deleted[i] = 1;
	pthread_mutex_unlock(&x->lock);
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
