/* engine/cache.c: decoded positions of recently used games, valid exactly while their snapshot is the stored one */
/* SPDX-License-Identifier: MIT */
#include "engine/cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

#define CACHE_DEFAULT_CAPACITY 4096
#define CACHE_BUCKETS 8192 /* a power of two */
#define CACHE_DEFAULT_MEMOS 1024

struct cache_memo {
	char *key;
	json_t *value;
};

struct cache_pos {
	int64_t game_id;
	char *snapshot;          /* the text the position was decoded from */
	size_t snapshot_len;
	struct engine_game eg;
	int refs;                /* the cache's own (1 while in the table) plus readers' */
	int in_table;
	struct cache_memo memos[CACHE_MEMOS_PER_POS]; /* the oldest first */
	int nmemos;
	struct cache_pos *hnext; /* bucket chain */
	struct cache_pos *prev, *next; /* LRU list: head is the most recent */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cache_pos *buckets[CACHE_BUCKETS];
static struct cache_pos *lru_head, *lru_tail;
static size_t count, capacity = CACHE_DEFAULT_CAPACITY;
static uint64_t hits, misses;
static size_t memo_count, memo_capacity = CACHE_DEFAULT_MEMOS;

static size_t bucket_of(int64_t game_id)
{
	uint64_t h = (uint64_t)game_id * 0x9E3779B97F4A7C15ull;

	return (size_t)(h >> 32) & (CACHE_BUCKETS - 1);
}

static void memo_free(struct cache_memo *m)
{
	free(m->key);
	json_decref(m->value);
	m->key = NULL;
	m->value = NULL;
}

/* Drop p's memos, the oldest first, until it has at most keep. Locked, or p not shared. */
static void memos_drop(struct cache_pos *p, int keep)
{
	int n = p->nmemos - keep;

	if (n <= 0)
		return;
	for (int i = 0; i < n; i++)
		memo_free(&p->memos[i]);
	memmove(p->memos, p->memos + n, (size_t)keep * sizeof(p->memos[0]));
	p->nmemos = keep;
	if (p->in_table)
		memo_count -= (size_t)n;
}

static void pos_free(struct cache_pos *p)
{
	memos_drop(p, 0);
	engine_game_release(&p->eg);
	free(p->snapshot);
	free(p);
}

/* Unlink p from the table and the LRU list; drops the table's reference. Returns p when it is now unused. Locked. */
static struct cache_pos *unlink_pos(struct cache_pos *p)
{
	struct cache_pos **pp = &buckets[bucket_of(p->game_id)];

	while (*pp && *pp != p)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = p->hnext;
	if (p->prev)
		p->prev->next = p->next;
	else
		lru_head = p->next;
	if (p->next)
		p->next->prev = p->prev;
	else
		lru_tail = p->prev;
	p->prev = p->next = p->hnext = NULL;
	memo_count -= (size_t)p->nmemos;
	p->in_table = 0;
	count--;
	return --p->refs == 0 ? p : NULL;
}

static struct cache_pos *find(int64_t game_id)
{
	for (struct cache_pos *p = buckets[bucket_of(game_id)]; p; p = p->hnext)
		if (p->game_id == game_id)
			return p;
	return NULL;
}

static int same_snapshot(const struct cache_pos *p, const char *snapshot, size_t len)
{
	return p->snapshot_len == len && memcmp(p->snapshot, snapshot, len) == 0;
}

static void touch(struct cache_pos *p)
{
	if (p == lru_head)
		return;
	p->prev->next = p->next;
	if (p->next)
		p->next->prev = p->prev;
	else
		lru_tail = p->prev;
	p->prev = NULL;
	p->next = lru_head;
	lru_head->prev = p;
	lru_head = p;
}

/*
 * Put a new position in the table (its reference count becomes 1 for the
 * table plus `readers`), replacing the game's older one and evicting the
 * least recently used. Returns positions that became unused, chained by
 * hnext, for the caller to free outside the lock. Locked.
 */
static struct cache_pos *insert(struct cache_pos *p, int readers)
{
	struct cache_pos *old = find(p->game_id), *dead = NULL, *d;

	if (old && (d = unlink_pos(old))) {
		d->hnext = dead;
		dead = d;
	}
	while (count >= capacity && lru_tail) {
		if ((d = unlink_pos(lru_tail))) {
			d->hnext = dead;
			dead = d;
		}
	}
	p->refs = 1 + readers;
	p->in_table = 1;
	p->hnext = buckets[bucket_of(p->game_id)];
	buckets[bucket_of(p->game_id)] = p;
	p->prev = NULL;
	p->next = lru_head;
	if (lru_head)
		lru_head->prev = p;
	lru_head = p;
	if (!lru_tail)
		lru_tail = p;
	count++;
	return dead;
}

static void free_chain(struct cache_pos *dead)
{
	while (dead) {
		struct cache_pos *next = dead->hnext;
		pos_free(dead);
		dead = next;
	}
}

int cache_pos_load(const struct game_ops *ops, int64_t game_id, const char *snapshot, struct cache_pos **pos,
		   struct err *err)
{
	size_t len = strlen(snapshot);
	struct cache_pos *p, *dead = NULL;
	int rc;

	*pos = NULL;
	pthread_mutex_lock(&lock);
	p = find(game_id);
	if (p && p->eg.ops == ops && same_snapshot(p, snapshot, len)) {
		p->refs++;
		touch(p);
		hits++;
		pthread_mutex_unlock(&lock);
		*pos = p;
		return 0;
	}
	misses++;
	pthread_mutex_unlock(&lock);

	/* decode outside the lock: other games' requests go on meanwhile */
	p = calloc(1, sizeof(*p));
	if (!p)
		return err_set(err, ERR_NOMEM, "out of memory");
	if ((rc = engine_game_decode(ops, snapshot, &p->eg, err)) < 0) {
		free(p);
		return rc;
	}
	p->game_id = game_id;
	p->snapshot = malloc(len + 1);
	if (!p->snapshot) {
		engine_game_release(&p->eg);
		free(p);
		return err_set(err, ERR_NOMEM, "out of memory");
	}
	memcpy(p->snapshot, snapshot, len + 1);
	p->snapshot_len = len;
	pthread_mutex_lock(&lock);
	if (capacity)
		dead = insert(p, 1);
	else
		p->refs = 1; /* the caller's only */
	pthread_mutex_unlock(&lock);
	free_chain(dead);
	*pos = p;
	return 0;
}

const struct engine_game *cache_pos_game(const struct cache_pos *pos)
{
	return &pos->eg;
}

void cache_pos_release(struct cache_pos *pos)
{
	int last;

	if (!pos)
		return;
	pthread_mutex_lock(&lock);
	last = --pos->refs == 0;
	pthread_mutex_unlock(&lock);
	if (last)
		pos_free(pos);
}

int cache_pos_take(const struct game_ops *ops, int64_t game_id, const char *snapshot, struct engine_game *out,
		   struct err *err)
{
	size_t len = strlen(snapshot);
	struct cache_pos *p;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&lock);
	p = find(game_id);
	if (p && p->eg.ops == ops && p->refs == 1 && same_snapshot(p, snapshot, len)) {
		/* nobody reads it: the caller may change it, so it leaves the cache */
		unlink_pos(p);
		hits++;
		pthread_mutex_unlock(&lock);
		*out = p->eg;
		memset(&p->eg, 0, sizeof(p->eg));
		pos_free(p);
		return 0;
	}
	misses++;
	pthread_mutex_unlock(&lock);
	return engine_game_decode(ops, snapshot, out, err);
}

json_t *cache_pos_memo_get(struct cache_pos *pos, const char *key)
{
	json_t *v = NULL;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < pos->nmemos && !v; i++)
		if (!strcmp(pos->memos[i].key, key))
			v = json_incref(pos->memos[i].value);
	pthread_mutex_unlock(&lock);
	return v;
}

void cache_pos_memo_put(struct cache_pos *pos, const char *key, json_t *value)
{
	struct cache_memo m = { .key = strdup(key), .value = json_incref(value) };
	struct cache_pos *q;

	if (!m.key || !value) {
		memo_free(&m);
		return;
	}
	pthread_mutex_lock(&lock);
	if (!pos->in_table || !memo_capacity) {
		pthread_mutex_unlock(&lock);
		memo_free(&m);
		return;
	}
	for (int i = 0; i < pos->nmemos; i++)
		if (!strcmp(pos->memos[i].key, key)) {
			/* another reader made it meanwhile: this one goes in its place, as the newest */
			memo_free(&pos->memos[i]);
			memmove(pos->memos + i, pos->memos + i + 1, (size_t)(pos->nmemos - i - 1) * sizeof(pos->memos[0]));
			pos->nmemos--;
			memo_count--;
			break;
		}
	memos_drop(pos, CACHE_MEMOS_PER_POS - 1);
	/* over the whole budget: the memos of the least recently used positions go first */
	for (q = lru_tail; q && memo_count >= memo_capacity; q = q->prev)
		if (q != pos)
			memos_drop(q, 0);
	if (memo_count >= memo_capacity)
		memos_drop(pos, 0);
	pos->memos[pos->nmemos++] = m;
	memo_count++;
	pthread_mutex_unlock(&lock);
}

void cache_set_memo_capacity(size_t n)
{
	pthread_mutex_lock(&lock);
	memo_capacity = n;
	for (struct cache_pos *q = lru_tail; q && memo_count > memo_capacity; q = q->prev)
		memos_drop(q, 0);
	pthread_mutex_unlock(&lock);
}

size_t cache_memo_capacity(void)
{
	size_t n;

	pthread_mutex_lock(&lock);
	n = memo_capacity;
	pthread_mutex_unlock(&lock);
	return n;
}

void cache_game_forget(int64_t game_id)
{
	struct cache_pos *p, *dead = NULL;

	pthread_mutex_lock(&lock);
	if ((p = find(game_id)))
		dead = unlink_pos(p);
	pthread_mutex_unlock(&lock);
	if (dead)
		pos_free(dead);
}

void cache_set_capacity(size_t n)
{
	struct cache_pos *dead = NULL, *d;

	pthread_mutex_lock(&lock);
	while (lru_tail)
		if ((d = unlink_pos(lru_tail))) {
			d->hnext = dead;
			dead = d;
		}
	capacity = n;
	hits = misses = 0;
	pthread_mutex_unlock(&lock);
	free_chain(dead);
}

size_t cache_capacity(void)
{
	size_t n;

	pthread_mutex_lock(&lock);
	n = capacity;
	pthread_mutex_unlock(&lock);
	return n;
}

void cache_stats(uint64_t *h, uint64_t *m)
{
	pthread_mutex_lock(&lock);
	*h = hits;
	*m = misses;
	pthread_mutex_unlock(&lock);
}
