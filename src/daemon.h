/* daemon.h: turnpostd's life: settings, storage, server, signals */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_DAEMON_H
#define TURNPOST_DAEMON_H

/* The whole daemon; returns the process exit status. */
int daemon_main(int argc, char **argv);

#endif
