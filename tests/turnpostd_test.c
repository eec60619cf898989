/* tests/turnpostd_test.c: turnpostd with the test game added, for the HTTP tests */
/* SPDX-License-Identifier: MIT */
#include "daemon.h"
#include "engine/registry.h"
#include "fake_game.h"

int main(int argc, char **argv)
{
	registry_add_for_tests(&fake_game);
	return daemon_main(argc, argv);
}
