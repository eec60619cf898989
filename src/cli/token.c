/* token.c: turnpost token add and token revoke */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/account.h"
#include "engine/tokens.h"
#include "util/token.h"
#include "util/banned.h"

int cli_token_add(struct cli *c)
{
	const char *email = cli_arg(c, 0);
	const char *label = cli_opt(c, "--label");
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX];
	int64_t uid, tid;

	if (!email)
		return cli_fail("token add needs the user's email");
	if (cli_open(c))
		return 1;
	if (account_find_email(c->store, email, &uid, &e) < 0 ||
	    tokens_api_new(c->store, uid, label ? label : "cli", tok, &tid, &e) < 0)
		return cli_fail("%s", e.msg);
	printf("token %lld for %s (shown once):\n%s\n", (long long)tid, email, tok);
	memset(tok, 0, sizeof(tok));
	return 0;
}

int cli_token_revoke(struct cli *c)
{
	struct actor a = { .channel = "cli", .reason = cli_opt(c, "--reason"), .flags = ACTOR_REASON_OPTIONAL };
	struct err e = {0};
	int64_t id;

	if (cli_id(c, 0, &id) < 0)
		return cli_fail("token revoke needs a token id (a number)");
	if (cli_open(c))
		return 1;
	if (tokens_revoke(c->store, &a, id, NULL, &e) < 0)
		return cli_fail("%s", e.msg);
	printf("token %lld revoked\n", (long long)id);
	return 0;
}
