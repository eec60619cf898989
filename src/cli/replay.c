/* replay.c: turnpost export, import and verify: a game's replay file and its check */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "engine/replay.h"
#include "engine/views.h"
#include "engine/manage.h"
#include "store/store.h"
#include "util/banned.h"

int cli_replay_export(struct cli *c)
{
	const char *path = cli_opt(c, "--output");
	struct err e = {0};
	json_t *o;
	int64_t id;
	int rc;

	if (cli_id(c, 0, &id) < 0)
		return cli_fail("export needs a game id");
	if (cli_open(c))
		return 1;
	if (replay_export(c->store, id, &o, &e) < 0)
		return cli_fail("%s", e.msg);
	rc = path ? json_dump_file(o, path, JSON_INDENT(1)) : json_dumpf(o, stdout, JSON_INDENT(1));
	if (!path)
		putchar('\n');
	json_decref(o);
	return rc < 0 ? cli_fail("cannot write %s", path ? path : "stdout") : 0;
}

int cli_replay_import(struct cli *c)
{
	const char *path = cli_arg(c, 0);
	struct actor a = { .channel = "cli", .reason = cli_opt(c, "--reason") };
	json_error_t jerr;
	struct err e = {0};
	json_t *file, *res = NULL;
	int rc;

	if (!path)
		return cli_fail("import needs a replay file");
	/* an import adds a game and changes none: the reason may be left out */
	if (!a.reason || !*a.reason)
		a.flags |= ACTOR_REASON_OPTIONAL;
	file = json_load_file(path, 0, &jerr);
	if (!file) {
		fprintf(stderr, "turnpost: %s is not JSON: %s (line %d)\n", path, jerr.text, jerr.line);
		return 1;
	}
	if (cli_open(c)) {
		json_decref(file);
		return 1;
	}
	rc = manage_import(c->store, &a, file, cli_has(c, "--notify"), &res, &e);
	json_decref(file);
	if (rc < 0)
		return cli_fail("%s", e.msg);
	printf("game %lld imported and verified\n", (long long)json_integer_value(json_object_get(res, "id")));
	json_decref(res);
	return 0;
}

int cli_replay_verify(struct cli *c)
{
	struct err e = {0};
	int64_t *ids = NULL, one;
	int n = 0, bad = 0, rc;

	if (cli_open(c))
		return 1;
	if (cli_arg(c, 0)) {
		if (cli_id(c, 0, &one) < 0)
			return cli_fail("verify takes an optional game id");
		ids = malloc(sizeof(*ids));
		if (!ids)
			return cli_fail("out of memory");
		ids[0] = one;
		n = 1;
	} else {
		if ((rc = views_game_ids(c->store, 0, 100000000, &ids, &n, &e)) < 0)
			return cli_fail("%s", e.msg);
	}
	for (int i = 0; i < n; i++) {
		int first;
		err_clear(&e);
		if (n == 1) {
			/* one game on purpose: an admin's check, written to the audit log like the page's */
			struct actor who = { .channel = "cli", .reason = cli_opt(c, "--reason") };
			rc = manage_verify(c->store, &who, ids[i], &first, NULL, &e);
		} else {
			rc = replay_verify(c->store, ids[i], &first, &e);
		}
		if (rc < 0) {
			printf("game %lld: FAILED: %s\n", (long long)ids[i], e.msg);
			bad++;
		} else {
			printf("game %lld: ok\n", (long long)ids[i]);
		}
	}
	free(ids);
	printf("%d verified, %d failed\n", n - bad, bad);
	return bad ? 1 : 0;
}
