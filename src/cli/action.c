/* action.c: turnpost's admin actions (rollback, seat replace, drop, extend, abort) and the audit log */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/game.h"
#include "engine/manage.h"
#include "util/banned.h"

/* The --reason of an admin action; NULL (after a message) when missing. */
static const char *cli_action_reason(const struct cli *c)
{
	const char *reason = cli_opt(c, "--reason");

	if (!reason || !*reason)
		cli_fail("this needs --reason TEXT: why (it goes into the audit log)");
	return reason;
}

/* Print an action's summary and close the command. */
static int cli_action_done(int rc, json_t *res, const struct err *e)
{
	if (rc < 0) {
		json_decref(res);
		return cli_fail("%s", e->msg);
	}
	json_dumpf(res, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(res);
	return 0;
}

/* "GAME SEAT" at positionals at, at+1; seat may be 0. */
static int cli_action_game_seat(const struct cli *c, int at, int64_t *id, int *seat)
{
	const char *s = cli_arg(c, at + 1);
	char *end;
	long v;

	if (cli_id(c, at, id) < 0 || !s)
		return -1;
	v = strtol(s, &end, 10);
	if (*end || end == s || v < 0 || v >= GAME_MAX_SEATS)
		return -1;
	*seat = (int)v;
	return 0;
}

int cli_action_rollback(struct cli *c)
{
	struct actor a = { .channel = "cli" };
	const char *step = cli_arg(c, 1);
	struct err e = {0};
	json_t *res = NULL;
	int rc;
	int64_t id, to;

	if (cli_id(c, 0, &id) < 0 || !step || (strcmp(step, "0") != 0 && cli_id(c, 1, &to) < 0)) {
		cli_fail("usage: turnpost rollback GAME STEP --reason TEXT (STEP 0 is the set-up)");
		return 2;
	}
	if (strcmp(step, "0") == 0)
		to = 0;
	if (!(a.reason = cli_action_reason(c)))
		return 2;
	if (cli_open(c))
		return 1;
	rc = manage_rollback(c->store, &a, id, (int)to, &res, &e);
	return cli_action_done(rc, res, &e);
}

int cli_action_seat_replace(struct cli *c)
{
	struct actor a = { .channel = "cli" };
	struct err e = {0};
	json_t *res = NULL;
	int rc;
	int64_t id;
	int seat;

	if (cli_action_game_seat(c, 0, &id, &seat) < 0) {
		cli_fail("usage: turnpost seat replace GAME SEAT [--email E] [--name N] --reason TEXT");
		return 2;
	}
	if (!(a.reason = cli_action_reason(c)))
		return 2;
	if (cli_open(c))
		return 1;
	rc = manage_seat_replace(c->store, &a, id, seat, cli_opt(c, "--name"), cli_opt(c, "--email"), &res, &e);
	return cli_action_done(rc, res, &e);
}

int cli_action_drop(struct cli *c)
{
	struct actor a = { .channel = "cli" };
	struct err e = {0};
	json_t *res = NULL;
	int rc;
	int64_t id;
	int seat;

	if (cli_action_game_seat(c, 0, &id, &seat) < 0) {
		cli_fail("usage: turnpost drop GAME SEAT --reason TEXT");
		return 2;
	}
	if (!(a.reason = cli_action_reason(c)))
		return 2;
	if (cli_open(c))
		return 1;
	rc = manage_drop(c->store, &a, id, seat, &res, &e);
	return cli_action_done(rc, res, &e);
}

int cli_action_extend(struct cli *c)
{
	struct actor a = { .channel = "cli" };
	const char *hours = cli_opt(c, "--hours");
	struct err e = {0};
	json_t *res = NULL;
	int rc;
	int64_t id;
	double h = 0;
	char *end = NULL;
	int seat;

	if (hours)
		h = strtod(hours, &end);
	if (cli_action_game_seat(c, 0, &id, &seat) < 0 || !hours || *end || h <= 0) {
		cli_fail("usage: turnpost extend GAME SEAT --hours H --reason TEXT");
		return 2;
	}
	if (!(a.reason = cli_action_reason(c)))
		return 2;
	if (cli_open(c))
		return 1;
	rc = manage_extend(c->store, &a, id, seat, (int64_t)(h * 3600000.0 + 0.5), &res, &e);
	return cli_action_done(rc, res, &e);
}

int cli_action_abort(struct cli *c)
{
	struct actor a = { .channel = "cli" };
	struct err e = {0};
	json_t *res = NULL;
	int rc;
	int64_t id;

	if (cli_id(c, 0, &id) < 0) {
		cli_fail("usage: turnpost abort GAME --reason TEXT");
		return 2;
	}
	if (!(a.reason = cli_action_reason(c)))
		return 2;
	if (cli_open(c))
		return 1;
	rc = manage_abort(c->store, &a, id, &res, &e);
	return cli_action_done(rc, res, &e);
}

int cli_action_audit(struct cli *c)
{
	struct store_audit_filter f = { .action = cli_opt(c, "--action") };
	const char *game = cli_opt(c, "--game"), *limit = cli_opt(c, "--limit");
	struct err e = {0};
	json_t *list, *row;
	size_t i;

	if (game)
		f.game_id = strtoll(game, NULL, 10);
	if (limit)
		f.limit = (int)strtol(limit, NULL, 10);
	if (cli_open(c))
		return 1;
	if (manage_audit(c->store, &f, &list, &e) < 0)
		return cli_fail("%s", e.msg);
	printf("id\ttime\tactor\taction\tgame\tsteps\treason\tdetail\n");
	json_array_foreach(list, i, row) {
		char *detail = json_dumps(json_object_get(row, "detail"), JSON_COMPACT | JSON_SORT_KEYS);
		const char *email = json_string_value(json_object_get(row, "actor_email"));
		const char *reason = json_string_value(json_object_get(row, "reason"));
		json_t *before = json_object_get(row, "before"), *after = json_object_get(row, "after");
		printf("%lld\t%s\t%s%s%s\t%s\t%lld\t%lld->%lld\t%s\t%s\n",
		       (long long)json_integer_value(json_object_get(row, "id")),
		       json_string_value(json_object_get(row, "time")), email ? email : "", email ? " via " : "",
		       json_string_value(json_object_get(row, "actor")), json_string_value(json_object_get(row, "action")),
		       (long long)json_integer_value(json_object_get(row, "game")),
		       (long long)(json_is_integer(before) ? json_integer_value(before) : -1),
		       (long long)(json_is_integer(after) ? json_integer_value(after) : -1), reason ? reason : "-",
		       detail ? detail : "{}");
		free(detail);
	}
	json_decref(list);
	return 0;
}
