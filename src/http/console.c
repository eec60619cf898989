/* http/console.c: the admin console's shared parts: whole-number arguments, short texts, outcome messages */
/* SPDX-License-Identifier: MIT */
#include "http/console.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/banned.h"

#define VALUE_SHOWN 300

int console_int_arg(const char *text, long max, long *out)
{
	char *end;
	long v;

	if (!text)
		return 1;
	if (*text < '0' || *text > '9')
		return -1;
	v = strtol(text, &end, 10);
	if (*end || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

int console_limit(struct http_request *rq, struct http_reply *r, int def, int *limit)
{
	long v;
	int rc = console_int_arg(http_query(rq, "limit"), CONSOLE_LIMIT_MAX, &v);

	if (rc < 0 || (rc == 0 && v < 1)) {
		http_reply_problem(r, ERR_INPUT, "bad_limit", "?limit= must be a whole number from 1 to 1000", NULL);
		return -1;
	}
	*limit = rc == 0 ? (int)v : def;
	return 0;
}

/* What a finished action says on the page it returns to (?done=...): fixed texts, never taken from the URL. */
static const struct {
	const char *code;
	const char *text;
} done_texts[] = {
	{ "rollback", "Rolled back. The players were told by email." },
	{ "seat", "The seat has its new player; the old links no longer work." },
	{ "drop", "The player was dropped and told by email." },
	{ "extend", "The deadline was extended." },
	{ "abort", "The game was aborted. The players were told by email." },
	{ "import", "The replay file was imported and verified." },
	{ "resend", "The notification is queued again." },
	{ "revoke", "The token was revoked." },
};

const char *console_done_text(const char *code)
{
	for (size_t k = 0; code && k < sizeof(done_texts) / sizeof(done_texts[0]); k++)
		if (strcmp(code, done_texts[k].code) == 0)
			return done_texts[k].text;
	return NULL;
}

/* A JSON value as short text for a page. */
char *console_short_text(const json_t *v)
{
	char *text;

	if (!v)
		return strdup("(none)");
	if (json_is_string(v))
		text = strdup(json_string_value(v));
	else
		text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	if (text && strlen(text) > VALUE_SHOWN)
		memcpy(text + VALUE_SHOWN - 3, "...", 4);
	return text ? text : strdup("?");
}

void console_set_when(json_t *o, const char *key, int64_t ms)
{
	char t[32];

	clock_format_human(ms, t);
	json_object_set_new(o, key, json_string(t));
}
