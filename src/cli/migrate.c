/* cli/migrate.c: turnpost migrate-db: a whole site moved between SQLite and PostgreSQL */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "store/copy.h"
#include "store/store.h"
#include "util/banned.h"

int cli_migrate_db_run(struct cli *c)
{
	const char *from = cli_opt(c, "--from"), *to = cli_opt(c, "--to");
	char shown_from[256], shown_to[256];
	struct store *src = NULL, *dst = NULL;
	struct store_copy_stats stats;
	struct err e = {0};
	int rc = 1;

	if (!from || !to || cli_arg(c, 0))
		return cli_usage(c, "migrate-db needs --from DATABASE and --to DATABASE");
	store_target_redact(from, shown_from, sizeof(shown_from));
	store_target_redact(to, shown_to, sizeof(shown_to));
	/* a mistyped source file must not become a new empty database */
	if (!store_target_is_postgres(from) && access(from, F_OK) < 0)
		return cli_fail("no database at %s: %s", shown_from, strerror(errno));
	if (strcmp(from, to) == 0)
		return cli_usage(c, "--from and --to name the same database");
	if (store_open(from, NULL, &src, &e) < 0) {
		cli_fail("%s", e.msg);
		goto done;
	}
	if (store_open(to, NULL, &dst, &e) < 0) {
		cli_fail("%s", e.msg);
		goto done;
	}
	if (store_copy(src, dst, &stats, &e) < 0) {
		cli_fail("nothing copied: %s", e.msg);
		goto done;
	}
	printf("copied %s to %s: %d tables, %lld rows (%lld users, %lld games, %lld steps)\n", shown_from, shown_to,
	       stats.tables, (long long)stats.rows, (long long)stats.users, (long long)stats.games,
	       (long long)stats.moves);
	printf("check it with: turnpost --db %s verify\n", shown_to);
	rc = 0;
done:
	store_close(src);
	store_close(dst);
	return rc;
}
