/* backup.c: turnpost backup and restore: a checked copy of the database, and putting one back */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "store/store.h"
#include "util/banned.h"

int cli_backup_run(struct cli *c)
{
	const char *dest = cli_arg(c, 0);
	struct err e = {0};
	int rc;

	if (!dest || cli_arg(c, 1))
		return cli_usage(c, "backup needs one destination file");
	if (cli_open(c))
		return 1;
	rc = store_backup(c->store, dest, cli_has(c, "--force"), &e);
	if (rc == ERR_CONFLICT)
		return cli_fail("%s: give --force to replace it", e.msg);
	if (rc < 0)
		return cli_fail("%s", e.msg);
	printf("backup of %s written to %s\n", c->db, dest);
	return 0;
}

int cli_restore_run(struct cli *c)
{
	const char *src = cli_arg(c, 0);
	struct err e = {0};
	char *kept = NULL;

	if (!src || cli_arg(c, 1))
		return cli_usage(c, "restore needs one backup file");
	/* the database is replaced, not opened: store_open would migrate (or create) it */
	if (store_restore(src, c->db, &kept, &e) < 0)
		return cli_fail("%s", e.msg);
	if (kept)
		printf("the database it replaced is kept as %s\n", kept);
	printf("%s restored from %s\n", c->db, src);
	free(kept);
	return 0;
}
