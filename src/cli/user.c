/* user.c: turnpost user add, user list and user link */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/account.h"
#include "engine/signin.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

int cli_user_add(struct cli *c)
{
	const char *email = cli_arg(c, 0);
	const char *name = cli_opt(c, "--name");
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX], derived[128];
	int64_t id;

	if (!email || email[0] == '-' || !strchr(email, '@'))
		return cli_fail("user add needs an email address: turnpost user add you@example.org [--admin]");
	if (!name) {
		snprintf(derived, sizeof(derived), "%.*s", (int)(strchr(email, '@') - email), email);
		name = derived;
	}
	if (cli_open(c))
		return 1;
	if (account_add(c->store, email, name, cli_has(c, "--admin"), "cli", &id, tok, &e) < 0)
		return cli_fail("%s", e.msg);
	printf("user %lld %s <%s>%s\n", (long long)id, name, email, cli_has(c, "--admin") ? " (admin)" : "");
	printf("API token (shown once; send it as \"Authorization: Bearer TOKEN\"):\n%s\n", tok);
	memset(tok, 0, sizeof(tok));
	return 0;
}

int cli_user_link(struct cli *c)
{
	const char *email = cli_arg(c, 0);
	const char *base = cli_opt(c, "--base-url");
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX];
	int64_t uid;
	size_t blen;

	if (!base)
		base = c->base_url;
	if (strncmp(base, "http://", 7) != 0 && strncmp(base, "https://", 8) != 0)
		return cli_fail("--base-url must start with http:// or https://");
	if (!email)
		return cli_fail("user link needs the user's email");
	if (cli_open(c))
		return 1;
	if (account_find_email(c->store, email, &uid, &e) < 0 ||
	    signin_link_new(c->store, uid, "cli sign-in link", clock_now_ms(), tok, &e) < 0)
		return cli_fail("%s", e.msg);
	blen = strlen(base);
	while (blen && base[blen - 1] == '/')
		blen--;
	printf("sign-in link for %s (works once, for an hour):\n%.*s/signin/%s\n", email, (int)blen, base, tok);
	memset(tok, 0, sizeof(tok));
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
