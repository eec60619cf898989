/* user.c: turnpost user add, user list and user link */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

int cli_user_add(struct cli *c)
{
	const char *email = cli_arg(c, 0);
	const char *name = cli_opt(c, "--name");
	struct store_conn *conn;
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX], derived[128];
	unsigned char hash[32];
	int64_t id, tid;
	int rc;

	if (!email || email[0] == '-' || !strchr(email, '@'))
		return cli_fail("user add needs an email address: turnpost user add you@example.org [--admin]");
	if (!name) {
		snprintf(derived, sizeof(derived), "%.*s", (int)(strchr(email, '@') - email), email);
		name = derived;
	}
	if (cli_open(c))
		return 1;
	token_new(tok, hash);
	if ((rc = store_write_begin(c->store, &conn, &e)) == 0) {
		rc = store_user_add(conn, email, name, cli_has(c, "--admin"), &id, &e);
		if (rc == 0)
			rc = store_token_add(conn, hash, TOKEN_API, id, 0, -1, "cli", 0, &tid, &e);
		if (rc == 0)
			rc = store_write_commit(conn, &e);
		else
			store_write_rollback(conn);
	}
	if (rc < 0)
		return cli_fail("%s", e.msg);
	printf("user %lld %s <%s>%s\n", (long long)id, name, email, cli_has(c, "--admin") ? " (admin)" : "");
	printf("API token (shown once; send it as \"Authorization: Bearer TOKEN\"):\n%s\n", tok);
	return 0;
}

int cli_user_link(struct cli *c)
{
	const char *email = cli_arg(c, 0);
	const char *base = cli_opt(c, "--base-url");
	struct store_conn *conn;
	struct store_user u = {0};
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX];
	unsigned char hash[32];
	size_t blen;
	int rc;

	if (!base)
		base = c->base_url;
	if (strncmp(base, "http://", 7) != 0 && strncmp(base, "https://", 8) != 0)
		return cli_fail("--base-url must start with http:// or https://");
	if (!email)
		return cli_fail("user link needs the user's email");
	if (cli_open(c))
		return 1;
	token_new(tok, hash);
	if ((rc = store_write_begin(c->store, &conn, &e)) == 0) {
		rc = store_user_by_email(conn, email, &u, &e);
		if (rc == 0)
			rc = store_token_add(conn, hash, TOKEN_SIGNIN, u.id, 0, -1, "cli sign-in link",
					     clock_now_ms() + 3600 * 1000, NULL, &e);
		if (rc == 0)
			rc = store_write_commit(conn, &e);
		else
			store_write_rollback(conn);
	}
	store_user_release(&u);
	if (rc < 0)
		return cli_fail("%s", e.msg);
	blen = strlen(base);
	while (blen && base[blen - 1] == '/')
		blen--;
	printf("sign-in link for %s (works once, for an hour):\n%.*s/signin/%s\n", email, (int)blen, base, tok);
	return 0;
}

static int cli_user_print(void *ctx, const struct store_user *u)
{
	(void)ctx;
	printf("%lld\t%s\t%s%s\n", (long long)u->id, u->email, u->name, u->is_admin ? "\tadmin" : "");
	return 0;
}

int cli_user_list(struct cli *c)
{
	struct store_conn *conn;
	struct err e = {0};
	int rc;

	if (cli_open(c))
		return 1;
	if ((rc = store_read_acquire(c->store, &conn, &e)) == 0) {
		rc = store_user_each(conn, cli_user_print, NULL, &e);
		store_read_release(conn);
	}
	return rc < 0 ? cli_fail("%s", e.msg) : 0;
}
