/* engine/create.h: new games: set up, seated and invited; checked once for every door when a person asks */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_CREATE_H
#define TURNPOST_ENGINE_CREATE_H

#include <jansson.h>
#include <stdint.h>

#include "engine/game.h"
#include "store/store.h"
#include "util/err.h"
#include "util/token.h"

struct create_player {
	const char *name;
	const char *email; /* may be NULL */
};

struct create_spec {
	const char *game;        /* registry id */
	const json_t *options;   /* may be NULL */
	const struct create_player *players;
	int nplayers;
	int64_t created_by;      /* user id or 0 */
	uint64_t seed;           /* used when have_seed */
	int have_seed;
	int64_t created_at;      /* 0: now */
	int quiet;               /* no invitations (imports) */
	int players_see_emails;  /* the players see each other's email addresses */
	const struct store_game_clock *clock; /* time control; NULL: none */
};

/*
 * Set up a game as given, without the checks create_game makes for people
 * (imports, tests): set-up, seats (users made for new emails), one seat token
 * per seat and an "invite" outbox row per seat with an email, in one
 * transaction. tokens (may be NULL) receives each seat's token text.
 */
int create_setup(struct store *s, const struct create_spec *ng, int64_t *id, char (*tokens)[TOKEN_TEXT_MAX],
		 struct err *err);
/* create_setup inside the caller's write transaction (replay_import). */
int create_setup_in_tx(struct store_conn *c, const struct create_spec *ng, int64_t *id,
		       char (*tokens)[TOKEN_TEXT_MAX], struct err *err);
/* What was wrong with a request, for a client that wants to know which part (the API's problem codes). */
enum create_problem {
	CREATE_OK = 0,
	CREATE_UNKNOWN_GAME, /* "unknown_game": no such game is hosted */
	CREATE_BAD_PLAYERS,  /* "bad_players": too few or many players, or a bad name */
	CREATE_BAD_EMAIL,    /* "bad_email": a player's email is not an address */
	CREATE_BAD_OPTIONS,  /* "bad_options": options not an object, or refused by the game */
	CREATE_BAD_CLOCK     /* "bad_clock": a time control that does not parse or needs a bot the game lacks */
};

/* The stable code of a problem ("unknown_game", ...), NULL for CREATE_OK. */
const char *create_problem_code(enum create_problem p);

struct create_request {
	const char *game;                  /* registry id */
	const json_t *options;             /* NULL: none; else must be an object */
	const struct create_player *players; /* names (account_valid_name) and emails (NULL: none) */
	int nplayers;
	const json_t *clock;               /* a time control as notify_clock_parse reads it; NULL or null: none */
	int64_t created_by;                /* user id or 0 */
	uint64_t seed;                     /* used when have_seed */
	int have_seed;
	int players_see_emails;            /* the creator's choice: players see each other's addresses */
};

/*
 * Check a request as every door (API, pages, command line) has it checked,
 * then set it up (create_setup: seats, seat tokens, invitations,
 * clock) in one transaction. *id gets the game (0 on failure); tokens (may
 * be NULL) each seat's token text. Failures: ERR_INPUT with *problem (may
 * be NULL) saying which part and a message a person can act on; the
 * store's errors with CREATE_OK. No audit row.
 */
/* How many of rq's players are invited by email (have an address). */
int create_invites(const struct create_request *rq);

int create_game(struct store *s, const struct create_request *rq, int64_t *id, char (*tokens)[TOKEN_TEXT_MAX],
		enum create_problem *problem, struct err *err);

#endif
