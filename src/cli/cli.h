/* cli.h: turnpost, the admin command line: its command table, parsed arguments and helpers */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_CLI_CLI_H
#define TURNPOST_CLI_CLI_H

#include <stdint.h>

#include "settings.h"

struct store;
struct cli;

enum cli_cmd_flags {
	CLI_MAY_CREATE = 1 << 0, /* with --create, the command may make a new database; without, none may */
};

/*
 * One command of the table in cli.c. `args` is the synopsis after the words
 * and also the argument specification: every "--name" in it is an option the
 * command accepts, and it takes a value when the synopsis shows one after it
 * ("--name NAME"); an option followed by "]" or "|" is a switch ("--admin]").
 * `help` is the text of `turnpost --help` and `turnpost help WORDS`; a '\n'
 * in it starts a continuation line.
 */
struct cli_cmd {
	const char *words;   /* "user add" */
	const char *args;    /* "EMAIL [--name NAME] [--admin]" */
	const char *section; /* the heading it is listed under */
	const char *help;
	int (*fn)(struct cli *c);
	unsigned flags;
};

struct cli_opt {
	const char *name; /* "--name", as in the synopsis */
	char *value;      /* NULL for a switch */
};

/* What one run of turnpost knows: the settings, the database and the command's arguments (borrowed from argv). */
struct cli {
	const struct cli_cmd *cmd;
	struct settings cfg;  /* turnpostd's: defaults, config file, environment */
	const char *db;       /* --db, else cfg.db */
	const char *db_from;  /* where db came from, for messages: "--db", "TURNPOST_DB", ... */
	char base_url[300];   /* cfg.base_url, else http://ADDR:PORT of cfg's --listen, as turnpostd */
	struct store *store;
	char **pos;          /* positional arguments after the command's words */
	int npos;
	struct cli_opt *opts; /* options in command-line order */
	int nopts;
};

/* The whole turnpost command; returns the process exit status (0 ok, 1 failure, 2 usage). */
int cli_main(int argc, char **argv);

/* Positional argument i (0: the first after the words), NULL when absent. Borrowed. */
char *cli_arg(const struct cli *c, int i);
/* The value of the first --name given (name with its dashes), NULL when absent or a switch. */
char *cli_opt(const struct cli *c, const char *name);
/* Whether --name was given. */
int cli_has(const struct cli *c, const char *name);
/* Positional i as a positive id; -1 when absent or not one. */
int cli_id(const struct cli *c, int i, int64_t *id);
/* "turnpost: MESSAGE" on stderr; returns 1 (the failure exit status). */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "turnpost: MESSAGE" and the command's synopsis on stderr; returns 2 (the usage exit status). */
int cli_usage(const struct cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Open c->db into c->store (closed by cli_main); non-zero, after a message, on
 * failure. A database that does not exist is refused (a mistyped path would
 * otherwise become a new empty one), unless the command may create one and
 * was given --create.
 */
int cli_open(struct cli *c);

/* The commands (src/cli/<file>.c), referred to by the table in cli.c. */
int cli_user_add(struct cli *c);
int cli_migrate_db_run(struct cli *c);
int cli_user_list(struct cli *c);
int cli_user_link(struct cli *c);
int cli_token_add(struct cli *c);
int cli_token_revoke(struct cli *c);
int cli_game_create(struct cli *c);
int cli_game_list(struct cli *c);
int cli_game_show(struct cli *c);
int cli_game_find(struct cli *c);
int cli_replay_export(struct cli *c);
int cli_replay_import(struct cli *c);
int cli_replay_verify(struct cli *c);
int cli_action_rollback(struct cli *c);
int cli_action_seat_replace(struct cli *c);
int cli_action_drop(struct cli *c);
int cli_action_extend(struct cli *c);
int cli_action_abort(struct cli *c);
int cli_action_audit(struct cli *c);
int cli_outbox_list(struct cli *c);
int cli_outbox_resend(struct cli *c);
int cli_backup_run(struct cli *c);
int cli_restore_run(struct cli *c);

#endif
