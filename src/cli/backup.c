/* backup.c: turnpost backup: an online copy of the database */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "cli/cli.h"
#include "store/store.h"
#include "util/banned.h"

int cli_backup_run(struct cli *c)
{
	const char *dest = cli_arg(c, 0);
	struct err e = {0};

	if (!dest)
		return cli_fail("backup needs a destination file");
	if (cli_open(c))
		return 1;
	if (store_backup(c->store, dest, &e) < 0)
		return cli_fail("%s", e.msg);
	printf("backup written to %s\n", dest);
	return 0;
}
