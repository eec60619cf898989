/* bench/rawhttp.c: tp-raw, a trivial libmicrohttpd server: the ceiling of HTTP on this machine */
/* SPDX-License-Identifier: MIT */
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/banned.h"

/*
 * Usage: tp-raw PORT THREADS. Answers every request with a fixed 200 JSON
 * body, with the same daemon flags and thread pool as turnpostd, until
 * SIGTERM or SIGINT. Prints the port it listens on.
 */

static const char body[] = "{\"status\":\"ok\",\"move_count\":12}";
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				  const char *version, const char *upload_data, size_t *upload_data_size,
				  void **req_cls)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	(void)cls, (void)url, (void)method, (void)version, (void)upload_data;
	if (!*req_cls) {
		*req_cls = (void *)1;
		return MHD_YES;
	}
	*upload_data_size = 0;
	r = MHD_create_response_from_buffer(sizeof(body) - 1, (void *)body, MHD_RESPMEM_PERSISTENT);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
	ret = MHD_queue_response(conn, 200, r);
	MHD_destroy_response(r);
	return ret;
}

int main(int argc, char **argv)
{
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	unsigned port = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 0;
	unsigned threads = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 4;

	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG | MHD_USE_AUTO | MHD_USE_ITC,
			     (uint16_t)port, NULL, NULL, on_request, NULL,
			     MHD_OPTION_THREAD_POOL_SIZE, threads,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned)1024,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
			     MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned)1,
			     MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "tp-raw: cannot listen on port %u\n", port);
		return 1;
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	printf("%u\n", info ? info->port : port);
	fflush(stdout);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	while (!stop)
		pause();
	MHD_stop_daemon(d);
	return 0;
}
