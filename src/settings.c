/* settings.c: turnpostd's settings from flags, environment and a config file */
/* SPDX-License-Identifier: MIT */
#include "settings.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

const char settings_usage[] =
	"Usage: turnpostd [OPTION]...\n"
	"Serve asynchronous board games over HTTP: the JSON API under /api/v1/.\n"
	"\n"
	"  --db FILE              SQLite database, created and migrated when missing\n"
	"                         (default ./var/turnpost.db; env TURNPOST_DB)\n"
	"  --listen ADDR:PORT     address to listen on; port 0 picks a free port and logs it\n"
	"                         (default 127.0.0.1:8080; env TURNPOST_LISTEN)\n"
	"  --base-url URL         public URL used in links (default http://ADDR:PORT;\n"
	"                         env TURNPOST_BASE_URL)\n"
	"  --config FILE          read \"key = value\" lines; keys are these option names\n"
	"                         (env TURNPOST_CONFIG)\n"
	"  --threads N            HTTP worker threads (default 8; env TURNPOST_THREADS)\n"
	"  --body-limit BYTES     largest request body accepted, else 413 (default 65536;\n"
	"                         env TURNPOST_BODY_LIMIT)\n"
	"  --timeout SECONDS      idle connection timeout (default 30; env TURNPOST_TIMEOUT)\n"
	"  --max-connections N    concurrent connections (default 256;\n"
	"                         env TURNPOST_MAX_CONNECTIONS)\n"
	"  --port-file FILE       write the bound port to FILE once listening\n"
	"\n"
	"Notifications (see docs/notifications.md):\n"
	"  --mail-transport T     file (default: one .eml per message in --mail-dir and\n"
	"                         the link in the log), smtp or webhook\n"
	"                         (env TURNPOST_MAIL_TRANSPORT)\n"
	"  --mail-dir DIR         where the file transport writes (default: mail/ in the\n"
	"                         database's directory, ./var/mail; env TURNPOST_MAIL_DIR)\n"
	"  --smtp-url URL         smtp://HOST:587 (STARTTLS when offered) or\n"
	"                         smtps://USER:PASSWORD@HOST:465 (env TURNPOST_SMTP_URL)\n"
	"  --mail-from ADDR       From: address (default turnpost@HOST of --base-url;\n"
	"                         env TURNPOST_MAIL_FROM)\n"
	"  --reply-to ADDR        Reply-To: address (default the From: address)\n"
	"  --webhook-url URL      where the webhook transport POSTs (env TURNPOST_WEBHOOK_URL)\n"
	"  --webhook-secret S     whsec_<base64> signing key (env TURNPOST_WEBHOOK_SECRET)\n"
	"  --templates DIR        override email templates with DIR/email/NAME.mustache\n"
	"                         (default: the templates built in; env TURNPOST_TEMPLATES)\n"
	"  --mail-attempts N      deliveries before a message is dead-lettered (default 8)\n"
	"  --mail-backoff SECONDS first retry delay, doubled each time (default 30)\n"
	"  --mail-timeout SECONDS time limit of one delivery (default 15)\n"
	"  --vacation-days N      yearly vacation allowance per player (default 30)\n"
	"\n"
	"Play by email (see docs/email.md):\n"
	"  --reply-domain DOMAIN  give each seat's notification Reply-To: play+TOKEN@DOMAIN\n"
	"                         (env TURNPOST_REPLY_DOMAIN)\n"
	"  --reply-days N         how long such a reply address works (default 30)\n"
	"  --inbound-secret S     shared secret of POST /api/v1/inbound/email (Bearer, Basic\n"
	"                         password or HMAC key); unset, the endpoint is off\n"
	"                         (env TURNPOST_INBOUND_SECRET)\n"
	"  --inbound-body-limit BYTES  largest inbound email accepted (default 1048576)\n"
	"  --inbound-sender seat|any   who may play a seat by email: only the seat's own\n"
	"                         address (default) or anyone holding the reply address\n"
	"  --quiet                no per-request log lines\n"
	"  --help                 show this help and exit\n"
	"  --version              show the version and exit\n"
	"\n"
	"Settings apply in this order, later ones winning: defaults, config file,\n"
	"environment, command line. SIGTERM or SIGINT stops the server gracefully:\n"
	"requests in flight finish and the database is closed cleanly.\n"
	"\n"
	"Create the first admin and an API token with:\n"
	"  turnpost --db ./var/turnpost.db user add you@example.org --admin\n";

static int copy_value(char *dst, size_t size, const char *value, const char *key, const char *where,
		      struct err *err)
{
	size_t n = strlen(value);

	if (n == 0 || n >= size)
		return err_set(err, ERR_INPUT, "%s: %s must be 1 to %zu characters", where, key, size - 1);
	memcpy(dst, value, n + 1);
	return 0;
}

static int parse_uint(const char *value, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*value))
		return -1;
	errno = 0;
	v = strtoul(value, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_listen(struct settings *cfg, const char *value, const char *where, struct err *err)
{
	const char *colon = strrchr(value, ':');
	unsigned long port;
	size_t alen;

	if (!colon || colon == value)
		return err_set(err, ERR_INPUT, "%s: --listen wants ADDR:PORT such as 127.0.0.1:8080, not \"%s\"",
			       where, value);
	alen = (size_t)(colon - value);
	if (alen >= sizeof(cfg->listen_addr))
		return err_set(err, ERR_INPUT, "%s: listen address too long", where);
	if (parse_uint(colon + 1, 0, 65535, &port) < 0)
		return err_set(err, ERR_INPUT, "%s: port must be 0 to 65535, not \"%s\"", where, colon + 1);
	memcpy(cfg->listen_addr, value, alen);
	cfg->listen_addr[alen] = '\0';
	cfg->port = (int)port;
	return 0;
}

int settings_set(struct settings *cfg, const char *key, const char *value, const char *where, struct err *err)
{
	unsigned long v;

	if (strcmp(key, "db") == 0)
		return copy_value(cfg->db, sizeof(cfg->db), value, key, where, err);
	if (strcmp(key, "listen") == 0)
		return parse_listen(cfg, value, where, err);
	if (strcmp(key, "base-url") == 0) {
		if (strncmp(value, "http://", 7) != 0 && strncmp(value, "https://", 8) != 0)
			return err_set(err, ERR_INPUT, "%s: base-url must start with http:// or https://", where);
		return copy_value(cfg->base_url, sizeof(cfg->base_url), value, key, where, err);
	}
	if (strcmp(key, "port-file") == 0)
		return copy_value(cfg->port_file, sizeof(cfg->port_file), value, key, where, err);
	if (strcmp(key, "threads") == 0) {
		if (parse_uint(value, 1, 256, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: threads must be 1 to 256", where);
		cfg->threads = (unsigned)v;
		return 0;
	}
	if (strcmp(key, "body-limit") == 0) {
		if (parse_uint(value, 1024, 64UL * 1024 * 1024, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: body-limit must be 1024 to 67108864 bytes", where);
		cfg->body_limit = v;
		return 0;
	}
	if (strcmp(key, "timeout") == 0) {
		if (parse_uint(value, 1, 3600, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: timeout must be 1 to 3600 seconds", where);
		cfg->timeout_s = (unsigned)v;
		return 0;
	}
	if (strcmp(key, "max-connections") == 0) {
		if (parse_uint(value, 1, 100000, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: max-connections must be 1 to 100000", where);
		cfg->max_connections = (unsigned)v;
		return 0;
	}
	if (strcmp(key, "mail-transport") == 0) {
		if (strcmp(value, "file") != 0 && strcmp(value, "smtp") != 0 && strcmp(value, "webhook") != 0)
			return err_set(err, ERR_INPUT, "%s: mail-transport must be file, smtp or webhook, not \"%s\"", where,
				       value);
		return copy_value(cfg->mail_transport, sizeof(cfg->mail_transport), value, key, where, err);
	}
	if (strcmp(key, "mail-dir") == 0)
		return copy_value(cfg->mail_dir, sizeof(cfg->mail_dir), value, key, where, err);
	if (strcmp(key, "smtp-url") == 0) {
		if (strncmp(value, "smtp://", 7) != 0 && strncmp(value, "smtps://", 8) != 0)
			return err_set(err, ERR_INPUT, "%s: smtp-url must start with smtp:// or smtps://", where);
		return copy_value(cfg->smtp_url, sizeof(cfg->smtp_url), value, key, where, err);
	}
	if (strcmp(key, "mail-from") == 0)
		return copy_value(cfg->mail_from, sizeof(cfg->mail_from), value, key, where, err);
	if (strcmp(key, "reply-to") == 0)
		return copy_value(cfg->reply_to, sizeof(cfg->reply_to), value, key, where, err);
	if (strcmp(key, "webhook-url") == 0) {
		if (strncmp(value, "http://", 7) != 0 && strncmp(value, "https://", 8) != 0)
			return err_set(err, ERR_INPUT, "%s: webhook-url must start with https:// (or http://)", where);
		return copy_value(cfg->webhook_url, sizeof(cfg->webhook_url), value, key, where, err);
	}
	if (strcmp(key, "webhook-secret") == 0) {
		if (strncmp(value, "whsec_", 6) != 0)
			return err_set(err, ERR_INPUT, "%s: webhook-secret must look like whsec_<base64>", where);
		return copy_value(cfg->webhook_secret, sizeof(cfg->webhook_secret), value, key, where, err);
	}
	if (strcmp(key, "templates") == 0)
		return copy_value(cfg->templates, sizeof(cfg->templates), value, key, where, err);
	if (strcmp(key, "mail-attempts") == 0) {
		if (parse_uint(value, 1, 100, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: mail-attempts must be 1 to 100", where);
		cfg->mail_attempts = (unsigned)v;
		return 0;
	}
	if (strcmp(key, "mail-backoff") == 0) {
		if (parse_uint(value, 1, 86400, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: mail-backoff must be 1 to 86400 seconds", where);
		cfg->mail_backoff_s = (unsigned)v;
		return 0;
	}
	if (strcmp(key, "mail-timeout") == 0) {
		if (parse_uint(value, 1, 600, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: mail-timeout must be 1 to 600 seconds", where);
		cfg->mail_timeout_s = (unsigned)v;
		return 0;
	}
	if (strcmp(key, "vacation-days") == 0) {
		if (parse_uint(value, 0, 366, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: vacation-days must be 0 to 366", where);
		cfg->vacation_days = (unsigned)v;
		return 0;
	}
	if (strcmp(key, "reply-domain") == 0) {
		for (const char *p = value; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
			      *p == '.'))
				return err_set(err, ERR_INPUT, "%s: reply-domain must be a domain name such as "
							       "play.example.org, not \"%s\"", where, value);
		return copy_value(cfg->reply_domain, sizeof(cfg->reply_domain), value, key, where, err);
	}
	if (strcmp(key, "reply-days") == 0) {
		if (parse_uint(value, 1, 3650, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: reply-days must be 1 to 3650", where);
		cfg->reply_days = (unsigned)v;
		return 0;
	}
	if (strcmp(key, "inbound-secret") == 0) {
		if (strlen(value) < 16)
			return err_set(err, ERR_INPUT, "%s: inbound-secret must be at least 16 characters "
						       "(for instance: openssl rand -hex 24)", where);
		return copy_value(cfg->inbound_secret, sizeof(cfg->inbound_secret), value, key, where, err);
	}
	if (strcmp(key, "inbound-body-limit") == 0) {
		if (parse_uint(value, 1024, 64UL * 1024 * 1024, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: inbound-body-limit must be 1024 to 67108864 bytes", where);
		cfg->inbound_body_limit = v;
		return 0;
	}
	if (strcmp(key, "inbound-sender") == 0) {
		if (strcmp(value, "seat") != 0 && strcmp(value, "any") != 0)
			return err_set(err, ERR_INPUT, "%s: inbound-sender must be seat or any, not \"%s\"", where, value);
		cfg->inbound_any_sender = strcmp(value, "any") == 0;
		return 0;
	}
	if (strcmp(key, "quiet") == 0) {
		cfg->quiet = strcmp(value, "0") != 0 && strcmp(value, "false") != 0 && strcmp(value, "no") != 0;
		return 0;
	}
	return err_set(err, ERR_INPUT, "%s: unknown setting \"%s\" (see turnpostd --help)", where, key);
}

static int load_file(struct settings *cfg, const char *path, struct err *err)
{
	FILE *f = fopen(path, "r");
	char line[1024], where[600];
	int lineno = 0, rc = 0;

	if (!f)
		return err_set(err, ERR_IO, "cannot read config file %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *eq, *k_end, *v;
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			continue;
		eq = strchr(p, '=');
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		if (!eq) {
			rc = err_set(err, ERR_INPUT, "%s: expected \"key = value\"", where);
			break;
		}
		k_end = eq;
		while (k_end > p && isspace((unsigned char)k_end[-1]))
			k_end--;
		*k_end = '\0';
		v = eq + 1;
		while (isspace((unsigned char)*v))
			v++;
		for (char *e = v + strlen(v); e > v && isspace((unsigned char)e[-1]); e--)
			e[-1] = '\0';
		if ((rc = settings_set(cfg, p, v, where, err)) < 0)
			break;
	}
	fclose(f);
	return rc;
}

static const struct {
	const char *env;
	const char *key;
} env_keys[] = {
	{ "TURNPOST_DB", "db" },
	{ "TURNPOST_LISTEN", "listen" },
	{ "TURNPOST_BASE_URL", "base-url" },
	{ "TURNPOST_THREADS", "threads" },
	{ "TURNPOST_BODY_LIMIT", "body-limit" },
	{ "TURNPOST_TIMEOUT", "timeout" },
	{ "TURNPOST_MAX_CONNECTIONS", "max-connections" },
	{ "TURNPOST_MAIL_TRANSPORT", "mail-transport" },
	{ "TURNPOST_MAIL_DIR", "mail-dir" },
	{ "TURNPOST_SMTP_URL", "smtp-url" },
	{ "TURNPOST_MAIL_FROM", "mail-from" },
	{ "TURNPOST_WEBHOOK_URL", "webhook-url" },
	{ "TURNPOST_WEBHOOK_SECRET", "webhook-secret" },
	{ "TURNPOST_TEMPLATES", "templates" },
	{ "TURNPOST_REPLY_DOMAIN", "reply-domain" },
	{ "TURNPOST_INBOUND_SECRET", "inbound-secret" },
};

int settings_load(struct settings *cfg, int argc, char **argv, struct err *err)
{
	const char *file = getenv("TURNPOST_CONFIG");
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->db, sizeof(cfg->db), "./var/turnpost.db");
	snprintf(cfg->listen_addr, sizeof(cfg->listen_addr), "127.0.0.1");
	cfg->port = 8080;
	/* a worker waits while its move is made durable with others (group commit): see docs/performance.md */
	cfg->threads = 8;
	cfg->body_limit = 64 * 1024;
	cfg->timeout_s = 30;
	cfg->max_connections = 256;
	snprintf(cfg->mail_transport, sizeof(cfg->mail_transport), "file");
	cfg->mail_attempts = 8;
	cfg->mail_backoff_s = 30;
	cfg->mail_timeout_s = 15;
	cfg->vacation_days = 30;
	cfg->inbound_body_limit = 1024 * 1024;
	cfg->reply_days = 30;

	/* the config file first, wherever --config stands */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
			file = argv[i + 1];
		else if (strncmp(argv[i], "--config=", 9) == 0)
			file = argv[i] + 9;
	}
	if (file && (rc = load_file(cfg, file, err)) < 0)
		return rc;
	for (size_t k = 0; k < sizeof(env_keys) / sizeof(env_keys[0]); k++) {
		const char *v = getenv(env_keys[k].env);
		if (v && *v && (rc = settings_set(cfg, env_keys[k].key, v, env_keys[k].env, err)) < 0)
			return rc;
	}
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *value = NULL;
		char key[64];
		const char *eq;

		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			cfg->help = 1;
			continue;
		}
		if (strcmp(arg, "--version") == 0 || strcmp(arg, "-V") == 0) {
			cfg->version = 1;
			continue;
		}
		if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
			cfg->quiet = 1;
			continue;
		}
		if (strncmp(arg, "--", 2) != 0)
			return err_set(err, ERR_INPUT, "unexpected argument \"%s\" (see turnpostd --help)", arg);
		eq = strchr(arg, '=');
		if (eq) {
			snprintf(key, sizeof(key), "%.*s", (int)(eq - arg - 2), arg + 2);
			value = eq + 1;
		} else {
			snprintf(key, sizeof(key), "%s", arg + 2);
			if (i + 1 >= argc)
				return err_set(err, ERR_INPUT, "%s needs a value (see turnpostd --help)", arg);
			value = argv[++i];
		}
		if (strcmp(key, "config") == 0)
			continue;
		if ((rc = settings_set(cfg, key, value, "command line", err)) < 0)
			return rc;
	}
	return 0;
}
