/* engine/channel.h: chat-app channels of a game and users' own destinations: attach, show, remove (engine/channel.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_CHANNEL_H
#define TURNPOST_ENGINE_CHANNEL_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/*
 * A game's channel (Discord, Slack or a Matrix room) hears "whose turn" and
 * "game over"; a user's own destination (those, an ntfy topic or a signed
 * webhook) hears the events they chose. What it takes to reach one is sealed
 * with the server key 'destinations' (util/seal.h) and never shown again: the
 * answers carry a hint (the host and the last 4 characters). Every URL is
 * checked by notify/dest.h when saved (ERR_ILLEGAL, with the reason) and
 * again when a message is sent.
 *
 * Bodies:
 *   discord, slack: {"webhook_url": "https://..."}
 *   matrix:         {"homeserver": "https://matrix.example.org", "room_id": "!abc:example.org",
 *                    "access_token": "..."}
 *   ntfy:           {"url": "https://ntfy.sh/TOPIC"}
 *   webhook:        {"url": "https://..."} (the answer holds its signing secret, once)
 * and for a user's destination "events": ["your_turn", "reminder", "chat", "game_over"]
 * (default: all four); for a game's Discord or Matrix channel "dashboard": true
 * (default false): one message per game, posted at once and edited at each
 * turn to say whose turn it is, instead of a new message each turn (Slack's
 * incoming webhooks cannot edit: ERR_ILLEGAL).
 */

/* The events a user's destination may choose, NULL-terminated. */
extern const char *const channel_events[];

/* 1 when kind may be a game's channel (discord, slack, matrix) / a user's destination (and ntfy, webhook). */
int channel_kind_game(const char *kind);
int channel_kind_user(const char *kind);

/*
 * Attach (or replace) a game's channel of kind, by user_id: the game's
 * creator or an admin (ERR_FORBIDDEN otherwise; ERR_NOTFOUND: no game, or a
 * kind that is not one). *out: the channel as GET shows it (new).
 */
int channel_game_set(struct store *s, int64_t game_id, int64_t user_id, int is_admin, const char *kind,
		     const json_t *body, int64_t now, json_t **out, struct err *err);
/* {"id","kind","hint","created_at","game","dashboard"} of a game's channel (new); ERR_NOTFOUND when none. Same rights. */
int channel_game_get(struct store *s, int64_t game_id, int64_t user_id, int is_admin, const char *kind,
		     json_t **out, struct err *err);
/* Every channel of a game as an array (new). Same rights. */
int channel_game_list(struct store *s, int64_t game_id, int64_t user_id, int is_admin, json_t **out,
		      struct err *err);
int channel_game_delete(struct store *s, int64_t game_id, int64_t user_id, int is_admin, const char *kind,
			struct err *err);
/* 1 when user_id may manage the game's channels (its creator or an admin); 0 otherwise or on failure. */
int channel_game_manager(struct store *s, int64_t game_id, int64_t user_id, int is_admin);

/*
 * A user's new destination; *out {"id","kind","hint","events","created_at"}
 * (new), with "secret" (whsec_...) for a webhook: shown this once.
 */
int channel_user_add(struct store *s, int64_t user_id, const char *kind, const json_t *body, int64_t now,
		     json_t **out, struct err *err);
/* A user's destinations as an array (new). */
int channel_user_list(struct store *s, int64_t user_id, json_t **out, struct err *err);
/* Change which events destination id gets: events as in the body above. */
int channel_user_events(struct store *s, int64_t user_id, int64_t id, const json_t *events, struct err *err);
int channel_user_delete(struct store *s, int64_t user_id, int64_t id, struct err *err);

/*
 * Inside a write transaction: queue the chat messages an event causes: one
 * for each channel of the game (game_id, user_id 0) or each destination of
 * user_id that wants event.
 */
int channel_queue(struct store_conn *c, int64_t game_id, int64_t user_id, const char *event, int seat, int64_t now,
		  struct err *err);

#endif
