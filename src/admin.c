/* admin.c: the admin command line (turnpost): users, tokens, games, export, import, verify, backup */
/* SPDX-License-Identifier: MIT */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin.h"
#include "engine/play.h"
#include "engine/play_admin.h"
#include "engine/registry.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

static const char usage[] =
	"Usage: turnpost [--db FILE] COMMAND [ARGS]\n"
	"Administer a turnpost database (default ./var/turnpost.db; env TURNPOST_DB).\n"
	"\n"
	"Users and tokens:\n"
	"  user add EMAIL [--name NAME] [--admin]   add a user; prints a new API token last\n"
	"  user list                                 list users\n"
	"  user link EMAIL [--base-url URL]          print a one-time web sign-in link (valid one hour)\n"
	"  token add EMAIL [--label TEXT]            a new API token for a user\n"
	"  token revoke ID [--reason TEXT]           revoke a token (the reason goes to the audit log)\n"
	"Games:\n"
	"  game create GAME --player 'NAME <EMAIL>'... [--option KEY=JSON]... [--seed N]\n"
	"                                            create a game; prints its id and seat tokens\n"
	"  game list                                 list games, newest first\n"
	"  game show ID                              a game as JSON (status, seats, position)\n"
	"  export ID [--output FILE]                 write the game's replay file (JSON)\n"
	"  import FILE                               create a game from a replay file, replaying it\n"
	"  verify [ID [--reason TEXT]]               replay games and compare every snapshot\n"
	"                                            (one game: written to the audit log)\n"
	"  game find [--game G] [--status S] [--email E] [--waiting-days N] [--dead]\n"
	"                                            games matching filters, as JSON\n"
	"Admin actions (each needs --reason TEXT and is written to the audit log):\n"
	"  rollback ID N                             roll game ID back to step N (0: set-up)\n"
	"  seat replace ID SEAT [--email E] [--name N]\n"
	"                                            give a seat another player (no --email:\n"
	"                                            an open seat); prints the new seat token\n"
	"  drop ID SEAT                              drop a player: the bot plays the seat\n"
	"  extend ID SEAT --hours H                  extend the seat's running deadline\n"
	"  abort ID                                  end a game without a result\n"
	"  audit [--game ID] [--action A] [--limit N] the audit log, newest first\n"
	"Notifications:\n"
	"  outbox list [--dead | --state S] [--limit N]\n"
	"                                            notifications, newest first (S: pending,\n"
	"                                            sent, dead, skipped)\n"
	"  outbox resend ID [--reason TEXT]          deliver a dead notification again (same id)\n"
	"Database:\n"
	"  backup FILE                               online backup into FILE\n"
	"\n"
	"  --help, --version\n"
	"Exit status: 0 ok, 1 failure (verify: a difference was found), 2 usage error.\n";

struct cli {
	const char *db;
	struct store *store;
	int argc;
	char **argv;
};

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "turnpost: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static int open_store(struct cli *c)
{
	struct err e = {0};

	if (store_open(c->db, NULL, &c->store, &e) < 0) {
		fprintf(stderr, "turnpost: %s\n", e.msg);
		return 1;
	}
	return 0;
}

/* Find "--flag VALUE" in argv from index start; NULL when absent. */
static const char *flag_value(struct cli *c, int start, const char *flag)
{
	for (int i = start; i < c->argc - 1; i++)
		if (strcmp(c->argv[i], flag) == 0)
			return c->argv[i + 1];
	return NULL;
}

static int has_flag(struct cli *c, int start, const char *flag)
{
	for (int i = start; i < c->argc; i++)
		if (strcmp(c->argv[i], flag) == 0)
			return 1;
	return 0;
}

static int new_api_token(struct store_conn *conn, int64_t user_id, const char *label, char tok[TOKEN_TEXT_MAX],
			 int64_t *tid, struct err *e)
{
	unsigned char hash[32];

	token_new(tok, hash);
	return store_token_add(conn, hash, TOKEN_API, user_id, 0, -1, label, 0, tid, e);
}

static int cmd_user_add(struct cli *c)
{
	const char *email = c->argc > 2 ? c->argv[2] : NULL;
	const char *name = flag_value(c, 3, "--name");
	struct store_conn *conn;
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX], derived[128];
	int64_t id, tid;
	int rc;

	if (!email || email[0] == '-' || !strchr(email, '@'))
		return fail("user add needs an email address: turnpost user add you@example.org [--admin]");
	if (!name) {
		snprintf(derived, sizeof(derived), "%.*s", (int)(strchr(email, '@') - email), email);
		name = derived;
	}
	if (open_store(c))
		return 1;
	if ((rc = store_write_begin(c->store, &conn, &e)) == 0) {
		rc = store_user_add(conn, email, name, has_flag(c, 3, "--admin"), &id, &e);
		if (rc == 0)
			rc = new_api_token(conn, id, "cli", tok, &tid, &e);
		if (rc == 0)
			rc = store_write_commit(conn, &e);
		else
			store_write_rollback(conn);
	}
	if (rc < 0)
		return fail("%s", e.msg);
	printf("user %lld %s <%s>%s\n", (long long)id, name, email, has_flag(c, 3, "--admin") ? " (admin)" : "");
	printf("API token (shown once; send it as \"Authorization: Bearer TOKEN\"):\n%s\n", tok);
	return 0;
}

static int cmd_user_link(struct cli *c)
{
	const char *email = c->argc > 2 ? c->argv[2] : NULL;
	const char *base = flag_value(c, 3, "--base-url");
	struct store_conn *conn;
	struct store_user u = {0};
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX];
	unsigned char hash[32];
	size_t blen;
	int rc;

	if (!base)
		base = getenv("TURNPOST_BASE_URL");
	if (!base || !*base)
		base = "http://127.0.0.1:8080";
	if (strncmp(base, "http://", 7) != 0 && strncmp(base, "https://", 8) != 0)
		return fail("--base-url must start with http:// or https://");
	if (!email)
		return fail("user link needs the user's email");
	if (open_store(c))
		return 1;
	token_new(tok, hash);
	if ((rc = store_write_begin(c->store, &conn, &e)) == 0) {
		rc = store_user_by_email(conn, email, &u, &e);
		if (rc == 0)
			rc = store_token_add(conn, hash, TOKEN_SIGNIN, u.id, 0, -1, "cli sign-in link",
					     clock_now_ms() + 3600 * 1000, NULL, &e);
		if (rc == 0)
			rc = store_write_commit(conn, &e);
		else
			store_write_rollback(conn);
	}
	store_user_release(&u);
	if (rc < 0)
		return fail("%s", e.msg);
	blen = strlen(base);
	while (blen && base[blen - 1] == '/')
		blen--;
	printf("sign-in link for %s (works once, for an hour):\n%.*s/signin/%s\n", email, (int)blen, base, tok);
	return 0;
}

static int print_user(void *ctx, const struct store_user *u)
{
	(void)ctx;
	printf("%lld\t%s\t%s%s\n", (long long)u->id, u->email, u->name, u->is_admin ? "\tadmin" : "");
	return 0;
}

static int cmd_user_list(struct cli *c)
{
	struct store_conn *conn;
	struct err e = {0};
	int rc;

	if (open_store(c))
		return 1;
	if ((rc = store_read_acquire(c->store, &conn, &e)) == 0) {
		rc = store_user_each(conn, print_user, NULL, &e);
		store_read_release(conn);
	}
	return rc < 0 ? fail("%s", e.msg) : 0;
}

static int cmd_token_add(struct cli *c)
{
	const char *email = c->argc > 2 ? c->argv[2] : NULL;
	const char *label = flag_value(c, 3, "--label");
	struct store_conn *conn;
	struct store_user u = {0};
	struct err e = {0};
	char tok[TOKEN_TEXT_MAX];
	int64_t tid;
	int rc;

	if (!email)
		return fail("token add needs the user's email");
	if (open_store(c))
		return 1;
	if ((rc = store_write_begin(c->store, &conn, &e)) == 0) {
		rc = store_user_by_email(conn, email, &u, &e);
		if (rc == 0)
			rc = new_api_token(conn, u.id, label ? label : "cli", tok, &tid, &e);
		if (rc == 0)
			rc = store_write_commit(conn, &e);
		else
			store_write_rollback(conn);
	}
	store_user_release(&u);
	if (rc < 0)
		return fail("%s", e.msg);
	printf("token %lld for %s (shown once):\n%s\n", (long long)tid, email, tok);
	return 0;
}

static int cmd_token_revoke(struct cli *c)
{
	struct store_conn *conn;
	struct err e = {0};
	char *end;
	long long id = c->argc > 2 ? strtoll(c->argv[2], &end, 10) : 0;
	int rc;

	if (id <= 0 || *end)
		return fail("token revoke needs a token id (a number)");
	if (open_store(c))
		return 1;
	if ((rc = store_write_begin(c->store, &conn, &e)) == 0) {
		rc = store_token_revoke(conn, id, clock_now_ms(), &e);
		if (rc == 0)
			rc = store_audit_add(conn, 0, "cli", "token_revoke", 0, flag_value(c, 3, "--reason"), -1, -1, NULL,
					     clock_now_ms(), &e);
		if (rc == 0)
			rc = store_write_commit(conn, &e);
		else
			store_write_rollback(conn);
	}
	if (rc < 0)
		return fail("%s", e.msg);
	printf("token %lld revoked\n", id);
	return 0;
}

/* "Name <email>" or "Name" */
static int parse_player(char *spec, struct play_player *p)
{
	char *lt = strrchr(spec, '<'), *gt; /* the last '<': names may contain one */

	p->email = NULL;
	if (lt) {
		gt = strchr(lt, '>');
		if (!gt || gt[1])
			return -1;
		*gt = '\0';
		p->email = lt + 1;
		while (lt > spec && lt[-1] == ' ')
			lt--;
		*lt = '\0';
	}
	p->name = spec;
	return *spec ? 0 : -1;
}

static int cmd_game_create(struct cli *c)
{
	struct play_player players[GAME_MAX_SEATS];
	char tokens[GAME_MAX_SEATS][TOKEN_TEXT_MAX];
	struct play_new_game ng = {0};
	json_t *options = json_object();
	struct err e = {0};
	int64_t id;
	int n = 0, rc = 0;

	ng.game = c->argc > 2 ? c->argv[2] : NULL;
	if (!ng.game || ng.game[0] == '-') {
		json_decref(options);
		return fail("game create needs a game id (see the catalog: alien-frontiers, ...)");
	}
	for (int i = 3; i < c->argc; i++) {
		if (strcmp(c->argv[i], "--player") == 0 && i + 1 < c->argc) {
			if (n == GAME_MAX_SEATS || parse_player(c->argv[++i], &players[n]) < 0) {
				rc = fail("bad --player \"%s\": use 'Name <email>'", c->argv[i]);
				goto done;
			}
			n++;
		} else if (strcmp(c->argv[i], "--option") == 0 && i + 1 < c->argc) {
			char *kv = c->argv[++i], *eq = strchr(kv, '=');
			json_t *v;
			if (!eq) {
				rc = fail("bad --option \"%s\": use KEY=VALUE (VALUE as JSON)", kv);
				goto done;
			}
			*eq = '\0';
			v = json_loads(eq + 1, JSON_DECODE_ANY, NULL);
			json_object_set_new(options, kv, v ? v : json_string(eq + 1));
		} else if (strcmp(c->argv[i], "--seed") == 0 && i + 1 < c->argc) {
			char *end;
			ng.seed = strtoull(c->argv[++i], &end, 10);
			if (*end) {
				rc = fail("--seed must be a number");
				goto done;
			}
			ng.have_seed = 1;
		} else {
			rc = fail("unexpected argument \"%s\"", c->argv[i]);
			goto done;
		}
	}
	if (open_store(c)) {
		rc = 1;
		goto done;
	}
	ng.options = options;
	ng.players = players;
	ng.nplayers = n;
	if (play_game_create(c->store, &ng, &id, tokens, &e) < 0) {
		rc = fail("%s", e.msg);
		goto done;
	}
	printf("game %lld created\n", (long long)id);
	for (int i = 0; i < n; i++)
		printf("seat %d\t%s\t%s\t%s\n", i, players[i].name, players[i].email ? players[i].email : "-", tokens[i]);
done:
	json_decref(options);
	return rc;
}

static int cmd_game_list(struct cli *c)
{
	struct store_conn *conn;
	struct err e = {0};
	int64_t *ids = NULL;
	int n = 0, rc;

	if (open_store(c))
		return 1;
	if ((rc = store_read_acquire(c->store, &conn, &e)) == 0) {
		rc = store_game_ids(conn, 0, 1000000, &ids, &n, &e);
		store_read_release(conn);
	}
	if (rc < 0)
		return fail("%s", e.msg);
	for (int i = 0; i < n; i++) {
		struct store_game g;
		struct store_seat *seats;
		int nseats;
		char when[32];
		if (play_game_info(c->store, ids[i], &g, &seats, &nseats, &e) < 0)
			continue;
		clock_format_utc(g.updated_at, when);
		printf("%lld\t%s\t%s\t%d steps\t%s\t", (long long)g.id, g.game, g.status, g.move_count, when);
		for (int k = 0; k < nseats; k++)
			printf("%s%s", k ? ", " : "", seats[k].name);
		putchar('\n');
		store_seats_free(seats, nseats);
		store_game_release(&g);
	}
	free(ids);
	return 0;
}

static int parse_id(struct cli *c, int at, int64_t *id)
{
	char *end;

	if (c->argc <= at)
		return -1;
	*id = strtoll(c->argv[at], &end, 10);
	return *id > 0 && !*end ? 0 : -1;
}

static int cmd_game_show(struct cli *c)
{
	struct err e = {0};
	json_t *o;
	int64_t id;

	if (parse_id(c, 2, &id) < 0)
		return fail("game show needs a game id");
	if (open_store(c))
		return 1;
	if (play_game_json(c->store, id, -1, 1, &o, &e) < 0)
		return fail("%s", e.msg);
	json_dumpf(o, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(o);
	return 0;
}

static int cmd_export(struct cli *c)
{
	const char *path = flag_value(c, 2, "--output");
	struct err e = {0};
	json_t *o;
	int64_t id;
	int rc;

	if (parse_id(c, 1, &id) < 0)
		return fail("export needs a game id");
	if (open_store(c))
		return 1;
	if (play_export(c->store, id, &o, &e) < 0)
		return fail("%s", e.msg);
	rc = path ? json_dump_file(o, path, JSON_INDENT(1)) : json_dumpf(o, stdout, JSON_INDENT(1));
	if (!path)
		putchar('\n');
	json_decref(o);
	return rc < 0 ? fail("cannot write %s", path ? path : "stdout") : 0;
}

static int cmd_import(struct cli *c)
{
	json_error_t jerr;
	struct err e = {0};
	json_t *file;
	int64_t id;
	int first_bad;

	if (c->argc < 2)
		return fail("import needs a replay file");
	file = json_load_file(c->argv[1], 0, &jerr);
	if (!file) {
		fprintf(stderr, "turnpost: %s is not JSON: %s (line %d)\n", c->argv[1], jerr.text, jerr.line);
		return 1;
	}
	if (open_store(c)) {
		json_decref(file);
		return 1;
	}
	if (play_import(c->store, file, 0, &id, &e) < 0) {
		json_decref(file);
		return fail("%s", e.msg);
	}
	json_decref(file);
	if (play_verify(c->store, id, &first_bad, &e) < 0)
		return fail("imported, but verify failed: %s", e.msg);
	printf("game %lld imported and verified\n", (long long)id);
	return 0;
}

static int cmd_verify(struct cli *c)
{
	struct store_conn *conn;
	struct err e = {0};
	int64_t *ids = NULL, one;
	int n = 0, bad = 0, rc;

	if (open_store(c))
		return 1;
	if (c->argc > 1) {
		if (parse_id(c, 1, &one) < 0)
			return fail("verify takes an optional game id");
		ids = malloc(sizeof(*ids));
		ids[0] = one;
		n = 1;
	} else {
		if ((rc = store_read_acquire(c->store, &conn, &e)) == 0) {
			rc = store_game_ids(conn, 0, 100000000, &ids, &n, &e);
			store_read_release(conn);
		}
		if (rc < 0)
			return fail("%s", e.msg);
	}
	for (int i = 0; i < n; i++) {
		int first;
		err_clear(&e);
		if (n == 1) {
			/* one game on purpose: an admin's check, written to the audit log like the page's */
			struct play_admin_actor who = { .channel = "cli", .reason = flag_value(c, 2, "--reason") };
			rc = play_admin_verify(c->store, &who, ids[i], &first, NULL, &e);
		} else {
			rc = play_verify(c->store, ids[i], &first, &e);
		}
		if (rc < 0) {
			printf("game %lld: FAILED: %s\n", (long long)ids[i], e.msg);
			bad++;
		} else {
			printf("game %lld: ok\n", (long long)ids[i]);
		}
	}
	free(ids);
	printf("%d verified, %d failed\n", n - bad, bad);
	return bad ? 1 : 0;
}

static int cmd_backup(struct cli *c)
{
	struct err e = {0};

	if (c->argc < 2)
		return fail("backup needs a destination file");
	if (open_store(c))
		return 1;
	if (store_backup(c->store, c->argv[1], &e) < 0)
		return fail("%s", e.msg);
	printf("backup written to %s\n", c->argv[1]);
	return 0;
}

static int cmd_outbox_list(struct cli *c)
{
	struct store_outbox_row *rows = NULL;
	struct store_conn *conn;
	struct err e = {0};
	const char *state = flag_value(c, 2, "--state"), *limit = flag_value(c, 2, "--limit");
	int n = 0, rc;

	if (has_flag(c, 2, "--dead"))
		state = "dead";
	if (state && strcmp(state, "pending") != 0 && strcmp(state, "sent") != 0 && strcmp(state, "dead") != 0 &&
	    strcmp(state, "skipped") != 0)
		return fail("--state must be pending, sent, dead or skipped");
	if (open_store(c))
		return 1;
	if ((rc = store_read_acquire(c->store, &conn, &e)) == 0) {
		rc = store_outbox_list(conn, state, 0, limit ? (int)strtol(limit, NULL, 10) : 100, &rows, &n, &e);
		store_read_release(conn);
	}
	if (rc < 0)
		return fail("%s", e.msg);
	printf("id\tevent\tgame\tseat\tuser\tstate\tattempts\tnext\tlast error\n");
	for (int i = 0; i < n; i++) {
		char next[32];
		clock_format_utc(rows[i].next_at, next);
		printf("%lld\t%s\t%lld\t%d\t%lld\t%s\t%d\t%s\t%s\n", (long long)rows[i].id, rows[i].event,
		       (long long)rows[i].game_id, rows[i].seat, (long long)rows[i].user_id, rows[i].state,
		       rows[i].attempts, strcmp(rows[i].state, "pending") == 0 ? next : "-",
		       rows[i].last_error ? rows[i].last_error : "-");
	}
	store_outbox_rows_free(rows, n);
	return 0;
}

static int cmd_outbox_resend(struct cli *c)
{
	struct store_conn *conn;
	struct err e = {0};
	int64_t id;
	int rc;

	if (parse_id(c, 2, &id)) {
		fail("outbox resend needs the id of a notification (see outbox list --dead)");
		return 2;
	}
	if (open_store(c))
		return 1;
	if ((rc = store_write_begin(c->store, &conn, &e)) < 0)
		return fail("%s", e.msg);
	if ((rc = store_outbox_resend(conn, id, clock_now_ms(), &e)) == 0)
		rc = store_audit_add(conn, 0, "cli", "outbox_resend", 0, flag_value(c, 3, "--reason"), -1, -1, NULL,
				     clock_now_ms(), &e);
	if (rc < 0) {
		store_write_rollback(conn);
		return fail("%s", e.msg);
	}
	if ((rc = store_write_commit(conn, &e)) < 0)
		return fail("%s", e.msg);
	printf("notification %lld queued again; a running turnpostd delivers it within a second\n", (long long)id);
	return 0;
}

/* The --reason of an admin action; NULL (after a message) when missing. */
static const char *need_reason(struct cli *c, int start)
{
	const char *reason = flag_value(c, start, "--reason");

	if (!reason || !*reason)
		fail("this needs --reason TEXT: why (it goes into the audit log)");
	return reason;
}

/* Print an action's summary and close the command. */
static int action_done(int rc, json_t *res, const struct err *e)
{
	if (rc < 0) {
		json_decref(res);
		return fail("%s", e->msg);
	}
	json_dumpf(res, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(res);
	return 0;
}

static int cmd_rollback(struct cli *c)
{
	struct play_admin_actor a = { .channel = "cli" };
	struct err e = {0};
	json_t *res = NULL;
	int rc;
	int64_t id, to;

	if (parse_id(c, 1, &id) < 0 || c->argc < 3 || (strcmp(c->argv[2], "0") != 0 && parse_id(c, 2, &to) < 0)) {
		fail("usage: turnpost rollback GAME STEP --reason TEXT (STEP 0 is the set-up)");
		return 2;
	}
	if (strcmp(c->argv[2], "0") == 0)
		to = 0;
	if (!(a.reason = need_reason(c, 3)))
		return 2;
	if (open_store(c))
		return 1;
	rc = play_admin_rollback(c->store, &a, id, (int)to, &res, &e);
	return action_done(rc, res, &e);
}

/* "GAME SEAT" at argv[at], argv[at+1]; seat may be 0. */
static int parse_game_seat(struct cli *c, int at, int64_t *id, int *seat)
{
	char *end;
	long v;

	if (parse_id(c, at, id) < 0 || c->argc <= at + 1)
		return -1;
	v = strtol(c->argv[at + 1], &end, 10);
	if (*end || end == c->argv[at + 1] || v < 0 || v >= GAME_MAX_SEATS)
		return -1;
	*seat = (int)v;
	return 0;
}

static int cmd_seat_replace(struct cli *c)
{
	struct play_admin_actor a = { .channel = "cli" };
	struct err e = {0};
	json_t *res = NULL;
	int rc;
	int64_t id;
	int seat;

	if (parse_game_seat(c, 2, &id, &seat) < 0) {
		fail("usage: turnpost seat replace GAME SEAT [--email E] [--name N] --reason TEXT");
		return 2;
	}
	if (!(a.reason = need_reason(c, 4)))
		return 2;
	if (open_store(c))
		return 1;
	rc = play_admin_seat_replace(c->store, &a, id, seat, flag_value(c, 4, "--name"), flag_value(c, 4, "--email"),
				     &res, &e);
	return action_done(rc, res, &e);
}

static int cmd_drop(struct cli *c)
{
	struct play_admin_actor a = { .channel = "cli" };
	struct err e = {0};
	json_t *res = NULL;
	int rc;
	int64_t id;
	int seat;

	if (parse_game_seat(c, 1, &id, &seat) < 0) {
		fail("usage: turnpost drop GAME SEAT --reason TEXT");
		return 2;
	}
	if (!(a.reason = need_reason(c, 3)))
		return 2;
	if (open_store(c))
		return 1;
	rc = play_admin_drop(c->store, &a, id, seat, &res, &e);
	return action_done(rc, res, &e);
}

static int cmd_extend(struct cli *c)
{
	struct play_admin_actor a = { .channel = "cli" };
	const char *hours = flag_value(c, 3, "--hours");
	struct err e = {0};
	json_t *res = NULL;
	int rc;
	int64_t id;
	double h;
	char *end = NULL;
	int seat;

	if (hours)
		h = strtod(hours, &end);
	if (parse_game_seat(c, 1, &id, &seat) < 0 || !hours || *end || h <= 0) {
		fail("usage: turnpost extend GAME SEAT --hours H --reason TEXT");
		return 2;
	}
	if (!(a.reason = need_reason(c, 3)))
		return 2;
	if (open_store(c))
		return 1;
	rc = play_admin_extend(c->store, &a, id, seat, (int64_t)(h * 3600000.0 + 0.5), &res, &e);
	return action_done(rc, res, &e);
}

static int cmd_abort(struct cli *c)
{
	struct play_admin_actor a = { .channel = "cli" };
	struct err e = {0};
	json_t *res = NULL;
	int rc;
	int64_t id;

	if (parse_id(c, 1, &id) < 0) {
		fail("usage: turnpost abort GAME --reason TEXT");
		return 2;
	}
	if (!(a.reason = need_reason(c, 2)))
		return 2;
	if (open_store(c))
		return 1;
	rc = play_admin_abort(c->store, &a, id, &res, &e);
	return action_done(rc, res, &e);
}

static int cmd_audit(struct cli *c)
{
	struct store_audit_filter f = { .action = flag_value(c, 1, "--action") };
	const char *game = flag_value(c, 1, "--game"), *limit = flag_value(c, 1, "--limit");
	struct err e = {0};
	json_t *list, *row;
	size_t i;

	if (game)
		f.game_id = strtoll(game, NULL, 10);
	if (limit)
		f.limit = (int)strtol(limit, NULL, 10);
	if (open_store(c))
		return 1;
	if (play_admin_audit(c->store, &f, &list, &e) < 0)
		return fail("%s", e.msg);
	printf("id\ttime\tactor\taction\tgame\tsteps\treason\tdetail\n");
	json_array_foreach(list, i, row) {
		char *detail = json_dumps(json_object_get(row, "detail"), JSON_COMPACT | JSON_SORT_KEYS);
		const char *email = json_string_value(json_object_get(row, "actor_email"));
		printf("%lld\t%s\t%s%s%s\t%s\t%lld\t%lld->%lld\t%s\t%s\n",
		       (long long)json_integer_value(json_object_get(row, "id")),
		       json_string_value(json_object_get(row, "time")), email ? email : "", email ? " via " : "",
		       json_string_value(json_object_get(row, "actor")), json_string_value(json_object_get(row, "action")),
		       (long long)json_integer_value(json_object_get(row, "game")),
		       (long long)(json_is_integer(json_object_get(row, "before")) ? json_integer_value(json_object_get(row, "before")) : -1),
		       (long long)(json_is_integer(json_object_get(row, "after")) ? json_integer_value(json_object_get(row, "after")) : -1),
		       json_string_value(json_object_get(row, "reason")) ? json_string_value(json_object_get(row, "reason")) : "-",
		       detail ? detail : "{}");
		free(detail);
	}
	json_decref(list);
	return 0;
}

static int cmd_game_find(struct cli *c)
{
	struct store_admin_filter f = { .game = flag_value(c, 2, "--game"), .status = flag_value(c, 2, "--status"),
					.email = flag_value(c, 2, "--email"), .dead = has_flag(c, 2, "--dead") };
	const char *days = flag_value(c, 2, "--waiting-days");
	struct err e = {0};
	json_t *list;

	if (days)
		f.idle_before = clock_now_ms() - (int64_t)(strtod(days, NULL) * 86400000.0);
	if (open_store(c))
		return 1;
	if (play_admin_games(c->store, &f, &list, &e) < 0)
		return fail("%s", e.msg);
	json_dumpf(list, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(list);
	return 0;
}

static const struct {
	const char *word1, *word2;
	int (*fn)(struct cli *c);
} commands[] = {
	{ "rollback", NULL, cmd_rollback },
	{ "seat", "replace", cmd_seat_replace },
	{ "drop", NULL, cmd_drop },
	{ "extend", NULL, cmd_extend },
	{ "abort", NULL, cmd_abort },
	{ "audit", NULL, cmd_audit },
	{ "game", "find", cmd_game_find },
	{ "outbox", "list", cmd_outbox_list },
	{ "outbox", "resend", cmd_outbox_resend },
	{ "user", "add", cmd_user_add },
	{ "user", "list", cmd_user_list },
	{ "user", "link", cmd_user_link },
	{ "token", "add", cmd_token_add },
	{ "token", "revoke", cmd_token_revoke },
	{ "game", "create", cmd_game_create },
	{ "game", "list", cmd_game_list },
	{ "game", "show", cmd_game_show },
	{ "export", NULL, cmd_export },
	{ "import", NULL, cmd_import },
	{ "verify", NULL, cmd_verify },
	{ "backup", NULL, cmd_backup },
};

int admin_main(int argc, char **argv)
{
	struct cli c = { .db = getenv("TURNPOST_DB") };
	int i = 1, rc = 2;

	if (!c.db || !*c.db)
		c.db = "./var/turnpost.db";
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("turnpost %s\n", PACKAGE_VERSION);
			return 0;
		} else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
			c.db = argv[++i];
		} else if (strncmp(argv[i], "--db=", 5) == 0) {
			c.db = argv[i] + 5;
		} else {
			fprintf(stderr, "turnpost: unknown option %s\n%s", argv[i], usage);
			return 2;
		}
	}
	if (i >= argc) {
		fputs(usage, stderr);
		return 2;
	}
	if (token_init() < 0)
		return fail("cannot initialise libsodium");
	c.argc = argc - i;
	c.argv = argv + i;
	for (size_t k = 0; k < sizeof(commands) / sizeof(commands[0]); k++) {
		if (strcmp(c.argv[0], commands[k].word1) != 0)
			continue;
		if (commands[k].word2 && (c.argc < 2 || strcmp(c.argv[1], commands[k].word2) != 0))
			continue;
		rc = commands[k].fn(&c);
		store_close(c.store);
		return rc;
	}
	fprintf(stderr, "turnpost: unknown command \"%s%s%s\"\n%s", c.argv[0], c.argc > 1 ? " " : "",
		c.argc > 1 ? c.argv[1] : "", usage);
	return 2;
}
