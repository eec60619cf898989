/* main.c: turnpost, the admin command line */
/* SPDX-License-Identifier: MIT */
#include "cli/cli.h"

int main(int argc, char **argv)
{
	return cli_main(argc, argv);
}
