/* store/inbound_mail.c: the inbound mails handled, by Message-ID */
/* SPDX-License-Identifier: MIT */
#include "store/inbound_mail.h"



#include "store/store_int.h"
#include "util/banned.h"

/*
 * These statements run a few times per email, so they are prepared per call
 * rather than taking slots of the connection's statement cache.
 */
static sqlite3_stmt *prepare(struct store_conn *c, const char *sql, struct err *err)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
		store__fail(c, "prepare", err);
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* Step a statement that returns no rows, then finalize it. */
static int run(struct store_conn *c, sqlite3_stmt *st, const char *what, struct err *err)
{
	int rc = 0;

	if (sqlite3_step(st) != SQLITE_DONE)
		rc = store__fail(c, what, err);
	sqlite3_finalize(st);
	return rc;
}

int store_inbound_mail_get(struct store_conn *c, const char *message_id, char **status, char **outcome,
			   struct err *err)
{
	sqlite3_stmt *st = prepare(c, "SELECT status, outcome FROM inbound_mail WHERE message_id = ?", err);
	int r, rc = 0;

	*status = NULL;
	*outcome = NULL;
	if (!st)
		return ERR_STORE;
	sqlite3_bind_text(st, 1, message_id, -1, SQLITE_TRANSIENT);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW) {
		*status = store__text(st, 0);
		*outcome = store__text(st, 1);
	} else if (r == SQLITE_DONE) {
		rc = err_set(err, ERR_NOTFOUND, "this message was not seen before");
	} else {
		rc = store__fail(c, "find inbound mail", err);
	}
	sqlite3_finalize(st);
	return rc;
}

int store_inbound_mail_put(struct store_conn *c, const char *message_id, int64_t token_id, int64_t game_id, int seat,
			   const char *sender, const char *status, const char *outcome, int64_t now, struct err *err)
{
	sqlite3_stmt *st = prepare(c,
				   "INSERT INTO inbound_mail(message_id, reply_token_id, game_id, seat, sender, status,"
				   " outcome, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
				   err);

	if (!st)
		return ERR_STORE;
	sqlite3_bind_text(st, 1, message_id, -1, SQLITE_TRANSIENT);
	if (token_id)
		sqlite3_bind_int64(st, 2, token_id);
	if (game_id)
		sqlite3_bind_int64(st, 3, game_id);
	if (seat >= 0)
		sqlite3_bind_int(st, 4, seat);
	store__bind_text(st, 5, sender);
	sqlite3_bind_text(st, 6, status, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 7, outcome ? outcome : "{}", -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 8, now);
	return run(c, st, "record inbound mail", err);
}
