/* tests/unit/test_actions.c: the engine's actions, one suite per module (tokens, signin, outbox, chat, join, account, create) */
/* SPDX-License-Identifier: MIT */
#include "actions_fixture.h"
#include "testutil.h"

int tests_register(void)
{
	if (test_tokens_register() < 0 || test_signin_register() < 0 || test_outbox_register() < 0 ||
	    test_chat_register() < 0 || test_join_register() < 0 || test_account_register() < 0 ||
	    test_create_register() < 0)
		return -1;
	return 0;
}
