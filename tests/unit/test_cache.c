/* tests/unit/test_cache.c: CUnit suite for the position cache (engine/cache.c), the reply writer (http/jsonw.c) and read transactions */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "engine/cache.h"
#include "engine/create.h"
#include "engine/submit.h"
#include "engine/views.h"
#include "engine/registry.h"
#include "http/answers.h"
#include "http/http.h"
#include "http/jsonw.h"
#include "store/store.h"
#include "testutil.h"
#include "util/token.h"
#include "util/banned.h"

static char dir[64];

static int suite_init(void)
{
	snprintf(dir, sizeof(dir), "/tmp/tp-cache-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	token_init();
	return 0;
}

static int suite_clean(void)
{
	char cmd[160];

	cache_set_capacity(4096);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static struct store *open_store(const char *name)
{
	struct store *s = NULL;
	struct err e = {0};
	char path[160];

	snprintf(path, sizeof(path), "%s/%s.db", dir, name);
	CU_ASSERT_EQUAL_FATAL(store_open(path, NULL, &s, &e), 0);
	return s;
}

static int64_t new_game(struct store *s, const char *game, int nplayers, uint64_t seed)
{
	static const char *names[] = { "Ann", "Bob", "Cy", "Di" };
	struct create_player players[4];
	struct create_spec ng = { .game = game, .players = players, .nplayers = nplayers, .seed = seed,
				    .have_seed = 1, .quiet = 1, .created_at = 500 };
	struct err e = {0};
	int64_t id = 0;

	for (int i = 0; i < nplayers; i++)
		players[i] = (struct create_player){ .name = names[i] };
	CU_ASSERT_EQUAL_FATAL(create_setup(s, &ng, &id, NULL, &e), 0);
	return id;
}

static char *dump(json_t *v)
{
	char *t = v ? json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS) : strdup("(error)");
	json_decref(v);
	return t;
}

/* Everything the read paths answer about game id, for every seat and a spectator, as one text. */
static char *answers(struct store *s, int64_t id, int nplayers)
{
	struct buf all = BUF_INIT;
	struct err e = {0};

	for (int seat = -1; seat < nplayers; seat++) {
		json_t *g = NULL, *l = NULL;
		char *t;

		if (views_game_json(s, id, seat, 1, &g, &e) < 0)
			buf_addf(&all, "error %d %s\n", e.code, e.msg);
		t = dump(g);
		buf_addf(&all, "game %d: %s\n", seat, t);
		free(t);
		if (seat >= 0) {
			if (views_legal_json(s, id, seat, &l, &e) < 0)
				buf_addf(&all, "error %d %s\n", e.code, e.msg);
			t = dump(l);
			buf_addf(&all, "legal %d: %s\n", seat, t);
			free(t);
		}
	}
	return buf_detach(&all, NULL);
}

/* The first legal step of the acting seat, or NULL when the game is over. *seat set. */
static char *pick_step(struct store *s, int64_t id, int nplayers, int k, int *seat)
{
	for (int i = 0; i < nplayers; i++) {
		json_t *l = NULL;
		struct err e = {0};
		char *step = NULL;
		size_t n;

		if (views_legal_json(s, id, i, &l, &e) < 0)
			return NULL;
		n = json_array_size(json_object_get(l, "moves"));
		if (n) {
			step = strdup(json_string_value(json_array_get(json_object_get(l, "moves"), (size_t)k % n)));
			*seat = i;
		}
		json_decref(l);
		if (step)
			return step;
	}
	return NULL;
}

/*
 * Two databases play the same steps, one with the cache on and one with it
 * off; after every step every answer of the read paths must be the same
 * text, and the move answers too. Each game of the registry, three seeds.
 */
static void play_both(const char *game, uint64_t seed, int steps)
{
	char name[64];
	struct store *cached, *plain;
	int64_t a, b;
	int nplayers = 3;
	uint64_t hits = 0, misses = 0;

	snprintf(name, sizeof(name), "%s-%llu-c", game, (unsigned long long)seed);
	cached = open_store(name);
	name[strlen(name) - 1] = 'p';
	plain = open_store(name);
	a = new_game(cached, game, nplayers, seed);
	b = new_game(plain, game, nplayers, seed);
	for (int k = 0; k < steps; k++) {
		char *ta, *tb, *step, *ra, *rb;
		const char *lines[1];
		struct submit_request rq = { .nlines = 1, .lines = lines, .if_match = -1, .at = 1000 + k };
		struct submit_outcome oa, ob;
		json_t *res_a = NULL, *res_b = NULL;
		struct err ea = {0}, eb = {0};
		int seat = -1, rca, rcb;

		cache_set_capacity(4096);
		ta = answers(cached, a, nplayers);
		ta = (free(ta), answers(cached, a, nplayers)); /* the second time from the cache */
		cache_stats(&hits, &misses);
		CU_ASSERT(hits > 0);
		step = pick_step(cached, a, nplayers, k * 7 + 3, &seat);
		/* the move made with the cache on: it takes the position the reads left there */
		lines[0] = step;
		rq.game_id = a;
		rq.seat = seat;
		rca = step ? submit_steps(cached, &rq, &res_a, &oa, &ea) : -1;

		cache_set_capacity(0);
		tb = answers(plain, b, nplayers);
		rq.game_id = b;
		rcb = step ? submit_steps(plain, &rq, &res_b, &ob, &eb) : -1;
		ASSERT_STR_EQ(ta, tb);
		CU_ASSERT_EQUAL(rca, rcb);
		json_object_del(res_a, "game");
		json_object_del(res_b, "game");
		ra = dump(res_a);
		rb = dump(res_b);
		ASSERT_STR_EQ(ra, rb);
		free(ra);
		free(rb);
		free(ta);
		free(tb);
		free(step);
		if (!step || rca < 0)
			break;
	}
	cache_set_capacity(4096);
	store_close(cached);
	store_close(plain);
}

static void test_cache__cached_and_uncached_answer_alike(void)
{
	const struct game_ops *ops;
	int games = 0;

	for (size_t i = 0; (ops = registry_at(i)); i++) {
		if (strstr(ops->id, "fake"))
			continue;
		for (uint64_t seed = 1; seed <= 3; seed++)
			play_both(ops->id, seed * 7919, 40);
		games++;
	}
	CU_ASSERT(games >= 3);
}

/* A stored change that did not go through submit_steps (as an admin's rollback writes it) is seen at once. */
static void test_cache__follows_the_stored_snapshot(void)
{
	struct store *s = open_store("rollback");
	struct store_conn *c;
	struct store_move m0 = {0}, row = {0};
	struct err e = {0};
	char *before, *after, *moved;
	int64_t id;
	int seat = -1;

	cache_set_capacity(4096);
	id = new_game(s, "alien-frontiers", 2, 42);
	before = answers(s, id, 2);
	{
		char *step = pick_step(s, id, 2, 0, &seat);
		const char *lines[1] = { step };
		struct submit_request rq = { .game_id = id, .seat = seat, .lines = lines, .nlines = 1, .if_match = 0 };
		struct submit_outcome o;
		json_t *res = NULL;
		CU_ASSERT_EQUAL_FATAL(submit_steps(s, &rq, &res, &o, &e), 0);
		json_decref(res);
		free(step);
	}
	moved = answers(s, id, 2);
	CU_ASSERT(strcmp(before, moved) != 0);
	/* step 2 puts back the set-up position, written straight through the store */
	CU_ASSERT_EQUAL_FATAL(store_write_begin(s, &c, &e), 0);
	CU_ASSERT_EQUAL(store_move_get(c, id, 0, &m0, &e), 0);
	row.n = 2;
	row.seat = -1;
	row.text = (char *)"rollback to 0";
	snprintf(row.via, sizeof(row.via), "admin");
	row.back = 1;
	row.undo_seat = -1;
	row.snapshot = m0.snapshot;
	CU_ASSERT_EQUAL(store_move_append(c, id, &row, &e), 0);
	CU_ASSERT_EQUAL(store_game_update(c, id, 2, 1u, "active", NULL, 2000, &e), 0);
	CU_ASSERT_EQUAL(store_write_commit(c, &e), 0);
	after = answers(s, id, 2);
	/* the same position as at the start, only the move count and the times differ */
	{
		json_t *l1 = NULL, *l2 = NULL;
		char *t1, *t2;
		CU_ASSERT_EQUAL(views_legal_json(s, id, 0, &l1, &e), 0);
		json_object_del(l1, "move_count");
		t1 = dump(l1);
		cache_set_capacity(0);
		CU_ASSERT_EQUAL(views_legal_json(s, id, 0, &l2, &e), 0);
		json_object_del(l2, "move_count");
		t2 = dump(l2);
		ASSERT_STR_EQ(t1, t2);
		free(t1);
		free(t2);
		t1 = answers(s, id, 2);
		ASSERT_STR_EQ(after, t1);
		free(t1);
		cache_set_capacity(4096);
	}
	CU_ASSERT(strcmp(after, moved) != 0);
	store_move_release(&m0);
	free(before);
	free(after);
	free(moved);
	store_close(s);
}

/* The memo of views_game_json_at's position for seat 0 under key, as a string ("" when there is none). */
static char *memo_of(struct store *s, int64_t id, const char *key, struct cache_pos **keep)
{
	struct cache_pos *pos = NULL;
	struct err e = {0};
	json_t *g = NULL, *v;
	char *out;

	CU_ASSERT_EQUAL_FATAL(views_game_json_at(s, id, 0, 0, 1, &g, &pos, &e), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pos);
	v = cache_pos_memo_get(pos, key);
	out = strdup(json_is_string(v) ? json_string_value(v) : "");
	json_decref(v);
	json_decref(g);
	if (keep)
		*keep = pos;
	else
		cache_pos_release(pos);
	return out;
}

static void memo_put(struct cache_pos *pos, const char *key, const char *text)
{
	json_t *v = json_string(text);

	cache_pos_memo_put(pos, key, v);
	json_decref(v);
}

static void play_one(struct store *s, int64_t id)
{
	int seat = -1;
	char *step = pick_step(s, id, 2, 0, &seat);
	const char *lines[1] = { step };
	struct submit_request rq = { .game_id = id, .seat = seat, .lines = lines, .nlines = 1 };
	struct submit_outcome o;
	struct err e = {0};
	json_t *res = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(step);
	CU_ASSERT_EQUAL_FATAL(submit_steps(s, &rq, &res, &o, &e), 0);
	json_decref(res);
	free(step);
}

/*
 * What a page derives from a position lives exactly as long as the
 * position: read again while nothing changed, gone after a step (and after
 * the cache let the position go), bounded per position and in all.
 */
static void test_cache__memo_lives_with_its_position(void)
{
	struct store *s = open_store("memo");
	struct cache_pos *pos = NULL, *other = NULL;
	int64_t id, id2;
	char *t, key[16];

	cache_set_capacity(4096);
	cache_set_memo_capacity(1024);
	id = new_game(s, "alien-frontiers", 2, 7);
	id2 = new_game(s, "alien-frontiers", 2, 8);
	t = memo_of(s, id, "board", &pos);
	ASSERT_STR_EQ(t, "");
	free(t);
	memo_put(pos, "board", "drawn at the start");
	cache_pos_release(pos);
	t = memo_of(s, id, "board", NULL);
	ASSERT_STR_EQ(t, "drawn at the start");
	free(t);
	t = memo_of(s, id, "another key", NULL);
	ASSERT_STR_EQ(t, "");
	free(t);
	/* a step: the new position knows nothing drawn before it */
	play_one(s, id);
	t = memo_of(s, id, "board", &pos);
	ASSERT_STR_EQ(t, "");
	free(t);
	/* at most CACHE_MEMOS_PER_POS per position: the oldest goes */
	for (int i = 0; i <= CACHE_MEMOS_PER_POS; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		memo_put(pos, key, key);
	}
	cache_pos_release(pos);
	t = memo_of(s, id, "k0", NULL);
	ASSERT_STR_EQ(t, "");
	free(t);
	snprintf(key, sizeof(key), "k%d", CACHE_MEMOS_PER_POS);
	t = memo_of(s, id, key, NULL);
	ASSERT_STR_EQ(t, key);
	free(t);
	/* the same key again replaces the value */
	t = memo_of(s, id, "k1", &pos);
	ASSERT_STR_EQ(t, "k1");
	free(t);
	memo_put(pos, "k1", "again");
	cache_pos_release(pos);
	t = memo_of(s, id, "k1", NULL);
	ASSERT_STR_EQ(t, "again");
	free(t);
	/* over the whole budget: the least recently used position's memos go first */
	cache_set_memo_capacity(CACHE_MEMOS_PER_POS);
	t = memo_of(s, id2, "x", &other);
	free(t);
	memo_put(other, "x", "other game");
	cache_pos_release(other);
	t = memo_of(s, id2, "x", NULL);
	ASSERT_STR_EQ(t, "other game");
	free(t);
	t = memo_of(s, id, "k1", NULL);
	ASSERT_STR_EQ(t, "");
	free(t);
	/* a position the cache does not keep keeps no memo */
	cache_set_capacity(0);
	t = memo_of(s, id2, "x", &other);
	ASSERT_STR_EQ(t, "");
	free(t);
	memo_put(other, "x", "kept nowhere");
	t = memo_of(s, id2, "x", NULL);
	ASSERT_STR_EQ(t, "");
	free(t);
	{
		json_t *v = cache_pos_memo_get(other, "x");
		CU_ASSERT_PTR_NULL(v);
		json_decref(v);
	}
	cache_pos_release(other);
	cache_set_capacity(4096);
	cache_set_memo_capacity(1024);
	store_close(s);
}

/* Two databases with the same game id: each answers from its own snapshot. */
static void test_cache__same_id_in_two_databases(void)
{
	struct store *x = open_store("same-x"), *y = open_store("same-y");
	int64_t a, b;
	char *ta, *tb, *ta2, *tb2;

	cache_set_capacity(4096);
	a = new_game(x, "alien-frontiers", 2, 1);
	b = new_game(y, "alien-frontiers", 2, 2);
	CU_ASSERT_EQUAL(a, b);
	ta = answers(x, a, 2);
	tb = answers(y, b, 2);
	ta2 = answers(x, a, 2);
	tb2 = answers(y, b, 2);
	CU_ASSERT(strcmp(ta, tb) != 0);
	ASSERT_STR_EQ(ta, ta2);
	ASSERT_STR_EQ(tb, tb2);
	free(ta);
	free(tb);
	free(ta2);
	free(tb2);
	store_close(x);
	store_close(y);
}

static char *setup_snapshot(uint64_t seed)
{
	const struct game_ops *ops = registry_find("alien-frontiers");
	struct engine_game eg;
	struct err e = {0};
	char *snap = NULL;

	CU_ASSERT_EQUAL_FATAL(engine_game_setup(ops, NULL, 2, seed, &eg, &e), 0);
	CU_ASSERT_EQUAL(engine_game_encode(&eg, &snap, &e), 0);
	engine_game_release(&eg);
	return snap;
}

/* A position being read is never handed out for changing; a free one is, once, and then leaves the cache. */
static void test_cache__take_is_private(void)
{
	const struct game_ops *ops = registry_find("alien-frontiers");
	char *snap = setup_snapshot(5);
	struct cache_pos *p = NULL, *q = NULL;
	struct engine_game mine;
	struct err e = {0};
	uint64_t h0, m0, h, m;

	cache_set_capacity(16);
	CU_ASSERT_EQUAL_FATAL(cache_pos_load(ops, 77, snap, &p, &e), 0);
	/* someone reads it: take decodes a copy of its own */
	CU_ASSERT_EQUAL(cache_pos_take(ops, 77, snap, &mine, &e), 0);
	CU_ASSERT(mine.state != cache_pos_game(p)->state);
	engine_game_release(&mine);
	cache_stats(&h0, &m0);
	CU_ASSERT_EQUAL(h0, 0);
	CU_ASSERT_EQUAL(m0, 2);
	cache_pos_release(p);
	/* nobody reads it now: taken from the cache */
	CU_ASSERT_EQUAL(cache_pos_take(ops, 77, snap, &mine, &e), 0);
	cache_stats(&h, &m);
	CU_ASSERT_EQUAL(h, 1);
	engine_game_release(&mine);
	/* and gone from it */
	CU_ASSERT_EQUAL(cache_pos_load(ops, 77, snap, &q, &e), 0);
	cache_stats(&h, &m);
	CU_ASSERT_EQUAL(m, 3);
	cache_pos_release(q);
	/* another snapshot of the same game is a miss, and replaces it */
	{
		char *other = setup_snapshot(6);
		CU_ASSERT_EQUAL(cache_pos_load(ops, 77, other, &q, &e), 0);
		cache_pos_release(q);
		CU_ASSERT_EQUAL(cache_pos_load(ops, 77, snap, &q, &e), 0);
		cache_pos_release(q);
		cache_stats(&h, &m);
		CU_ASSERT_EQUAL(h, 1);
		CU_ASSERT_EQUAL(m, 5);
		free(other);
	}
	/* a snapshot that is not one fails like decoding it, and nothing is kept */
	CU_ASSERT(cache_pos_load(ops, 78, "{\"rng\": 1}", &q, &e) < 0);
	CU_ASSERT_PTR_NULL(q);
	CU_ASSERT(cache_pos_take(ops, 78, "not json", &mine, &e) < 0);
	cache_set_capacity(4096);
	free(snap);
}

/* At most the capacity is kept: the least recently used go first. */
static void test_cache__bounded(void)
{
	const struct game_ops *ops = registry_find("alien-frontiers");
	char *snap = setup_snapshot(9);
	struct cache_pos *p;
	struct err e = {0};
	uint64_t h, m;

	cache_set_capacity(4);
	CU_ASSERT_EQUAL(cache_capacity(), 4);
	for (int64_t id = 1; id <= 10; id++) {
		CU_ASSERT_EQUAL(cache_pos_load(ops, id, snap, &p, &e), 0);
		cache_pos_release(p);
	}
	/* 7..10 are kept; 1 was evicted long ago */
	CU_ASSERT_EQUAL(cache_pos_load(ops, 10, snap, &p, &e), 0);
	cache_pos_release(p);
	CU_ASSERT_EQUAL(cache_pos_load(ops, 7, snap, &p, &e), 0);
	cache_pos_release(p);
	cache_stats(&h, &m);
	CU_ASSERT_EQUAL(h, 2);
	CU_ASSERT_EQUAL(m, 10);
	CU_ASSERT_EQUAL(cache_pos_load(ops, 1, snap, &p, &e), 0);
	cache_pos_release(p);
	cache_stats(&h, &m);
	CU_ASSERT_EQUAL(m, 11);
	/* 8 was the least recently used when 1 came back */
	CU_ASSERT_EQUAL(cache_pos_load(ops, 8, snap, &p, &e), 0);
	cache_pos_release(p);
	cache_stats(&h, &m);
	CU_ASSERT_EQUAL(m, 12);
	/* off: every load decodes, nothing is kept, references still work */
	cache_set_capacity(0);
	CU_ASSERT_EQUAL(cache_pos_load(ops, 10, snap, &p, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(cache_pos_game(p)->state);
	cache_pos_release(p);
	CU_ASSERT_EQUAL(cache_pos_load(ops, 10, snap, &p, &e), 0);
	cache_pos_release(p);
	cache_stats(&h, &m);
	CU_ASSERT_EQUAL(h, 0);
	CU_ASSERT_EQUAL(m, 2);
	cache_set_capacity(4096);
	free(snap);
}

/* jsonw_dump writes what json_dumps(JSON_COMPACT) writes. */
static void check_same(json_t *v, unsigned flags)
{
	char *want = json_dumps(v, JSON_COMPACT | ((flags & JSONW_ANY) ? JSON_ENCODE_ANY : 0));
	struct buf b = BUF_INIT;
	int rc;

	buf_adds(&b, "prefix:");
	rc = jsonw_dump(&b, v, flags);
	if (want) {
		CU_ASSERT_EQUAL(rc, 0);
		ASSERT_STR_EQ(b.data + 7, want);
	} else {
		CU_ASSERT_EQUAL(rc, -1);
		ASSERT_STR_EQ(b.data, "prefix:");
	}
	free(want);
	buf_release(&b);
}

static void test_cache__jsonw_writes_what_jansson_writes(void)
{
	const char *texts[] = {
		"{}", "[]", "{\"a\":[1,-2,0,9223372036854775807,-9223372036854775808],\"b\":{\"c\":null,\"d\":true,\"e\":false}}",
		"[\"\\u0000\\u0001\\u001f \\\" \\\\ / \\b\\f\\n\\r\\t \\u007f\"]",
		"{\"caf\\u00e9\":\"\\u20ac \\ud83d\\ude00 \\u2028\",\"k\\\"ey\":\"v\"}",
		"[1.5,0.1,-0.0,1e300,3.0,[[[[]]]],{\"x\":{}}]",
		"[\"\",\"a\",\"\\u00ff\\u0100\\u07ff\\u0800\\uffff\"]",
	};
	const struct game_ops *ops;

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		json_t *v = json_loads(texts[i], JSON_ALLOW_NUL, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(v);
		check_same(v, 0);
		json_decref(v);
	}
	/* scalars only with JSONW_ANY, as JSON_ENCODE_ANY */
	{
		json_t *scalars[] = { json_integer(-5), json_real(2.25), json_string("x\ny"), json_true(), json_null() };
		for (size_t i = 0; i < 5; i++) {
			check_same(scalars[i], 0);
			check_same(scalars[i], JSONW_ANY);
			json_decref(scalars[i]);
		}
	}
	/* a string that is not UTF-8 fails as it does in json_dumps, leaving the buffer as it was */
	{
		json_t *bad = json_pack("{s:[i,o]}", "k", 1, json_stringn_nocheck("\xc3\x28", 2));
		check_same(bad, 0);
		json_decref(bad);
		bad = json_pack("[o]", json_stringn_nocheck("\xed\xa0\x80", 3));
		check_same(bad, 0);
		json_decref(bad);
	}
	/* the real views of every game, as replies carry them */
	for (size_t i = 0; (ops = registry_at(i)); i++) {
		struct engine_game eg;
		struct err e = {0};
		if (strstr(ops->id, "fake") || engine_game_setup(ops, NULL, ops->min_players, 3, &eg, &e) < 0)
			continue;
		for (int seat = -1; seat < ops->min_players; seat++) {
			json_t *v = NULL;
			if (ops->view(eg.state, seat, &v, &e) == 0)
				check_same(v, 0);
			json_decref(v);
		}
		engine_game_release(&eg);
	}
}

/*
 * A read transaction (store_read_begin, what the game and legal reads use)
 * sees one snapshot until it is given back; a write committed meanwhile shows
 * from the next borrowing of the same connection on, plain or not.
 */
static void test_store__read_begin_keeps_one_snapshot(void)
{
	struct store_options opt = { .read_connections = 1 };
	struct store *s = NULL;
	struct store_conn *r, *w;
	struct store_game g;
	struct err e = {0};
	char path[160];
	int64_t id;

	snprintf(path, sizeof(path), "%s/snapshot.db", dir);
	CU_ASSERT_EQUAL_FATAL(store_open(path, &opt, &s, &e), 0);
	id = new_game(s, "alien-frontiers", 2, 7);
	CU_ASSERT_EQUAL_FATAL(store_read_begin(s, &r, &e), 0);
	CU_ASSERT_EQUAL(store_game_get(r, id, &g, &e), 0);
	CU_ASSERT_EQUAL(g.move_count, 0);
	store_game_release(&g);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(s, &w, &e), 0);
	CU_ASSERT_EQUAL(store_game_update(w, id, 5, 2u, "active", NULL, 900, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_commit(w, &e), 0);
	/* still the state the transaction started from */
	CU_ASSERT_EQUAL(store_game_get(r, id, &g, &e), 0);
	CU_ASSERT_EQUAL(g.move_count, 0);
	CU_ASSERT_EQUAL(g.active_seats, 1u);
	store_game_release(&g);
	store_read_release(r);
	/* the one connection again, without a transaction: every statement sees the latest commit */
	CU_ASSERT_EQUAL_FATAL(store_read_acquire(s, &r, &e), 0);
	CU_ASSERT_EQUAL(store_game_get(r, id, &g, &e), 0);
	CU_ASSERT_EQUAL(g.move_count, 5);
	store_game_release(&g);
	CU_ASSERT_EQUAL_FATAL(store_write_begin(s, &w, &e), 0);
	CU_ASSERT_EQUAL(store_game_update(w, id, 6, 1u, "active", NULL, 901, &e), 0);
	CU_ASSERT_EQUAL_FATAL(store_write_commit(w, &e), 0);
	CU_ASSERT_EQUAL(store_game_get(r, id, &g, &e), 0);
	CU_ASSERT_EQUAL(g.move_count, 6);
	store_game_release(&g);
	store_read_release(r);
	/* and a new read transaction starts from the latest commit */
	CU_ASSERT_EQUAL_FATAL(store_read_begin(s, &r, &e), 0);
	CU_ASSERT_EQUAL(store_game_get(r, id, &g, &e), 0);
	CU_ASSERT_EQUAL(g.move_count, 6);
	store_game_release(&g);
	CU_ASSERT_EQUAL(store_game_get(r, id + 1000, &g, &e), ERR_NOTFOUND);
	store_game_release(&g);
	store_read_release(r);
	store_close(s);
}

/* A kept page answers only for its store, key and data version, and only before its time. */
static void test_answers__page_by_version_and_time(void)
{
	struct buf b = BUF_INIT;
	const char *page = "<!DOCTYPE html><p>the page</p>";
	int gz = 0;

	answers_page_put(7, "page|1|2|-|-", 40, 5000, page, strlen(page));
	CU_ASSERT_EQUAL(answers_page_get(7, "page|1|2|-|-", 40, 4999, 0, &b, &gz), 1);
	ASSERT_STR_EQ(b.data, page);
	buf_reset(&b);
	CU_ASSERT_EQUAL(answers_page_get(7, "page|1|2|-|-", 40, 5000,0, &b, &gz), 0);
	CU_ASSERT_EQUAL(answers_page_get(7, "page|1|2|-|-", 41, 10,0, &b, &gz), 0);
	CU_ASSERT_EQUAL(answers_page_get(8, "page|1|2|-|-", 40, 10,0, &b, &gz), 0);
	CU_ASSERT_EQUAL(answers_page_get(7, "page|1|3|-|-", 40, 10,0, &b, &gz), 0);
	CU_ASSERT_EQUAL(b.len, 0);
	/* no time: as long as the version lasts */
	answers_page_put(7, "page|1|2|-|-", 41, 0, page, strlen(page));
	CU_ASSERT_EQUAL(answers_page_get(7, "page|1|2|-|-", 41, INT64_MAX,0, &b, &gz), 1);
	CU_ASSERT_EQUAL(answers_page_get(7, "page|1|2|-|-", 40, 10,0, &b, &gz), 0);
	buf_release(&b);
}

/* A gzip body inflated into out (NUL-terminated): 0, or -1 when it is not one. */
static int gunzip(const struct buf *in, char *out, size_t size)
{
	z_stream z = {0};
	int rc;

	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return -1;
	z.next_in = (Bytef *)in->data;
	z.avail_in = (uInt)in->len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)(size - 1);
	rc = inflate(&z, Z_FINISH);
	out[z.total_out] = '\0';
	inflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

/*
 * A kept page goes gzipped to a reader that accepts it: compressed once,
 * at the first such read, and never from a text the slot no longer holds.
 */
static void test_answers__page_gzipped_once_per_text(void)
{
	struct buf b = BUF_INIT;
	char page[4096], plain[8192];
	uint64_t before = answers_page_gzipped();
	int gz = -1;

	for (size_t i = 0; i + 1 < sizeof(page); i++)
		page[i] = "<p>Ann docked at the Solar Converter.</p>\n"[i % 42];
	page[sizeof(page) - 1] = '\0';
	answers_page_put(9, "page|5|6|-|-", 70, 0, page, strlen(page));
	CU_ASSERT_EQUAL(answers_page_get(9, "page|5|6|-|-", 70, 10, 1, &b, &gz), 1);
	CU_ASSERT_EQUAL(gz, 1);
	CU_ASSERT(b.len < strlen(page) / 4);
	CU_ASSERT_EQUAL_FATAL(gunzip(&b, plain, sizeof(plain)), 0);
	ASSERT_STR_EQ(plain, page);
	CU_ASSERT_EQUAL(answers_page_gzipped(), before + 1);
	/* the second read takes the kept copy */
	buf_reset(&b);
	CU_ASSERT_EQUAL(answers_page_get(9, "page|5|6|-|-", 70, 10, 1, &b, &gz), 1);
	CU_ASSERT_EQUAL(gz, 1);
	CU_ASSERT_EQUAL(answers_page_gzipped(), before + 1);
	CU_ASSERT_EQUAL_FATAL(gunzip(&b, plain, sizeof(plain)), 0);
	ASSERT_STR_EQ(plain, page);
	/* a reader that does not accept it gets the text */
	buf_reset(&b);
	CU_ASSERT_EQUAL(answers_page_get(9, "page|5|6|-|-", 70, 10, 0, &b, &gz), 1);
	CU_ASSERT_EQUAL(gz, 0);
	ASSERT_STR_EQ(b.data, page);
	/* another text under the same key and version (the "ago" moved on): its own gzip, not the old one */
	page[3] = 'B';
	answers_page_put(9, "page|5|6|-|-", 70, 0, page, strlen(page));
	buf_reset(&b);
	CU_ASSERT_EQUAL(answers_page_get(9, "page|5|6|-|-", 70, 10, 1, &b, &gz), 1);
	CU_ASSERT_EQUAL_FATAL(gunzip(&b, plain, sizeof(plain)), 0);
	ASSERT_STR_EQ(plain, page);
	CU_ASSERT_EQUAL(answers_page_gzipped(), before + 2);
	buf_release(&b);
}

/* Accept-Encoding as browsers and others send it. */
static void test_answers__accepts_gzip(void)
{
	CU_ASSERT(http_accepts_gzip("gzip, deflate, br"));
	CU_ASSERT(http_accepts_gzip("br;q=1.0, gzip;q=0.8, *;q=0.1"));
	CU_ASSERT(http_accepts_gzip("x-gzip"));
	CU_ASSERT(http_accepts_gzip("GZIP"));
	CU_ASSERT(http_accepts_gzip("*"));
	CU_ASSERT(http_accepts_gzip("identity, *;q=0.5"));
	CU_ASSERT(!http_accepts_gzip(NULL));
	CU_ASSERT(!http_accepts_gzip(""));
	CU_ASSERT(!http_accepts_gzip("identity"));
	CU_ASSERT(!http_accepts_gzip("br, deflate"));
	CU_ASSERT(!http_accepts_gzip("gzip;q=0"));
	CU_ASSERT(!http_accepts_gzip("gzip;q=0.000, *"));
	CU_ASSERT(!http_accepts_gzip("*;q=0"));
	CU_ASSERT(!http_accepts_gzip("gzipped, xgzip"));
}

static CU_TestInfo cases[] = {
	{ "test_cache__cached_and_uncached_answer_alike", test_cache__cached_and_uncached_answer_alike },
	{ "test_cache__follows_the_stored_snapshot", test_cache__follows_the_stored_snapshot },
	{ "test_cache__same_id_in_two_databases", test_cache__same_id_in_two_databases },
	{ "test_cache__take_is_private", test_cache__take_is_private },
	{ "test_cache__bounded", test_cache__bounded },
	{ "test_cache__memo_lives_with_its_position", test_cache__memo_lives_with_its_position },
	{ "test_cache__jsonw_writes_what_jansson_writes", test_cache__jsonw_writes_what_jansson_writes },
	{ "test_answers__page_by_version_and_time", test_answers__page_by_version_and_time },
	{ "test_answers__page_gzipped_once_per_text", test_answers__page_gzipped_once_per_text },
	{ "test_answers__accepts_gzip", test_answers__accepts_gzip },
	{ "test_store__read_begin_keeps_one_snapshot", test_store__read_begin_keeps_one_snapshot },
	CU_TEST_INFO_NULL,
};

int tests_register(void)
{
	TESTS_SUITE("cache", suite_init, suite_clean, cases);
	return 0;
}
