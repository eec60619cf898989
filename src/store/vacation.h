/* store/vacation.h: players' vacations, which stop their clocks (store/vacation.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_VACATION_H
#define TURNPOST_STORE_VACATION_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

int store_vacation_add(struct store_conn *c, int64_t user_id, int64_t start, int64_t end, int64_t now,
		       struct err *err);
/* End the user's running vacation at now and drop planned ones; *ended: rows changed (may be NULL). */
int store_vacation_end(struct store_conn *c, int64_t user_id, int64_t now, int *ended, struct err *err);
/*
 * Vacation time of the user that falls between from and to (*used_ms), and
 * the vacation running at now (*cur_start, *cur_end; 0 when none).
 */
int store_vacation_summary(struct store_conn *c, int64_t user_id, int64_t from, int64_t to, int64_t now,
			   int64_t *used_ms, int64_t *cur_start, int64_t *cur_end, struct err *err);

#endif
