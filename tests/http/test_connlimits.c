/* tests/http/test_connlimits.c: one client cannot take every connection, and a trickled request is cut */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "httptest.h"
#include "testutil.h"
#include "util/token.h"

#define TRICKLERS 150

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* A TCP connection from address `from` (another loopback address: another client) to the daemon; -1 on failure. */
static int connect_from(const char *from, int port)
{
	struct sockaddr_in src = { .sin_family = AF_INET }, dst = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	inet_pton(AF_INET, from, &src.sin_addr);
	inet_pton(AF_INET, "127.0.0.1", &dst.sin_addr);
	dst.sin_port = htons((uint16_t)port);
	if (bind(fd, (struct sockaddr *)&src, sizeof(src)) < 0 || connect(fd, (struct sockaddr *)&dst, sizeof(dst)) < 0) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

/* Has the server closed fd (end of stream or reset)? */
static int closed_by_server(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c[64];

	if (poll(&p, 1, 0) <= 0)
		return 0;
	if (p.revents & (POLLHUP | POLLERR))
		return 1;
	{
		ssize_t n = recv(fd, c, sizeof(c), 0);
		return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
	}
}

/* GET /healthz as a well-behaved client; the status (0: no answer within 2 s). */
static long healthz(const struct ht_daemon *d, double *took)
{
	struct ht_resp r;
	double t0 = now_ms();
	long status = 0;

	if (ht_request(d, "GET", "/healthz", NULL, NULL, NULL, 0, &r) == 0)
		status = r.status;
	ht_resp_release(&r);
	*took = now_ms() - t0;
	return status;
}

/*
 * With --max-connections 100, 150 connections from one client that send
 * their headers a byte at a time: at most its share is taken (the rest
 * refused at once), the others are cut when their headers are late, and
 * another client is served all along.
 */
static void test_connlimits__trickling_client_does_not_stop_others(void)
{
	const char *args[] = { "--max-connections", "100", "--header-timeout", "3", "--body-timeout", "3", NULL };
	struct ht_daemon d;
	int fds[TRICKLERS], open_after = 0, served = 0, tries = 0;
	double start, worst = 0;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, args), 0);
	for (int i = 0; i < TRICKLERS; i++) {
		fds[i] = connect_from("127.0.0.2", d.port);
		CU_ASSERT(fds[i] >= 0);
		if (fds[i] >= 0 && send(fds[i], "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ", 40, MSG_NOSIGNAL) < 0)
			CU_FAIL("cannot write");
	}
	start = now_ms();
	/* 5 s of trickling, one byte per socket every 250 ms; the other client asks meanwhile */
	while (now_ms() - start < 5000) {
		double took;
		for (int i = 0; i < TRICKLERS; i++)
			if (fds[i] >= 0)
				(void)send(fds[i], "a", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
		tries++;
		if (healthz(&d, &took) == 200)
			served++;
		if (took > worst)
			worst = took;
		if (now_ms() - start > 1000 && now_ms() - start < 1300) {
			/* by now the ones over the client's share were refused */
			open_after = 0;
			for (int i = 0; i < TRICKLERS; i++)
				open_after += fds[i] >= 0 && !closed_by_server(fds[i]);
		}
		sleep_ms(250);
	}
	CU_ASSERT_EQUAL(served, tries);
	CU_ASSERT(worst < 1000);
	/* a quarter of 100 for one client */
	CU_ASSERT(open_after > 0 && open_after <= 25);
	/* past the header timeout, none is left */
	{
		int still = 0;
		for (int i = 0; i < TRICKLERS; i++)
			still += fds[i] >= 0 && !closed_by_server(fds[i]);
		CU_ASSERT_EQUAL(still, 0);
	}
	for (int i = 0; i < TRICKLERS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	ht_cleanup(&d);
}

/* A body sent a byte at a time is cut at the body timeout; a request read whole is answered. */
static void test_connlimits__trickled_body_is_cut(void)
{
	const char *args[] = { "--header-timeout", "2", "--body-timeout", "2", NULL };
	const char *head = "POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
			   "Content-Length: 1000\r\n\r\n{";
	struct ht_daemon d;
	double start, cut = 0;
	int fd;

	CU_ASSERT_EQUAL_FATAL(ht_start(&d, args), 0);
	fd = connect_from("127.0.0.3", d.port);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(send(fd, head, strlen(head), MSG_NOSIGNAL) == (ssize_t)strlen(head));
	start = now_ms();
	while (now_ms() - start < 6000) {
		if (closed_by_server(fd)) {
			cut = now_ms() - start;
			break;
		}
		(void)send(fd, " ", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
		sleep_ms(200);
	}
	CU_ASSERT(cut >= 1500 && cut < 4000);
	close(fd);
	/* the server goes on answering, and the log says what it cut */
	{
		struct ht_resp r;
		CU_ASSERT_EQUAL(ht_request(&d, "GET", "/healthz", NULL, NULL, NULL, 0, &r), 0);
		CU_ASSERT_EQUAL(r.status, 200);
		ht_resp_release(&r);
	}
	{
		struct buf log = BUF_INIT;
		FILE *f = fopen(d.log, "r");
		char line[1024];
		while (f && fgets(line, sizeof(line), f))
			buf_adds(&log, line);
		if (f)
			fclose(f);
		CU_ASSERT_PTR_NOT_NULL(strstr(log.data, "with a body not complete after 2 s"));
		buf_release(&log);
	}
	ht_cleanup(&d);
}

static int suite_init(void)
{
	signal(SIGPIPE, SIG_IGN);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	token_init();
	return 0;
}

static int suite_clean(void)
{
	curl_global_cleanup();
	return 0;
}

static CU_TestInfo cases[] = {
	{ "test_connlimits__trickling_client_does_not_stop_others",
	  test_connlimits__trickling_client_does_not_stop_others },
	{ "test_connlimits__trickled_body_is_cut", test_connlimits__trickled_body_is_cut },
	CU_TEST_INFO_NULL
};

int tests_register(void)
{
	TESTS_SUITE("connlimits", suite_init, suite_clean, cases);
	return 0;
}
