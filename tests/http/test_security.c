/* tests/http/test_security.c: credentials against a running daemon: logs, cookies as tokens, file modes, the port */
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

#define SMTP_PASSWORD "Sup3r-Secret-Smtp-Pw"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* The daemon's log so far into out (reset first). */
static void read_log(const struct ht_daemon *d, struct buf *out)
{
	char chunk[4096];
	size_t n;
	FILE *f = fopen(d->log, "rb");

	buf_reset(out);
	if (!f)
		return;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(out, chunk, n);
	fclose(f);
}

/* How often needle is in the daemon's log, waiting (up to 15 s) until it is there want times. */
static int wait_log(const struct ht_daemon *d, const char *needle, int want)
{
	struct buf b = BUF_INIT;
	int n = 0;

	for (int i = 0; i < 150; i++) {
		const char *p;
		read_log(d, &b);
		n = 0;
		for (p = b.data; (p = strstr(p, needle)); p++)
			n++;
		if (n >= want)
			break;
		sleep_ms(100);
	}
	buf_release(&b);
	return n;
}

/* A new admin (its token into token) and a two-seat game for Ann and Bob; the seats' tokens into seat. */
static int64_t game_for_ann_and_bob(const struct ht_daemon *d, char token[64], char seat[2][64])
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
	ht_last_line(&out, token, 64);
	buf_release(&out);
	if (ht_request(d, "POST", "/api/v1/games", token, NULL, body, strlen(body), &r) < 0)
		return 0;
	if (r.status == 201) {
		id = json_integer_value(json_object_get(r.json, "id"));
		for (int i = 0; i < 2; i++)
			snprintf(seat[i], 64, "%s",
				 json_string_value(json_object_get(
					 json_array_get(json_object_get(r.json, "seats"), (size_t)i), "token")));
	}
	ht_resp_release(&r);
	return id;
}

static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	bind(fd, (struct sockaddr *)&a, sizeof(a));
	getsockname(fd, (struct sockaddr *)&a, &len);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static int port_open(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
				 .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), ok;

	ok = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ok;
}

/* Seat links, sign-in links and the SMTP password never reach the log. */
static void test_security__tokens_not_logged(void)
{
	struct ht_daemon d, m;
	struct buf log = BUF_INIT;
	struct ht_resp r;
	char admin[64], seat[2][64], path[128], url[128], maildir[160], listen[32];
	const char *signin = "abcdefghijklmnopqrstuvwxyz234567";
	const char *smtp_args[] = { "--mail-transport", "smtp", "--smtp-url", url, NULL };
	int port = free_port();
	pid_t sink;

	/* the file transport and the request log */
	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	CU_ASSERT_FATAL(game_for_ann_and_bob(&d, admin, seat) > 0);
	CU_ASSERT_EQUAL(wait_log(&d, "(invite) written to", 2), 2);
	snprintf(path, sizeof(path), "/s/%s", seat[0]);
	CU_ASSERT_EQUAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/signin/%s", signin);
	CU_ASSERT_EQUAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_page(&d, "POST", path, NULL, "csrf=x", &r), 0);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_stop(&d, SIGTERM), 0);
	read_log(&d, &log);
	CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "GET /s/"));
	CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "GET /signin/"));
	CU_ASSERT_PTR_NULL(strstr(log.data, seat[0]));
	CU_ASSERT_PTR_NULL(strstr(log.data, seat[1]));
	CU_ASSERT_PTR_NULL(strstr(log.data, signin));
	ht_cleanup(&d);

	/* SMTP with a password in the URL */
	snprintf(maildir, sizeof(maildir), "/tmp/tp-smtp-sink-%d", (int)getpid());
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	sink = fork();
	if (sink == 0) {
		FILE *q = freopen("/dev/null", "w", stderr);
		(void)q;
		execl("/usr/bin/python3", "python3", "-m", "aiosmtpd", "-n", "-l", listen, "-c",
		      "aiosmtpd.handlers.Mailbox", maildir, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 1000 && !port_open(port); i++)
		sleep_ms(10);
	CU_ASSERT_FATAL(port_open(port));
	snprintf(url, sizeof(url), "smtp://turnpost:%s@127.0.0.1:%d", SMTP_PASSWORD, port);
	CU_ASSERT_EQUAL(ht_start(&m, smtp_args), 0);
	CU_ASSERT(m.pid > 0 && game_for_ann_and_bob(&m, admin, seat) > 0);
	CU_ASSERT_EQUAL(wait_log(&m, "(invite) submitted to", 2), 2);
	ht_stop(&m, SIGTERM);
	read_log(&m, &log);
	CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "127.0.0.1"));
	CU_ASSERT_PTR_NULL(strstr(log.data, SMTP_PASSWORD));
	CU_ASSERT_PTR_NULL(strstr(log.data, seat[0]));
	ht_cleanup(&m);
	kill(sink, SIGTERM);
	waitpid(sink, NULL, 0);
	snprintf(path, sizeof(path), "rm -rf %s", maildir);
	CU_ASSERT_EQUAL(system(path), 0);
	buf_release(&log);
}

/* A session cookie is refused as a bearer token; signing out ends that session and nothing else. */
static void test_security__session_cookie_is_not_a_token(void)
{
	struct ht_daemon d;
	struct ht_resp r;
	struct buf out = BUF_INIT;
	char admin[64], seat[2][64], ann[64], path[128], sess[80], cookie[128], csrf[64], form[96];
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add ann@example.org --name Ann", &out), 0);
	ht_last_line(&out, ann, sizeof(ann));
	buf_release(&out);
	CU_ASSERT_FATAL((id = game_for_ann_and_bob(&d, admin, seat)) > 0);
	snprintf(path, sizeof(path), "/s/%s", seat[0]);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cookie(&r, "tp_session", sess, sizeof(sess)), 0);
	ht_resp_release(&r);
	snprintf(cookie, sizeof(cookie), "tp_session=%s", sess);
	/* the browser's session works in the browser ... */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/account", cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(ht_form_value(&r, "csrf", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);
	/* ... and not as an API token */
	CU_ASSERT_EQUAL(ht_api(&d, "GET", "/api/v1/me", sess, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_api(&d, "POST", "/api/v1/tokens", sess, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_api(&d, "DELETE", "/api/v1/tokens/current", sess, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	/* signing out ends this session ... */
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL(ht_page(&d, "POST", "/signout", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_page(&d, "GET", "/account", cookie, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	/* ... and nothing else: Ann's API token and her seat link still work */
	CU_ASSERT_EQUAL(ht_api(&d, "GET", "/api/v1/me", ann, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
	CU_ASSERT_EQUAL(ht_api(&d, "GET", path, seat[0], NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/s/%s", seat[0]);
	CU_ASSERT_EQUAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	CU_ASSERT_EQUAL(ht_cookie(&r, "tp_session", sess, sizeof(sess)), 0);
	ht_resp_release(&r);
	ht_cleanup(&d);
}

/* Files only the daemon's user may read, whatever the umask. */
static void test_security__private_file_modes(void)
{
	struct ht_daemon d;
	char admin[64], seat[2][64], path[256];
	const char *files[] = { "var", "var/turnpost.db", "var/turnpost.db-wal", "var/mail", NULL };
	mode_t old = umask(0);
	struct stat st;
	int started = ht_start(&d, NULL);

	umask(old);
	CU_ASSERT_EQUAL_FATAL(started, 0);
	CU_ASSERT_FATAL(game_for_ann_and_bob(&d, admin, seat) > 0);
	CU_ASSERT_EQUAL(wait_log(&d, "(invite) written to", 2), 2);
	for (int i = 0; files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", d.dir, files[i]);
		CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
		if ((st.st_mode & 077) != 0)
			fprintf(stderr, "\n  %s has mode %o\n", files[i], (unsigned)(st.st_mode & 0777));
		CU_ASSERT_EQUAL(st.st_mode & 077, 0);
	}
	{
		char cmd[300];
		FILE *p;
		int n = 0;
		snprintf(cmd, sizeof(cmd), "find %s/var -type f -perm /077 -o -type d -perm /077", d.dir);
		p = popen(cmd, "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		while (fgets(path, sizeof(path), p)) {
			fprintf(stderr, "\n  readable by others: %s", path);
			n++;
		}
		pclose(p);
		CU_ASSERT_EQUAL(n, 0);
	}
	ht_cleanup(&d);
}

/* A second daemon on the same address does not start. */
static void test_security__port_not_shared(void)
{
	struct ht_daemon a, b;
	struct buf log = BUF_INIT;
	char listen[32];
	const char *args[] = { "--listen", listen, NULL };

	CU_ASSERT_EQUAL_FATAL(ht_start(&a, NULL), 0);
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", a.port);
	CU_ASSERT_NOT_EQUAL(ht_start(&b, args), 0);
	read_log(&b, &log);
	CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "in use"));
	ht_cleanup(&b);
	ht_cleanup(&a);
	buf_release(&log);
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

static CU_TestInfo security_cases[] = {
	{ "test_security__tokens_not_logged", test_security__tokens_not_logged },
	{ "test_security__session_cookie_is_not_a_token", test_security__session_cookie_is_not_a_token },
	{ "test_security__private_file_modes", test_security__private_file_modes },
	{ "test_security__port_not_shared", test_security__port_not_shared },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("security", suite_init, suite_clean, security_cases);
	return 0;
}
