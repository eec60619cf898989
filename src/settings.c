/* settings.c: turnpostd's settings: one table from which flags, environment, config file and help follow */
/* SPDX-License-Identifier: MIT */
#include "settings.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/netaddr.h"

#include "http/ratelimit.h"
#include "util/banned.h"

enum settings_type {
	SETTINGS_STRING, /* into a char array of `size` */
	SETTINGS_UINT,   /* an unsigned in min..max */
	SETTINGS_SIZE,   /* a size_t in min..max */
	SETTINGS_SWITCH, /* an int, 0 or 1: a flag without a value; yes/no in the file and environment */
	SETTINGS_CHOICE, /* one of `choices`: the text into a char array, or (size 0) its index into an int */
	SETTINGS_LISTEN, /* ADDR:PORT into listen_addr and port */
	SETTINGS_CONFIG, /* the config file: read before everything else */
};

enum settings_flags {
	SETTINGS_SECRET = 1 << 0, /* a password or key: its value never appears in a message */
};

/* One setting: its flag is --NAME, its config file key NAME, its variable ENV. */
struct settings_opt {
	const char *name;
	const char *env;
	const char *arg;             /* what --help calls the value; NULL for a switch */
	enum settings_type type;
	size_t offset;               /* of the field in struct settings */
	size_t size;                 /* strings: the field's size */
	unsigned long min, max;      /* numbers: the range; strings: min is the shortest */
	const char *unit;            /* numbers: " seconds", " bytes" in messages */
	const char *choices;         /* SETTINGS_CHOICE: "file|smtp|webhook" */
	const char *prefixes;        /* strings: the value begins with one of these ("http://|https://") */
	int (*check)(const char *v); /* strings: a further test, 0 when good */
	const char *expect;          /* strings: "NAME must EXPECT" when a test fails */
	const char *def;             /* the default, applied through the same parser; NULL: unset */
	const char *def_doc;         /* the default as the help describes it, when def alone does not say it */
	const char *section;
	const char *help;
	unsigned flags;
};

#define AT(field) offsetof(struct settings, field)
#define STR(field) AT(field), sizeof(((struct settings *)0)->field)
#define SEC_NOTIFY "Notifications (see docs/notifications.md)"
#define SEC_EMAIL "Play by email (see docs/email.md)"
#define SEC_RETAIN "Retention (see \"What grows\" in docs/operations.md)"

static int settings_check_rate_limits(const char *v)
{
	struct ratelimit *rl = NULL;
	struct err e = {0};
	int rc = ratelimit_new(v, &rl, &e);

	ratelimit_free(rl);
	return rc < 0 ? -1 : 0;
}

static int settings_check_domain(const char *v)
{
	for (const char *p = v; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.')
			return -1;
	return 0;
}

static int settings_check_proxies(const char *v)
{
	struct netaddr_range r[NETADDR_MAX_RANGES];
	struct err e = {0};

	return netaddr_parse_list(v, r, NETADDR_MAX_RANGES, &e) < 0 ? -1 : 0;
}

/* Listed in this order by --help, the man page and docs/operations.md. */
static const struct settings_opt settings_table[] = {
	{ .name = "db", .env = "TURNPOST_DB", .arg = "FILE", .type = SETTINGS_STRING, STR(db), .min = 1,
	  .def = "./var/turnpost.db", .help = "SQLite database, created and migrated when missing" },
	{ .name = "listen", .env = "TURNPOST_LISTEN", .arg = "ADDR:PORT", .type = SETTINGS_LISTEN,
	  .def = "127.0.0.1:8080",
	  .help = "address to listen on: 127.0.0.1:8080, [::1]:8080, [::]:8080 (IPv6 and IPv4) or unix:/PATH (a socket "
		  "for a proxy on this host, mode 0660); port 0 picks a free port and logs it" },
	{ .name = "base-url", .env = "TURNPOST_BASE_URL", .arg = "URL", .type = SETTINGS_STRING, STR(base_url),
	  .min = 1, .prefixes = "http://|https://", .expect = "start with http:// or https://",
	  .def_doc = "http://ADDR:PORT",
	  .help = "public URL used in links; with a path (https://example.org/turnpost) every link carries the path, "
		  "and requests are served with or without it" },
	{ .name = "config", .env = "TURNPOST_CONFIG", .arg = "FILE", .type = SETTINGS_CONFIG, STR(config), .min = 1,
	  .help = "read \"key = value\" lines (# starts a comment); the keys are these options' names" },
	{ .name = "threads", .env = "TURNPOST_THREADS", .arg = "N", .type = SETTINGS_UINT, AT(threads), 0, 1, 256,
	  .def = "8", .help = "HTTP worker threads" },
	{ .name = "body-limit", .env = "TURNPOST_BODY_LIMIT", .arg = "BYTES", .type = SETTINGS_SIZE, AT(body_limit), 0,
	  1024, 64UL * 1024 * 1024, .unit = " bytes", .def = "65536",
	  .help = "largest request body accepted; larger ones get 413" },
	{ .name = "timeout", .env = "TURNPOST_TIMEOUT", .arg = "SECONDS", .type = SETTINGS_UINT, AT(timeout_s), 0, 1,
	  3600, .unit = " seconds", .def = "30", .help = "idle connection timeout" },
	{ .name = "max-connections", .env = "TURNPOST_MAX_CONNECTIONS", .arg = "N", .type = SETTINGS_UINT,
	  AT(max_connections), 0, 1, 100000, .def = "256", .help = "concurrent connections; further ones are refused" },
	{ .name = "max-connections-per-client", .env = "TURNPOST_MAX_CONNECTIONS_PER_CLIENT", .arg = "N",
	  .type = SETTINGS_UINT, AT(max_connections_per_client), 0, 0, 100000,
	  .def_doc = "a quarter of --max-connections; all of them with --trusted-proxy",
	  .help = "concurrent connections from one address; further ones are refused, so one client cannot take "
		  "every connection" },
	{ .name = "header-timeout", .env = "TURNPOST_HEADER_TIMEOUT", .arg = "SECONDS", .type = SETTINGS_UINT,
	  AT(header_timeout_s), 0, 0, 3600, .unit = " seconds", .def = "20",
	  .help = "a request's headers must be complete this long after the connection opened (or the last answer "
		  "on it), however slowly they come; 0: no limit" },
	{ .name = "body-timeout", .env = "TURNPOST_BODY_TIMEOUT", .arg = "SECONDS", .type = SETTINGS_UINT,
	  AT(body_timeout_s), 0, 0, 3600, .unit = " seconds", .def = "60",
	  .help = "a request's body must be complete this long after its headers; 0: no limit" },
	{ .name = "rate-limits", .env = "TURNPOST_RATE_LIMITS", .arg = "LIMITS", .type = SETTINGS_STRING,
	  STR(rate_limits), .min = 1, .check = settings_check_rate_limits,
	  .expect = "be NAME=COUNT/PERIOD,... (such as chat=30/10m,bad_token=30/m) or off", .def = RATELIMIT_DEFAULT,
	  .help = "abuse limits, each COUNT per PERIOD (s, m, h or d, as 10m): sign-in emails per address "
		  "(signin_email) and per client address (signin_client), games created (create) and players "
		  "invited by email (invite) per account but admins, chat lines per seat (chat), tokens and links "
		  "that do not work per client address (bad_token); a name left out keeps its default; off: none. "
		  "Over a limit the answer is 429 with Retry-After" },
	{ .name = "trusted-proxy", .env = "TURNPOST_TRUSTED_PROXY", .arg = "ADDRS", .type = SETTINGS_STRING,
	  STR(trusted_proxy), .min = 1, .check = settings_check_proxies,
	  .expect = "be IP addresses or ADDRESS/BITS ranges separated by commas (at most 32)",
	  .def_doc = "none: the peer is the client",
	  .help = "reverse proxies (addresses or ranges) whose X-Forwarded-For names the client; other peers' is ignored" },
	{ .name = "metrics-allow", .env = "TURNPOST_METRICS_ALLOW", .arg = "ADDRS", .type = SETTINGS_STRING,
	  STR(metrics_allow), .min = 1, .check = settings_check_proxies,
	  .expect = "be IP addresses or ADDRESS/BITS ranges separated by commas (at most 32)",
	  .def_doc = "any address",
	  .help = "only these addresses or ranges may read /metrics (others get 403; the client as trusted-proxy "
		  "tells it)" },
	{ .name = "metrics-token", .env = "TURNPOST_METRICS_TOKEN", .arg = "TOKEN", .type = SETTINGS_STRING,
	  STR(metrics_token), .min = 16, .flags = SETTINGS_SECRET, .def_doc = "none",
	  .help = "/metrics asks for Authorization: Bearer TOKEN (16 characters or more; else 401)" },
	{ .name = "port-file", .env = "TURNPOST_PORT_FILE", .arg = "FILE", .type = SETTINGS_STRING, STR(port_file),
	  .min = 1, .help = "write the bound port to FILE once listening, for supervisors and tests" },
	{ .name = "log-file", .env = "TURNPOST_LOG_FILE", .arg = "FILE", .type = SETTINGS_STRING, STR(log_file),
	  .min = 1, .def_doc = "standard error",
	  .help = "append the log to FILE (created 0640); SIGHUP opens it again, for logrotate" },
	{ .name = "log-format", .env = "TURNPOST_LOG_FORMAT", .arg = "text|json", .type = SETTINGS_CHOICE,
	  AT(log_json), 0, .choices = "text|json", .def = "text",
	  .help = "text lines, or one JSON object per line (request lines: time, client, method, route, path, status, "
		  "ms, request_id)" },
	{ .name = "quiet", .env = "TURNPOST_QUIET", .type = SETTINGS_SWITCH, AT(quiet), 0, .def = "no",
	  .help = "log warnings and errors only: no line per request, mail sent or start-up step; -q for short, yes "
		  "or no in the file and environment" },

	{ .name = "mail-transport", .env = "TURNPOST_MAIL_TRANSPORT", .arg = "T", .type = SETTINGS_CHOICE,
	  STR(mail_transport), .choices = "file|smtp|webhook", .def = "file", .section = SEC_NOTIFY,
	  .help = "how notifications go out: file (one .eml file per message in --mail-dir), smtp or webhook" },
	{ .name = "mail-dir", .env = "TURNPOST_MAIL_DIR", .arg = "DIR", .type = SETTINGS_STRING, STR(mail_dir),
	  .min = 1, .def_doc = "mail/ beside the database", .section = SEC_NOTIFY,
	  .help = "where the file transport writes" },
	{ .name = "smtp-url", .env = "TURNPOST_SMTP_URL", .arg = "URL", .type = SETTINGS_STRING, STR(smtp_url),
	  .min = 1, .prefixes = "smtp://|smtps://", .expect = "start with smtp:// or smtps://", .section = SEC_NOTIFY,
	  .flags = SETTINGS_SECRET,
	  .help = "smtp://HOST:587 (STARTTLS when offered) or smtps://USER:PASSWORD@HOST:465" },
	{ .name = "smtp-tls", .env = "TURNPOST_SMTP_TLS", .arg = "auto|try|required", .type = SETTINGS_CHOICE,
	  AT(smtp_tls), 0, .choices = "auto|try|required", .def = "auto", .section = SEC_NOTIFY,
	  .help = "smtp://: try STARTTLS and send in the clear when the server does not offer it, or require it "
		  "(nothing is sent without it); auto requires it when --smtp-url holds a user and password" },
	{ .name = "mail-from", .env = "TURNPOST_MAIL_FROM", .arg = "ADDR", .type = SETTINGS_STRING, STR(mail_from),
	  .min = 1, .def_doc = "turnpost@ the host of --base-url", .section = SEC_NOTIFY,
	  .help = "the From: address" },
	{ .name = "reply-to", .env = "TURNPOST_REPLY_TO", .arg = "ADDR", .type = SETTINGS_STRING, STR(reply_to),
	  .min = 1, .def_doc = "the From: address", .section = SEC_NOTIFY, .help = "the Reply-To: address" },
	{ .name = "webhook-url", .env = "TURNPOST_WEBHOOK_URL", .arg = "URL", .type = SETTINGS_STRING, STR(webhook_url),
	  .min = 1, .prefixes = "http://|https://", .expect = "start with https:// (or http://)",
	  .section = SEC_NOTIFY, .help = "where the webhook transport POSTs signed JSON" },
	{ .name = "webhook-secret", .env = "TURNPOST_WEBHOOK_SECRET", .arg = "S", .type = SETTINGS_STRING,
	  STR(webhook_secret), .min = 1, .prefixes = "whsec_", .expect = "look like whsec_<base64>",
	  .section = SEC_NOTIFY, .flags = SETTINGS_SECRET, .help = "the Standard Webhooks signing key: whsec_ and the key in base64" },
	{ .name = "templates", .env = "TURNPOST_TEMPLATES", .arg = "DIR", .type = SETTINGS_STRING, STR(templates),
	  .min = 1, .def_doc = "the templates built in", .section = SEC_NOTIFY,
	  .help = "override email templates with DIR/email/NAME.mustache" },
	{ .name = "mail-attempts", .env = "TURNPOST_MAIL_ATTEMPTS", .arg = "N", .type = SETTINGS_UINT,
	  AT(mail_attempts), 0, 1, 100, .def = "8", .section = SEC_NOTIFY,
	  .help = "deliveries before a message is dead-lettered" },
	{ .name = "mail-backoff", .env = "TURNPOST_MAIL_BACKOFF", .arg = "SECONDS", .type = SETTINGS_UINT,
	  AT(mail_backoff_s), 0, 1, 86400, .unit = " seconds", .def = "30", .section = SEC_NOTIFY,
	  .help = "the first retry delay, doubled each time" },
	{ .name = "mail-timeout", .env = "TURNPOST_MAIL_TIMEOUT", .arg = "SECONDS", .type = SETTINGS_UINT,
	  AT(mail_timeout_s), 0, 1, 600, .unit = " seconds", .def = "15", .section = SEC_NOTIFY,
	  .help = "the time limit of one delivery" },
	{ .name = "delivery-workers", .env = "TURNPOST_DELIVERY_WORKERS", .arg = "N", .type = SETTINGS_UINT,
	  AT(delivery_workers), 0, 1, 64, .def = "4", .section = SEC_NOTIFY,
	  .help = "notifications delivered at the same time, each to another destination (two to one address or "
		  "URL go one after the other, in order), so a receiver that hangs holds up only its own" },
	{ .name = "degraded-after", .env = "TURNPOST_DEGRADED_AFTER", .arg = "SECONDS", .type = SETTINGS_UINT,
	  AT(degraded_after_s), 0, 0, 7 * 86400, .unit = " seconds", .def = "1800", .section = SEC_NOTIFY,
	  .help = "/healthz says degraded when a notification has waited this long after a failed delivery" },
	{ .name = "vacation-days", .env = "TURNPOST_VACATION_DAYS", .arg = "N", .type = SETTINGS_UINT,
	  AT(vacation_days), 0, 0, 366, .def = "30", .section = SEC_NOTIFY,
	  .help = "the yearly vacation allowance per player" },
	{ .name = "allow-loopback-destinations", .env = "TURNPOST_ALLOW_LOOPBACK_DESTINATIONS", .type = SETTINGS_SWITCH,
	  AT(allow_loopback_destinations), 0, .def = "no", .section = SEC_NOTIFY,
	  .help = "let chat channels and destinations be loopback addresses, plain http included: for tests only "
		  "(otherwise only https to public addresses)" },

	{ .name = "reply-domain", .env = "TURNPOST_REPLY_DOMAIN", .arg = "DOMAIN", .type = SETTINGS_STRING,
	  STR(reply_domain), .min = 1, .check = settings_check_domain,
	  .expect = "be a domain name such as play.example.org", .section = SEC_EMAIL,
	  .help = "give each seat's notification the Reply-To: play+TOKEN@DOMAIN; the player answers with their "
		  "steps, one per line" },
	{ .name = "reply-days", .env = "TURNPOST_REPLY_DAYS", .arg = "N", .type = SETTINGS_UINT, AT(reply_days), 0, 1,
	  3650, .def = "30", .section = SEC_EMAIL, .help = "how long such a reply address works" },
	{ .name = "inbound-secret", .env = "TURNPOST_INBOUND_SECRET", .arg = "S", .type = SETTINGS_STRING,
	  STR(inbound_secret), .min = 16,
	  .expect = "be at least 16 characters (for instance: openssl rand -hex 24)", .section = SEC_EMAIL,
	  .flags = SETTINGS_SECRET, .def_doc = "none, the endpoint is off",
	  .help = "the shared secret of POST /api/v1/inbound/email: a Bearer token, Basic password or HMAC key" },
	{ .name = "inbound-body-limit", .env = "TURNPOST_INBOUND_BODY_LIMIT", .arg = "BYTES", .type = SETTINGS_SIZE,
	  AT(inbound_body_limit), 0, 1024, 64UL * 1024 * 1024, .unit = " bytes", .def = "1048576",
	  .section = SEC_EMAIL, .help = "the largest inbound email" },
	{ .name = "inbound-sender", .env = "TURNPOST_INBOUND_SENDER", .arg = "seat|any", .type = SETTINGS_CHOICE,
	  AT(inbound_any_sender), 0, .choices = "seat|any", .def = "seat", .section = SEC_EMAIL,
	  .help = "who may play a seat by email: seat, only the seat's own address, or any, whoever holds the "
		  "reply address" },

	{ .name = "retain-idempotency-days", .env = "TURNPOST_RETAIN_IDEMPOTENCY_DAYS", .arg = "N",
	  .type = SETTINGS_UINT, AT(retain_idempotency_days), 0, 0, 36500, .def = "7", .section = SEC_RETAIN,
	  .help = "keep the stored answers to requests with an Idempotency-Key this long (a retry after that is a "
		  "new request); 0: for ever" },
	{ .name = "retain-outbox-days", .env = "TURNPOST_RETAIN_OUTBOX_DAYS", .arg = "N", .type = SETTINGS_UINT,
	  AT(retain_outbox_days), 0, 0, 36500, .def = "30", .section = SEC_RETAIN,
	  .help = "keep sent and skipped notifications this long (pending and dead ones stay until handled); 0: for "
		  "ever" },
	{ .name = "retain-inbound-days", .env = "TURNPOST_RETAIN_INBOUND_DAYS", .arg = "N", .type = SETTINGS_UINT,
	  AT(retain_inbound_days), 0, 0, 36500, .def = "30", .section = SEC_RETAIN,
	  .help = "remember the Message-IDs of handled inbound emails this long (a copy delivered again within it is "
		  "not played twice); 0: for ever" },
	{ .name = "retain-mail-files-days", .env = "TURNPOST_RETAIN_MAIL_FILES_DAYS", .arg = "N",
	  .type = SETTINGS_UINT, AT(retain_mail_files_days), 0, 0, 36500, .def = "30", .section = SEC_RETAIN,
	  .help = "keep the .eml files the file transport writes into mail-dir this long; 0: for ever" },
};

#define SETTINGS_N (sizeof(settings_table) / sizeof(settings_table[0]))

static const struct settings_opt *settings_find(const char *name)
{
	for (size_t k = 0; k < SETTINGS_N; k++)
		if (strcmp(settings_table[k].name, name) == 0)
			return &settings_table[k];
	return NULL;
}

static int settings_parse_uint(const char *value, unsigned long min, unsigned long max, unsigned long *out)
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

static int settings_parse_listen(struct settings *cfg, const char *value, const char *where, struct err *err)
{
	const char *colon = strrchr(value, ':');
	unsigned long port;
	size_t alen;

	if (strncmp(value, "unix:", 5) == 0) {
		if (value[5] != '/' || strlen(value) >= 5 + 108)
			return err_set(err, ERR_INPUT, "%s: --listen unix:PATH wants an absolute path of under 108 bytes, "
				       "not \"%s\"", where, value);
		snprintf(cfg->listen_addr, sizeof(cfg->listen_addr), "%s", value);
		cfg->port = 0;
		return 0;
	}
	/* an IPv6 address is written in brackets: [::1]:8080 */
	if (value[0] == '[' && (!colon || colon[-1] != ']'))
		return err_set(err, ERR_INPUT, "%s: --listen wants [IPv6]:PORT such as [::1]:8080, not \"%s\"",
			       where, value);
	if (!colon || colon == value)
		return err_set(err, ERR_INPUT, "%s: --listen wants ADDR:PORT such as 127.0.0.1:8080, not \"%s\"",
			       where, value);
	alen = (size_t)(colon - value);
	if (alen >= sizeof(cfg->listen_addr))
		return err_set(err, ERR_INPUT, "%s: listen address too long", where);
	if (settings_parse_uint(colon + 1, 0, 65535, &port) < 0)
		return err_set(err, ERR_INPUT, "%s: port must be 0 to 65535, not \"%s\"", where, colon + 1);
	memcpy(cfg->listen_addr, value, alen);
	cfg->listen_addr[alen] = '\0';
	cfg->port = (int)port;
	return 0;
}

/* Whether value begins with one of the "|"-separated prefixes. */
static int settings_has_prefix(const char *value, const char *prefixes)
{
	for (const char *p = prefixes; *p;) {
		size_t n = strcspn(p, "|");
		if (strncmp(value, p, n) == 0)
			return 1;
		p += n + (p[n] == '|');
	}
	return 0;
}

/* The index of value among the "|"-separated choices, -1 when none. */
static int settings_choice(const char *value, const char *choices)
{
	int i = 0;

	for (const char *p = choices; *p; i++) {
		size_t n = strcspn(p, "|");
		if (strlen(value) == n && strncmp(value, p, n) == 0)
			return i;
		p += n + (p[n] == '|');
	}
	return -1;
}

/* "file, smtp or webhook" */
static void settings_choices_text(const char *choices, char *out, size_t size)
{
	size_t len = 0;
	int n = 0, k = 0;

	for (const char *p = choices; *p; p++)
		n += *p == '|';
	out[0] = '\0';
	for (const char *p = choices; *p && len < size; k++) {
		size_t w = strcspn(p, "|");
		len += (size_t)snprintf(out + len, size - len, "%s%.*s", k == 0 ? "" : k == n ? " or " : ", ", (int)w, p);
		p += w + (p[w] == '|');
	}
}

static int settings_apply(struct settings *cfg, const struct settings_opt *o, const char *value, const char *where,
			  struct err *err)
{
	char *field = (char *)cfg + o->offset, list[128];
	unsigned long v;
	size_t n = strlen(value);
	int i;

	switch (o->type) {
	case SETTINGS_STRING:
	case SETTINGS_CONFIG:
		if (n < o->min && o->min > 1 && o->expect)
			return err_set(err, ERR_INPUT, "%s: %s must %s", where, o->name, o->expect);
		if (n == 0 || n >= o->size)
			return err_set(err, ERR_INPUT, "%s: %s must be 1 to %zu characters", where, o->name, o->size - 1);
		if ((o->prefixes && !settings_has_prefix(value, o->prefixes)) || (o->check && o->check(value) < 0)) {
			if (o->flags & SETTINGS_SECRET)
				return err_set(err, ERR_INPUT, "%s: %s must %s", where, o->name, o->expect);
			return err_set(err, ERR_INPUT, "%s: %s must %s, not \"%s\"", where, o->name, o->expect, value);
		}
		memcpy(field, value, n + 1);
		return 0;
	case SETTINGS_UINT:
	case SETTINGS_SIZE:
		if (settings_parse_uint(value, o->min, o->max, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: %s must be %lu to %lu%s", where, o->name, o->min, o->max,
				       o->unit ? o->unit : "");
		if (o->type == SETTINGS_UINT)
			*(unsigned *)(void *)field = (unsigned)v;
		else
			*(size_t *)(void *)field = v;
		return 0;
	case SETTINGS_SWITCH:
		if ((i = settings_choice(value, "1|yes|true|on")) < 0 && settings_choice(value, "0|no|false|off") < 0)
			return err_set(err, ERR_INPUT, "%s: %s must be yes or no, not \"%s\"", where, o->name, value);
		*(int *)(void *)field = i >= 0;
		return 0;
	case SETTINGS_CHOICE:
		if ((i = settings_choice(value, o->choices)) < 0) {
			settings_choices_text(o->choices, list, sizeof(list));
			return err_set(err, ERR_INPUT, "%s: %s must be %s, not \"%s\"", where, o->name, list, value);
		}
		if (o->size)
			snprintf(field, o->size, "%s", value);
		else
			*(int *)(void *)field = i;
		return 0;
	case SETTINGS_LISTEN:
		return settings_parse_listen(cfg, value, where, err);
	}
	return err_set(err, ERR_INPUT, "%s: %s cannot be set", where, o->name);
}

int settings_set(struct settings *cfg, const char *key, const char *value, const char *where, struct err *err)
{
	const struct settings_opt *o = settings_find(key);

	if (!o)
		return err_set(err, ERR_INPUT, "%s: unknown setting \"%s\" (see turnpostd --help)", where, key);
	return settings_apply(cfg, o, value, where, err);
}

void settings_init(struct settings *cfg)
{
	struct err e = {0};

	memset(cfg, 0, sizeof(*cfg));
	for (size_t k = 0; k < SETTINGS_N; k++) {
		const struct settings_opt *o = &settings_table[k];
		/* a default the table's own parser refuses is a mistake in the table */
		if (o->def && settings_apply(cfg, o, o->def, "default", &e) < 0) {
			fprintf(stderr, "settings: %s\n", e.msg);
			abort();
		}
	}
}

static int settings_load_file(struct settings *cfg, const char *path, struct err *err)
{
	FILE *f = fopen(path, "r");
	char line[1024], where[600];
	int lineno = 0, rc = 0;

	if (!f)
		return err_set(err, ERR_IO, "cannot read config file %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *eq, *k_end, *v;
		const struct settings_opt *o;
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
		if ((o = settings_find(p)) && o->type == SETTINGS_CONFIG) {
			rc = err_set(err, ERR_INPUT, "%s: a config file cannot name another one", where);
			break;
		}
		if ((rc = settings_set(cfg, p, v, where, err)) < 0)
			break;
	}
	fclose(f);
	return rc;
}

int settings_load_file_env(struct settings *cfg, const char *config, struct err *err)
{
	const char *file = config && *config ? config : getenv("TURNPOST_CONFIG");
	int rc;

	if (file && *file) {
		if ((rc = settings_set(cfg, "config", file, config && *config ? "--config" : "TURNPOST_CONFIG", err)) < 0)
			return rc;
		if ((rc = settings_load_file(cfg, cfg->config, err)) < 0)
			return rc;
	}
	for (size_t k = 0; k < SETTINGS_N; k++) {
		const struct settings_opt *o = &settings_table[k];
		const char *v = getenv(o->env);
		if (o->type == SETTINGS_CONFIG || !v || !*v)
			continue;
		if ((rc = settings_apply(cfg, o, v, o->env, err)) < 0)
			return rc;
	}
	return 0;
}

int settings_load(struct settings *cfg, int argc, char **argv, struct err *err)
{
	const char *file = NULL;
	int rc;

	settings_init(cfg);
	/* the config file first, wherever --config stands */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
			file = argv[i + 1];
		else if (strncmp(argv[i], "--config=", 9) == 0)
			file = argv[i] + 9;
	}
	if ((rc = settings_load_file_env(cfg, file, err)) < 0)
		return rc;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *value = NULL;
		const struct settings_opt *o;
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
		if (strcmp(arg, "-q") == 0) {
			cfg->quiet = 1;
			continue;
		}
		if (strncmp(arg, "--", 2) != 0)
			return err_set(err, ERR_INPUT, "unexpected argument \"%s\" (see turnpostd --help)", arg);
		eq = strchr(arg, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq ? eq - arg - 2 : (long)strlen(arg + 2)), arg + 2);
		o = settings_find(key);
		if (strcmp(key, "print-options") == 0) {
			o = NULL;
		} else if (!o) {
			return err_set(err, ERR_INPUT, "unknown option --%s (see turnpostd --help)", key);
		}
		if (eq)
			value = eq + 1;
		else if (o && o->type == SETTINGS_SWITCH)
			value = "yes";
		else if (i + 1 < argc)
			value = argv[++i];
		else
			return err_set(err, ERR_INPUT, "%s needs a value (see turnpostd --help)", arg);
		if (!o) {
			if (strcmp(value, "man") != 0 && strcmp(value, "markdown") != 0 && strcmp(value, "config") != 0 &&
			    strcmp(value, "example") != 0)
				return err_set(err, ERR_INPUT, "--print-options wants man, markdown, config or example");
			snprintf(cfg->print_options, sizeof(cfg->print_options), "%s", value);
			continue;
		}
		if (o->type == SETTINGS_CONFIG)
			continue;
		if ((rc = settings_apply(cfg, o, value, "command line", err)) < 0)
			return rc;
	}
	return 0;
}

/* "--db FILE" */
static void settings_flag_text(const struct settings_opt *o, char *out, size_t size)
{
	snprintf(out, size, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* "default 8; env TURNPOST_THREADS" */
static void settings_tail_text(const struct settings_opt *o, char *out, size_t size)
{
	const char *def = o->def_doc ? o->def_doc : o->type == SETTINGS_SWITCH ? NULL : o->def;

	snprintf(out, size, "%s%s%senv %s", def ? "default " : "", def ? def : "", def ? "; " : "", o->env);
}

/* Words of text wrapped to `width`, every line but the first indented by `indent`, from column `col`. */
static void settings_wrap(FILE *f, const char *text, int col, int indent, int width)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, " ");
		if (col > indent && col + 1 + (int)n > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)n, p);
		col += (int)n;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

void settings_print_help(FILE *f)
{
	const char *section = NULL;
	char flag[64], tail[160], text[1024];

	fputs("Usage: turnpostd [OPTION]...\n"
	      "Serve asynchronous board games over HTTP: the JSON API under /api/v1/, the web pages.\n", f);
	for (size_t k = 0; k < SETTINGS_N; k++) {
		const struct settings_opt *o = &settings_table[k];
		int col;
		if (k == 0 || (o->section != section && (!o->section || !section || strcmp(o->section, section) != 0))) {
			section = o->section;
			fprintf(f, "\n%s%s", section ? section : "", section ? ":\n" : "");
		}
		settings_flag_text(o, flag, sizeof(flag));
		settings_tail_text(o, tail, sizeof(tail));
		snprintf(text, sizeof(text), "%s (%s)", o->help, tail);
		col = fprintf(f, "  %s", flag);
		if (col > 24) {
			fprintf(f, "\n%*s", 25, "");
		} else {
			fprintf(f, "%*s", 25 - col, "");
		}
		settings_wrap(f, text, 25, 25, 79);
	}
	fputs("  --help                 show this help and exit\n"
	      "  --version              show the version and exit\n"
	      "  --print-options man|markdown|config|example\n"
	      "                         print the options for the man page, for docs/operations.md,\n"
	      "                         as a config file with the values in force, or documented\n"
	      "                         with their defaults (contrib/turnpost.conf.example)\n"
	      "\n"
	      "Settings apply in this order, later ones winning: defaults, config file,\n"
	      "environment, command line. SIGTERM or SIGINT stops the server gracefully:\n"
	      "requests in flight finish and the database is closed cleanly.\n"
	      "\n"
	      "Create the first admin and an API token with:\n"
	      "  turnpost --db ./var/turnpost.db user add you@example.org --admin\n", f);
}

/* Text for roff: the dashes of an option ("--base-url") written \- so that they print as such. */
static void settings_roff(FILE *f, const char *text)
{
	int in_opt = 0;

	for (const char *p = text; *p; p++) {
		if (p[0] == '-' && p[1] == '-' && (p == text || !isalnum((unsigned char)p[-1])))
			in_opt = 1;
		else if (in_opt && !isalnum((unsigned char)*p) && *p != '-')
			in_opt = 0;
		if (*p == '-' && in_opt)
			fputs("\\-", f);
		else if (*p == '\\')
			fputs("\\e", f);
		else
			fputc(*p, f);
	}
}

/* Text for a Markdown table cell: '|' escaped. */
static void settings_cell(FILE *f, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == '|')
			fputc('\\', f);
		fputc(*p, f);
	}
}

void settings_print_man(FILE *f)
{
	const char *section = NULL;
	char flag[64], tail[160];

	fputs(".SH OPTIONS\n", f);
	for (size_t k = 0; k < SETTINGS_N; k++) {
		const struct settings_opt *o = &settings_table[k];
		if (o->section != section && o->section && (!section || strcmp(o->section, section) != 0)) {
			section = o->section;
			fprintf(f, ".SS %.*s\n", (int)strcspn(section, " ("), section);
			if (strchr(section, '('))
				fprintf(f, "%.*s\n", (int)(strlen(strchr(section, '(')) - 2), strchr(section, '(') + 1);
		}
		fputs(".TP\n", f);
		snprintf(flag, sizeof(flag), "--%s", o->name);
		if (o->arg) {
			fputs(".BI ", f);
			settings_roff(f, flag);
			fprintf(f, " \" %s\"\n", o->arg);
		} else {
			fputs(".B ", f);
			settings_roff(f, flag);
			fputc('\n', f);
		}
		settings_tail_text(o, tail, sizeof(tail));
		fputc(toupper((unsigned char)o->help[0]), f);
		settings_roff(f, o->help + 1);
		fputs(" (", f);
		settings_roff(f, tail);
		fputs(").\n", f);
	}
	fputs(".SS Other options\n"
	      ".TP\n.B \\-\\-help\nShow the options and exit.\n"
	      ".TP\n.B \\-\\-version\nShow the version and exit: git describe of the commit built, or the release.\n"
	      ".TP\n.BI \\-\\-print\\-options \" man|markdown|config|example\"\n"
	      "Print these options as this page's sections, as the table of docs/operations.md, as a\n"
	      "config file with the values in force (secrets left out), or as a config file with\n"
	      "every setting documented and its default commented out (contrib/turnpost.conf.example),\n"
	      "and exit.\n", f);
	fputs(".SH ENVIRONMENT\n", f);
	for (size_t k = 0; k < SETTINGS_N; k++)
		fprintf(f, "%s%s", settings_table[k].env, k + 1 < SETTINGS_N ? ",\n" : ".\n");
	fputs("Each variable sets the option of the same name. The command line wins over the\n"
	      "environment, which wins over the config file.\n", f);
}

void settings_print_markdown(FILE *f)
{
	const char *section = NULL;
	char flag[64];

	for (size_t k = 0; k < SETTINGS_N; k++) {
		const struct settings_opt *o = &settings_table[k];
		const char *def = o->def_doc ? o->def_doc : o->type == SETTINGS_SWITCH ? NULL : o->def;
		if (k == 0 || (o->section != section && (!o->section || !section || strcmp(o->section, section) != 0))) {
			section = o->section;
			if (section)
				fprintf(f, "\n%s:\n", section);
			fputs("\n| option | environment | default | |\n|---|---|---|---|\n", f);
		}
		settings_flag_text(o, flag, sizeof(flag));
		fputs("| `", f);
		settings_cell(f, flag);
		fprintf(f, "` | `%s` | ", o->env);
		settings_cell(f, def ? def : "");
		fputs(" | ", f);
		settings_cell(f, o->help);
		fputs(" |\n", f);
	}
}

/* text as "# " comment lines of at most 78 columns. */
static void settings_comment(FILE *f, const char *text)
{
	const char *p = text;
	int col = 0;

	while (*p) {
		size_t n = strcspn(p, " ");
		if (col == 0) {
			fputs("#", f);
			col = 1;
		}
		if (col > 1 && col + 1 + (int)n > 78) {
			fputs("\n#", f);
			col = 1;
		}
		fprintf(f, " %.*s", (int)n, p);
		col += 1 + (int)n;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

void settings_print_example(FILE *f)
{
	const char *section = "";
	char tail[160], text[1024];

	fputs("# turnpost.conf: the settings of turnpostd and of turnpost (which reads the same\n"
	      "# file), as \"key = value\" lines; read with --config FILE or TURNPOST_CONFIG.\n"
	      "# The environment (TURNPOST_*) wins over this file, the command line over both.\n"
	      "# Every setting, with its default (commented out). Made by\n"
	      "# turnpostd --print-options example; turnpostd --help says the same.\n", f);
	for (size_t k = 0; k < SETTINGS_N; k++) {
		const struct settings_opt *o = &settings_table[k];

		if (o->type == SETTINGS_CONFIG)
			continue;
		if (o->section && strcmp(o->section, section) != 0) {
			section = o->section;
			fprintf(f, "\n# ---- %s ----\n", section);
		}
		settings_tail_text(o, tail, sizeof(tail));
		snprintf(text, sizeof(text), "%c%s (%s).%s%s%s", toupper((unsigned char)o->help[0]), o->help + 1, tail,
			 o->choices ? " Values: " : "", o->choices ? o->choices : "", o->choices ? "." : "");
		fputc('\n', f);
		settings_comment(f, text);
		fprintf(f, "#%s =%s%s\n", o->name, o->def ? " " : "", o->def ? o->def : "");
	}
}

void settings_print_config(FILE *f, const struct settings *cfg)
{
	const char *section = "";

	fputs("# turnpost settings (turnpostd --print-options config): \"key = value\" lines,\n"
	      "# read with --config FILE or TURNPOST_CONFIG; turnpostd --help explains each.\n", f);
	for (size_t k = 0; k < SETTINGS_N; k++) {
		const struct settings_opt *o = &settings_table[k];
		const char *field = (const char *)cfg + o->offset;
		char value[600];
		const char *p;
		int i;

		if (o->type == SETTINGS_CONFIG)
			continue;
		if (o->section && strcmp(o->section, section) != 0) {
			section = o->section;
			fprintf(f, "\n# %s\n", section);
		}
		switch (o->type) {
		case SETTINGS_STRING:
		case SETTINGS_CONFIG:
			snprintf(value, sizeof(value), "%s", field);
			break;
		case SETTINGS_UINT:
			snprintf(value, sizeof(value), "%u", *(const unsigned *)(const void *)field);
			break;
		case SETTINGS_SIZE:
			snprintf(value, sizeof(value), "%zu", *(const size_t *)(const void *)field);
			break;
		case SETTINGS_SWITCH:
			snprintf(value, sizeof(value), "%s", *(const int *)(const void *)field ? "yes" : "no");
			break;
		case SETTINGS_CHOICE:
			if (o->size) {
				snprintf(value, sizeof(value), "%s", field);
				break;
			}
			p = o->choices;
			for (i = *(const int *)(const void *)field; i > 0 && strchr(p, '|'); i--)
				p = strchr(p, '|') + 1;
			snprintf(value, sizeof(value), "%.*s", (int)strcspn(p, "|"), p);
			break;
		case SETTINGS_LISTEN:
			snprintf(value, sizeof(value), "%s:%d", cfg->listen_addr, cfg->port);
			break;
		}
		if (!value[0])
			fprintf(f, "# %s =\n", o->name);
		else if (o->flags & SETTINGS_SECRET)
			fprintf(f, "# %s = (set, not shown)\n", o->name);
		else
			fprintf(f, "%s = %s\n", o->name, value);
	}
}
