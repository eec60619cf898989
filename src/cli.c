/* cli.c: turnpost, the admin command line */
/* SPDX-License-Identifier: MIT */
#include "admin.h"

int main(int argc, char **argv)
{
	return admin_main(argc, argv);
}
