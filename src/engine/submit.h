/* engine/submit.h: steps stored: a seat's lines applied all or nothing, undo, an admin's rollback */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_SUBMIT_H
#define TURNPOST_ENGINE_SUBMIT_H

#include <jansson.h>
#include <stdint.h>

#include "engine/engine.h"
#include "store/store.h"
#include "util/err.h"

#define SUBMIT_MAX_LINES 64
#define SUBMIT_MAX_LINE 512

struct submit_request {
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
	int undo_after_turn;    /* replay_import: an undo after the turn passed is taken, as it was before that
				   was refused (files written then still import) */
	int quiet;              /* queue no notification (replay_import tells the seats once, at the end) */
};

struct submit_outcome {
	int failed_line;  /* 1-based line that failed, 0 when none */
	int untried;      /* stored but refused after a step that revealed something: the lines not applied
			     (failed_line says which was refused; the answer's "refused" and "not_applied") */
	int replayed;     /* 1 when this is the stored answer to an earlier identical request */
	int status;       /* HTTP status of a replayed answer */
	const char *code; /* on some errors, a machine word for the API's problem ("step_too_long"); else NULL */
};

/*
 * Apply lines for seat, all or nothing, in one transaction with the new
 * snapshots and the notifications they cause. "undo" is a line too. All or
 * nothing up to a step that reveals new information (a roll, a draw): when
 * a later line is refused, the steps through the last such step are stored
 * and the answer (0) adds "refused" {"line","text","detail"}, "not_applied"
 * (the lines after it) and "note"; out->untried and out->failed_line say so.
 * *result is a new JSON object {"game","move_count","applied":[{"n","text"}],"status",
 * "active_seats","pending","view"} ("view" left out when rq->no_view and no idempotency key is
 * given); for an idempotent replay it is the first answer.
 * Errors: ERR_NOTFOUND, ERR_STALE (If-Match), ERR_FORBIDDEN (not this seat's turn),
 * ERR_ILLEGAL (with out->failed_line), ERR_INPUT (a step over SUBMIT_MAX_LINE characters, with
 * out->failed_line and code "step_too_long"), ERR_ILLEGAL (the Idempotency-Key was used for
 * another request, code "idempotency_key_reused", no failed_line).
 */
int submit_steps(struct store *s, const struct submit_request *rq, json_t **result, struct submit_outcome *out,
		struct err *err);
/*
 * submit_steps without waiting for the disk. The request is checked and its
 * rows written on this thread; when that fails, its error is returned (and
 * *out says which line). Else 0: *pending holds the submission, whose write
 * waits for its group's commit and sync, and done(arg) is called exactly
 * once when that is over, from any thread (maybe this one, before this
 * returns) and maybe with the store's mutexes held: it must only hand on
 * the news. Then, and not before this returned, submit_finish gives
 * submit_steps's outcome and frees the submission: its steps were legal, so
 * a failure then is the store's (out->failed_line 0). rq need only live
 * until this returns.
 */
struct submit_pending;
typedef void (*submit_done_fn)(void *arg);
int submit_start(struct store *s, const struct submit_request *rq, submit_done_fn done, void *arg,
		      struct submit_pending **pending, struct submit_outcome *out, struct err *err);
int submit_finish(struct submit_pending *pp, json_t **result, struct submit_outcome *out, struct err *err);

/*
 * Append an admin's rollback to step to inside the caller's write
 * transaction: a step of kind STORE_MOVE_ROLLBACK (target to, seat -1, via
 * "admin", text "rollback to N") holding step to's position; the game's
 * status, pending seats and clocks follow it. notify: queue a "rollback"
 * outbox row ({"to":N,"reason":...}) for every seated player. before and
 * after (may be NULL) receive the move count before and after. ERR_INPUT
 * when to is not an earlier step, ERR_CONFLICT for an aborted game.
 */
int submit_rollback_in_tx(struct store_conn *c, int64_t game_id, int to, const char *client, int64_t at,
			  const char *reason, int notify, int *before, int *after, struct err *err);
/* submit_steps inside the caller's write transaction, which it neither commits nor rolls back (replay_import). */
int submit_in_tx(struct store_conn *c, const struct submit_request *rq, json_t **result, struct submit_outcome *out,
		 struct err *err);

#endif
