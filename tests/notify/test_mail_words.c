/* tests/notify/test_mail_words.c: the "your turn" email in words: the position per game, the legal steps' caps */
/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/create.h"
#include "engine/registry.h"
#include "engine/submit.h"
#include "engine/views.h"
#include "fake_game.h"
#include "notify/notify.h"
#include "notify/receiver.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/token.h"

#define T0 1800000000000LL /* 2027-01-15T08:00:00Z */
#define SECRET "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

struct env {
	char dir[64];
	struct store *st;
	struct notify *n;
	struct receiver *rx;
	struct notify_config cfg;
};

/* A store in a new directory and a notifier posting to a webhook receiver (its body has the text and the story). */
static int env_open(struct env *E)
{
	char path[128];
	struct err e = {0};

	memset(E, 0, sizeof(*E));
	clock_set_fake_ms(T0);
	snprintf(E->dir, sizeof(E->dir), "/tmp/tp-words-XXXXXX");
	if (!mkdtemp(E->dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", E->dir);
	if (store_open(path, NULL, &E->st, &e) < 0)
		return -1;
	if (!(E->rx = rx_start(SECRET)))
		return -1;
	E->cfg.transport = NOTIFY_WEBHOOK;
	E->cfg.base_url = "https://games.example.org/";
	E->cfg.from = "turnpost@games.example.org";
	E->cfg.max_attempts = 3;
	E->cfg.backoff_ms = 1000;
	E->cfg.timeout_ms = 2000;
	E->cfg.webhook_url = rx_url(E->rx);
	E->cfg.webhook_secret = SECRET;
	if (notify_new(&E->cfg, E->st, &E->n, &e) < 0) {
		fprintf(stderr, "notify_new: %s\n", e.msg);
		return -1;
	}
	return 0;
}

static void env_close(struct env *E)
{
	char cmd[128];

	notify_free(E->n);
	store_close(E->st);
	rx_stop(E->rx);
	if (E->dir[0] && !getenv("KEEP_TEST_DIRS")) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", E->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", E->dir);
	}
	clock_set_fake_ms(0);
}

/* A two-player game of Ann (seat 0) and Bob (seat 1) with a fixed seed. */
static int64_t new_game(struct env *E, const char *game)
{
	struct create_player players[2] = { { "Ann", "ann@example.org" }, { "Bob", "bob@example.org" } };
	struct create_spec ng = { .game = game, .players = players, .nplayers = 2, .seed = 11, .have_seed = 1,
				    .created_at = T0 };
	struct err e = {0};
	int64_t id = 0;

	if (create_setup(E->st, &ng, &id, NULL, &e) < 0)
		fprintf(stderr, "create %s: %s\n", game, e.msg);
	CU_ASSERT_FATAL(id > 0);
	return id;
}

/*
 * The first seat the game waits for (-1: none), and whether the view's phase
 * is phase (NULL: any).
 */
static int first_acting(struct env *E, int64_t id, const char *phase, int *in_phase)
{
	json_t *g = NULL;
	struct err e = {0};
	int seat;

	CU_ASSERT_EQUAL_FATAL(views_game_json(E->st, id, -1, 0, &g, &e), 0);
	seat = json_array_size(json_object_get(g, "active_seats")) ?
		       (int)json_integer_value(json_array_get(json_object_get(g, "active_seats"), 0)) : -1;
	*in_phase = !phase || !strcmp(json_string_value(json_object_get(json_object_get(g, "view"), "phase")) ?
					      json_string_value(json_object_get(json_object_get(g, "view"), "phase")) : "",
				      phase);
	json_decref(g);
	return seat;
}

/*
 * Play the first legal step of whoever must act first until the game waits
 * for Bob (seat 1) in phase (NULL: any): the same steps on every run (a
 * fixed seed and no bot).
 */
static void play_until_bob(struct env *E, int64_t id, const char *phase)
{
	int seat, in_phase = 0;

	for (int k = 0; k < 400; k++) {
		json_t *legal = NULL, *res = NULL;
		struct err e = {0};
		const char *line;
		struct submit_request rq = { .game_id = id, .nlines = 1, .via = "api", .if_match = -1,
					   .at = T0 + k * 1000 };
		struct submit_outcome po;

		seat = first_acting(E, id, phase, &in_phase);
		CU_ASSERT_FATAL(seat >= 0);
		if (seat == 1 && in_phase)
			return;
		rq.seat = seat;
		CU_ASSERT_EQUAL_FATAL(views_legal_json(E->st, id, seat, &legal, &e), 0);
		line = json_string_value(json_array_get(json_object_get(legal, "moves"), 0));
		CU_ASSERT_PTR_NOT_NULL_FATAL(line);
		rq.lines = &line;
		if (submit_steps(E->st, &rq, &res, &po, &e) < 0)
			fprintf(stderr, "submit %s: %s\n", line, e.msg);
		json_decref(res);
		json_decref(legal);
	}
	CU_FAIL_FATAL("the game never waited for Bob");
}

/* The newest "your turn" webhook body sent to to (borrowed from the receiver), or NULL. */
static const json_t *your_turn_for(struct env *E, const char *to)
{
	struct notify_stats s;
	struct err e = {0};
	const json_t *found = NULL;

	CU_ASSERT_EQUAL(notify_run_once(E->n, T0 + 3600 * 1000, &s, &e), 0);
	for (int i = 0; i < rx_count(E->rx); i++) {
		const json_t *b = rx_get(E->rx, i)->body;
		if (b && !strcmp(json_string_value(json_object_get(b, "event")), "your_turn") &&
		    !strcmp(json_string_value(json_object_get(b, "to")), to))
			found = b;
	}
	return found;
}

/*
 * What every game's position in the mail must be: the text's "The board
 * now:" block holds exactly the webhook's story.position lines, in order,
 * the HTML lists them, the reader is "You" and the other player is named,
 * and no seat number or notation id shows.
 */
static void check_position(const json_t *body, const char *const *want)
{
	const char *text = json_string_value(json_object_get(body, "text"));
	const char *html = json_string_value(json_object_get(body, "html"));
	const json_t *lines = json_object_get(json_object_get(body, "story"), "position");
	struct buf block = BUF_INIT;
	size_t i;
	const json_t *l;
	int you = 0, ann = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	CU_ASSERT_FATAL(json_array_size(lines) >= 3);
	buf_adds(&block, "The board now:\n");
	json_array_foreach(lines, i, l) {
		const char *s = json_string_value(l);
		buf_addf(&block, "  %s\n", s);
		you += !strncmp(s, "You: ", 5);
		ann += !strncmp(s, "Ann: ", 5);
		/* no seat numbers, no notation */
		CU_ASSERT_PTR_NULL(strstr(s, "p1"));
		CU_ASSERT_PTR_NULL(strstr(s, "p2"));
		CU_ASSERT_PTR_NULL(strstr(s, "@"));
		CU_ASSERT_PTR_NULL(strstr(s, "Player "));
		CU_ASSERT_PTR_NULL(strchr(s, '\n'));
	}
	if (getenv("SHOW_MAIL"))
		fprintf(stderr, "\n%s\n", text);
	if (!strstr(text, block.data))
		fprintf(stderr, "\n  no block\n%s\n  in\n%s\n", block.data, text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, block.data));
	/* after what happened since the last turn, before the legal steps */
	CU_ASSERT(strstr(text, "Since your last turn:") < strstr(text, "The board now:"));
	CU_ASSERT(strstr(text, "The board now:") < strstr(text, "Your legal steps now"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<p>The board now:</p>"));
	CU_ASSERT_EQUAL(you, 1);
	CU_ASSERT_EQUAL(ann, 1);
	for (; *want; want++) {
		if (!strstr(text, *want))
			fprintf(stderr, "\n  missing \"%s\" in\n%s\n", *want, block.data);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, *want));
	}
	buf_release(&block);
}

static void test_mail_words__alien_frontiers(void)
{
	/* Ann's first turn: three ships at the Solar Converter, the Data Crystal discarded for the Positron Field */
	static const char *const want[] = {
		"The board now:\n  Turn 2: your turn; rolled 4, 2 and 1, none placed yet.\n",
		"\n  You: 1 victory point, 1 fuel, 0 ore, 8 colonies to land; alien tech: Alien Monument.\n"
		"  Ann: 0 victory points, 6 fuel, 0 ore, 8 colonies to land; alien tech: none.\n"
		"  Colonies: none landed yet.\n"
		"  The Positron Field is on Asimov Crater.\n"
		"  Alien tech on offer: Gravity Manipulator, Orbital Teleporter and Booster Pod (17 cards in the draw pile).\n",
		NULL
	};
	struct env E;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	id = new_game(&E, "alien-frontiers");
	play_until_bob(&E, id, NULL);
	check_position(your_turn_for(&E, "bob@example.org"), want);
	env_close(&E);
}

static void test_mail_words__space_station_phoenix(void)
{
	/* the drafts done, Ann's first turn played: Bob's resources, the Sectors on offer, the ships he may use */
	static const char *const want[] = {
		"The board now:\n  Turn 2: waiting for you.\n"
		"  You: 0 points; 1 food, 1 water, 1 metal and 10 GEMs; 0 Sectors built; Station Hub B-2.\n"
		"  Ann: 0 points; 1 food, 1 water, 7 metal and 7 GEMs; 1 Sector built; Station Hub B-6.\n"
		"  Level-1 Sectors on offer: 105 (teal) for 6 metal, 106 (teal) for 5 metal, 114 (brown) for 5 metal, "
		"118 (brown) for 5 metal, 123 (pink) for 6 metal, 126 (pink) for 5 metal.\n",
		"\n  Your ships not yet used (your cost): Level-1 Dismantle (2 GEMs), Level-1 Construction (3 GEMs), ",
		"\n  Neutral ships not yet used (your cost): Dismantle (3 GEMs), Construction (4 GEMs), Transport (3 GEMs), "
		"Expedition (4 GEMs), Diplomacy (4 GEMs).\n"
		"  Ann's ships not yet used (your cost): Level-1 Transport (2 GEMs and 1 to its owner), ",
		"\n  In the supply: 13 teal, 15 brown, 13 pink and 9 gold Aliens, 16 Humans.\n",
		NULL
	};
	struct env E;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	id = new_game(&E, "space-station-phoenix");
	play_until_bob(&E, id, "turn");
	check_position(your_turn_for(&E, "bob@example.org"), want);
	env_close(&E);
}

static void test_mail_words__starship_merchants(void)
{
	/* Ann bought a scout: Bob's credits and place, Ann's ship, the market, the shipyard and the belt */
	static const char *const want[] = {
		"The board now:\n  Mark 1 ships are for sale; your turn.\n"
		"  You: 15 credits, at the Shipyard; no ships.\n"
		"  Ann: 7 credits, at the Shipyard; ship 1, a Mark 1 scout, empty.\n"
		"  At the Market: Gem Hunter (8 credits), Fuel Runner (6 credits), Veteran Captain (8 credits), "
		"Grapples (4 credits).\n"
		"  At the Shipyard: Mark 1 scouts for 8 credits (1 left), tugs for 8 credits (2 left).\n"
		"  In known space: nothing; destinations: Capital World (5 energy), Trade Hub (3 energy), "
		"Ice Moon (2 energy); 32 tokens in the bag.\n",
		NULL
	};
	struct env E;
	int64_t id;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	id = new_game(&E, "starship-merchants");
	play_until_bob(&E, id, NULL);
	check_position(your_turn_for(&E, "bob@example.org"), want);
	env_close(&E);
}

/* ---- the legal steps' caps: 16 kinds of step, 160 characters a line ---- */

/*
 * The counting race with twenty kinds of step of forty targets each: the
 * email lists every legal step apply() would accept only through the page,
 * so only legal() changes (the mail never plays them).
 */
#define MANY_VERBS 20
#define MANY_ARGS 40

static int many_legal(const void *state, int seat, json_t **out, struct err *err)
{
	json_t *base = NULL;
	int rc = fake_game.legal(state, seat, &base, err);

	if (rc < 0)
		return rc;
	*out = json_array();
	for (int v = 0; json_array_size(base) && v < MANY_VERBS; v++)
		for (int a = 0; a < MANY_ARGS; a++) {
			char t[48];
			snprintf(t, sizeof(t), "verb%02d target-%02d", v + 1, a + 1);
			json_array_append_new(*out, json_string(t));
		}
	json_decref(base);
	return 0;
}

static struct game_ops many_verbs;

static void test_mail_words__legal_steps_capped(void)
{
	const char *lines[] = { "add 1", "end" };
	struct submit_request rq = { .seat = 0, .lines = lines, .nlines = 2, .via = "api", .if_match = -1,
				  .at = T0 + 1000 };
	struct submit_outcome po;
	struct err e = {0};
	json_t *res = NULL;
	const json_t *body;
	const char *text, *html;
	struct env E;
	struct buf want = BUF_INIT;

	CU_ASSERT_EQUAL_FATAL(env_open(&E), 0);
	rq.game_id = new_game(&E, "many-verbs");
	CU_ASSERT_EQUAL_FATAL(submit_steps(E.st, &rq, &res, &po, &e), 0);
	json_decref(res);
	body = your_turn_for(&E, "bob@example.org");
	CU_ASSERT_PTR_NOT_NULL_FATAL(body);
	text = json_string_value(json_object_get(body, "text"));
	html = json_string_value(json_object_get(body, "html"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "Your legal steps now (800):\n"));
	/* a group's line holds what fits in 160 characters, then says how many more */
	buf_adds(&want, "\n  verb01 target-01");
	for (int a = 2; a <= 13; a++)
		buf_addf(&want, " | target-%02d", a);
	buf_adds(&want, " (and 27 more)\n");
	if (!strstr(text, want.data))
		fprintf(stderr, "\n  missing \"%s\" in\n%s\n", want.data, text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, want.data));
	/* sixteen groups, then the kinds left out are counted */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n  verb16 target-01 | "));
	CU_ASSERT_PTR_NULL(strstr(text, "verb17"));
	CU_ASSERT_PTR_NULL(strstr(text, "verb20"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n  ... and 4 more kinds of step (see the game page)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "verb16"));
	CU_ASSERT_PTR_NULL(strstr(html, "verb17"));
	/* a game without position() says nothing of the board */
	CU_ASSERT_PTR_NULL(strstr(text, "The board now:"));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(json_object_get(body, "story"), "position")), 0);
	buf_release(&want);
	env_close(&E);
}

static CU_TestInfo cases[] = {
	{ "test_mail_words__alien_frontiers", test_mail_words__alien_frontiers },
	{ "test_mail_words__space_station_phoenix", test_mail_words__space_station_phoenix },
	{ "test_mail_words__starship_merchants", test_mail_words__starship_merchants },
	{ "test_mail_words__legal_steps_capped", test_mail_words__legal_steps_capped },
	CU_TEST_INFO_NULL,
};

static int suite_init(void)
{
	signal(SIGPIPE, SIG_IGN);
	token_init();
	many_verbs = fake_game;
	many_verbs.id = "many-verbs";
	many_verbs.title = "Many Verbs (test game)";
	many_verbs.legal = many_legal;
	registry_add_for_tests(&many_verbs);
	return 0;
}

int tests_register(void)
{
	TESTS_SUITE("mail_words", suite_init, NULL, cases);
	return 0;
}
