/* engine/manage.h: the admin console's reads and actions on stored games (rollback, seats, clocks, audit) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_MANAGE_H
#define TURNPOST_ENGINE_MANAGE_H

#include <jansson.h>
#include <stdint.h>

#include "engine/actor.h"
#include "engine/engine.h"
#include "store/store.h"
#include "util/err.h"


/*
 * ---- rollback ----
 * The move log stays append-only: rolling back to step N appends an admin
 * step of kind STORE_MOVE_ROLLBACK with target N (seat -1, via "admin",
 * text "rollback to N" for people to read) whose snapshot is step N's. The game goes on from there; the move count keeps growing (so a
 * page or client holding the old count gets 412), verify replays the step
 * as "the position of step N again", and export/import carry it like any
 * other step. Nobody can undo across it. Rolling back restores step N's
 * random generator too: the same steps draw the same numbers again.
 */

/* ---- actions: one transaction each, with the audit row; *out (may be NULL) gets a new summary object ---- */

/* Roll back to step to (0: the set-up); the players are told. */
int manage_rollback(struct store *s, const struct actor *a, int64_t game_id, int to, json_t **out,
			struct err *err);
/*
 * Give seat another player: email (NULL or "": the seat has no player and
 * anyone may join it) and name (NULL: the account's name, else the seat's).
 * The seat's old links (seat tokens) stop working, a new seat token is made
 * ("token" in *out, shown once) and the new player is invited. A seat the
 * bot played after a drop is a person's again.
 */
int manage_seat_replace(struct store *s, const struct actor *a, int64_t game_id, int seat,
			    const char *name, const char *email, json_t **out, struct err *err);
/*
 * Drop a seat's player. When the game has a bot, the bot plays the seat from
 * now on (the notifier plays it as soon as it is the seat's turn; a game
 * without a time control gets a dormant one for this: a year per turn,
 * "notify" on timeout); the seat leaves its player, and its links stop
 * working. A game without a bot cannot go on and is aborted (the other
 * players get an "abort" notification). The dropped player gets a "dropped"
 * one ({"action":"bot"|"aborted","name","reason"}).
 * *out has "outcome": "bot" or "aborted".
 */
int manage_drop(struct store *s, const struct actor *a, int64_t game_id, int seat, json_t **out,
		    struct err *err);
/* Extend the running deadline of seat by add_ms (1 minute to 366 days); *out has the new "deadline". */
int manage_extend(struct store *s, const struct actor *a, int64_t game_id, int seat, int64_t add_ms,
		      json_t **out, struct err *err);
/* End an active game without a result (status "aborted"); its clocks stop; every seated player is told ("abort"). */
int manage_abort(struct store *s, const struct actor *a, int64_t game_id, json_t **out,
		     struct err *err);
/*
 * Import a replay file (replay_import; notify: an invitation per seat), verify
 * it and write the audit row ("import", with "notify"); *out has the new "id".
 */
int manage_import(struct store *s, const struct actor *a, const json_t *file, int notify, json_t **out,
		      struct err *err);

/*
 * Replay a game from its set-up and log (replay_verify) and write an audit row
 * "verify" whose detail holds the result: {"ok":true} or {"ok":false,
 * "first_difference":N,"difference":"..."}. The reason is optional here
 * (verify changes nothing). Returns replay_verify's answer: 0 when every
 * snapshot replays; ERR_CONFLICT with *first_bad and err's message when one
 * does not (both write the row); other errors (no such game) write none.
 * *out (may be NULL) gets the result as {"game","ok",...}.
 */
int manage_verify(struct store *s, const struct actor *a, int64_t game_id, int *first_bad,
		      json_t **out, struct err *err);

/* ---- reads (all *out new) ---- */

/*
 * Games matching the filter: [{"id","game","title","status","move_count",
 * "active_seats","seats":[{"seat","name","email"}],"dead","created_at","updated_at"}].
 */
int manage_games(struct store *s, const struct store_game_filter *f, json_t **out, struct err *err);
/*
 * One game for the console: the spectator's game object (views_game_json with
 * emails) plus per seat "user_id", "clock" and "tokens", and "clock_mode",
 * "dead", "notifications" (see outbox_row_json), "chat".
 */
int manage_game(struct store *s, int64_t id, json_t **out, struct err *err);
/* {"game","move_count","steps":[{"n","seat","player","text","via","at","time","client"}]}. */
int manage_timeline(struct store *s, int64_t id, json_t **out, struct err *err);
/*
 * The position after step n (0: the set-up), from its stored snapshot:
 * {"game","id","title","n","move_count","step" (null for the set-up),"view" (spectator),
 *  "pending","result","seats":[{"seat","name"}]}. ERR_NOTFOUND when there is no such step.
 */
int manage_position(struct store *s, int64_t id, int n, json_t **out, struct err *err);
/*
 * What changed from a to b: [{"path":"players[1].ore","before":...,"after":...}]
 * (a missing side is absent), at most max entries (0: 500). New.
 */
json_t *manage_diff(const json_t *a, const json_t *b, size_t max);
/*
 * Who sat in each seat when: the seat changes of a game (replacements and
 * drops, from the audit log). manage_eras_name gives the name of the player
 * in seat at step n, seats being the game's seats now (borrowed; "admin" for
 * seat -1). *out new: manage_eras_free it (NULL is fine).
 */
struct manage_eras;
int manage_eras_load(struct store_conn *c, int64_t game_id, struct manage_eras **out, struct err *err);
const char *manage_eras_name(const struct manage_eras *e, int seat, int n, const struct store_seat *seats,
			     int nseats);
/* A text that changes whenever the eras do (a cache's key). New (free()). */
char *manage_eras_key(const struct manage_eras *e);
void manage_eras_free(struct manage_eras *e);
/* The audit log: [{"id","at","time","actor","actor_user_id","actor_email","action","game","reason","before","after","detail"}]. */
int manage_audit(struct store *s, const struct store_audit_filter *f, json_t **out, struct err *err);

#endif
