/* store/channel.h: chat-app channels of games and users' own destinations (store/channel.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_CHANNEL_H
#define TURNPOST_STORE_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

struct store_conn;

/* One row of chat_channels: a game's channel (game_id) or a user's destination (user_id). */
struct store_channel {
	int64_t id;
	int64_t game_id;        /* 0 for a user's destination */
	int64_t user_id;        /* 0 for a game's channel */
	char kind[16];          /* "discord", "slack", "matrix", "ntfy", "webhook" */
	unsigned char *sealed;  /* the sealed JSON of what it takes to reach it (util/seal.h) */
	size_t sealed_len;
	char hint[128];         /* what may be shown: host and last 4 */
	char events[160];       /* ",your_turn,chat," */
	int64_t created_by;
	int64_t created_at;
	int dashboard;          /* a game's channel: keeps one message, edited at each turn */
	char dashboard_msg[128]; /* that message's id in the chat app; "": not posted yet */
};
/* Free the contents (accepts a zeroed struct) / a list. */
void store_channel_release(struct store_channel *ch);
void store_channels_free(struct store_channel *list, int n);

/* A game's channel of kind (dashboard: 1 or 0), replacing the one there was; *id its id (may be NULL). */
int store_channel_set_game(struct store_conn *c, int64_t game_id, const char *kind, const unsigned char *sealed,
			   size_t len, const char *hint, int dashboard, int64_t by, int64_t now, int64_t *id,
			   struct err *err);
/* The id (msg; NULL or "": none, post anew) of channel id's dashboard message. ERR_NOTFOUND. */
int store_channel_set_dashboard_msg(struct store_conn *c, int64_t id, const char *msg, struct err *err);
/* A user's new destination; *id its id (may be NULL). */
int store_channel_add_user(struct store_conn *c, int64_t user_id, const char *kind, const unsigned char *sealed,
			   size_t len, const char *hint, const char *events, int64_t now, int64_t *id,
			   struct err *err);
/* One channel by id, or a game's of kind. ERR_NOTFOUND. */
int store_channel_get(struct store_conn *c, int64_t id, struct store_channel *out, struct err *err);
int store_channel_get_game(struct store_conn *c, int64_t game_id, const char *kind, struct store_channel *out,
			   struct err *err);
/* A game's channels, or a user's destinations, oldest first; *out new. */
int store_channel_list(struct store_conn *c, int64_t game_id, int64_t user_id, struct store_channel **out, int *n,
		       struct err *err);
/* Remove a game's channel of kind, or a user's destination id. ERR_NOTFOUND when there is none. */
int store_channel_delete_game(struct store_conn *c, int64_t game_id, const char *kind, struct err *err);
int store_channel_delete_user(struct store_conn *c, int64_t user_id, int64_t id, struct err *err);
/* A user destination's events (",your_turn,chat,"). ERR_NOTFOUND. */
int store_channel_set_events(struct store_conn *c, int64_t user_id, int64_t id, const char *events, struct err *err);

/*
 * Queue one outbox row (event "channel", payload {"channel": id, "event":
 * event, "data": data}) for each channel of game_id (user_id 0), or for each
 * destination of user_id that wants event; seat is the seat the message is
 * about (-1: none); data the event's own payload (JSON text; NULL: {}).
 * *count: how many (may be NULL).
 */
int store_channel_queue(struct store_conn *c, int64_t game_id, int64_t user_id, const char *event, int seat,
			const char *data, int64_t now, int *count, struct err *err);
/* Queue one such row for channel id alone (of game_id, about seat; no data). */
int store_channel_queue_one(struct store_conn *c, int64_t id, int64_t game_id, const char *event, int seat,
			    int64_t now, struct err *err);

#endif
