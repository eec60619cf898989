/* tests/unit/actions_fixture.h: a store with the test game, accounts and audit reads for the engine action suites */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_UNIT_ACTIONS_FIXTURE_H
#define TURNPOST_TESTS_UNIT_ACTIONS_FIXTURE_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"

/* The store every action suite shares (opened by fx_open). */
extern struct store *fx_store;

/* Open a new store in a temporary directory, with the test game ("counting-race") and a copy without a bot ("counting-race-nobot"). */
int fx_open(void);
/* Close it and remove the directory. */
int fx_close(void);

/* A new account (email unique per call when email is NULL); its id. */
int64_t fx_user(const char *email, const char *name, int is_admin);
/* A game of the test game for nplayers: Ann <ann-N@...>, then Bob, then seats without email; its id. */
int64_t fx_game(int nplayers);
/* A game whose seat 1 is open (no player): Ann and one open seat; its id. */
int64_t fx_game_open_seat(void);
/* The number of audit rows (all actions). */
int fx_audit_total(void);
/* The newest audit row of action into *row (fields as stored); 0, or -1 when none. Release with fx_audit_release. */
int fx_audit_newest(const char *action, struct store_audit_row *row);
void fx_audit_release(struct store_audit_row *row);
/* The detail of an audit row as JSON (new). */
json_t *fx_audit_detail(const struct store_audit_row *row);
/* How many outbox rows of event game has (-1 on failure). */
int fx_outbox_count(int64_t game_id, const char *event);
/* The id of a notification of game made dead (it failed for the last time); 0 on failure. */
int64_t fx_dead_notification(int64_t game_id);

/* Each suite file registers its suite (test_actions.c calls them all). 0 or -1. */
int test_tokens_register(void);
int test_signin_register(void);
int test_outbox_register(void);
int test_chat_register(void);
int test_join_register(void);
int test_account_register(void);
int test_create_register(void);

#endif
