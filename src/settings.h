/* settings.h: turnpostd's settings: one table from which flags, environment, config file and help follow */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_SETTINGS_H
#define TURNPOST_SETTINGS_H

#include <stddef.h>
#include <stdio.h>

#include "util/err.h"

struct settings {
	char config[512];          /* the config file read, empty when none */
	char db[512];
	char listen_addr[128];
	int port;
	char base_url[256];
	char port_file[512];
	char log_file[512];
	int log_json;              /* --log-format json */
	unsigned degraded_after_s;        /* empty: standard error */
	char trusted_proxy[512];   /* empty: the peer is the client */
	unsigned threads;
	size_t body_limit;
	unsigned timeout_s;
	unsigned max_connections;
	unsigned max_connections_per_client; /* 0: auto */
	unsigned header_timeout_s;
	unsigned body_timeout_s;
	char rate_limits[512];     /* abuse limits (http/ratelimit.h) */
	char metrics_allow[512];   /* empty: /metrics for any address */
	char metrics_token[256];   /* empty: /metrics without a token */
	int quiet;
	/* notifications (src/notify/) */
	char mail_transport[16]; /* "file", "smtp", "webhook" */
	char mail_dir[512];
	char smtp_url[512];
	int smtp_tls;            /* 0 auto, 1 try, 2 required (enum notify_smtp_tls) */
	char mail_from[256];
	char reply_to[256];
	char webhook_url[512];
	char webhook_secret[256];
	char templates[512];     /* empty: the compiled-in email templates */
	unsigned mail_attempts;
	unsigned mail_backoff_s;
	unsigned mail_timeout_s;
	unsigned delivery_workers;
	unsigned vacation_days;
	int allow_loopback_destinations; /* chat channels may be http://127.0.0.1 (tests; notify/dest.h) */
	/* play by email (src/mail/, docs/email.md) */
	char inbound_secret[256];  /* empty: POST /api/v1/inbound/email is off */
	char reply_domain[256];    /* empty: no per-seat reply addresses */
	size_t inbound_body_limit;
	int inbound_any_sender;    /* 0: only the seat's own address may play by email */
	unsigned reply_days;
	/* retention (notify/retention.h): days each kind is kept, 0 for ever */
	unsigned retain_idempotency_days;
	unsigned retain_outbox_days;
	unsigned retain_inbound_days;
	unsigned retain_mail_files_days;
	/* what the command line asked for besides settings */
	int help;
	int version;
	char print_options[16];    /* "man", "markdown", "config" or "example": print the options so and exit */
};

/* Every setting's defaults. */
void settings_init(struct settings *cfg);
/*
 * Over what cfg holds: the config file (`config`, else TURNPOST_CONFIG, else
 * none), then the environment (TURNPOST_DB, TURNPOST_LISTEN, ...). turnpost,
 * the command line, reads its settings with this. ERR_INPUT (or ERR_IO for an
 * unreadable file) with a message naming the file and line or the variable.
 */
int settings_load_file_env(struct settings *cfg, const char *config, struct err *err);
/*
 * Defaults, then the config file (--config FILE or TURNPOST_CONFIG), then the
 * environment, then the flags: later wins. ERR_INPUT with a message naming the
 * bad setting and where it was given.
 */
int settings_load(struct settings *cfg, int argc, char **argv, struct err *err);
/* Apply one setting by its name ("db", "listen", ...); `where` names its origin in messages. */
int settings_set(struct settings *cfg, const char *key, const char *value, const char *where, struct err *err);

/* turnpostd --help. */
void settings_print_help(FILE *f);
/* The man page's OPTIONS and ENVIRONMENT sections (man/turnpostd.8 holds them verbatim). */
void settings_print_man(FILE *f);
/* The settings as a Markdown table (docs/operations.md holds it verbatim). */
void settings_print_markdown(FILE *f);
/* cfg as a config file; unset settings and secrets are comments. */
void settings_print_config(FILE *f, const struct settings *cfg);
/* Every setting documented, its default commented out: contrib/turnpost.conf.example. */
void settings_print_example(FILE *f);

#endif
