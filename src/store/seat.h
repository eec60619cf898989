/* store/seat.h: the seats of games and who sits in them (store/seat.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_SEAT_H
#define TURNPOST_STORE_SEAT_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

struct store_seat {
	int seat;
	int64_t user_id;
	char *name;
	char *email;
};
void store_seats_free(struct store_seat *seats, int n);

int store_seat_insert(struct store_conn *c, int64_t game_id, const struct store_seat *s, struct err *err);
/* All seats of a game in seat order; *out is new (store_seats_free). */
int store_seats_get(struct store_conn *c, int64_t game_id, struct store_seat **out, int *n, struct err *err);
/* Give the lowest open seat (no user) of an active game to a user. ERR_CONFLICT when none is open (*seat -1). */
int store_seat_claim(struct store_conn *c, int64_t game_id, int64_t user_id, const char *name, const char *email,
		     int *seat, struct err *err);

/* Change who sits in a seat: user_id 0 leaves it without a player; email may be NULL. ERR_NOTFOUND when no such seat. */
int store_seat_set(struct store_conn *c, int64_t game_id, int seat, int64_t user_id, const char *name,
		   const char *email, struct err *err);

#endif
