/* engine/story.c: the story of a game: its stored steps as sentences a reader may see */
/* SPDX-License-Identifier: MIT */
#include "engine/story.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/manage.h"
#include "util/buf.h"
#include "util/banned.h"

/* Readers a sentence is kept for: seats 0..GAME_MAX_SEATS-1, a spectator, an admin. */
#define STORY_READERS (GAME_MAX_SEATS + 2)
/* Games whose sentences are kept, and their bytes at most (least recently used games go first). */
#define STORY_GAMES 512
#define STORY_BYTES ((size_t)32 << 20)
static int max_games = STORY_GAMES;
static size_t max_bytes = STORY_BYTES;

/* ---- the sentence cache ---- */

struct story_game {
	uint64_t store;
	int64_t id;
	char *names;                       /* the seats' names the sentences were written with */
	char *(*texts)[STORY_READERS];     /* texts[n - 1][reader]: step n's sentence, or NULL */
	int cap;
	/*
	 * The log as story_log last made it for each reader: shared, never
	 * changed (a longer one replaces it), of steps 1..logged[reader].
	 */
	json_t *log[STORY_READERS];
	int logged[STORY_READERS];
	size_t log_bytes[STORY_READERS];   /* about what each log holds */
	size_t bytes;                      /* of the sentences and logs kept */
	struct story_game *prev, *next;    /* LRU list: head is the most recent */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct story_game *lru_head, *lru_tail;
static int ngames;
static size_t nbytes; /* of every game's sentences */
static uint64_t hits, misses;

static int reader_slot(int viewer)
{
	if (viewer >= 0 && viewer < GAME_MAX_SEATS)
		return viewer;
	return viewer == GAME_VIEWER_ALL ? GAME_MAX_SEATS + 1 : GAME_MAX_SEATS;
}

/* The reader of a slot: a seat, a spectator (-1), an admin. */
static int slot_viewer(int slot)
{
	if (slot < GAME_MAX_SEATS)
		return slot;
	return slot == GAME_MAX_SEATS ? -1 : GAME_VIEWER_ALL;
}

/* The sentences of a few steps for every reader: others[i][slot]. */
typedef char *story_texts[STORY_READERS];

static void game_texts_free(struct story_game *sg)
{
	nbytes -= sg->bytes;
	sg->bytes = 0;
	for (int i = 0; i < sg->cap; i++)
		for (int r = 0; r < STORY_READERS; r++)
			free(sg->texts[i][r]);
	free(sg->texts);
	sg->texts = NULL;
	sg->cap = 0;
	for (int r = 0; r < STORY_READERS; r++) {
		json_decref(sg->log[r]);
		sg->log[r] = NULL;
		sg->logged[r] = 0;
		sg->log_bytes[r] = 0;
	}
}

static void game_free(struct story_game *sg)
{
	if (!sg)
		return;
	game_texts_free(sg);
	free(sg->names);
	free(sg);
}

static void lru_unlink(struct story_game *sg)
{
	if (sg->prev)
		sg->prev->next = sg->next;
	else
		lru_head = sg->next;
	if (sg->next)
		sg->next->prev = sg->prev;
	else
		lru_tail = sg->prev;
	sg->prev = sg->next = NULL;
}

static void lru_push(struct story_game *sg)
{
	sg->prev = NULL;
	sg->next = lru_head;
	if (lru_head)
		lru_head->prev = sg;
	lru_head = sg;
	if (!lru_tail)
		lru_tail = sg;
}

/* The game's entry, made (and the oldest evicted) when missing; its sentences dropped when names changed. Locked. */
static struct story_game *game_find(uint64_t store, int64_t id, const char *names, int create)
{
	struct story_game *sg;

	for (sg = lru_head; sg; sg = sg->next)
		if (sg->store == store && sg->id == id)
			break;
	if (sg) {
		lru_unlink(sg);
		if (strcmp(sg->names, names) != 0) {
			char *copy = strdup(names);
			if (!copy) {
				game_free(sg);
				ngames--;
				return NULL;
			}
			game_texts_free(sg);
			free(sg->names);
			sg->names = copy;
		}
		lru_push(sg);
		return sg;
	}
	if (!create)
		return NULL;
	while ((ngames >= max_games || nbytes > max_bytes) && lru_tail) {
		struct story_game *old = lru_tail;
		lru_unlink(old);
		game_free(old);
		ngames--;
	}
	if (!(sg = calloc(1, sizeof(*sg))) || !(sg->names = strdup(names))) {
		free(sg);
		return NULL;
	}
	sg->store = store;
	sg->id = id;
	lru_push(sg);
	ngames++;
	return sg;
}

/* Fill texts[i] (NULL ones only) with copies of the cached sentences of steps first+1..first+n for reader. */
static void cache_get(uint64_t store, int64_t id, const char *names, int reader, char **texts, int first, int n)
{
	struct story_game *sg;

	pthread_mutex_lock(&lock);
	sg = game_find(store, id, names, 0);
	for (int i = 0; i < n; i++) {
		if (sg && first + i < sg->cap && sg->texts[first + i][reader]) {
			texts[i] = strdup(sg->texts[first + i][reader]);
			hits++;
		}
	}
	pthread_mutex_unlock(&lock);
}

/* Drop what the least recently read games keep until under the bound, never sg's. Locked. */
static void cache_trim(struct story_game *sg)
{
	while (nbytes > max_bytes && lru_tail && lru_tail != sg) {
		struct story_game *old = lru_tail;
		lru_unlink(old);
		game_free(old);
		ngames--;
	}
}

/*
 * Keep the sentences of steps first+1..first+n for reader (those in
 * fresh[], which says which were described now), and those described for
 * the other readers at the same time (others[i], NULL ones not).
 */
static void cache_put(uint64_t store, int64_t id, const char *names, int reader, char *const *texts,
		      const unsigned char *fresh, story_texts *others, int first, int n)
{
	struct story_game *sg;

	pthread_mutex_lock(&lock);
	sg = game_find(store, id, names, 1);
	if (sg && first + n > sg->cap) {
		int cap = sg->cap ? sg->cap : 64;
		char *(*grown)[STORY_READERS];
		while (cap < first + n)
			cap *= 2;
		grown = realloc(sg->texts, sizeof(*grown) * (size_t)cap);
		if (grown) {
			memset(grown + sg->cap, 0, sizeof(*grown) * (size_t)(cap - sg->cap));
			sg->texts = grown;
			sg->cap = cap;
		}
	}
	for (int i = 0; sg && i < n && first + i < sg->cap; i++) {
		if (!fresh[i] || !texts[i] || sg->texts[first + i][reader])
			continue;
		misses++;
		if ((sg->texts[first + i][reader] = strdup(texts[i]))) {
			sg->bytes += strlen(texts[i]) + 1;
			nbytes += strlen(texts[i]) + 1;
		}
	}
	for (int i = 0; sg && others && i < n && first + i < sg->cap; i++)
		for (int r = 0; r < STORY_READERS; r++) {
			if (!others[i][r] || sg->texts[first + i][r])
				continue;
			sg->texts[first + i][r] = others[i][r];
			others[i][r] = NULL;
			sg->bytes += strlen(sg->texts[first + i][r]) + 1;
			nbytes += strlen(sg->texts[first + i][r]) + 1;
		}
	/* over the bound: the least recently read games go, never the one just filled */
	cache_trim(sg);
	pthread_mutex_unlock(&lock);
}

/*
 * A new reference to reader's kept log of the game, the steps it tells
 * (*logged) and about its bytes; NULL when none.
 */
static json_t *log_get(uint64_t store, int64_t id, const char *names, int reader, int *logged, size_t *bytes)
{
	struct story_game *sg;
	json_t *log = NULL;

	*logged = 0;
	*bytes = 0;
	pthread_mutex_lock(&lock);
	sg = game_find(store, id, names, 0);
	if (sg && sg->log[reader]) {
		log = json_incref(sg->log[reader]);
		*logged = sg->logged[reader];
		*bytes = sg->log_bytes[reader];
	}
	pthread_mutex_unlock(&lock);
	return log;
}

/* About the bytes an entry of a log holds (its text and the rest), for the cache's bound. */
static size_t log_size(const json_t *log)
{
	size_t bytes = 0, i;
	json_t *e;

	json_array_foreach(log, i, e)
		bytes += 160 + json_string_length(json_object_get(e, "text"));
	return bytes;
}

/*
 * Keep log (a reference is taken; it is never changed afterwards), of about
 * bytes, as reader's log of steps 1..logged.
 */
static void log_put(uint64_t store, int64_t id, const char *names, int reader, json_t *log, int logged, size_t bytes)
{
	struct story_game *sg;

	pthread_mutex_lock(&lock);
	sg = game_find(store, id, names, 1);
	if (sg && (!sg->log[reader] || sg->logged[reader] < logged)) {
		json_decref(sg->log[reader]);
		sg->log[reader] = json_incref(log);
		sg->logged[reader] = logged;
		sg->bytes += bytes;
		sg->bytes -= sg->log_bytes[reader];
		nbytes += bytes;
		nbytes -= sg->log_bytes[reader];
		sg->log_bytes[reader] = bytes;
		cache_trim(sg);
	}
	pthread_mutex_unlock(&lock);
}

void story_cache_clear(void)
{
	pthread_mutex_lock(&lock);
	while (lru_head) {
		struct story_game *sg = lru_head;
		lru_unlink(sg);
		game_free(sg);
	}
	ngames = 0;
	hits = misses = 0;
	pthread_mutex_unlock(&lock);
}

void story_cache_set_limits(int games, size_t bytes)
{
	story_cache_clear();
	pthread_mutex_lock(&lock);
	max_games = games > 0 ? games : STORY_GAMES;
	max_bytes = bytes ? bytes : STORY_BYTES;
	pthread_mutex_unlock(&lock);
}

void story_cache_stats(uint64_t *h, uint64_t *m)
{
	pthread_mutex_lock(&lock);
	*h = hits;
	*m = misses;
	pthread_mutex_unlock(&lock);
}

/* ---- sentences ---- */

/*
 * The seats as describe() takes them, [{"seat","name"}], named as they were
 * at step n: a step stays told with the names of those who played it, after
 * a seat changed hands. New.
 */
static json_t *seats_at(const struct store_seat *seats, int nseats, const struct manage_eras *eras, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < nseats; i++)
		json_array_append_new(a, json_pack("{s:i,s:s}", "seat", seats[i].seat, "name",
						   manage_eras_name(eras, seats[i].seat, n, seats, nseats)));
	return a;
}

/* The seats' names now and every change of hands: the cache's key for "the names have not changed". */
static char *names_key(const struct store_seat *seats, int nseats, const struct manage_eras *eras)
{
	struct buf b = BUF_INIT;
	char *changes = manage_eras_key(eras);

	for (int i = 0; i < nseats; i++)
		buf_addf(&b, "%d=%s\n", seats[i].seat, seats[i].name);
	buf_adds(&b, changes);
	free(changes);
	return buf_detach(&b, NULL);
}

static int row_is_undo(const struct store_move *m)
{
	return m->kind == STORE_MOVE_STEP && engine_line_is_undo(m->text);
}

/* One step told for viewer: the game's describe(), else "Name: text". before and after are decoded positions. */
static void describe_step(const struct game_ops *ops, const struct engine_game *before,
			  const struct engine_game *after, const struct store_move *m, int viewer,
			  const json_t *seatsj, const char *name, struct buf *out)
{
	void *move = NULL;
	struct err e = {0};

	if (ops->describe && before && after && ops->parse(before->state, m->seat, m->text, &move, &e) == 0) {
		struct game_step_in in = { .before = before->state, .after = after->state, .move = move,
					   .seat = m->seat, .viewer = viewer, .seats = seatsj };
		size_t len = out->len;
		if (ops->describe(&in, out, &e) == 0 && out->len > len) {
			ops->move_free(move);
			return;
		}
		buf_setlen(out, len);
	}
	if (move)
		ops->move_free(move);
	buf_addf(out, "%s: %s", name, m->text);
}

/* 1 when the game has a seat numbered seat. */
static int has_seat(const struct store_seat *seats, int nseats, int seat)
{
	for (int i = 0; i < nseats; i++)
		if (seats[i].seat == seat)
			return 1;
	return 0;
}

/*
 * Describe the rows whose texts[i] is NULL for viewer, reading the stored
 * positions around each. fresh[i] is set for those described here. Decoding
 * the positions costs far more than describing, and each player reads the
 * step soon after, so a step described from its positions is described for
 * every other reader of the game too, into others[i] (NULL: not).
 */
static int describe_missing(struct store *s, const struct store_game *g, const struct game_ops *ops,
			    const struct store_move *rows, int n, const struct store_seat *seats, int nseats,
			    const struct manage_eras *eras, int viewer, char **texts, unsigned char *fresh,
			    story_texts *others, struct err *err)
{
	struct store_conn *c = NULL;
	struct engine_game prev = {0}, cur = {0};
	json_t *seatsj = NULL;
	struct buf b = BUF_INIT;
	int prev_n = -1, rc = 0;

	for (int i = 0; i < n; i++) {
		const struct store_move *m = &rows[i];
		const char *name = manage_eras_name(eras, m->seat, m->n, seats, nseats);

		if (texts[i])
			continue;
		buf_reset(&b);
		if (m->kind == STORE_MOVE_ROLLBACK) {
			buf_addf(&b, "An admin rolled the game back to step %d", m->target);
		} else if (row_is_undo(m)) {
			buf_addf(&b, "%s took back a step", name);
		} else if (!ops->describe) {
			buf_addf(&b, "%s: %s", name, m->text);
		} else {
			struct store_move sm = {0};

			if (!c && (rc = store_read_acquire(s, &c, err)) < 0)
				goto done;
			/* the position before: the one decoded for the last row, when that was step n - 1 */
			if (prev_n != m->n - 1) {
				engine_game_release(&prev);
				if ((rc = store_move_get(c, g->id, m->n - 1, &sm, err)) == 0)
					rc = engine_game_decode(ops, sm.snapshot, &prev, err);
				store_move_release(&sm);
				if (rc < 0)
					goto done;
			}
			if ((rc = store_move_get(c, g->id, m->n, &sm, err)) == 0)
				rc = engine_game_decode(ops, sm.snapshot, &cur, err);
			store_move_release(&sm);
			if (rc < 0)
				goto done;
			json_decref(seatsj);
			seatsj = seats_at(seats, nseats, eras, m->n);
			describe_step(ops, &prev, &cur, m, viewer, seatsj, name, &b);
			for (int r = 0; others && r < STORY_READERS; r++) {
				struct buf o = BUF_INIT;
				if (r == reader_slot(viewer) || (r < GAME_MAX_SEATS && !has_seat(seats, nseats, r)))
					continue;
				describe_step(ops, &prev, &cur, m, slot_viewer(r), seatsj, name, &o);
				others[i][r] = buf_detach(&o, NULL);
			}
			engine_game_release(&prev);
			prev = cur;
			memset(&cur, 0, sizeof(cur));
			prev_n = m->n;
		}
		texts[i] = buf_detach(&b, NULL);
		fresh[i] = 1;
	}
done:
	if (c)
		store_read_release(c);
	engine_game_release(&prev);
	engine_game_release(&cur);
	buf_release(&b);
	json_decref(seatsj);
	return rc;
}

/* ---- the log ---- */

/*
 * Which rows viewer may see, and which were undone: walks the undo links the
 * way submit does (an undo takes back the newest step that still stands).
 * undone[i]: row i was taken back; undo_of[i]: for an undo row, the row it
 * took back (-1 when none).
 */
static int mark_undone(const struct store_move *rows, int n, unsigned char *undone, int *undo_of)
{
	int *stack = malloc(sizeof(*stack) * (size_t)(n ? n : 1)), top = 0;

	if (!stack)
		return -1;
	for (int i = 0; i < n; i++) {
		undo_of[i] = -1;
		if (rows[i].kind == STORE_MOVE_ROLLBACK)
			continue;
		if (row_is_undo(&rows[i])) {
			if (top > 0) {
				undo_of[i] = stack[--top];
				undone[undo_of[i]] = 1;
			}
			continue;
		}
		stack[top++] = i;
	}
	free(stack);
	return 0;
}

/* The entries for viewer from rows and their sentences. New. */
static json_t *entries_json(const struct store_move *rows, int n, char *const *texts, const struct store_seat *seats,
			    int nseats, const struct manage_eras *eras, int viewer, const unsigned char *undone,
			    const int *undo_of)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++) {
		const struct store_move *m = &rows[i];
		int undo = row_is_undo(m), mine = viewer == GAME_VIEWER_ALL || viewer == m->seat;
		json_t *o;

		/* what was taken back is the business of the one who took it back */
		if ((undone[i] || (undo && undo_of[i] >= 0)) && !mine)
			continue;
		o = json_pack("{s:i,s:i,s:s,s:s,s:I,s:s}", "n", m->n, "seat", m->seat, "name",
			      m->kind == STORE_MOVE_ROLLBACK ? "admin" : manage_eras_name(eras, m->seat, m->n, seats, nseats),
			      "text",
			      texts[i] ? texts[i] : "", "at", (json_int_t)m->at, "channel", m->via);
		if (m->kind == STORE_MOVE_ROLLBACK) {
			json_object_set_new(o, "kind", json_string("rollback"));
			json_object_set_new(o, "to", json_integer(m->target));
		} else if (undo) {
			json_object_set_new(o, "kind", json_string("undo"));
		}
		if (undone[i])
			json_object_set_new(o, "undone", json_true());
		json_array_append_new(a, o);
	}
	return a;
}

/* 1 when one of rows is an undo: it changes what came before it (undone steps), so the log is made anew. */
static int any_undo(const struct store_move *rows, int n)
{
	for (int i = 0; i < n; i++)
		if (row_is_undo(&rows[i]))
			return 1;
	return 0;
}

/* A new array: the entries of kept (NULL: none), then those of more. Its entries are shared. */
static json_t *log_join(const json_t *kept, json_t *more)
{
	json_t *a = json_array();

	if (kept)
		json_array_extend(a, (json_t *)kept);
	json_array_extend(a, more);
	return a;
}

/*
 * The log is kept per reader with the sentences (valid while the names
 * are), for the steps it tells: a stored step never changes, so a log of
 * steps 1..k stays the start of the log while steps are added, except that
 * an undo marks an earlier step undone (and hides both from the others).
 * A read with more steps reads only the new rows and adds their entries;
 * when one of them is an undo the whole log is made again.
 */
int story_log(struct store *s, int64_t id, int viewer, json_t **entries, struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	struct store_move *rows = NULL;
	const struct game_ops *ops;
	struct manage_eras *eras = NULL;
	char **texts = NULL, *names = NULL;
	story_texts *others = NULL;
	unsigned char *fresh = NULL, *undone = NULL;
	int *undo_of = NULL;
	json_t *kept = NULL, *more = NULL;
	size_t kept_bytes = 0;
	int n = 0, nseats = 0, reader = reader_slot(viewer), logged = 0, first, rc;

	*entries = NULL;
	if ((rc = store_read_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_game_get(c, id, &g, err)) == 0 && (rc = store_seats_get(c, id, &seats, &nseats, err)) == 0)
		rc = manage_eras_load(c, id, &eras, err);
	if (rc == 0 && !(names = names_key(seats, nseats, eras)))
		rc = err_set(err, ERR_NOMEM, "out of memory");
	if (rc == 0 && (kept = log_get(store_id(s), id, names, reader, &logged, &kept_bytes)) && logged > g.move_count) {
		json_decref(kept);
		kept = NULL;
	}
	if (rc == 0 && kept && logged == g.move_count) {
		/* nothing new: the kept log */
		store_read_release(c);
		*entries = log_join(kept, NULL);
		goto done;
	}
	if (rc == 0)
		rc = store_moves_list_from(c, id, kept ? logged + 1 : 1, &rows, &n, err);
	if (rc == 0 && kept && any_undo(rows, n)) {
		json_decref(kept);
		kept = NULL;
		store_moves_free(rows, n);
		rows = NULL;
		n = 0;
		rc = store_moves_list(c, id, 0, &rows, &n, err);
	}
	store_read_release(c);
	if (rc < 0)
		goto done;
	if (!(ops = engine_ops_find(g.game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	first = kept ? logged : 0;
	texts = calloc((size_t)n + 1, sizeof(*texts));
	others = calloc((size_t)n + 1, sizeof(*others));
	fresh = calloc((size_t)n + 1, 1);
	undone = calloc((size_t)n + 1, 1);
	undo_of = calloc((size_t)n + 1, sizeof(*undo_of));
	/* the rows are steps first+1..: the added ones hold no undo, so none of theirs is undone */
	if (!texts || !others || !fresh || !undone || !undo_of || mark_undone(rows, n, undone, undo_of) < 0) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	cache_get(store_id(s), id, names, reader, texts, first, n);
	if ((rc = describe_missing(s, &g, ops, rows, n, seats, nseats, eras, viewer, texts, fresh, others, err)) < 0)
		goto done;
	cache_put(store_id(s), id, names, reader, texts, fresh, others, first, n);
	more = entries_json(rows, n, texts, seats, nseats, eras, viewer, undone, undo_of);
	*entries = log_join(kept, more);
	/* kept only when the rows are exactly steps 1..k, as a stored game's are */
	if (n == 0 || rows[n - 1].n == first + n)
		log_put(store_id(s), id, names, reader, *entries, first + n, (kept ? kept_bytes : 0) + log_size(more));
done:
	for (int i = 0; texts && i < n; i++)
		free(texts[i]);
	for (int i = 0; others && i < n; i++)
		for (int r = 0; r < STORY_READERS; r++)
			free(others[i][r]);
	free(texts);
	free(others);
	free(fresh);
	free(undone);
	free(undo_of);
	free(names);
	json_decref(kept);
	json_decref(more);
	manage_eras_free(eras);
	store_moves_free(rows, n);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

json_t *story_since(const json_t *entries, int seat, int max)
{
	json_t *out = json_array(), *e;
	size_t n = json_array_size(entries), start = 0, i;

	if (seat >= 0) {
		for (i = n; i-- > 0;) {
			e = json_array_get(entries, i);
			if (json_integer_value(json_object_get(e, "seat")) == seat && !json_object_get(e, "kind") &&
			    !json_is_true(json_object_get(e, "undone"))) {
				start = i + 1;
				break;
			}
		}
	}
	for (i = start; i < n; i++) {
		e = json_array_get(entries, i);
		/* one's own steps since (taken back, or a turn begun) are not news to oneself */
		if (seat >= 0 && json_integer_value(json_object_get(e, "seat")) == seat)
			continue;
		json_array_append(out, e);
	}
	if (max > 0)
		while (json_array_size(out) > (size_t)max)
			json_array_remove(out, 0);
	return out;
}

/* The numbers of the entries of log, oldest first, and whether step n is one of them (or the set-up, 0). New. */
static json_t *log_steps(const json_t *log, int n, json_t **entry)
{
	json_t *steps = json_array(), *e;
	size_t i;

	*entry = NULL;
	json_array_foreach(log, i, e) {
		json_array_append_new(steps, json_integer(json_integer_value(json_object_get(e, "n"))));
		if (json_integer_value(json_object_get(e, "n")) == n)
			*entry = e;
	}
	return steps;
}

/* The game's kind, its seats' names by seat, and the stored steps n and (when before) n - 1. */
static int rows_at(struct store *s, int64_t id, int n, int before, struct store_game *g, struct store_seat **seats,
		   int *nseats, const char *names[GAME_MAX_SEATS], struct store_move *at, struct store_move *prev,
		   struct err *err)
{
	struct store_conn *c;
	int rc;

	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	if ((rc = store_game_get(c, id, g, err)) == 0 && (rc = store_seats_get(c, id, seats, nseats, err)) == 0 &&
	    (rc = store_move_get(c, id, n, at, err)) == 0 && before && n > 0)
		rc = store_move_get(c, id, n - 1, prev, err);
	store_read_release(c);
	/* the views' prompts call the players by name, as the game's page does (engine_names_view) */
	for (int k = 0; rc == 0 && k < *nseats; k++)
		if ((*seats)[k].seat >= 0 && (*seats)[k].seat < GAME_MAX_SEATS)
			names[(*seats)[k].seat] = (*seats)[k].name;
	return rc;
}

/* The view of a stored position as viewer (a seat, else a spectator) sees it, players by name. New. */
static int view_of(const struct game_ops *ops, const char *snapshot, int viewer, const char *const *names,
		   json_t **view, struct err *err)
{
	struct engine_game eg = {0};
	int rc;

	*view = NULL;
	if ((rc = engine_game_decode(ops, snapshot, &eg, err)) == 0 &&
	    (rc = ops->view(eg.state, viewer >= 0 ? viewer : -1, view, err)) == 0)
		engine_names_view(*view, names);
	engine_game_release(&eg);
	return rc;
}

int story_position(struct store *s, int64_t id, int n, int viewer, json_t **out, struct err *err)
{
	struct store_game g = {0};
	struct store_move at = {0}, before = {0};
	const struct game_ops *ops;
	json_t *log = NULL, *entry = NULL, *steps = NULL, *view = NULL, *vbefore = NULL;
	struct store_seat *seats = NULL;
	const char *names[GAME_MAX_SEATS] = {0};
	int nseats = 0, rc;

	*out = NULL;
	if ((rc = story_log(s, id, viewer, &log, err)) < 0)
		goto done;
	steps = log_steps(log, n, &entry);
	if (n != 0 && !entry) {
		rc = err_set(err, ERR_NOTFOUND, "game %lld has no step %d to show", (long long)id, n);
		goto done;
	}
	if ((rc = rows_at(s, id, n, 1, &g, &seats, &nseats, names, &at, &before, err)) < 0)
		goto done;
	if (!(ops = engine_ops_find(g.game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	if ((rc = view_of(ops, at.snapshot, viewer, names, &view, err)) < 0 ||
	    (n > 0 && (rc = view_of(ops, before.snapshot, viewer, names, &vbefore, err)) < 0))
		goto done;
	*out = json_pack("{s:i,s:i,s:O,s:O,s:o,s:O}", "n", n, "move_count", g.move_count, "view", view, "entry",
			 entry ? entry : json_null(), "changed", n > 0 ? manage_diff(vbefore, view, 0) : json_array(),
			 "steps", steps);
done:
	json_decref(view);
	json_decref(vbefore);
	json_decref(steps);
	json_decref(log);
	store_move_release(&at);
	store_move_release(&before);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

int story_view(struct store *s, int64_t id, int n, int viewer, json_t **view, struct err *err)
{
	struct store_game g = {0};
	struct store_move at = {0};
	const struct game_ops *ops;
	json_t *log = NULL, *entry = NULL, *steps = NULL;
	struct store_seat *seats = NULL;
	const char *names[GAME_MAX_SEATS] = {0};
	int nseats = 0, rc;

	*view = NULL;
	if ((rc = story_log(s, id, viewer, &log, err)) < 0)
		goto done;
	steps = log_steps(log, n, &entry);
	if (n != 0 && !entry) {
		rc = err_set(err, ERR_NOTFOUND, "game %lld has no step %d to show", (long long)id, n);
		goto done;
	}
	if ((rc = rows_at(s, id, n, 0, &g, &seats, &nseats, names, &at, NULL, err)) < 0)
		goto done;
	if (!(ops = engine_ops_find(g.game, err)))
		rc = ERR_NOTFOUND;
	else
		rc = view_of(ops, at.snapshot, viewer, names, view, err);
done:
	json_decref(steps);
	json_decref(log);
	store_move_release(&at);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

int story_board(struct store *s, int64_t id, int viewer, json_t **lines, struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_move at = {0};
	struct store_seat *seats = NULL;
	struct engine_game eg = {0};
	const struct game_ops *ops;
	json_t *seatsj = NULL, *out = NULL;
	struct buf b = BUF_INIT;
	int nseats = 0, rc;

	*lines = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	if ((rc = store_game_get(c, id, &g, err)) == 0 && (rc = store_seats_get(c, id, &seats, &nseats, err)) == 0)
		rc = store_move_get(c, id, g.move_count, &at, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	if (!(ops = engine_ops_find(g.game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	out = json_array();
	if (!ops->position)
		goto finish;
	if ((rc = engine_game_decode(ops, at.snapshot, &eg, err)) < 0)
		goto done;
	seatsj = json_array();
	for (int i = 0; i < nseats; i++)
		json_array_append_new(seatsj, json_pack("{s:i,s:s}", "seat", seats[i].seat, "name", seats[i].name));
	{
		struct game_position_in in = { .state = eg.state, .viewer = viewer, .seats = seatsj };
		if ((rc = ops->position(&in, &b, err)) < 0)
			goto done;
	}
	for (const char *p = b.data; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len)
			json_array_append_new(out, json_stringn(p, len));
		p += len + (nl ? 1 : 0);
	}
finish:
	*lines = out;
	out = NULL;
	rc = 0;
done:
	json_decref(out);
	json_decref(seatsj);
	buf_release(&b);
	engine_game_release(&eg);
	store_move_release(&at);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}
