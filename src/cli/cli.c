/* cli.c: turnpost's command table, its argument parser, help and dispatch */
/* SPDX-License-Identifier: MIT */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "store/store.h"
#include "util/token.h"
#include "util/version.h"
#include "util/banned.h"

#define SEC_USERS "Users and tokens:"
#define SEC_GAMES "Games:"
#define SEC_ACTIONS "Admin actions (each needs --reason TEXT and is written to the audit log):"
#define SEC_NOTIFY "Notifications:"
#define SEC_DB "Database:"

/* Listed in this order by --help; a section starts where its name first appears. */
static const struct cli_cmd cli_table[] = {
	{ "user add", "EMAIL [--name NAME] [--admin] [--create]", SEC_USERS,
	  "add a user; prints a new API token last\n(--create: make the database when there is none)", cli_user_add,
	  CLI_MAY_CREATE },
	{ "user list", "", SEC_USERS, "list users", cli_user_list, 0 },
	{ "user link", "EMAIL [--base-url URL]", SEC_USERS,
	  "print a one-time web sign-in link (valid one hour;\nURL: turnpostd's --base-url)", cli_user_link, 0 },
	{ "token add", "EMAIL [--label TEXT]", SEC_USERS, "a new API token for a user", cli_token_add, 0 },
	{ "token revoke", "ID [--reason TEXT]", SEC_USERS,
	  "revoke a token (the reason goes to the audit log)", cli_token_revoke, 0 },
	{ "game create", "GAME --player 'NAME <EMAIL>'... [--option KEY=JSON]... [--seed N]", SEC_GAMES,
	  "create a game; prints its id and seat tokens", cli_game_create, 0 },
	{ "game list", "", SEC_GAMES, "list games, newest first", cli_game_list, 0 },
	{ "game show", "ID", SEC_GAMES, "a game as JSON (status, seats, position)", cli_game_show, 0 },
	{ "export", "ID [--output FILE]", SEC_GAMES, "write the game's replay file (JSON)", cli_replay_export, 0 },
	{ "import", "FILE [--notify] [--reason TEXT]", SEC_GAMES,
	  "create a game from a replay file, replaying it\n(an audit row; --notify: invite each seat)", cli_replay_import, 0 },
	{ "verify", "[ID [--reason TEXT]]", SEC_GAMES,
	  "replay games and compare every snapshot\n(one game: written to the audit log)", cli_replay_verify, 0 },
	{ "game find", "[--game G] [--status S] [--email E] [--waiting-days N] [--dead]", SEC_GAMES,
	  "games matching filters, as JSON", cli_game_find, 0 },
	{ "rollback", "ID N --reason TEXT", SEC_ACTIONS, "roll game ID back to step N (0: set-up)",
	  cli_action_rollback, 0 },
	{ "seat replace", "ID SEAT [--email E] [--name N] --reason TEXT", SEC_ACTIONS,
	  "give a seat another player (no --email:\nan open seat); prints the new seat token",
	  cli_action_seat_replace, 0 },
	{ "drop", "ID SEAT --reason TEXT", SEC_ACTIONS, "drop a player: the bot plays the seat", cli_action_drop, 0 },
	{ "extend", "ID SEAT --hours H --reason TEXT", SEC_ACTIONS, "extend the seat's running deadline",
	  cli_action_extend, 0 },
	{ "abort", "ID --reason TEXT", SEC_ACTIONS, "end a game without a result", cli_action_abort, 0 },
	{ "audit", "[--game ID] [--action A] [--limit N]", SEC_ACTIONS, "the audit log, newest first",
	  cli_action_audit, 0 },
	{ "outbox list", "[--dead | --state S] [--limit N]", SEC_NOTIFY,
	  "notifications, newest first (S: pending,\nsent, dead, skipped)", cli_outbox_list, 0 },
	{ "outbox resend", "ID [--reason TEXT]", SEC_NOTIFY, "deliver a dead notification again (same id)",
	  cli_outbox_resend, 0 },
	{ "backup", "FILE [--force]", SEC_DB,
	  "a checked copy of the database, made\nwhile turnpostd runs (--force: replace FILE)",
	  cli_backup_run, 0 },
	{ "restore", "FILE", SEC_DB,
	  "replace the database by a backup, checked\nfirst (turnpostd stopped; the old database\nis kept aside)",
	  cli_restore_run, 0 },
	{ "migrate-db", "--from DATABASE --to DATABASE", SEC_DB,
	  "copy a whole site between an SQLite file and\nPostgreSQL (either way) into an empty database;\nthen run verify on it",
	  cli_migrate_db_run, 0 },
};

#define CLI_NCMDS (sizeof(cli_table) / sizeof(cli_table[0]))
#define CLI_HELP_COLUMN 44

static const char cli_head[] =
	"Usage: turnpost [--db FILE] [--config FILE] COMMAND [ARGS]\n"
	"Administer a turnpost database. The settings are turnpostd's: its config file\n"
	"(--config or TURNPOST_CONFIG) and environment (TURNPOST_DB, TURNPOST_BASE_URL, ...);\n"
	"--db wins over both (default ./var/turnpost.db). A database that does not exist\n"
	"is refused, except by user add --create.\n";
static const char cli_tail[] =
	"\n"
	"  help COMMAND                              one command's usage\n"
	"  --help, --version\n"
	"Exit status: 0 ok, 1 failure (verify: a difference was found), 2 usage error.\n";

/* The help text, continuation lines indented to `indent` columns. */
static void cli_print_help_text(FILE *f, const char *text, int indent)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		fprintf(f, "%.*s\n", (int)n, p);
		p += n;
		if (*p == '\n') {
			p++;
			fprintf(f, "%*s", indent, "");
		}
	}
}

static void cli_print_entry(FILE *f, const struct cli_cmd *cmd)
{
	int n = fprintf(f, "  %s%s%s", cmd->words, cmd->args[0] ? " " : "", cmd->args);

	if (n + 1 > CLI_HELP_COLUMN)
		fprintf(f, "\n%*s", CLI_HELP_COLUMN, "");
	else
		fprintf(f, "%*s", CLI_HELP_COLUMN - n, "");
	cli_print_help_text(f, cmd->help, CLI_HELP_COLUMN);
}

static void cli_print_usage(FILE *f)
{
	const char *section = NULL;

	fputs(cli_head, f);
	fputc('\n', f);
	for (size_t k = 0; k < CLI_NCMDS; k++) {
		if (!section || strcmp(section, cli_table[k].section) != 0) {
			section = cli_table[k].section;
			fprintf(f, "%s\n", section);
		}
		cli_print_entry(f, &cli_table[k]);
	}
	fputs(cli_tail, f);
}

static void cli_print_synopsis(FILE *f, const struct cli_cmd *cmd)
{
	fprintf(f, "usage: turnpost %s%s%s\n", cmd->words, cmd->args[0] ? " " : "", cmd->args);
}

int cli_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "turnpost: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

int cli_usage(const struct cli *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "turnpost: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (c && c->cmd)
		cli_print_synopsis(stderr, c->cmd);
	return 2;
}

char *cli_arg(const struct cli *c, int i)
{
	return i >= 0 && i < c->npos ? c->pos[i] : NULL;
}

char *cli_opt(const struct cli *c, const char *name)
{
	for (int i = 0; i < c->nopts; i++)
		if (strcmp(c->opts[i].name, name) == 0)
			return c->opts[i].value;
	return NULL;
}

int cli_has(const struct cli *c, const char *name)
{
	for (int i = 0; i < c->nopts; i++)
		if (strcmp(c->opts[i].name, name) == 0)
			return 1;
	return 0;
}

int cli_id(const struct cli *c, int i, int64_t *id)
{
	const char *s = cli_arg(c, i);
	char *end;

	if (!s)
		return -1;
	*id = strtoll(s, &end, 10);
	return *id > 0 && end != s && !*end ? 0 : -1;
}

int cli_open(struct cli *c)
{
	struct err e = {0};

	/* a PostgreSQL database is made by its server's administrator (createdb), never here */
	if (!store_target_is_postgres(c->db) && access(c->db, F_OK) < 0) {
		if (errno != ENOENT)
			return cli_fail("cannot use the database %s (from %s): %s", c->db, c->db_from, strerror(errno));
		if (!(c->cmd->flags & CLI_MAY_CREATE) || !cli_has(c, "--create"))
			return cli_fail("no database at %s (from %s): check the path, or make a new database with "
					"turnpost --db %s user add EMAIL --admin --create", c->db, c->db_from, c->db);
	}
	if (store_open(c->db, NULL, &c->store, &e) < 0) {
		fprintf(stderr, "turnpost: %s\n", e.msg);
		return 1;
	}
	return 0;
}

/* The settings turnpostd would run with (file and environment), then the command line's --db. */
static int cli_settings(struct cli *c, const char *config, const char *db)
{
	struct err e = {0};
	const char *env = getenv("TURNPOST_DB");

	settings_init(&c->cfg);
	if (settings_load_file_env(&c->cfg, config, &e) < 0) {
		fprintf(stderr, "turnpost: %s\n", e.msg);
		return 2;
	}
	c->db = db ? db : c->cfg.db;
	c->db_from = db ? "--db" : env && *env ? "TURNPOST_DB" : strcmp(c->cfg.db, "./var/turnpost.db") != 0 ?
		"the config file" : "the default";
	if (c->cfg.base_url[0])
		snprintf(c->base_url, sizeof(c->base_url), "%s", c->cfg.base_url);
	else if (strncmp(c->cfg.listen_addr, "unix:", 5) == 0)
		snprintf(c->base_url, sizeof(c->base_url), "http://localhost");
	else
		snprintf(c->base_url, sizeof(c->base_url), "http://%s:%d", c->cfg.listen_addr, c->cfg.port);
	return 0;
}

/*
 * How the synopsis `args` declares option `name` (with its dashes):
 * 0 not at all, 1 a switch, 2 an option with a value.
 */
static int cli_spec_kind(const char *args, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(args, name); p; p = strstr(p + 1, name)) {
		const char *after = p + n;
		if (p > args && p[-1] != ' ' && p[-1] != '[')
			continue;
		if (*after == ' ' && after[1] && !strchr("[]|-", after[1]))
			return 2;
		if (*after == ']' || *after == '\0' || (*after == ' ' && after[1] == '|') || *after == '.')
			return 1;
	}
	return 0;
}

/* Split the arguments after the command's words into positionals and declared options. */
static int cli_parse_args(struct cli *c, int argc, char **argv)
{
	c->pos = calloc((size_t)argc + 1, sizeof(*c->pos));
	c->opts = calloc((size_t)argc + 1, sizeof(*c->opts));
	if (!c->pos || !c->opts)
		return cli_fail("out of memory");
	for (int i = 0; i < argc; i++) {
		char *arg = argv[i], *eq;
		int kind;

		if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
			c->pos[c->npos++] = arg;
			continue;
		}
		if ((eq = strchr(arg, '=')))
			*eq = '\0'; /* argv is ours: the option's name ends there */
		if (!(kind = cli_spec_kind(c->cmd->args, arg)))
			return cli_usage(c, "%s does not take the option %s", c->cmd->words, arg);
		c->opts[c->nopts].name = arg;
		if (kind == 1) {
			if (eq)
				return cli_usage(c, "%s takes no value", arg);
		} else if (eq) {
			c->opts[c->nopts].value = eq + 1;
		} else if (i + 1 < argc) {
			c->opts[c->nopts].value = argv[++i];
		} else {
			return cli_usage(c, "%s needs a value", arg);
		}
		c->nopts++;
	}
	return 0;
}

/* The entry whose words begin argv (one or two words); NULL when none. */
static const struct cli_cmd *cli_find(int argc, char **argv, int *nwords)
{
	for (size_t k = 0; k < CLI_NCMDS; k++) {
		const char *w = cli_table[k].words, *sp = strchr(w, ' ');
		size_t n1 = sp ? (size_t)(sp - w) : strlen(w);
		if (strncmp(argv[0], w, n1) != 0 || argv[0][n1])
			continue;
		if (!sp) {
			*nwords = 1;
			return &cli_table[k];
		}
		if (argc > 1 && strcmp(argv[1], sp + 1) == 0) {
			*nwords = 2;
			return &cli_table[k];
		}
	}
	return NULL;
}

/* turnpost help [WORDS]: the whole usage, or one command's. */
static int cli_help(int argc, char **argv)
{
	const struct cli_cmd *cmd;
	int nwords;

	if (argc < 1) {
		cli_print_usage(stdout);
		return 0;
	}
	if (!(cmd = cli_find(argc, argv, &nwords))) {
		fprintf(stderr, "turnpost: no command \"%s%s%s\" (see turnpost --help)\n", argv[0], argc > 1 ? " " : "",
			argc > 1 ? argv[1] : "");
		return 2;
	}
	cli_print_synopsis(stdout, cmd);
	fputs("  ", stdout);
	cli_print_help_text(stdout, cmd->help, 2);
	return 0;
}

int cli_main(int argc, char **argv)
{
	struct cli c = {0};
	const char *db = NULL, *config = NULL;
	int i = 1, nwords = 0, rc = 2;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			cli_print_usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("turnpost %s\n", version_text);
			return 0;
		} else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
			db = argv[++i];
		} else if (strncmp(argv[i], "--db=", 5) == 0) {
			db = argv[i] + 5;
		} else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
			config = argv[++i];
		} else if (strncmp(argv[i], "--config=", 9) == 0) {
			config = argv[i] + 9;
		} else {
			fprintf(stderr, "turnpost: unknown option %s\n", argv[i]);
			cli_print_usage(stderr);
			return 2;
		}
	}
	if (i >= argc) {
		cli_print_usage(stderr);
		return 2;
	}
	if (strcmp(argv[i], "help") == 0)
		return cli_help(argc - i - 1, argv + i + 1);
	if (!(c.cmd = cli_find(argc - i, argv + i, &nwords))) {
		fprintf(stderr, "turnpost: unknown command \"%s%s%s\"\n", argv[i], i + 1 < argc ? " " : "",
			i + 1 < argc ? argv[i + 1] : "");
		cli_print_usage(stderr);
		return 2;
	}
	i += nwords;
	for (int k = i; k < argc; k++)
		if (strcmp(argv[k], "--help") == 0)
			return cli_help(nwords, argv + i - nwords);
	if ((rc = cli_settings(&c, config, db)) != 0)
		goto done;
	if (token_init() < 0) {
		rc = cli_fail("cannot initialise libsodium");
		goto done;
	}
	if ((rc = cli_parse_args(&c, argc - i, argv + i)) != 0)
		goto done;
	rc = c.cmd->fn(&c);
done:
	store_close(c.store);
	free(c.pos);
	free(c.opts);
	return rc;
}
