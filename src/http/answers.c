/* http/answers.c: the text of recent game answers and pages, served again while the database has not changed */
/* SPDX-License-Identifier: MIT */
#include "http/answers.h"

#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/banned.h"

/*
 * A direct-mapped table: each key has one slot, a newer answer replaces
 * whatever held it. The key is the store and a text naming everything else
 * the answer depends on (the game, the seat seen as and whether emails are
 * shown; a page's reader); an entry is good only for the data version it was
 * made at (store_data_version), and a page's only until its time, so nothing
 * ever needs invalidating.
 */
#define SLOTS 4096 /* a power of two */
#define STRIPES 64

struct slot {
	uint64_t store;
	char *key;
	uint64_t version;
	int64_t until; /* 0: as long as the version lasts */
	char etag[32];
	char *text;
	size_t len;
	char *gz;      /* a page's text gzipped, made at its first read that accepts it; NULL: not yet */
	size_t gzlen;
	uint64_t gen;  /* which text the slot holds: one more at every put */
};

static struct slot slots[SLOTS];
static pthread_mutex_t locks[STRIPES];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_ullong hits, misses, page_hits, page_misses, gzipped;
static atomic_ullong generation;

static void init_locks(void)
{
	for (int i = 0; i < STRIPES; i++)
		pthread_mutex_init(&locks[i], NULL);
}

static size_t slot_of(uint64_t store, const char *key)
{
	uint64_t h = 1469598103934665603ull ^ store * 0x94D049BB133111EBull;

	for (const char *p = key; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	h ^= h >> 29;
	return (size_t)h & (SLOTS - 1);
}

/* The kept text of key at version (out NULL: the ETag is enough) that is still good at now. */
static int kept_get(uint64_t store, const char *key, uint64_t version, int64_t now, struct buf *out, char etag[32])
{
	size_t i;
	struct slot *s;
	int found = 0;

	pthread_once(&once, init_locks);
	i = slot_of(store, key);
	s = &slots[i];
	pthread_mutex_lock(&locks[i % STRIPES]);
	if (s->key && s->store == store && s->version == version && strcmp(s->key, key) == 0 && (s->text || !out) &&
	    (!s->until || now < s->until)) {
		if (out)
			buf_add(out, s->text, s->len);
		if (etag)
			memcpy(etag, s->etag, sizeof(s->etag));
		found = 1;
	}
	pthread_mutex_unlock(&locks[i % STRIPES]);
	return found;
}

static void kept_put(uint64_t store, const char *key, uint64_t version, int64_t until, const char *text, size_t len,
		     const char *etag)
{
	char *copy = NULL, *kcopy = strdup(key);
	size_t i;
	struct slot *s;

	pthread_once(&once, init_locks);
	if (!kcopy)
		abort();
	if (text) {
		copy = malloc(len ? len : 1);
		if (!copy)
			abort();
		memcpy(copy, text, len);
	}
	i = slot_of(store, key);
	s = &slots[i];
	pthread_mutex_lock(&locks[i % STRIPES]);
	if (!text && s->text && s->key && s->store == store && s->version == version && strcmp(s->key, key) == 0) {
		/* the whole answer at this version is already kept: it has the ETag too */
		pthread_mutex_unlock(&locks[i % STRIPES]);
		free(kcopy);
		return;
	}
	free(s->text);
	free(s->key);
	free(s->gz);
	s->store = store;
	s->key = kcopy;
	s->version = version;
	s->until = until;
	s->text = copy;
	s->len = len;
	s->gz = NULL;
	s->gzlen = 0;
	s->gen = atomic_fetch_add(&generation, 1) + 1;
	snprintf(s->etag, sizeof(s->etag), "%s", etag ? etag : "");
	pthread_mutex_unlock(&locks[i % STRIPES]);
}

static void game_key(char key[96], int64_t game, int seat, int emails)
{
	snprintf(key, 96, "game|%lld|%d|%d", (long long)game, seat, emails != 0);
}

int answers_get(uint64_t store, int64_t game, int seat, int emails, uint64_t version, struct buf *out,
		char etag[32])
{
	char key[96];
	int found;

	game_key(key, game, seat, emails);
	found = kept_get(store, key, version, 0, out, etag) && etag[0];
	atomic_fetch_add(found ? &hits : &misses, 1);
	return found;
}

void answers_put(uint64_t store, int64_t game, int seat, int emails, uint64_t version, const char *text,
		 size_t len, const char *etag)
{
	char key[96];

	game_key(key, game, seat, emails);
	kept_put(store, key, version, 0, text, len, etag);
}

void answers_stats(uint64_t *h, uint64_t *m)
{
	*h = atomic_load(&hits);
	*m = atomic_load(&misses);
}

/* text (len bytes) gzipped, appended to out (empty): 0, or -1. */
static int gzip_text(const char *text, size_t len, struct buf *out)
{
	z_stream z = {0};
	unsigned char chunk[16384];
	int rc;

	/* windowBits 15 + 16: a gzip header and trailer, as Content-Encoding: gzip wants */
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	z.next_in = (Bytef *)(uintptr_t)text;
	z.avail_in = (uInt)len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		rc = deflate(&z, Z_FINISH);
		buf_add(out, chunk, sizeof(chunk) - z.avail_out);
	} while (rc == Z_OK);
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

int answers_page_get(uint64_t store, const char *key, uint64_t version, int64_t now, int gzip, struct buf *out,
		     int *gzipped_out)
{
	size_t i;
	struct slot *s;
	uint64_t gen = 0;
	int found = 0;

	*gzipped_out = 0;
	pthread_once(&once, init_locks);
	i = slot_of(store, key);
	s = &slots[i];
	pthread_mutex_lock(&locks[i % STRIPES]);
	if (s->key && s->store == store && s->version == version && strcmp(s->key, key) == 0 && s->text &&
	    (!s->until || now < s->until)) {
		found = 1;
		gen = s->gen;
		if (gzip && s->gz) {
			buf_add(out, s->gz, s->gzlen);
			*gzipped_out = 1;
		} else {
			buf_add(out, s->text, s->len);
		}
	}
	pthread_mutex_unlock(&locks[i % STRIPES]);
	atomic_fetch_add(found ? &page_hits : &page_misses, 1);
	if (found && gzip && !*gzipped_out) {
		/* the first read that accepts gzip compresses the kept text once, for every later one */
		struct buf z = BUF_INIT;
		if (gzip_text(out->data, out->len, &z) == 0) {
			char *copy = malloc(z.len ? z.len : 1);
			if (copy) {
				memcpy(copy, z.data, z.len);
				pthread_mutex_lock(&locks[i % STRIPES]);
				if (s->gen == gen && !s->gz) {
					s->gz = copy;
					s->gzlen = z.len;
					copy = NULL;
				}
				pthread_mutex_unlock(&locks[i % STRIPES]);
				free(copy);
			}
			atomic_fetch_add(&gzipped, 1);
			buf_reset(out);
			buf_add(out, z.data, z.len);
			*gzipped_out = 1;
		}
		buf_release(&z);
	}
	return found;
}

uint64_t answers_page_gzipped(void)
{
	return atomic_load(&gzipped);
}

void answers_page_put(uint64_t store, const char *key, uint64_t version, int64_t until, const char *text, size_t len)
{
	kept_put(store, key, version, until, text, len, NULL);
}

void answers_page_stats(uint64_t *h, uint64_t *m)
{
	*h = atomic_load(&page_hits);
	*m = atomic_load(&page_misses);
}
