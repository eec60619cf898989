/* bench/loadgen.c: tp-load, the HTTP load generator of the benchmark suite (epoll, its own small HTTP/1.1 client) */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <jansson.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "engine/rng.h"
#include "util/buf.h"
#include "util/banned.h"

/*
 * Usage:
 *   tp-load play URL ADMIN_TOKEN CLIENTS GAMES SECONDS [PLAYERS]
 *       CLIENTS clients share GAMES Alien Frontiers games (made first, not
 *       timed); each step: GET .../legal with the acting seat's token, then
 *       POST .../moves with one legal step, If-Match and "Prefer:
 *       return=minimal" (the answer may leave the view out). A 412 resyncs
 *       the game (GET /api/v1/games/{id}); a finished game is replaced by a
 *       new one. Prints moves/s and latency percentiles.
 *   tp-load read URL ADMIN_TOKEN CLIENTS SECONDS inm|full|page|full-fresh|page-fresh
 *       GET /api/v1/games/{id} with a seat token, with If-None-Match (304) or
 *       without it (200 with the whole view); page: the phone game page
 *       GET /games/{id}?seat=0 of the seat on turn, signed in by its seat
 *       link (/s/{token}, not timed), board and taps included. Prints the
 *       mean size of an answer's body too. full-fresh and page-fresh: the
 *       first read after a change, which nothing kept can answer: each
 *       client steps its game (GET legal, POST move, as play does, not
 *       timed), then reads it as the seat now on turn (the JSON GET with
 *       its token, or the page signed in by its seat link); a finished game
 *       is replaced. Only the reads are counted and timed; the steps made
 *       are printed too. TP_LOAD_GZIP=1 sends "Accept-Encoding: gzip,
 *       deflate, br" with every read, as a phone's browser does (the body
 *       size is then the bytes received).
 *   tp-load raw URL CLIENTS SECONDS
 *       GET URL as fast as possible (the ceiling of the HTTP layer).
 * Every client has one keep-alive HTTP/1.1 connection (opened again when the
 * server closes it) and at most one request in flight. All clients run in
 * one epoll loop on nonblocking sockets; TP_LOAD_THREADS=N splits them over
 * N loops, one thread each. The HTTP client is a small one of its own, and
 * the legal steps are read with a small scanner rather than a JSON parser:
 * tp-load shares the machine with the server it measures, so its CPU is
 * taken from the server. A request's latency runs from just before it is
 * written to its last byte read. A request fails (an error for the mode)
 * on a transport error, a malformed answer, an answer over 16 MB or after
 * 30 s. The output's last line is a machine-readable summary:
 * "RESULT name key=value ...".
 */

#define MAX_SEATS 4
#define MAX_LAT (1 << 22)
#define MAX_HEAD (64 * 1024)
#define MAX_BODY ((size_t)16 * 1024 * 1024)
#define REQUEST_TIMEOUT 30.0
#define READ_CHUNK 16384

enum mode { PLAY, READ, RAW };

static enum mode mode;
static int read_page; /* read page: the games' players have emails, so their seat links sign in */
static int accept_gzip; /* TP_LOAD_GZIP=1: the reads say Accept-Encoding as a browser does */
static const char *admin_token;
static int nplayers = 4;
static double t_end;
static atomic_long games_made;
static atomic_int complaints; /* transport messages printed so far */

/* The server, from the URL: its address, the Host header, the path prefix. */
static struct sockaddr_storage srv_addr;
static socklen_t srv_addrlen;
static char host_hdr[300];
static char base_path[512];
static size_t base_path_len;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Where the request in flight is. */
enum phase { IDLE, CONNECTING, ACTIVE };
/* What of the response is being read. */
enum rphase { R_HEAD, R_LENGTH, R_CHUNKED, R_UNTIL_EOF };
enum chunk { CH_SIZE, CH_DATA, CH_DATA_END, CH_TRAILER };

struct loop;

struct client {
	int id;
	struct loop *loop;
	struct rng rng;
	/* the connection */
	int fd;
	unsigned events; /* registered with epoll; 0: not yet */
	long served;     /* responses read on it */
	/* the request in flight */
	enum phase phase;
	enum rphase rphase;
	enum chunk chunk;
	struct buf out;
	size_t out_off;
	struct buf in;
	size_t scan;     /* R_HEAD: where to look next for the blank line */
	size_t head_len; /* bytes of the head(s) before the body */
	size_t body_len; /* body bytes so far, at in.data + head_len (chunked: decoded) */
	size_t need;     /* R_LENGTH: Content-Length; R_CHUNKED: bytes left of the chunk */
	size_t pos;      /* R_CHUNKED: the first raw byte not decoded yet */
	int close_after;
	int retried;
	double t_start, t_done, deadline;
	void (*on_done)(struct client *c);
	struct client *next_ready;
	/* the answer */
	long status;
	const char *body; /* NUL-terminated; "" after a failure */
	/* results */
	long ok, stale, errors, gets;
	float *lat;      /* ms of each timed request */
	long nlat;
	float *lat_get;  /* ms of the GETs of play */
	long nlat_get;
	int stopped;
	/* play */
	int ngames, k;
	struct game {
		long long id;
		char tokens[MAX_SEATS][64];
		int move_count;
		int seat;
	} *games;
	struct step {
		const char *s; /* the JSON string's text between its quotes, escapes as sent */
		size_t n;
	} *steps;
	size_t nsteps, steps_alloc;
	struct buf post;
	/* read */
	int inm, page, fresh;
	char read_path[96], inm_hdr[48], cookie_hdr[192];
	char cookies[MAX_SEATS][192]; /* fresh page: each seat's session, as a header line */
	int signing;                  /* fresh page: the seat being signed in */
	long long body_bytes;
	long steps_made;
};

/* One event loop and the clients it owns. */
struct loop {
	int epfd;
	pthread_t th;
	struct client **cs;
	int n, active;
	struct client *ready, *ready_tail; /* answered, their on_done not run yet */
};

static void complain(const char *what, const char *detail)
{
	if (atomic_fetch_add(&complaints, 1) < 10)
		fprintf(stderr, "tp-load: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
}

/* ---- the connection */

static void conn_close(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd); /* also leaves the epoll set */
	c->fd = -1;
	c->events = 0;
	c->served = 0;
}

static void conn_watch(struct client *c, unsigned events)
{
	struct epoll_event ev = {.events = events, .data.ptr = c};

	if (events == c->events)
		return;
	if (epoll_ctl(c->loop->epfd, c->events ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, c->fd, &ev) < 0) {
		perror("tp-load: epoll_ctl");
		abort();
	}
	c->events = events;
}

static int conn_open(struct client *c)
{
	int one = 1;

	c->fd = socket(srv_addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->events = 0;
	c->served = 0;
	if (connect(c->fd, (struct sockaddr *)&srv_addr, srv_addrlen) == 0) {
		c->phase = ACTIVE;
		return 0;
	}
	if (errno == EINPROGRESS) {
		c->phase = CONNECTING;
		conn_watch(c, EPOLLOUT);
		return 0;
	}
	conn_close(c);
	return -1;
}

/* ---- one request */

/* The request is over (status 0: it failed); its on_done runs from the loop. */
static void finish(struct client *c, long status)
{
	c->t_done = now_s();
	c->status = status;
	if (!status)
		c->body = "";
	c->phase = IDLE;
	if (!c->on_done)
		return;
	c->next_ready = NULL;
	if (c->loop->ready_tail)
		c->loop->ready_tail->next_ready = c;
	else
		c->loop->ready = c;
	c->loop->ready_tail = c;
}

static void fail(struct client *c, const char *why, const char *detail)
{
	if (why)
		complain(why, detail);
	conn_close(c);
	finish(c, 0);
}

static void send_begin(struct client *c);

/*
 * The connection broke. A kept-alive connection the server closed while it
 * was idle breaks before any byte of the answer: then the request goes once
 * more on a new connection, as HTTP clients do, and counts as nothing.
 */
static void io_failed(struct client *c, int err)
{
	if (c->served > 0 && c->in.len == 0 && !c->retried) {
		c->retried = 1;
		conn_close(c);
		send_begin(c);
		return;
	}
	fail(c, "connection", strerror(err));
}

static void do_send(struct client *c)
{
	while (c->out_off < c->out.len) {
		ssize_t n = send(c->fd, c->out.data + c->out_off, c->out.len - c->out_off, MSG_NOSIGNAL);

		if (n > 0) {
			c->out_off += (size_t)n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			conn_watch(c, EPOLLIN | EPOLLOUT);
			return;
		} else {
			io_failed(c, n < 0 ? errno : EPIPE);
			return;
		}
	}
	conn_watch(c, EPOLLIN);
}

static void send_begin(struct client *c)
{
	buf_reset(&c->in);
	c->rphase = R_HEAD;
	c->scan = c->head_len = c->body_len = c->need = c->pos = 0;
	c->close_after = 0;
	c->out_off = 0;
	if (c->fd < 0 && conn_open(c) < 0) {
		fail(c, "connect", strerror(errno));
		return;
	}
	c->phase = c->phase == CONNECTING ? CONNECTING : ACTIVE;
	if (c->phase == ACTIVE)
		do_send(c);
}

/*
 * Start a request. hdr: more header lines, separated by CRLF, or NULL;
 * data: a JSON body, or NULL. on_done runs (from the loop) once it is
 * answered or failed; NULL for request_wait.
 */
static void request_start(struct client *c, const char *method, const char *path, const char *token,
			  const char *hdr, const char *data, void (*on_done)(struct client *c))
{
	size_t plen = strlen(path);

	buf_reset(&c->out);
	buf_adds(&c->out, method);
	buf_addc(&c->out, ' ');
	buf_add(&c->out, base_path, base_path_len);
	buf_add(&c->out, path, plen);
	if (!base_path_len && !plen)
		buf_addc(&c->out, '/');
	buf_adds(&c->out, " HTTP/1.1\r\nHost: ");
	buf_adds(&c->out, host_hdr);
	buf_adds(&c->out, "\r\n");
	if (token) {
		buf_adds(&c->out, "Authorization: Bearer ");
		buf_adds(&c->out, token);
		buf_adds(&c->out, "\r\n");
	}
	if (hdr) {
		buf_adds(&c->out, hdr);
		buf_adds(&c->out, "\r\n");
	}
	if (data)
		buf_addf(&c->out, "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s", strlen(data), data);
	else
		buf_adds(&c->out, "\r\n");
	c->on_done = on_done;
	c->retried = 0;
	c->t_start = now_s();
	c->deadline = c->t_start + REQUEST_TIMEOUT;
	send_begin(c);
}

/* Case-insensitive "Name:" at the start of a header line; its trimmed value. */
static int header_is(const char *line, const char *end, const char *name, const char **val, const char **vend)
{
	size_t n = strlen(name);

	if ((size_t)(end - line) <= n || line[n] != ':' || strncasecmp(line, name, n) != 0)
		return 0;
	line += n + 1;
	while (line < end && (*line == ' ' || *line == '\t'))
		line++;
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*val = line;
	*vend = end;
	return 1;
}

/* Whether a comma-separated header value holds token (case-insensitive); last: only as its last item. */
static int value_has(const char *v, const char *end, const char *token, int last)
{
	size_t n = strlen(token);
	int found = 0;

	while (v < end) {
		const char *e = memchr(v, ',', (size_t)(end - v)), *te;

		if (!e)
			e = end;
		te = e;
		while (v < te && (*v == ' ' || *v == '\t'))
			v++;
		while (te > v && (te[-1] == ' ' || te[-1] == '\t'))
			te--;
		found = (size_t)(te - v) == n && strncasecmp(v, token, n) == 0;
		if (found && !last)
			return 1;
		v = e < end ? e + 1 : end;
	}
	return found;
}

/*
 * The head from h to the blank line: the status, and how the body ends.
 * Returns the body's length (-1: none given), -2 if it is chunked, -3 if
 * the head is malformed.
 */
static long long parse_head(struct client *c, const char *h, const char *end)
{
	long long length = -1;
	int chunked = 0, other_coding = 0, keep = 0, close_ = 0, http10;
	const char *line, *v, *ve;

	if (end - h < 12 || memcmp(h, "HTTP/1.", 7) != 0 || h[8] != ' ' || h[9] < '1' || h[9] > '9' ||
	    h[10] < '0' || h[10] > '9' || h[11] < '0' || h[11] > '9')
		return -3;
	http10 = h[7] == '0';
	c->status = (h[9] - '0') * 100 + (h[10] - '0') * 10 + (h[11] - '0');
	line = memmem(h, (size_t)(end - h), "\r\n", 2);
	while (line && line + 2 < end) {
		const char *le;

		line += 2;
		le = memmem(line, (size_t)(end - line), "\r\n", 2);
		if (!le)
			le = end;
		if (header_is(line, le, "content-length", &v, &ve)) {
			long long n = 0;

			if (v == ve)
				return -3;
			for (; v < ve; v++) {
				if (*v < '0' || *v > '9')
					return -3;
				if (n <= (long long)MAX_BODY)
					n = n * 10 + (*v - '0');
			}
			if (length >= 0 && length != n)
				return -3;
			length = n;
		} else if (header_is(line, le, "transfer-encoding", &v, &ve)) {
			if (value_has(v, ve, "chunked", 1))
				chunked = 1;
			else
				other_coding = 1;
		} else if (header_is(line, le, "connection", &v, &ve)) {
			close_ |= value_has(v, ve, "close", 0);
			keep |= value_has(v, ve, "keep-alive", 0);
		}
		line = le;
	}
	c->close_after = close_ || (http10 && !keep);
	if (chunked && !other_coding)
		return -2;
	if (other_coding || chunked)
		return -1; /* a coding we do not read: the body runs to the end of the connection */
	return length;
}

static void complete(struct client *c)
{
	c->in.data[c->head_len + c->body_len] = '\0';
	c->body = c->in.data + c->head_len;
	c->served++;
	if (c->close_after || c->out_off < c->out.len)
		conn_close(c);
	finish(c, c->status);
}

/* Decode the chunks read so far in place; 1: the body is complete, 0: more to read, -1: malformed. */
static int dechunk(struct client *c)
{
	char *d = c->in.data;

	for (;;) {
		size_t avail = c->in.len - c->pos;

		if (c->chunk == CH_SIZE || c->chunk == CH_TRAILER) {
			const char *le = memmem(d + c->pos, avail, "\r\n", 2);
			size_t size = 0, i;

			if (!le)
				return avail > 4096 ? -1 : 0;
			if (c->chunk == CH_TRAILER) {
				int empty = le == d + c->pos;

				c->pos = (size_t)(le - d) + 2;
				if (empty)
					return 1;
				continue;
			}
			for (i = c->pos; d + i < le; i++) {
				int x = d[i] >= '0' && d[i] <= '9'   ? d[i] - '0'
					: d[i] >= 'a' && d[i] <= 'f' ? d[i] - 'a' + 10
					: d[i] >= 'A' && d[i] <= 'F' ? d[i] - 'A' + 10
								     : -1;

				if (x < 0)
					break;
				if (size > MAX_BODY)
					return -1;
				size = size * 16 + (size_t)x;
			}
			if (i == c->pos || (d + i < le && d[i] != ';' && d[i] != ' ' && d[i] != '\t'))
				return -1;
			if (c->body_len + size > MAX_BODY) {
				c->need = MAX_BODY + 1; /* tells the caller why */
				return -1;
			}
			c->pos = (size_t)(le - d) + 2;
			c->need = size;
			c->chunk = size ? CH_DATA : CH_TRAILER;
		} else if (c->chunk == CH_DATA) {
			size_t take = avail < c->need ? avail : c->need;

			memmove(d + c->head_len + c->body_len, d + c->pos, take);
			c->body_len += take;
			c->pos += take;
			c->need -= take;
			if (c->need)
				break;
			c->chunk = CH_DATA_END;
		} else {
			if (avail < 2)
				break;
			if (d[c->pos] != '\r' || d[c->pos + 1] != '\n')
				return -1;
			c->pos += 2;
			c->chunk = CH_SIZE;
		}
	}
	/* keep the raw bytes left right after the decoded ones */
	if (c->pos > c->head_len + c->body_len) {
		size_t left = c->in.len - c->pos;

		memmove(d + c->head_len + c->body_len, d + c->pos, left);
		c->pos = c->head_len + c->body_len;
		c->in.len = c->pos + left;
		d[c->in.len] = '\0';
	}
	return 0;
}

/* Read what the bytes so far say; completes or fails the request when they are enough. */
static void parse(struct client *c)
{
	for (;;) {
		switch (c->rphase) {
		case R_HEAD: {
			size_t from = c->scan > c->head_len + 3 ? c->scan - 3 : c->head_len;
			const char *e = memmem(c->in.data + from, c->in.len - from, "\r\n\r\n", 4);
			long long length;

			if (!e) {
				if (c->in.len - c->head_len > MAX_HEAD)
					fail(c, "an answer's head is larger than 64 KB", NULL);
				c->scan = c->in.len;
				return;
			}
			length = parse_head(c, c->in.data + c->head_len, e + 2);
			if (length == -3) {
				fail(c, "malformed HTTP answer", NULL);
				return;
			}
			c->scan = c->head_len = (size_t)(e + 4 - c->in.data);
			if (c->status >= 100 && c->status < 200)
				continue; /* an interim answer: the real one follows */
			if (c->status == 204 || c->status == 304) {
				complete(c);
				return;
			}
			if (length == -2) {
				c->rphase = R_CHUNKED;
				c->chunk = CH_SIZE;
				c->pos = c->head_len;
			} else if (length >= 0) {
				if ((size_t)length > MAX_BODY) {
					fail(c, "an answer is larger than 16 MB", NULL);
					return;
				}
				c->rphase = R_LENGTH;
				c->need = (size_t)length;
			} else {
				c->rphase = R_UNTIL_EOF;
				c->close_after = 1;
			}
			break;
		}
		case R_LENGTH:
			if (c->in.len - c->head_len < c->need)
				return;
			if (c->in.len - c->head_len > c->need)
				c->close_after = 1; /* bytes nobody asked for: do not trust the connection */
			c->body_len = c->need;
			complete(c);
			return;
		case R_CHUNKED: {
			int r = dechunk(c);

			if (r < 0) {
				fail(c, c->need > MAX_BODY ? "an answer is larger than 16 MB" : "malformed chunked answer",
				     NULL);
			} else if (r > 0) {
				if (c->pos < c->in.len)
					c->close_after = 1;
				complete(c);
			}
			return;
		}
		case R_UNTIL_EOF:
			if (c->in.len - c->head_len > MAX_BODY)
				fail(c, "an answer is larger than 16 MB", NULL);
			return;
		}
	}
}

static void do_read(struct client *c)
{
	for (;;) {
		size_t room;
		ssize_t n;

		buf_grow(&c->in, READ_CHUNK);
		room = c->in.alloc - c->in.len - 1;
		n = recv(c->fd, c->in.data + c->in.len, room, 0);
		if (n > 0) {
			c->in.len += (size_t)n;
			c->in.data[c->in.len] = '\0';
			parse(c);
			if (c->phase != ACTIVE || (size_t)n < room)
				return;
		} else if (n == 0) {
			if (c->rphase == R_UNTIL_EOF) {
				c->body_len = c->in.len - c->head_len;
				complete(c);
			} else {
				io_failed(c, ECONNRESET);
			}
			return;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
			return;
		} else {
			io_failed(c, errno);
			return;
		}
	}
}

/* The socket is ready (events as epoll names them). */
static void client_io(struct client *c, unsigned events)
{
	if (c->phase == IDLE) {
		/* an idle kept-alive connection has nothing to say but its end */
		char b[64];

		if (recv(c->fd, b, sizeof(b), MSG_DONTWAIT) >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			conn_close(c);
		return;
	}
	if (c->phase == CONNECTING) {
		int err = 0;
		socklen_t len = sizeof(err);

		if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
			return;
		if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
			err = errno;
		if (err) {
			fail(c, "connect", strerror(err));
			return;
		}
		c->phase = ACTIVE;
		do_send(c);
		return;
	}
	if ((events & EPOLLOUT) && c->out_off < c->out.len) {
		do_send(c);
		if (c->phase != ACTIVE)
			return;
	}
	if (events & (EPOLLIN | EPOLLERR | EPOLLHUP))
		do_read(c);
}

/* Drive one request to its end without the loop (the untimed set-up); its status. */
static long request_wait(struct client *c)
{
	while (c->phase != IDLE) {
		struct pollfd p = {.fd = c->fd, .events = POLLIN};
		double left = c->deadline - now_s();
		unsigned ev = 0;
		int n;

		if (left <= 0) {
			fail(c, "no answer after 30 s", NULL);
			break;
		}
		if (c->phase == CONNECTING || c->out_off < c->out.len)
			p.events |= POLLOUT;
		n = poll(&p, 1, (int)(left * 1000) + 1);
		if (n <= 0)
			continue;
		ev = (p.revents & POLLIN ? EPOLLIN : 0) | (p.revents & POLLOUT ? EPOLLOUT : 0) |
		     (p.revents & POLLERR ? EPOLLERR : 0) | (p.revents & POLLHUP ? EPOLLHUP : 0);
		client_io(c, ev);
	}
	return c->status;
}

/* ---- clients */

static int client_init(struct client *c, int id, struct loop *l)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->loop = l;
	c->fd = -1;
	c->body = "";
	buf_init(&c->out);
	buf_init(&c->in);
	buf_init(&c->post);
	rng_seed(&c->rng, 1000 + (uint64_t)id);
	c->lat = malloc(sizeof(float) * MAX_LAT / 8);
	c->lat_get = malloc(sizeof(float) * MAX_LAT / 8);
	if (!c->lat || !c->lat_get)
		return -1;
	return 0;
}

static void client_release(struct client *c)
{
	conn_close(c);
	buf_release(&c->out);
	buf_release(&c->in);
	buf_release(&c->post);
	free(c->lat);
	free(c->lat_get);
	free(c->games);
	free(c->steps);
}

static void client_stop(struct client *c)
{
	if (c->stopped)
		return;
	c->stopped = 1;
	c->loop->active--;
	conn_close(c);
}

static void lat_add(float *lat, long *n, double ms)
{
	if (*n < MAX_LAT / 8)
		lat[(*n)++] = (float)ms;
}

static double lat_ms(const struct client *c)
{
	return (c->t_done - c->t_start) * 1e3;
}

/* ---- games: made and resynced with jansson (rare, not timed) */

/* Ask for a new game as the admin. */
static void game_new_start(struct client *c, void (*on_done)(struct client *c))
{
	buf_reset(&c->post);
	buf_adds(&c->post, "{\"game\":\"alien-frontiers\",\"players\":[");
	for (int i = 0; i < nplayers; i++)
		if (read_page)
			buf_addf(&c->post, "%s{\"name\":\"P%d\",\"email\":\"p%d-%d@bench.example\"}", i ? "," : "", i, i, c->id);
		else
			buf_addf(&c->post, "%s{\"name\":\"P%d\"}", i ? "," : "", i);
	buf_adds(&c->post, "],\"options\":{}}");
	request_start(c, "POST", "/api/v1/games", admin_token, NULL, c->post.data, on_done);
}

/* The new game from its answer: tokens of every seat, the acting seat unknown. */
static int game_new_end(struct client *c, struct game *g)
{
	json_t *res, *seats;
	int rc = -1;

	if (c->status != 201 && c->status != 200) {
		fprintf(stderr, "tp-load: making a game: HTTP %ld %s\n", c->status, c->body);
		return -1;
	}
	res = json_loads(c->body, 0, NULL);
	seats = json_object_get(res, "seats");
	g->id = (long long)json_integer_value(json_object_get(res, "id"));
	for (size_t i = 0; i < json_array_size(seats) && i < MAX_SEATS; i++) {
		const char *t = json_string_value(json_object_get(json_array_get(seats, i), "token"));
		snprintf(g->tokens[i], sizeof(g->tokens[i]), "%s", t ? t : "");
	}
	g->move_count = 0;
	g->seat = -1;
	if (g->id > 0 && json_array_size(seats) == (size_t)nplayers && g->tokens[0][0])
		rc = 0;
	json_decref(res);
	atomic_fetch_add(&games_made, 1);
	return rc;
}

/* Ask the game itself whose turn it is. */
static void game_sync_start(struct client *c, struct game *g, void (*on_done)(struct client *c))
{
	char path[96];

	snprintf(path, sizeof(path), "/api/v1/games/%lld", g->id);
	request_start(c, "GET", path, g->tokens[0], NULL, NULL, on_done);
}

/* The move count and the acting seat (the first active one, -1 when it is over) from the answer. */
static int game_sync_end(struct client *c, struct game *g)
{
	json_t *res;
	const char *status;

	if (c->status != 200)
		return -1;
	res = json_loads(c->body, 0, NULL);
	g->move_count = (int)json_integer_value(json_object_get(res, "move_count"));
	g->seat = (int)json_integer_value(json_array_get(json_object_get(res, "active_seats"), 0));
	status = json_string_value(json_object_get(res, "status"));
	if (strcmp(status ? status : "", "active") != 0)
		g->seat = -1;
	json_decref(res);
	return 0;
}

/* ---- the hot path's JSON: a scanner, no tree */

static const char *json_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* Past the JSON string whose opening quote is at p, its escapes checked; NULL if it is not one. */
static const char *json_skip_string(const char *p, const char *end)
{
	for (p++; p < end; p++) {
		unsigned char ch = (unsigned char)*p;

		if (ch == '"')
			return p + 1;
		if (ch < 0x20)
			return NULL;
		if (ch != '\\')
			continue;
		if (++p >= end)
			return NULL;
		if (*p == 'u') {
			if (end - p < 5)
				return NULL;
			for (int i = 1; i <= 4; i++) {
				char x = p[i];

				if (!((x >= '0' && x <= '9') || (x >= 'a' && x <= 'f') || (x >= 'A' && x <= 'F')))
					return NULL;
			}
			p += 4;
		} else if (!memchr("\"\\/bfnrt", *p, 8)) {
			return NULL;
		}
	}
	return NULL;
}

/* Past the JSON value at p (nested values are only matched for brackets and strings); NULL if none. */
static const char *json_skip_value(const char *p, const char *end)
{
	const char *start = p;
	int depth = 0;

	if (p >= end)
		return NULL;
	if (*p == '"')
		return json_skip_string(p, end);
	if (*p == '{' || *p == '[') {
		while (p < end) {
			if (*p == '"') {
				if (!(p = json_skip_string(p, end)))
					return NULL;
				continue;
			}
			if (*p == '{' || *p == '[')
				depth++;
			else if ((*p == '}' || *p == ']') && --depth == 0)
				return p + 1;
			p++;
		}
		return NULL;
	}
	while (p < end && (*p == '-' || *p == '+' || *p == '.' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
			   (*p >= 'A' && *p <= 'Z')))
		p++;
	return p > start ? p : NULL;
}

static void step_add(struct client *c, const char *s, size_t n)
{
	if (c->nsteps == c->steps_alloc) {
		size_t a = c->steps_alloc ? 2 * c->steps_alloc : 64;
		struct step *p = realloc(c->steps, a * sizeof(*p));

		if (!p)
			abort();
		c->steps = p;
		c->steps_alloc = a;
	}
	c->steps[c->nsteps].s = s;
	c->steps[c->nsteps].n = n;
	c->nsteps++;
}

/*
 * The legal answer, {"move_count":N,"seat":S,"moves":["step",...]}: the
 * move count (0 when absent) and c->steps, each step the text between the
 * quotes of a valid JSON string, so it goes into the move's body as it came.
 * -1 when it is not such an object.
 */
static int scan_legal(struct client *c, const char *p, const char *end, int *move_count)
{
	c->nsteps = 0;
	*move_count = 0;
	p = json_ws(p, end);
	if (p >= end || *p != '{')
		return -1;
	p = json_ws(p + 1, end);
	if (p < end && *p == '}')
		return 0;
	for (;;) {
		const char *key = p;
		size_t klen;

		if (p >= end || *p != '"' || !(p = json_skip_string(p, end)))
			return -1;
		klen = (size_t)(p - key);
		p = json_ws(p, end);
		if (p >= end || *p != ':')
			return -1;
		p = json_ws(p + 1, end);
		if (klen == 12 && memcmp(key, "\"move_count\"", 12) == 0) {
			char *e;
			long v = strtol(p, &e, 10);

			if (e == p || e > end)
				return -1;
			*move_count = (int)v;
			p = e;
		} else if (klen == 7 && memcmp(key, "\"moves\"", 7) == 0) {
			if (p >= end || *p != '[')
				return -1;
			c->nsteps = 0;
			p = json_ws(p + 1, end);
			if (p < end && *p == ']') {
				p++;
			} else {
				for (;;) {
					const char *s = p;

					if (p >= end || *p != '"' || !(p = json_skip_string(p, end)))
						return -1;
					step_add(c, s + 1, (size_t)(p - s - 2));
					p = json_ws(p, end);
					if (p < end && *p == ',') {
						p = json_ws(p + 1, end);
						continue;
					}
					if (p < end && *p == ']') {
						p++;
						break;
					}
					return -1;
				}
			}
		} else if (!(p = json_skip_value(p, end))) {
			return -1;
		}
		p = json_ws(p, end);
		if (p < end && *p == ',') {
			p = json_ws(p + 1, end);
			continue;
		}
		return p < end && *p == '}' ? 0 : -1;
	}
}

/*
 * The two fields a move's answer is read for, without parsing the whole
 * answer (~3 KB with the view): turnpostd writes "move_count" and
 * "active_seats" first, before "applied", "pending" and "view" (and with
 * "Prefer: return=minimal" it may leave the view out). Parsing it with
 * jansson cost the load generator, which shares the server's two cores,
 * about as much CPU as the server spent making it. -1 when the answer does
 * not start that way (the caller then parses it).
 */
static int scan_answer(const char *body, int *move_count, int *seat)
{
	const char *mc = strstr(body, "\"move_count\":"), *as = strstr(body, "\"active_seats\":[");
	const char *view = strstr(body, "\"view\":");
	char *end;
	long v;

	if (!mc || !as || (view && (view < mc || view < as)))
		return -1;
	v = strtol(mc + 13, &end, 10);
	if (end == mc + 13)
		return -1;
	*move_count = (int)v;
	as += 16;
	if (*as == ']') {
		*seat = -1;
		return 0;
	}
	v = strtol(as, &end, 10);
	if (end == as)
		return -1;
	*seat = (int)v;
	return 0;
}

/* ---- play: each client's steps, one answer at a time */

static void play_next(struct client *c);
static void play_legal(struct client *c);

/* A step is over: r 1 the game is over (make a new one), -1 it failed, 0 go on. */
static void play_result(struct client *c, int r);

static void play_on_new(struct client *c)
{
	if (game_new_end(c, &c->games[c->k]) < 0) {
		client_stop(c);
		return;
	}
	c->k = (c->k + 1) % c->ngames;
	play_next(c);
}

static void play_result(struct client *c, int r)
{
	if (r == 1) {
		game_new_start(c, play_on_new);
		return;
	}
	if (r < 0 && c->errors > 100) {
		client_stop(c);
		return;
	}
	c->k = (c->k + 1) % c->ngames;
	play_next(c);
}

/* Resynced after a 412: on with the next game. */
static void play_on_sync_stale(struct client *c)
{
	play_result(c, game_sync_end(c, &c->games[c->k]) < 0 ? -1 : 0);
}

/* Resynced after no legal step or a failed move: the game may be over. */
static void play_on_sync(struct client *c)
{
	struct game *g = &c->games[c->k];

	play_result(c, game_sync_end(c, g) < 0 ? -1 : g->seat < 0);
}

/* Resynced before a step, the acting seat being unknown. */
static void play_on_sync_first(struct client *c)
{
	struct game *g = &c->games[c->k];

	if (game_sync_end(c, g) < 0) {
		client_stop(c);
		return;
	}
	if (g->seat < 0)
		play_result(c, 1);
	else
		play_legal(c);
}

static void play_on_move(struct client *c)
{
	struct game *g = &c->games[c->k];
	json_t *res;
	int over = 0;

	lat_add(c->lat, &c->nlat, lat_ms(c));
	if (c->status == 412) {
		c->stale++;
		game_sync_start(c, g, play_on_sync_stale);
		return;
	}
	if (c->status != 200) {
		c->errors++;
		if (c->errors < 5)
			fprintf(stderr, "tp-load: move: HTTP %ld %.200s\n", c->status, c->body);
		game_sync_start(c, g, play_on_sync);
		return;
	}
	c->ok++;
	if (scan_answer(c->body, &g->move_count, &g->seat) == 0) {
		play_result(c, g->seat < 0);
		return;
	}
	/* not in the expected order: read it properly */
	res = json_loads(c->body, 0, NULL);
	g->move_count = (int)json_integer_value(json_object_get(res, "move_count"));
	if (json_array_size(json_object_get(res, "active_seats")))
		g->seat = (int)json_integer_value(json_array_get(json_object_get(res, "active_seats"), 0));
	else
		over = 1;
	json_decref(res);
	play_result(c, over);
}

static void play_on_legal(struct client *c)
{
	struct game *g = &c->games[c->k];
	const struct step *pick;
	char path[96], hdr[80];
	int mc;

	lat_add(c->lat_get, &c->nlat_get, lat_ms(c));
	c->gets++;
	if (c->status != 200) {
		c->errors++;
		play_result(c, -1);
		return;
	}
	if (scan_legal(c, c->body, c->body + c->body_len, &mc) < 0 || !c->nsteps) {
		game_sync_start(c, g, play_on_sync);
		return;
	}
	pick = &c->steps[rng_below(&c->rng, (uint32_t)c->nsteps)];
	g->move_count = mc;
	buf_reset(&c->post);
	buf_adds(&c->post, "{\"moves\":[\"");
	buf_add(&c->post, pick->s, pick->n);
	buf_adds(&c->post, "\"]}");
	snprintf(hdr, sizeof(hdr), "If-Match: \"%d\"\r\nPrefer: return=minimal", g->move_count);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", g->id);
	request_start(c, "POST", path, g->tokens[g->seat], hdr, c->post.data, play_on_move);
}

/* GET the acting seat's legal steps. */
static void play_legal(struct client *c)
{
	struct game *g = &c->games[c->k];
	char path[96];

	snprintf(path, sizeof(path), "/api/v1/games/%lld/legal", g->id);
	request_start(c, "GET", path, g->tokens[g->seat], NULL, NULL, play_on_legal);
}

/* One step on the next game: resync it if its acting seat is unknown, then play. */
static void play_next(struct client *c)
{
	struct game *g;

	if (now_s() >= t_end) {
		client_stop(c);
		return;
	}
	g = &c->games[c->k];
	if (g->seat < 0)
		game_sync_start(c, g, play_on_sync_first);
	else
		play_legal(c);
}

/* The session cookie the answer to a seat link set, as a header line into out; -1 when it set none. */
static int session_cookie(const struct client *c, char out[192])
{
	const char *h = c->in.data, *end = h + c->head_len, *v, *e;

	for (const char *line = h; line && line < end; line = strstr(line, "\r\n") ? strstr(line, "\r\n") + 2 : NULL) {
		if (strncasecmp(line, "Set-Cookie: tp_session=", 23) != 0)
			continue;
		v = line + 12;
		e = v + strcspn(v, ";\r");
		snprintf(out, 192, "Cookie: %.*s", (int)(e - v), v);
		return 0;
	}
	return -1;
}

/* Ask for seat's link: the answer signs its browser in. */
static void seat_link_start(struct client *c, const struct game *g, int seat, void (*on_done)(struct client *c))
{
	char path[96];

	snprintf(path, sizeof(path), "/s/%s", g->tokens[seat]);
	request_start(c, "GET", path, NULL, NULL, NULL, on_done);
}

/*
 * Sign the client in as its game's seat 0 through the seat link, as a
 * player's phone does: the session cookie of the answer, as a header line.
 */
static int page_signin(struct client *c)
{
	seat_link_start(c, &c->games[0], 0, NULL);
	request_wait(c);
	if (session_cookie(c, c->cookie_hdr) == 0) {
		snprintf(c->read_path, sizeof(c->read_path), "/games/%lld?seat=0", c->games[0].id);
		return 0;
	}
	complain("the seat link set no session", c->games[0].tokens[0]);
	return -1;
}

/* ---- fresh reads: a step, then the first read after it */

static void fresh_next(struct client *c);
static void fresh_new(struct client *c);

static const char *gzip_hdr(const char *more, char *buf, size_t size)
{
	if (!accept_gzip)
		return more;
	snprintf(buf, size, "%s%sAccept-Encoding: gzip, deflate, br", more ? more : "", more ? "\r\n" : "");
	return buf;
}

static void fresh_on_read(struct client *c)
{
	lat_add(c->lat, &c->nlat, lat_ms(c));
	if (c->status == 200) {
		c->ok++;
		c->body_bytes += (long long)c->body_len;
	} else {
		c->errors++;
		if (c->errors < 5)
			fprintf(stderr, "tp-load: fresh read: HTTP %ld %.200s\n", c->status, c->body);
	}
	if (c->errors > 100)
		client_stop(c);
	else
		fresh_next(c);
}

/* The read right after the step, as the seat now on turn. */
static void fresh_read(struct client *c)
{
	struct game *g = &c->games[0];
	char path[96], hdr[256];

	if (c->page) {
		snprintf(path, sizeof(path), "/games/%lld?seat=%d", g->id, g->seat);
		request_start(c, "GET", path, NULL, gzip_hdr(c->cookies[g->seat], hdr, sizeof(hdr)), NULL, fresh_on_read);
	} else {
		snprintf(path, sizeof(path), "/api/v1/games/%lld", g->id);
		request_start(c, "GET", path, g->tokens[g->seat], gzip_hdr(NULL, hdr, sizeof(hdr)), NULL, fresh_on_read);
	}
}

static void fresh_on_sync(struct client *c)
{
	struct game *g = &c->games[0];

	if (game_sync_end(c, g) < 0) {
		client_stop(c);
		return;
	}
	if (g->seat < 0)
		fresh_new(c);
	else
		fresh_next(c);
}

static void fresh_on_move(struct client *c)
{
	struct game *g = &c->games[0];

	if (c->status == 200 && scan_answer(c->body, &g->move_count, &g->seat) == 0) {
		c->steps_made++;
		if (g->seat < 0)
			fresh_new(c);
		else
			fresh_read(c);
		return;
	}
	if (c->status != 200 && c->status != 412 && c->errors++ < 5)
		fprintf(stderr, "tp-load: move: HTTP %ld %.200s\n", c->status, c->body);
	game_sync_start(c, g, fresh_on_sync);
}

static void fresh_on_legal(struct client *c)
{
	struct game *g = &c->games[0];
	const struct step *pick;
	char path[96], hdr[80];
	int mc;

	if (c->status != 200 || scan_legal(c, c->body, c->body + c->body_len, &mc) < 0 || !c->nsteps) {
		game_sync_start(c, g, fresh_on_sync);
		return;
	}
	pick = &c->steps[rng_below(&c->rng, (uint32_t)c->nsteps)];
	g->move_count = mc;
	buf_reset(&c->post);
	buf_adds(&c->post, "{\"moves\":[\"");
	buf_add(&c->post, pick->s, pick->n);
	buf_adds(&c->post, "\"]}");
	snprintf(hdr, sizeof(hdr), "If-Match: \"%d\"\r\nPrefer: return=minimal", g->move_count);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", g->id);
	request_start(c, "POST", path, g->tokens[g->seat], hdr, c->post.data, fresh_on_move);
}

/* A step of the acting seat: its legal steps, then one of them. */
static void fresh_next(struct client *c)
{
	struct game *g = &c->games[0];
	char path[96];

	if (now_s() >= t_end) {
		client_stop(c);
		return;
	}
	snprintf(path, sizeof(path), "/api/v1/games/%lld/legal", g->id);
	request_start(c, "GET", path, g->tokens[g->seat], NULL, NULL, fresh_on_legal);
}

/* Page: every seat signed in by its link, one after another, before the game is played. */
static void fresh_on_signin(struct client *c)
{
	if (session_cookie(c, c->cookies[c->signing]) < 0) {
		complain("the seat link set no session", NULL);
		client_stop(c);
		return;
	}
	if (++c->signing < nplayers)
		seat_link_start(c, &c->games[0], c->signing, fresh_on_signin);
	else
		fresh_next(c);
}

static void fresh_on_new_sync(struct client *c)
{
	if (game_sync_end(c, &c->games[0]) < 0 || c->games[0].seat < 0) {
		client_stop(c);
		return;
	}
	c->signing = 0;
	if (c->page)
		seat_link_start(c, &c->games[0], 0, fresh_on_signin);
	else
		fresh_next(c);
}

static void fresh_on_new(struct client *c)
{
	if (game_new_end(c, &c->games[0]) < 0) {
		client_stop(c);
		return;
	}
	game_sync_start(c, &c->games[0], fresh_on_new_sync);
}

/* The game is over: a new one in its place (its seats signed in again for the page). */
static void fresh_new(struct client *c)
{
	if (now_s() >= t_end) {
		client_stop(c);
		return;
	}
	game_new_start(c, fresh_on_new);
}

/* ---- read and raw */

static void read_next(struct client *c);

static void read_on_done(struct client *c)
{
	lat_add(c->lat, &c->nlat, lat_ms(c));
	if (c->status == (c->inm ? 304 : 200)) {
		c->ok++;
		c->body_bytes += (long long)c->body_len;
	} else {
		c->errors++;
	}
	read_next(c);
}

static void read_next(struct client *c)
{
	char hdr[300];

	if (now_s() >= t_end) {
		client_stop(c);
		return;
	}
	if (c->page)
		request_start(c, "GET", c->read_path, NULL, gzip_hdr(c->cookie_hdr, hdr, sizeof(hdr)), NULL, read_on_done);
	else
		request_start(c, "GET", c->read_path, c->games[0].tokens[0], gzip_hdr(c->inm ? c->inm_hdr : NULL, hdr, sizeof(hdr)),
			      NULL, read_on_done);
}

static void raw_next(struct client *c);

static void raw_on_done(struct client *c)
{
	lat_add(c->lat, &c->nlat, lat_ms(c));
	if (c->status == 200)
		c->ok++;
	else
		c->errors++;
	raw_next(c);
}

static void raw_next(struct client *c)
{
	if (now_s() >= t_end) {
		client_stop(c);
		return;
	}
	request_start(c, "GET", "", NULL, NULL, NULL, raw_on_done);
}

/* ---- the loop */

static void run_ready(struct loop *l)
{
	while (l->ready) {
		struct client *c = l->ready;

		l->ready = c->next_ready;
		if (!l->ready)
			l->ready_tail = NULL;
		c->on_done(c);
	}
}

static void *loop_run(void *arg)
{
	struct loop *l = arg;
	struct epoll_event ev[256];
	double next_check = now_s() + 0.1;

	l->active = l->n;
	for (int i = 0; i < l->n; i++) {
		struct client *c = l->cs[i];

		if (mode == PLAY)
			play_next(c);
		else if (mode == READ && c->fresh)
			fresh_next(c);
		else if (mode == READ)
			read_next(c);
		else
			raw_next(c);
		run_ready(l);
	}
	while (l->active > 0) {
		int n = epoll_wait(l->epfd, ev, (int)(sizeof(ev) / sizeof(ev[0])), 100);
		double t;

		if (n < 0 && errno != EINTR) {
			perror("tp-load: epoll_wait");
			abort();
		}
		for (int i = 0; i < n; i++)
			client_io(ev[i].data.ptr, ev[i].events);
		run_ready(l);
		t = now_s();
		if (t < next_check)
			continue;
		next_check = t + 0.1;
		for (int i = 0; i < l->n; i++) {
			struct client *c = l->cs[i];

			if (c->phase != IDLE && t > c->deadline)
				fail(c, "no answer after 30 s", NULL);
		}
		run_ready(l);
	}
	return NULL;
}

/* http://host[:port][/path]: the address (the first that accepts a connection), Host and the path prefix. */
static int parse_url(const char *url)
{
	const char *a, *e, *path, *hs, *he, *colon;
	char host[256], port[16] = "80";
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *ai;
	int rc;

	if (strncasecmp(url, "http://", 7) != 0) {
		fprintf(stderr, "tp-load: only http:// URLs: %s\n", url);
		return -1;
	}
	a = url + 7;
	path = a + strcspn(a, "/?#");
	e = path;
	if (*a == '[') {
		hs = a + 1;
		he = memchr(a, ']', (size_t)(e - a));
		colon = he && he + 1 < e && he[1] == ':' ? he + 1 : NULL;
	} else {
		hs = a;
		colon = memchr(a, ':', (size_t)(e - a));
		he = colon ? colon : e;
	}
	if (!he || he == hs || (size_t)(he - hs) >= sizeof(host) || (size_t)(e - a) >= sizeof(host_hdr) ||
	    strlen(path) >= sizeof(base_path) || (colon && (size_t)(e - colon - 1) >= sizeof(port))) {
		fprintf(stderr, "tp-load: bad URL: %s\n", url);
		return -1;
	}
	memcpy(host, hs, (size_t)(he - hs));
	host[he - hs] = '\0';
	if (colon) {
		memcpy(port, colon + 1, (size_t)(e - colon - 1));
		port[e - colon - 1] = '\0';
	}
	memcpy(host_hdr, a, (size_t)(e - a));
	host_hdr[e - a] = '\0';
	base_path_len = strlen(path);
	memcpy(base_path, path, base_path_len + 1);
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc) {
		fprintf(stderr, "tp-load: %s: %s\n", host, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0)
			continue;
		rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
		close(fd);
		if (rc == 0 && ai->ai_addrlen <= sizeof(srv_addr)) {
			memcpy(&srv_addr, ai->ai_addr, ai->ai_addrlen);
			srv_addrlen = ai->ai_addrlen;
			break;
		}
	}
	freeaddrinfo(res);
	if (!ai) {
		fprintf(stderr, "tp-load: cannot connect to %s port %s\n", host, port);
		return -1;
	}
	return 0;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

/* Merge the clients' samples and print p50/p95/p99/max; fills p[4]. */
static void percentiles(struct client *cs, int n, int gets, double p[4])
{
	long total = 0, k = 0;
	float *all;

	for (int i = 0; i < n; i++)
		total += gets ? cs[i].nlat_get : cs[i].nlat;
	memset(p, 0, sizeof(double) * 4);
	if (!total)
		return;
	all = malloc(sizeof(float) * (size_t)total);
	if (!all)
		abort();
	for (int i = 0; i < n; i++) {
		long m = gets ? cs[i].nlat_get : cs[i].nlat;
		memcpy(all + k, gets ? cs[i].lat_get : cs[i].lat, sizeof(float) * (size_t)m);
		k += m;
	}
	qsort(all, (size_t)total, sizeof(float), cmp_float);
	p[0] = all[(long)(total * 0.50)];
	p[1] = all[(long)(total * 0.95)];
	p[2] = all[(long)(total * 0.99)];
	p[3] = all[total - 1];
	free(all);
}

static int usage(void)
{
	fprintf(stderr, "usage: tp-load play URL ADMIN_TOKEN CLIENTS GAMES SECONDS [PLAYERS]\n"
			"       tp-load read URL ADMIN_TOKEN CLIENTS SECONDS inm|full|page|full-fresh|page-fresh\n"
			"       tp-load raw URL CLIENTS SECONDS\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct client *cs = NULL, **order = NULL;
	struct loop *loops = NULL;
	const char *env = getenv("TP_LOAD_THREADS");
	int nclients, ngames = 0, nloops = 1, rc = 1;
	double secs, t0, el, p[4], pg[4];
	long ok = 0, stale = 0, errors = 0, gets = 0;

	if (argc < 5)
		return usage();
	if (strcmp(argv[1], "play") == 0) {
		if (argc < 7)
			return usage();
		mode = PLAY;
		admin_token = argv[3];
		nclients = (int)strtol(argv[4], NULL, 10);
		ngames = (int)strtol(argv[5], NULL, 10);
		secs = strtod(argv[6], NULL);
		if (argc > 7)
			nplayers = (int)strtol(argv[7], NULL, 10);
		if (ngames < nclients)
			ngames = nclients;
	} else if (strcmp(argv[1], "read") == 0) {
		if (argc < 7)
			return usage();
		mode = READ;
		if (strcmp(argv[6], "inm") && strcmp(argv[6], "full") && strcmp(argv[6], "page") &&
		    strcmp(argv[6], "full-fresh") && strcmp(argv[6], "page-fresh"))
			return usage();
		/* the seats of the page's games have emails, so their links sign in; a fresh read's steps then
		 * tell the next seat by email (as a site's do), and the JSON's fresh reads run on such games too */
		read_page = strncmp(argv[6], "page", 4) == 0 || strstr(argv[6], "-fresh") != NULL;
		admin_token = argv[3];
		nclients = (int)strtol(argv[4], NULL, 10);
		secs = strtod(argv[5], NULL);
	} else if (strcmp(argv[1], "raw") == 0) {
		mode = RAW;
		nclients = (int)strtol(argv[3], NULL, 10);
		secs = strtod(argv[4], NULL);
	} else {
		return usage();
	}
	if (nclients < 1 || nclients > 1024 || secs <= 0 || nplayers < 2 || nplayers > MAX_SEATS)
		return usage();
	accept_gzip = getenv("TP_LOAD_GZIP") && strcmp(getenv("TP_LOAD_GZIP"), "1") == 0;
	if (env && *env)
		nloops = (int)strtol(env, NULL, 10);
	if (nloops < 1)
		nloops = 1;
	if (nloops > nclients)
		nloops = nclients;
	if (parse_url(argv[2]) < 0)
		return 1;
	cs = calloc((size_t)nclients, sizeof(*cs));
	order = calloc((size_t)nclients, sizeof(*order));
	loops = calloc((size_t)nloops, sizeof(*loops));
	if (!cs || !order || !loops)
		goto done;
	for (int i = 0; i < nclients; i++)
		cs[i].fd = -1;
	for (int i = 0, at = 0; i < nloops; i++) {
		loops[i].epfd = -1;
		loops[i].cs = order + at;
		at += nclients / nloops + (i < nclients % nloops);
	}
	for (int i = 0; i < nloops; i++)
		if ((loops[i].epfd = epoll_create1(EPOLL_CLOEXEC)) < 0)
			goto done;
	/* client i runs in loop i % nloops */
	for (int i = 0; i < nclients; i++) {
		struct loop *l = &loops[i % nloops];

		l->cs[l->n++] = &cs[i];
		if (client_init(&cs[i], i, l) < 0)
			goto done;
	}
	/* set-up, not timed: games spread over the clients */
	if (mode != RAW) {
		for (int i = 0; i < nclients; i++) {
			struct client *c = &cs[i];
			c->ngames = mode == PLAY ? ngames / nclients + (i < ngames % nclients) : 1;
			c->games = calloc((size_t)c->ngames, sizeof(*c->games));
			if (!c->games)
				goto done;
			for (int k = 0; k < c->ngames; k++) {
				struct game *g = &c->games[k];

				game_new_start(c, NULL);
				request_wait(c);
				if (game_new_end(c, g) < 0)
					goto done;
				game_sync_start(c, g, NULL);
				request_wait(c);
				if (game_sync_end(c, g) < 0)
					goto done;
			}
			c->inm = mode == READ && strcmp(argv[6], "inm") == 0;
			c->page = mode == READ && strncmp(argv[6], "page", 4) == 0;
			c->fresh = mode == READ && strstr(argv[6], "-fresh") != NULL;
			snprintf(c->read_path, sizeof(c->read_path), "/api/v1/games/%lld", c->games[0].id);
			snprintf(c->inm_hdr, sizeof(c->inm_hdr), "If-None-Match: \"%d\"", c->games[0].move_count);
			if (c->page && !c->fresh && page_signin(c) < 0)
				goto done;
			for (int s = 0; c->page && c->fresh && s < nplayers; s++) {
				seat_link_start(c, &c->games[0], s, NULL);
				request_wait(c);
				if (session_cookie(c, c->cookies[s]) < 0) {
					complain("the seat link set no session", NULL);
					goto done;
				}
			}
		}
	}
	t0 = now_s();
	t_end = t0 + secs;
	for (int i = 0; i < nloops; i++)
		pthread_create(&loops[i].th, NULL, loop_run, &loops[i]);
	for (int i = 0; i < nloops; i++)
		pthread_join(loops[i].th, NULL);
	el = now_s() - t0;
	for (int i = 0; i < nclients; i++) {
		ok += cs[i].ok;
		stale += cs[i].stale;
		errors += cs[i].errors;
		gets += cs[i].gets;
	}
	percentiles(cs, nclients, 0, p);
	if (mode == PLAY) {
		percentiles(cs, nclients, 1, pg);
		printf("play: %d clients, %d games of %d players, %.1f s: %ld moves stored, %.0f moves/s "
		       "(%ld stale, %ld errors, %ld games made in all)\n",
		       nclients, ngames, nplayers, el, ok, (double)ok / el, stale, errors, atomic_load(&games_made));
		printf("  POST move latency ms: p50 %.2f  p95 %.2f  p99 %.2f  max %.2f\n", p[0], p[1], p[2], p[3]);
		printf("  GET legal latency ms: p50 %.2f  p95 %.2f  p99 %.2f  max %.2f\n", pg[0], pg[1], pg[2], pg[3]);
		printf("  requests/s (GET legal + POST move): %.0f\n", (double)(ok + stale + gets) / el);
		printf("RESULT play clients=%d moves_per_s=%.0f p50_ms=%.2f p95_ms=%.2f p99_ms=%.2f errors=%ld stale=%ld "
		       "req_per_s=%.0f\n",
		       nclients, (double)ok / el, p[0], p[1], p[2], errors, stale, (double)(ok + stale + gets) / el);
	} else {
		long long bytes = 0;
		const char *what = mode != READ ? "" : cs[0].inm ? " (If-None-Match, 304)" : cs[0].page ? " (game page 200)"
												   : " (full 200)";
		long steps = 0;

		for (int i = 0; i < nclients; i++) {
			bytes += cs[i].body_bytes;
			steps += cs[i].steps_made;
		}
		printf("%s%s%s%s: %d clients, %.1f s: %ld ok, %.0f requests/s, %ld errors; latency ms p50 %.2f p95 %.2f "
		       "p99 %.2f max %.2f; %.0f bytes per body\n",
		       argv[1], what, cs[0].fresh ? ", each the first read after a step" : "", accept_gzip ? ", Accept-Encoding gzip" : "",
		       nclients, el, ok, (double)ok / el, errors, p[0], p[1], p[2], p[3], ok ? (double)bytes / (double)ok : 0.0);
		if (cs[0].fresh)
			printf("  steps made between the reads (not timed): %ld, %.0f/s\n", steps, (double)steps / el);
		printf("RESULT %s%s%s clients=%d req_per_s=%.0f p50_ms=%.2f p99_ms=%.2f errors=%ld body_bytes=%.0f\n", argv[1],
		       mode == READ ? (cs[0].inm ? "_inm" : cs[0].page ? "_page" : "_full") : "", cs[0].fresh ? "_fresh" : "",
		       nclients, (double)ok / el, p[0], p[2], errors, ok ? (double)bytes / (double)ok : 0.0);
	}
	rc = errors > ok / 100 ? 1 : 0;
done:
	for (int i = 0; cs && i < nclients; i++)
		client_release(&cs[i]);
	for (int i = 0; loops && i < nloops; i++)
		if (loops[i].epfd >= 0)
			close(loops[i].epfd);
	free(cs);
	free(order);
	free(loops);
	return rc;
}
