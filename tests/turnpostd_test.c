/* tests/turnpostd_test.c: turnpostd with the test game added, for the HTTP tests */
/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <stdlib.h>

#include "daemon.h"
#include "engine/registry.h"
#include "fake_game.h"
#include "store/store.h"

static struct store *opened;
static int fail_delay_ms;

/* SIGUSR2: the next sync of the WAL fails as a failing disk's would, after TURNPOST_TEST_SYNC_DELAY_MS */
static void fail_next_sync(int sig)
{
	(void)sig;
	if (opened)
		store_fail_syncs_for_tests(opened, 1, fail_delay_ms);
}

static void keep_store(struct store *s)
{
	struct sigaction sa = { .sa_handler = fail_next_sync };
	const char *delay = getenv("TURNPOST_TEST_SYNC_DELAY_MS");

	fail_delay_ms = delay ? atoi(delay) : 0;
	opened = s;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
}

int main(int argc, char **argv)
{
	registry_add_for_tests(&fake_game);
	daemon_store_hook = keep_store;
	return daemon_main(argc, argv);
}
