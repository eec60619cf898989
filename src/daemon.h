/* daemon.h: turnpostd's life: settings, storage, server, signals */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_DAEMON_H
#define TURNPOST_DAEMON_H

struct store;

/* Tests (tests/turnpostd_test.c): called with the store once it is open; NULL in turnpostd. */
extern void (*daemon_store_hook)(struct store *s);

/* The whole daemon; returns the process exit status. */
int daemon_main(int argc, char **argv);

#endif
