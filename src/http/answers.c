/* http/answers.c: the text of recent game answers, served again while the database has not changed */
/* SPDX-License-Identifier: MIT */
#include "http/answers.h"

#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/*
 * A direct-mapped table: each key has one slot, a newer answer replaces
 * whatever held it. The key is the store, the game, the seat seen as and
 * whether emails are shown; an entry is good only for the data version it
 * was made at (store_data_version), so nothing ever needs invalidating.
 */
#define SLOTS 4096 /* a power of two */
#define STRIPES 64

struct slot {
	uint64_t store;
	int64_t game;
	int seat;
	int emails;
	uint64_t version;
	char etag[32];
	char *text;
	size_t len;
};

static struct slot slots[SLOTS];
static pthread_mutex_t locks[STRIPES];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_ullong hits, misses;

static void init_locks(void)
{
	for (int i = 0; i < STRIPES; i++)
		pthread_mutex_init(&locks[i], NULL);
}

static size_t slot_of(uint64_t store, int64_t game, int seat, int emails)
{
	uint64_t h = (uint64_t)game * 0x9E3779B97F4A7C15ull;

	h ^= ((uint64_t)(seat + 1) << 1 | (uint64_t)(emails != 0)) * 0xC2B2AE3D27D4EB4Full;
	h ^= store * 0x94D049BB133111EBull;
	h ^= h >> 29;
	return (size_t)h & (SLOTS - 1);
}

int answers_get(uint64_t store, int64_t game, int seat, int emails, uint64_t version, struct buf *out,
		char etag[32])
{
	size_t i;
	struct slot *s;
	int found = 0;

	pthread_once(&once, init_locks);
	i = slot_of(store, game, seat, emails);
	s = &slots[i];
	pthread_mutex_lock(&locks[i % STRIPES]);
	if (s->store == store && s->game == game && s->seat == seat && s->emails == emails &&
	    s->version == version && (s->text || !out) && s->etag[0]) {
		if (out)
			buf_add(out, s->text, s->len);
		memcpy(etag, s->etag, sizeof(s->etag));
		found = 1;
	}
	pthread_mutex_unlock(&locks[i % STRIPES]);
	atomic_fetch_add(found ? &hits : &misses, 1);
	return found;
}

void answers_put(uint64_t store, int64_t game, int seat, int emails, uint64_t version, const char *text,
		 size_t len, const char *etag)
{
	char *copy = NULL;
	size_t i;
	struct slot *s;

	pthread_once(&once, init_locks);
	if (text) {
		copy = malloc(len ? len : 1);
		if (!copy)
			abort();
		memcpy(copy, text, len);
	}
	i = slot_of(store, game, seat, emails);
	s = &slots[i];
	pthread_mutex_lock(&locks[i % STRIPES]);
	if (!text && s->text && s->store == store && s->game == game && s->seat == seat && s->emails == emails &&
	    s->version == version) {
		/* the whole answer at this version is already kept: it has the ETag too */
		pthread_mutex_unlock(&locks[i % STRIPES]);
		return;
	}
	free(s->text);
	s->store = store;
	s->game = game;
	s->seat = seat;
	s->emails = emails;
	s->version = version;
	s->text = copy;
	s->len = len;
	snprintf(s->etag, sizeof(s->etag), "%s", etag);
	pthread_mutex_unlock(&locks[i % STRIPES]);
}

void answers_stats(uint64_t *h, uint64_t *m)
{
	*h = atomic_load(&hits);
	*m = atomic_load(&misses);
}
