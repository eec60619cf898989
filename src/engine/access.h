/* engine/access.h: who may see a game: its players, admins, and (to take a seat) anyone while one is open */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_ACCESS_H
#define TURNPOST_ENGINE_ACCESS_H

#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/*
 * The one rule of who may read a game (its page, board, chat and steps),
 * used by the web pages (docs/security.md, "Who may see a game"): the game
 * page, its history, its replay and its shared link. The API resolves its
 * callers' seats itself (a seat token, an account's seats) and refuses the
 * same people. A new way to let others see a game is one more fact in
 * struct access_facts and one more line in access_decide.
 */
enum access_level {
	ACCESS_NONE = 0,  /* nothing: the page, chat and history are refused (403) */
	ACCESS_JOIN,      /* an active game with an open seat: its title and seats' names, to take the seat */
	ACCESS_REPLAY,    /* a game that is over: its board and story as a spectator sees them (the replay), no chat */
	ACCESS_WATCH,     /* the game as a spectator sees it (seat -1): admins */
	ACCESS_PLAYER     /* the game at the viewer's seat */
};

/* Who asks. */
struct access_viewer {
	int64_t user_id;   /* 0: nobody signed in */
	int is_admin;
	int64_t only_game; /* a seat link's session: this game only (0: a full session) ... */
	int only_seat;     /* ... at this seat */
};

/* What the rule looks at, gathered by access_game. */
struct access_facts {
	int is_admin;  /* the viewer is an admin (never through a seat link's session) */
	int holds;     /* how many seats of the game the viewer may play (a seat link's session: its one seat) */
	int signed_in; /* someone is signed in (a full session: a seat link's session cannot join games) */
	int active;    /* the game is running */
	int open_seat; /* the game has a seat without a player */
	int shared;    /* over, and every player allows showing it to anyone with its link (engine/share.h) */
};

/* The level the facts give. Pure. */
enum access_level access_decide(const struct access_facts *f);

/* What access_game found. */
struct access_grant {
	enum access_level level;
	int seat; /* ACCESS_PLAYER: the seat the viewer plays (wanted when they hold it, else their first); else -1 */
	int held; /* how many seats the viewer holds in the game */
};

/*
 * The viewer's access to game_id. wanted: the seat asked for (?seat=), -1
 * for any. ERR_NOTFOUND when there is no such game; then *out is
 * ACCESS_NONE. A game the viewer may not see is not an error: the caller
 * answers 403 for ACCESS_NONE.
 */
int access_game(struct store *s, int64_t game_id, const struct access_viewer *v, int wanted,
		struct access_grant *out, struct err *err);
/*
 * The same from the game's row and seats the caller has read (the game
 * page reads them once for this and for its answer: views_now_load).
 */
int access_game_at(struct store *s, const struct store_game *g, const struct store_seat *seats, int nseats,
		   const struct access_viewer *v, int wanted, struct access_grant *out, struct err *err);

#endif
