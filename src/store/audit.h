/* store/audit.h: the audit log of admin actions: writing rows, reading them (store/audit.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_STORE_AUDIT_H
#define TURNPOST_STORE_AUDIT_H

#include <stdint.h>

#include "util/err.h"

struct store_conn;

/*
 * Write one row of the audit log: who (actor_user_id 0: none; actor: the
 * channel "web", "api", "cli"), what (action), on which game (0: none), why
 * (reason, may be NULL), the move counts before and after (-1: none) and
 * detail (JSON text; NULL: "{}").
 */
int store_audit_add(struct store_conn *c, int64_t actor_user_id, const char *actor, const char *action,
		    int64_t game_id, const char *reason, int before, int after, const char *detail,
		    int64_t now, struct err *err);

/* One row of the audit log. */
struct store_audit_row {
	int64_t id;
	int64_t at;
	int64_t actor_user_id;  /* 0: none (the command line) */
	char *actor_email;      /* NULL when none */
	char actor[16];         /* the channel: "web", "api", "cli" */
	char action[32];
	int64_t game_id;        /* 0: none */
	char *reason;           /* NULL when none */
	int before, after;      /* move counts; -1: none */
	char *detail;           /* JSON text */
};
void store_audit_rows_free(struct store_audit_row *rows, int n);

struct store_audit_filter {
	int64_t game_id;        /* 0: all */
	const char *action;     /* NULL: all */
	const char *actor;      /* an admin's email or a channel ("cli"); NULL: all */
	int64_t before_id;      /* only rows older than this id (paging); 0: from the newest */
	int limit;              /* 0 means 100 */
};
/* Audit rows, newest first; *out new (store_audit_rows_free). */
int store_audit_list(struct store_conn *c, const struct store_audit_filter *f, struct store_audit_row **out,
		     int *n, struct err *err);
/*
 * The game's seat changes (actions "seat_replace" and "drop"), oldest first:
 * each row's before count and detail tell who sat in the seat until then.
 * *out new (store_audit_rows_free).
 */
int store_audit_seat_changes(struct store_conn *c, int64_t game_id, struct store_audit_row **out, int *n,
			     struct err *err);

#endif
