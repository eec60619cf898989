/* outbox.c: turnpost outbox list and outbox resend: the notifications and their delivery */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/outbox.h"
#include "util/clock.h"
#include "util/banned.h"

/* A field of an outbox row's JSON as text: "-" for null. */
static const char *field(const json_t *row, const char *name, char *buf, size_t size)
{
	const json_t *v = json_object_get(row, name);

	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
		return buf;
	}
	return "-";
}

int cli_outbox_list(struct cli *c)
{
	struct err e = {0};
	const char *state = cli_opt(c, "--state"), *limit = cli_opt(c, "--limit");
	json_t *list = NULL, *row;
	size_t i;

	if (cli_has(c, "--dead"))
		state = "dead";
	if (!outbox_state_valid(state))
		return cli_fail("--state must be pending, sent, dead or skipped");
	if (cli_open(c))
		return 1;
	if (outbox_list(c->store, state, limit ? (int)strtol(limit, NULL, 10) : 100, &list, &e) < 0)
		return cli_fail("%s", e.msg);
	printf("id\tevent\tgame\tseat\tuser\tstate\tattempts\tnext\tlast error\n");
	json_array_foreach(list, i, row) {
		char id[24], game[24], seat[24], user[24], attempts[24], next[32] = "-";
		if (json_is_integer(json_object_get(row, "next_at")))
			clock_format_utc(json_integer_value(json_object_get(row, "next_at")), next);
		printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", field(row, "id", id, sizeof(id)),
		       field(row, "event", NULL, 0), field(row, "game", game, sizeof(game)),
		       field(row, "seat", seat, sizeof(seat)), field(row, "user", user, sizeof(user)),
		       field(row, "state", NULL, 0), field(row, "attempts", attempts, sizeof(attempts)), next,
		       field(row, "last_error", NULL, 0));
	}
	json_decref(list);
	return 0;
}

int cli_outbox_resend(struct cli *c)
{
	struct actor a = { .channel = "cli", .reason = cli_opt(c, "--reason"), .flags = ACTOR_REASON_OPTIONAL };
	struct err e = {0};
	int64_t id;

	if (cli_id(c, 0, &id)) {
		cli_fail("outbox resend needs the id of a notification (see outbox list --dead)");
		return 2;
	}
	if (cli_open(c))
		return 1;
	if (outbox_resend(c->store, &a, id, NULL, &e) < 0)
		return cli_fail("%s", e.msg);
	printf("notification %lld queued again; a running turnpostd delivers it within a second\n", (long long)id);
	return 0;
}
