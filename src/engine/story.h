/* engine/story.h: the story of a game: its stored steps as sentences a reader may see */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_STORY_H
#define TURNPOST_ENGINE_STORY_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"
#include "store/store.h"
#include "util/err.h"

/*
 * The log of a game as one reader may see it. Every stored step becomes one
 * entry {"n","seat","name","text","at","channel"}: text is the game's
 * describe() of the step for that reader (from the stored positions before
 * and after it), or, for a game without describe(), "Name: <the step's
 * canonical text>"; never a seat number. An undo reads "Name took back a
 * step", an admin's rollback "An admin rolled the game back to step N".
 *
 * Undone steps are the business of the player who took them back: for any
 * other reader a step that was undone and the undo itself are left out.
 * The player who undid (and an admin, GAME_VIEWER_ALL) sees both: the undone
 * step with "undone": true and the undo with "kind": "undo". A rollback has
 * "kind": "rollback" and "to", and is shown to everyone; the steps it took
 * back stay in the log (everybody saw them).
 *
 * Sentences are kept in a process-wide cache by (store, game, step, reader),
 * valid while the seats' names are the ones they were written with (a
 * stored step never changes), so a log after one more step describes only
 * that step. The log itself is kept the same way for each reader, with the
 * number of steps it tells: a read when nothing was stored since takes it
 * whole, a read after more steps reads and adds only those (the whole log
 * is made again when one of them is an undo, which changes earlier
 * entries).
 */

/*
 * viewer: a seat, -1 (a spectator) or GAME_VIEWER_ALL. *entries: a new
 * array, oldest first; its entries are shared with the cache: read them,
 * never change them.
 */
int story_log(struct store *s, int64_t id, int viewer, json_t **entries, struct err *err);

/*
 * What happened since seat's last step in entries (story_log's array, for
 * that seat): a new array of the entries after the seat's last own step
 * that was not undone (all of them when the seat has none), at most max of
 * the newest (0: no limit), oldest first.
 */
json_t *story_since(const json_t *entries, int seat, int max);

/*
 * The position after step n (0: the set-up) as viewer sees it, for a replay:
 * {"n","move_count","view","entry" (story_log's entry for n; null for the
 * set-up or a step viewer may not see), "changed" ([{"path",...}] what
 * changed in viewer's view from the step before), "steps" (the numbers of
 * the entries viewer may see, oldest first: the replay's stops)}. ERR_NOTFOUND
 * when n is not a step of the game. New.
 */
int story_position(struct store *s, int64_t id, int n, int viewer, json_t **out, struct err *err);

/*
 * story_position's "view" alone: the position after step n as viewer sees
 * it, when viewer may see step n (or n is 0). *view new. ERR_NOTFOUND as
 * story_position.
 */
int story_view(struct store *s, int64_t id, int n, int viewer, json_t **view, struct err *err);

/*
 * The game's position now in words for viewer (a seat, -1 a spectator or
 * GAME_VIEWER_ALL): the game's position() split into its sentences, as a new
 * array of strings; an empty array for a game without position().
 */
int story_board(struct store *s, int64_t id, int viewer, json_t **lines, struct err *err);

/* Forget every cached sentence (tests; nothing needs it for correctness). */
void story_cache_clear(void);
/* Keep at most games games and bytes of sentences (0: the defaults, 512 and 32 MB); empties the cache. */
void story_cache_set_limits(int games, size_t bytes);
/* Since start (or story_cache_clear): sentences answered from the cache, and those described. */
void story_cache_stats(uint64_t *hits, uint64_t *misses);

#endif
