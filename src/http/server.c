/* http/server.c: libmicrohttpd glue: request life cycle, body limits, logging, dispatch */
/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "http/prefix.h"
#include "http/api_inbound.h"
#include "http/auth.h"
#include "http/form.h"
#include "http/ratelimit.h"
#include "http/http.h"
#include "http/session.h"
#include "http/web.h"
#include "http/metrics.h"
#include "http/routes.h"
#include "util/clock.h"
#include "util/embed.h"
#include "util/log.h"
#include "http/connwatch.h"
#include "util/netaddr.h"
#include "util/banned.h"

struct http_server {
	struct MHD_Daemon *d;
	struct http_config cfg;
	struct store *store;
	atomic_int inflight;
	atomic_int suspended; /* deferred answers not made yet (http_defer) */
	atomic_int stopping;  /* http_server_stop has begun: nothing more is suspended */
	int port;
	char base_url[256];
	char prefix[64];      /* the path of base_url ("/turnpost"), "" when none (http/prefix.h) */
	int secure_cookies;
	struct render_set *pages;
	struct ratelimit *limits;
	void (*_Atomic on_write)(void *ctx); /* called after a successful write request */
	_Atomic(void *) on_write_ctx;
	struct netaddr_range proxies[NETADDR_MAX_RANGES]; /* --trusted-proxy */
	int nproxies;
	atomic_uint_fast64_t requests; /* served so far: the request ids' counter */
	uint32_t id_prefix;            /* random per start, so ids of two starts differ */
	char unix_path[108]; /* listening on this unix socket, removed at stop; "" when on TCP */
	struct connwatch *watch; /* --header-timeout, --body-timeout */
};

/* The watch's entry of a connection (its socket context); NULL when none. */
static void *watch_entry(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct http_server *srv = cls;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
		if (ci)
			connwatch_started(srv->watch, ci->connect_fd, socket_context);
	} else {
		connwatch_closed(srv->watch, socket_context);
	}
}

const char *http_header(const struct http_request *rq, const char *name)
{
	return MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, name);
}

/* The q of one Accept-Encoding item's parameters (from just after the coding): 1 when none is given. */
static double coding_q(const char *p, const char *end)
{
	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		if (!semi)
			break;
		p = semi + 1;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=')
			return strtod(p + 2, NULL);
	}
	return 1;
}

int http_accepts_gzip(const char *v)
{
	double gzip = -1, any = -1;

	while (v && *v) {
		const char *end = v + strcspn(v, ","), *name = v, *name_end;
		while (name < end && (*name == ' ' || *name == '\t'))
			name++;
		name_end = name;
		while (name_end < end && *name_end != ';' && *name_end != ' ' && *name_end != '\t')
			name_end++;
		if ((name_end - name == 4 && strncasecmp(name, "gzip", 4) == 0) ||
		    (name_end - name == 6 && strncasecmp(name, "x-gzip", 6) == 0))
			gzip = coding_q(name_end, end);
		else if (name_end - name == 1 && *name == '*')
			any = coding_q(name_end, end);
		v = *end ? end + 1 : end;
	}
	return gzip >= 0 ? gzip > 0 : any > 0;
}

const char *http_query(const struct http_request *rq, const char *name)
{
	return MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, name);
}

const char *http_cookie(const struct http_request *rq, const char *name)
{
	return MHD_lookup_connection_value(rq->conn, MHD_COOKIE_KIND, name);
}

struct store *http_store(const struct http_request *rq)
{
	return rq->srv->store;
}

struct ratelimit *http_ratelimit(const struct http_request *rq)
{
	return rq->srv->limits;
}

int http_limited_create(struct http_request *rq, struct http_reply *r, int64_t user_id, int invites, int count)
{
	char key[24];
	int retry;

	snprintf(key, sizeof(key), "%lld", (long long)user_id);
	if (!count)
		return http_limited(rq, r, RATELIMIT_CREATE, key, 1, 0) ||
		       http_limited(rq, r, RATELIMIT_INVITE, key, invites, 0);
	/* after the game was made (checked just before): counted, and the answer stays the game's */
	ratelimit_take(rq->srv->limits, RATELIMIT_CREATE, key, 1, clock_now_ms(), &retry);
	ratelimit_take(rq->srv->limits, RATELIMIT_INVITE, key, invites, clock_now_ms(), &retry);
	return 0;
}

void http_bad_token(struct http_request *rq)
{
	int retry;

	ratelimit_take(rq->srv->limits, RATELIMIT_BAD_TOKEN, rq->client, 1, clock_now_ms(), &retry);
}

int http_limited(struct http_request *rq, struct http_reply *r, enum ratelimit_kind kind, const char *key, int n,
		 int count)
{
	int64_t now = clock_now_ms();
	int retry, rc;

	rc = count ? ratelimit_take(rq->srv->limits, kind, key, n, now, &retry)
		   : ratelimit_check(rq->srv->limits, kind, key, n, now, &retry);
	if (rc == 0)
		return 0;
	snprintf(r->retry_after, sizeof(r->retry_after), "%d", retry);
	if (strncmp(rq->path, "/api/", 5) == 0)
		http_reply_problem(r, ERR_LIMIT, "rate_limited", ratelimit_message(kind), NULL);
	else
		web_error_page(rq, r, 429, ratelimit_message(kind));
	return 1;
}

const struct render_set *http_pages(const struct http_request *rq)
{
	return rq->srv->pages;
}

const char *http_base_url(const struct http_request *rq)
{
	return rq->srv->base_url;
}

void http_reply_cookie(struct http_reply *r, const struct http_request *rq, const char *name, const char *value,
		       long max_age)
{
	char age[48] = "";

	if (r->ncookies >= 3)
		return;
	if (max_age >= 0)
		snprintf(age, sizeof(age), "; Max-Age=%ld", max_age);
	snprintf(r->cookies[r->ncookies++], sizeof(r->cookies[0]), "%s=%s; Path=%s; HttpOnly; SameSite=Lax%s%s", name,
		 value, rq->srv->prefix[0] ? rq->srv->prefix : "/", rq->srv->secure_cookies ? "; Secure" : "", age);
}

void http_reply_redirect(struct http_reply *r, const char *path)
{
	r->status = 303;
	r->content_type = "text/plain; charset=utf-8";
	snprintf(r->location, sizeof(r->location), "%s", path);
	buf_reset(&r->body);
	buf_addf(&r->body, "See %s\n", path);
}

const struct http_config *http_config(const struct http_request *rq)
{
	return &rq->srv->cfg;
}

/* Each X-Forwarded-For header value, in order, comma-joined into b. */
static enum MHD_Result collect_forwarded(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct buf *b = cls;

	(void)kind;
	if (key && value && strcasecmp(key, "X-Forwarded-For") == 0)
		buf_addf(b, "%s%s", b->len ? "," : "", value);
	return MHD_YES;
}

/*
 * The client: the peer, unless the peer is a trusted proxy (or a process on
 * this host through the unix socket); then the right-most address of
 * X-Forwarded-For that is not a trusted proxy, read from the right (the
 * left part is whatever the client sent). An entry that is not an address
 * stops the walk at the last good one.
 */
static int client_address(const struct http_server *srv, struct MHD_Connection *conn, char out[64])
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;
	struct netaddr peer;
	struct buf fwd = BUF_INIT;
	int trusted;

	snprintf(out, 64, "unknown");
	if (!sa)
		return 0;
	if (sa->sa_family == AF_INET) {
		peer.family = AF_INET;
		memset(peer.bytes, 0, sizeof(peer.bytes));
		memcpy(peer.bytes, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		trusted = netaddr_in(srv->proxies, srv->nproxies, &peer);
		netaddr_text(&peer, out);
	} else if (sa->sa_family == AF_INET6) {
		char text[64];
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, text, sizeof(text));
		if (netaddr_parse(text, &peer) < 0)
			return 0;
		trusted = netaddr_in(srv->proxies, srv->nproxies, &peer);
		netaddr_text(&peer, out);
	} else if (sa->sa_family == AF_UNIX) {
		snprintf(out, 64, "unix");
		trusted = 1;
	} else {
		return 0;
	}
	if (!trusted)
		return 0;
	MHD_get_connection_values(conn, MHD_HEADER_KIND, collect_forwarded, &fwd);
	for (size_t end = fwd.len; end > 0;) {
		size_t start = end;
		struct netaddr a;
		char item[80];
		const char *p;
		size_t len;

		while (start > 0 && fwd.data[start - 1] != ',')
			start--;
		p = fwd.data + start;
		len = end - start;
		while (len && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == 0 || len >= sizeof(item))
			break;
		memcpy(item, p, len);
		item[len] = '\0';
		if (netaddr_parse(item, &a) < 0)
			break;
		netaddr_text(&a, out);
		if (!netaddr_in(srv->proxies, srv->nproxies, &a))
			break;
		end = start ? start - 1 : 0;
	}
	buf_release(&fwd);
	return 1;
}

/* A request id a proxy may pass on: 1 to 36 of [A-Za-z0-9._-], so a log line cannot be forged with it. */
static int request_id_ok(const char *v)
{
	size_t n = v ? strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") : 0;
	return n >= 1 && n <= 36 && v[n] == '\0';
}

/* The request's id: a trusted proxy's X-Request-Id, else 16 hex digits unique in this process's life. */
static void request_id(struct http_server *srv, struct MHD_Connection *conn, int from_proxy, char out[40])
{
	const char *given = from_proxy ? MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-Id") : NULL;
	uint64_t n;

	if (request_id_ok(given)) {
		snprintf(out, 40, "%s", given);
		return;
	}
	n = atomic_fetch_add(&srv->requests, 1);
	snprintf(out, 40, "%08x%08llx", srv->id_prefix, (unsigned long long)(n & 0xffffffffULL));
}

static enum MHD_Result send_reply(struct MHD_Connection *conn, struct http_reply *r)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;
	size_t len = r->body.len;
	char *data = buf_detach(&r->body, NULL);

	resp = MHD_create_response_from_buffer(len, data, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(data);
		return MHD_NO;
	}
	if (r->content_type)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->content_type);
	if (r->etag[0]) {
		char etag[40];
		snprintf(etag, sizeof(etag), "\"%s\"", r->etag);
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, etag);
	}
	if (r->location[0])
		MHD_add_response_header(resp, MHD_HTTP_HEADER_LOCATION, r->location);
	if (r->request_id && *r->request_id)
		MHD_add_response_header(resp, "X-Request-Id", r->request_id);
	/* every 503 says when to come back (the store's trouble is usually brief, or needs a restart) */
	if (r->status == 503 && !r->retry_after[0])
		snprintf(r->retry_after, sizeof(r->retry_after), "5");
	if (r->retry_after[0])
		MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, r->retry_after);
	if (r->preference_applied)
		MHD_add_response_header(resp, "Preference-Applied", r->preference_applied);
	if (r->service_worker_allowed)
		MHD_add_response_header(resp, "Service-Worker-Allowed", r->service_worker_allowed);
	if (r->content_encoding)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, r->content_encoding);
	if (r->vary)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, r->vary);
	for (int i = 0; i < r->ncookies; i++)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_SET_COOKIE, r->cookies[i]);
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "Referrer-Policy", "same-origin");
	if (r->content_type && strncmp(r->content_type, "text/html", 9) == 0) {
		MHD_add_response_header(resp, "Content-Security-Policy",
					"default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
					"form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
		MHD_add_response_header(resp, "X-Frame-Options", "DENY");
	}
	if (!r->cache)
		MHD_add_response_header(resp, "Cache-Control", r->cache_control ? r->cache_control : "no-store");
	else
		MHD_add_response_header(resp, "Cache-Control", "public, max-age=3600");
	ret = MHD_queue_response(conn, (unsigned)r->status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static void dispatch(struct http_request *rq, struct http_reply *reply)
{
	int path_known = 0;
	const struct route *rt;
	struct err e = {0};

	if (rq->too_large) {
		char detail[128];
		snprintf(detail, sizeof(detail), "the request body is larger than the limit of %zu bytes",
			 rq->body_limit);
		http_reply_problem(reply, ERR_TOOLARGE, "body_too_large", detail, NULL);
		return;
	}
	rt = routes_match(rq->method, rq->path, rq, &path_known);
	rq->route = rt ? rt->pattern : NULL;
	if (!rt) {
		if (path_known)
			http_reply_problem(reply, ERR_INPUT, "method_not_allowed",
					   "this path does not accept that method", NULL), reply->status = 405;
		else if (strncmp(rq->path, "/api/", 5) == 0)
			http_reply_problem(reply, ERR_NOTFOUND, "no_such_route", "no such page or endpoint", NULL);
		else {
			session_load(rq);
			web_error_page(rq, reply, 404, "There is no such page.");
		}
		return;
	}
	if (rt->flags & ROUTE_WEB) {
		session_load(rq);
		if (strcmp(rq->method, "POST") == 0) {
			const char *ct = http_header(rq, MHD_HTTP_HEADER_CONTENT_TYPE);
			if (!ct || strncmp(ct, "application/x-www-form-urlencoded", 33) != 0) {
				web_error_page(rq, reply, 400, "This form must be sent as application/x-www-form-urlencoded.");
				return;
			}
			if (form_parse_max(rq->body.data, rq->body.len, (rt->flags & ROUTE_UPLOAD) && rq->sess.is_admin
					   ? rq->body_limit : FORM_MAX_VALUE,
					   &rq->form, &e) < 0) {
				web_error_page(rq, reply, 400, e.msg);
				return;
			}
			if (!session_csrf_ok(rq, form_get(rq->form, "csrf"))) {
				web_error_page(rq, reply, 403,
					       "This form has expired or did not come from this site. Reload the page and try again.");
				return;
			}
		}
		if ((rt->flags & ROUTE_ADMIN) && !rq->sess.is_admin) {
			web_error_page(rq, reply, rq->sess.user_id ? 403 : 401,
				       rq->sess.user_id ? "This page is for admins." : "Sign in first.");
			return;
		}
		if (routes_prepare(rt, rq, reply) == 0)
			rt->handler(rq, reply);
		return;
	}
	if (!(rt->flags & ROUTE_PUBLIC) ||
	    (http_header(rq, MHD_HTTP_HEADER_AUTHORIZATION) && !(rt->flags & (ROUTE_INBOUND | ROUTE_OWN_SECRET)))) {
		int rc;
		/* guessing tokens: a client that sent too many bad ones is stopped before the next lookup */
		if (http_header(rq, MHD_HTTP_HEADER_AUTHORIZATION) &&
		    http_limited(rq, reply, RATELIMIT_BAD_TOKEN, rq->client, 1, 0))
			return;
		rc = auth_request(rq, &rq->auth, &e);
		if (rc < 0) {
			if (rc == ERR_UNAUTH && http_header(rq, MHD_HTTP_HEADER_AUTHORIZATION))
				http_bad_token(rq);
			http_reply_problem(reply, rc, NULL, e.msg, NULL);
			return;
		}
		if ((rt->flags & ROUTE_ADMIN) && !rq->auth.is_admin) {
			http_reply_problem(reply, ERR_FORBIDDEN, "admin_only", "this needs an admin's token", NULL);
			return;
		}
	}
	if (routes_prepare(rt, rq, reply) == 0)
		rt->handler(rq, reply);
}

/*
 * The body limit of a request: larger for an upload route (a replay file)
 * when an admin is asking, so nobody else can make the server hold that
 * much; the configured one otherwise.
 */
static size_t body_limit_for(struct http_server *srv, struct MHD_Connection *conn, const char *method,
			     const char *url)
{
	struct http_request probe;
	const struct route *rt;
	struct err e = {0};
	int known, admin;

	memset(&probe, 0, sizeof(probe));
	probe.srv = srv;
	probe.conn = conn;
	rt = routes_match(method, url, &probe, &known);
	if (rt && (rt->flags & ROUTE_INBOUND)) {
		/*
		 * A whole email with attachments: only for a sender that shows the
		 * secret in a header. A signature can only be checked once the body
		 * is here, and anyone can send the header, so it raises nothing.
		 */
		int has_sig = 0;
		if (api_inbound_credentials_ok(&probe, &has_sig))
			return srv->cfg.inbound_body_limit > srv->cfg.body_limit ? srv->cfg.inbound_body_limit
										 : srv->cfg.body_limit;
		return srv->cfg.body_limit;
	}
	if (!rt || !(rt->flags & ROUTE_UPLOAD) || ROUTE_UPLOAD_LIMIT <= srv->cfg.body_limit)
		return srv->cfg.body_limit;
	if (rt->flags & ROUTE_WEB) {
		session_load(&probe);
		admin = probe.sess.is_admin;
	} else {
		admin = auth_request(&probe, &probe.auth, &e) == 0 && probe.auth.is_admin;
	}
	return admin ? ROUTE_UPLOAD_LIMIT : srv->cfg.body_limit;
}

/*
 * srv->suspended counts deferred answers not made yet: up from http_defer,
 * down once the connection is resumed (after MHD_resume_connection returned,
 * so the daemon is not stopped under it) or once the answer is made without
 * suspending. http_server_stop sets srv->stopping and then waits for the
 * count to reach 0; a handler counts itself first and then reads stopping,
 * so either it sees the stop and does not suspend (it waits on its thread
 * instead: a stopping daemon joins its threads anyway), or the stop sees it.
 */
void http_defer(struct http_request *rq, struct http_reply *r, http_finish_fn finish, void *ctx)
{
	struct http_server *srv = rq->srv;

	atomic_fetch_add(&srv->suspended, 1);
	pthread_mutex_lock(&rq->defer_lock);
	if (!rq->woken && !atomic_load(&srv->stopping)) {
		rq->finish = finish;
		rq->finish_ctx = ctx;
		MHD_suspend_connection(rq->conn);
		rq->suspended = 1;
		pthread_mutex_unlock(&rq->defer_lock);
		return;
	}
	rq->waiting = 1;
	while (!rq->woken)
		pthread_cond_wait(&rq->defer_cond, &rq->defer_lock);
	rq->waiting = 0;
	pthread_mutex_unlock(&rq->defer_lock);
	atomic_fetch_sub(&srv->suspended, 1);
	finish(rq, r, ctx);
}

void http_wake(void *arg)
{
	struct http_request *rq = arg;
	struct http_server *srv = rq->srv;
	struct MHD_Connection *conn = rq->conn;
	int suspended;

	pthread_mutex_lock(&rq->defer_lock);
	rq->woken = 1;
	suspended = rq->suspended;
	if (rq->waiting)
		pthread_cond_signal(&rq->defer_cond);
	pthread_mutex_unlock(&rq->defer_lock);
	/* from here on rq may be answered and freed by its thread: only conn and srv are used */
	if (suspended) {
		MHD_resume_connection(conn);
		atomic_fetch_sub(&srv->suspended, 1);
	}
}

/* After an answer to a write request that succeeded: wake the notifier (it may have something due). */
static void after_write(struct http_server *srv, const char *method, int status)
{
	if (status >= 200 && status < 400 && strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
		void (*fn)(void *) = atomic_load(&srv->on_write);
		if (fn)
			fn(atomic_load(&srv->on_write_ctx));
	}
}

/* The deferred answer's turn (the connection was resumed, or ended first): once. */
static void finish_deferred(struct http_request *rq, struct http_reply *r)
{
	http_finish_fn fn;

	/* the wake-up happened before: its writes are seen */
	pthread_mutex_lock(&rq->defer_lock);
	fn = rq->finish;
	rq->finish = NULL;
	rq->suspended = 0;
	pthread_mutex_unlock(&rq->defer_lock);
	fn(rq, r, rq->finish_ctx);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				  const char *version, const char *upload_data, size_t *upload_data_size,
				  void **req_cls)
{
	struct http_server *srv = cls;
	struct http_request *rq = *req_cls;
	struct http_reply reply = { .status = 500, .body = BUF_INIT };
	enum MHD_Result ret;

	(void)version;
	if (!rq) {
		const char *cl;

		rq = calloc(1, sizeof(*rq));
		if (!rq)
			return MHD_NO;
		rq->srv = srv;
		rq->conn = conn;
		rq->method = method;
		/* under a base URL with a path, the same page with the path (a proxy that keeps it) or without */
		url = prefix_strip(srv->prefix, url);
		rq->path = url;
		rq->start_ms = clock_mono_ms();
		rq->auth.seat = -1;
		pthread_mutex_init(&rq->defer_lock, NULL);
		pthread_cond_init(&rq->defer_cond, NULL);
		buf_init(&rq->body);
		request_id(srv, conn, client_address(srv, conn, rq->client), rq->request_id);
		rq->body_limit = body_limit_for(srv, conn, method, url);
		*req_cls = rq;
		/* the headers are in: the body is due within --body-timeout */
		connwatch_headers_read(srv->watch, watch_entry(conn));
		atomic_fetch_add(&srv->inflight, 1);
		cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
		if (cl && strtoull(cl, NULL, 10) > rq->body_limit) {
			rq->too_large = 1;
			goto respond;
		}
		return MHD_YES;
	}
	reply.request_id = rq->request_id;
	if (rq->finish) {
		/* resumed: the work of http_defer is over */
		finish_deferred(rq, &reply);
		goto reply;
	}
	if (*upload_data_size) {
		if (!rq->too_large && rq->body.len + *upload_data_size <= rq->body_limit)
			buf_add(&rq->body, upload_data, *upload_data_size);
		else
			rq->too_large = 1;
		*upload_data_size = 0;
		return MHD_YES;
	}
respond:
	/* read whole: no deadline while it is answered (a move may wait for its sync) */
	connwatch_request_read(srv->watch, watch_entry(conn));
	dispatch(rq, &reply);
	if (rq->suspended) {
		/* answered when resumed */
		buf_release(&reply.body);
		return MHD_YES;
	}
reply:
	session_finish_reply(rq, &reply);
	/* every link the answer gives carries the base URL's path */
	prefix_path(srv->prefix, reply.location, sizeof(reply.location));
	if (reply.content_type && strncmp(reply.content_type, "text/html", 9) == 0)
		prefix_html(srv->prefix, &reply.body);
	metrics_count_request(reply.status);
	rq->status = reply.status;
	after_write(srv, method, reply.status);
	ret = send_reply(conn, &reply);
	buf_release(&reply.body);
	return ret;
}

/*
 * How much of a path the request log shows: all of it, except that a
 * path carrying a capability token (a seat link, a sign-in link, an
 * unsubscribe link, a private feed) stops
 * before the token, so the log never holds something that signs in.
 */
static int log_path_length(const char *path)
{
	static const char *const secret_prefixes[] = { "/s/", "/signin/", "/unsubscribe/", "/feeds/" };

	for (size_t i = 0; i < sizeof(secret_prefixes) / sizeof(secret_prefixes[0]); i++) {
		size_t n = strlen(secret_prefixes[i]);
		if (strncmp(path, secret_prefixes[i], n) == 0 && path[n])
			return (int)n;
	}
	/* an address confirmation link (engine/account_email.h) signs nothing in, but changes an address */
	if (strncmp(path, "/account/email/", 15) == 0 && path[15])
		return 15;
	return (int)strlen(path);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct http_server *srv = cls;
	struct http_request *rq = *req_cls;

	if (!rq)
		return;
	connwatch_answered(srv->watch, watch_entry(conn));
	if (rq->finish) {
		/* the connection ended before the deferred answer was made: its work is over, free it */
		struct http_reply scratch = { .status = 500, .body = BUF_INIT, .request_id = rq->request_id };
		finish_deferred(rq, &scratch);
		metrics_count_request(scratch.status);
		rq->status = scratch.status;
		after_write(srv, rq->method, scratch.status);
		buf_release(&scratch.body);
	}
	metrics_observe_request(rq->method, rq->route, clock_mono_ms() - rq->start_ms);
	if (srv->cfg.log_requests) {
		int shown = log_path_length(rq->path);
		char path[512];

		snprintf(path, sizeof(path), "%.*s", shown, rq->path);
		log_request(&(struct log_request){ .method = rq->method, .path = path, .path_cut = rq->path[shown] != '\0',
						   .route = rq->route, .status = rq->status,
						   .ms = clock_mono_ms() - rq->start_ms, .client = rq->client,
						   .request_id = rq->request_id,
						   .ended_early = toe != MHD_REQUEST_TERMINATED_COMPLETED_OK });
	}
	buf_release(&rq->body);
	form_free(rq->form);
	json_decref(rq->json);
	pthread_cond_destroy(&rq->defer_cond);
	pthread_mutex_destroy(&rq->defer_lock);
	free(rq);
	*req_cls = NULL;
	atomic_fetch_sub(&srv->inflight, 1);
}

static int hex_value(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * Percent-decoding of paths and query values, in place: as libmicrohttpd's
 * own, except that %00 stays as it is written. Decoded, it would end the C
 * string early, and /api/v1/games/1%00anything would be /api/v1/games/1;
 * kept, no route matches it (404) and no value holds a NUL.
 */
static size_t unescape(void *cls, struct MHD_Connection *conn, char *s)
{
	char *w = s;

	(void)cls;
	(void)conn;
	for (const char *p = s; *p; p++) {
		int hi, lo;
		if (*p == '%' && (hi = hex_value(p[1])) >= 0 && (lo = hex_value(p[2])) >= 0 && (hi | lo)) {
			*w++ = (char)(hi * 16 + lo);
			p += 2;
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
	return (size_t)(w - s);
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char line[512];

	(void)cls;
	vsnprintf(line, sizeof(line), fmt, ap);
	line[strcspn(line, "\n")] = '\0';
	log_warn("http: %s", line);
}

/*
 * Where to listen: "unix:/PATH" a unix socket made here (mode 0660, a stale
 * socket file replaced), "[IPv6]" or "::" (both families), else IPv4. Fills
 * the daemon flags and either addr or *lsock.
 */
static int listen_on(struct http_server *srv, const char *text, int port, unsigned *flags,
		     struct sockaddr_storage *addr, MHD_socket *lsock, struct err *err)
{
	struct netaddr a;

	memset(addr, 0, sizeof(*addr));
	if (strncmp(text, "unix:", 5) == 0) {
		struct sockaddr_un un = { .sun_family = AF_UNIX };
		const char *path = text + 5;
		struct stat st;
		int fd;

		if (!*path || strlen(path) >= sizeof(un.sun_path))
			return err_set(err, ERR_INPUT, "--listen unix:PATH wants a path shorter than %zu bytes",
				       sizeof(un.sun_path));
		/* a socket left by a daemon that was killed; anything else at that path stays */
		if (lstat(path, &st) == 0) {
			if (!S_ISSOCK(st.st_mode))
				return err_set(err, ERR_INPUT, "cannot listen on %s: a file that is not a socket is there",
					       path);
			unlink(path);
		}
		memcpy(un.sun_path, path, strlen(path));
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return err_set(err, ERR_IO, "cannot make a unix socket: %s", strerror(errno));
		if (bind(fd, (struct sockaddr *)&un, sizeof(un)) < 0 || chmod(path, 0660) < 0 || listen(fd, 128) < 0) {
			int saved = errno;
			close(fd);
			unlink(path);
			return err_set(err, ERR_IO, "cannot listen on %s: %s", path, strerror(saved));
		}
		snprintf(srv->unix_path, sizeof(srv->unix_path), "%s", path);
		*lsock = fd;
		return 0;
	}
	if (netaddr_parse(text, &a) < 0)
		return err_set(err, ERR_INPUT,
			       "cannot listen on \"%s\": give an IP address (127.0.0.1, [::1], [::]) or unix:/PATH", text);
	if (a.family == AF_INET6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)addr;
		static const unsigned char any[16];

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		memcpy(&in6->sin6_addr, a.bytes, 16);
		*flags = memcmp(a.bytes, any, 16) == 0 ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
	} else {
		struct sockaddr_in *in4 = (struct sockaddr_in *)addr;

		in4->sin_family = AF_INET;
		in4->sin_port = htons((uint16_t)port);
		memcpy(&in4->sin_addr, a.bytes, 4);
		/* an IPv4-mapped address such as [::ffff:127.0.0.1] is read as IPv4 */
	}
	return 0;
}

int http_server_start(const struct http_config *cfg, struct store *store, struct http_server **out,
		      struct err *err)
{
	struct http_server *srv = calloc(1, sizeof(*srv));
	struct sockaddr_storage addr;
	const char *listen_addr = cfg->listen_addr && *cfg->listen_addr ? cfg->listen_addr : "127.0.0.1";
	const union MHD_DaemonInfo *info;
	MHD_socket lsock = MHD_INVALID_SOCKET;
	unsigned flags = 0, per_client;

	*out = NULL;
	if (!srv)
		return err_set(err, ERR_NOMEM, "out of memory");
	srv->cfg = *cfg;
	if (prefix_from_base_url(cfg->base_url, srv->prefix, sizeof(srv->prefix), err) < 0) {
		free(srv);
		return err->code;
	}
	if (!srv->cfg.body_limit)
		srv->cfg.body_limit = 64 * 1024;
	if (!srv->cfg.conn_timeout_s)
		srv->cfg.conn_timeout_s = 30;
	if (!srv->cfg.max_connections)
		srv->cfg.max_connections = 256;
	if (!srv->cfg.threads)
		srv->cfg.threads = 8;
	if (!srv->cfg.inbound_body_limit)
		srv->cfg.inbound_body_limit = 1024 * 1024;
	srv->store = store;
	if (getrandom(&srv->id_prefix, sizeof(srv->id_prefix), 0) != (ssize_t)sizeof(srv->id_prefix))
		srv->id_prefix = (uint32_t)getpid() ^ (uint32_t)clock_now_ms();
	if (ratelimit_new(cfg->rate_limits, &srv->limits, err) < 0) {
		free(srv);
		return ERR_INPUT;
	}
	if (render_set_new(&srv->pages) < 0) {
		ratelimit_free(srv->limits);
		free(srv);
		return err_set(err, ERR_NOMEM, "out of memory");
	}
	for (const struct embed_file *f = embed_pages; f->name; f++) {
		char name[64];
		size_t n = strlen(f->name);
		if (n > 9 && strcmp(f->name + n - 9, ".mustache") == 0)
			n -= 9;
		snprintf(name, sizeof(name), "%.*s", (int)n, f->name);
		if (render_set_add(srv->pages, name, f->text, strlen(f->text), err) < 0) {
			render_set_free(srv->pages);
			ratelimit_free(srv->limits);
		free(srv);
			return ERR_INTERNAL;
		}
	}
	if (render_set_verify(srv->pages, err) < 0) {
		render_set_free(srv->pages);
		ratelimit_free(srv->limits);
		free(srv);
		return ERR_INTERNAL;
	}
	if (cfg->trusted_proxies && *cfg->trusted_proxies) {
		struct err pe = {0};
		srv->nproxies = netaddr_parse_list(cfg->trusted_proxies, srv->proxies, NETADDR_MAX_RANGES, &pe);
		if (srv->nproxies < 0) {
			render_set_free(srv->pages);
			ratelimit_free(srv->limits);
		free(srv);
			return err_set(err, ERR_INPUT, "--trusted-proxy: %s", pe.msg);
		}
	}
	/*
	 * one client (one peer address) may hold a part of the connections, not
	 * all: by default a quarter, or all of them behind a trusted proxy (then
	 * every client comes from its address)
	 */
	per_client = cfg->max_connections_per_client ? cfg->max_connections_per_client
		     : srv->nproxies ? srv->cfg.max_connections
				     : (srv->cfg.max_connections / 4 ? srv->cfg.max_connections / 4 : 1);
	if (per_client > srv->cfg.max_connections)
		per_client = srv->cfg.max_connections;
	if (connwatch_new(cfg->header_timeout_s, cfg->body_timeout_s, &srv->watch, err) < 0) {
		render_set_free(srv->pages);
		ratelimit_free(srv->limits);
		free(srv);
		return err->code;
	}
	if (listen_on(srv, listen_addr, cfg->port, &flags, &addr, &lsock, err) < 0) {
		connwatch_free(srv->watch);
		render_set_free(srv->pages);
		ratelimit_free(srv->limits);
		free(srv);
		return err->code;
	}
	srv->d = MHD_start_daemon(flags | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG | MHD_USE_AUTO |
					  MHD_ALLOW_SUSPEND_RESUME,
				  (uint16_t)cfg->port, NULL, NULL, on_request, srv,
				  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				  MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
				  lsock != MHD_INVALID_SOCKET ? MHD_OPTION_LISTEN_SOCKET : MHD_OPTION_SOCK_ADDR,
				  lsock != MHD_INVALID_SOCKET ? (intptr_t)lsock : (intptr_t)&addr,
				  MHD_OPTION_THREAD_POOL_SIZE, (unsigned)srv->cfg.threads,
				  MHD_OPTION_CONNECTION_LIMIT, (unsigned)srv->cfg.max_connections,
				  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)srv->cfg.conn_timeout_s,
				  MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32 * 1024,
				  MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_client,
				  MHD_OPTION_NOTIFY_COMPLETED, on_completed, srv,
				  MHD_OPTION_NOTIFY_CONNECTION, on_connection, srv,
				  /* no SO_REUSEPORT: a second daemon on this address must fail, not share it */
				  MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned)0,
				  MHD_OPTION_END);
	if (!srv->d) {
		if (lsock != MHD_INVALID_SOCKET)
			close(lsock);
		if (srv->unix_path[0])
			unlink(srv->unix_path);
		connwatch_free(srv->watch);
		render_set_free(srv->pages);
		ratelimit_free(srv->limits);
		free(srv);
		return err_set(err, ERR_IO, "cannot listen on %s:%d (is the port in use?)", listen_addr, cfg->port);
	}
	info = srv->unix_path[0] ? NULL : MHD_get_daemon_info(srv->d, MHD_DAEMON_INFO_BIND_PORT);
	srv->port = info ? info->port : srv->unix_path[0] ? 0 : cfg->port;
	if (cfg->base_url && *cfg->base_url)
		snprintf(srv->base_url, sizeof(srv->base_url), "%s", cfg->base_url);
	else if (srv->unix_path[0])
		snprintf(srv->base_url, sizeof(srv->base_url), "http://localhost");
	else
		snprintf(srv->base_url, sizeof(srv->base_url), "http://%s:%d", listen_addr, srv->port);
	/* drop a trailing slash so links can be written as base_url + "/path" */
	if (srv->base_url[0] && srv->base_url[strlen(srv->base_url) - 1] == '/')
		srv->base_url[strlen(srv->base_url) - 1] = '\0';
	srv->cfg.base_url = srv->base_url;
	srv->secure_cookies = strncmp(srv->base_url, "https://", 8) == 0;
	*out = srv;
	return 0;
}

void http_server_on_write(struct http_server *srv, void (*fn)(void *ctx), void *ctx)
{
	atomic_store(&srv->on_write_ctx, ctx);
	atomic_store(&srv->on_write, fn);
}

int http_server_port(const struct http_server *srv)
{
	return srv->port;
}

const char *http_server_base_url(const struct http_server *srv)
{
	return srv->base_url;
}

void http_server_stop(struct http_server *srv, unsigned grace_ms)
{
	double until;
	MHD_socket s;

	if (!srv)
		return;
	atomic_store(&srv->stopping, 1);
	s = MHD_quiesce_daemon(srv->d);
	until = clock_mono_ms() + grace_ms;
	/*
	 * Suspended connections are waited for past the grace: stopping the
	 * daemon with one is not allowed, and each ends when the store's sync
	 * does (or fails).
	 */
	while ((atomic_load(&srv->inflight) > 0 && clock_mono_ms() < until) || atomic_load(&srv->suspended) > 0) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	MHD_stop_daemon(srv->d);
	/* after the daemon: its connections are gone, and their entries with them */
	connwatch_free(srv->watch);
	if (s != MHD_INVALID_SOCKET)
		close(s);
	if (srv->unix_path[0])
		unlink(srv->unix_path);
	render_set_free(srv->pages);
	ratelimit_free(srv->limits);
	free(srv);
}
