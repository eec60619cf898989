/* store/game_clock.h: time controls of games and the clocks of their seats (deadlines, chess clocks, reminders) (store/game_clock.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_GAME_CLOCK_H
#define TURNPOST_STORE_GAME_CLOCK_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

/* A game's time control. mode "none" has no row. */
struct store_game_clock {
	char mode[12];        /* "none", "per_turn", "bank" */
	int64_t turn_ms;      /* per_turn: the time for each turn */
	int64_t bank_ms;      /* bank: each seat's starting time */
	int64_t increment_ms; /* bank: added after each turn */
	int64_t reminder_ms;  /* a reminder this long before the deadline; 0: none */
	char timeout[8];      /* "bot", "drop", "notify" */
	int bot_level;        /* for "bot" and "drop" */
};

/* One seat's clock. Times are 0 when not set. */
struct store_seat_clock {
	int64_t game_id;
	int seat;
	int64_t user_id;        /* the seat's player (0: none) */
	int64_t bank_ms;        /* what is left of a chess clock */
	int64_t turn_started_at;/* the seat must act since then; 0 while it need not */
	int64_t deadline_at;
	int64_t remind_at;
	int reminded, timed_out, dropped;
};

/* Store the time control of a new game and start the clocks of the seats in active. */
int store_game_clock_create(struct store_conn *c, int64_t game_id, const struct store_game_clock *k, int nseats,
			    unsigned active, int64_t now, struct err *err);
/* The game's time control; ERR_NOTFOUND (mode "none") when it has none. */
int store_game_clock_get(struct store_conn *c, int64_t game_id, struct store_game_clock *out, struct err *err);
/*
 * After a step, in its transaction: active is the set of seats that must act
 * now (0 once the game is over). Seats that stopped acting stop their clock
 * (a chess clock is charged the time outside vacations and gets its
 * increment); seats that started get a deadline and a reminder time. No-op
 * for games without a time control.
 */
int store_game_clock_step(struct store_conn *c, int64_t game_id, unsigned active, int64_t now, struct err *err);
/* Every seat clock of a game in seat order; *out new (free()). */
int store_game_clock_seats(struct store_conn *c, int64_t game_id, struct store_seat_clock **out, int *n,
			   struct err *err);
/* Put one seat's clock as given (an import restoring a game's clocks); user_id is not stored. */
int store_game_clock_seat_put(struct store_conn *c, const struct store_seat_clock *x, struct err *err);
/* Seats of active games whose reminder or deadline has come and was not handled yet; *out new (free()). */
int store_game_clock_due(struct store_conn *c, int64_t now, int max, struct store_seat_clock **out, int *n,
			 struct err *err);
/* Set a seat's flags (-1 keeps one); dropping reschedules a running clock to act at once. */
int store_game_clock_flag(struct store_conn *c, int64_t game_id, int seat, int reminded, int timed_out, int dropped,
			  int64_t now, struct err *err);
/* Recompute the deadlines of the user's running clocks (after a vacation changed). */
int store_game_clock_refresh_user(struct store_conn *c, int64_t user_id, int64_t now, struct err *err);

/*
 * Give a seat whose clock is running more time: a per-turn clock's turn
 * counts as started add_ms later, a chess clock gets add_ms more in the
 * bank; the deadline and reminder follow (vacations included) and a seat
 * that had timed out waits again. ERR_NOTFOUND when the game has no time
 * control, ERR_CONFLICT when the seat is not waiting on a deadline.
 */
int store_game_clock_extend(struct store_conn *c, int64_t game_id, int seat, int64_t add_ms, int64_t now,
			    int64_t *deadline, struct err *err);

#endif
