/* tests/http/test_metrics.c: /metrics: strict Prometheus text, counters that move, access restriction */
/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "httptest.h"
#include "notify/receiver.h"
#include "testutil.h"
#include "util/token.h"

#define SECRET "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
#define INBOUND "inbound-secret-0123456789"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* ---- a strict reader of the text exposition format (version 0.0.4) ---- */

#define MAX_SAMPLES 1024
#define MAX_FAMILIES 128

struct sample {
	char name[128];
	char labels[256]; /* as written between the braces, "" when none */
	double value;
};

struct family {
	char name[128];
	char type[16];
	int help, typed, closed;
};

struct exposition {
	struct sample s[MAX_SAMPLES];
	int n;
	struct family f[MAX_FAMILIES];
	int nf;
	char error[256];
};

static int name_char(int c, int first)
{
	return isalpha(c) || c == '_' || c == ':' || (!first && isdigit(c));
}

/* A metric name at *p; advances. 0 or -1. */
static int read_name(const char **p, char *out, size_t size, int label)
{
	size_t n = 0;

	if (!name_char((unsigned char)**p, 1) || (label && **p == ':'))
		return -1;
	while (name_char((unsigned char)**p, 0) && !(label && **p == ':')) {
		if (n + 1 >= size)
			return -1;
		out[n++] = *(*p)++;
	}
	out[n] = '\0';
	return 0;
}

/* A sample value: a float, +Inf, -Inf or NaN, the whole rest of the token. */
static int read_value(const char *text, double *out)
{
	char *end;

	if (strcmp(text, "+Inf") == 0) {
		*out = INFINITY;
		return 0;
	}
	if (strcmp(text, "-Inf") == 0) {
		*out = -INFINITY;
		return 0;
	}
	if (strcmp(text, "NaN") == 0) {
		*out = NAN;
		return 0;
	}
	if (!*text || !(isdigit((unsigned char)*text) || *text == '-' || *text == '+' || *text == '.'))
		return -1;
	*out = strtod(text, &end);
	return *end ? -1 : 0;
}

/* The family a sample belongs to: its name less _bucket, _sum or _count when that family is a histogram. */
static struct family *family_of(struct exposition *x, const char *name)
{
	for (int i = 0; i < x->nf; i++) {
		size_t k = strlen(x->f[i].name);
		if (strcmp(x->f[i].name, name) == 0)
			return &x->f[i];
		if (strcmp(x->f[i].type, "histogram") == 0 && strncmp(name, x->f[i].name, k) == 0 &&
		    (strcmp(name + k, "_bucket") == 0 || strcmp(name + k, "_sum") == 0 || strcmp(name + k, "_count") == 0))
			return &x->f[i];
	}
	return NULL;
}

static struct family *family_get(struct exposition *x, const char *name)
{
	for (int i = 0; i < x->nf; i++)
		if (strcmp(x->f[i].name, name) == 0)
			return &x->f[i];
	if (x->nf == MAX_FAMILIES)
		return NULL;
	memset(&x->f[x->nf], 0, sizeof(x->f[0]));
	snprintf(x->f[x->nf].name, sizeof(x->f[0].name), "%s", name);
	return &x->f[x->nf++];
}

#define BAD(...) do { snprintf(x->error, sizeof(x->error), __VA_ARGS__); return -1; } while (0)

/*
 * Parse text strictly: every line a HELP, a TYPE (before its family's
 * samples, once), or a sample of a declared family, whose lines come
 * together; names and labels by the grammar, label values quoted with only
 * \\, \" and \n escaped, no series twice, the text ending in a newline.
 */
static int exposition_parse(const char *text, struct exposition *x)
{
	const char *line = text;
	struct family *current = NULL;

	memset(x, 0, sizeof(*x));
	if (!*text || text[strlen(text) - 1] != '\n')
		BAD("the text does not end with a newline");
	while (*line) {
		const char *end = strchr(line, '\n');
		char buf[1024], name[128];
		const char *p = buf;
		size_t len = (size_t)(end - line);

		if (len >= sizeof(buf))
			BAD("a line of %zu characters", len);
		memcpy(buf, line, len);
		buf[len] = '\0';
		line = end + 1;
		if (len == 0)
			BAD("an empty line");
		if (buf[0] == '#') {
			struct family *f;
			int help;
			if (strncmp(buf, "# HELP ", 7) == 0)
				help = 1;
			else if (strncmp(buf, "# TYPE ", 7) == 0)
				help = 0;
			else
				continue; /* a comment */
			p = buf + 7;
			if (read_name(&p, name, sizeof(name), 0) < 0 || *p != ' ')
				BAD("bad metric name in \"%s\"", buf);
			p++;
			if (!(f = family_get(x, name)))
				BAD("too many families");
			if (f->closed || (current && current != f && f->typed && help))
				BAD("%s: its lines are not together", name);
			if (help) {
				if (f->help++)
					BAD("%s: two HELP lines", name);
			} else {
				if (f->typed++)
					BAD("%s: two TYPE lines", name);
				if (strcmp(p, "counter") && strcmp(p, "gauge") && strcmp(p, "histogram") &&
				    strcmp(p, "summary") && strcmp(p, "untyped"))
					BAD("%s: unknown type \"%s\"", name, p);
				snprintf(f->type, sizeof(f->type), "%s", p);
			}
			if (current && current != f)
				current->closed = 1;
			current = f;
			continue;
		}
		{
			struct sample *s;
			struct family *f;
			char value[64];
			size_t lp = 0;

			if (x->n == MAX_SAMPLES)
				BAD("too many samples");
			s = &x->s[x->n];
			if (read_name(&p, s->name, sizeof(s->name), 0) < 0)
				BAD("bad sample name in \"%s\"", buf);
			s->labels[0] = '\0';
			if (*p == '{') {
				const char *open = ++p;
				while (*p != '}') {
					char lname[64];
					if (read_name(&p, lname, sizeof(lname), 1) < 0 || *p != '=' || p[1] != '"')
						BAD("bad label in \"%s\"", buf);
					p += 2;
					while (*p != '"') {
						if (!*p || *p == '\n')
							BAD("unterminated label value in \"%s\"", buf);
						if (*p == '\\') {
							if (p[1] != '\\' && p[1] != '"' && p[1] != 'n')
								BAD("bad escape in \"%s\"", buf);
							p++;
						}
						p++;
					}
					p++;
					if (*p == ',')
						p++;
					else if (*p != '}')
						BAD("bad label list in \"%s\"", buf);
				}
				lp = (size_t)(p - open);
				if (lp >= sizeof(s->labels))
					BAD("labels too long");
				memcpy(s->labels, open, lp);
				s->labels[lp] = '\0';
				p++;
			}
			if (*p != ' ')
				BAD("no space before the value in \"%s\"", buf);
			p++;
			if (sscanf(p, "%63s", value) != 1 || read_value(value, &s->value) < 0)
				BAD("bad value in \"%s\"", buf);
			p += strlen(value);
			if (*p == ' ') {
				/* an optional timestamp: an integer */
				p++;
				if (*p == '-')
					p++;
				if (!isdigit((unsigned char)*p))
					BAD("bad timestamp in \"%s\"", buf);
				while (isdigit((unsigned char)*p))
					p++;
			}
			if (*p)
				BAD("trailing text in \"%s\"", buf);
			if (!(f = family_of(x, s->name)) || !f->typed)
				BAD("%s: a sample before its TYPE", s->name);
			if (f != current)
				BAD("%s: its samples are not together with its family", s->name);
			if (strcmp(f->type, "counter") == 0 && !(s->value >= 0))
				BAD("%s: a counter below zero", s->name);
			for (int i = 0; i < x->n; i++)
				if (strcmp(x->s[i].name, s->name) == 0 && strcmp(x->s[i].labels, s->labels) == 0)
					BAD("%s{%s} twice", s->name, s->labels);
			x->n++;
		}
	}
	return 0;
}

/* The value of name{labels} (labels exactly as written; "" for none); NAN when absent. */
static double value_of(const struct exposition *x, const char *name, const char *labels)
{
	for (int i = 0; i < x->n; i++)
		if (strcmp(x->s[i].name, name) == 0 && strcmp(x->s[i].labels, labels) == 0)
			return x->s[i].value;
	return NAN;
}

/*
 * Every histogram holds together: for each label set its buckets' le rise,
 * their counts never fall, the +Inf bucket is the _count, and a _sum is there.
 */
static int histograms_check(struct exposition *x)
{
	for (int f = 0; f < x->nf; f++) {
		char bucket[160], count[160], sum[160];

		if (strcmp(x->f[f].type, "histogram") != 0)
			continue;
		snprintf(bucket, sizeof(bucket), "%s_bucket", x->f[f].name);
		snprintf(count, sizeof(count), "%s_count", x->f[f].name);
		snprintf(sum, sizeof(sum), "%s_sum", x->f[f].name);
		for (int i = 0; i < x->n; i++) {
			const char *labels = x->s[i].labels;
			double last_le = -INFINITY, last = 0;
			int seen_inf = 0;

			if (strcmp(x->s[i].name, count) != 0)
				continue;
			if (isnan(value_of(x, sum, labels)))
				BAD("%s{%s}: no _sum", x->f[f].name, labels);
			for (int k = 0; k < x->n; k++) {
				const char *le;
				double v;
				char rest[256];
				if (strcmp(x->s[k].name, bucket) != 0 || !(le = strstr(x->s[k].labels, "le=\"")))
					continue;
				/* the bucket's labels less le must be the count's */
				snprintf(rest, sizeof(rest), "%.*s", (int)(le - x->s[k].labels), x->s[k].labels);
				if (rest[0] && rest[strlen(rest) - 1] == ',')
					rest[strlen(rest) - 1] = '\0';
				if (strcmp(rest, labels) != 0)
					continue;
				if (read_value(le + 4, &v) < 0) {
					char num[32];
					snprintf(num, sizeof(num), "%.*s", (int)strcspn(le + 4, "\""), le + 4);
					if (read_value(num, &v) < 0)
						BAD("%s: bad le", bucket);
				}
				if (!(v > last_le) || x->s[k].value < last)
					BAD("%s{%s}: buckets out of order", bucket, x->s[k].labels);
				last_le = v;
				last = x->s[k].value;
				seen_inf = isinf(v);
			}
			if (!seen_inf || last != x->s[i].value)
				BAD("%s{%s}: the +Inf bucket is not the count", x->f[f].name, labels);
		}
	}
	return 0;
}

/* GET /metrics with extra headers (NULL-terminated, may be NULL); the status; the body into x when 200. */
static long scrape(const struct ht_daemon *d, const char *const *headers, struct exposition *x, char *ctype)
{
	struct ht_resp r;
	long status;

	if (ht_request(d, "GET", "/metrics", NULL, headers, NULL, 0, &r) < 0)
		return -1;
	status = r.status;
	if (ctype)
		snprintf(ctype, 128, "%s", r.content_type);
	if (status == 200 && x && exposition_parse(r.body.data, x) < 0) {
		fprintf(stderr, "\n  /metrics: %s\n", x->error);
		status = -2;
	}
	ht_resp_release(&r);
	return status;
}

/* The parser refuses what Prometheus would. */
static void test_metrics__parser_is_strict(void)
{
	static struct exposition x;
	static const char *const bad[] = {
		"a 1",                                                   /* no newline */
		"a 1\n",                                                 /* no TYPE */
		"# TYPE a counter\na -1\n",                              /* counter below zero */
		"# TYPE a gauge\na{x=\"1\"} 1\na{x=\"1\"} 2\n",          /* twice */
		"# TYPE a gauge\na{x=1} 1\n",                            /* unquoted */
		"# TYPE a gauge\na{x=\"\\t\"} 1\n",                      /* bad escape */
		"# TYPE a gauge\na one\n",                               /* bad value */
		"# TYPE a gauge\n# TYPE b gauge\nb 1\na 1\n",            /* not together */
		"# TYPE a gauge\n# TYPE a gauge\na 1\n",                 /* two TYPEs */
		"# TYPE 1a gauge\n1a 1\n",                               /* bad name */
		"# TYPE a flag\na 1\n",                                  /* bad type */
		"# TYPE a gauge\n\na 1\n",                               /* empty line */
	};
	const char *good = "# HELP a A thing.\n# TYPE a gauge\na{x=\"q\\\"\\\\\\n\",y=\"2\"} 1.5e3\n"
			   "# TYPE h histogram\nh_bucket{le=\"0.1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 0.3\nh_count 2\n";

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (exposition_parse(bad[i], &x) == 0)
			fprintf(stderr, "\n  accepted: %s\n", bad[i]);
		CU_ASSERT_EQUAL(exposition_parse(bad[i], &x), -1);
	}
	CU_ASSERT_EQUAL_FATAL(exposition_parse(good, &x), 0);
	CU_ASSERT_EQUAL(histograms_check(&x), 0);
	CU_ASSERT_EQUAL(value_of(&x, "a", "x=\"q\\\"\\\\\\n\",y=\"2\""), 1500);
	CU_ASSERT_EQUAL(exposition_parse("# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 3\n", &x), 0);
	CU_ASSERT_EQUAL(histograms_check(&x), -1);
}

/* An admin and a counting-race game of Ann and Bob; the game id, Ann's seat token. */
static int64_t game_for_two(const struct ht_daemon *d, char admin[64], char ann[64])
{
	struct buf out = BUF_INIT;
	struct ht_resp r;
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	int64_t id = 0;

	if (ht_cli(d, "user add admin@example.org --name Admin --admin", &out) != 0) {
		buf_release(&out);
		return 0;
	}
	ht_last_line(&out, admin, 64);
	buf_release(&out);
	if (ht_api(d, "POST", "/api/v1/games", admin, body, &r) < 0)
		return 0;
	if (r.status == 201) {
		id = json_integer_value(json_object_get(r.json, "id"));
		snprintf(ann, 64, "%s",
			 json_string_value(json_object_get(json_array_get(json_object_get(r.json, "seats"), 0), "token")));
	}
	ht_resp_release(&r);
	return id;
}

/* The output parses, and the counters move after a move, a delivery, a failure, a dead letter and a mail. */
static void test_metrics__counters_move(void)
{
	static struct exposition before, after;
	struct receiver *rx = rx_start(SECRET);
	char admin[64], ann[64], path[96], ctype[128];
	const char *args[] = { "--mail-transport", "webhook", "--webhook-url", NULL, "--webhook-secret", SECRET,
			       "--mail-attempts", "3", "--mail-backoff", "1", "--inbound-secret", INBOUND, NULL };
	struct ht_daemon d;
	struct ht_resp r;
	int64_t id;
	double v;

	CU_ASSERT_PTR_NOT_NULL_FATAL(rx);
	args[3] = rx_url(rx);
	/* the first invitation fails and is retried; the second is refused for good */
	rx_push(rx, RX_500, 0, 0);
	rx_push(rx, RX_400, 0, 0);
	CU_ASSERT_EQUAL_FATAL(ht_start(&d, args), 0);
	CU_ASSERT_EQUAL_FATAL(scrape(&d, NULL, &before, ctype), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(ctype, "text/plain; version=0.0.4"));
	CU_ASSERT_EQUAL(histograms_check(&before), 0);
	CU_ASSERT_EQUAL(value_of(&before, "turnpost_notifications_delivered_total", "transport=\"webhook\""), 0);
	CU_ASSERT_EQUAL(value_of(&before, "turnpost_notification_failures_total", "transport=\"webhook\""), 0);
	CU_ASSERT_EQUAL(value_of(&before, "turnpost_games_active", ""), 0);
	CU_ASSERT_EQUAL(value_of(&before, "turnpost_outbox_pending", ""), 0);
	CU_ASSERT_EQUAL(value_of(&before, "turnpost_outbox_oldest_age_seconds", ""), 0);
	CU_ASSERT_EQUAL(value_of(&before, "turnpost_inbound_emails_total", "outcome=\"unknown_address\""), 0);
	/* the process */
	CU_ASSERT(value_of(&before, "process_resident_memory_bytes", "") > 1024 * 1024);
	CU_ASSERT(value_of(&before, "process_open_fds", "") >= 3);
	CU_ASSERT(value_of(&before, "process_cpu_seconds_total", "") > 0);
	v = value_of(&before, "process_start_time_seconds", "");
	CU_ASSERT(v > (double)time(NULL) - 600 && v <= (double)time(NULL) + 2);
	/* the build */
	{
		int found = 0;
		for (int i = 0; i < before.n; i++)
			found += strcmp(before.s[i].name, "turnpost_build_info") == 0 &&
				 strncmp(before.s[i].labels, "version=\"", 9) == 0 && before.s[i].value == 1;
		CU_ASSERT_EQUAL(found, 1);
	}

	id = game_for_two(&d, admin, ann);
	CU_ASSERT_FATAL(id > 0);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	CU_ASSERT_EQUAL(ht_api(&d, "POST", path, ann, "{\"moves\":[\"add 1\",\"end\"]}", &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	/* a mail to an address nobody has */
	{
		const char *mail = "From: someone@example.net\r\nTo: play+nothing@example.org\r\n"
				   "Subject: hello\r\nMessage-ID: <m1@example.net>\r\n\r\nadd 1\r\n";
		const char *headers[] = { "Content-Type: message/rfc822", "Authorization: Bearer " INBOUND, NULL };
		CU_ASSERT_EQUAL(ht_request(&d, "POST", "/api/v1/inbound/email", NULL, headers, mail, strlen(mail), &r), 0);
		CU_ASSERT_EQUAL(r.status, 200);
		ht_resp_release(&r);
	}
	/* the first invitation is delivered at its retry, a second or so later */
	for (int i = 0; i < 100; i++) {
		CU_ASSERT_EQUAL_FATAL(scrape(&d, NULL, &after, NULL), 200);
		if (value_of(&after, "turnpost_notifications_delivered_total", "transport=\"webhook\"") >= 2)
			break;
		sleep_ms(100);
	}
	CU_ASSERT_EQUAL(histograms_check(&after), 0);
	/* Ann's invitation (after one failure) and Bob's turn went; Bob's invitation is dead */
	CU_ASSERT_EQUAL(value_of(&after, "turnpost_notifications_delivered_total", "transport=\"webhook\""), 2);
	CU_ASSERT_EQUAL(value_of(&after, "turnpost_notification_failures_total", "transport=\"webhook\""), 2);
	CU_ASSERT_EQUAL(value_of(&after, "turnpost_notifications_dead_total", "transport=\"webhook\""), 1);
	CU_ASSERT_EQUAL(value_of(&after, "turnpost_outbox_dead", ""), 1);
	CU_ASSERT_EQUAL(value_of(&after, "turnpost_outbox_pending", ""), 0);
	CU_ASSERT_EQUAL(value_of(&after, "turnpost_games_active", ""), 1);
	CU_ASSERT_EQUAL(value_of(&after, "turnpost_moves_total", "") - value_of(&before, "turnpost_moves_total", ""), 2);
	CU_ASSERT_EQUAL(value_of(&after, "turnpost_inbound_emails_total", "outcome=\"unknown_address\""), 1);
	/* one move through the API, timed in its group; the game's creation among the other API requests */
	CU_ASSERT_EQUAL(value_of(&after, "turnpost_http_request_duration_seconds_count", "group=\"api_move\"") -
				value_of(&before, "turnpost_http_request_duration_seconds_count", "group=\"api_move\""),
			1);
	CU_ASSERT(value_of(&after, "turnpost_http_request_duration_seconds_sum", "group=\"api_move\"") > 0);
	CU_ASSERT(value_of(&after, "turnpost_http_request_duration_seconds_count", "group=\"api\"") >= 1);
	/* the scrapes themselves */
	CU_ASSERT(value_of(&after, "turnpost_http_request_duration_seconds_count", "group=\"health\"") >= 1);
	ht_cleanup(&d);
	rx_stop(rx);
}

/* An address list answers 403 to others; a token answers 401 without it; both at once need both. */
static void test_metrics__restricted(void)
{
	static struct exposition x;
	const char *elsewhere[] = { "--metrics-allow", "192.0.2.0/24, 2001:db8::/32", NULL };
	const char *here[] = { "--metrics-allow", "127.0.0.0/8", NULL };
	const char *token[] = { "--metrics-token", "scrape-token-0123456789", NULL };
	const char *both[] = { "--metrics-allow", "192.0.2.1", "--metrics-token", "scrape-token-0123456789", NULL };
	const char *right[] = { "Authorization: Bearer scrape-token-0123456789", NULL };
	const char *wrong[] = { "Authorization: Bearer scrape-token-0123456780", NULL };
	struct ht_daemon d;
	struct ht_resp r;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, elsewhere), 0);
	CU_ASSERT_EQUAL(scrape(&d, NULL, NULL, NULL), 403);
	CU_ASSERT_EQUAL(scrape(&d, right, NULL, NULL), 403);
	/* the rest of the server is not restricted */
	CU_ASSERT_EQUAL(ht_request(&d, "GET", "/healthz", NULL, NULL, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	ht_cleanup(&d);

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, here), 0);
	CU_ASSERT_EQUAL(scrape(&d, NULL, &x, NULL), 200);
	ht_cleanup(&d);

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, token), 0);
	CU_ASSERT_EQUAL(scrape(&d, NULL, NULL, NULL), 401);
	CU_ASSERT_EQUAL(scrape(&d, wrong, NULL, NULL), 401);
	CU_ASSERT_EQUAL(scrape(&d, right, &x, NULL), 200);
	/* a 401 says how to authenticate */
	CU_ASSERT_EQUAL(ht_request(&d, "GET", "/metrics", NULL, NULL, NULL, 0, &r), 0);
	CU_ASSERT_PTR_NOT_NULL(r.json && strstr(r.content_type, "problem+json"));
	ht_resp_release(&r);
	ht_cleanup(&d);

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, both), 0);
	CU_ASSERT_EQUAL(scrape(&d, right, NULL, NULL), 403);
	ht_cleanup(&d);

	/* a list that is no list stops the start */
	{
		const char *bad[] = { "--metrics-allow", "127.0.0.1,nonsense", NULL };
		CU_ASSERT_NOT_EQUAL(ht_start(&d, bad), 0);
		ht_cleanup(&d);
	}
}

static int suite_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	token_init();
	return 0;
}

static int suite_clean(void)
{
	curl_global_cleanup();
	return 0;
}

static CU_TestInfo metrics_cases[] = {
	{ "test_metrics__parser_is_strict", test_metrics__parser_is_strict },
	{ "test_metrics__counters_move", test_metrics__counters_move },
	{ "test_metrics__restricted", test_metrics__restricted },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("metrics", suite_init, suite_clean, metrics_cases);
	return 0;
}
