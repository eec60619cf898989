/* engine/play.h: games as stored: create, submit steps, undo, views, verify, export and import */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_PLAY_H
#define TURNPOST_ENGINE_PLAY_H

#include <jansson.h>
#include <stdint.h>

#include "engine/engine.h"
#include "store/store.h"
#include "util/token.h"

#define PLAY_MAX_LINES 64
#define PLAY_MAX_LINE 512

struct play_player {
	const char *name;
	const char *email; /* may be NULL */
};

struct play_new_game {
	const char *game;        /* registry id */
	const json_t *options;   /* may be NULL */
	const struct play_player *players;
	int nplayers;
	int64_t created_by;      /* user id or 0 */
	uint64_t seed;           /* used when have_seed */
	int have_seed;
	int64_t created_at;      /* 0: now */
	int quiet;               /* no invitations (imports) */
	const struct store_game_clock *clock; /* time control; NULL: none */
};

/*
 * Create a game: set-up, seats (users made for new emails), one seat token
 * per seat and an "invite" outbox row per seat with an email, in one
 * transaction. tokens (may be NULL) receives each seat's token text.
 */
int play_game_create(struct store *s, const struct play_new_game *ng, int64_t *id,
		     char (*tokens)[TOKEN_TEXT_MAX], struct err *err);

struct play_submit {
	int64_t game_id;
	int seat;
	const char *const *lines;
	int nlines;
	const char *via;        /* "web", "api", "email", "bot", ... */
	const char *client;     /* client address or NULL */
	int if_match;           /* expected move count, -1 for none */
	int64_t idem_token;     /* token id for Idempotency-Key, 0 for none */
	const char *idem_key;   /* NULL for none */
	const unsigned char *request_hash; /* 32 bytes when idem_key is set */
	int64_t at;             /* 0: now */
	int no_view;            /* the answer leaves out "view" (Prefer: return=minimal) */
};

struct play_outcome {
	int failed_line;  /* 1-based line that failed, 0 when none */
	int replayed;     /* 1 when this is the stored answer to an earlier identical request */
	int status;       /* HTTP status of a replayed answer */
};

/*
 * Apply lines for seat, all or nothing, in one transaction with the new
 * snapshots and the notifications they cause. "undo" is a line too.
 * *result is a new JSON object {"game","move_count","applied":[{"n","text"}],"status",
 * "active_seats","pending","view"} ("view" left out when rq->no_view and no idempotency key is
 * given); for an idempotent replay it is the first answer.
 * Errors: ERR_NOTFOUND, ERR_STALE (If-Match), ERR_FORBIDDEN (not this seat's turn),
 * ERR_ILLEGAL (with out->failed_line), ERR_INPUT (key reused with another request).
 */
int play_submit(struct store *s, const struct play_submit *rq, json_t **result, struct play_outcome *out,
		struct err *err);
/*
 * play_submit without waiting for the disk. The request is checked and its
 * rows written on this thread; when that fails, its error is returned (and
 * *out says which line). Else 0: *pending holds the submission, whose write
 * waits for its group's commit and sync, and done(arg) is called exactly
 * once when that is over, from any thread (maybe this one, before this
 * returns) and maybe with the store's mutexes held: it must only hand on
 * the news. Then, and not before this returned, play_submit_finish gives
 * play_submit's outcome and frees the submission: its steps were legal, so
 * a failure then is the store's (out->failed_line 0). rq need only live
 * until this returns.
 */
struct play_pending;
typedef void (*play_done_fn)(void *arg);
int play_submit_start(struct store *s, const struct play_submit *rq, play_done_fn done, void *arg,
		      struct play_pending **pending, struct play_outcome *out, struct err *err);
int play_submit_finish(struct play_pending *pp, json_t **result, struct play_outcome *out, struct err *err);

/* Game ids, newest first: all (user_id 0) or those where user_id holds a seat; at most limit. *ids new (free()). */
int play_game_ids(struct store *s, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err);
/* Ids of active games with a seat user_id could join (see join_game), newest first; *ids new (free()). */
int play_games_open(struct store *s, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err);

/* The game row's move count (cheap, for If-None-Match). */
int play_move_count(struct store *s, int64_t id, int *move_count, struct err *err);

/*
 * The game as the API shows it to viewer_seat (-1: spectator):
 * {"id","game","title","status","move_count","active_seats","pending","seats","view","result"}. New.
 * with_emails: include the seats' emails (admins and players of the game).
 */
int play_game_json(struct store *s, int64_t id, int viewer_seat, int with_emails, json_t **out,
		   struct err *err);
/*
 * The stored game row and seats: release them with play_game_info_release.
 * On failure there is nothing to release (*g zeroed, *seats NULL, *nseats 0;
 * releasing them anyway is harmless).
 */
int play_game_info(struct store *s, int64_t id, struct store_game *g, struct store_seat **seats, int *nseats,
		   struct err *err);
void play_game_info_release(struct store_game *g, struct store_seat *seats, int nseats);
/* {"move_count":n,"seat":s,"moves":[...]} for seat. New. */
int play_legal_json(struct store *s, int64_t id, int seat, json_t **out, struct err *err);
/* {"moves":[{"n","seat","text","via","at"}]}. New. */
int play_moves_json(struct store *s, int64_t id, json_t **out, struct err *err);

/*
 * Replay the game from its seed and log and compare every stored snapshot.
 * 0 when all match; ERR_CONFLICT with the first difference in err otherwise
 * (*first_bad = that step, 0 for the set-up).
 */
int play_verify(struct store *s, int64_t id, int *first_bad, struct err *err);

/* The replay file {"format":"turnpost-replay","version":1,"game","options","seed","seats","moves"}. New. */
int play_export(struct store *s, int64_t id, json_t **out, struct err *err);
/* Create a game from a replay file, replaying every step, in one transaction: all or nothing. */
int play_import(struct store *s, const json_t *file, int64_t created_by, int64_t *id, struct err *err);

#endif
