/* settings.h: turnpostd's settings from flags, environment and a config file */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_SETTINGS_H
#define TURNPOST_SETTINGS_H

#include <stddef.h>

#include "util/err.h"

struct settings {
	char db[512];
	char listen_addr[64];
	int port;
	char base_url[256];
	char port_file[512];
	unsigned threads;
	size_t body_limit;
	unsigned timeout_s;
	unsigned max_connections;
	int quiet;
	/* notifications (src/notify/) */
	char mail_transport[16]; /* "file", "smtp", "webhook" */
	char mail_dir[512];
	char smtp_url[512];
	char mail_from[256];
	char reply_to[256];
	char webhook_url[512];
	char webhook_secret[256];
	char templates[512];     /* empty: the compiled-in email templates */
	unsigned mail_attempts;
	unsigned mail_backoff_s;
	unsigned mail_timeout_s;
	unsigned vacation_days;
	/* play by email (src/mail/, docs/email.md) */
	char inbound_secret[256];  /* empty: POST /api/v1/inbound/email is off */
	char reply_domain[256];    /* empty: no per-seat reply addresses */
	size_t inbound_body_limit;
	int inbound_any_sender;    /* 0: only the seat's own address may play by email */
	unsigned reply_days;
	int help;
	int version;
};

/*
 * Defaults, then the config file (--config FILE or TURNPOST_CONFIG), then the
 * environment (TURNPOST_DB, TURNPOST_LISTEN, ...), then the flags: later wins.
 * ERR_INPUT with a message naming the bad setting.
 */
int settings_load(struct settings *cfg, int argc, char **argv, struct err *err);
/* Apply one setting by its long flag name ("db", "listen", ...). */
int settings_set(struct settings *cfg, const char *key, const char *value, const char *where, struct err *err);
extern const char settings_usage[];

#endif
