/* game.c: turnpost game create, game list, game show and game find */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/create.h"
#include "engine/views.h"
#include "engine/manage.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

/* "Name <email>" or "Name" */
static int cli_game_parse_player(char *spec, struct create_player *p)
{
	char *lt = strrchr(spec, '<'), *gt; /* the last '<': names may contain one */

	p->email = NULL;
	if (lt) {
		gt = strchr(lt, '>');
		if (!gt || gt[1])
			return -1;
		*gt = '\0';
		p->email = lt + 1;
		while (lt > spec && lt[-1] == ' ')
			lt--;
		*lt = '\0';
	}
	p->name = spec;
	return *spec ? 0 : -1;
}

int cli_game_create(struct cli *c)
{
	struct create_player players[GAME_MAX_SEATS];
	char tokens[GAME_MAX_SEATS][TOKEN_TEXT_MAX];
	struct create_request ng = {0};
	json_t *options = json_object();
	struct err e = {0};
	int64_t id;
	int n = 0, rc = 0;

	ng.game = cli_arg(c, 0);
	if (!ng.game || ng.game[0] == '-') {
		json_decref(options);
		return cli_fail("game create needs a game id (see the catalog: alien-frontiers, ...)");
	}
	if (cli_arg(c, 1)) {
		rc = cli_fail("unexpected argument \"%s\"", cli_arg(c, 1));
		goto done;
	}
	for (int i = 0; i < c->nopts; i++) {
		char *value = c->opts[i].value;
		if (strcmp(c->opts[i].name, "--player") == 0) {
			if (n == GAME_MAX_SEATS || cli_game_parse_player(value, &players[n]) < 0) {
				rc = cli_fail("bad --player \"%s\": use 'Name <email>'", value);
				goto done;
			}
			n++;
		} else if (strcmp(c->opts[i].name, "--option") == 0) {
			char *eq = strchr(value, '=');
			json_t *v;
			if (!eq) {
				rc = cli_fail("bad --option \"%s\": use KEY=VALUE (VALUE as JSON)", value);
				goto done;
			}
			*eq = '\0';
			v = json_loads(eq + 1, JSON_DECODE_ANY, NULL);
			json_object_set_new(options, value, v ? v : json_string(eq + 1));
		} else if (strcmp(c->opts[i].name, "--seed") == 0) {
			char *end;
			ng.seed = strtoull(value, &end, 10);
			if (*end) {
				rc = cli_fail("--seed must be a number");
				goto done;
			}
			ng.have_seed = 1;
		}
	}
	if (cli_open(c)) {
		rc = 1;
		goto done;
	}
	ng.options = options;
	ng.players = players;
	ng.nplayers = n;
	if (create_game(c->store, &ng, &id, tokens, NULL, &e) < 0) {
		rc = cli_fail("%s", e.msg);
		goto done;
	}
	printf("game %lld created\n", (long long)id);
	for (int i = 0; i < n; i++)
		printf("seat %d\t%s\t%s\t%s\n", i, players[i].name, players[i].email ? players[i].email : "-", tokens[i]);
done:
	json_decref(options);
	return rc;
}

int cli_game_list(struct cli *c)
{
	struct err e = {0};
	int64_t *ids = NULL;
	int n = 0, rc;

	if (cli_open(c))
		return 1;
	if ((rc = views_game_ids(c->store, 0, 1000000, &ids, &n, &e)) < 0)
		return cli_fail("%s", e.msg);
	for (int i = 0; i < n; i++) {
		struct store_game g;
		struct store_seat *seats;
		int nseats;
		char when[32];
		if (views_game_info(c->store, ids[i], &g, &seats, &nseats, &e) < 0)
			continue;
		clock_format_utc(g.updated_at, when);
		printf("%lld\t%s\t%s\t%d steps\t%s\t", (long long)g.id, g.game, g.status, g.move_count, when);
		for (int k = 0; k < nseats; k++)
			printf("%s%s", k ? ", " : "", seats[k].name);
		putchar('\n');
		views_game_info_release(&g, seats, nseats);
	}
	free(ids);
	return 0;
}

int cli_game_show(struct cli *c)
{
	struct err e = {0};
	json_t *o;
	int64_t id;

	if (cli_id(c, 0, &id) < 0)
		return cli_fail("game show needs a game id");
	if (cli_open(c))
		return 1;
	if (views_game_json(c->store, id, -1, 1, &o, &e) < 0)
		return cli_fail("%s", e.msg);
	json_dumpf(o, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(o);
	return 0;
}

int cli_game_find(struct cli *c)
{
	struct store_game_filter f = { .game = cli_opt(c, "--game"), .status = cli_opt(c, "--status"),
					.email = cli_opt(c, "--email"), .dead = cli_has(c, "--dead") };
	const char *days = cli_opt(c, "--waiting-days");
	struct err e = {0};
	json_t *list;

	if (days)
		f.idle_before = clock_now_ms() - (int64_t)(strtod(days, NULL) * 86400000.0);
	if (cli_open(c))
		return 1;
	if (manage_games(c->store, &f, &list, &e) < 0)
		return cli_fail("%s", e.msg);
	json_dumpf(list, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(list);
	return 0;
}
