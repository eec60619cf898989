/* store/inbound_mail.h: the inbound mails handled, by Message-ID (store/inbound_mail.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_INBOUND_MAIL_H
#define TURNPOST_STORE_INBOUND_MAIL_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

/* The stored status and outcome (JSON text, new) of a handled Message-ID; ERR_NOTFOUND when none. */
int store_inbound_mail_get(struct store_conn *c, const char *message_id, char **status, char **outcome,
			   struct err *err);
/*
 * Record a handled Message-ID. ERR_CONFLICT when it is recorded already (a
 * concurrent delivery of the same message won). token_id, game_id 0 and seat
 * -1: none.
 */
int store_inbound_mail_put(struct store_conn *c, const char *message_id, int64_t token_id, int64_t game_id, int seat,
			   const char *sender, const char *status, const char *outcome, int64_t now, struct err *err);

#endif
