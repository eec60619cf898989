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
	/* the sink offers no STARTTLS: let the password go in the clear to it, to see it is not logged */
	const char *smtp_args[] = { "--mail-transport", "smtp", "--smtp-url", url, "--smtp-tls", "try", NULL };
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
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "ann@example.org", cookie, sizeof(cookie)), 0);
	snprintf(sess, sizeof(sess), "%s", cookie + strlen("tp_session="));
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

/* A new game of players (a JSON array) made by the admin's token: its id, and the seats' tokens into seat. */
static int64_t new_game(const struct ht_daemon *d, const char *admin, const char *players, char seat[][64], int n)
{
	struct ht_resp r;
	char body[512];
	int64_t id = 0;

	snprintf(body, sizeof(body), "{\"game\":\"counting-race\",\"players\":%s}", players);
	if (ht_request(d, "POST", "/api/v1/games", admin, NULL, body, strlen(body), &r) < 0)
		return 0;
	if (r.status == 201) {
		id = json_integer_value(json_object_get(r.json, "id"));
		for (int i = 0; i < n; i++) {
			const char *t = json_string_value(
				json_object_get(json_array_get(json_object_get(r.json, "seats"), (size_t)i), "token"));
			snprintf(seat[i], 64, "%s", t ? t : "");
		}
	}
	ht_resp_release(&r);
	return id;
}

/* GET path as cookie: the status (and the body into body when not NULL). */
static long page_status(const struct ht_daemon *d, const char *path, const char *cookie, struct buf *body)
{
	struct ht_resp r;
	long status;

	if (ht_page(d, "GET", path, cookie, NULL, &r) < 0)
		return -1;
	status = r.status;
	if (body) {
		buf_reset(body);
		buf_add(body, r.body.data, r.body.len);
	}
	ht_resp_release(&r);
	return status;
}

/* The CSRF token of the page at path for cookie into csrf; 0 or -1. */
static int page_csrf(const struct ht_daemon *d, const char *path, const char *cookie, char csrf[64])
{
	struct ht_resp r;
	int rc;

	if (ht_page(d, "GET", path, cookie, NULL, &r) < 0)
		return -1;
	rc = ht_form_value(&r, "csrf", csrf, 64);
	ht_resp_release(&r);
	return rc;
}

/*
 * A seat link opens that one game: an admin's "your turn" email, forwarded,
 * plays the seat but opens neither the account, nor other games, nor /admin.
 */
static void test_security__seat_link_opens_one_game(void)
{
	struct ht_daemon d;
	struct ht_resp r;
	struct buf out = BUF_INIT;
	char admin[64], g1[2][64], g2[2][64], path[128], want[96], sess[80], cookie[128], csrf[64], form[160];
	const char *players = "[{\"name\":\"Admin\",\"email\":\"admin@example.org\"},"
			      "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]";
	char cookie_hdr[160];
	const char *cookie_only[] = { cookie_hdr, NULL };
	int64_t id1, id2;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add admin@example.org --name Admin --admin", &out), 0);
	ht_last_line(&out, admin, sizeof(admin));
	CU_ASSERT_FATAL((id1 = new_game(&d, admin, players, g1, 2)) > 0);
	CU_ASSERT_FATAL((id2 = new_game(&d, admin, players, g2, 2)) > 0);
	snprintf(path, sizeof(path), "/s/%s", g1[0]);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	snprintf(want, sizeof(want), "/games/%lld?seat=0", (long long)id1);
	ASSERT_STR_EQ(r.location, want);
	CU_ASSERT_EQUAL_FATAL(ht_cookie(&r, "tp_session", sess, sizeof(sess)), 0);
	ht_resp_release(&r);
	snprintf(cookie, sizeof(cookie), "tp_session=%s", sess);
	/* the game of the link: the page, its history, its chat and its steps */
	snprintf(path, sizeof(path), "/games/%lld", (long long)id1);
	CU_ASSERT_EQUAL(page_status(&d, path, cookie, &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "value=\"add 1\""));
	CU_ASSERT_PTR_NULL(strstr(out.data, "href=\"/admin\""));
	snprintf(path, sizeof(path), "/games/%lld/history", (long long)id1);
	CU_ASSERT_EQUAL(page_status(&d, path, cookie, NULL), 200);
	snprintf(path, sizeof(path), "/games/%lld", (long long)id1);
	CU_ASSERT_EQUAL_FATAL(page_csrf(&d, path, cookie, csrf), 0);
	snprintf(path, sizeof(path), "/games/%lld/chat", (long long)id1);
	snprintf(form, sizeof(form), "csrf=%s&text=hello", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/games/%lld/move", (long long)id1);
	snprintf(form, sizeof(form), "csrf=%s&move=add+1&mc=0&seat=0", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	/* nothing else: another game of the same player, the account, new games, the console */
	snprintf(path, sizeof(path), "/games/%lld", (long long)id2);
	CU_ASSERT_EQUAL(page_status(&d, path, cookie, NULL), 303);
	snprintf(path, sizeof(path), "/games/%lld/history", (long long)id2);
	CU_ASSERT_EQUAL(page_status(&d, path, cookie, NULL), 303);
	CU_ASSERT_EQUAL(page_status(&d, "/account", cookie, NULL), 303);
	CU_ASSERT_EQUAL(page_status(&d, "/games/new", cookie, NULL), 303);
	CU_ASSERT_EQUAL(page_status(&d, "/admin", cookie, NULL), 401);
	snprintf(path, sizeof(path), "/admin/games/%lld", (long long)id1);
	CU_ASSERT_EQUAL(page_status(&d, path, cookie, NULL), 401);
	CU_ASSERT_EQUAL(page_status(&d, "/", cookie, &out), 200);
	CU_ASSERT_PTR_NULL(strstr(out.data, "Your games"));
	/* a form of another game is refused even with this session's CSRF token */
	snprintf(path, sizeof(path), "/games/%lld/chat", (long long)id2);
	snprintf(form, sizeof(form), "csrf=%s&text=hello", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ASSERT_STR_EQ(r.location, "/signin");
	ht_resp_release(&r);
	/* no API token from it: neither as a cookie nor as a bearer */
	snprintf(cookie_hdr, sizeof(cookie_hdr), "Cookie: %s", cookie);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", "/api/v1/tokens", NULL, (const char *const *)cookie_only, NULL,
					 0, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "POST", "/api/v1/tokens", sess, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 401);
	ht_resp_release(&r);
	/* signing out ends it, and the seat link itself still works */
	snprintf(path, sizeof(path), "/games/%lld", (long long)id1);
	CU_ASSERT_EQUAL_FATAL(page_csrf(&d, path, cookie, csrf), 0);
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/signout", cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(page_status(&d, path, cookie, NULL), 303);
	snprintf(path, sizeof(path), "/s/%s", g1[0]);
	CU_ASSERT_EQUAL(page_status(&d, path, NULL, NULL), 303);
	buf_release(&out);
	ht_cleanup(&d);
}

/* A seat link never switches a signed-in browser to another player on a GET: it asks, and a POST switches. */
static void test_security__seat_link_asks_before_switching(void)
{
	struct ht_daemon d;
	struct ht_resp r;
	struct buf out = BUF_INIT;
	char admin[64], g[2][64], path[128], want[96], bob[128], sess[80], cookie[128], csrf[64], form[96];
	const char *players = "[{\"name\":\"Admin\",\"email\":\"admin@example.org\"},"
			      "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]";
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add admin@example.org --name Admin --admin", &out), 0);
	ht_last_line(&out, admin, sizeof(admin));
	CU_ASSERT_FATAL((id = new_game(&d, admin, players, g, 2)) > 0);
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "bob@example.org", bob, sizeof(bob)), 0);
	/* Bob's browser opens the admin's seat link: a question, and no new session */
	snprintf(path, sizeof(path), "/s/%s", g[0]);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, bob, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "Switch player?"));
	CU_ASSERT_NOT_EQUAL(ht_cookie(&r, "tp_session", sess, sizeof(sess)), 0);
	CU_ASSERT_EQUAL(ht_form_value(&r, "csrf", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(page_status(&d, "/account", bob, &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "bob@example.org"));
	/* the switch is a POST with this browser's CSRF token */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, bob, "csrf=forged", &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(page_status(&d, "/account", bob, NULL), 200);
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, bob, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	snprintf(want, sizeof(want), "/games/%lld?seat=0", (long long)id);
	ASSERT_STR_EQ(r.location, want);
	CU_ASSERT_EQUAL(ht_cookie(&r, "tp_session", sess, sizeof(sess)), 0);
	ht_resp_release(&r);
	snprintf(cookie, sizeof(cookie), "tp_session=%s", sess);
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	CU_ASSERT_EQUAL(page_status(&d, path, cookie, &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "value=\"add 1\""));
	/* Bob's session ended with the switch */
	CU_ASSERT_EQUAL(page_status(&d, "/account", bob, NULL), 303);
	/* Bob signed in opens his own seat's link: straight to the game, nothing changes */
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "bob@example.org", bob, sizeof(bob)), 0);
	snprintf(path, sizeof(path), "/s/%s", g[1]);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, bob, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	CU_ASSERT_NOT_EQUAL(ht_cookie(&r, "tp_session", sess, sizeof(sess)), 0);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(page_status(&d, "/account", bob, NULL), 200);
	buf_release(&out);
	ht_cleanup(&d);
}

/* Only players (and admins) read a game's page, chat and history; an open game shows a stranger only its seats. */
static void test_security__game_pages_only_for_players(void)
{
	struct ht_daemon d;
	struct ht_resp r;
	struct buf out = BUF_INIT;
	char admin[64], g[2][64], o[2][64], path[128], bob[128], carl[128], boss[128], csrf[64], form[160];
	const char *players = "[{\"name\":\"Admin\",\"email\":\"admin@example.org\"},"
			      "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]";
	const char *open = "[{\"name\":\"Bob\",\"email\":\"bob@example.org\"},{\"name\":\"Anyone\"}]";
	int64_t id, open_id;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add admin@example.org --name Admin --admin", &out), 0);
	ht_last_line(&out, admin, sizeof(admin));
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add carl@example.org --name Carl", &out), 0);
	CU_ASSERT_FATAL((id = new_game(&d, admin, players, g, 2)) > 0);
	CU_ASSERT_FATAL((open_id = new_game(&d, admin, open, o, 2)) > 0);
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "bob@example.org", bob, sizeof(bob)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "carl@example.org", carl, sizeof(carl)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "admin@example.org", boss, sizeof(boss)), 0);
	/* Bob writes in both games' chats */
	for (int i = 0; i < 2; i++) {
		int64_t gid = i ? open_id : id;
		snprintf(path, sizeof(path), "/games/%lld", (long long)gid);
		CU_ASSERT_EQUAL_FATAL(page_csrf(&d, path, bob, csrf), 0);
		snprintf(path, sizeof(path), "/games/%lld/chat", (long long)gid);
		snprintf(form, sizeof(form), "csrf=%s&text=%s", csrf, i ? "open+secret" : "meet+at+dawn");
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, bob, form, &r), 0);
		CU_ASSERT_EQUAL(r.status, 303);
		ht_resp_release(&r);
	}
	/* Carl plays in neither: no page, no chat, no history */
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	CU_ASSERT_EQUAL(page_status(&d, path, carl, &out), 403);
	CU_ASSERT_PTR_NULL(strstr(out.data, "meet at dawn"));
	snprintf(path, sizeof(path), "/games/%lld/history", (long long)id);
	CU_ASSERT_EQUAL(page_status(&d, path, carl, NULL), 403);
	/* the API refuses him the same */
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "token add carl@example.org", &out), 0);
	{
		char tok[64];
		ht_last_line(&out, tok, sizeof(tok));
		snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
		CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, tok, NULL, &r), 0);
		CU_ASSERT_EQUAL(r.status, 403);
		ht_resp_release(&r);
	}
	/* the players and an admin do see it */
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	CU_ASSERT_EQUAL(page_status(&d, path, bob, &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "meet at dawn"));
	CU_ASSERT_EQUAL(page_status(&d, path, boss, &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "meet at dawn"));
	/* an open seat: Carl sees who plays and may join, not the board or the chat */
	snprintf(path, sizeof(path), "/games/%lld", (long long)open_id);
	CU_ASSERT_EQUAL(page_status(&d, path, carl, &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "Join this game"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "Bob"));
	CU_ASSERT_PTR_NULL(strstr(out.data, "open secret"));
	CU_ASSERT_PTR_NULL(strstr(out.data, "aria-label=\"Board\""));
	CU_ASSERT_PTR_NULL(strstr(out.data, "bob@example.org"));
	snprintf(path, sizeof(path), "/games/%lld/history", (long long)open_id);
	CU_ASSERT_EQUAL(page_status(&d, path, carl, NULL), 403);
	snprintf(path, sizeof(path), "/games/%lld", (long long)open_id);
	CU_ASSERT_EQUAL_FATAL(page_csrf(&d, path, carl, csrf), 0);
	snprintf(path, sizeof(path), "/games/%lld/join", (long long)open_id);
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, carl, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/games/%lld", (long long)open_id);
	CU_ASSERT_EQUAL(page_status(&d, path, carl, &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "open secret"));
	/* signed out: to the sign-in page */
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	CU_ASSERT_EQUAL(page_status(&d, path, NULL, NULL), 303);
	buf_release(&out);
	ht_cleanup(&d);
}

/* The newest link matching pattern (an ERE) in mail of event to address to, waiting up to 20 s; "" when none. */
static void mail_link(const struct ht_daemon *d, const char *to, const char *event, const char *pattern, char *out,
		      size_t size)
{
	char cmd[800];

	out[0] = '\0';
	snprintf(cmd, sizeof(cmd),
		 "for f in $(grep -l 'X-Turnpost-Event: %s' %s/var/mail/*.eml 2>/dev/null); do"
		 " grep -qi '^To: .*%s' $f && cat $f; done | tr -d '\\r' |"
		 " sed -e ':a' -e '/=$/{N;s/=\\n//;ba' -e '}' | grep -oE '%s' | tail -n 1",
		 event, d->dir, to, pattern);
	for (int i = 0; i < 200 && !out[0]; i++) {
		FILE *p = popen(cmd, "r");
		char line[256] = "";
		if (p) {
			if (fgets(line, sizeof(line), p)) {
				line[strcspn(line, "\n")] = '\0';
				snprintf(out, size, "%s", line);
			}
			pclose(p);
		}
		if (!out[0])
			sleep_ms(100);
	}
}

/* Ask, on the account page of cookie, for the address email: the answer's status and body. */
static long ask_email(const struct ht_daemon *d, const char *cookie, const char *name, const char *email,
		      struct buf *body)
{
	struct ht_resp r;
	char csrf[64], form[300];
	long status;

	if (page_csrf(d, "/account", cookie, csrf) < 0)
		return -1;
	snprintf(form, sizeof(form), "csrf=%s&name=%s&email=%s", csrf, name, email);
	if (ht_page(d, "POST", "/account", cookie, form, &r) < 0)
		return -1;
	status = r.status;
	buf_reset(body);
	buf_add(body, r.body.data, r.body.len);
	ht_resp_release(&r);
	return status;
}

/*
 * A new address is the account's only once a link sent to it is opened in
 * the account's own browser; until then the old one stays, and an address
 * nobody confirmed never captures a seat invited to it.
 */
static void test_security__email_change_needs_confirmation(void)
{
	struct ht_daemon d;
	struct ht_resp r;
	struct buf out = BUF_INIT;
	char admin[64], g[2][64], path[160], bob[128], carl[128], csrf[64], form[96], link[200];
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add admin@example.org --name Admin --admin", &out), 0);
	ht_last_line(&out, admin, sizeof(admin));
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add bob@example.org --name Bob", &out), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add carl@example.org --name Carl", &out), 0);
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "bob@example.org", bob, sizeof(bob)), 0);
	CU_ASSERT_EQUAL_FATAL(ht_sign_in(&d, "carl@example.org", carl, sizeof(carl)), 0);
	/* Bob asks for robert@: his address stays until he confirms */
	CU_ASSERT_EQUAL(ask_email(&d, bob, "Bob", "robert%40example.org", &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "robert@example.org"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "value=\"bob@example.org\""));
	CU_ASSERT_EQUAL(page_status(&d, "/account", bob, &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "value=\"bob@example.org\""));
	mail_link(&d, "robert@example.org", "email_change", "/account/email/tp_[A-Za-z0-9_-]{43}", link, sizeof(link));
	CU_ASSERT_EQUAL_FATAL(strncmp(link, "/account/email/tp_", 18), 0);
	/* the link does nothing signed out, nor in another account's browser */
	CU_ASSERT_EQUAL(page_status(&d, link, NULL, NULL), 303);
	CU_ASSERT_EQUAL(page_status(&d, link, carl, NULL), 200);
	CU_ASSERT_EQUAL_FATAL(page_csrf(&d, link, carl, csrf), 0);
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", link, carl, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(page_status(&d, "/account", carl, &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "value=\"carl@example.org\""));
	/* in Bob's browser, with a POST, it is done, once */
	CU_ASSERT_EQUAL_FATAL(page_csrf(&d, link, bob, csrf), 0);
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", link, bob, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 303);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(page_status(&d, "/account", bob, &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "value=\"robert@example.org\""));
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", link, bob, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 400);
	ht_resp_release(&r);
	/* Bob asks for dora@, which nobody confirmed; a seat invited to it is not his */
	CU_ASSERT_EQUAL(ask_email(&d, bob, "Bob", "dora%40example.org", &out), 200);
	mail_link(&d, "dora@example.org", "email_change", "/account/email/tp_[A-Za-z0-9_-]{43}", link, sizeof(link));
	CU_ASSERT_EQUAL_FATAL(strncmp(link, "/account/email/tp_", 18), 0);
	CU_ASSERT_FATAL((id = new_game(&d, admin,
				       "[{\"name\":\"Admin\",\"email\":\"admin@example.org\"},"
				       "{\"name\":\"Dora\",\"email\":\"dora@example.org\"}]", g, 2)) > 0);
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	CU_ASSERT_EQUAL(page_status(&d, path, bob, NULL), 403);
	/* and the address is Dora's now: Bob's link is refused */
	CU_ASSERT_EQUAL_FATAL(page_csrf(&d, link, bob, csrf), 0);
	snprintf(form, sizeof(form), "csrf=%s", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", link, bob, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 409);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(page_status(&d, "/account", bob, &out), 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "value=\"robert@example.org\""));
	/* the links' tokens never reach the request log */
	read_log(&d, &out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "/account/email/"));
	CU_ASSERT_PTR_NULL(strstr(out.data, link + strlen("/account/email/")));
	buf_release(&out);
	ht_cleanup(&d);
}

/* A 429 with a Retry-After of 1 second to an hour. */
static void assert_limited(const struct ht_resp *r)
{
	long s = strtol(r->retry_after, NULL, 10);

	CU_ASSERT_EQUAL(r->status, 429);
	CU_ASSERT(s >= 1 && s <= 3600);
}

/* Sign-in emails, game creation, invitations, chat lines and bad tokens have limits: 429 and Retry-After. */
static void test_security__rate_limits(void)
{
	struct ht_daemon d;
	struct ht_resp r;
	struct buf out = BUF_INIT;
	const char *args[] = { "--rate-limits", "signin_email=2/h,signin_client=3/h,create=2/h,invite=3/h,chat=2/h,"
			       "bad_token=3/h", NULL };
	const char *emails[] = { "ann", "ANN", "ann", "zed", "zoe" };
	const long want[] = { 200, 200, 429, 200, 429 };
	char admin[64], carl[64], g[2][64], csrf[64], jar[96], form[200], path[128], cookie[128];
	const char *two = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Carl\",\"email\":\"carl@example.org\"},"
			  "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	const char *one = "{\"game\":\"counting-race\",\"players\":[{\"name\":\"Carl\",\"email\":\"carl@example.org\"},"
			  "{\"name\":\"Anyone\"}]}";
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, args), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add admin@example.org --name Admin --admin", &out), 0);
	ht_last_line(&out, admin, sizeof(admin));
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add carl@example.org --name Carl", &out), 0);
	ht_last_line(&out, carl, sizeof(carl));
	/* sign-in emails: two per address (whatever its case), three per client */
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/signin", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cookie(&r, "tp_csrf", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);
	snprintf(jar, sizeof(jar), "tp_csrf=%s", csrf);
	for (int i = 0; i < 5; i++) {
		snprintf(form, sizeof(form), "csrf=%s&email=%s%%40example.org", csrf, emails[i]);
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", "/signin", jar, form, &r), 0);
		if (want[i] == 429) {
			assert_limited(&r);
		} else {
			CU_ASSERT_EQUAL(r.status, want[i]);
		}
		ht_resp_release(&r);
	}
	/* games and invitations per account: Carl's third invitation and third game are refused */
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", "/api/v1/games", carl, NULL, two, strlen(two), &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", "/api/v1/games", carl, NULL, two, strlen(two), &r), 0);
	assert_limited(&r);
	ASSERT_STR_EQ(json_string_value(json_object_get(r.json, "code")), "rate_limited");
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", "/api/v1/games", carl, NULL, one, strlen(one), &r), 0);
	CU_ASSERT_EQUAL(r.status, 201);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", "/api/v1/games", carl, NULL, one, strlen(one), &r), 0);
	assert_limited(&r);
	ht_resp_release(&r);
	/* an admin is not limited */
	for (int i = 0; i < 3; i++)
		CU_ASSERT_FATAL((id = new_game(&d, admin, "[{\"name\":\"Admin\",\"email\":\"admin@example.org\"},"
						   "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]", g, 2)) > 0);
	/* chat lines per seat */
	snprintf(path, sizeof(path), "/s/%s", g[0]);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cookie(&r, "tp_session", csrf, sizeof(csrf)), 0);
	ht_resp_release(&r);
	snprintf(cookie, sizeof(cookie), "tp_session=%s", csrf);
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(page_csrf(&d, path, cookie, csrf), 0);
	snprintf(path, sizeof(path), "/games/%lld/chat", (long long)id);
	snprintf(form, sizeof(form), "csrf=%s&text=hi", csrf);
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
		if (i < 2) {
			CU_ASSERT_EQUAL(r.status, 303);
		} else {
			assert_limited(&r);
		}
		ht_resp_release(&r);
	}
	/* bad tokens per client address: after three, even a good token waits */
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me", "tp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", NULL,
					     &r), 0);
		CU_ASSERT_EQUAL(r.status, 401);
		ht_resp_release(&r);
	}
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/me", carl, NULL, &r), 0);
	assert_limited(&r);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", "/s/tp_nonsense", NULL, NULL, &r), 0);
	assert_limited(&r);
	ht_resp_release(&r);
	/* pages that need no token still work */
	CU_ASSERT_EQUAL(page_status(&d, "/", NULL, NULL), 200);
	buf_release(&out);
	ht_cleanup(&d);
}

/* A second daemon on the same database does not start; the command line still works beside the first. */
static void test_security__database_not_shared(void)
{
	struct ht_daemon a, b;
	struct buf log = BUF_INIT;
	struct ht_resp r;
	const char *args[] = { "--db", NULL, NULL };

	CU_ASSERT_EQUAL_FATAL(ht_start(&a, NULL), 0);
	args[1] = a.db;
	CU_ASSERT_NOT_EQUAL(ht_start(&b, args), 0);
	read_log(&b, &log);
	CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "another turnpostd is running on the database"));
	ht_cleanup(&b);
	CU_ASSERT_EQUAL_FATAL(ht_api(&a, "GET", "/healthz", NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ht_resp_release(&r);
	CU_ASSERT_EQUAL(ht_cli(&a, "user add x@example.org --name X", &log), 0);
	/* once the first has stopped, another may start on it */
	CU_ASSERT_EQUAL(ht_stop(&a, SIGTERM), 0);
	CU_ASSERT_EQUAL(ht_start(&b, args), 0);
	ht_cleanup(&b);
	ht_cleanup(&a);
	buf_release(&log);
}

/*
 * A batch is all or nothing only up to a step that reveals a draw: a line
 * refused after it leaves the draw stored, so no answer (API or web form)
 * depends on a draw that is thrown away, and nobody can try a draw again.
 */
static void test_security__refused_batch_keeps_its_draw(void)
{
	struct ht_daemon d;
	struct ht_resp r;
	struct buf out = BUF_INIT;
	char admin[64], g[2][64], path[128], cookie[128], sess[80], csrf[64], form[200];
	const char *players = "[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			      "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]";
	const char *batch = "{\"moves\":[\"roll\",\"add 9\",\"end\"]}";
	json_t *applied, *refused;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add admin@example.org --name Admin --admin", &out), 0);
	ht_last_line(&out, admin, sizeof(admin));
	CU_ASSERT_FATAL((id = new_game(&d, admin, players, g, 2)) > 0);
	/* the API: the roll is stored; the refused line and the one after it are not */
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", path, g[0], NULL, batch, strlen(batch), &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	applied = json_object_get(r.json, "applied");
	CU_ASSERT_EQUAL(json_array_size(applied), 1);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(applied, 0), "text")), "roll");
	refused = json_object_get(r.json, "refused");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(refused, "line")), 2);
	ASSERT_STR_EQ(json_string_value(json_object_get(refused, "text")), "add 9");
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "not_applied")), 2);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r.json, "move_count")), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r.json, "note")), "Line 2 (add 9) was refused"));
	ht_resp_release(&r);
	/* the draw is on the record: the player goes on from it */
	batch = "{\"moves\":[\"add 1\",\"end\"]}";
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", path, g[0], NULL, batch, strlen(batch), &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "applied")), 2);
	CU_ASSERT_PTR_NULL(json_object_get(r.json, "refused"));
	ht_resp_release(&r);
	/* the web form: the page says what was refused and keeps what was not played */
	snprintf(path, sizeof(path), "/s/%s", g[1]);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "GET", path, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cookie(&r, "tp_session", sess, sizeof(sess)), 0);
	ht_resp_release(&r);
	snprintf(cookie, sizeof(cookie), "tp_session=%s", sess);
	snprintf(path, sizeof(path), "/games/%lld", (long long)id);
	CU_ASSERT_EQUAL_FATAL(page_csrf(&d, path, cookie, csrf), 0);
	snprintf(path, sizeof(path), "/games/%lld/move", (long long)id);
	snprintf(form, sizeof(form), "csrf=%s&seat=1&mc=3&moves=roll%%0Aadd+9%%0Aend", csrf);
	CU_ASSERT_EQUAL_FATAL(ht_page(&d, "POST", path, cookie, form, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "was refused"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "add 9\nend</textarea>"));
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin, NULL, &r), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r.json, "moves")), 4);
	ht_resp_release(&r);
	buf_release(&out);
	ht_cleanup(&d);
}

/* Players see each other's email addresses only when the game's creator chose so; admins always. */
static void test_security__emails_only_when_shared(void)
{
	struct ht_daemon d;
	struct ht_resp r;
	struct buf out = BUF_INIT;
	char admin[64], ann[64], g[2][64], s[2][64], path[96];
	const char *players = "[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			      "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]";
	const char *shared = "{\"game\":\"counting-race\",\"players_see_emails\":true,\"players\":"
			     "[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]}";
	int64_t id, sid;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add admin@example.org --name Admin --admin", &out), 0);
	ht_last_line(&out, admin, sizeof(admin));
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add ann@example.org --name Ann", &out), 0);
	ht_last_line(&out, ann, sizeof(ann));
	CU_ASSERT_FATAL((id = new_game(&d, admin, players, g, 2)) > 0);
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)id);
	/* a player, by seat token or account token: names, no addresses */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, g[0], NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(json_object_get(r.json, "seats"), 1), "name")),
		      "Bob");
	CU_ASSERT_PTR_NULL(json_object_get(json_array_get(json_object_get(r.json, "seats"), 1), "email"));
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "bob@example.org"));
	ht_resp_release(&r);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, ann, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_PTR_NULL(strstr(r.body.data, "bob@example.org"));
	ht_resp_release(&r);
	/* an admin sees them */
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin, NULL, &r), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.body.data, "bob@example.org"));
	ht_resp_release(&r);
	/* a game whose creator lets the players see them */
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", "/api/v1/games", admin, NULL, shared, strlen(shared), &r), 0);
	CU_ASSERT_EQUAL_FATAL(r.status, 201);
	sid = json_integer_value(json_object_get(r.json, "id"));
	snprintf(s[0], sizeof(s[0]), "%s",
		 json_string_value(json_object_get(json_array_get(json_object_get(r.json, "seats"), 0), "token")));
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/games/%lld", (long long)sid);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, s[0], NULL, &r), 0);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(json_object_get(r.json, "seats"), 1), "email")),
		      "bob@example.org");
	CU_ASSERT(json_is_true(json_object_get(r.json, "players_see_emails")));
	ht_resp_release(&r);
	buf_release(&out);
	ht_cleanup(&d);
}

/* The generator's seed is for admins (the replay file): no answer to a player holds it. */
static void test_security__seed_stays_with_admins(void)
{
	struct ht_daemon d;
	struct ht_resp r;
	struct buf out = BUF_INIT;
	char admin[64], g[2][64], path[128], seed[64] = "";
	const char *players = "[{\"name\":\"Ann\",\"email\":\"ann@example.org\"},"
			      "{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]";
	const char *batch = "{\"moves\":[\"roll\",\"add 9\"]}";
	const char *paths[] = { "", "/moves", "/legal", "/log", NULL };
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(ht_cli(&d, "user add admin@example.org --name Admin --admin", &out), 0);
	ht_last_line(&out, admin, sizeof(admin));
	CU_ASSERT_FATAL((id = new_game(&d, admin, players, g, 2)) > 0);
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/export", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, admin, NULL, &r), 0);
	if (json_string_value(json_object_get(r.json, "seed")))
		snprintf(seed, sizeof(seed), "%s", json_string_value(json_object_get(r.json, "seed")));
	ht_resp_release(&r);
	CU_ASSERT_FATAL(strlen(seed) >= 6);
	/* a player's answers, a refused batch's included */
	snprintf(path, sizeof(path), "/api/v1/games/%lld/moves", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_request(&d, "POST", path, g[0], NULL, batch, strlen(batch), &r), 0);
	CU_ASSERT_PTR_NULL(strstr(r.body.data, seed));
	ht_resp_release(&r);
	for (int i = 0; paths[i]; i++) {
		snprintf(path, sizeof(path), "/api/v1/games/%lld%s", (long long)id, paths[i]);
		CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, g[0], NULL, &r), 0);
		CU_ASSERT_EQUAL(r.status, 200);
		CU_ASSERT_PTR_NULL(strstr(r.body.data, seed));
		ht_resp_release(&r);
	}
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", "/api/v1/admin/games", g[0], NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	snprintf(path, sizeof(path), "/api/v1/admin/games/%lld/export", (long long)id);
	CU_ASSERT_EQUAL_FATAL(ht_api(&d, "GET", path, g[0], NULL, &r), 0);
	CU_ASSERT_EQUAL(r.status, 403);
	ht_resp_release(&r);
	buf_release(&out);
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

/*
 * The suite's own guard: every daemon's log is scanned for tokens when its test is done (ht_cleanup), and a
 * token found there fails the program. Here a log that holds one, and one that holds only look-alikes.
 */
static void test_security__suite_scans_logs_for_tokens(void)
{
	static const char *const logs[] = {
		"2026-11-25T10:00:00Z info GET /s/tp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE 200\n",
		"2026-11-25T10:00:00Z info token tp_AbCd (prefix) revoked; ftp_x; tp_ too short; "
		"xtp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE glued to a word\n",
	};
	unsigned before = test_leaked_secrets;

	for (int i = 0; i < 2; i++) {
		struct ht_daemon d;
		FILE *f;

		memset(&d, 0, sizeof(d));
		snprintf(d.log, sizeof(d.log), "/tmp/tp-scan-%ld-%d.log", (long)getpid(), i);
		f = fopen(d.log, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fputs(logs[i], f);
		fclose(f);
		ht_cleanup(&d);
		CU_ASSERT_EQUAL(test_leaked_secrets, before + 1);
		unlink(d.log);
	}
	/* the one found here was planted: it is not a leak of the daemon's */
	test_leaked_secrets = before;
}

static CU_TestInfo security_cases[] = {
	{ "test_security__suite_scans_logs_for_tokens", test_security__suite_scans_logs_for_tokens },
	{ "test_security__tokens_not_logged", test_security__tokens_not_logged },
	{ "test_security__session_cookie_is_not_a_token", test_security__session_cookie_is_not_a_token },
	{ "test_security__private_file_modes", test_security__private_file_modes },
	{ "test_security__port_not_shared", test_security__port_not_shared },
	{ "test_security__seat_link_opens_one_game", test_security__seat_link_opens_one_game },
	{ "test_security__seat_link_asks_before_switching", test_security__seat_link_asks_before_switching },
	{ "test_security__game_pages_only_for_players", test_security__game_pages_only_for_players },
	{ "test_security__email_change_needs_confirmation", test_security__email_change_needs_confirmation },
	{ "test_security__rate_limits", test_security__rate_limits },
	{ "test_security__database_not_shared", test_security__database_not_shared },
	{ "test_security__refused_batch_keeps_its_draw", test_security__refused_batch_keeps_its_draw },
	{ "test_security__emails_only_when_shared", test_security__emails_only_when_shared },
	{ "test_security__seed_stays_with_admins", test_security__seed_stays_with_admins },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("security", suite_init, suite_clean, security_cases);
	return 0;
}
