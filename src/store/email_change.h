/* store/email_change.h: an account's new email address, waiting for the link sent to it (store/email_change.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_EMAIL_CHANGE_H
#define TURNPOST_STORE_EMAIL_CHANGE_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

/* A change waiting for its confirmation: at most one per account. */
struct store_email_change {
	int64_t user_id;
	char email[256];
	int64_t created_at;
	int64_t expires_at; /* the link's end (0: no link sent yet) */
};

/* Ask for user_id's address to become email, replacing a change asked for before (and its link). */
int store_email_change_put(struct store_conn *c, int64_t user_id, const char *email, int64_t now, struct err *err);
/* The change user_id waits for; ERR_NOTFOUND when none. */
int store_email_change_get(struct store_conn *c, int64_t user_id, struct store_email_change *out, struct err *err);
/*
 * The link of user_id's change to email: the hash of its token, valid until
 * expires_at; a link sent before stops working. ERR_NOTFOUND when the
 * account waits for no change to that address (it was replaced or done).
 */
int store_email_change_link(struct store_conn *c, int64_t user_id, const char *email, const unsigned char hash[32],
			    int64_t expires_at, struct err *err);
/* The change whose link has this hash, live at now; ERR_NOTFOUND when none. */
int store_email_change_by_hash(struct store_conn *c, const unsigned char hash[32], int64_t now,
			       struct store_email_change *out, struct err *err);
/* Forget user_id's change (done or withdrawn). */
int store_email_change_drop(struct store_conn *c, int64_t user_id, struct err *err);

#endif
