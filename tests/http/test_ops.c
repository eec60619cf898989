/* tests/http/test_ops.c: operating a daemon: behind a proxy, on IPv6 and on a unix socket */
/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "httptest.h"
#include "testutil.h"
#include "util/token.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static const char *builddir(void)
{
	const char *b = getenv("TOP_BUILDDIR");
	return b && *b ? b : ".";
}

/* An admin and a counting-race game for Ann and Bob; the game id (0 on failure), Ann's seat token. */
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

/* Post "add 1" as Ann with an X-Forwarded-For header (NULL: none); the HTTP status. */
static long add_one(const struct ht_daemon *d, int64_t id, const char *ann, const char *forwarded)
{
	char path[96], hdr[256];
	const char *headers[] = { hdr, "Content-Type: application/json", NULL };
	const char *body = "{\"moves\":[\"add 1\"]}";
	struct ht_resp r;
	long status;

	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	snprintf(hdr, sizeof(hdr), "X-Forwarded-For: %s", forwarded ? forwarded : "");
	if (ht_request(d, "POST", path, ann, forwarded ? headers : headers + 1, body, strlen(body), &r) < 0)
		return -1;
	status = r.status;
	ht_resp_release(&r);
	return status;
}

/* The client address the admin timeline records for step n (1-based), into out. */
static void step_client(const struct ht_daemon *d, int64_t id, const char *admin, int n, char *out, size_t size)
{
	char path[96];
	struct ht_resp r;

	snprintf(out, size, "?");
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/timeline", (long long)id);
	if (ht_api(d, "GET", path, admin, NULL, &r) < 0)
		return;
	for (size_t i = 0; i < json_array_size(json_object_get(r.json, "steps")); i++) {
		json_t *s = json_array_get(json_object_get(r.json, "steps"), i);
		if (json_integer_value(json_object_get(s, "n")) == n)
			snprintf(out, size, "%s", json_string_value(json_object_get(s, "client")));
	}
	ht_resp_release(&r);
}

/* X-Forwarded-For names the client only when the peer is a trusted proxy, read from the right. */
static void test_ops__trusted_proxy(void)
{
	const char *trusting[] = { "--trusted-proxy", "10.0.0.0/8, 127.0.0.1", NULL };
	const char *other[] = { "--trusted-proxy", "10.0.0.0/8,192.0.2.1", NULL };
	const char *bad[] = { "--trusted-proxy", "127.0.0.1,nonsense", NULL };
	struct ht_daemon d;
	struct buf log = BUF_INIT;
	char admin[64], ann[64], client[64];
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, trusting), 0);
	id = game_for_two(&d, admin, ann);
	CU_ASSERT_FATAL(id > 0);
	/* the right-most address that is not a proxy; the left part is whatever the client claimed */
	CU_ASSERT_EQUAL(add_one(&d, id, ann, "198.51.100.9, 203.0.113.7"), 200);
	CU_ASSERT_EQUAL(add_one(&d, id, ann, "203.0.113.8, 10.1.2.3"), 200);
	CU_ASSERT_EQUAL(add_one(&d, id, ann, "::ffff:203.0.113.9"), 200);
	CU_ASSERT_EQUAL(add_one(&d, id, ann, "2001:db8::7"), 200);
	CU_ASSERT_EQUAL(add_one(&d, id, ann, "not-an-address"), 200);
	CU_ASSERT_EQUAL(add_one(&d, id, ann, NULL), 200);
	step_client(&d, id, admin, 1, client, sizeof(client));
	ASSERT_STR_EQ(client, "203.0.113.7");
	step_client(&d, id, admin, 2, client, sizeof(client));
	ASSERT_STR_EQ(client, "203.0.113.8");
	step_client(&d, id, admin, 3, client, sizeof(client));
	ASSERT_STR_EQ(client, "203.0.113.9");
	step_client(&d, id, admin, 4, client, sizeof(client));
	ASSERT_STR_EQ(client, "2001:db8::7");
	step_client(&d, id, admin, 5, client, sizeof(client));
	ASSERT_STR_EQ(client, "127.0.0.1");
	step_client(&d, id, admin, 6, client, sizeof(client));
	ASSERT_STR_EQ(client, "127.0.0.1");
	ht_cleanup(&d);

	/* a peer that is not a listed proxy cannot claim another address */
	CU_ASSERT_EQUAL_FATAL(ht_start(&d, other), 0);
	id = game_for_two(&d, admin, ann);
	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(add_one(&d, id, ann, "203.0.113.7"), 200);
	step_client(&d, id, admin, 1, client, sizeof(client));
	ASSERT_STR_EQ(client, "127.0.0.1");
	ht_cleanup(&d);

	/* a list that does not parse stops the start with the item named */
	CU_ASSERT_NOT_EQUAL(ht_start(&d, bad), 0);
	{
		FILE *f = fopen(d.log, "rb");
		char chunk[4096];
		size_t n;
		while (f && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(&log, chunk, n);
		if (f)
			fclose(f);
	}
	buf_addc(&log, '\0');
	CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "trusted-proxy"));
	CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "nonsense"));
	ht_cleanup(&d);
	buf_release(&log);
}

static size_t sink_body(char *data, size_t size, size_t n, void *ctx)
{
	buf_add(ctx, data, size * n);
	return size * n;
}

/* GET url (through the unix socket at sock when not NULL); the status, the body into out. */
static long get(const char *url, const char *sock, const char *header, struct buf *out)
{
	CURL *c = curl_easy_init();
	struct curl_slist *h = header ? curl_slist_append(NULL, header) : NULL;
	long status = -1;

	buf_reset(out);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, out);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 20L);
	if (sock)
		curl_easy_setopt(c, CURLOPT_UNIX_SOCKET_PATH, sock);
	if (h)
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	if (curl_easy_perform(c) == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(h);
	curl_easy_cleanup(c);
	buf_addc(out, '\0');
	out->len--;
	return status;
}

/* Start turnpostd on dir/turnpost.db listening on listen; its pid (log in dir/daemon.log). */
static pid_t start_raw(const char *dir, const char *listen, const char *portfile)
{
	char bin[512], db[256], log[256];
	pid_t pid;

	snprintf(bin, sizeof(bin), "%s/tests/turnpostd-test", builddir());
	snprintf(db, sizeof(db), "%s/turnpost.db", dir);
	snprintf(log, sizeof(log), "%s/daemon.log", dir);
	pid = fork();
	if (pid == 0) {
		FILE *f = freopen(log, "a", stderr);
		(void)f;
		execl(bin, bin, "--db", db, "--listen", listen, "--port-file", portfile, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* The number in file, waiting up to 20 s for it; -1 when it never came. */
static int wait_number(const char *file)
{
	for (int i = 0; i < 2000; i++) {
		FILE *f = fopen(file, "r");
		int n = -1;
		if (f) {
			if (fscanf(f, "%d", &n) != 1)
				n = -1;
			fclose(f);
			if (n >= 0)
				return n;
		}
		sleep_ms(10);
	}
	return -1;
}

/* --listen [::1]:0 serves on IPv6 loopback; unix:/PATH on a socket a local proxy reaches, removed at stop. */
static void test_ops__ipv6_and_unix_socket(void)
{
	char dir[64] = "/tmp/tp-ops-XXXXXX", listen[160], portfile[128], url[128], sock[128], cmd[96];
	struct buf body = BUF_INIT;
	struct stat st;
	pid_t pid;
	int port, status;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(portfile, sizeof(portfile), "%s/port", dir);

	pid = start_raw(dir, "[::1]:0", portfile);
	port = wait_number(portfile);
	CU_ASSERT(port > 0);
	snprintf(url, sizeof(url), "http://[::1]:%d/healthz", port);
	CU_ASSERT_EQUAL(get(url, NULL, NULL, &body), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(body.data, "\"ok\""));
	kill(pid, SIGTERM);
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	unlink(portfile);
	snprintf(sock, sizeof(sock), "%s/http.sock", dir);
	snprintf(listen, sizeof(listen), "unix:%s", sock);
	pid = start_raw(dir, listen, portfile);
	CU_ASSERT_EQUAL(wait_number(portfile), 0);
	CU_ASSERT_EQUAL_FATAL(stat(sock, &st), 0);
	CU_ASSERT(S_ISSOCK(st.st_mode));
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0660);
	CU_ASSERT_EQUAL(get("http://localhost/healthz", sock, NULL, &body), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(body.data, "\"ok\""));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* a socket left by a killed daemon does not stop the next start */
	unlink(portfile);
	pid = start_raw(dir, listen, portfile);
	CU_ASSERT_EQUAL(wait_number(portfile), 0);
	CU_ASSERT_EQUAL(get("http://localhost/healthz", sock, NULL, &body), 200);
	kill(pid, SIGTERM);
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CU_ASSERT_NOT_EQUAL(stat(sock, &st), 0);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	buf_release(&body);
}

/* Every file in dir whose name ends in .eml, concatenated into out. */
static void read_mail(const char *dir, struct buf *out)
{
	char cmd[256];
	FILE *p;
	char chunk[4096];
	size_t n;

	buf_reset(out);
	snprintf(cmd, sizeof(cmd), "cat %s/*.eml 2>/dev/null", dir);
	p = popen(cmd, "r");
	while (p && (n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		buf_add(out, chunk, n);
	if (p)
		pclose(p);
	buf_addc(out, '\0');
	out->len--;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* file's text into out; waits (up to 15 s) until it holds needle want times; how many it holds. */
static int wait_text(const char *file, const char *needle, int want, struct buf *out)
{
	int n = 0;

	for (int i = 0; i < 150; i++) {
		FILE *f = fopen(file, "rb");
		char chunk[4096];
		size_t got;

		buf_reset(out);
		while (f && (got = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(out, chunk, got);
		if (f)
			fclose(f);
		buf_addc(out, '\0');
		out->len--;
		if ((n = count(out->data, needle)) >= want)
			break;
		sleep_ms(100);
	}
	return n;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/*
 * SIGHUP does not stop the daemon: it opens --log-file again by name (after
 * a rotation) and reloads --templates, keeping the old ones when the new do
 * not load.
 */
static void test_ops__sighup_reopens_log_and_reloads_templates(void)
{
	char logfile[160], rotated[160], tdir[160], subject[200], maildir[160], cmd[400];
	const char *args[] = { "--log-file", logfile, "--templates", tdir, NULL };
	struct ht_daemon d;
	struct buf text = BUF_INIT;
	struct ht_resp r;
	char admin[64], ann[64];
	const char *body = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Cy\",\"email\":\"cy@example.org\"},"
			   "{\"name\":\"Di\",\"email\":\"di@example.org\"}]}";
	struct stat st;

	snprintf(tdir, sizeof(tdir), "/tmp/tp-ops-tpl-%d", (int)getpid());
	snprintf(logfile, sizeof(logfile), "%s/turnpostd.log", tdir);
	snprintf(rotated, sizeof(rotated), "%s/turnpostd.log.1", tdir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir -p %s/email", tdir, tdir);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	snprintf(subject, sizeof(subject), "%s/email/invite.subject.mustache", tdir);
	write_file(subject, "FIRST invitation");

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, args), 0);
	snprintf(maildir, sizeof(maildir), "%s/var/mail", d.dir);
	CU_ASSERT_FATAL(game_for_two(&d, admin, ann) > 0);
	CU_ASSERT_EQUAL(wait_text(logfile, "(invite) written to", 2, &text), 2);
	CU_ASSERT_EQUAL(stat(logfile, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0640);
	read_mail(maildir, &text);
	CU_ASSERT_EQUAL(count(text.data, "Subject: FIRST invitation"), 2);

	/* logrotate moves the file, then reloads */
	CU_ASSERT_EQUAL(rename(logfile, rotated), 0);
	write_file(subject, "SECOND invitation");
	kill(d.pid, SIGHUP);
	CU_ASSERT_EQUAL(wait_text(logfile, "SIGHUP received", 1, &text), 1);
	CU_ASSERT_EQUAL(ht_api(&d, "GET", "/healthz", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(wait_text(logfile, "GET /healthz 200", 1, &text), 1);
	CU_ASSERT_EQUAL(wait_text(logfile, "notifier: templates reloaded", 1, &text), 1);
	CU_ASSERT_EQUAL(ht_api(&d, "POST", "/api/v1/games", admin, body, &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(wait_text(logfile, "(invite) written to", 2, &text), 2);
	read_mail(maildir, &text);
	CU_ASSERT_EQUAL(count(text.data, "Subject: SECOND invitation"), 2);
	/* the rotated file has nothing written after the rotation */
	wait_text(rotated, "SIGHUP", 0, &text);
	CU_ASSERT_EQUAL(count(text.data, "SIGHUP"), 0);
	CU_ASSERT_EQUAL(count(text.data, "(invite) written to"), 2);

	/* a template that does not load: the ones in use stay */
	write_file(subject, "{{#broken}} invitation");
	kill(d.pid, SIGHUP);
	CU_ASSERT_EQUAL(wait_text(logfile, "were not reloaded", 1, &text), 1);
	CU_ASSERT_EQUAL(ht_api(&d, "POST", "/api/v1/games", admin, body, &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(wait_text(logfile, "(invite) written to", 4, &text), 4);
	read_mail(maildir, &text);
	CU_ASSERT_EQUAL(count(text.data, "Subject: SECOND invitation"), 4);

	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
	CU_ASSERT_EQUAL(wait_text(logfile, "stopped cleanly", 1, &text), 1);
	ht_cleanup(&d);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tdir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	buf_release(&text);
}

/* /healthz for d: its status word ("ok", "degraded"; "" on failure) and the problems joined into problems. */
static long health(const struct ht_daemon *d, const char *path, char *status, size_t size, struct buf *problems,
		   char retry_after[16])
{
	struct ht_resp r;
	long code;

	snprintf(status, size, "%s", "");
	buf_reset(problems);
	if (ht_api(d, "GET", path, NULL, NULL, &r) < 0)
		return -1;
	code = r.status;
	if (r.json && json_string_value(json_object_get(r.json, "status")))
		snprintf(status, size, "%s", json_string_value(json_object_get(r.json, "status")));
	for (size_t i = 0; i < json_array_size(json_object_get(r.json, "problems")); i++)
		buf_addf(problems, "%s|", json_string_value(json_array_get(json_object_get(r.json, "problems"), i)));
	buf_addc(problems, '\0');
	problems->len--;
	if (retry_after)
		snprintf(retry_after, 16, "%s", r.retry_after);
	ht_resp_release(&r);
	return code;
}

/* /healthz says degraded, and why, when notifications are dead-lettered or keep failing; /readyz stays ready. */
static void test_ops__healthz_degraded(void)
{
	char hook[96], status[32], admin[64], ann[64];
#define SECRET "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
	const char *dead[] = { "--mail-transport", "webhook", "--webhook-url", hook, "--webhook-secret", SECRET,
			       "--mail-attempts", "1", NULL };
	const char *failing[] = { "--mail-transport", "webhook", "--webhook-url", hook, "--webhook-secret", SECRET,
				  "--mail-attempts", "5", "--mail-backoff", "3600", "--degraded-after", "0", NULL };
	struct ht_daemon d;
	struct buf problems = BUF_INIT, text = BUF_INIT;
	int port;

	/* nothing listens on this port: every delivery fails at once */
	{
		char dir[64] = "/tmp/tp-ops-port-XXXXXX", portfile[128], cmd[96];
		CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
		snprintf(portfile, sizeof(portfile), "%s/port", dir);
		pid_t pid = start_raw(dir, "127.0.0.1:0", portfile);
		port = wait_number(portfile);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
	snprintf(hook, sizeof(hook), "http://127.0.0.1:%d/hook", port);

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, dead), 0);
	CU_ASSERT_EQUAL(health(&d, "/healthz", status, sizeof(status), &problems, NULL), 200);
	ASSERT_STR_EQ(status, "ok");
	ASSERT_STR_EQ(problems.data, "");
	CU_ASSERT_FATAL(game_for_two(&d, admin, ann) > 0);
	CU_ASSERT_EQUAL(wait_text(d.log, ") is dead after", 2, &text), 2);
	CU_ASSERT_EQUAL(health(&d, "/healthz", status, sizeof(status), &problems, NULL), 200);
	ASSERT_STR_EQ(status, "degraded");
	CU_ASSERT_PTR_NOT_NULL(strstr(problems.data, "2 notifications were dead-lettered in the last 24 hours"));
	CU_ASSERT_EQUAL(health(&d, "/readyz", status, sizeof(status), &problems, NULL), 200);
	ASSERT_STR_EQ(status, "ready");
	ht_cleanup(&d);

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, failing), 0);
	CU_ASSERT_FATAL(game_for_two(&d, admin, ann) > 0);
	CU_ASSERT_EQUAL(wait_text(d.log, "retrying in", 2, &text), 2);
	CU_ASSERT_EQUAL(health(&d, "/healthz", status, sizeof(status), &problems, NULL), 200);
	ASSERT_STR_EQ(status, "degraded");
	CU_ASSERT_PTR_NOT_NULL(strstr(problems.data, "delivery has failed for 0 minutes (2 notifications waiting"));
	CU_ASSERT_PTR_NULL(strstr(problems.data, "dead-lettered"));
	ht_cleanup(&d);
	buf_release(&problems);
	buf_release(&text);
}

/* A disk that fails a sync: the move, /healthz and /readyz answer 503, each with Retry-After. */
static void test_ops__failed_disk_unready_with_retry_after(void)
{
	struct ht_daemon d;
	struct buf problems = BUF_INIT;
	char admin[64], ann[64], status[32], retry[16];
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	id = game_for_two(&d, admin, ann);
	CU_ASSERT_FATAL(id > 0);
	CU_ASSERT_EQUAL(add_one(&d, id, ann, NULL), 200);
	CU_ASSERT_EQUAL(health(&d, "/readyz", status, sizeof(status), &problems, retry), 200);
	ASSERT_STR_EQ(retry, "");
	/* the test daemon fails its next sync on SIGUSR2 */
	CU_ASSERT_EQUAL(kill(d.pid, SIGUSR2), 0);
	sleep_ms(100);
	{
		char path[96];
		struct ht_resp r;
		snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
		CU_ASSERT_EQUAL(ht_api(&d, "POST", path, ann, "{\"moves\":[\"add 1\"]}", &r), 0);
		CU_ASSERT_EQUAL(r.status, 503);
		ASSERT_STR_EQ(r.retry_after, "5");
		ht_resp_release(&r);
	}
	CU_ASSERT_EQUAL(health(&d, "/healthz", status, sizeof(status), &problems, retry), 503);
	ASSERT_STR_EQ(retry, "5");
	CU_ASSERT_EQUAL(health(&d, "/readyz", status, sizeof(status), &problems, retry), 503);
	ASSERT_STR_EQ(retry, "5");
	ht_cleanup(&d);
	buf_release(&problems);
}

/* A database file this user may not write stops the start with a clear message, changing nothing. */
static void test_ops__read_only_database_refused(void)
{
	char dir[64] = "/tmp/tp-ops-ro-XXXXXX", db[128], log[128], cmd[512], bin[512];
	struct buf text = BUF_INIT;
	struct stat before, after;
	int status;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/turnpost.db", dir);
	snprintf(log, sizeof(log), "%s/daemon.log", dir);
	snprintf(bin, sizeof(bin), "%s/tests/turnpost-test", builddir());
	snprintf(cmd, sizeof(cmd), "%s --db %s user add a@example.org --create >/dev/null 2>&1", bin, db);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	CU_ASSERT_EQUAL(chmod(db, 0444), 0);
	CU_ASSERT_EQUAL(stat(db, &before), 0);
	snprintf(bin, sizeof(bin), "%s/tests/turnpostd-test", builddir());
	/* root writes whatever the mode says: run as nobody, in a directory nobody may write */
	if (geteuid() == 0)
		snprintf(cmd, sizeof(cmd),
			 "chown nobody %s && runuser -u nobody -- %s --db %s --listen 127.0.0.1:0 >%s 2>&1", dir, bin,
			 db, log);
	else
		snprintf(cmd, sizeof(cmd), "%s --db %s --listen 127.0.0.1:0 >%s 2>&1", bin, db, log);
	status = system(cmd);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) != 0);
	wait_text(log, "read-only", 1, &text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text.data, "is read-only"));
	CU_ASSERT_EQUAL(stat(db, &after), 0);
	CU_ASSERT_EQUAL(before.st_mtime, after.st_mtime);
	CU_ASSERT_EQUAL(before.st_size, after.st_size);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	buf_release(&text);
}

/* One request; its status and problem code ("" when none) into code. */
static long call(const struct ht_daemon *d, const char *method, const char *path, const char *token,
		 const char *const *headers, const char *body, char code[64])
{
	struct ht_resp r;
	long status;

	code[0] = '\0';
	if (ht_request(d, method, path, token, headers, body, body ? strlen(body) : 0, &r) < 0)
		return -1;
	status = r.status;
	if (r.json && json_string_value(json_object_get(r.json, "code")))
		snprintf(code, 64, "%s", json_string_value(json_object_get(r.json, "code")));
	ht_resp_release(&r);
	return status;
}

/* The HTTP details: strong If-Match, %00, media types, long steps, admin limits, reused idempotency keys. */
static void test_ops__http_details(void)
{
	struct ht_daemon d;
	char admin[64], ann[64], path[128], code[64], body[700];
	const char *weak[] = { "If-Match: W/\"0\"", NULL };
	const char *form[] = { "Content-Type: application/x-www-form-urlencoded", NULL };
	const char *html[] = { "Content-Type: text/html", NULL };
	const char *vendor[] = { "Content-Type: application/vnd.turnpost+json; charset=utf-8", NULL };
	const char *key1[] = { "Idempotency-Key: k-1", NULL };
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	id = game_for_two(&d, admin, ann);
	CU_ASSERT_FATAL(id > 0);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);

	/* If-Match compares strongly */
	CU_ASSERT_EQUAL(call(&d, "POST", path, ann, weak, "{\"moves\":[\"add 1\"]}", code), 412);
	ASSERT_STR_EQ(code, "weak_etag");

	/* a JSON route takes JSON only (text/plain where steps may be lines) */
	CU_ASSERT_EQUAL(call(&d, "POST", path, ann, form, "moves=add+1", code), 415);
	ASSERT_STR_EQ(code, "unsupported_media_type");
	CU_ASSERT_EQUAL(call(&d, "POST", "/api/v1/games", admin, html, "{\"game\":\"counting-race\"}", code), 415);
	ASSERT_STR_EQ(code, "unsupported_media_type");
	CU_ASSERT_EQUAL(call(&d, "POST", path, ann, vendor, "{\"moves\":[\"add 1\"]}", code), 200);

	/* a step over the documented 512 characters is malformed input */
	memset(body, 'a', sizeof(body));
	memcpy(body, "{\"moves\":[\"", 11);
	memcpy(body + 600, "\"]}", 4);
	CU_ASSERT_EQUAL(call(&d, "POST", path, ann, NULL, body, code), 400);
	ASSERT_STR_EQ(code, "step_too_long");

	/* %00 in a path is no path of ours */
	snprintf(path, sizeof(path), "/api/v1/games/%lld%%00", (long long)id);
	CU_ASSERT_EQUAL(call(&d, "GET", path, ann, NULL, NULL, code), 404);
	snprintf(path, sizeof(path), "/api/v1/games/%lld%%00/moves", (long long)id);
	CU_ASSERT_EQUAL(call(&d, "POST", path, ann, NULL, "{\"moves\":[\"add 1\"]}", code), 404);
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
	CU_ASSERT_EQUAL(call(&d, "GET", path, ann, NULL, NULL, code), 200);

	/* every admin list reads ?limit= alike */
	{
		static const char *const lists[] = { "/api/v1/admin/games", "/api/v1/admin/audit", "/api/v1/admin/outbox" };
		static const char *const bad[] = { "0", "-1", "abc", "1001", "" };
		for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
			for (size_t j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
				snprintf(path, sizeof(path), "%s?limit=%s", lists[i], bad[j]);
				CU_ASSERT_EQUAL(call(&d, "GET", path, admin, NULL, NULL, code), 400);
				ASSERT_STR_EQ(code, "bad_limit");
			}
			snprintf(path, sizeof(path), "%s?limit=1", lists[i]);
			CU_ASSERT_EQUAL(call(&d, "GET", path, admin, NULL, NULL, code), 200);
		}
	}

	/* an Idempotency-Key used again with other steps has a problem of its own */
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	CU_ASSERT_EQUAL(call(&d, "POST", path, ann, key1, "{\"moves\":[\"add 1\"]}", code), 200);
	CU_ASSERT_EQUAL(call(&d, "POST", path, ann, key1, "{\"moves\":[\"add 2\"]}", code), 422);
	ASSERT_STR_EQ(code, "idempotency_key_reused");
	CU_ASSERT_EQUAL(call(&d, "POST", path, ann, key1, "{\"moves\":[\"add 1\"]}", code), 200);
	ht_cleanup(&d);
}

static int is_hex16(const char *s)
{
	return strlen(s) == 16 && strspn(s, "0123456789abcdef") == 16;
}

/*
 * --log-format json writes one JSON object per line, requests with their
 * fields; every answer and problem carries its request id, a trusted
 * proxy's kept, anyone else's replaced.
 */
static void test_ops__json_log_and_request_id(void)
{
	const char *json_args[] = { "--log-format", "json", "--trusted-proxy", "127.0.0.1", NULL };
	const char *given[] = { "X-Request-Id: lb-7f3a.2", NULL };
	const char *forged[] = { "X-Request-Id: x\" 200 1ms", NULL };
	struct ht_daemon d;
	struct ht_resp r;
	struct buf log = BUF_INIT;
	char admin[64], ann[64], first[48] = "";
	int lines = 0, requests = 0, seen_given = 0, seen_link = 0;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, json_args), 0);
	CU_ASSERT_FATAL(game_for_two(&d, admin, ann) > 0);
	CU_ASSERT_EQUAL(ht_request(&d, "GET", "/healthz", NULL, given, NULL, 0, &r), 0);
	ASSERT_STR_EQ(r.request_id, "lb-7f3a.2");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_request(&d, "GET", "/api/v1/nothing", NULL, forged, NULL, 0, &r), 0);
	CU_ASSERT_EQUAL(r.status, 404);
	CU_ASSERT(is_hex16(r.request_id));
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "request_id")), r.request_id);
	snprintf(first, sizeof(first), "%s", r.request_id);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_api(&d, "GET", "/healthz", NULL, NULL, &r), 0);
	CU_ASSERT(is_hex16(r.request_id) && strcmp(r.request_id, first) != 0);
	ht_resp_release(&r);
	{
		char path[128];
		snprintf(path, sizeof(path), "/s/%s", ann);
		CU_ASSERT_EQUAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
		ht_resp_release(&r);
	}
	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
	wait_text(d.log, "stopped cleanly", 1, &log);
	CU_ASSERT_PTR_NULL(strstr(log.data, ann));
	for (char *line = log.data, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		json_t *o;
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!*line)
			continue;
		lines++;
		o = json_loads(line, 0, NULL);
		CU_ASSERT_PTR_NOT_NULL(o);
		if (!o) {
			fprintf(stderr, "not JSON: %s\n", line);
			continue;
		}
		CU_ASSERT_PTR_NOT_NULL(json_string_value(json_object_get(o, "time")));
		CU_ASSERT_PTR_NOT_NULL(json_string_value(json_object_get(o, "level")));
		if (json_string_value(json_object_get(o, "type")) &&
		    strcmp(json_string_value(json_object_get(o, "type")), "request") == 0) {
			const char *id = json_string_value(json_object_get(o, "request_id"));
			const char *path = json_string_value(json_object_get(o, "path"));
			requests++;
			ASSERT_STR_EQ(json_string_value(json_object_get(o, "client")), "127.0.0.1");
			CU_ASSERT(json_is_integer(json_object_get(o, "status")));
			CU_ASSERT(json_is_number(json_object_get(o, "ms")));
			if (id && strcmp(id, "lb-7f3a.2") == 0) {
				seen_given++;
				ASSERT_STR_EQ(json_string_value(json_object_get(o, "route")), "/healthz");
				CU_ASSERT_EQUAL(json_integer_value(json_object_get(o, "status")), 200);
			}
			if (path && strncmp(path, "/s/", 3) == 0) {
				seen_link++;
				ASSERT_STR_EQ(path, "/s/…");
			}
		}
		json_decref(o);
	}
	CU_ASSERT(lines > requests && requests >= 5);
	CU_ASSERT_EQUAL(seen_given, 1);
	CU_ASSERT_EQUAL(seen_link, 1);
	ht_cleanup(&d);

	/* text lines name the client and the id; a peer that is no proxy cannot choose the id */
	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	CU_ASSERT_EQUAL(ht_request(&d, "GET", "/healthz", NULL, given, NULL, 0, &r), 0);
	CU_ASSERT(is_hex16(r.request_id));
	snprintf(first, sizeof(first), "GET /healthz 200 ");
	CU_ASSERT_EQUAL(wait_text(d.log, first, 1, &log), 1);
	snprintf(first, sizeof(first), "ms 127.0.0.1 %s\n", r.request_id);
	CU_ASSERT_PTR_NOT_NULL(strstr(log.data, first));
	ht_resp_release(&r);
	ht_cleanup(&d);
	buf_release(&log);
}

/* A free TCP port on the loopback. */
static int free_port(void)
{
	char dir[64] = "/tmp/tp-ops-port-XXXXXX", portfile[128], cmd[96];
	pid_t pid;
	int port;

	if (!mkdtemp(dir))
		return -1;
	snprintf(portfile, sizeof(portfile), "%s/port", dir);
	pid = start_raw(dir, "127.0.0.1:0", portfile);
	port = wait_number(portfile);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return -1;
	return port;
}

/* Whether something listens on the loopback's port. */
static int port_open(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), ok;

	ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* How many messages the Maildir sink at dir holds. */
static int sink_count(const char *dir)
{
	char cmd[256];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls %s/new 2>/dev/null | wc -l", dir);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

/*
 * smtp-tls: a URL with a password never goes out in the clear (auto), nor
 * anything with required; try sends to a server that offers no STARTTLS.
 */
static void test_ops__smtp_tls_required(void)
{
	char url[128], plain[128], listen[32], maildir[96], cmd[160], admin[64], ann[64];
	const char *with_password[] = { "--mail-transport", "smtp", "--smtp-url", url, NULL };
	const char *required[] = { "--mail-transport", "smtp", "--smtp-url", plain, "--smtp-tls", "required", NULL };
	const char *tried[] = { "--mail-transport", "smtp", "--smtp-url", plain, NULL };
	struct ht_daemon d;
	struct buf text = BUF_INIT;
	int port = free_port();
	pid_t sink;

	CU_ASSERT_FATAL(port > 0);
	snprintf(maildir, sizeof(maildir), "/tmp/tp-ops-sink-%d", (int)getpid());
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	sink = fork();
	if (sink == 0) {
		FILE *q = freopen("/dev/null", "w", stderr);
		(void)q;
		execl("/usr/bin/python3", "python3", "-m", "aiosmtpd", "-n", "-l", listen, "-c",
		      "aiosmtpd.handlers.Mailbox", maildir, (char *)NULL);
		_exit(127);
	}
	snprintf(url, sizeof(url), "smtp://turnpost:Secret-Pw-1@127.0.0.1:%d", port);
	snprintf(plain, sizeof(plain), "smtp://127.0.0.1:%d", port);
	for (int i = 0; i < 500 && !port_open(port); i++)
		sleep_ms(20);
	CU_ASSERT_FATAL(port_open(port));

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, with_password), 0);
	CU_ASSERT_FATAL(game_for_two(&d, admin, ann) > 0);
	CU_ASSERT_EQUAL(wait_text(d.log, "did not offer STARTTLS, and smtp-tls requires it", 2, &text), 2);
	CU_ASSERT_PTR_NULL(strstr(text.data, "Secret-Pw-1"));
	ht_cleanup(&d);
	CU_ASSERT_EQUAL(sink_count(maildir), 0);

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, required), 0);
	CU_ASSERT_FATAL(game_for_two(&d, admin, ann) > 0);
	CU_ASSERT_EQUAL(wait_text(d.log, "did not offer STARTTLS", 2, &text), 2);
	ht_cleanup(&d);
	CU_ASSERT_EQUAL(sink_count(maildir), 0);

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, tried), 0);
	CU_ASSERT_FATAL(game_for_two(&d, admin, ann) > 0);
	CU_ASSERT_EQUAL(wait_text(d.log, "(invite) submitted to", 2, &text), 2);
	ht_cleanup(&d);
	CU_ASSERT_EQUAL(sink_count(maildir), 2);

	kill(sink, SIGTERM);
	waitpid(sink, NULL, 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", maildir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	buf_release(&text);
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

/*
 * --quiet: the log holds only what needs a look, warnings and errors; no
 * line per request, per mail sent or per step of the start and the stop.
 * The same run without it logs those lines, and a warning (a fixed clock)
 * is logged either way.
 */
static void test_ops__quiet_logs_warnings_only(void)
{
	const char *quiet[] = { "--quiet", NULL };
	char admin[64], ann[64], maildir[160], now[32];
	struct ht_daemon d;
	struct ht_resp r;
	struct buf log = BUF_INIT, mail = BUF_INIT;

	snprintf(now, sizeof(now), "%lld000", (long long)time(NULL));
	for (int q = 0; q < 2; q++) {
		setenv("TURNPOST_FAKE_NOW_MS", now, 1);
		CU_ASSERT_EQUAL_FATAL(ht_start(&d, q ? quiet : NULL), 0);
		unsetenv("TURNPOST_FAKE_NOW_MS");
		snprintf(maildir, sizeof(maildir), "%s/var/mail", d.dir);
		CU_ASSERT_FATAL(game_for_two(&d, admin, ann) > 0);
		/* the two invitations are written: each would have its log line */
		for (int i = 0; i < 150 && count(mail.data, "Subject:") < 2; i++) {
			sleep_ms(100);
			read_mail(maildir, &mail);
		}
		CU_ASSERT_EQUAL(count(mail.data, "Subject:"), 2);
		CU_ASSERT_EQUAL(ht_api(&d, "GET", "/healthz", NULL, NULL, &r), 0);
		CU_ASSERT_EQUAL(r.status, 200);
		ht_resp_release(&r);
		CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
		buf_reset(&log);
		CU_ASSERT_EQUAL(ht_log_text(&d, &log), 0);
		CU_ASSERT_EQUAL(count(log.data, " warn the clock is fixed at "), 1);
		if (q) {
			CU_ASSERT_EQUAL(count(log.data, " info "), 0);
			if (count(log.data, " info "))
				fprintf(stderr, "\n  --quiet, yet info lines:\n%s", log.data);
		} else {
			CU_ASSERT_EQUAL(count(log.data, " info GET /healthz 200 "), 1);
			CU_ASSERT_EQUAL(count(log.data, "(invite) written to"), 2);
			CU_ASSERT_EQUAL(count(log.data, " info listening on "), 1);
			CU_ASSERT_EQUAL(count(log.data, " info stopped cleanly"), 1);
		}
		ht_cleanup(&d);
		buf_reset(&mail);
	}
	buf_release(&log);
	buf_release(&mail);
}

static CU_TestInfo ops_cases[] = {
	{ "test_ops__trusted_proxy", test_ops__trusted_proxy },
	{ "test_ops__ipv6_and_unix_socket", test_ops__ipv6_and_unix_socket },
	{ "test_ops__healthz_degraded", test_ops__healthz_degraded },
	{ "test_ops__http_details", test_ops__http_details },
	{ "test_ops__smtp_tls_required", test_ops__smtp_tls_required },
	{ "test_ops__json_log_and_request_id", test_ops__json_log_and_request_id },
	{ "test_ops__quiet_logs_warnings_only", test_ops__quiet_logs_warnings_only },
	{ "test_ops__failed_disk_unready_with_retry_after", test_ops__failed_disk_unready_with_retry_after },
	{ "test_ops__read_only_database_refused", test_ops__read_only_database_refused },
	{ "test_ops__sighup_reopens_log_and_reloads_templates", test_ops__sighup_reopens_log_and_reloads_templates },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("ops", suite_init, suite_clean, ops_cases);
	return 0;
}
