/* engine/play.c: games as stored: create, submit steps, undo, views, verify, export and import */
/* SPDX-License-Identifier: MIT */
#include "engine/play.h"

#include <inttypes.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cache.h"
#include "engine/play_admin.h"
#include "engine/registry.h"
#include "util/clock.h"
#include "util/banned.h"

static json_t *seats_array(unsigned mask)
{
	json_t *a = json_array();

	for (int i = 0; i < GAME_MAX_SEATS; i++)
		if (mask & (1u << i))
			json_array_append_new(a, json_integer(i));
	return a;
}

static json_t *pending_json(const struct game_pending *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "seats", seats_array(p->seats));
	json_object_set_new(o, "kind", json_string(p->kind));
	json_object_set_new(o, "prompt", json_string(p->prompt));
	return o;
}

static const struct game_ops *find_ops(const char *id, struct err *err)
{
	const struct game_ops *ops = registry_find(id);

	if (!ops)
		err_set(err, ERR_NOTFOUND, "no game called \"%s\" is hosted here", id ? id : "");
	return ops;
}

static char *seed_text(uint64_t seed)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, seed);
	return strdup(buf);
}

static int parse_seed(const char *text, uint64_t *seed)
{
	char *end;

	if (!text || !*text)
		return -1;
	*seed = strtoull(text, &end, 10);
	return *end ? -1 : 0;
}

/* Create the game inside the caller's write transaction. */
static int create_in_tx(struct store_conn *c, const struct play_new_game *ng, int64_t *id,
			char (*tokens)[TOKEN_TEXT_MAX], struct err *err)
{
	const struct game_ops *ops = find_ops(ng->game, err);
	struct engine_game eg = {0};
	struct store_game g = {0};
	struct game_pending p;
	char *initial = NULL, *options = NULL;
	json_t *result = NULL;
	uint64_t seed = ng->have_seed ? ng->seed : engine_new_seed();
	int64_t now = ng->created_at ? ng->created_at : clock_now_ms();
	int rc;

	*id = 0;
	if (!ops)
		return ERR_NOTFOUND;
	if (ng->nplayers < ops->min_players || ng->nplayers > ops->max_players)
		return err_set(err, ERR_INPUT, "%s is for %d to %d players, not %d", ops->title, ops->min_players,
			       ops->max_players, ng->nplayers);
	if ((rc = engine_game_setup(ops, ng->options, ng->nplayers, seed, &eg, err)) < 0)
		return rc;
	if ((rc = engine_game_encode(&eg, &initial, err)) < 0)
		goto done;
	engine_game_pending(&eg, &p);
	result = ops->result(eg.state);
	options = ng->options ? json_dumps(ng->options, JSON_COMPACT | JSON_SORT_KEYS) : strdup("{}");

	snprintf(g.game, sizeof(g.game), "%s", ops->id);
	g.options = options;
	g.seed = seed_text(seed);
	snprintf(g.status, sizeof(g.status), "%s", result ? "finished" : "active");
	g.nplayers = ng->nplayers;
	g.active_seats = p.seats;
	g.initial = initial;
	g.created_by = ng->created_by;
	g.created_at = now;
	g.updated_at = now;

	if ((rc = store_game_insert(c, &g, id, err)) < 0)
		goto done;
	for (int i = 0; i < ng->nplayers; i++) {
		struct store_seat seat = { .seat = i, .name = (char *)ng->players[i].name,
					   .email = (char *)ng->players[i].email };
		char tok[TOKEN_TEXT_MAX];
		unsigned char hash[32];

		if (seat.email && *seat.email &&
		    (rc = store_user_ensure(c, seat.email, seat.name, &seat.user_id, err)) < 0)
			goto done;
		if ((rc = store_seat_insert(c, *id, &seat, err)) < 0)
			goto done;
		token_new(tok, hash);
		if ((rc = store_token_add(c, hash, TOKEN_SEAT, seat.user_id, *id, i, "seat", 0, NULL, err)) < 0)
			goto done;
		if (tokens)
			memcpy(tokens[i], tok, TOKEN_TEXT_MAX);
		if (seat.email && *seat.email && !ng->quiet &&
		    (rc = store_outbox_add(c, "invite", *id, i, seat.user_id, NULL, now, NULL, err)) < 0)
			goto done;
	}
	if (ng->clock && (rc = store_game_clock_create(c, *id, ng->clock, ng->nplayers, result ? 0 : p.seats, now, err)) < 0)
		goto done;
	rc = 0;
done:
	if (rc < 0)
		*id = 0;
	json_decref(result);
	engine_game_release(&eg);
	free(initial);
	free(options);
	free(g.seed);
	return rc;
}

int play_game_create(struct store *s, const struct play_new_game *ng, int64_t *id,
		     char (*tokens)[TOKEN_TEXT_MAX], struct err *err)
{
	struct store_conn *c;
	int rc;

	*id = 0;
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = create_in_tx(c, ng, id, tokens, err)) < 0) {
		store_write_rollback(c);
		*id = 0;
		return rc;
	}
	if ((rc = store_write_commit(c, err)) < 0)
		*id = 0;
	return rc;
}

int play_game_ids(struct store *s, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err)
{
	struct store_conn *c;
	int rc;

	*ids = NULL;
	*n = 0;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_ids(c, user_id, limit, ids, n, err);
	store_read_release(c);
	if (rc < 0) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	}
	return rc;
}

int play_games_open(struct store *s, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err)
{
	struct store_conn *c;
	int rc;

	*ids = NULL;
	*n = 0;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_ids_open(c, user_id, limit, ids, n, err);
	store_read_release(c);
	if (rc < 0) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	}
	return rc;
}

/* A step made in this request, not yet stored. */
struct pending_row {
	struct store_move m;
};

struct batch {
	struct pending_row *rows;
	int n;
	int base; /* move count before the batch */
};

static void batch_release(struct batch *b)
{
	for (int i = 0; i < b->n; i++) {
		free(b->rows[i].m.text);
		free(b->rows[i].m.snapshot);
		free(b->rows[i].m.client);
	}
	free(b->rows);
	memset(b, 0, sizeof(*b));
}

static struct store_move *batch_push(struct batch *b)
{
	struct pending_row *grown = realloc(b->rows, sizeof(*b->rows) * (size_t)(b->n + 1));

	if (!grown)
		abort();
	b->rows = grown;
	memset(&b->rows[b->n], 0, sizeof(b->rows[b->n]));
	return &b->rows[b->n++].m;
}

/*
 * The row for step n: from this batch when it is new, else from the store.
 * *row is borrowed (batch) or filled (store; *owned set, caller releases).
 */
static int row_get(struct store_conn *c, int64_t game_id, const struct batch *b, int n,
		   struct store_move *tmp, const struct store_move **row, struct err *err)
{
	int rc;

	if (n > b->base) {
		*row = &b->rows[n - b->base - 1].m;
		return 0;
	}
	if ((rc = store_move_get(c, game_id, n, tmp, err)) < 0)
		return rc;
	if (n == 0)
		tmp->back = 0;
	*row = tmp;
	return 0;
}

static const char *seat_name(const struct store_seat *seats, int nseats, int seat)
{
	for (int i = 0; i < nseats; i++)
		if (seats[i].seat == seat)
			return seats[i].name;
	return "another player";
}

/*
 * Apply lines on top of the position after step b->base, whose row is head.
 * Adds one row per line to b. eg holds the position and is updated.
 */
static int apply_lines(struct store_conn *c, const struct store_game *g, const struct store_seat *seats,
		       int nseats, struct engine_game *eg, const struct store_move *head, struct batch *b,
		       const struct play_submit *rq, int64_t at, int *failed_line, struct err *err)
{
	struct buf canon = BUF_INIT;
	int cur_back = head->back, cur_undo = head->undo_seat;
	int rc = 0;

	for (int i = 0; i < rq->nlines; i++) {
		const char *line = rq->lines[i];
		struct store_move *m;
		int count = b->base + b->n;

		*failed_line = i + 1;
		if (strlen(line) > PLAY_MAX_LINE) {
			rc = err_set(err, ERR_ILLEGAL, "a step is at most %d characters long", PLAY_MAX_LINE);
			goto done;
		}
		if (engine_line_is_undo(line)) {
			struct store_move tmp = {0};
			const struct store_move *prev;
			struct engine_game back = {0};

			if (cur_undo != rq->seat) {
				if (cur_undo < 0)
					rc = err_set(err, ERR_ILLEGAL,
						     "nothing to undo: the last step revealed new information "
						     "(a roll or a draw) or the game has just begun");
				else
					rc = err_set(err, ERR_ILLEGAL,
						     "nothing of yours to undo: the last step was %s's",
						     seat_name(seats, nseats, cur_undo));
				goto done;
			}
			if ((rc = row_get(c, g->id, b, cur_back, &tmp, &prev, err)) < 0)
				goto done;
			rc = engine_game_decode(eg->ops, prev->snapshot, &back, err);
			if (rc < 0) {
				store_move_release(&tmp);
				goto done;
			}
			engine_game_release(eg);
			*eg = back;
			m = batch_push(b);
			m->n = count + 1;
			m->seat = rq->seat;
			m->text = strdup("undo");
			m->back = prev->back;
			m->undo_seat = prev->undo_seat;
			m->snapshot = strdup(prev->snapshot);
			store_move_release(&tmp);
		} else {
			int revealed;
			char *snap = NULL;

			buf_reset(&canon);
			rc = engine_game_step(eg, rq->seat, line, &canon, &revealed, err);
			if (rc == ERR_FORBIDDEN && i > 0)
				rc = err->code = ERR_ILLEGAL;
			if (rc == ERR_INPUT)
				rc = err->code = ERR_ILLEGAL;
			if (rc < 0)
				goto done;
			if ((rc = engine_game_encode(eg, &snap, err)) < 0)
				goto done;
			m = batch_push(b);
			m->n = count + 1;
			m->seat = rq->seat;
			m->text = buf_detach(&canon, NULL);
			m->back = count;
			m->undo_seat = revealed ? -1 : rq->seat;
			m->snapshot = snap;
		}
		snprintf(m->via, sizeof(m->via), "%s", rq->via ? rq->via : "api");
		m->client = rq->client ? strdup(rq->client) : NULL;
		m->at = at;
		cur_back = m->back;
		cur_undo = m->undo_seat;
	}
	*failed_line = 0;
done:
	buf_release(&canon);
	return rc;
}

static int queue_notifications(struct store_conn *c, const struct store_game *g, const struct store_seat *seats,
			       int nseats, unsigned before, unsigned after, int finished, int64_t now,
			       struct err *err)
{
	int rc;

	for (int i = 0; i < nseats; i++) {
		int seat = seats[i].seat;
		const char *event = NULL;

		if (finished)
			event = "game_over";
		else if ((after & (1u << seat)) && !(before & (1u << seat)))
			event = "your_turn";
		if (!event || !seats[i].user_id)
			continue;
		if ((rc = store_outbox_add(c, event, g->id, seat, seats[i].user_id, NULL, now, NULL, err)) < 0)
			return rc;
	}
	return 0;
}

/* The answer to a stored submission: what was applied and where the game is now, with the seat's view. */
static int submit_answer(int64_t game_id, int base, const struct batch *b, const struct game_pending *after,
			 const json_t *final, const struct engine_game *eg, int seat, int with_view, json_t **out,
			 struct err *err)
{
	json_t *res = json_object(), *applied = json_array(), *view = NULL;

	*out = NULL;
	json_object_set_new(res, "game", json_integer(game_id));
	json_object_set_new(res, "move_count", json_integer(base + b->n));
	for (int i = 0; i < b->n; i++) {
		json_t *a = json_object();
		json_object_set_new(a, "n", json_integer(b->rows[i].m.n));
		json_object_set_new(a, "text", json_string(b->rows[i].m.text));
		json_array_append_new(applied, a);
	}
	json_object_set_new(res, "applied", applied);
	json_object_set_new(res, "status", json_string(final ? "finished" : "active"));
	json_object_set_new(res, "active_seats", seats_array(after->seats));
	json_object_set_new(res, "pending", pending_json(after));
	if (with_view) {
		if (eg->ops->view(eg->state, seat, &view, err) < 0) {
			json_decref(res);
			return err->code;
		}
		json_object_set_new(res, "view", view);
	}
	if (final)
		json_object_set(res, "result", (json_t *)final);
	*out = res;
	return 0;
}

/*
 * A submission worked out on one state of the game: the rows to store and
 * the answer. submit_prepare fills it from a read transaction, outside the
 * writer; submit_in_tx from the writer's own transaction.
 */
struct prepared {
	struct store_game g;       /* the game row it was worked out on */
	struct batch b;
	struct game_pending before, after;
	json_t *final;
	char *final_text;
	json_t *res;
	int64_t now;
};

static void prepared_release(struct prepared *p)
{
	json_decref(p->final);
	json_decref(p->res);
	free(p->final_text);
	batch_release(&p->b);
	store_game_release(&p->g);
	memset(p, 0, sizeof(*p));
}

/*
 * Check the request against the game read on connection c (the writer's
 * transaction or a read transaction) and apply its steps to a private copy
 * of the position: nothing is written.
 */
static int submit_work(struct store_conn *c, const struct play_submit *rq, struct prepared *p,
		       struct play_outcome *out, struct err *err)
{
	struct store_seat *seats = NULL;
	struct store_move head = {0};
	struct engine_game eg = {0};
	const struct game_ops *ops;
	int nseats = 0, rc;

	p->now = rq->at ? rq->at : clock_now_ms();
	if ((rc = store_game_head(c, rq->game_id, &p->g, &head, err)) < 0)
		goto done;
	if (!(ops = find_ops(p->g.game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	if (strcmp(p->g.status, "active") != 0) {
		rc = err_set(err, ERR_FORBIDDEN, "game %lld is %s: no more steps can be made",
			     (long long)p->g.id, p->g.status);
		goto done;
	}
	if (rq->if_match >= 0 && rq->if_match != p->g.move_count) {
		rc = err_set(err, ERR_STALE,
			     "the game has moved on: you sent move count %d but it is now %d; reload and try again",
			     rq->if_match, p->g.move_count);
		goto done;
	}
	if ((rc = store_seats_get(c, p->g.id, &seats, &nseats, err)) < 0)
		goto done;
	if (rq->seat < 0 || rq->seat >= nseats) {
		rc = err_set(err, ERR_FORBIDDEN, "seat %d does not exist in game %lld", rq->seat, (long long)p->g.id);
		goto done;
	}
	/* the position the last read decoded from this same snapshot, when nobody else reads it now */
	if ((rc = cache_pos_take(ops, p->g.id, head.snapshot, &eg, err)) < 0)
		goto done;
	engine_game_pending(&eg, &p->before);
	p->b.base = p->g.move_count;
	if ((rc = apply_lines(c, &p->g, seats, nseats, &eg, &head, &p->b, rq, p->now, &out->failed_line, err)) < 0)
		goto done;
	engine_game_pending(&eg, &p->after);
	p->final = ops->result(eg.state);
	p->final_text = p->final ? json_dumps(p->final, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	/* an answer kept for an Idempotency-Key is whole: a replay may be asked for without the preference */
	rc = submit_answer(p->g.id, p->g.move_count, &p->b, &p->after, p->final, &eg, rq->seat,
			   !rq->no_view || rq->idem_key, &p->res, err);
done:
	engine_game_release(&eg);
	store_move_release(&head);
	store_seats_free(seats, nseats);
	return rc;
}

/* Store what submit_work prepared, in the writer's transaction, on the game row it was prepared from. */
static int submit_store(struct store_conn *c, const struct prepared *p, struct err *err)
{
	struct store_seat *seats = NULL;
	int nseats = 0, rc;

	/* first, as the check: still active at the count the steps were worked out on (else ERR_STALE) */
	if ((rc = store_game_advance(c, p->g.id, p->g.move_count, p->g.move_count + p->b.n, p->after.seats,
				     p->final ? "finished" : "active", p->final_text, p->now, err)) < 0)
		return rc;
	for (int i = 0; i < p->b.n; i++)
		if ((rc = store_move_append(c, p->g.id, &p->b.rows[i].m, err)) < 0)
			return rc;
	/* the same seats still acting (most steps of a turn): nobody is told, no clock starts or stops */
	if (!p->final && p->before.seats == p->after.seats)
		return 0;
	/* who is told: the seats as they are now (a player may have joined since a prepared read) */
	if ((rc = store_seats_get(c, p->g.id, &seats, &nseats, err)) < 0)
		return rc;
	rc = queue_notifications(c, &p->g, seats, nseats, p->before.seats, p->after.seats, p->final != NULL, p->now,
				 err);
	store_seats_free(seats, nseats);
	if (rc < 0)
		return rc;
	/* the clocks of the seats that stopped or started acting, in the same transaction */
	return store_game_clock_step(c, p->g.id, p->final ? 0 : p->after.seats, p->now, err);
}

/* The whole of play_submit inside the caller's write transaction (which it neither commits nor rolls back). */
static int submit_in_tx(struct store_conn *c, const struct play_submit *rq, json_t **result,
			struct play_outcome *out, struct err *err)
{
	struct prepared p = {0};
	json_t *res = NULL;
	char *body = NULL;
	int rc;

	*result = NULL;
	memset(out, 0, sizeof(*out));
	if (rq->nlines < 1)
		return err_set(err, ERR_INPUT, "no moves given: send {\"moves\": [\"...\"]} with at least one step");
	if (rq->nlines > PLAY_MAX_LINES)
		return err_set(err, ERR_INPUT, "at most %d steps in one request", PLAY_MAX_LINES);
	if (rq->idem_key) {
		unsigned char hash[32];
		int64_t gid;

		rc = store_idem_get(c, rq->idem_token, rq->idem_key, hash, &gid, &out->status, &body, err);
		if (rc == 0) {
			if (gid != rq->game_id || !token_hash_equal(hash, rq->request_hash)) {
				rc = err_set(err, ERR_INPUT,
					     "this Idempotency-Key was already used for a different request");
				goto done;
			}
			res = json_loads(body, 0, NULL);
			if (!res) {
				rc = err_set(err, ERR_INTERNAL, "stored answer is not JSON");
				goto done;
			}
			out->replayed = 1;
			rc = 0;
			goto done;
		}
		if (rc != ERR_NOTFOUND)
			goto done;
		err_clear(err);
	}
	if ((rc = submit_work(c, rq, &p, out, err)) < 0 || (rc = submit_store(c, &p, err)) < 0)
		goto done;
	if (rq->idem_key) {
		char *text = json_dumps(p.res, JSON_COMPACT);
		rc = store_idem_put(c, rq->idem_token, rq->idem_key, rq->request_hash, p.g.id, 200, text, p.now, err);
		free(text);
		if (rc < 0)
			goto done;
	}
	res = p.res;
	p.res = NULL;
	rc = 0;
done:
	if (rc < 0) {
		json_decref(res);
		res = NULL;
	}
	*result = res;
	free(body);
	prepared_release(&p);
	return rc;
}

struct submit_job {
	const struct play_submit *rq;
	json_t *result;
	struct play_outcome *out;
	const struct prepared *p; /* store_prepared: what submit_prepare worked out */
	int moved_on;             /* store_prepared: the game is no longer where it was read */
};

static int submit_grouped(struct store_conn *c, void *ctx, struct err *err)
{
	struct submit_job *j = ctx;

	return submit_in_tx(c, j->rq, &j->result, j->out, err);
}

/* Under the writer: store the prepared steps if the game row is still the one they were worked out on. */
static int store_prepared(struct store_conn *c, void *ctx, struct err *err)
{
	struct submit_job *j = ctx;
	int rc;

	/* steps are only ever appended: the same count on an active game is the same position */
	if ((rc = submit_store(c, j->p, err)) == ERR_STALE)
		j->moved_on = 1;
	return rc;
}

/*
 * Work the steps out on a read transaction, outside the writer, so that
 * concurrent submissions check rules, encode positions and build answers in
 * parallel; the writer then only verifies the game row and stores the rows.
 */
static int submit_prepare(struct store *s, const struct play_submit *rq, struct prepared *p,
			  struct play_outcome *out, struct err *err)
{
	struct store_conn *c;
	int rc;

	if ((rc = store_read_begin(s, &c, err)) < 0)
		return rc;
	rc = submit_work(c, rq, p, out, err);
	store_read_release(c);
	return rc;
}

/* A submission whose write waits for its commit and sync (play_submit_start). */
struct play_pending {
	struct store *s;
	struct submit_job j;
	struct prepared p;    /* when j.p is set: the answer is p.res, else j.result */
	struct play_outcome out;
	int rc;               /* the write's outcome, set before done is called */
	struct err err;
	play_done_fn done;
	void *arg;
};

static void pending_stored(void *arg, int rc, const struct err *e)
{
	struct play_pending *pp = arg;

	pp->rc = rc;
	if (rc < 0 && e)
		pp->err = *e;
	pp->done(pp->arg);
}

static void pending_free(struct play_pending *pp)
{
	json_decref(pp->j.result);
	prepared_release(&pp->p);
	free(pp);
}

int play_submit_start(struct store *s, const struct play_submit *rq, play_done_fn done, void *arg,
		      struct play_pending **pending, struct play_outcome *out, struct err *err)
{
	struct play_pending *pp = calloc(1, sizeof(*pp));
	int rc;

	*pending = NULL;
	memset(out, 0, sizeof(*out));
	if (!pp)
		return err_set(err, ERR_NOMEM, "out of memory");
	pp->s = s;
	pp->done = done;
	pp->arg = arg;
	pp->j.rq = rq;
	pp->j.out = &pp->out;
	if (!rq->idem_key && rq->nlines >= 1 && rq->nlines <= PLAY_MAX_LINES) {
		/*
		 * An answer from the read is final when it is an error (the state it
		 * was read from was committed, and games only move forward) and when
		 * the writer finds the game row unchanged; else it is worked out
		 * again under the writer.
		 */
		if ((rc = submit_prepare(s, rq, &pp->p, &pp->out, err)) < 0)
			goto failed;
		pp->j.p = &pp->p;
		if ((rc = store_write_grouped_async(s, store_prepared, &pp->j, pending_stored, pp, err)) == 0)
			goto started;
		if (!pp->j.moved_on)
			goto failed;
		err_clear(err);
		prepared_release(&pp->p);
		pp->j.p = NULL;
		memset(&pp->out, 0, sizeof(pp->out));
	}
	/* concurrent submissions share one durable commit; each is all or nothing in its own savepoint */
	if ((rc = store_write_grouped_async(s, submit_grouped, &pp->j, pending_stored, pp, err)) == 0)
		goto started;
failed:
	*out = pp->out;
	pending_free(pp);
	return rc;
started:
	/* pp is the caller's now (and done may have been called already) */
	*pending = pp;
	return 0;
}

int play_submit_finish(struct play_pending *pp, json_t **result, struct play_outcome *out, struct err *err)
{
	int rc = pp->rc;

	*result = NULL;
	*out = pp->out;
	if (rc < 0) {
		*err = pp->err;
	} else if (pp->j.p) {
		*result = pp->p.res;
		pp->p.res = NULL;
		/* the game's new latest step is committed: the next read of the game need not look it up */
		if (pp->p.b.n > 0)
			store_game_head_remember(pp->s, pp->p.g.id, &pp->p.b.rows[pp->p.b.n - 1].m);
	} else {
		*result = pp->j.result;
		pp->j.result = NULL;
	}
	pending_free(pp);
	return rc;
}

static void post_done(void *arg)
{
	sem_post(arg);
}

int play_submit(struct store *s, const struct play_submit *rq, json_t **result, struct play_outcome *out,
		struct err *err)
{
	struct play_pending *pp;
	sem_t done;
	int rc;

	*result = NULL;
	sem_init(&done, 0, 0);
	if ((rc = play_submit_start(s, rq, post_done, &done, &pp, out, err)) == 0) {
		while (sem_wait(&done) < 0)
			;
		rc = play_submit_finish(pp, result, out, err);
	}
	sem_destroy(&done);
	return rc;
}

int play_move_count(struct store *s, int64_t id, int *move_count, struct err *err)
{
	struct store_conn *c;
	struct store_game g;
	int rc;

	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_get(c, id, &g, err);
	store_read_release(c);
	if (rc == 0)
		*move_count = g.move_count;
	store_game_release(&g);
	return rc;
}

int play_game_info(struct store *s, int64_t id, struct store_game *g, struct store_seat **seats, int *nseats,
		   struct err *err)
{
	struct store_conn *c;
	int rc;

	memset(g, 0, sizeof(*g));
	*seats = NULL;
	*nseats = 0;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	if ((rc = store_game_get(c, id, g, err)) == 0)
		rc = store_seats_get(c, id, seats, nseats, err);
	store_read_release(c);
	if (rc < 0) {
		play_game_info_release(g, *seats, *nseats);
		*seats = NULL;
		*nseats = 0;
	}
	return rc;
}

void play_game_info_release(struct store_game *g, struct store_seat *seats, int nseats)
{
	store_seats_free(seats, nseats);
	store_game_release(g);
	memset(g, 0, sizeof(*g));
}

/* The seats whose player was dropped (the bot plays them), as a mask. */
static int dropped_seats(struct store_conn *c, int64_t id, unsigned *mask, struct err *err)
{
	struct store_seat_clock *clocks = NULL;
	int n = 0, rc;

	*mask = 0;
	rc = store_game_clock_seats(c, id, &clocks, &n, err);
	for (int i = 0; rc == 0 && i < n; i++)
		if (clocks[i].dropped && clocks[i].seat >= 0 && clocks[i].seat < GAME_MAX_SEATS)
			*mask |= 1u << clocks[i].seat;
	free(clocks);
	return rc;
}

/*
 * Load the game row, its seats and dropped seats (unless seats is NULL) and
 * the latest position in one read transaction, so they agree with each other.
 * *pos is a shared, read-only position decoded from the stored snapshot
 * (engine/cache.h): cache_pos_release it.
 */
static int load_current(struct store *s, int64_t id, struct store_game *g, struct store_seat **seats,
			int *nseats, unsigned *dropped, struct cache_pos **pos, int *undo_seat, struct err *err)
{
	struct store_conn *c;
	struct store_move head = {0};
	const struct game_ops *ops;
	int rc;

	memset(g, 0, sizeof(*g));
	*pos = NULL;
	if (seats) {
		*seats = NULL;
		*nseats = 0;
		*dropped = 0;
	}
	/*
	 * The legal steps need only the head: one statement, consistent on its
	 * own, so no explicit transaction; the game's answer reads the whole row,
	 * the seats and the dropped seats in one.
	 */
	if ((rc = seats ? store_read_begin(s, &c, err) : store_read_acquire(s, &c, err)) < 0)
		return rc;
	if (!seats) {
		if ((rc = store_game_head(c, id, g, &head, err)) < 0)
			goto done;
	} else if ((rc = store_game_get(c, id, g, err)) < 0 ||
		   (rc = store_seats_get(c, id, seats, nseats, err)) < 0 ||
		   (rc = dropped_seats(c, id, dropped, err)) < 0 ||
		   (rc = store_move_get(c, id, g->move_count, &head, err)) < 0) {
		goto done;
	}
	if (!(ops = find_ops(g->game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	if (undo_seat)
		*undo_seat = g->move_count ? head.undo_seat : -1;
	rc = cache_pos_load(ops, id, head.snapshot, pos, err);
done:
	store_read_release(c);
	store_move_release(&head);
	return rc;
}

int play_game_json(struct store *s, int64_t id, int viewer_seat, int with_emails, json_t **out,
		   struct err *err)
{
	struct store_game g;
	struct store_seat *seats = NULL;
	struct cache_pos *pos = NULL;
	const struct engine_game *eg;
	struct game_pending p;
	json_t *o = NULL, *sa, *view = NULL;
	int nseats = 0, undo_seat = -1, rc;
	unsigned dropped = 0;

	*out = NULL;
	if ((rc = load_current(s, id, &g, &seats, &nseats, &dropped, &pos, &undo_seat, err)) < 0)
		goto done;
	eg = cache_pos_game(pos);
	if ((rc = eg->ops->view(eg->state, viewer_seat, &view, err)) < 0)
		goto done;
	engine_game_pending(eg, &p);
	o = json_object();
	json_object_set_new(o, "id", json_integer(g.id));
	json_object_set_new(o, "game", json_string(g.game));
	json_object_set_new(o, "title", json_string(eg->ops->title));
	json_object_set_new(o, "status", json_string(g.status));
	json_object_set_new(o, "move_count", json_integer(g.move_count));
	json_object_set_new(o, "active_seats", seats_array(strcmp(g.status, "active") ? 0 : p.seats));
	json_object_set_new(o, "pending", pending_json(&p));
	json_object_set_new(o, "undo_seat", json_integer(strcmp(g.status, "active") ? -1 : undo_seat));
	sa = json_array();
	for (int i = 0; i < nseats; i++) {
		json_t *so = json_object();
		json_object_set_new(so, "seat", json_integer(seats[i].seat));
		json_object_set_new(so, "name", json_string(seats[i].name));
		/* nobody may join a dropped player's seat: the bot plays it */
		json_object_set_new(so, "open", json_boolean(!seats[i].user_id && !((dropped >> seats[i].seat) & 1u)));
		if ((dropped >> seats[i].seat) & 1u)
			json_object_set_new(so, "bot", json_true());
		if (with_emails && seats[i].email)
			json_object_set_new(so, "email", json_string(seats[i].email));
		json_array_append_new(sa, so);
	}
	json_object_set_new(o, "seats", sa);
	if (viewer_seat >= 0)
		json_object_set_new(o, "you", json_integer(viewer_seat));
	json_object_set_new(o, "view", view);
	view = NULL;
	json_object_set_new(o, "result", g.result ? json_loads(g.result, 0, NULL) : json_null());
	json_object_set_new(o, "created_at", json_integer(g.created_at));
	json_object_set_new(o, "updated_at", json_integer(g.updated_at));
	*out = o;
done:
	json_decref(view);
	cache_pos_release(pos);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

int play_legal_json(struct store *s, int64_t id, int seat, json_t **out, struct err *err)
{
	struct store_game g;
	struct cache_pos *pos = NULL;
	const struct engine_game *eg;
	json_t *moves = NULL;
	int rc;

	*out = NULL;
	if ((rc = load_current(s, id, &g, NULL, NULL, NULL, &pos, NULL, err)) < 0)
		goto done;
	eg = cache_pos_game(pos);
	if (strcmp(g.status, "active") != 0) {
		moves = json_array();
	} else if ((rc = eg->ops->legal(eg->state, seat, &moves, err)) < 0) {
		goto done;
	}
	*out = json_object();
	json_object_set_new(*out, "move_count", json_integer(g.move_count));
	json_object_set_new(*out, "seat", json_integer(seat));
	json_object_set_new(*out, "moves", moves);
done:
	cache_pos_release(pos);
	store_game_release(&g);
	return rc;
}

static json_t *moves_array(const struct store_move *moves, int n, int with_client)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++) {
		json_t *m = json_object();
		char at[32];

		json_object_set_new(m, "n", json_integer(moves[i].n));
		json_object_set_new(m, "seat", json_integer(moves[i].seat));
		json_object_set_new(m, "text", json_string(moves[i].text));
		json_object_set_new(m, "via", json_string(moves[i].via));
		json_object_set_new(m, "at", json_integer(moves[i].at));
		if (moves[i].kind == STORE_MOVE_ROLLBACK) {
			json_object_set_new(m, "kind", json_string("rollback"));
			json_object_set_new(m, "to", json_integer(moves[i].target));
		}
		clock_format_utc(moves[i].at, at);
		json_object_set_new(m, "time", json_string(at));
		if (with_client && moves[i].client)
			json_object_set_new(m, "client", json_string(moves[i].client));
		json_array_append_new(a, m);
	}
	return a;
}

int play_moves_json(struct store *s, int64_t id, json_t **out, struct err *err)
{
	struct store_conn *c;
	struct store_game g;
	struct store_move *moves = NULL;
	int n = 0, rc;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_get(c, id, &g, err);
	if (rc == 0)
		rc = store_moves_list(c, id, 0, &moves, &n, err);
	store_read_release(c);
	store_game_release(&g);
	if (rc < 0)
		return rc;
	*out = json_object();
	json_object_set_new(*out, "moves", moves_array(moves, n, 0));
	store_moves_free(moves, n);
	return 0;
}

/*
 * Replay rows on top of the set-up, calling check(ctx, n, snapshot, row) after
 * each; the replayed snapshots are kept for undo.
 */
int play_verify(struct store *s, int64_t id, int *first_bad, struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_move *moves = NULL;
	struct engine_game eg = {0};
	const struct game_ops *ops;
	json_t *options = NULL;
	char **snaps = NULL;
	int *backs = NULL, *undos = NULL;
	uint64_t seed;
	int n = 0, rc;

	*first_bad = -1;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_get(c, id, &g, err);
	if (rc == 0)
		rc = store_moves_list(c, id, 1, &moves, &n, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	if (!(ops = find_ops(g.game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	options = json_loads(g.options, 0, NULL);
	if (parse_seed(g.seed, &seed) < 0) {
		rc = err_set(err, ERR_CONFLICT, "game %lld: stored seed is not a number", (long long)id);
		*first_bad = 0;
		goto done;
	}
	if ((rc = engine_game_setup(ops, options, g.nplayers, seed, &eg, err)) < 0)
		goto done;
	snaps = calloc((size_t)n + 1, sizeof(*snaps));
	backs = calloc((size_t)n + 1, sizeof(*backs));
	undos = calloc((size_t)n + 1, sizeof(*undos));
	if (!snaps || !backs || !undos)
		abort();
	if ((rc = engine_game_encode(&eg, &snaps[0], err)) < 0)
		goto done;
	undos[0] = -1;
	if (!engine_snapshot_equal(snaps[0], g.initial)) {
		*first_bad = 0;
		rc = err_set(err, ERR_CONFLICT, "game %lld: the stored set-up differs from a fresh set-up with its seed",
			     (long long)id);
		goto done;
	}
	for (int i = 0; i < n; i++) {
		const struct store_move *m = &moves[i];
		int k = i + 1;

		if (m->n != k) {
			*first_bad = k;
			rc = err_set(err, ERR_CONFLICT, "game %lld: step %d is missing from the log", (long long)id, k);
			goto done;
		}
		if (m->kind == STORE_MOVE_ROLLBACK) {
			/* an admin's rollback: the position of an earlier step again, not to be undone */
			int rb = m->target;
			if (rb < 0 || rb >= k) {
				*first_bad = k;
				rc = err_set(err, ERR_CONFLICT, "game %lld: step %d (%s) is not a rollback to an earlier step",
					     (long long)id, k, m->text);
				goto done;
			}
			engine_game_release(&eg);
			if ((rc = engine_game_decode(ops, snaps[rb], &eg, err)) < 0)
				goto done;
			snaps[k] = strdup(snaps[rb]);
			backs[k] = k - 1;
			undos[k] = -1;
		} else if (engine_line_is_undo(m->text)) {
			int to = backs[k - 1];
			if (undos[k - 1] != m->seat) {
				*first_bad = k;
				rc = err_set(err, ERR_CONFLICT, "game %lld: step %d undoes a step seat %d may not undo",
					     (long long)id, k, m->seat);
				goto done;
			}
			engine_game_release(&eg);
			if ((rc = engine_game_decode(ops, snaps[to], &eg, err)) < 0)
				goto done;
			snaps[k] = strdup(snaps[to]);
			backs[k] = backs[to];
			undos[k] = undos[to];
		} else {
			struct buf canon = BUF_INIT;
			int revealed;

			rc = engine_game_step(&eg, m->seat, m->text, &canon, &revealed, err);
			buf_release(&canon);
			if (rc < 0) {
				*first_bad = k;
				char msg[sizeof(err->msg)];
				snprintf(msg, sizeof(msg), "%s", err->msg);
				rc = err_set(err, ERR_CONFLICT, "game %lld: step %d (%s) does not replay: %s",
					     (long long)id, k, m->text, msg);
				goto done;
			}
			if ((rc = engine_game_encode(&eg, &snaps[k], err)) < 0)
				goto done;
			backs[k] = k - 1;
			undos[k] = revealed ? -1 : m->seat;
		}
		if (!engine_snapshot_equal(snaps[k], m->snapshot)) {
			*first_bad = k;
			rc = err_set(err, ERR_CONFLICT,
				     "game %lld: the stored snapshot of step %d (%s) differs from the replay",
				     (long long)id, k, m->text);
			goto done;
		}
		if (backs[k] != m->back || undos[k] != m->undo_seat) {
			*first_bad = k;
			rc = err_set(err, ERR_CONFLICT, "game %lld: the undo links of step %d differ from the replay",
				     (long long)id, k);
			goto done;
		}
	}
	rc = 0;
done:
	for (int i = 0; snaps && i <= n; i++)
		free(snaps[i]);
	free(snaps);
	free(backs);
	free(undos);
	json_decref(options);
	engine_game_release(&eg);
	store_moves_free(moves, n);
	store_game_release(&g);
	return rc;
}

int play_export(struct store *s, int64_t id, json_t **out, struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	struct store_move *moves = NULL;
	json_t *o, *sa;
	int n = 0, nseats = 0, rc;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_get(c, id, &g, err);
	if (rc == 0)
		rc = store_seats_get(c, id, &seats, &nseats, err);
	if (rc == 0)
		rc = store_moves_list(c, id, 0, &moves, &n, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	o = json_object();
	json_object_set_new(o, "format", json_string("turnpost-replay"));
	json_object_set_new(o, "version", json_integer(1));
	json_object_set_new(o, "game", json_string(g.game));
	json_object_set_new(o, "options", json_loads(g.options, 0, NULL));
	json_object_set_new(o, "seed", json_string(g.seed));
	json_object_set_new(o, "created_at", json_integer(g.created_at));
	sa = json_array();
	for (int i = 0; i < nseats; i++) {
		json_t *so = json_object();
		json_object_set_new(so, "seat", json_integer(seats[i].seat));
		json_object_set_new(so, "name", json_string(seats[i].name));
		json_object_set_new(so, "email", seats[i].email ? json_string(seats[i].email) : json_null());
		json_array_append_new(sa, so);
	}
	json_object_set_new(o, "seats", sa);
	json_object_set_new(o, "moves", moves_array(moves, n, 0));
	json_object_set_new(o, "status", json_string(g.status));
	*out = o;
done:
	store_moves_free(moves, n);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

/*
 * The step a replay file's move rolls back to: its "to" when its "kind" is
 * "rollback" (-2 when that is missing or negative), -1 for a player's step.
 * Files written before steps had kinds carry a rollback only as its text
 * ("rollback to N", seat -1, via "admin"): those are read as rollbacks too.
 */
static int import_rollback_target(const json_t *m)
{
	const char *kind = json_string_value(json_object_get(m, "kind"));
	const char *text = json_string_value(json_object_get(m, "text"));
	const char *via = json_string_value(json_object_get(m, "via"));
	const json_t *to = json_object_get(m, "to");
	char *end;
	long n;

	if (kind)
		return strcmp(kind, "rollback") != 0 ? -1
			: json_is_integer(to) && json_integer_value(to) >= 0 && json_integer_value(to) < 1000000000
			? (int)json_integer_value(to) : -2;
	if (json_integer_value(json_object_get(m, "seat")) >= 0 || !via || strcmp(via, "admin") != 0 || !text ||
	    strncmp(text, "rollback to ", 12) != 0 || text[12] < '0' || text[12] > '9')
		return -1;
	n = strtol(text + 12, &end, 10);
	return *end || n >= 1000000000 ? -2 : (int)n;
}

int play_import(struct store *s, const json_t *file, int64_t created_by, int64_t *id, struct err *err)
{
	const json_t *seats_j = json_object_get(file, "seats"), *moves_j = json_object_get(file, "moves");
	struct play_player players[GAME_MAX_SEATS];
	struct play_new_game ng = {0};
	struct store_conn *c;
	size_t nseats, i;
	const json_t *m;
	int rc;

	*id = 0;
	if (!json_is_object(file) || !json_is_string(json_object_get(file, "format")) ||
	    strcmp(json_string_value(json_object_get(file, "format")), "turnpost-replay") != 0)
		return err_set(err, ERR_INPUT, "not a turnpost replay file (\"format\" must be \"turnpost-replay\")");
	if (json_integer_value(json_object_get(file, "version")) != 1)
		return err_set(err, ERR_INPUT, "unsupported replay file version (this server reads version 1)");
	if (!json_is_array(seats_j) || !json_is_array(moves_j))
		return err_set(err, ERR_INPUT, "a replay file needs \"seats\" and \"moves\" arrays");
	nseats = json_array_size(seats_j);
	if (nseats < 1 || nseats > GAME_MAX_SEATS)
		return err_set(err, ERR_INPUT, "a replay file needs 1 to %d seats", GAME_MAX_SEATS);
	for (i = 0; i < nseats; i++) {
		const json_t *so = json_array_get(seats_j, i);
		players[i].name = json_string_value(json_object_get(so, "name"));
		players[i].email = json_string_value(json_object_get(so, "email"));
		if (!players[i].name)
			return err_set(err, ERR_INPUT, "seat %zu of the replay file has no name", i);
	}
	ng.game = json_string_value(json_object_get(file, "game"));
	ng.options = json_object_get(file, "options");
	ng.players = players;
	ng.nplayers = (int)nseats;
	ng.created_by = created_by;
	ng.created_at = json_integer_value(json_object_get(file, "created_at"));
	if (!ng.game || parse_seed(json_string_value(json_object_get(file, "seed")), &ng.seed) < 0)
		return err_set(err, ERR_INPUT, "a replay file needs \"game\" and a numeric \"seed\"");
	ng.have_seed = 1;
	ng.quiet = 1;
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = create_in_tx(c, &ng, id, NULL, err)) < 0)
		goto done;
	json_array_foreach(moves_j, i, m) {
		const char *text = json_string_value(json_object_get(m, "text"));
		const char *lines[1] = { text };
		struct play_submit rq = {
			.game_id = *id,
			.seat = (int)json_integer_value(json_object_get(m, "seat")),
			.lines = lines,
			.nlines = 1,
			.via = json_string_value(json_object_get(m, "via")),
			.if_match = (int)i,
			.at = json_integer_value(json_object_get(m, "at")),
		};
		struct play_outcome po;
		json_t *res = NULL;
		int to;

		if (!text) {
			rc = err_set(err, ERR_INPUT, "move %zu of the replay file has no text", i + 1);
			break;
		}
		if ((to = import_rollback_target(m)) >= 0)
			rc = play_admin__rollback_in_tx(c, *id, to, NULL, rq.at ? rq.at : clock_now_ms(), NULL, 0, NULL,
							NULL, err);
		else if (to != -1)
			rc = err_set(err, ERR_INPUT, "a rollback needs \"to\": the number of an earlier step");
		else
			rc = submit_in_tx(c, &rq, &res, &po, err);
		json_decref(res);
		if (rc < 0) {
			char msg[sizeof(err->msg)];
			snprintf(msg, sizeof(msg), "%s", err->msg);
			rc = err_set(err, ERR_INPUT, "move %zu (%s) of the replay file does not replay: %s", i + 1,
				     text, msg);
			break;
		}
	}
done:
	if (rc < 0) {
		store_write_rollback(c);
		*id = 0;
		return rc;
	}
	rc = store_write_commit(c, err);
	if (rc < 0)
		*id = 0;
	return rc;
}
