/* http/http.h: the HTTP server: requests, replies, routes and the server's life cycle */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_HTTP_H
#define TURNPOST_HTTP_HTTP_H

#include <jansson.h>
#include <pthread.h>
#include <stdint.h>

#include "render/render.h"
#include "store/store.h"
#include "http/ratelimit.h"
#include "util/buf.h"
#include "util/err.h"

struct http_config {
	const char *listen_addr;   /* "127.0.0.1" */
	int port;                  /* 0: pick one */
	const char *base_url;      /* "https://games.example.org"; NULL or "": http://ADDR:PORT */
	size_t body_limit;         /* bytes; 0 means 64 KiB */
	unsigned conn_timeout_s;   /* idle connection timeout; 0 means 30 */
	unsigned max_connections;  /* 0 means 256 */
	unsigned max_connections_per_client; /* from one peer address; 0: a quarter of max_connections, or all of
						them behind a trusted proxy */
	unsigned header_timeout_s; /* a request's headers must be in this long after it began; 0: no limit */
	unsigned body_timeout_s;   /* and its body this long after its headers; 0: no limit */
	unsigned threads;          /* thread pool size; 0 means 16 */
	int log_requests;          /* one line per request on stderr */
	unsigned degraded_after_s;  /* /healthz says degraded when delivery has failed this long */
	const char *trusted_proxies; /* addresses and ranges whose X-Forwarded-For is believed; NULL or "": none */
	/* inbound email (http/api_inbound.c, docs/email.md) */
	const char *inbound_secret; /* shared secret of POST /api/v1/inbound/email; NULL or "": the endpoint is off */
	size_t inbound_body_limit;  /* body limit of that route; 0 means 1 MiB */
	int inbound_any_sender;     /* accept replies from any address, not only the seat's */
	const char *rate_limits;    /* --rate-limits (http/ratelimit.h); NULL or "": the defaults */
	const char *metrics_allow;  /* addresses and ranges that may read /metrics; NULL or "": any */
	const char *metrics_token;  /* Bearer token /metrics asks for; NULL or "": none */
};

struct http_server;

/* Start serving on a thread pool. */
int http_server_start(const struct http_config *cfg, struct store *store, struct http_server **out,
		      struct err *err);
/*
 * Call fn(ctx) after every successful write request (POST, PUT, DELETE: it
 * may have queued notifications), from the handler's thread. fn must be
 * quick and thread-safe; ctx must outlive the server (stop it first).
 */
void http_server_on_write(struct http_server *srv, void (*fn)(void *ctx), void *ctx);
/* The port actually bound (useful with port 0). */
int http_server_port(const struct http_server *srv);
/* The public base URL: the configured one, else http://ADDR:PORT with the bound port. Borrowed. */
const char *http_server_base_url(const struct http_server *srv);
/*
 * Stop accepting connections, let in-flight requests finish (up to
 * grace_ms), then stop and free. Accepts NULL.
 */
void http_server_stop(struct http_server *srv, unsigned grace_ms);

/* ---- what handlers see ---- */

/* Who is asking (filled by http/auth.c). */
struct http_auth {
	int64_t token_id;   /* 0: anonymous */
	int kind;           /* enum store_token_kind */
	int64_t user_id;    /* 0 when the token has no user */
	int is_admin;
	int64_t game_id;    /* seat tokens */
	int seat;           /* seat tokens; -1 otherwise */
};

struct form;

/* A signed-in browser (http/session.c). */
struct web_session {
	int64_t token_id;   /* 0: signed out */
	int64_t user_id;    /* 0: signed out, or a seat link's session outside its game (below) */
	int is_admin;
	/*
	 * A seat link's session (docs/security.md): it plays one seat of one
	 * game. On the routes that allow it (ROUTE_SEAT_LINK) for that game,
	 * user_id is link_user; elsewhere the browser counts as signed out.
	 */
	int64_t only_game;  /* 0: a full session (or none) */
	int only_seat;
	int64_t link_user;
	char name[96];
	char email[256];
	char csrf[48];      /* the token every form of this browser must carry */
	char set_csrf_cookie; /* a new double-submit cookie must be sent */
	/*
	 * With a session cookie: the store's data version read before the
	 * session was looked up (versioned: it could be read), so a page made
	 * for this session can be kept at that version (http/answers.h).
	 */
	int versioned;
	uint64_t version;
};

struct http_request;
struct http_reply;
typedef void (*http_finish_fn)(struct http_request *rq, struct http_reply *r, void *ctx);

struct http_request {
	struct http_server *srv;
	void *conn;             /* struct MHD_Connection *, opaque outside server.c */
	const char *method;
	const char *path;
	struct buf body;
	size_t body_limit;      /* the configured limit, or ROUTE_UPLOAD_LIMIT for an upload route */
	int too_large;
	int status;             /* of the reply, for the log line */
	double start_ms;
	char client[64];
	char request_id[40];    /* X-Request-Id: a trusted proxy's, else made here */
	const char *route;      /* the matched route's pattern, NULL before or when none */
	int64_t ids[2];         /* numeric {id} path parameters in order */
	int nids;
	char param[96];         /* a {token} path parameter */
	struct http_auth auth;
	struct web_session sess; /* ROUTE_WEB routes */
	struct form *form;       /* a parsed urlencoded body (ROUTE_WEB POSTs) */
	/* what the route's declarations prepared before the handler (http/routes.h) */
	json_t *json;            /* ROUTE_JSON: the body, a JSON object (NULL: an empty optional body, or text) */
	const char *reason;      /* ROUTE_REASON(_OPTIONAL): the admin's reason, checked (NULL: none); borrowed */
	int seat;                /* ROUTE_SEAT: the seat the caller acts as in game ids[0]; -1: a spectator */
	int with_emails;         /* ROUTE_SEAT (API): the game's answer may show the seats' emails */
	int held;                /* ROUTE_SEAT (pages): how many seats of the game the user holds */
	/* http_defer */
	pthread_mutex_t defer_lock;
	pthread_cond_t defer_cond; /* a stopping server's handler waits on it instead of suspending */
	int woken, suspended, waiting;
	http_finish_fn finish;
	void *finish_ctx;
};

struct http_reply {
	int status;
	const char *content_type; /* static string */
	struct buf body;
	char etag[32];            /* without quotes; empty: none */
	char location[256];
	char retry_after[16];
	const char *request_id;   /* X-Request-Id, also in problem bodies (the request's, borrowed) */
	const char *preference_applied; /* static string for Preference-Applied, or NULL */
	char cookies[3][320];     /* Set-Cookie values */
	int ncookies;
	int cache;                /* static files: cacheable */
	const char *cache_control; /* static string for Cache-Control instead of no-store (cache unset); NULL: no-store */
	const char *service_worker_allowed; /* Service-Worker-Allowed (a service worker's widest scope): static, or NULL */
	const char *content_encoding; /* static string for Content-Encoding (the body is so encoded), or NULL */
	const char *vary;             /* static string for Vary, or NULL */
};

/*
 * Answering later without holding a thread: a handler that started work
 * ending on another thread (a move waiting for its durable commit) returns
 * through http_defer with the function that makes the answer once the work
 * is over. Until then the connection is suspended and its thread serves
 * other connections. The work calls http_wake(rq) exactly once, from any
 * thread, when it is over (before http_defer is fine: then http_defer
 * answers at once). finish(rq, r, ctx) is called exactly once, on a server
 * thread, and owns ctx.
 */
void http_defer(struct http_request *rq, struct http_reply *r, http_finish_fn finish, void *ctx);
void http_wake(void *rq);

/* A request header (borrowed until the request ends) or NULL. */
const char *http_header(const struct http_request *rq, const char *name);
/*
 * Whether an Accept-Encoding value (NULL: none sent) accepts gzip: listed
 * as gzip or x-gzip, or as * without gzip named, with a q above 0.
 */
int http_accepts_gzip(const char *accept_encoding);
/* A query-string argument or NULL. */
const char *http_query(const struct http_request *rq, const char *name);
/* A cookie sent by the browser or NULL. */
const char *http_cookie(const struct http_request *rq, const char *name);
struct store *http_store(const struct http_request *rq);
/* The server's abuse limits (http/ratelimit.h). */
struct ratelimit *http_ratelimit(const struct http_request *rq);
/*
 * Abuse limits (docs/security.md): n events of kind by key, counted when
 * count is set and they are allowed (else only checked). When the limit is
 * used up: 429 with Retry-After (problem+json under /api/, else a page),
 * nothing counted, and 1; else 0.
 */
int http_limited(struct http_request *rq, struct http_reply *r, enum ratelimit_kind kind, const char *key, int n,
		 int count);
/* Game creation by user_id with invites players given an email: both limits (RATELIMIT_CREATE, _INVITE). */
int http_limited_create(struct http_request *rq, struct http_reply *r, int64_t user_id, int invites, int count);
/* A token or link the client sent was unknown, expired or revoked: one more against its address. */
void http_bad_token(struct http_request *rq);
/* The web page templates (read-only, shared by all threads). */
const struct render_set *http_pages(const struct http_request *rq);
/* The public base URL without a trailing slash. */
const char *http_base_url(const struct http_request *rq);
/* Add a Set-Cookie header (name=value; Path=/; HttpOnly; SameSite=Lax; Secure behind https). max_age < 0: session cookie; 0: delete. */
void http_reply_cookie(struct http_reply *r, const struct http_request *rq, const char *name, const char *value,
		       long max_age);
/* 303 See Other to a path of ours. */
void http_reply_redirect(struct http_reply *r, const char *path);
const struct http_config *http_config(const struct http_request *rq);

/* Reply with a JSON value (stolen: the reply takes the reference). */
void http_reply_json(struct http_reply *r, int status, json_t *value);
/*
 * Reply with an application/problem+json body for an error code: the status
 * comes from the one mapping in problem.c; code is the stable "code" field
 * (NULL: derived from the error code); extra (stolen, may be NULL) adds fields.
 */
void http_reply_problem(struct http_reply *r, int errcode, const char *code, const char *detail, json_t *extra);
/* The HTTP status for an error code (the one place the mapping lives). */
int http_status_for(int errcode);

#endif
