/* main.c: turnpostd, the turn server daemon */
/* SPDX-License-Identifier: MIT */
#include "daemon.h"

int main(int argc, char **argv)
{
	return daemon_main(argc, argv);
}
