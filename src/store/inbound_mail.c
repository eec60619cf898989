/* store/inbound_mail.c: the inbound mails handled, by Message-ID */
/* SPDX-License-Identifier: MIT */
#include "store/inbound_mail.h"



#include "store/store_int.h"
#include "util/banned.h"

/*
 * These statements run a few times per email, so they are prepared per call
 * rather than taking slots of the connection's statement cache.
 */
static struct store__st *prepare(struct store_conn *c, const char *sql, struct err *err)
{
	return store__prepare(c, sql, err);
}

/* Step a statement that returns no rows, then finalize it. */
static int run(struct store_conn *c, struct store__st *st, const char *what, struct err *err)
{
	int rc = 0;

	if (store__step(st) != STORE__DONE)
		rc = store__fail(c, what, err);
	store__finalize(st);
	return rc;
}

int store_inbound_mail_get(struct store_conn *c, const char *message_id, char **status, char **outcome,
			   struct err *err)
{
	struct store__st *st = prepare(c, "SELECT status, outcome FROM inbound_mail WHERE message_id = ?", err);
	int r, rc = 0;

	*status = NULL;
	*outcome = NULL;
	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, message_id);
	r = store__step(st);
	if (r == STORE__ROW) {
		*status = store__text(st, 0);
		*outcome = store__text(st, 1);
	} else if (r == STORE__DONE) {
		rc = err_set(err, ERR_NOTFOUND, "this message was not seen before");
	} else {
		rc = store__fail(c, "find inbound mail", err);
	}
	store__finalize(st);
	return rc;
}

int store_inbound_mail_put(struct store_conn *c, const char *message_id, int64_t token_id, int64_t game_id, int seat,
			   const char *sender, const char *status, const char *outcome, int64_t now, struct err *err)
{
	struct store__st *st = prepare(c,
				   "INSERT INTO inbound_mail(message_id, reply_token_id, game_id, seat, sender, status,"
				   " outcome, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
				   err);

	if (!st)
		return ERR_STORE;
	store__bind_text(st, 1, message_id);
	if (token_id)
		store__bind_int64(st, 2, token_id);
	if (game_id)
		store__bind_int64(st, 3, game_id);
	if (seat >= 0)
		store__bind_int(st, 4, seat);
	store__bind_text(st, 5, sender);
	store__bind_text(st, 6, status);
	store__bind_text(st, 7, outcome ? outcome : "{}");
	store__bind_int64(st, 8, now);
	return run(c, st, "record inbound mail", err);
}
