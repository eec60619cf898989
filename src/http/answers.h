/* http/answers.h: the text of recent game answers and pages, served again while the database has not changed */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_HTTP_ANSWERS_H
#define TURNPOST_HTTP_ANSWERS_H

#include <stdint.h>

#include "util/buf.h"

/*
 * A game's answer (GET /api/v1/games/{id}) is a function of the database
 * alone for a given game, seat and whether emails are shown. store is the
 * store's store_id (unique in the process, so a store opened later never
 * meets another's answers). Kept with the
 * data version it was made at (store_data_version: only when that number was
 * the same before and after making it), it is served again, byte for byte,
 * while the number stays the same. Bounded: one slot per key hash (4,096).
 */

/*
 * Append the kept text to out and copy its ETag: 1; 0 when there is none for
 * this version. With out NULL only the ETag is asked for (an If-None-Match),
 * which an entry kept without its text answers too.
 */
int answers_get(uint64_t store, int64_t game, int seat, int emails, uint64_t version, struct buf *out,
		char etag[32]);
/* Keep text (len bytes) with its ETag as the answer at version; text NULL keeps the ETag alone. */
void answers_put(uint64_t store, int64_t game, int seat, int emails, uint64_t version, const char *text,
		 size_t len, const char *etag);
/* Lookups that found an answer, and those that did not, since start. */
void answers_stats(uint64_t *hits, uint64_t *misses);

/*
 * A page (the game page of one reader) is kept the same way, under a key
 * that names everything else it depends on (the game, the session, the
 * query), and also only until a time (ms since the epoch; 0: no limit) at
 * which something it shows changes by itself ("5 min ago").
 * answers_page_get appends the text kept for key at version, still good at
 * now, to out: 1; else 0. With gzip (the client accepts it) the text goes
 * gzipped (*gzipped set): a kept page is compressed once, at the first
 * read that accepts it, and that copy is kept with it for the others.
 */
int answers_page_get(uint64_t store, const char *key, uint64_t version, int64_t now, int gzip, struct buf *out,
		     int *gzipped);
void answers_page_put(uint64_t store, const char *key, uint64_t version, int64_t until, const char *text,
		      size_t len);
/* Page lookups that found a page, and those that did not, since start. */
void answers_page_stats(uint64_t *hits, uint64_t *misses);
/* How many kept pages were gzipped since start (each once per text kept). */
uint64_t answers_page_gzipped(void);

#endif
