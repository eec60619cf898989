/* admin.h: the admin command line (turnpost) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ADMIN_H
#define TURNPOST_ADMIN_H

/* The whole turnpost command; returns the process exit status (0 ok, 1 failure, 2 usage). */
int admin_main(int argc, char **argv);

#endif
