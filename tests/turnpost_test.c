/* tests/turnpost_test.c: the turnpost CLI with the test game added, for the HTTP tests */
/* SPDX-License-Identifier: MIT */
#include "cli/cli.h"
#include "engine/registry.h"
#include "fake_game.h"

int main(int argc, char **argv)
{
	registry_add_for_tests(&fake_game);
	return cli_main(argc, argv);
}
