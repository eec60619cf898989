/* bench/loadgen.c: tp-load, the HTTP load generator of the benchmark suite (libcurl, one thread per client) */
/* SPDX-License-Identifier: MIT */
#include <curl/curl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/rng.h"
#include "util/buf.h"
#include "util/banned.h"

/*
 * Usage:
 *   tp-load play URL ADMIN_TOKEN CLIENTS GAMES SECONDS [PLAYERS]
 *       CLIENTS threads share GAMES Alien Frontiers games (made first, not
 *       timed); each step: GET .../legal with the acting seat's token, then
 *       POST .../moves with one legal step and If-Match. A finished game is
 *       replaced by a new one. Prints moves/s and latency percentiles.
 *   tp-load read URL ADMIN_TOKEN CLIENTS SECONDS inm|full
 *       GET /api/v1/games/{id} with a seat token, with If-None-Match (304) or
 *       without it (200 with the whole view).
 *   tp-load raw URL CLIENTS SECONDS
 *       GET URL as fast as possible (the ceiling of the HTTP layer).
 * Every client has one keep-alive connection. The output's last line is a
 * machine-readable summary: "RESULT name key=value ...".
 */

#define MAX_SEATS 4
#define MAX_LAT (1 << 22)

static const char *base;
static const char *admin_token;
static int nplayers = 4;
static double t_end;
static atomic_long games_made;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t on_body(char *p, size_t size, size_t n, void *ctx)
{
	buf_add(ctx, p, size * n);
	return size * n;
}

struct client {
	int id;
	CURL *h;
	struct buf body;
	struct rng rng;
	/* results */
	long ok, stale, errors, gets;
	float *lat;      /* ms of each timed request */
	long nlat;
	float *lat_get;  /* ms of the GETs of play */
	long nlat_get;
	/* play */
	int ngames;
	struct game {
		long long id;
		char tokens[MAX_SEATS][64];
		int move_count;
		int seat;
	} *games;
	/* read */
	int inm;
};

/* One request; returns the status (0 on a transport error), the body in c->body. */
static long request(struct client *c, const char *method, const char *path, const char *token, const char *hdr,
		    const char *data)
{
	struct curl_slist *h = NULL;
	char url[512], auth[128];
	long status = 0;

	snprintf(url, sizeof(url), "%s%s", base, path);
	buf_reset(&c->body);
	curl_easy_setopt(c->h, CURLOPT_URL, url);
	if (token) {
		snprintf(auth, sizeof(auth), "Authorization: Bearer %s", token);
		h = curl_slist_append(h, auth);
	}
	if (hdr)
		h = curl_slist_append(h, hdr);
	if (data) {
		h = curl_slist_append(h, "Content-Type: application/json");
		curl_easy_setopt(c->h, CURLOPT_POSTFIELDS, data);
	} else {
		curl_easy_setopt(c->h, CURLOPT_HTTPGET, 1L);
	}
	curl_easy_setopt(c->h, CURLOPT_CUSTOMREQUEST, strcmp(method, "GET") && strcmp(method, "POST") ? method : NULL);
	curl_easy_setopt(c->h, CURLOPT_HTTPHEADER, h);
	if (curl_easy_perform(c->h) == CURLE_OK)
		curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_setopt(c->h, CURLOPT_HTTPHEADER, NULL);
	curl_slist_free_all(h);
	buf_addc(&c->body, '\0');
	return status;
}

static int client_init(struct client *c, int id)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->h = curl_easy_init();
	buf_init(&c->body);
	rng_seed(&c->rng, 1000 + (uint64_t)id);
	c->lat = malloc(sizeof(float) * MAX_LAT / 8);
	c->lat_get = malloc(sizeof(float) * MAX_LAT / 8);
	if (!c->h || !c->lat || !c->lat_get)
		return -1;
	curl_easy_setopt(c->h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c->h, CURLOPT_WRITEDATA, &c->body);
	curl_easy_setopt(c->h, CURLOPT_TCP_NODELAY, 1L);
	curl_easy_setopt(c->h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c->h, CURLOPT_TIMEOUT, 30L);
	return 0;
}

static void client_release(struct client *c)
{
	curl_easy_cleanup(c->h);
	buf_release(&c->body);
	free(c->lat);
	free(c->lat_get);
	free(c->games);
}

static void lat_add(float *lat, long *n, double ms)
{
	if (*n < MAX_LAT / 8)
		lat[(*n)++] = (float)ms;
}

/* Make a game as the admin: tokens of every seat, the acting seat. */
static int game_new(struct client *c, struct game *g)
{
	struct buf body = BUF_INIT;
	json_t *res, *seats;
	long st;
	int rc = -1;

	buf_adds(&body, "{\"game\":\"alien-frontiers\",\"players\":[");
	for (int i = 0; i < nplayers; i++)
		buf_addf(&body, "%s{\"name\":\"P%d\"}", i ? "," : "", i);
	buf_adds(&body, "],\"options\":{}}");
	st = request(c, "POST", "/api/v1/games", admin_token, NULL, body.data);
	buf_release(&body);
	if (st != 201 && st != 200) {
		fprintf(stderr, "tp-load: making a game: HTTP %ld %s\n", st, c->body.data);
		return -1;
	}
	res = json_loads(c->body.data, 0, NULL);
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

/* Find whose turn it is (the first active seat) from the game itself. */
static int game_sync(struct client *c, struct game *g)
{
	char path[96];
	json_t *res;
	long st;

	snprintf(path, sizeof(path), "/api/v1/games/%lld", g->id);
	st = request(c, "GET", path, g->tokens[0], NULL, NULL);
	if (st != 200)
		return -1;
	res = json_loads(c->body.data, 0, NULL);
	g->move_count = (int)json_integer_value(json_object_get(res, "move_count"));
	g->seat = (int)json_integer_value(json_array_get(json_object_get(res, "active_seats"), 0));
	if (strcmp(json_string_value(json_object_get(res, "status")) ? json_string_value(json_object_get(res, "status")) : "",
		   "active") != 0)
		g->seat = -1;
	json_decref(res);
	return 0;
}

/*
 * The two fields a move's answer is read for, without parsing the whole
 * answer (~3 KB with the view): turnpostd writes "move_count" and
 * "active_seats" first, before "applied", "pending" and "view". Parsing it
 * with jansson cost the load generator, which shares the server's two
 * cores, about as much CPU as the server spent making it. -1 when the
 * answer does not start that way (the caller then parses it).
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

/* One step: read the legal steps of the acting seat, post one of them. 1: game over. */
static int play_step(struct client *c, struct game *g)
{
	char path[96], ifm[48];
	json_t *legal, *moves, *res, *body;
	const char *pick;
	char *data;
	double t0;
	long st;
	int over = 0;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/legal", g->id);
	t0 = now_s();
	st = request(c, "GET", path, g->tokens[g->seat], NULL, NULL);
	lat_add(c->lat_get, &c->nlat_get, (now_s() - t0) * 1e3);
	c->gets++;
	if (st != 200) {
		c->errors++;
		return -1;
	}
	legal = json_loads(c->body.data, 0, NULL);
	moves = json_object_get(legal, "moves");
	if (!json_array_size(moves)) {
		json_decref(legal);
		return game_sync(c, g) < 0 ? -1 : (g->seat < 0);
	}
	pick = json_string_value(json_array_get(moves, rng_below(&c->rng, (uint32_t)json_array_size(moves))));
	g->move_count = (int)json_integer_value(json_object_get(legal, "move_count"));
	body = json_pack("{s:[s]}", "moves", pick);
	data = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	json_decref(legal);
	snprintf(ifm, sizeof(ifm), "If-Match: \"%d\"", g->move_count);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", g->id);
	t0 = now_s();
	st = request(c, "POST", path, g->tokens[g->seat], ifm, data);
	lat_add(c->lat, &c->nlat, (now_s() - t0) * 1e3);
	free(data);
	if (st == 412) {
		c->stale++;
		return game_sync(c, g) < 0 ? -1 : 0;
	}
	if (st != 200) {
		c->errors++;
		if (c->errors < 5)
			fprintf(stderr, "tp-load: move: HTTP %ld %.200s\n", st, c->body.data);
		return game_sync(c, g) < 0 ? -1 : (g->seat < 0);
	}
	c->ok++;
	if (scan_answer(c->body.data, &g->move_count, &g->seat) == 0)
		return g->seat < 0;
	/* not in the expected order: read it properly */
	res = json_loads(c->body.data, 0, NULL);
	g->move_count = (int)json_integer_value(json_object_get(res, "move_count"));
	if (json_array_size(json_object_get(res, "active_seats")))
		g->seat = (int)json_integer_value(json_array_get(json_object_get(res, "active_seats"), 0));
	else
		over = 1;
	json_decref(res);
	return over;
}

static void *play_thread(void *arg)
{
	struct client *c = arg;
	int k = 0;

	while (now_s() < t_end) {
		struct game *g = &c->games[k];
		int r;

		if (g->seat < 0 && game_sync(c, g) < 0)
			break;
		r = g->seat < 0 ? 1 : play_step(c, g);
		if (r == 1 && game_new(c, g) < 0)
			break;
		if (r < 0 && c->errors > 100)
			break;
		k = (k + 1) % c->ngames;
	}
	return NULL;
}

static void *read_thread(void *arg)
{
	struct client *c = arg;
	char path[96], inm[48];
	struct game *g = &c->games[0];

	snprintf(path, sizeof(path), "/api/v1/games/%lld", g->id);
	snprintf(inm, sizeof(inm), "If-None-Match: \"%d\"", g->move_count);
	while (now_s() < t_end) {
		double t0 = now_s();
		long st = request(c, "GET", path, g->tokens[0], c->inm ? inm : NULL, NULL);
		lat_add(c->lat, &c->nlat, (now_s() - t0) * 1e3);
		if (st == (c->inm ? 304 : 200))
			c->ok++;
		else
			c->errors++;
	}
	return NULL;
}

static void *raw_thread(void *arg)
{
	struct client *c = arg;

	while (now_s() < t_end) {
		double t0 = now_s();
		long st = request(c, "GET", "", NULL, NULL, NULL);
		lat_add(c->lat, &c->nlat, (now_s() - t0) * 1e3);
		if (st == 200)
			c->ok++;
		else
			c->errors++;
	}
	return NULL;
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
			"       tp-load read URL ADMIN_TOKEN CLIENTS SECONDS inm|full\n"
			"       tp-load raw URL CLIENTS SECONDS\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct client *cs = NULL;
	pthread_t *th = NULL;
	const char *mode;
	int nclients, ngames = 0, rc = 1;
	double secs, t0, el, p[4], pg[4];
	long ok = 0, stale = 0, errors = 0, gets = 0;

	if (argc < 5)
		return usage();
	mode = argv[1];
	base = argv[2];
	if (strcmp(mode, "play") == 0) {
		if (argc < 7)
			return usage();
		admin_token = argv[3];
		nclients = (int)strtol(argv[4], NULL, 10);
		ngames = (int)strtol(argv[5], NULL, 10);
		secs = strtod(argv[6], NULL);
		if (argc > 7)
			nplayers = (int)strtol(argv[7], NULL, 10);
		if (ngames < nclients)
			ngames = nclients;
	} else if (strcmp(mode, "read") == 0) {
		if (argc < 7)
			return usage();
		admin_token = argv[3];
		nclients = (int)strtol(argv[4], NULL, 10);
		secs = strtod(argv[5], NULL);
	} else if (strcmp(mode, "raw") == 0) {
		nclients = (int)strtol(argv[3], NULL, 10);
		secs = strtod(argv[4], NULL);
	} else {
		return usage();
	}
	if (nclients < 1 || nclients > 1024 || secs <= 0 || nplayers < 2 || nplayers > MAX_SEATS)
		return usage();
	curl_global_init(CURL_GLOBAL_DEFAULT);
	cs = calloc((size_t)nclients, sizeof(*cs));
	th = calloc((size_t)nclients, sizeof(*th));
	if (!cs || !th)
		goto done;
	for (int i = 0; i < nclients; i++)
		if (client_init(&cs[i], i) < 0)
			goto done;
	/* set-up, not timed: games spread over the clients */
	if (strcmp(mode, "raw") != 0) {
		for (int i = 0; i < nclients; i++) {
			struct client *c = &cs[i];
			c->ngames = strcmp(mode, "play") == 0 ? ngames / nclients + (i < ngames % nclients) : 1;
			c->games = calloc((size_t)c->ngames, sizeof(*c->games));
			if (!c->games)
				goto done;
			for (int k = 0; k < c->ngames; k++) {
				if (game_new(c, &c->games[k]) < 0 || game_sync(c, &c->games[k]) < 0)
					goto done;
			}
			c->inm = strcmp(mode, "read") == 0 && strcmp(argv[6], "inm") == 0;
		}
	}
	t0 = now_s();
	t_end = t0 + secs;
	for (int i = 0; i < nclients; i++)
		pthread_create(&th[i], NULL,
			       strcmp(mode, "play") == 0 ? play_thread : strcmp(mode, "read") == 0 ? read_thread : raw_thread,
			       &cs[i]);
	for (int i = 0; i < nclients; i++)
		pthread_join(th[i], NULL);
	el = now_s() - t0;
	for (int i = 0; i < nclients; i++) {
		ok += cs[i].ok;
		stale += cs[i].stale;
		errors += cs[i].errors;
		gets += cs[i].gets;
	}
	percentiles(cs, nclients, 0, p);
	if (strcmp(mode, "play") == 0) {
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
		printf("%s%s: %d clients, %.1f s: %ld ok, %.0f requests/s, %ld errors; latency ms p50 %.2f p95 %.2f "
		       "p99 %.2f max %.2f\n",
		       mode, strcmp(mode, "read") == 0 ? (cs[0].inm ? " (If-None-Match, 304)" : " (full 200)") : "",
		       nclients, el, ok, (double)ok / el, errors, p[0], p[1], p[2], p[3]);
		printf("RESULT %s%s clients=%d req_per_s=%.0f p50_ms=%.2f p99_ms=%.2f errors=%ld\n", mode,
		       strcmp(mode, "read") == 0 ? (cs[0].inm ? "_inm" : "_full") : "", nclients, (double)ok / el, p[0],
		       p[2], errors);
	}
	rc = errors > ok / 100 ? 1 : 0;
done:
	for (int i = 0; cs && i < nclients; i++)
		client_release(&cs[i]);
	free(cs);
	free(th);
	curl_global_cleanup();
	return rc;
}
