/* engine/create.c: new games: set up, seated and invited; checked once for every door when a person asks */
/* SPDX-License-Identifier: MIT */
#include "engine/create.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/account.h"
#include "engine/engine.h"
#include "engine/registry.h"
#include "notify/notify.h"
#include "util/clock.h"
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
		const struct create_player *p = &rq->players[i];
		if (!account_valid_name(p->name)) {
			struct err why = {0};
			account_check_name(p->name, &why);
			*problem = CREATE_BAD_PLAYERS;
			return err_set(err, ERR_INPUT, "player %d needs a name of 1 to %d printable characters: %s", i + 1,
				       ACCOUNT_NAME_MAX, why.msg);
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

int create_setup_in_tx(struct store_conn *c, const struct create_spec *ng, int64_t *id,
			char (*tokens)[TOKEN_TEXT_MAX], struct err *err)
{
	const struct game_ops *ops = engine_ops_find(ng->game, err);
	struct engine_game eg = {0};
	struct store_game g = {0};
	struct game_pending p;
	char *initial = NULL, *options = NULL;
	json_t *result = NULL;
	uint64_t seed = ng->have_seed ? ng->seed : engine_new_seed();
	int64_t now = ng->created_at ? ng->created_at : clock_now_ms();
	int rc;

	*id = 0;
	if (!ops)
		return ERR_NOTFOUND;
	if (ng->nplayers < ops->min_players || ng->nplayers > ops->max_players)
		return err_set(err, ERR_INPUT, "%s is for %d to %d players, not %d", ops->title, ops->min_players,
			       ops->max_players, ng->nplayers);
	if ((rc = engine_game_setup(ops, ng->options, ng->nplayers, seed, &eg, err)) < 0)
		return rc;
	if ((rc = engine_game_encode(&eg, &initial, err)) < 0)
		goto done;
	engine_game_pending(&eg, &p);
	result = ops->result(eg.state);
	options = ng->options ? json_dumps(ng->options, JSON_COMPACT | JSON_SORT_KEYS) : strdup("{}");

	snprintf(g.game, sizeof(g.game), "%s", ops->id);
	g.options = options;
	g.seed = engine_seed_text(seed);
	snprintf(g.status, sizeof(g.status), "%s", result ? "finished" : "active");
	g.nplayers = ng->nplayers;
	g.active_seats = p.seats;
	g.initial = initial;
	g.created_by = ng->created_by;
	g.players_see_emails = ng->players_see_emails;
	g.created_at = now;
	g.updated_at = now;

	if ((rc = store_game_insert(c, &g, id, err)) < 0)
		goto done;
	for (int i = 0; i < ng->nplayers; i++) {
		struct store_seat seat = { .seat = i, .name = (char *)ng->players[i].name,
					   .email = (char *)ng->players[i].email };
		char tok[TOKEN_TEXT_MAX];
		unsigned char hash[32];

		if (seat.email && *seat.email &&
		    (rc = store_user_ensure(c, seat.email, seat.name, &seat.user_id, err)) < 0)
			goto done;
		if ((rc = store_seat_insert(c, *id, &seat, err)) < 0)
			goto done;
		token_new(tok, hash);
		if ((rc = store_token_add(c, hash, TOKEN_SEAT, seat.user_id, *id, i, "seat", 0, NULL, err)) < 0)
			goto done;
		if (tokens)
			memcpy(tokens[i], tok, TOKEN_TEXT_MAX);
		if (seat.email && *seat.email && !ng->quiet &&
		    (rc = store_outbox_add(c, "invite", *id, i, seat.user_id, NULL, now, NULL, err)) < 0)
			goto done;
	}
	if (ng->clock && (rc = store_game_clock_create(c, *id, ng->clock, ng->nplayers, result ? 0 : p.seats, now, err)) < 0)
		goto done;
	rc = 0;
done:
	if (rc < 0)
		*id = 0;
	json_decref(result);
	engine_game_release(&eg);
	free(initial);
	free(options);
	free(g.seed);
	return rc;
}

int create_setup(struct store *s, const struct create_spec *ng, int64_t *id,
		     char (*tokens)[TOKEN_TEXT_MAX], struct err *err)
{
	struct store_conn *c;
	int rc;

	*id = 0;
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = create_setup_in_tx(c, ng, id, tokens, err)) < 0) {
		store_write_rollback(c);
		*id = 0;
		return rc;
	}
	if ((rc = store_write_commit(c, err)) < 0)
		*id = 0;
	return rc;
}

int create_game(struct store *s, const struct create_request *rq, int64_t *id, char (*tokens)[TOKEN_TEXT_MAX],
		enum create_problem *problem, struct err *err)
{
	enum create_problem ignored;
	const struct game_ops *ops = NULL;
	struct create_spec ng = {0};
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
	ng.players_see_emails = rq->players_see_emails;
	ng.seed = rq->seed;
	ng.have_seed = rq->have_seed;
	ng.clock = have_clock ? &clock : NULL;
	rc = create_setup(s, &ng, id, tokens, err);
	/* the game's set-up refuses options it does not take */
	if (rc == ERR_INPUT)
		*problem = CREATE_BAD_OPTIONS;
	return rc;
}

int create_invites(const struct create_request *rq)
{
	int n = 0;

	for (int i = 0; i < rq->nplayers; i++)
		if (rq->players[i].email && *rq->players[i].email)
			n++;
	return n;
}
