/* engine/views.h: games as people see them: lists, one game for a seat, legal steps, the steps so far */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_VIEWS_H
#define TURNPOST_ENGINE_VIEWS_H

#include <jansson.h>
#include <stdint.h>

#include "engine/game.h"
#include "store/store.h"
#include "util/err.h"

/* Game ids, newest first: all (user_id 0) or those where user_id holds a seat; at most limit. *ids new (free()). */
int views_game_ids(struct store *s, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err);
/* Ids of active games with a seat user_id could join (see join_game), newest first; *ids new (free()). */
int views_games_open(struct store *s, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err);

/* The game row's move count (cheap, for If-None-Match). */
int views_move_count(struct store *s, int64_t id, int *move_count, struct err *err);

/*
 * The game as the API shows it to viewer_seat (-1: spectator):
 * {"id","game","title","status","move_count","active_seats","pending","seats","view","result"}. New.
 * with_emails: VIEWS_EMAILS_ALL includes the seats' emails (admins, the
 * creator), VIEWS_EMAILS_IF_SHARED only when the creator let the players
 * see them (players), 0 never (docs/security.md).
 */
enum views_emails { VIEWS_EMAILS_NONE = 0, VIEWS_EMAILS_ALL = 1, VIEWS_EMAILS_IF_SHARED = 2 };
int views_game_json(struct store *s, int64_t id, int viewer_seat, int with_emails, json_t **out,
		   struct err *err);
/*
 * The same, without "view" unless with_view, and *at (when not NULL; only on
 * success) a reference to the position the answer was made from
 * (engine/cache.h: cache_pos_release it), for what the caller derives from
 * that same position (views_view_json: the view it left out).
 */
struct cache_pos;
int views_game_json_at(struct store *s, int64_t id, int viewer_seat, int with_emails, int with_view, json_t **out,
		       struct cache_pos **at, struct err *err);
/*
 * A game as it is now, read in one transaction: its row, its seats, the
 * seats whose player was dropped (a mask), the seat that may undo (-1) and
 * the position (shared, engine/cache.h). For a caller that decides
 * something from the row and seats (who may see the game: access_game_at)
 * before it makes the answer from the same reading. views_now_load: 0, or
 * the error of views_game_json_at (then nothing to release);
 * views_now_release gives it all back.
 */
struct views_now {
	struct store_game g;
	struct store_seat *seats;
	int nseats;
	unsigned dropped;
	int undo_seat;
	struct cache_pos *pos;
};
int views_now_load(struct store *s, int64_t id, struct views_now *now, struct err *err);
void views_now_release(struct views_now *now);
/* views_game_json_at's answer made from now (its position is now->pos). */
int views_now_json(const struct views_now *now, int viewer_seat, int with_emails, int with_view, json_t **out,
		   struct err *err);
/* The "view" of views_game_json for viewer_seat from the position eg, the seats' names from seats ([{"seat","name"}]). New. */
struct engine_game;
int views_view_json(const struct engine_game *eg, int viewer_seat, const json_t *seats, json_t **out, struct err *err);
/*
 * The stored game row and seats: release them with views_game_info_release.
 * On failure there is nothing to release (*g zeroed, *seats NULL, *nseats 0;
 * releasing them anyway is harmless).
 */
int views_game_info(struct store *s, int64_t id, struct store_game *g, struct store_seat **seats, int *nseats,
		   struct err *err);
void views_game_info_release(struct store_game *g, struct store_seat *seats, int nseats);
/* {"move_count":n,"seat":s,"moves":[...]} for seat. New. */
int views_legal_json(struct store *s, int64_t id, int seat, json_t **out, struct err *err);
/* {"moves":[{"n","seat","text","via","at"}]}. New. */
int views_moves_json(struct store *s, int64_t id, json_t **out, struct err *err);
/* The steps as the API lists them: a new array of {"n","seat","text","via","at","time"[,"client"][,"kind","to"]}. */
json_t *views_moves_array(const struct store_move *moves, int n, int with_client);

#endif
