/* outbox.c: turnpost outbox list and outbox resend: the notifications and their delivery */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/banned.h"

int cli_outbox_list(struct cli *c)
{
	struct store_outbox_row *rows = NULL;
	struct store_conn *conn;
	struct err e = {0};
	const char *state = cli_opt(c, "--state"), *limit = cli_opt(c, "--limit");
	int n = 0, rc;

	if (cli_has(c, "--dead"))
		state = "dead";
	if (state && strcmp(state, "pending") != 0 && strcmp(state, "sent") != 0 && strcmp(state, "dead") != 0 &&
	    strcmp(state, "skipped") != 0)
		return cli_fail("--state must be pending, sent, dead or skipped");
	if (cli_open(c))
		return 1;
	if ((rc = store_read_acquire(c->store, &conn, &e)) == 0) {
		rc = store_outbox_list(conn, state, 0, limit ? (int)strtol(limit, NULL, 10) : 100, &rows, &n, &e);
		store_read_release(conn);
	}
	if (rc < 0)
		return cli_fail("%s", e.msg);
	printf("id\tevent\tgame\tseat\tuser\tstate\tattempts\tnext\tlast error\n");
	for (int i = 0; i < n; i++) {
		char next[32];
		clock_format_utc(rows[i].next_at, next);
		printf("%lld\t%s\t%lld\t%d\t%lld\t%s\t%d\t%s\t%s\n", (long long)rows[i].id, rows[i].event,
		       (long long)rows[i].game_id, rows[i].seat, (long long)rows[i].user_id, rows[i].state,
		       rows[i].attempts, strcmp(rows[i].state, "pending") == 0 ? next : "-",
		       rows[i].last_error ? rows[i].last_error : "-");
	}
	store_outbox_rows_free(rows, n);
	return 0;
}

int cli_outbox_resend(struct cli *c)
{
	struct store_conn *conn;
	struct err e = {0};
	int64_t id;
	int rc;

	if (cli_id(c, 0, &id)) {
		cli_fail("outbox resend needs the id of a notification (see outbox list --dead)");
		return 2;
	}
	if (cli_open(c))
		return 1;
	if ((rc = store_write_begin(c->store, &conn, &e)) < 0)
		return cli_fail("%s", e.msg);
	if ((rc = store_outbox_resend(conn, id, clock_now_ms(), &e)) == 0)
		rc = store_audit_add(conn, 0, "cli", "outbox_resend", 0, cli_opt(c, "--reason"), -1, -1, NULL,
				     clock_now_ms(), &e);
	if (rc < 0) {
		store_write_rollback(conn);
		return cli_fail("%s", e.msg);
	}
	if ((rc = store_write_commit(conn, &e)) < 0)
		return cli_fail("%s", e.msg);
	printf("notification %lld queued again; a running turnpostd delivers it within a second\n", (long long)id);
	return 0;
}
