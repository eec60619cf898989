/* tests/unit/test_story.c: CUnit suite for engine/story (a game's log in words per reader, since your last turn, replay positions) and the end of undo with the turn */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/create.h"
#include "engine/registry.h"
#include "engine/share.h"
#include "engine/story.h"
#include "engine/submit.h"
#include "engine/views.h"
#include "fake_game.h"
#include "testutil.h"
#include "util/token.h"

static char dir[64];
static struct store *st;

/* The test game's totals from a state, through its snapshot format (its state is private to it). */
static int total_of(const void *state, int seat)
{
	json_t *o = NULL;
	struct err e = {0};
	int t = 0;

	if (fake_game.encode(state, &o, &e) == 0)
		t = (int)json_integer_value(json_array_get(json_object_get(o, "total"), (size_t)seat));
	json_decref(o);
	return t;
}

static const char *name_of(const json_t *seats, int seat)
{
	size_t i;
	json_t *s;

	json_array_foreach(seats, i, s)
		if (json_integer_value(json_object_get(s, "seat")) == seat)
			return json_string_value(json_object_get(s, "name"));
	return "?";
}

/* The test game told in words: a roll's number only for the roller (and admins). */
static int worded_describe(const struct game_step_in *in, struct buf *out, struct err *err)
{
	struct buf text = BUF_INIT;
	const char *who = name_of(in->seats, in->seat);
	int rc;

	if ((rc = fake_game.format(in->before, in->move, &text, err)) < 0)
		return rc;
	if (strncmp(text.data, "add ", 4) == 0)
		buf_addf(out, "%s added %s", who, text.data + 4);
	else if (strcmp(text.data, "roll") == 0 && (in->viewer == in->seat || in->viewer == GAME_VIEWER_ALL))
		buf_addf(out, "%s rolled a %d", who, total_of(in->after, in->seat) - total_of(in->before, in->seat));
	else if (strcmp(text.data, "roll") == 0)
		buf_addf(out, "%s rolled a die", who);
	else
		buf_addf(out, "%s ended the turn", who);
	buf_release(&text);
	return 0;
}

static struct game_ops worded;

static int suite_init(void)
{
	char path[128];
	struct err e = {0};

	snprintf(dir, sizeof(dir), "/tmp/tp-story-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", dir);
	token_init();
	registry_add_for_tests(&fake_game);
	worded = fake_game;
	worded.id = "counting-race-words";
	worded.describe = worded_describe;
	registry_add_for_tests(&worded);
	return store_open(path, NULL, &st, &e);
}

static int suite_clean(void)
{
	char cmd[160];

	store_close(st);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int64_t new_game(const char *game, int nplayers)
{
	struct create_player players[3] = { { "Ann", "ann@example.org" }, { "Bob", "bob@example.org" }, { "Cy", NULL } };
	struct create_spec ng = { .game = game, .players = players, .nplayers = nplayers, .seed = 11, .have_seed = 1 };
	struct err e = {0};
	int64_t id = 0;

	CU_ASSERT_EQUAL(create_setup(st, &ng, &id, NULL, &e), 0);
	return id;
}

/* Submit up to three lines as seat, via "web"; the error message into msg when given. */
static int play(int64_t id, int seat, const char *l1, const char *l2, const char *l3, char *msg, size_t size)
{
	const char *lines[3] = { l1, l2, l3 };
	struct submit_request rq = { .game_id = id, .seat = seat, .lines = lines, .nlines = l3 ? 3 : l2 ? 2 : 1,
				     .via = "web", .if_match = -1 };
	struct submit_outcome out;
	struct err e = {0};
	json_t *res = NULL;
	int rc = submit_steps(st, &rq, &res, &out, &e);

	if (msg)
		snprintf(msg, size, "%s", e.msg);
	json_decref(res);
	return rc;
}

static json_t *log_for(int64_t id, int viewer)
{
	json_t *entries = NULL;
	struct err e = {0};

	CU_ASSERT_EQUAL(story_log(st, id, viewer, &entries, &e), 0);
	return entries ? entries : json_array();
}

static const char *text_at(const json_t *entries, size_t i)
{
	return json_string_value(json_object_get(json_array_get(entries, i), "text"));
}

/* The texts of entries joined by " | ", into a static buffer (one use at a time). */
static const char *texts(const json_t *entries)
{
	static char all[2048];
	size_t i, len = 0;

	all[0] = '\0';
	for (i = 0; i < json_array_size(entries) && len < sizeof(all) - 1; i++)
		len += (size_t)snprintf(all + len, sizeof(all) - len, "%s%s", i ? " | " : "", text_at(entries, i));
	return all;
}

static void test_story__a_game_without_words_reads_with_names(void)
{
	int64_t id = new_game("counting-race", 2);
	json_t *log, *e0;

	CU_ASSERT_EQUAL(play(id, 0, "add 2", "end", NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(play(id, 1, "add 1", NULL, NULL, NULL, 0), 0);
	log = log_for(id, 1);
	CU_ASSERT_EQUAL_FATAL(json_array_size(log), 3);
	ASSERT_STR_EQ(texts(log), "Ann: add 2 | Ann: end | Bob: add 1");
	e0 = json_array_get(log, 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e0, "n")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e0, "seat")), 0);
	ASSERT_STR_EQ(json_string_value(json_object_get(e0, "name")), "Ann");
	ASSERT_STR_EQ(json_string_value(json_object_get(e0, "channel")), "web");
	CU_ASSERT(json_integer_value(json_object_get(e0, "at")) > 0);
	json_decref(log);
}

static void test_story__sentences_hide_what_the_reader_may_not_see(void)
{
	int64_t id = new_game("counting-race-words", 2);
	json_t *ann, *bob, *spectator, *admin;
	char rolled[64];

	CU_ASSERT_EQUAL(play(id, 0, "add 2", "roll", "end", NULL, 0), 0);
	ann = log_for(id, 0);
	bob = log_for(id, 1);
	spectator = log_for(id, -1);
	admin = log_for(id, GAME_VIEWER_ALL);
	CU_ASSERT_EQUAL_FATAL(json_array_size(ann), 3);
	ASSERT_STR_EQ(text_at(ann, 0), "Ann added 2");
	/* the roller sees the number, and it is the one the position shows */
	CU_ASSERT(strncmp(text_at(ann, 1), "Ann rolled a ", 13) == 0);
	snprintf(rolled, sizeof(rolled), "%s", text_at(ann, 1));
	CU_ASSERT(atoi(rolled + 13) >= 1 && atoi(rolled + 13) <= 6);
	ASSERT_STR_EQ(text_at(admin, 1), rolled);
	/* the others do not */
	ASSERT_STR_EQ(texts(bob), "Ann added 2 | Ann rolled a die | Ann ended the turn");
	ASSERT_STR_EQ(texts(spectator), "Ann added 2 | Ann rolled a die | Ann ended the turn");
	/* no seat numbers, no notation */
	CU_ASSERT(strstr(texts(bob), "seat") == NULL);
	CU_ASSERT(strstr(texts(bob), "roll ") == NULL);
	json_decref(ann);
	json_decref(bob);
	json_decref(spectator);
	json_decref(admin);
}

static void test_story__undone_steps_are_the_undoers_business(void)
{
	int64_t id = new_game("counting-race-words", 2);
	json_t *ann, *bob, *admin;

	CU_ASSERT_EQUAL(play(id, 0, "add 3", "add 1", "undo", NULL, 0), 0);
	CU_ASSERT_EQUAL(play(id, 0, "add 2", "end", NULL, NULL, 0), 0);
	bob = log_for(id, 1);
	ASSERT_STR_EQ(texts(bob), "Ann added 3 | Ann added 2 | Ann ended the turn");
	ann = log_for(id, 0);
	ASSERT_STR_EQ(texts(ann), "Ann added 3 | Ann added 1 | Ann took back a step | Ann added 2 | Ann ended the turn");
	CU_ASSERT(json_is_true(json_object_get(json_array_get(ann, 1), "undone")));
	CU_ASSERT(json_object_get(json_array_get(ann, 0), "undone") == NULL);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(ann, 2), "kind")), "undo");
	admin = log_for(id, GAME_VIEWER_ALL);
	CU_ASSERT_EQUAL(json_array_size(admin), 5);
	json_decref(ann);
	json_decref(bob);
	json_decref(admin);
}

static void test_story__a_rollback_is_told_to_everyone(void)
{
	int64_t id = new_game("counting-race-words", 2);
	struct store_conn *c;
	struct err e = {0};
	json_t *bob, *last;

	CU_ASSERT_EQUAL(play(id, 0, "add 1", "end", NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(play(id, 1, "add 3", "end", NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL_FATAL(submit_rollback_in_tx(c, id, 2, NULL, 5000, "a mistake", 1, NULL, NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_commit(c, &e), 0);
	bob = log_for(id, 1);
	CU_ASSERT_EQUAL_FATAL(json_array_size(bob), 5);
	last = json_array_get(bob, 4);
	ASSERT_STR_EQ(json_string_value(json_object_get(last, "text")), "An admin rolled the game back to step 2");
	ASSERT_STR_EQ(json_string_value(json_object_get(last, "kind")), "rollback");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(last, "to")), 2);
	ASSERT_STR_EQ(json_string_value(json_object_get(last, "channel")), "admin");
	json_decref(bob);
}

static void test_story__sentences_are_kept_and_follow_names(void)
{
	int64_t id = new_game("counting-race-words", 2);
	uint64_t h0, m0, h1, m1;
	struct store_conn *c;
	struct err e = {0};
	json_t *a, *b;

	CU_ASSERT_EQUAL(play(id, 0, "add 1", "add 2", NULL, NULL, 0), 0);
	story_cache_clear();
	a = log_for(id, 1);
	story_cache_stats(&h0, &m0);
	CU_ASSERT_EQUAL(m0, 2);
	CU_ASSERT_EQUAL(h0, 0);
	/* one more step: only it is described, and the two before come with the kept log, looked up no more */
	CU_ASSERT_EQUAL(play(id, 0, "end", NULL, NULL, NULL, 0), 0);
	b = log_for(id, 1);
	story_cache_stats(&h1, &m1);
	CU_ASSERT_EQUAL(m1, 3);
	CU_ASSERT_EQUAL(h1, 0);
	ASSERT_STR_EQ(texts(b), "Ann added 1 | Ann added 2 | Ann ended the turn");
	json_decref(a);
	json_decref(b);
	/* a new player in the seat: the sentences name her */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_seat_set(c, id, 0, 0, "Ada", NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_commit(c, &e), 0);
	b = log_for(id, 1);
	ASSERT_STR_EQ(texts(b), "Ada added 1 | Ada added 2 | Ada ended the turn");
	json_decref(b);
}

static void test_story__the_cache_is_bounded(void)
{
	int64_t a = new_game("counting-race-words", 2), b = new_game("counting-race-words", 2);
	uint64_t h, m;
	json_t *log;

	CU_ASSERT_EQUAL(play(a, 0, "add 1", "add 2", NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(play(b, 0, "add 3", NULL, NULL, NULL, 0), 0);
	/* one game at a time: reading b sends a's sentences away */
	story_cache_set_limits(1, 0);
	json_decref(log_for(a, 1));
	json_decref(log_for(b, 1));
	log = log_for(a, 1);
	story_cache_stats(&h, &m);
	CU_ASSERT_EQUAL(h, 0);
	CU_ASSERT_EQUAL(m, 5);
	ASSERT_STR_EQ(texts(log), "Ann added 1 | Ann added 2");
	json_decref(log);
	/* a few bytes: only the game just read is kept, whole (b's log is read again without describing) */
	story_cache_set_limits(0, 8);
	json_decref(log_for(a, 1));
	json_decref(log_for(b, 1));
	json_decref(log_for(b, 1));
	story_cache_stats(&h, &m);
	CU_ASSERT_EQUAL(h, 0);
	CU_ASSERT_EQUAL(m, 3);
	json_decref(log_for(a, 1));
	story_cache_stats(&h, &m);
	CU_ASSERT_EQUAL(m, 5);
	story_cache_set_limits(0, 0);
}

/*
 * The logs every viewer reads now, and those made from nothing (the kept
 * sentences and logs dropped): the same. The logs made anew stay kept, so
 * the next reads add to them.
 */
static void same_as_made_anew(int64_t id, const char *when)
{
	const int viewers[] = { 0, 1, 2, -1, GAME_VIEWER_ALL };
	enum { NV = sizeof(viewers) / sizeof(viewers[0]) };
	json_t *kept[NV];

	for (size_t v = 0; v < NV; v++)
		kept[v] = log_for(id, viewers[v]);
	story_cache_clear();
	for (size_t v = 0; v < NV; v++) {
		json_t *anew = log_for(id, viewers[v]);
		char *a = json_dumps(kept[v], JSON_SORT_KEYS), *b = json_dumps(anew, JSON_SORT_KEYS);
		if (strcmp(a, b) != 0)
			fprintf(stderr, "\n  %s, viewer %d:\n  kept: %s\n  anew: %s\n", when, viewers[v], a, b);
		CU_ASSERT_STRING_EQUAL(a, b);
		free(a);
		free(b);
		json_decref(kept[v]);
		json_decref(anew);
	}
}

/*
 * The kept log grows with the game and is made again when what it says of
 * earlier steps changes: every change of the story (steps, an undo that
 * hides a step, a new name, a rollback) shows in the next read, as in a log
 * made from nothing.
 */
static void test_story__the_kept_log_follows_every_change(void)
{
	int64_t id = new_game("counting-race-words", 3);
	struct store_conn *c;
	struct err e = {0};
	json_t *log;

	story_cache_clear();
	same_as_made_anew(id, "set-up");
	CU_ASSERT_EQUAL(play(id, 0, "add 1", "roll", NULL, NULL, 0), 0);
	same_as_made_anew(id, "two steps");
	CU_ASSERT_EQUAL(play(id, 0, "add 2", NULL, NULL, NULL, 0), 0);
	same_as_made_anew(id, "one more");
	/* an undo: the step it takes back leaves the others' logs */
	CU_ASSERT_EQUAL(play(id, 0, "undo", NULL, NULL, NULL, 0), 0);
	log = log_for(id, 1);
	ASSERT_STR_EQ(texts(log), "Ann added 1 | Ann rolled a die");
	json_decref(log);
	same_as_made_anew(id, "undo");
	CU_ASSERT_EQUAL(play(id, 0, "end", NULL, NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(play(id, 1, "add 3", "end", NULL, NULL, 0), 0);
	log = log_for(id, 2);
	ASSERT_STR_EQ(texts(log), "Ann added 1 | Ann rolled a die | Ann ended the turn | Bob added 3 | Bob ended the turn");
	json_decref(log);
	same_as_made_anew(id, "after the undo");
	/* a new name: every entry of hers reads it */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_seat_set(c, id, 0, 0, "Ada", NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_commit(c, &e), 0);
	log = log_for(id, 2);
	ASSERT_STR_EQ(texts(log), "Ada added 1 | Ada rolled a die | Ada ended the turn | Bob added 3 | Bob ended the turn");
	json_decref(log);
	same_as_made_anew(id, "renamed");
	/* a rollback, then an undo after it */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
	CU_ASSERT_EQUAL_FATAL(submit_rollback_in_tx(c, id, 3, NULL, 5000, "a mistake", 1, NULL, NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_commit(c, &e), 0);
	same_as_made_anew(id, "rollback");
	CU_ASSERT_EQUAL(play(id, 0, "add 3", "undo", NULL, NULL, 0), 0);
	same_as_made_anew(id, "undo after the rollback");
	log = log_for(id, 1);
	CU_ASSERT_EQUAL_FATAL(json_array_size(log), 6);
	ASSERT_STR_EQ(text_at(log, 5), "An admin rolled the game back to step 3");
	json_decref(log);
}

static void test_story__since_your_last_turn(void)
{
	int64_t id = new_game("counting-race-words", 3);
	json_t *log, *since;

	CU_ASSERT_EQUAL(play(id, 0, "add 1", "end", NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(play(id, 1, "add 2", "end", NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(play(id, 2, "add 3", "end", NULL, NULL, 0), 0);
	log = log_for(id, 0);
	since = story_since(log, 0, 0);
	ASSERT_STR_EQ(texts(since), "Bob added 2 | Bob ended the turn | Cy added 3 | Cy ended the turn");
	json_decref(since);
	since = story_since(log, 0, 2);
	ASSERT_STR_EQ(texts(since), "Cy added 3 | Cy ended the turn");
	json_decref(since);
	/* a step of Ann's own since her last one is no news to her */
	CU_ASSERT_EQUAL(play(id, 0, "add 1", NULL, NULL, NULL, 0), 0);
	json_decref(log);
	log = log_for(id, 0);
	since = story_since(log, 0, 0);
	CU_ASSERT_EQUAL(json_array_size(since), 0);
	json_decref(since);
	/* a reader without a step of their own: everything */
	since = story_since(log, -1, 0);
	CU_ASSERT_EQUAL(json_array_size(since), 7);
	json_decref(since);
	json_decref(log);
}

static void test_story__replay_positions_per_reader(void)
{
	int64_t id = new_game("counting-race-words", 2);
	json_t *p = NULL, *changed;
	struct err e = {0};

	CU_ASSERT_EQUAL(play(id, 0, "add 2", "add 1", "undo", NULL, 0), 0);
	CU_ASSERT_EQUAL(play(id, 0, "end", NULL, NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL_FATAL(story_position(st, id, 1, 1, &p, &e), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(p, "n")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(p, "move_count")), 4);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_object_get(p, "entry"), "text")), "Ann added 2");
	CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(json_object_get(p, "view"), "total"), 0)), 2);
	changed = json_object_get(p, "changed");
	CU_ASSERT(json_array_size(changed) >= 1);
	ASSERT_STR_EQ(json_string_value(json_object_get(json_array_get(changed, 0), "path")), "acted");
	/* Bob's stops skip what Ann took back */
	CU_ASSERT_EQUAL(json_array_size(json_object_get(p, "steps")), 2);
	json_decref(p);
	/* so Bob cannot look at the position after the undone step; Ann can */
	CU_ASSERT_EQUAL(story_position(st, id, 2, 1, &p, &e), ERR_NOTFOUND);
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_EQUAL(story_position(st, id, 2, 0, &p, &e), 0);
	json_decref(p);
	p = NULL;
	/* the set-up, and past the end */
	CU_ASSERT_EQUAL(story_position(st, id, 0, 1, &p, &e), 0);
	CU_ASSERT(json_is_null(json_object_get(p, "entry")));
	json_decref(p);
	p = NULL;
	CU_ASSERT_EQUAL(story_position(st, id, 9, 1, &p, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(story_position(st, 999999, 0, 1, &p, &e), ERR_NOTFOUND);
	/* the view alone (the game page's marks) is the replay's, under the same rule */
	for (int n = 0; n <= 4; n++)
		for (int viewer = -1; viewer < 2; viewer++) {
			json_t *v = NULL;
			int rp = story_position(st, id, n, viewer, &p, &e), rv = story_view(st, id, n, viewer, &v, &e);
			CU_ASSERT_EQUAL(rv, rp);
			CU_ASSERT(rp < 0 || json_equal(v, json_object_get(p, "view")));
			json_decref(p);
			json_decref(v);
			p = NULL;
		}
	CU_ASSERT_EQUAL(story_view(st, id, 2, 1, &p, &e), ERR_NOTFOUND);
	CU_ASSERT_PTR_NULL(p);
}

static void test_story__undo_ends_when_the_turn_passes(void)
{
	int64_t id = new_game("counting-race", 2);
	json_t *g = NULL;
	struct err e = {0};
	char msg[384];

	/* within one's turn, as before */
	CU_ASSERT_EQUAL(play(id, 0, "add 1", "undo", "add 2", NULL, 0), 0);
	CU_ASSERT_EQUAL(play(id, 0, "end", NULL, NULL, NULL, 0), 0);
	/* the turn passed to Bob: refused, saying why and what to do instead */
	CU_ASSERT_EQUAL(play(id, 0, "undo", NULL, NULL, msg, sizeof(msg)), ERR_ILLEGAL);
	CU_ASSERT(strstr(msg, "the turn has passed to Bob") != NULL);
	CU_ASSERT(strstr(msg, "admin") != NULL);
	/* and the game no longer offers it */
	CU_ASSERT_EQUAL_FATAL(views_game_json(st, id, 0, 0, &g, &e), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(g, "undo_seat")), -1);
	json_decref(g);
	/* only Bob was told it is his turn: the refused undo gave Ann no "your turn" of her own */
	{
		struct store_conn *c;
		int n = -1;
		CU_ASSERT_EQUAL_FATAL(store_read_acquire(st, &c, &e), 0);
		CU_ASSERT_EQUAL(store_outbox_count(c, id, "your_turn", &n, &e), 0);
		store_read_release(c);
		CU_ASSERT_EQUAL(n, 1);
	}
}

/* Play the first legal steps of ops for 2 seats (Yara, Zed), up to max steps; the game's id. */
static int64_t played_game(const struct game_ops *ops, int max)
{
	struct create_player players[2] = { { "Yara", "yara@example.org" }, { "Zed", "zed@example.org" } };
	struct create_spec ng = { .game = ops->id, .players = players, .nplayers = 2, .seed = 5, .have_seed = 1 };
	struct err e = {0};
	int64_t id = 0;

	CU_ASSERT_EQUAL_FATAL(create_setup(st, &ng, &id, NULL, &e), 0);
	for (int i = 0; i < max; i++) {
		json_t *g = NULL, *legal = NULL, *moves;
		int seat, rc = -1;
		CU_ASSERT_EQUAL_FATAL(views_game_json(st, id, -1, 0, &g, &e), 0);
		seat = json_array_size(json_object_get(g, "active_seats"))
			? (int)json_integer_value(json_array_get(json_object_get(g, "active_seats"), 0)) : -1;
		json_decref(g);
		if (seat < 0)
			break;
		CU_ASSERT_EQUAL_FATAL(views_legal_json(st, id, seat, &legal, &e), 0);
		moves = json_object_get(legal, "moves");
		if (json_array_size(moves))
			rc = play(id, seat, json_string_value(json_array_get(moves, (size_t)i % json_array_size(moves))),
				  NULL, NULL, NULL, 0);
		json_decref(legal);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
	}
	return id;
}

/*
 * A played game of ops told to each seat and a spectator: steps a game
 * tells in its own words (describe) read as sentences, with no seat numbers
 * and not as the step's notation. Returns how many sentences were checked.
 */
static int check_game_words(const struct game_ops *ops)
{
	int64_t id;
	int checked = 0;

	if (!ops->describe || ops->min_players > 2)
		return 0;
	id = played_game(ops, 60);
	for (int viewer = -1; viewer < 2; viewer++) {
		json_t *log = log_for(id, viewer), *m;
		size_t i;
		CU_ASSERT(json_array_size(log) > 0);
		json_array_foreach(log, i, m) {
			const char *text = json_string_value(json_object_get(m, "text"));
			char fallback[600];
			CU_ASSERT_PTR_NOT_NULL_FATAL(text);
			CU_ASSERT(*text != '\0');
			snprintf(fallback, sizeof(fallback), "%s: ", json_string_value(json_object_get(m, "name")));
			if (strncmp(text, fallback, strlen(fallback)) == 0)
				fprintf(stderr, "\n  %s: step %d is told as notation: %s\n", ops->id,
					(int)json_integer_value(json_object_get(m, "n")), text);
			CU_ASSERT(strncmp(text, fallback, strlen(fallback)) != 0);
			CU_ASSERT(strstr(text, "seat 0") == NULL && strstr(text, "seat 1") == NULL);
			CU_ASSERT(strstr(text, "Player 1") == NULL && strstr(text, "Player 2") == NULL);
			checked++;
		}
		json_decref(log);
	}
	return checked;
}

static void test_story__the_replay_shows_each_seat_its_own_view(void)
{
	for (size_t k = 0; registry_at(k); k++) {
		const struct game_ops *ops = registry_at(k);
		int64_t id;
		struct err e = {0};
		int count = 0;

		if (ops->min_players > 2)
			continue;
		id = played_game(ops, 30);
		CU_ASSERT_EQUAL_FATAL(views_move_count(st, id, &count, &e), 0);
		/* the replay's last stop is the game as each seat and a spectator see it now */
		for (int viewer = -1; viewer < 2; viewer++) {
			json_t *g = NULL, *p = NULL;
			CU_ASSERT_EQUAL_FATAL(views_game_json(st, id, viewer, 0, &g, &e), 0);
			CU_ASSERT_EQUAL_FATAL(story_position(st, id, count, viewer, &p, &e), 0);
			if (!json_equal(json_object_get(g, "view"), json_object_get(p, "view")))
				fprintf(stderr, "\n  %s: the replay's view for %d differs from the game's\n", ops->id, viewer);
			CU_ASSERT(json_equal(json_object_get(g, "view"), json_object_get(p, "view")));
			json_decref(g);
			json_decref(p);
		}
	}
}

static void test_story__every_game_with_words_tells_a_played_game(void)
{
	/* the test game in words, then every hosted game that has describe() */
	CU_ASSERT(check_game_words(&worded) > 0);
	for (size_t i = 0; registry_at(i); i++)
		if (registry_at(i)->describe && registry_at(i)->min_players <= 2)
			CU_ASSERT(check_game_words(registry_at(i)) > 0);
}

static void test_story__sharing_needs_every_player_and_the_end(void)
{
	int64_t id = new_game("counting-race", 2), ann = 0, bob = 0;
	struct actor a = { .channel = "web", .flags = ACTOR_REASON_OPTIONAL };
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	struct share_state sh;
	struct err e = {0};
	int n = 0;

	CU_ASSERT_EQUAL_FATAL(views_game_info(st, id, &g, &seats, &n, &e), 0);
	ann = seats[0].user_id;
	bob = seats[1].user_id;
	views_game_info_release(&g, seats, n);
	CU_ASSERT_FATAL(ann > 0 && bob > 0);
	/* everyone allows a running game: not shown yet */
	CU_ASSERT_EQUAL(share_set(st, id, 0, ann, 1, &a, 10, &e), 0);
	CU_ASSERT_EQUAL(share_set(st, id, 1, bob, 1, &a, 10, &e), 0);
	CU_ASSERT_EQUAL(share_state(st, id, &sh, &e), 0);
	CU_ASSERT_EQUAL(sh.players, 3u);
	CU_ASSERT_EQUAL(sh.allowed, 3u);
	CU_ASSERT_EQUAL(sh.over, 0);
	CU_ASSERT_EQUAL(sh.shared, 0);
	/* Ann wins: shown */
	CU_ASSERT_EQUAL(play(id, 0, "add 3", "add 3", "add 3", NULL, 0), 0);
	CU_ASSERT_EQUAL(play(id, 0, "add 3", "end", NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(share_state(st, id, &sh, &e), 0);
	CU_ASSERT_EQUAL(sh.over, 1);
	CU_ASSERT_EQUAL(sh.shared, 1);
	/* Bob changes his mind: not shown */
	CU_ASSERT_EQUAL(share_set(st, id, 1, bob, 0, &a, 20, &e), 0);
	CU_ASSERT_EQUAL(share_state(st, id, &sh, &e), 0);
	CU_ASSERT_EQUAL(sh.allowed, 1u);
	CU_ASSERT_EQUAL(sh.shared, 0);
	/* nobody decides for another seat */
	CU_ASSERT_EQUAL(share_set(st, id, 1, ann, 1, &a, 30, &e), ERR_FORBIDDEN);
	CU_ASSERT_EQUAL(share_set(st, id, 1, 0, 1, &a, 30, &e), ERR_FORBIDDEN);
	CU_ASSERT_EQUAL(share_set(st, 999999, 0, ann, 1, &a, 30, &e), ERR_NOTFOUND);
	CU_ASSERT_EQUAL(share_state(st, 999999, &sh, &e), ERR_NOTFOUND);
	/* a new player in Bob's seat decides anew: Bob's old yes is not hers */
	CU_ASSERT_EQUAL(share_set(st, id, 1, bob, 1, &a, 40, &e), 0);
	{
		struct store_conn *c;
		int64_t eve = 0;
		CU_ASSERT_EQUAL_FATAL(store_write_begin(st, &c, &e), 0);
		CU_ASSERT_EQUAL(store_user_add(c, "eve-share@example.org", "Eve", 0, &eve, &e), 0);
		CU_ASSERT_EQUAL_FATAL(store_seat_set(c, id, 1, eve, "Eve", "eve-share@example.org", &e), 0);
		CU_ASSERT_EQUAL_FATAL(store_write_commit(c, &e), 0);
	}
	CU_ASSERT_EQUAL(share_state(st, id, &sh, &e), 0);
	CU_ASSERT_EQUAL(sh.allowed, 1u);
	CU_ASSERT_EQUAL(sh.shared, 0);
}

static CU_TestInfo cases[] = {
	{ "test_story__a_game_without_words_reads_with_names", test_story__a_game_without_words_reads_with_names },
	{ "test_story__sentences_hide_what_the_reader_may_not_see",
	  test_story__sentences_hide_what_the_reader_may_not_see },
	{ "test_story__undone_steps_are_the_undoers_business", test_story__undone_steps_are_the_undoers_business },
	{ "test_story__a_rollback_is_told_to_everyone", test_story__a_rollback_is_told_to_everyone },
	{ "test_story__sentences_are_kept_and_follow_names", test_story__sentences_are_kept_and_follow_names },
	{ "test_story__the_cache_is_bounded", test_story__the_cache_is_bounded },
	{ "test_story__since_your_last_turn", test_story__since_your_last_turn },
	{ "test_story__the_kept_log_follows_every_change", test_story__the_kept_log_follows_every_change },
	{ "test_story__replay_positions_per_reader", test_story__replay_positions_per_reader },
	{ "test_story__undo_ends_when_the_turn_passes", test_story__undo_ends_when_the_turn_passes },
	{ "test_story__sharing_needs_every_player_and_the_end", test_story__sharing_needs_every_player_and_the_end },
	{ "test_story__the_replay_shows_each_seat_its_own_view", test_story__the_replay_shows_each_seat_its_own_view },
	{ "test_story__every_game_with_words_tells_a_played_game",
	  test_story__every_game_with_words_tells_a_played_game },
	CU_TEST_INFO_NULL,
};

int tests_register(void)
{
	TESTS_SUITE("story", suite_init, suite_clean, cases);
	return 0;
}
