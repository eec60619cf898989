/* daemon.c: turnpostd's life: settings, storage, server, signals */
/* SPDX-License-Identifier: MIT */
#include <config.h>

#include "daemon.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"
#include "http/http.h"
#include "notify/notify.h"
#include "notify/retention.h"
#include "notify/dest.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/token.h"
#include "util/version.h"
#include "util/banned.h"

void (*daemon_store_hook)(struct store *s);

static void write_port_file(const char *path, int port)
{
	char tmp[600];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		log_warn("cannot write port file %s: %s", tmp, strerror(errno));
		return;
	}
	fprintf(f, "%d\n", port);
	fclose(f);
	if (rename(tmp, path) < 0)
		log_warn("cannot write port file %s: %s", path, strerror(errno));
}

/* After a write request: wake the notifier when notifications were queued (or made due) since the last wake. */
static void wake_notifier(void *notifier)
{
	static atomic_ulong seen;
	uint64_t now = store_outbox_generation();

	if (atomic_exchange(&seen, now) != now)
		notify_wake(notifier);
}

int daemon_main(int argc, char **argv)
{
	struct settings cfg;
	struct err e = {0};
	char shown_db[256];
	struct store *store = NULL;
	struct http_server *srv = NULL;
	struct http_config hc = {0};
	struct notify *notifier = NULL;
	struct notify_config nc = {0};
	struct retention_config rcfg = {0};
	struct retention *retention = NULL;
	sigset_t sigs;
	const char *fake;
	int sig, admins = 0, rc = 1;

	if (settings_load(&cfg, argc, argv, &e) < 0) {
		fprintf(stderr, "turnpostd: %s\n", e.msg);
		return 2;
	}
	if (cfg.help) {
		settings_print_help(stdout);
		return 0;
	}
	if (strcmp(cfg.print_options, "man") == 0) {
		settings_print_man(stdout);
		return 0;
	}
	if (strcmp(cfg.print_options, "markdown") == 0) {
		settings_print_markdown(stdout);
		return 0;
	}
	if (strcmp(cfg.print_options, "example") == 0) {
		settings_print_example(stdout);
		return 0;
	}
	if (strcmp(cfg.print_options, "config") == 0) {
		settings_print_config(stdout, &cfg);
		return 0;
	}
	if (cfg.version) {
		printf("turnpostd %s\n", version_text);
		return 0;
	}
	if (token_init() < 0) {
		fprintf(stderr, "turnpostd: cannot initialise libsodium\n");
		return 1;
	}
	log_set_json(cfg.log_json);
	/* --quiet: only what needs a look; the request lines are off too (hc.log_requests) */
	if (cfg.quiet)
		log_set_level(LOG_WARN);
	if (log_open(cfg.log_file, &e) < 0) {
		fprintf(stderr, "turnpostd: %s\n", e.msg);
		return 1;
	}
	fake = getenv("TURNPOST_FAKE_NOW_MS");
	if (fake && *fake) {
		clock_set_fake_ms(strtoll(fake, NULL, 10));
		log_warn("the clock is fixed at %s ms by TURNPOST_FAKE_NOW_MS (tests only)", fake);
	}
	/* Block the stop signals in every thread; main waits for them below. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (store_open(cfg.db, &(struct store_options){ .background_checkpoints = 1, .hold_lock = 1 }, &store, &e) < 0) {
		log_error("%s", e.msg);
		goto done;
	}
	if (daemon_store_hook)
		daemon_store_hook(store);
	store_target_redact(cfg.db, shown_db, sizeof(shown_db));
	log_info("database %s ready (schema version %d)", shown_db, store_schema_version(store));
	hc.listen_addr = cfg.listen_addr;
	hc.port = cfg.port;
	hc.base_url = cfg.base_url;
	hc.body_limit = cfg.body_limit;
	hc.conn_timeout_s = cfg.timeout_s;
	hc.max_connections = cfg.max_connections;
	hc.threads = cfg.threads;
	hc.log_requests = !cfg.quiet;
	hc.trusted_proxies = cfg.trusted_proxy;
	hc.max_connections_per_client = cfg.max_connections_per_client;
	hc.header_timeout_s = cfg.header_timeout_s;
	hc.body_timeout_s = cfg.body_timeout_s;
	hc.metrics_allow = cfg.metrics_allow;
	hc.metrics_token = cfg.metrics_token;
	hc.degraded_after_s = cfg.degraded_after_s;
	hc.inbound_secret = cfg.inbound_secret;
	hc.inbound_body_limit = cfg.inbound_body_limit;
	hc.inbound_any_sender = cfg.inbound_any_sender;
	hc.rate_limits = cfg.rate_limits;
	if (http_server_start(&hc, store, &srv, &e) < 0) {
		log_error("%s", e.msg);
		goto done;
	}
	if (strncmp(cfg.listen_addr, "unix:", 5) == 0)
		log_info("listening on %s (base URL %s)", cfg.listen_addr, http_server_base_url(srv));
	else
		log_info("listening on http://%s:%d (base URL %s)", cfg.listen_addr, http_server_port(srv),
			 http_server_base_url(srv));
	nc.transport = strcmp(cfg.mail_transport, "smtp") == 0      ? NOTIFY_SMTP
		       : strcmp(cfg.mail_transport, "webhook") == 0 ? NOTIFY_WEBHOOK
								     : NOTIFY_FILE;
	nc.base_url = http_server_base_url(srv);
	if (!cfg.mail_dir[0] && store_target_is_postgres(cfg.db)) {
		/* no file to sit beside: the default database's place */
		snprintf(cfg.mail_dir, sizeof(cfg.mail_dir), "./var/mail");
	} else if (!cfg.mail_dir[0]) {
		/* beside the database: ./var/mail for the default ./var/turnpost.db */
		const char *slash = strrchr(cfg.db, '/');
		snprintf(cfg.mail_dir, sizeof(cfg.mail_dir), "%.*s%smail", slash ? (int)(slash - cfg.db) : 0, cfg.db,
			 slash ? "/" : "");
	}
	nc.mail_dir = cfg.mail_dir;
	nc.smtp_url = cfg.smtp_url;
	nc.smtp_tls = (enum notify_smtp_tls)cfg.smtp_tls;
	nc.from = cfg.mail_from;
	nc.reply_to = cfg.reply_to;
	nc.reply_domain = cfg.reply_domain;
	nc.reply_days = (int)cfg.reply_days;
	nc.webhook_url = cfg.webhook_url;
	nc.webhook_secret = cfg.webhook_secret;
	nc.templates_dir = cfg.templates;
	nc.max_attempts = (int)cfg.mail_attempts;
	nc.backoff_ms = (int64_t)cfg.mail_backoff_s * 1000;
	nc.timeout_ms = (int64_t)cfg.mail_timeout_s * 1000;
	nc.workers = (int)cfg.delivery_workers;
	notify_set_vacation_days((int)cfg.vacation_days);
	notify_dest_allow_loopback(cfg.allow_loopback_destinations);
	if (notify_new(&nc, store, &notifier, &e) < 0 || notify_start(notifier, &e) < 0) {
		log_error("notifications: %s", e.msg);
		goto done;
	}
	log_info("notifications go out by %s%s%s", cfg.mail_transport,
		 nc.transport == NOTIFY_FILE ? " into " : "", nc.transport == NOTIFY_FILE ? cfg.mail_dir : "");
	rcfg.idempotency_days = cfg.retain_idempotency_days;
	rcfg.outbox_days = cfg.retain_outbox_days;
	rcfg.inbound_days = cfg.retain_inbound_days;
	rcfg.mail_files_days = cfg.retain_mail_files_days;
	rcfg.mail_dir = nc.transport == NOTIFY_FILE ? cfg.mail_dir : NULL;
	if (retention_start(&rcfg, store, &retention, &e) < 0) {
		log_error("retention: %s", e.msg);
		goto done;
	}
	/* a write may have queued notifications: deliver now rather than at the next poll */
	http_server_on_write(srv, wake_notifier, notifier);
	if (cfg.port_file[0])
		write_port_file(cfg.port_file, http_server_port(srv));
	{
		struct store_conn *c;
		if (store_read_acquire(store, &c, &e) == 0) {
			store_user_count_admins(c, &admins, &e);
			store_read_release(c);
		}
	}
	if (!admins)
		log_info("no admin yet: create one and get an API token with "
			 "\"turnpost --db %s user add you@example.org --admin\"", shown_db);
	do {
		if (sigwait(&sigs, &sig) != 0)
			sig = SIGTERM;
		if (sig == SIGHUP) {
			/* what can change without a restart: the log file and the email templates */
			err_clear(&e);
			if (log_reopen(&e) < 0)
				log_error("SIGHUP: %s", e.msg);
			notify_reload(notifier);
			log_info("SIGHUP received: the log file opened again, the email templates to be read again");
		}
	} while (sig != SIGINT && sig != SIGTERM);
	log_info("%s received: finishing requests in flight", sig == SIGINT ? "SIGINT" : "SIGTERM");
	rc = 0;
done:
	/* requests in flight finish first (they may wake the notifier); then a delivery in flight is
	 * abandoned and its row retried at the next start */
	http_server_stop(srv, 10000);
	retention_stop(retention);
	notify_free(notifier);
	store_close(store);
	if (rc == 0)
		log_info("stopped cleanly");
	return rc;
}
