/* tests/http/httptest.c: start turnpostd on port 0 and talk to it with libcurl */
/* SPDX-License-Identifier: MIT */
#include "httptest.h"
#include "../testutil.h"

#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *builddir(void)
{
	const char *b = getenv("TOP_BUILDDIR");
	return b && *b ? b : ".";
}

static int launch(struct ht_daemon *d, const char *const *extra)
{
	char bin[512], portfile[160], maildir[160];
	const char *argv[32];
	int argc = 0;
	FILE *f;

	snprintf(bin, sizeof(bin), "%s/tests/turnpostd-test", builddir());
	snprintf(portfile, sizeof(portfile), "%s/port", d->dir);
	unlink(portfile);
	argv[argc++] = bin;
	argv[argc++] = "--db";
	argv[argc++] = d->db;
	argv[argc++] = "--listen";
	argv[argc++] = "127.0.0.1:0";
	argv[argc++] = "--port-file";
	argv[argc++] = portfile;
	if (d->db[0] != '/') {
		/* PostgreSQL: no database file to put the mail beside; where it would be */
		snprintf(maildir, sizeof(maildir), "%s/var/mail", d->dir);
		argv[argc++] = "--mail-dir";
		argv[argc++] = maildir;
	}
	for (int i = 0; extra && extra[i] && argc < 30; i++)
		argv[argc++] = extra[i];
	argv[argc] = NULL;
	d->pid = fork();
	if (d->pid < 0)
		return -1;
	if (d->pid == 0) {
		FILE *log = freopen(d->log, "a", stderr);
		(void)log;
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	/* wait for the port file: up to 20 s (sanitizer start-up can be slow) */
	for (int i = 0; i < 2000; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		int status;

		f = fopen(portfile, "r");
		if (f) {
			int ok = fscanf(f, "%d", &d->port) == 1;
			fclose(f);
			if (ok && d->port > 0)
				return 0;
		}
		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			d->pid = 0;
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	return -1;
}

int ht_pg_database(char *out, size_t size)
{
	static int made;
	const char *url = getenv("TURNPOST_TEST_PG");
	char name[64], cmd[256];
	const char *q;

	if (!url || !*url)
		return 1;
	/* a database of its own for every daemon, as a new file would be */
	snprintf(name, sizeof(name), "t%ld_%d", (long)getpid(), ++made);
	snprintf(cmd, sizeof(cmd), "psql -q -d postgres -c 'CREATE DATABASE %s' >/dev/null", name);
	if (system(cmd) != 0)
		return -1;
	/* the URL of run.sh with the new database's name in place of its own */
	q = strchr(url, '?');
	if (!q || strncmp(url, "postgresql://turnpost@/turnpost", (size_t)(q - url)) != 0)
		return -1;
	snprintf(out, size, "postgresql://turnpost@/%s%s", name, q);
	return 0;
}

int ht_start(struct ht_daemon *d, const char *const *extra_args)
{
	int pg;

	memset(d, 0, sizeof(*d));
	snprintf(d->dir, sizeof(d->dir), "/tmp/tp-http-XXXXXX");
	if (!mkdtemp(d->dir))
		return -1;
	if ((pg = ht_pg_database(d->db, sizeof(d->db))) < 0)
		return -1;
	if (pg)
		snprintf(d->db, sizeof(d->db), "%s/var/turnpost.db", d->dir);
	snprintf(d->log, sizeof(d->log), "%s/daemon.log", d->dir);
	d->extra = extra_args;
	return launch(d, extra_args);
}

int ht_start_db(struct ht_daemon *d, const char *db, const char *const *extra_args)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->dir, sizeof(d->dir), "/tmp/tp-http-XXXXXX");
	if (!mkdtemp(d->dir))
		return -1;
	snprintf(d->db, sizeof(d->db), "%s", db);
	snprintf(d->log, sizeof(d->log), "%s/daemon.log", d->dir);
	d->extra = extra_args;
	return launch(d, extra_args);
}

int ht_restart(struct ht_daemon *d)
{
	return launch(d, d->extra);
}

int ht_stop(struct ht_daemon *d, int sig)
{
	int status;

	if (d->pid <= 0)
		return -1;
	kill(d->pid, sig);
	if (waitpid(d->pid, &status, 0) != d->pid)
		return -1;
	d->pid = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int token_char(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/*
 * Whether a log line holds a credential: a token as util/token.c makes them ("tp_" and 43 characters),
 * which seat links, sign-in links, sessions, API, feed and unsubscribe tokens all are.
 */
static int line_has_token(const char *line)
{
	for (const char *p = strstr(line, "tp_"); p; p = strstr(p + 1, "tp_")) {
		size_t n = 0;

		if (p > line && token_char((unsigned char)p[-1]))
			continue;
		while (token_char((unsigned char)p[3 + n]))
			n++;
		if (n == 43)
			return 1;
	}
	return 0;
}

/* Every daemon of the suite: no line of its log holds a token. Each line that does counts as a failure. */
static void scan_log_for_secrets(const struct ht_daemon *d)
{
	char line[8192];
	FILE *f;

	if (!d->log[0] || !(f = fopen(d->log, "r")))
		return;
	while (fgets(line, sizeof(line), f))
		if (line_has_token(line)) {
			fprintf(stderr, "FAIL: a token in the daemon's log %s: %s", d->log, line);
			test_leaked_secrets++;
		}
	fclose(f);
}

void ht_cleanup(struct ht_daemon *d)
{
	char cmd[128];

	if (d->pid > 0)
		ht_stop(d, SIGKILL);
	scan_log_for_secrets(d);
	if (d->dir[0] && !getenv("KEEP_TEST_DIRS")) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", d->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", d->dir);
	}
}

static size_t on_body(char *data, size_t size, size_t n, void *ctx)
{
	buf_add(ctx, data, size * n);
	return size * n;
}

static void header_value(const char *line, size_t len, const char *name, char *out, size_t outsz)
{
	size_t nl = strlen(name);

	if (len <= nl + 1 || strncasecmp(line, name, nl) != 0 || line[nl] != ':')
		return;
	line += nl + 1;
	len -= nl + 1;
	while (len && (*line == ' '))
		line++, len--;
	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	snprintf(out, outsz, "%.*s", (int)len, line);
}

static size_t on_header(char *data, size_t size, size_t n, void *ctx)
{
	struct ht_resp *r = ctx;
	size_t len = size * n;

	header_value(data, len, "Content-Type", r->content_type, sizeof(r->content_type));
	header_value(data, len, "ETag", r->etag, sizeof(r->etag));
	header_value(data, len, "Location", r->location, sizeof(r->location));
	header_value(data, len, "Content-Security-Policy", r->csp, sizeof(r->csp));
	header_value(data, len, "X-Frame-Options", r->frame_options, sizeof(r->frame_options));
	header_value(data, len, "Preference-Applied", r->preference_applied, sizeof(r->preference_applied));
	header_value(data, len, "Retry-After", r->retry_after, sizeof(r->retry_after));
	header_value(data, len, "X-Request-Id", r->request_id, sizeof(r->request_id));
	{
		char cookie[400] = "";
		header_value(data, len, "Set-Cookie", cookie, sizeof(cookie));
		if (cookie[0]) {
			size_t used = strlen(r->set_cookie);
			cookie[strcspn(cookie, ";")] = '\0';
			snprintf(r->set_cookie + used, sizeof(r->set_cookie) - used, "%s%s", used ? "; " : "", cookie);
		}
	}
	return len;
}

int ht_request(const struct ht_daemon *d, const char *method, const char *path, const char *token,
	       const char *const *headers, const char *body, size_t body_len, struct ht_resp *out)
{
	CURL *curl = curl_easy_init();
	struct curl_slist *hl = NULL;
	char url[512], auth[128];
	CURLcode cc;

	memset(out, 0, sizeof(*out));
	buf_init(&out->body);
	if (!curl)
		return -1;
	snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", d->port, path);
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out->body);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(curl, CURLOPT_HEADERDATA, out);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	if (token) {
		snprintf(auth, sizeof(auth), "Authorization: Bearer %s", token);
		hl = curl_slist_append(hl, auth);
	}
	int typed = 0;

	for (int i = 0; headers && headers[i]; i++) {
		hl = curl_slist_append(hl, headers[i]);
		typed |= strncasecmp(headers[i], "Content-Type:", 13) == 0;
	}
	if (body) {
		/* a body is JSON unless the headers say otherwise (libcurl would call it a form) */
		if (!typed)
			hl = curl_slist_append(hl, "Content-Type: application/json");
		hl = curl_slist_append(hl, "Expect:");
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)body_len);
	}
	if (strcmp(method, "HEAD") == 0)
		curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hl);
	cc = curl_easy_perform(curl);
	if (cc == CURLE_OK)
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
	curl_slist_free_all(hl);
	curl_easy_cleanup(curl);
	if (cc != CURLE_OK) {
		fprintf(stderr, "request %s %s failed: %s\n", method, path, curl_easy_strerror(cc));
		return -1;
	}
	if (out->body.len)
		out->json = json_loadb(out->body.data, out->body.len, 0, NULL);
	return 0;
}

void ht_resp_release(struct ht_resp *r)
{
	buf_release(&r->body);
	json_decref(r->json);
	memset(r, 0, sizeof(*r));
}

int ht_cli(const struct ht_daemon *d, const char *args, struct buf *out)
{
	char cmd[1024], chunk[4096];
	FILE *p;
	size_t n;
	int status;

	snprintf(cmd, sizeof(cmd), "%s/tests/turnpost-test --db '%s' %s 2>&1", builddir(), d->db, args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		buf_add(out, chunk, n);
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void ht_last_line(const struct buf *b, char *out, size_t size)
{
	const char *end = b->data + b->len, *start;

	while (end > b->data && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	start = end;
	while (start > b->data && start[-1] != '\n')
		start--;
	snprintf(out, size, "%.*s", (int)(end - start), start);
}

int ht_api(const struct ht_daemon *d, const char *method, const char *path, const char *token, const char *body,
	   struct ht_resp *out)
{
	const char *h[] = { "Content-Type: application/json", NULL };

	return ht_request(d, method, path, token, body ? h : NULL, body, body ? strlen(body) : 0, out);
}

int ht_page(const struct ht_daemon *d, const char *method, const char *path, const char *cookie, const char *form,
	    struct ht_resp *out)
{
	char ch[512];
	const char *headers[3] = { NULL, NULL, NULL };
	int n = 0;

	if (cookie && *cookie) {
		snprintf(ch, sizeof(ch), "Cookie: %s", cookie);
		headers[n++] = ch;
	}
	if (form)
		headers[n++] = "Content-Type: application/x-www-form-urlencoded";
	return ht_request(d, method, path, NULL, headers, form, form ? strlen(form) : 0, out);
}

int ht_cookie(const struct ht_resp *r, const char *name, char *out, size_t size)
{
	size_t nl = strlen(name);
	const char *p = r->set_cookie;

	while (p && *p) {
		if (strncmp(p, name, nl) == 0 && p[nl] == '=') {
			size_t n = strcspn(p + nl + 1, ";");
			snprintf(out, size, "%.*s", (int)n, p + nl + 1);
			return 0;
		}
		p = strstr(p, "; ");
		if (p)
			p += 2;
	}
	return -1;
}

int ht_form_value(const struct ht_resp *r, const char *name, char *out, size_t size)
{
	char needle[96];
	const char *p, *end;

	snprintf(needle, sizeof(needle), "name=\"%s\" value=\"", name);
	p = r->body.data ? strstr(r->body.data, needle) : NULL;
	if (!p)
		return -1;
	p += strlen(needle);
	end = strchr(p, '"');
	if (!end)
		return -1;
	snprintf(out, size, "%.*s", (int)(end - p), p);
	return 0;
}

int ht_sign_in(const struct ht_daemon *d, const char *email, char *cookie, size_t size)
{
	struct buf out = BUF_INIT;
	struct ht_resp r;
	char args[300], link[300], path[128], csrf[64], jar[128], form[96], sess[96];
	const char *p;
	int rc = -1;

	cookie[0] = '\0';
	snprintf(args, sizeof(args), "user link %s", email);
	if (ht_cli(d, args, &out) != 0)
		goto done;
	ht_last_line(&out, link, sizeof(link));
	if (!(p = strstr(link, "/signin/")))
		goto done;
	snprintf(path, sizeof(path), "%s", p);
	if (ht_page(d, "GET", path, NULL, NULL, &r) < 0)
		goto done;
	rc = ht_cookie(&r, "tp_csrf", csrf, sizeof(csrf));
	ht_resp_release(&r);
	if (rc < 0)
		goto done;
	snprintf(jar, sizeof(jar), "tp_csrf=%s", csrf);
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	rc = -1;
	if (ht_page(d, "POST", path, jar, form, &r) < 0)
		goto done;
	if (r.status == 303 && ht_cookie(&r, "tp_session", sess, sizeof(sess)) == 0) {
		snprintf(cookie, size, "tp_session=%s", sess);
		rc = 0;
	}
	ht_resp_release(&r);
done:
	buf_release(&out);
	return rc;
}

int ht_two_players(const struct ht_daemon *d, char ann[64], char bob[64], int64_t *game)
{
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	struct buf out = BUF_INIT;
	struct ht_resp r;
	int rc;

	*game = 0;
	rc = ht_cli(d, "user add ann@example.org --name Ann", &out);
	ht_last_line(&out, ann, 64);
	buf_reset(&out);
	if (rc == 0)
		rc = ht_cli(d, "user add bob@example.org --name Bob", &out);
	ht_last_line(&out, bob, 64);
	buf_release(&out);
	if (rc != 0 || ht_api(d, "POST", "/api/v1/games", ann, body, &r) < 0)
		return -1;
	*game = r.status == 201 ? json_integer_value(json_object_get(r.json, "id")) : 0;
	ht_resp_release(&r);
	return *game > 0 ? 0 : -1;
}

int ht_read_file(const char *path, struct buf *out)
{
	char chunk[8192];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(out, chunk, n);
	fclose(f);
	return 0;
}

int ht_log_text(const struct ht_daemon *d, struct buf *out)
{
	return ht_read_file(d->log, out);
}

/* Undo quoted-printable soft breaks and =XX escapes (the bodies the file transport writes). */
static void unqp(struct buf *b)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (size_t i = 0; i < b->len; i++) {
		const char *h1, *h2;
		if (b->data[i] == '=' && i + 2 < b->len && b->data[i + 1] == '\r' && b->data[i + 2] == '\n') {
			i += 2;
			continue;
		}
		if (b->data[i] == '=' && i + 2 < b->len && b->data[i + 1] && b->data[i + 2] &&
		    (h1 = strchr(hex, b->data[i + 1])) && (h2 = strchr(hex, b->data[i + 2]))) {
			b->data[o++] = (char)((h1 - hex) * 16 + (h2 - hex));
			i += 2;
			continue;
		}
		b->data[o++] = b->data[i];
	}
	buf_setlen(b, o);
}

int ht_mails(const struct ht_daemon *d, const char *to, const char *event, const char *needle, int decode,
	     struct buf *out)
{
	char dir[256], path[512], want_to[300], want_event[100];
	struct dirent *de;
	DIR *dh;
	int count = 0;

	snprintf(dir, sizeof(dir), "%s/var/mail", d->dir);
	snprintf(want_to, sizeof(want_to), "<%s>\r\n", to);
	snprintf(want_event, sizeof(want_event), "X-Turnpost-Event: %s\r\n", event);
	if (!(dh = opendir(dir)))
		return 0;
	while ((de = readdir(dh))) {
		struct buf b = BUF_INIT;
		const char *to_line;
		size_t n = strlen(de->d_name);

		if (n < 5 || strcmp(de->d_name + n - 4, ".eml") != 0 || de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (ht_read_file(path, &b) == 0 && (!decode || (unqp(&b), 1)) &&
		    (to_line = strstr(b.data, "\r\nTo: ")) && strstr(to_line, want_to) == strchr(to_line + 2, '<') &&
		    strstr(b.data, want_event) && (!needle || strstr(b.data, needle))) {
			count++;
			if (out) {
				buf_reset(out);
				buf_add(out, b.data, b.len);
			}
		}
		buf_release(&b);
	}
	closedir(dh);
	return count;
}

int ht_wait_mails(const struct ht_daemon *d, const char *to, const char *event, const char *needle, int decode,
		  int want, struct buf *out)
{
	int n = 0;

	for (int i = 0; i < 600; i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		if ((n = ht_mails(d, to, event, needle, decode, out)) >= want)
			break;
		nanosleep(&ts, NULL);
	}
	return n;
}

long ht_metric(const struct ht_daemon *dm, const char *series)
{
	struct ht_resp r;
	const char *p;
	size_t n = strlen(series);
	long v = -1;

	if (ht_request(dm, "GET", "/metrics", NULL, NULL, NULL, 0, &r) == 0 && r.body.data) {
		for (p = r.body.data; (p = strstr(p, series)); p += n) {
			if ((p == r.body.data || p[-1] == '\n') && p[n] == ' ') {
				v = strtol(p + n + 1, NULL, 10);
				break;
			}
		}
	}
	ht_resp_release(&r);
	return v;
}
