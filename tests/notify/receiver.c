/* tests/notify/receiver.c: a webhook receiver on port 0 that checks signatures and fails on demand */
/* SPDX-License-Identifier: MIT */
#include "receiver.h"

#include <microhttpd.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/buf.h"

struct rx_answer {
	enum rx_mode mode;
	int retry_after;
	int hang_ms;
};

struct receiver {
	struct MHD_Daemon *d;
	int port;
	char url[64];
	unsigned char key[128];
	size_t keylen;
	pthread_mutex_t lock;
	struct rx_answer queue[RX_MAX];
	int qhead, qlen;
	struct rx_delivery seen[RX_MAX];
	int nseen;
	int max_age_ms; /* 0: any timestamp */
};

static long long real_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct rx_req {
	struct buf body;
};

/* Verify "v1,<base64>" against HMAC-SHA256(key, id.ts.body), independently of the server's code. */
static int check_sig(const struct receiver *rx, const char *id, const char *ts, const char *body, size_t len,
		     const char *header)
{
	crypto_auth_hmacsha256_state st;
	unsigned char mac[32];
	char expect[64], head[160];
	int hl;

	if (!id || !ts || !header)
		return 0;
	hl = snprintf(head, sizeof(head), "%s.%s.", id, ts);
	crypto_auth_hmacsha256_init(&st, rx->key, rx->keylen);
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)head, (unsigned long long)hl);
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)body, len);
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_bin2base64(expect, sizeof(expect), mac, sizeof(mac), sodium_base64_VARIANT_ORIGINAL);
	/* the header may list several space-separated signatures */
	for (const char *p = header; *p;) {
		size_t n = strcspn(p, " ");
		if (n == strlen(expect) + 3 && strncmp(p, "v1,", 3) == 0 && strncmp(p + 3, expect, n - 3) == 0)
			return 1;
		p += n;
		while (*p == ' ')
			p++;
	}
	return 0;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
			       const char *version, const char *data, size_t *size, void **req_cls)
{
	struct receiver *rx = cls;
	struct rx_req *rq = *req_cls;
	struct rx_answer a = { RX_OK, 0, 0 };
	struct MHD_Response *resp;
	const char *id, *ts, *sig;
	int status = 200, idx = -1, stale = 0;
	enum MHD_Result ret;

	(void)url, (void)version, (void)method;
	if (!rq) {
		rq = calloc(1, sizeof(*rq));
		buf_init(&rq->body);
		*req_cls = rq;
		return MHD_YES;
	}
	if (*size) {
		buf_add(&rq->body, data, *size);
		*size = 0;
		return MHD_YES;
	}
	id = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "webhook-id");
	ts = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "webhook-timestamp");
	sig = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "webhook-signature");
	pthread_mutex_lock(&rx->lock);
	if (rx->qlen) {
		a = rx->queue[rx->qhead];
		rx->qhead = (rx->qhead + 1) % RX_MAX;
		rx->qlen--;
	}
	if (rx->nseen < RX_MAX) {
		struct rx_delivery *dv = &rx->seen[rx->nseen];
		idx = rx->nseen++;
		snprintf(dv->id, sizeof(dv->id), "%s", id ? id : "");
		dv->timestamp = ts ? strtoll(ts, NULL, 10) : 0;
		dv->at_ms = real_ms();
		if (rx->max_age_ms) {
			long long age = dv->at_ms - dv->timestamp * 1000;
			stale = age > rx->max_age_ms || age < -rx->max_age_ms;
		}
		dv->sig_ok = check_sig(rx, id, ts, rq->body.data, rq->body.len, sig);
		dv->body = json_loadb(rq->body.data, rq->body.len, 0, NULL);
	}
	pthread_mutex_unlock(&rx->lock);
	switch (a.mode) {
	case RX_500: status = 500; break;
	case RX_429: status = 429; break;
	case RX_400: status = 400; break;
	case RX_HANG: {
		struct timespec t = { a.hang_ms / 1000, (long)(a.hang_ms % 1000) * 1000000L };
		nanosleep(&t, NULL);
		status = 200; /* too late: the sender gave up already */
		break;
	}
	default:
		status = 200;
	}
	if (idx >= 0 && !rx->seen[idx].sig_ok && a.mode == RX_OK)
		status = 401;
	if (stale && a.mode == RX_OK)
		status = 400;
	pthread_mutex_lock(&rx->lock);
	if (idx >= 0)
		rx->seen[idx].status = a.mode == RX_HANG ? 0 : status;
	pthread_mutex_unlock(&rx->lock);
	resp = MHD_create_response_from_buffer(2, (void *)"ok", MHD_RESPMEM_PERSISTENT);
	if (a.mode == RX_429) {
		char v[16];
		snprintf(v, sizeof(v), "%d", a.retry_after);
		MHD_add_response_header(resp, "Retry-After", v);
	}
	ret = MHD_queue_response(conn, (unsigned)status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static void completed(void *cls, struct MHD_Connection *conn, void **req_cls, enum MHD_RequestTerminationCode t)
{
	struct rx_req *rq = *req_cls;

	(void)cls, (void)conn, (void)t;
	if (rq) {
		buf_release(&rq->body);
		free(rq);
	}
	*req_cls = NULL;
}

static int listen_on(struct receiver *rx, int port)
{
	const union MHD_DaemonInfo *info;

	rx->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
					 MHD_USE_ERROR_LOG,
				 (uint16_t)port, NULL, NULL, handler, rx, MHD_OPTION_NOTIFY_COMPLETED, completed, rx,
				 MHD_OPTION_LISTENING_ADDRESS_REUSE, 1, MHD_OPTION_END);
	if (!rx->d)
		return -1;
	info = MHD_get_daemon_info(rx->d, MHD_DAEMON_INFO_BIND_PORT);
	rx->port = info ? info->port : 0;
	snprintf(rx->url, sizeof(rx->url), "http://127.0.0.1:%d/hook", rx->port);
	return rx->port > 0 ? 0 : -1;
}

struct receiver *rx_start(const char *secret)
{
	struct receiver *rx = calloc(1, sizeof(*rx));

	pthread_mutex_init(&rx->lock, NULL);
	if (sodium_base642bin(rx->key, sizeof(rx->key), secret + 6, strlen(secret + 6), NULL, &rx->keylen, NULL,
			      sodium_base64_VARIANT_ORIGINAL) != 0 ||
	    listen_on(rx, 0) < 0) {
		rx_stop(rx);
		return NULL;
	}
	return rx;
}

const char *rx_url(const struct receiver *rx)
{
	return rx->url;
}

void rx_push(struct receiver *rx, enum rx_mode mode, int retry_after, int hang_ms)
{
	pthread_mutex_lock(&rx->lock);
	if (rx->qlen < RX_MAX) {
		rx->queue[(rx->qhead + rx->qlen) % RX_MAX] = (struct rx_answer){ mode, retry_after, hang_ms };
		rx->qlen++;
	}
	pthread_mutex_unlock(&rx->lock);
}

void rx_set_max_age(struct receiver *rx, int ms)
{
	pthread_mutex_lock(&rx->lock);
	rx->max_age_ms = ms;
	pthread_mutex_unlock(&rx->lock);
}

void rx_close(struct receiver *rx)
{
	if (rx->d)
		MHD_stop_daemon(rx->d);
	rx->d = NULL;
}

int rx_reopen(struct receiver *rx)
{
	return listen_on(rx, rx->port);
}

int rx_count(struct receiver *rx)
{
	int n;

	pthread_mutex_lock(&rx->lock);
	n = rx->nseen;
	pthread_mutex_unlock(&rx->lock);
	return n;
}

const struct rx_delivery *rx_get(struct receiver *rx, int i)
{
	return i >= 0 && i < rx->nseen ? &rx->seen[i] : NULL;
}

int rx_accepted(struct receiver *rx, const char *id)
{
	int n = 0;

	pthread_mutex_lock(&rx->lock);
	for (int i = 0; i < rx->nseen; i++)
		if (strcmp(rx->seen[i].id, id) == 0 && rx->seen[i].status >= 200 && rx->seen[i].status < 300)
			n++;
	pthread_mutex_unlock(&rx->lock);
	return n;
}

void rx_stop(struct receiver *rx)
{
	if (!rx)
		return;
	rx_close(rx);
	for (int i = 0; i < rx->nseen; i++)
		json_decref(rx->seen[i].body);
	pthread_mutex_destroy(&rx->lock);
	free(rx);
}
