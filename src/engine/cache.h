/* engine/cache.h: decoded positions of recently used games, valid exactly while their snapshot is the stored one */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_CACHE_H
#define TURNPOST_ENGINE_CACHE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

/*
 * Decoding a game's latest snapshot (json_loads, then the game's decode) was
 * done by every request that looked at a game. This process-wide cache keeps
 * one decoded position per game id together with the snapshot text it was
 * decoded from, and answers only when the caller's snapshot, just read from
 * the store, is byte for byte that text: a hit is a position decoded from
 * the very same snapshot, so nothing that changes a game (a move, an undo,
 * an admin's rollback, another process, another database with the same ids)
 * can make it answer with anything else than decoding would. Positions enter
 * the cache only by decoding a snapshot, never from a state a move changed.
 *
 * Thread-safe. Bounded: at most cache_capacity() positions (least recently
 * used go first). A position handed out by cache_pos_load is shared and
 * read-only (the game_ops methods that take a const state); one taken with
 * cache_pos_take belongs to the caller alone.
 */

struct cache_pos;

/*
 * The decoded position of game_id whose stored snapshot is `snapshot`: the
 * cached one, or decoded now and kept. *pos is a new reference; read it with
 * cache_pos_game and give it back with cache_pos_release. Errors are those
 * of engine_game_decode.
 */
int cache_pos_load(const struct game_ops *ops, int64_t game_id, const char *snapshot, struct cache_pos **pos,
		   struct err *err);
/* The position of a reference (borrowed, read-only, valid until cache_pos_release). */
const struct engine_game *cache_pos_game(const struct cache_pos *pos);
/* Give back a reference (NULL is fine). */
void cache_pos_release(struct cache_pos *pos);

/*
 * A private position for applying steps to: the cached one for (game_id,
 * snapshot) moved out of the cache when nobody is reading it, else decoded
 * from snapshot. *out is new (engine_game_release it). Errors are those of
 * engine_game_decode.
 */
int cache_pos_take(const struct game_ops *ops, int64_t game_id, const char *snapshot, struct engine_game *out,
		   struct err *err);

/*
 * What a reader derives from a position and wants again (the game page's
 * board and taps for one seat, say), kept with the position under key: it
 * lives exactly as long as the position stays in the cache, so a step, an
 * undo or a rollback (a new snapshot: a new position) never answers with one
 * derived before. The key must name everything else the value depends on.
 * Bounded: at most CACHE_MEMOS_PER_POS per position (the oldest goes) and
 * cache_memo_capacity() in all (those of the least recently used positions
 * go first).
 *
 * cache_pos_memo_get: a new reference to the value kept under key, or NULL.
 * cache_pos_memo_put: keep value (a new reference is taken; the value must
 * not change afterwards, readers share it) under key, replacing one there.
 */
#define CACHE_MEMOS_PER_POS 8
json_t *cache_pos_memo_get(struct cache_pos *pos, const char *key);
void cache_pos_memo_put(struct cache_pos *pos, const char *key, json_t *value);
/* How many memos are kept in all (default 1024); 0 keeps none. */
void cache_set_memo_capacity(size_t n);
size_t cache_memo_capacity(void);

/* Drop game_id's position (nothing needs this for correctness: it only frees memory early). */
void cache_game_forget(int64_t game_id);

/* How many positions are kept (default 4096); 0 turns the cache off. Empties it. */
void cache_set_capacity(size_t n);
size_t cache_capacity(void);

/* Since start (or the last cache_set_capacity): lookups answered from the cache, and those that decoded. */
void cache_stats(uint64_t *hits, uint64_t *misses);

#endif
