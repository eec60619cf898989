/* tests/http/test_hosting.c: hosting a daemon for years: a base URL with a path behind a proxy, retention */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "httptest.h"
#include "store/store.h"
#include "testutil.h"
#include "util/token.h"

#define DAY_MS (86400LL * 1000)

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* An admin (token into admin) and a counting-race game for Ann and Bob; the game id, Ann's and Bob's seat tokens. */
static int64_t game_for_two(const struct ht_daemon *d, char admin[64], char ann[64], char bob[64])
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
		const json_t *seats = json_object_get(r.json, "seats");
		id = json_integer_value(json_object_get(r.json, "id"));
		snprintf(ann, 64, "%s", json_string_value(json_object_get(json_array_get(seats, 0), "token")));
		snprintf(bob, 64, "%s", json_string_value(json_object_get(json_array_get(seats, 1), "token")));
	}
	ht_resp_release(&r);
	return id;
}

/* POST steps for a seat with an Idempotency-Key (NULL: none); the HTTP status. */
static long post_steps(const struct ht_daemon *d, int64_t id, const char *seat_token, const char *key,
		       const char *body)
{
	char path[96], hdr[200];
	const char *headers[] = { "Content-Type: application/json", hdr, NULL };
	struct ht_resp r;
	long status;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	snprintf(hdr, sizeof(hdr), "Idempotency-Key: %s", key ? key : "");
	if (!key)
		headers[1] = NULL;
	if (ht_request(d, "POST", path, seat_token, headers, body, strlen(body), &r) < 0)
		return -1;
	status = r.status;
	ht_resp_release(&r);
	return status;
}

/* How many .eml files the daemon's mail directory holds. */
static int mail_files(const struct ht_daemon *d)
{
	char dir[128];
	DIR *dp;
	struct dirent *de;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/var/mail", d->dir);
	if (!(dp = opendir(dir)))
		return 0;
	while ((de = readdir(dp)))
		n += strstr(de->d_name, ".eml") != NULL;
	closedir(dp);
	return n;
}

/* Whether the daemon's log holds needle, waiting up to ms for it. */
static int log_has(const struct ht_daemon *d, const char *needle, long ms)
{
	for (long waited = 0; waited <= ms; waited += 100) {
		FILE *f = fopen(d->log, "r");
		char line[1024];
		int found = 0;

		while (f && !found && fgets(line, sizeof(line), f))
			found = strstr(line, needle) != NULL;
		if (f)
			fclose(f);
		if (found)
			return 1;
		sleep_ms(100);
	}
	return 0;
}

/* The game's notifications by state: how many are in state. */
static int outbox_in(const struct ht_daemon *d, int64_t id, const char *state)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct store_outbox_row *rows = NULL;
	struct err e = {0};
	int n = 0, count = 0;

	if (store_open(d->db, NULL, &s, &e) < 0)
		return -1;
	if (store_read_acquire(s, &c, &e) == 0) {
		if (store_outbox_list_game(c, id, &rows, &n, &e) == 0)
			for (int i = 0; i < n; i++)
				count += strcmp(rows[i].state, state) == 0;
		store_read_release(c);
	}
	store_outbox_rows_free(rows, n);
	store_close(s);
	return count;
}

/* Whether an inbound mail's Message-ID is still recorded. */
static int inbound_kept(const struct ht_daemon *d, const char *message_id)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct err e = {0};
	char *status = NULL, *outcome = NULL;
	int kept = -1;

	if (store_open(d->db, NULL, &s, &e) < 0)
		return -1;
	if (store_read_acquire(s, &c, &e) == 0) {
		kept = store_inbound_mail_get(c, message_id, &status, &outcome, &e) == 0;
		store_read_release(c);
	}
	free(status);
	free(outcome);
	store_close(s);
	return kept;
}

/* Rows the daemon never delivers or handles itself: an inbound mail, a pending and a dead notification, at `at`. */
static int plant(const struct ht_daemon *d, int64_t game_id, int64_t at)
{
	struct store *s = NULL;
	struct store_conn *c;
	struct err e = {0};
	int64_t pending = 0, dead = 0;
	int rc;

	if (store_open(d->db, NULL, &s, &e) < 0)
		return -1;
	if ((rc = store_write_begin(s, &c, &e)) == 0) {
		rc = store_inbound_mail_put(c, "<old-reply@example.org>", 0, game_id, 0, "ann@example.org", "played", "{}",
					    at, &e);
		/* no recipient: would be skipped at once if due, so due far in the future */
		if (rc == 0)
			rc = store_outbox_add(c, "your_turn", game_id, 0, 0, NULL, at + 3650 * DAY_MS, &pending, &e);
		if (rc == 0)
			rc = store_outbox_add(c, "your_turn", game_id, 1, 0, NULL, at, &dead, &e);
		if (rc == 0)
			rc = store_outbox_finish(c, dead, STORE_OUTBOX_DEAD, at, "550 gone", &e);
		if (rc == 0)
			rc = store_write_commit(c, &e);
		else
			store_write_rollback(c);
	}
	store_close(s);
	return rc;
}

/* Restart the daemon with its clock `days` ahead; it prunes in its first round, two seconds after the start. */
static int restart_ahead(struct ht_daemon *d, int64_t base, int days)
{
	char fake[32];
	int rc;

	snprintf(fake, sizeof(fake), "%lld", (long long)(base + days * DAY_MS));
	if (ht_stop(d, SIGTERM) != 0)
		return -1;
	setenv("TURNPOST_FAKE_NOW_MS", fake, 1);
	rc = ht_restart(d);
	unsetenv("TURNPOST_FAKE_NOW_MS");
	return rc;
}

/*
 * Idempotency answers (7 days), delivered notifications, inbound mails and
 * mail files (30 days) go when they are older than their retention, each by
 * its own age; pending and dead notifications, the game and its log stay,
 * and verify passes after the prune.
 */
static void test_hosting__retention_prunes_what_grows(void)
{
	struct ht_daemon d = {0};
	char admin[64], ann[64], bob[64], path[96];
	struct buf out = BUF_INIT;
	struct ht_resp r;
	int64_t id, base = now_ms();
	int sent, files;

	CU_ASSERT_FATAL(ht_start(&d, NULL) == 0);
	id = game_for_two(&d, admin, ann, bob);
	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(post_steps(&d, id, ann, "ann-turn-1", "{\"moves\":[\"add 2\",\"end\"]}"), 200);
	CU_ASSERT_EQUAL(post_steps(&d, id, bob, "bob-turn-1", "{\"moves\":[\"add 1\",\"end\"]}"), 200);
	/* Bob's key again, on Ann's turn: the stored answer, no step */
	CU_ASSERT_EQUAL(post_steps(&d, id, bob, "bob-turn-1", "{\"moves\":[\"add 1\",\"end\"]}"), 200);
	CU_ASSERT_EQUAL(plant(&d, id, base), 0);
	/* the invitations and "your turn"s delivered into files */
	for (int i = 0; i < 100 && (outbox_in(&d, id, "pending") > 1 || mail_files(&d) < 2); i++)
		sleep_ms(100);
	sent = outbox_in(&d, id, "sent");
	files = mail_files(&d);
	/* two invitations at least (a "your turn" overtaken by the next turn is skipped, not sent) */
	CU_ASSERT(sent >= 2);
	CU_ASSERT(files >= 2);

	/* ten days on: only the idempotency answers are past their time */
	CU_ASSERT_FATAL(restart_ahead(&d, base, 10) == 0);
	CU_ASSERT(log_has(&d, "retention: pruned 2 idempotency answers, 0 delivered notifications, 0 inbound mails, "
			  "0 mail files", 10000));
	CU_ASSERT_EQUAL(outbox_in(&d, id, "sent"), sent);
	CU_ASSERT_EQUAL(mail_files(&d), files);
	CU_ASSERT_EQUAL(inbound_kept(&d, "<old-reply@example.org>"), 1);
	/* the key is forgotten: the same request is a new one now, and it is not Bob's turn */
	CU_ASSERT_NOT_EQUAL(post_steps(&d, id, bob, "bob-turn-1", "{\"moves\":[\"add 1\",\"end\"]}"), 200);

	/* sixty days on: the delivered notifications, the inbound mail and the mail files go too */
	CU_ASSERT_FATAL(restart_ahead(&d, base, 60) == 0);
	CU_ASSERT(log_has(&d, "delivered notifications, 1 inbound mails, ", 10000));
	CU_ASSERT_EQUAL(outbox_in(&d, id, "sent"), 0);
	CU_ASSERT_EQUAL(outbox_in(&d, id, "skipped"), 0);
	CU_ASSERT_EQUAL(outbox_in(&d, id, "dead"), 1);
	CU_ASSERT_EQUAL(outbox_in(&d, id, "pending"), 1);
	CU_ASSERT_EQUAL(inbound_kept(&d, "<old-reply@example.org>"), 0);
	CU_ASSERT_EQUAL(mail_files(&d), 0);
	/* what verify and replay need is all there */
	CU_ASSERT_EQUAL(ht_cli(&d, "verify", &out), 0);
	CU_ASSERT(strstr(out.data, "0 failed") != NULL);
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, ann, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r.json, "move_count")), 4);
	ht_resp_release(&r);
	buf_release(&out);
	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
	ht_cleanup(&d);
}

/* Retention 0 keeps a kind for ever. */
static void test_hosting__retention_zero_keeps(void)
{
	static const char *const keep[] = { "--retain-idempotency-days", "0", "--retain-outbox-days", "0",
					    "--retain-inbound-days", "0", "--retain-mail-files-days", "0", NULL };
	struct ht_daemon d = {0};
	char admin[64], ann[64], bob[64];
	int64_t id, base = now_ms();
	int sent, files;

	CU_ASSERT_FATAL(ht_start(&d, keep) == 0);
	id = game_for_two(&d, admin, ann, bob);
	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(post_steps(&d, id, ann, "k1", "{\"moves\":[\"add 2\",\"end\"]}"), 200);
	CU_ASSERT_EQUAL(plant(&d, id, base), 0);
	for (int i = 0; i < 100 && (outbox_in(&d, id, "pending") > 1 || mail_files(&d) < 2); i++)
		sleep_ms(100);
	sent = outbox_in(&d, id, "sent");
	files = mail_files(&d);
	CU_ASSERT(sent >= 2);
	CU_ASSERT(files >= 2);
	CU_ASSERT_FATAL(restart_ahead(&d, base, 400) == 0);
	sleep_ms(3000);
	CU_ASSERT_FALSE(log_has(&d, "retention: pruned", 0));
	CU_ASSERT_EQUAL(outbox_in(&d, id, "sent"), sent);
	CU_ASSERT_EQUAL(mail_files(&d), files);
	CU_ASSERT_EQUAL(inbound_kept(&d, "<old-reply@example.org>"), 1);
	CU_ASSERT_EQUAL(post_steps(&d, id, ann, "k1", "{\"moves\":[\"add 2\",\"end\"]}"), 200);
	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
	ht_cleanup(&d);
}

/* ---- a base URL with a path ---- */

#define PUBLIC "https://games.example.org/turnpost"

struct raw {
	long status;
	struct buf headers, body;
};

static size_t raw_add(char *p, size_t size, size_t n, void *b)
{
	buf_add(b, p, size * n);
	return size * n;
}

/* A request with its headers kept whole (Set-Cookie with its Path, Location); 0 or -1. */
static int raw_request(const struct ht_daemon *d, const char *method, const char *path, const char *cookie,
		       const char *form, struct raw *out)
{
	CURL *h = curl_easy_init();
	struct curl_slist *hl = NULL;
	char url[512], ck[512];
	int rc;

	out->status = 0;
	buf_init(&out->headers);
	buf_init(&out->body);
	if (!h)
		return -1;
	snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", d->port, path);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, raw_add);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, &out->headers);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, raw_add);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &out->body);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, 30L);
	if (cookie && *cookie) {
		snprintf(ck, sizeof(ck), "Cookie: %s", cookie);
		hl = curl_slist_append(hl, ck);
	}
	if (form) {
		hl = curl_slist_append(hl, "Content-Type: application/x-www-form-urlencoded");
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, form);
	}
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
	rc = curl_easy_perform(h) == CURLE_OK ? 0 : -1;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out->status);
	curl_slist_free_all(hl);
	curl_easy_cleanup(h);
	return rc;
}

static void raw_release(struct raw *r)
{
	buf_release(&r->headers);
	buf_release(&r->body);
}

/* The value of header name (first one, case ignored) into out; 0 or -1. */
static int raw_header(const struct raw *r, const char *name, char *out, size_t size)
{
	size_t n = strlen(name);

	for (const char *p = r->headers.data; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
			const char *v = p + n + 1, *end = strpbrk(v, "\r\n");
			while (*v == ' ')
				v++;
			snprintf(out, size, "%.*s", (int)(end ? end - v : (long)strlen(v)), v);
			return 0;
		}
	}
	return -1;
}

/* The name=value of a Set-Cookie named name, and whether its Path is the prefix's. */
static int cookie_under_prefix(const struct raw *r, const char *name, char *pair, size_t size)
{
	size_t n = strlen(name);
	int ok = 0;

	pair[0] = '\0';
	for (const char *p = r->headers.data; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *v, *end;
		if (strncasecmp(p, "Set-Cookie:", 11) != 0)
			continue;
		for (v = p + 11; *v == ' '; v++)
			;
		if (strncmp(v, name, n) != 0 || v[n] != '=')
			continue;
		end = strpbrk(v, "\r\n");
		snprintf(pair, size, "%.*s", (int)(strchr(v, ';') - v), v);
		ok = strstr(v, "; Path=/turnpost;") != NULL && strstr(v, "; Path=/turnpost;") < end;
	}
	return ok;
}

/*
 * Every link of an HTML page (href, src, action, formaction): *bad counts
 * those outside the prefix (a path not under /turnpost/, or a URL of this
 * site not under PUBLIC); the paths to GET (href and src) are appended to
 * follow, one per line.
 */
static void page_links(const char *html, int *bad, struct buf *follow)
{
	static const char *const attrs[] = { " href=\"", " src=\"", " action=\"", " formaction=\"" };

	for (size_t a = 0; a < sizeof(attrs) / sizeof(attrs[0]); a++) {
		for (const char *p = strstr(html, attrs[a]); p; p = strstr(p + 1, attrs[a])) {
			const char *v = p + strlen(attrs[a]), *end = strchr(v, '"');
			int len = end ? (int)(end - v) : 0;
			if (!end || v[0] == '#' || strncmp(v, "mailto:", 7) == 0 || strncmp(v, "data:", 5) == 0)
				continue;
			if (v[0] == '/' ? strncmp(v, "/turnpost/", 10) != 0 && !(len == 9 && strncmp(v, "/turnpost", 9) == 0)
					: strncmp(v, "https://games.example.org", 25) == 0 && strncmp(v, PUBLIC "/", 35) != 0) {
				fprintf(stderr, "link outside the prefix: %.*s\n", len, v);
				(*bad)++;
			}
			if (a < 2 && v[0] == '/')
				buf_addf(follow, "%.*s\n", len, v);
		}
	}
}

/* Every URL in a mail (http:// or https://): *bad counts those not under PUBLIC; returns how many. */
static int mail_links(const char *raw, int *bad)
{
	struct buf b = BUF_INIT;
	const char *text;
	int n = 0;

	/* undo quoted-printable's soft line breaks and =3D, which would cut and hide links */
	for (const char *p = raw; *p; p++) {
		if (p[0] == '=' && p[1] == '\r' && p[2] == '\n')
			p += 2;
		else if (p[0] == '=' && p[1] == '\n')
			p += 1;
		else if (strncmp(p, "=3D", 3) == 0)
			buf_addc(&b, '='), p += 2;
		else
			buf_addc(&b, *p);
	}
	text = b.data;

	for (const char *p = strstr(text, "http"); p; p = strstr(p + 1, "http")) {
		if (strncmp(p, "http://", 7) != 0 && strncmp(p, "https://", 8) != 0)
			continue;
		n++;
		if (strncmp(p, PUBLIC "/", 35) != 0 && strncmp(p, "http://www.w3.org/", 18) != 0) {
			fprintf(stderr, "mail link outside the prefix: %.60s\n", p);
			(*bad)++;
		}
	}
	buf_release(&b);
	return n;
}

/* The text of the newest-named .eml whose To: holds address, into b; 0 or -1. */
static int read_mail(const struct ht_daemon *d, const char *address, struct buf *b)
{
	char dir[128], path[512];
	struct dirent *de;
	DIR *dh;
	int found = -1;

	snprintf(dir, sizeof(dir), "%s/var/mail", d->dir);
	if (!(dh = opendir(dir)))
		return -1;
	while (found < 0 && (de = readdir(dh))) {
		char chunk[4096];
		size_t n;
		FILE *f;
		if (!strstr(de->d_name, ".eml"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!(f = fopen(path, "rb")))
			continue;
		buf_reset(b);
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(b, chunk, n);
		fclose(f);
		if (strstr(b->data, address))
			found = 0;
	}
	closedir(dh);
	return found;
}

/* Sign a browser in through the links and paths a proxy keeping the prefix passes on; the session pair. */
static int sign_in_under_prefix(const struct ht_daemon *d, const char *email, char *session, size_t size)
{
	struct buf out = BUF_INIT;
	struct raw r;
	char args[200], link[400], csrf_pair[128], form[128], loc[256];
	const char *path;
	int rc = -1;

	setenv("TURNPOST_BASE_URL", PUBLIC, 1);
	snprintf(args, sizeof(args), "user link %s", email);
	rc = ht_cli(d, args, &out);
	unsetenv("TURNPOST_BASE_URL");
	ht_last_line(&out, link, sizeof(link));
	buf_release(&out);
	/* the CLI prints the link under the public URL */
	CU_ASSERT_EQUAL(strncmp(link, PUBLIC "/signin/", strlen(PUBLIC "/signin/")), 0);
	if (rc != 0 || strncmp(link, PUBLIC "/signin/", strlen(PUBLIC "/signin/")) != 0)
		return -1;
	path = link + strlen("https://games.example.org");
	if (raw_request(d, "GET", path, NULL, NULL, &r) < 0)
		return -1;
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(cookie_under_prefix(&r, "tp_csrf", csrf_pair, sizeof(csrf_pair)));
	raw_release(&r);
	snprintf(form, sizeof(form), "csrf=%s", strchr(csrf_pair, '=') + 1);
	if (raw_request(d, "POST", path, csrf_pair, form, &r) < 0)
		return -1;
	CU_ASSERT_EQUAL(r.status, 303);
	CU_ASSERT(raw_header(&r, "Location", loc, sizeof(loc)) == 0 && strncmp(loc, "/turnpost/", 10) == 0);
	rc = cookie_under_prefix(&r, "tp_session", session, size) ? 0 : -1;
	raw_release(&r);
	return rc;
}

/* GET every path in follow (one per line) with cookie: none may be missing; how many were followed. */
static int follow_all(const struct ht_daemon *d, const struct buf *follow, const char *cookie)
{
	int n = 0;

	for (const char *p = follow->data; p && *p;) {
		const char *end = strchr(p, '\n');
		char path[512];
		struct raw r;
		snprintf(path, sizeof(path), "%.*s", (int)(end - p), p);
		p = end + 1;
		/* sign-in and seat links spend a token: not followed from a crawl */
		if (strstr(path, "/signin/") || strstr(path, "/s/"))
			continue;
		if (raw_request(d, "GET", path, cookie, NULL, &r) == 0) {
			if (r.status == 404 || r.status >= 500)
				fprintf(stderr, "%s: %ld\n", path, r.status);
			CU_ASSERT(r.status != 404 && r.status < 500);
			n++;
		}
		raw_release(&r);
	}
	return n;
}

/*
 * --base-url https://games.example.org/turnpost behind a proxy that keeps
 * the path or strips it: the pages, their forms and redirects, cookies,
 * emails and the CLI's links all carry /turnpost, and every link followed
 * works.
 */
static void test_hosting__base_url_with_a_path(void)
{
	static const char *const args[] = { "--base-url", PUBLIC "/", NULL };
	struct ht_daemon d = {0};
	char admin[64], ann[64], bob[64], ann_cookie[160], admin_cookie[160], path[128], loc[256], csrf[64];
	char form[160];
	struct buf follow = BUF_INIT, mail = BUF_INIT;
	struct ht_resp hr;
	struct raw r;
	int64_t id;
	int bad = 0;

	CU_ASSERT_FATAL(ht_start(&d, args) == 0);
	id = game_for_two(&d, admin, ann, bob);
	CU_ASSERT_FATAL(id > 0);
	/* the API's Location carries the path too */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/turnpost/api/v1/games", admin,
				     "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Cy\"},{\"name\":\"Di\"}]}", &hr), 0);
	CU_ASSERT_EQUAL(hr.status, 201);
	CU_ASSERT_EQUAL(strncmp(hr.location, "/turnpost/api/v1/games/", 23), 0);
	ht_resp_release(&hr);

	CU_ASSERT_FATAL(sign_in_under_prefix(&d, "ann@example.org", ann_cookie, sizeof(ann_cookie)) == 0);
	CU_ASSERT_FATAL(sign_in_under_prefix(&d, "admin@example.org", admin_cookie, sizeof(admin_cookie)) == 0);

	/* a proxy that keeps the path: the pages under /turnpost */
	{
		const char *pages[] = { "/turnpost/", "/turnpost", "/turnpost/account", "/turnpost/games/new", NULL, NULL };
		snprintf(path, sizeof(path), "/turnpost/games/%lld", (long long)id);
		pages[4] = path;
		for (int i = 0; pages[i]; i++) {
			CU_ASSERT_EQUAL_FATAL(raw_request(&d, "GET", pages[i], ann_cookie, NULL, &r), 0);
			CU_ASSERT_EQUAL(r.status, 200);
			page_links(r.body.data, &bad, &follow);
			raw_release(&r);
		}
	}
	snprintf(path, sizeof(path), "/turnpost/admin/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(raw_request(&d, "GET", path, admin_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	page_links(r.body.data, &bad, &follow);
	raw_release(&r);
	CU_ASSERT_EQUAL_FATAL(raw_request(&d, "GET", "/turnpost/admin", admin_cookie, NULL, &r), 0);
	page_links(r.body.data, &bad, &follow);
	raw_release(&r);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(strstr(follow.data, "/turnpost/static/") != NULL);
	CU_ASSERT(follow_all(&d, &follow, ann_cookie) >= 10);

	/* a form posted under the path comes back under it */
	snprintf(path, sizeof(path), "/turnpost/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(raw_request(&d, "GET", path, ann_cookie, NULL, &r), 0);
	{
		const char *c = strstr(r.body.data, "name=\"csrf\" value=\"");
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		snprintf(csrf, sizeof(csrf), "%.*s", (int)strcspn(c + 19, "\""), c + 19);
	}
	raw_release(&r);
	snprintf(form, sizeof(form), "csrf=%s&text=hello", csrf);
	snprintf(path, sizeof(path), "/turnpost/games/%lld/chat", (long long)id);
	CU_ASSERT_EQUAL_FATAL(raw_request(&d, "POST", path, ann_cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	CU_ASSERT(raw_header(&r, "Location", loc, sizeof(loc)) == 0);
	snprintf(path, sizeof(path), "/turnpost/games/%lld", (long long)id);
	CU_ASSERT_EQUAL(strncmp(loc, path, strlen(path)), 0);
	raw_release(&r);

	/* a proxy that strips the path: the same pages, the same links */
	buf_reset(&follow);
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(raw_request(&d, "GET", path, ann_cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT(strstr(r.body.data, "hello") != NULL);
	page_links(r.body.data, &bad, &follow);
	raw_release(&r);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(follow_all(&d, &follow, ann_cookie) >= 3);

	/* the invitation mail: every link under the public URL */
	for (int i = 0; i < 100 && read_mail(&d, "<ann@example.org>", &mail) < 0; i++)
		sleep_ms(100);
	CU_ASSERT_FATAL(mail.len > 0);
	CU_ASSERT(mail_links(mail.data, &bad) >= 2);
	CU_ASSERT(strstr(mail.data, "href=\"/") == NULL);
	CU_ASSERT_EQUAL(bad, 0);

	buf_release(&mail);
	buf_release(&follow);
	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
	ht_cleanup(&d);
}

/* A path that would shadow turnpost's own pages, or that is not a plain path, stops the start. */
static void test_hosting__base_url_path_refused(void)
{
	static const char *const shadow[] = { "--base-url", "https://games.example.org/games", NULL };
	static const char *const query[] = { "--base-url", "https://games.example.org/tp?x=1", NULL };
	struct ht_daemon d = {0};
	FILE *f;
	char line[512];
	int said = 0;

	CU_ASSERT_EQUAL(ht_start(&d, shadow), -1);
	f = fopen(d.log, "r");
	while (f && fgets(line, sizeof(line), f))
		said |= strstr(line, "may not begin with /games") != NULL;
	if (f)
		fclose(f);
	CU_ASSERT(said);
	ht_cleanup(&d);
	memset(&d, 0, sizeof(d));
	CU_ASSERT_EQUAL(ht_start(&d, query), -1);
	ht_cleanup(&d);
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

static CU_TestInfo hosting_cases[] = {
	{ "test_hosting__retention_prunes_what_grows", test_hosting__retention_prunes_what_grows },
	{ "test_hosting__retention_zero_keeps", test_hosting__retention_zero_keeps },
	{ "test_hosting__base_url_with_a_path", test_hosting__base_url_with_a_path },
	{ "test_hosting__base_url_path_refused", test_hosting__base_url_path_refused },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("hosting", suite_init, suite_clean, hosting_cases);
	return 0;
}
