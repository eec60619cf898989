/* tests/unit/actions_fixture.c: a store with the test game, accounts and audit reads for the engine action suites */
/* SPDX-License-Identifier: MIT */
#include "actions_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/create.h"
#include "engine/engine.h"
#include "engine/registry.h"
#include "fake_game.h"
#include "util/token.h"

struct store *fx_store;
static char dir[64];
static struct game_ops nobot;
static int serial;

int fx_open(void)
{
	char path[128];
	struct err e = {0};

	snprintf(dir, sizeof(dir), "/tmp/tp-actions-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", dir);
	token_init();
	if (!nobot.id) {
		registry_add_for_tests(&fake_game);
		nobot = fake_game;
		nobot.id = "counting-race-nobot";
		nobot.title = "Counting race without a bot";
		nobot.bot = NULL;
		registry_add_for_tests(&nobot);
	}
	return store_open(path, NULL, &fx_store, &e);
}

int fx_close(void)
{
	char cmd[160];

	store_close(fx_store);
	fx_store = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int64_t fx_user(const char *email, const char *name, int is_admin)
{
	struct store_conn *c;
	struct err e = {0};
	char made[64];
	int64_t id = 0;

	if (!email) {
		snprintf(made, sizeof(made), "user%d@example.org", ++serial);
		email = made;
	}
	if (store_write_begin(fx_store, &c, &e) < 0)
		return 0;
	if (store_user_add(c, email, name ? name : "Someone", is_admin, &id, &e) < 0) {
		store_write_rollback(c);
		return 0;
	}
	return store_write_commit(c, &e) < 0 ? 0 : id;
}

static int64_t game_with(const struct create_player *players, int n)
{
	struct create_spec ng = { .game = "counting-race", .players = players, .nplayers = n, .seed = 7,
				    .have_seed = 1 };
	struct err e = {0};
	int64_t id = 0;

	return create_setup(fx_store, &ng, &id, NULL, &e) < 0 ? 0 : id;
}

int64_t fx_game(int nplayers)
{
	char ann[64], bob[64];
	struct create_player players[4] = { { "Ann", ann }, { "Bob", bob }, { "Cy", NULL }, { "Di", NULL } };

	serial++;
	snprintf(ann, sizeof(ann), "ann-%d@example.org", serial);
	snprintf(bob, sizeof(bob), "bob-%d@example.org", serial);
	return game_with(players, nplayers);
}

int64_t fx_game_open_seat(void)
{
	char ann[64];
	struct create_player players[2] = { { "Ann", ann }, { "Open seat", NULL } };

	snprintf(ann, sizeof(ann), "ann-%d@example.org", ++serial);
	return game_with(players, 2);
}

int fx_audit_total(void)
{
	struct store_audit_filter f = { .limit = 100000 };
	struct store_audit_row *rows = NULL;
	struct store_conn *c;
	struct err e = {0};
	int n = 0;

	if (store_read_acquire(fx_store, &c, &e) < 0)
		return -1;
	if (store_audit_list(c, &f, &rows, &n, &e) < 0)
		n = -1;
	store_read_release(c);
	store_audit_rows_free(rows, n < 0 ? 0 : n);
	return n;
}

int fx_audit_newest(const char *action, struct store_audit_row *row)
{
	struct store_audit_filter f = { .action = action, .limit = 1 };
	struct store_audit_row *rows = NULL;
	struct store_conn *c;
	struct err e = {0};
	int n = 0, rc;

	memset(row, 0, sizeof(*row));
	if (store_read_acquire(fx_store, &c, &e) < 0)
		return -1;
	rc = store_audit_list(c, &f, &rows, &n, &e);
	store_read_release(c);
	if (rc < 0 || n < 1) {
		store_audit_rows_free(rows, n);
		return -1;
	}
	*row = rows[0];
	free(rows); /* the row's strings now belong to *row */
	return 0;
}

void fx_audit_release(struct store_audit_row *row)
{
	free(row->actor_email);
	free(row->reason);
	free(row->detail);
	memset(row, 0, sizeof(*row));
}

json_t *fx_audit_detail(const struct store_audit_row *row)
{
	return row->detail ? json_loads(row->detail, 0, NULL) : NULL;
}

int fx_outbox_count(int64_t game_id, const char *event)
{
	struct store_conn *c;
	struct err e = {0};
	int n = -1;

	if (store_read_acquire(fx_store, &c, &e) < 0)
		return -1;
	if (store_outbox_count(c, game_id, event, &n, &e) < 0)
		n = -1;
	store_read_release(c);
	return n;
}

int64_t fx_dead_notification(int64_t game_id)
{
	struct store_conn *c;
	struct err e = {0};
	int64_t id = 0;

	if (store_write_begin(fx_store, &c, &e) < 0)
		return 0;
	if (store_outbox_add(c, "your_turn", game_id, 0, 0, NULL, 1000, &id, &e) < 0 ||
	    store_outbox_finish(c, id, STORE_OUTBOX_DEAD, 2000, "HTTP 503", &e) < 0) {
		store_write_rollback(c);
		return 0;
	}
	return store_write_commit(c, &e) < 0 ? 0 : id;
}
