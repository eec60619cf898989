/* token.c: turnpost token add and token revoke */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

int cli_token_add(struct cli *c)
{
	const char *email = cli_arg(c, 0);
	const char *label = cli_opt(c, "--label");
	struct store_conn *conn;
	struct store_user u = {0};
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX];
	unsigned char hash[32];
	int64_t tid;
	int rc;

	if (!email)
		return cli_fail("token add needs the user's email");
	if (cli_open(c))
		return 1;
	token_new(tok, hash);
	if ((rc = store_write_begin(c->store, &conn, &e)) == 0) {
		rc = store_user_by_email(conn, email, &u, &e);
		if (rc == 0)
			rc = store_token_add(conn, hash, TOKEN_API, u.id, 0, -1, label ? label : "cli", 0, &tid, &e);
		if (rc == 0)
			rc = store_write_commit(conn, &e);
		else
			store_write_rollback(conn);
	}
	store_user_release(&u);
	if (rc < 0)
		return cli_fail("%s", e.msg);
	printf("token %lld for %s (shown once):\n%s\n", (long long)tid, email, tok);
	return 0;
}

int cli_token_revoke(struct cli *c)
{
	struct store_conn *conn;
	struct err e = {0};
	int64_t id;
	int rc;

	if (cli_id(c, 0, &id) < 0)
		return cli_fail("token revoke needs a token id (a number)");
	if (cli_open(c))
		return 1;
	if ((rc = store_write_begin(c->store, &conn, &e)) == 0) {
		rc = store_token_revoke(conn, id, clock_now_ms(), &e);
		if (rc == 0)
			rc = store_audit_add(conn, 0, "cli", "token_revoke", 0, cli_opt(c, "--reason"), -1, -1, NULL,
					     clock_now_ms(), &e);
		if (rc == 0)
			rc = store_write_commit(conn, &e);
		else
			store_write_rollback(conn);
	}
	if (rc < 0)
		return cli_fail("%s", e.msg);
	printf("token %lld revoked\n", (long long)id);
	return 0;
}
