/* http/metrics.c: counters served at /metrics in Prometheus text format */
/* SPDX-License-Identifier: MIT */
#include "http/metrics.h"

#include <dirent.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include "http/answers.h"
#include "engine/health.h"
#include "notify/notify.h"
#include "util/clock.h"
#include "util/netaddr.h"
#include "util/token.h"
#include "util/version.h"

#include "util/banned.h"

static atomic_ullong requests[6]; /* by status class 1xx..5xx; [0] other */
static atomic_ullong moves;

/* ---- request latency, by route group ---- */

static const char *const groups[] = { "health", "api_move", "api", "api_admin", "inbound", "web_move", "web",
				      "console", "static", "unmatched" };
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))
static const double bounds[] = { 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10 };
#define NBOUNDS (sizeof(bounds) / sizeof(bounds[0]))
static struct {
	atomic_ullong le[NBOUNDS + 1]; /* requests that took at most bounds[i] (and above them all), not cumulative */
	atomic_ullong sum_us;
} latency[NGROUPS];

/* Which group a route is in (its pattern as in http/routes.c; NULL: none matched). */
static size_t route_group(const char *method, const char *route)
{
	if (!route)
		return NGROUPS - 1;
	if (!strcmp(route, "/healthz") || !strcmp(route, "/readyz") || !strcmp(route, "/metrics"))
		return 0;
	if (!strncmp(route, "/api/v1/admin", 13))
		return 3;
	if (!strncmp(route, "/api/v1/inbound/", 16))
		return 4;
	if (!strncmp(route, "/api/", 5))
		return method && !strcmp(method, "POST") && !strcmp(route, "/api/v1/games/{id}/moves") ? 1 : 2;
	if (!strncmp(route, "/admin", 6))
		return 7;
	if (!strncmp(route, "/static/", 8))
		return 8;
	return method && !strcmp(method, "POST") && !strcmp(route, "/games/{id}/move") ? 5 : 6;
}

void metrics_observe_request(const char *method, const char *route, double ms)
{
	size_t g = route_group(method, route), b = 0;
	double s = ms / 1000.0;

	if (s < 0)
		s = 0;
	while (b < NBOUNDS && s > bounds[b])
		b++;
	atomic_fetch_add(&latency[g].le[b], 1);
	atomic_fetch_add(&latency[g].sum_us, (unsigned long long)(ms * 1000.0));
}

static void render_latency(struct buf *out)
{
	buf_adds(out, "# HELP turnpost_http_request_duration_seconds Time to answer a request, by route group.\n"
		      "# TYPE turnpost_http_request_duration_seconds histogram\n");
	for (size_t g = 0; g < NGROUPS; g++) {
		unsigned long long cum = 0;
		for (size_t b = 0; b <= NBOUNDS; b++) {
			cum += atomic_load(&latency[g].le[b]);
			if (b < NBOUNDS)
				buf_addf(out, "turnpost_http_request_duration_seconds_bucket{group=\"%s\",le=\"%g\"} %llu\n",
					 groups[g], bounds[b], cum);
			else
				buf_addf(out, "turnpost_http_request_duration_seconds_bucket{group=\"%s\",le=\"+Inf\"} %llu\n",
					 groups[g], cum);
		}
		buf_addf(out, "turnpost_http_request_duration_seconds_sum{group=\"%s\"} %.6f\n", groups[g],
			 (double)atomic_load(&latency[g].sum_us) / 1e6);
		/* the count is read after the buckets: a request counted in between makes it larger, never smaller */
		buf_addf(out, "turnpost_http_request_duration_seconds_count{group=\"%s\"} %llu\n", groups[g], cum);
	}
}

/* ---- inbound email ---- */

static const char *const outcomes[] = { "accepted", "refused", "wrong_sender", "expired", "unknown_address",
					"ignored", "unsubscribed", "duplicate", "not_an_email", "unauthorized", "other" };
#define NOUTCOMES (sizeof(outcomes) / sizeof(outcomes[0]))
static atomic_ullong inbound[NOUTCOMES];

void metrics_count_inbound(const char *outcome)
{
	size_t i = 0;

	while (i < NOUTCOMES - 1 && (!outcome || strcmp(outcomes[i], outcome) != 0))
		i++;
	atomic_fetch_add(&inbound[i], 1);
}

static void render_inbound(struct buf *out)
{
	buf_adds(out, "# HELP turnpost_inbound_emails_total Emails received at POST /api/v1/inbound/email, by outcome.\n"
		      "# TYPE turnpost_inbound_emails_total counter\n");
	for (size_t i = 0; i < NOUTCOMES; i++)
		buf_addf(out, "turnpost_inbound_emails_total{outcome=\"%s\"} %llu\n", outcomes[i],
			 (unsigned long long)atomic_load(&inbound[i]));
}

/* ---- notifications ---- */

static void render_notify(struct buf *out)
{
	struct notify_count c[NOTIFY_COUNTS_MAX];
	int n = notify_counts(c, NOTIFY_COUNTS_MAX);
	static const struct {
		const char *name, *help;
		size_t off;
	} fam[] = {
		{ "turnpost_notifications_delivered_total", "Notifications the receiver accepted, by transport.",
		  offsetof(struct notify_count, delivered) },
		{ "turnpost_notification_failures_total", "Delivery attempts that failed (retried or dead), by transport.",
		  offsetof(struct notify_count, failed) },
		{ "turnpost_notifications_dead_total", "Notifications dead-lettered after their last attempt, by transport.",
		  offsetof(struct notify_count, dead) },
	};

	for (size_t f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
		buf_addf(out, "# HELP %s %s\n# TYPE %s counter\n", fam[f].name, fam[f].help, fam[f].name);
		for (int i = 0; i < n; i++) {
			uint64_t v;
			memcpy(&v, (const char *)&c[i] + fam[f].off, sizeof(v));
			/* transport names are ours: letters, digits, - and _ */
			buf_addf(out, "%s{transport=\"%s\"} %llu\n", fam[f].name, c[i].transport, (unsigned long long)v);
		}
	}
}

/* ---- the process (the names every Prometheus client library uses) ---- */

static void render_process(struct buf *out)
{
	struct rusage ru;
	struct rlimit rl;
	long page = sysconf(_SC_PAGESIZE), ticks = sysconf(_SC_CLK_TCK);
	unsigned long long size = 0, resident = 0;
	FILE *f;
	DIR *d;
	int fds = 0;

	if ((f = fopen("/proc/self/statm", "r"))) {
		if (fscanf(f, "%llu %llu", &size, &resident) != 2)
			size = resident = 0;
		fclose(f);
		buf_addf(out, "# HELP process_resident_memory_bytes Resident memory size in bytes.\n"
			      "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes %llu\n"
			      "# HELP process_virtual_memory_bytes Virtual memory size in bytes.\n"
			      "# TYPE process_virtual_memory_bytes gauge\nprocess_virtual_memory_bytes %llu\n",
			 resident * (unsigned long long)page, size * (unsigned long long)page);
	}
	if ((d = opendir("/proc/self/fd"))) {
		struct dirent *e;
		while ((e = readdir(d)))
			fds += e->d_name[0] != '.';
		closedir(d);
		/* less the one opendir holds */
		buf_addf(out, "# HELP process_open_fds Number of open file descriptors.\n"
			      "# TYPE process_open_fds gauge\nprocess_open_fds %d\n", fds > 0 ? fds - 1 : 0);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		buf_addf(out, "# HELP process_max_fds Maximum number of open file descriptors.\n"
			      "# TYPE process_max_fds gauge\nprocess_max_fds %llu\n", (unsigned long long)rl.rlim_cur);
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		buf_addf(out, "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n"
			      "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total %.6f\n",
			 (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
				 (double)ru.ru_stime.tv_usec / 1e6);
	/* start: the 22nd field of /proc/self/stat (ticks after boot) and the boot time of /proc/stat */
	if (ticks > 0 && (f = fopen("/proc/self/stat", "r"))) {
		char line[1024], *p;
		unsigned long long start = 0, btime = 0;
		int ok = 0;
		if (fgets(line, sizeof(line), f) && (p = strrchr(line, ')'))) {
			/* after "pid (comm)" come fields 3 on; the 22nd is the 20th of those */
			p++;
			for (int field = 3; field < 22 && p; field++)
				p = strchr(p + 1, ' ');
			ok = p && sscanf(p, " %llu", &start) == 1;
		}
		fclose(f);
		if (ok && (f = fopen("/proc/stat", "r"))) {
			while (fgets(line, sizeof(line), f))
				if (sscanf(line, "btime %llu", &btime) == 1)
					break;
			fclose(f);
		}
		if (ok && btime)
			buf_addf(out, "# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.\n"
				      "# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds %.2f\n",
				 (double)btime + (double)start / (double)ticks);
	}
}

/* ---- who may read /metrics ---- */

int metrics_access(const char *client, const char *authorization, const char *allow, const char *token)
{
	if (allow && *allow) {
		struct netaddr_range ranges[NETADDR_MAX_RANGES];
		struct netaddr a;
		struct err e = {0};
		int n = netaddr_parse_list(allow, ranges, NETADDR_MAX_RANGES, &e);

		/* a unix socket's client has no address: not in any list */
		if (n < 0 || !client || netaddr_parse(client, &a) < 0 || !netaddr_in(ranges, n, &a))
			return 403;
	}
	if (token && *token) {
		unsigned char want[32], got[32];
		const char *h = authorization;

		if (!h || strncasecmp(h, "Bearer ", 7) != 0)
			return 401;
		h += 7;
		while (*h == ' ')
			h++;
		/* hashes compared in constant time: the lengths leak nothing either */
		token_hash_bytes(h, strlen(h), got);
		token_hash_bytes(token, strlen(token), want);
		if (!token_hash_equal(got, want))
			return 401;
	}
	return 0;
}

void metrics_count_request(int status)
{
	int cls = status / 100;

	atomic_fetch_add(&requests[cls >= 1 && cls <= 5 ? cls : 0], 1);
}

void metrics_count_moves(int applied)
{
	atomic_fetch_add(&moves, (unsigned long long)applied);
}

void metrics_render(struct buf *out, struct store *store)
{
	struct health_counters hc;
	uint64_t hits = 0, misses = 0;

	/* the version as git describe or the release gives it: no quote or backslash to escape */
	buf_addf(out, "# HELP turnpost_build_info The running build: its version (git describe, or the release).\n"
		      "# TYPE turnpost_build_info gauge\nturnpost_build_info{version=\"%s\"} 1\n", version_text);
	buf_adds(out, "# HELP turnpost_http_requests_total HTTP requests answered, by status class.\n"
		      "# TYPE turnpost_http_requests_total counter\n");
	for (int c = 1; c <= 5; c++)
		buf_addf(out, "turnpost_http_requests_total{class=\"%dxx\"} %llu\n", c,
			 (unsigned long long)atomic_load(&requests[c]));
	buf_adds(out, "# HELP turnpost_moves_total Game steps stored.\n# TYPE turnpost_moves_total counter\n");
	buf_addf(out, "turnpost_moves_total %llu\n", (unsigned long long)atomic_load(&moves));
	answers_stats(&hits, &misses);
	buf_addf(out,
		 "# HELP turnpost_game_answers_total Game reads, by whether the kept answer was still current.\n"
		 "# TYPE turnpost_game_answers_total counter\n"
		 "turnpost_game_answers_total{kept=\"yes\"} %llu\n"
		 "turnpost_game_answers_total{kept=\"no\"} %llu\n",
		 (unsigned long long)hits, (unsigned long long)misses);
	answers_page_stats(&hits, &misses);
	buf_addf(out,
		 "# HELP turnpost_game_pages_total Game page reads with a session, by whether the kept page was still "
		 "current.\n"
		 "# TYPE turnpost_game_pages_total counter\n"
		 "turnpost_game_pages_total{kept=\"yes\"} %llu\n"
		 "turnpost_game_pages_total{kept=\"no\"} %llu\n",
		 (unsigned long long)hits, (unsigned long long)misses);
	render_latency(out);
	render_notify(out);
	render_inbound(out);
	render_process(out);
	if (!store)
		return;
	{
		struct store_stats ss;
		struct err e = {0};
		/* a database that does not answer leaves these out (/readyz says why) */
		if (health_gauges(store, &ss, &e) == 0)
			buf_addf(out,
				 "# HELP turnpost_outbox_pending Notifications waiting to go out (not those kept for a digest).\n"
				 "# TYPE turnpost_outbox_pending gauge\nturnpost_outbox_pending %lld\n"
				 "# HELP turnpost_outbox_oldest_age_seconds How long the oldest of them has waited.\n"
				 "# TYPE turnpost_outbox_oldest_age_seconds gauge\nturnpost_outbox_oldest_age_seconds %.3f\n"
				 "# HELP turnpost_outbox_dead Notifications dead-lettered and not sent again.\n"
				 "# TYPE turnpost_outbox_dead gauge\nturnpost_outbox_dead %lld\n"
				 "# HELP turnpost_games_active Games being played.\n"
				 "# TYPE turnpost_games_active gauge\nturnpost_games_active %lld\n",
				 (long long)ss.outbox_pending,
				 ss.outbox_oldest && clock_now_ms() > ss.outbox_oldest
					 ? (double)(clock_now_ms() - ss.outbox_oldest) / 1000.0
					 : 0.0,
				 (long long)ss.outbox_dead, (long long)ss.games_active);
	}
	health_counters(store, &hc);
	buf_addf(out,
		 "# HELP turnpost_store_group_commits_total Commits of transactions shared by concurrent moves.\n"
		 "# TYPE turnpost_store_group_commits_total counter\n"
		 "turnpost_store_group_commits_total %llu\n"
		 "# HELP turnpost_store_grouped_writes_total Moves committed in shared transactions.\n"
		 "# TYPE turnpost_store_grouped_writes_total counter\n"
		 "turnpost_store_grouped_writes_total %llu\n"
		 "# HELP turnpost_store_syncs_total Syncs of the database's log to disk.\n"
		 "# TYPE turnpost_store_syncs_total counter\n"
		 "turnpost_store_syncs_total %llu\n"
		 "# HELP turnpost_store_checkpoints_total Checkpoints of the log into the database, in the background.\n"
		 "# TYPE turnpost_store_checkpoints_total counter\n"
		 "turnpost_store_checkpoints_total %llu\n",
		 (unsigned long long)hc.group_commits, (unsigned long long)hc.grouped_writes,
		 (unsigned long long)hc.syncs, (unsigned long long)hc.checkpoints);
	hits = hc.head_hits;
	misses = hc.head_misses;
	buf_addf(out,
		 "# HELP turnpost_store_head_reads_total Reads of a game's latest step, by whether it was remembered.\n"
		 "# TYPE turnpost_store_head_reads_total counter\n"
		 "turnpost_store_head_reads_total{remembered=\"yes\"} %llu\n"
		 "turnpost_store_head_reads_total{remembered=\"no\"} %llu\n",
		 (unsigned long long)hits, (unsigned long long)misses);
}
