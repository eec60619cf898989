/* engine/create.c: a new game as a person asks for it: checked once for every door, then created */
/* SPDX-License-Identifier: MIT */
#include "engine/create.h"

#include <stdio.h>
#include <string.h>

#include "engine/account.h"
#include "engine/registry.h"
#include "notify/notify.h"
#include "util/banned.h"

const char *create_problem_code(enum create_problem p)
{
	switch (p) {
	case CREATE_UNKNOWN_GAME:
		return "unknown_game";
	case CREATE_BAD_PLAYERS:
		return "bad_players";
	case CREATE_BAD_EMAIL:
		return "bad_email";
	case CREATE_BAD_OPTIONS:
		return "bad_options";
	case CREATE_BAD_CLOCK:
		return "bad_clock";
	case CREATE_OK:
		break;
	}
	return NULL;
}

/* Check rq; fills *clock and *have_clock. */
static int check(const struct create_request *rq, const struct game_ops **ops, struct store_game_clock *clock,
		 int *have_clock, enum create_problem *problem, struct err *err)
{
	*have_clock = 0;
	if (!rq->game || !(*ops = registry_find(rq->game))) {
		*problem = CREATE_UNKNOWN_GAME;
		return rq->game ? err_set(err, ERR_INPUT, "no game called \"%.60s\" is hosted here (see /api/v1/catalog)",
					  rq->game)
				: err_set(err, ERR_INPUT, "choose one of the games (see /api/v1/catalog)");
	}
	if (rq->nplayers < (*ops)->min_players || rq->nplayers > (*ops)->max_players) {
		*problem = CREATE_BAD_PLAYERS;
		return err_set(err, ERR_INPUT, "%s needs %d to %d players; you listed %d", (*ops)->title,
			       (*ops)->min_players, (*ops)->max_players, rq->nplayers);
	}
	for (int i = 0; i < rq->nplayers; i++) {
		const struct play_player *p = &rq->players[i];
		if (!account_valid_name(p->name)) {
			*problem = CREATE_BAD_PLAYERS;
			return err_set(err, ERR_INPUT, "player %d needs a name of 1 to %d printable characters", i + 1,
				       ACCOUNT_NAME_MAX);
		}
		if (p->email && !account_valid_email(p->email)) {
			*problem = CREATE_BAD_EMAIL;
			return err_set(err, ERR_INPUT, "player %d: \"%.60s\" is not an email address", i + 1, p->email);
		}
	}
	if (rq->options && !json_is_object(rq->options)) {
		*problem = CREATE_BAD_OPTIONS;
		return err_set(err, ERR_INPUT, "the options must be an object");
	}
	if (rq->clock && !json_is_null(rq->clock)) {
		if (notify_clock_parse(rq->clock, clock, err) < 0) {
			*problem = CREATE_BAD_CLOCK;
			err->code = ERR_INPUT;
			return ERR_INPUT;
		}
		if ((!strcmp(clock->timeout, "bot") || !strcmp(clock->timeout, "drop")) && !(*ops)->bot) {
			*problem = CREATE_BAD_CLOCK;
			return err_set(err, ERR_INPUT,
				       "%s has no bot to play for a player who runs out of time: let the others be "
				       "notified instead (timeout \"notify\")", (*ops)->title);
		}
		*have_clock = 1;
	}
	return 0;
}

int create_game(struct store *s, const struct create_request *rq, int64_t *id, char (*tokens)[TOKEN_TEXT_MAX],
		enum create_problem *problem, struct err *err)
{
	enum create_problem ignored;
	const struct game_ops *ops = NULL;
	struct play_new_game ng = {0};
	struct store_game_clock clock = {0};
	int have_clock, rc;

	if (!problem)
		problem = &ignored;
	*problem = CREATE_OK;
	*id = 0;
	if ((rc = check(rq, &ops, &clock, &have_clock, problem, err)) < 0)
		return rc;
	ng.game = ops->id;
	ng.options = rq->options;
	ng.players = rq->players;
	ng.nplayers = rq->nplayers;
	ng.created_by = rq->created_by;
	ng.seed = rq->seed;
	ng.have_seed = rq->have_seed;
	ng.clock = have_clock ? &clock : NULL;
	rc = play_game_create(s, &ng, id, tokens, err);
	/* the game's set-up refuses options it does not take */
	if (rc == ERR_INPUT)
		*problem = CREATE_BAD_OPTIONS;
	return rc;
}
