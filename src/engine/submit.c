/* engine/submit.c: steps stored: a seat's lines applied all or nothing, undo, an admin's rollback */
/* SPDX-License-Identifier: MIT */
#include "engine/submit.h"

#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cache.h"
#include "engine/channel.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

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
		return NULL;
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
 * A turn that has passed is final: once the position waits for other seats
 * and not for seat, the next player may have been told and may be looking at
 * the board, so an undo would change what they were shown. ERR_ILLEGAL then,
 * naming who is on; an admin's rollback stays the way back.
 */
static int turn_passed(const struct engine_game *eg, const struct store_seat *seats, int nseats, int seat,
		       struct err *err)
{
	struct game_pending p;
	struct buf names = BUF_INIT;
	int rc;

	engine_game_pending(eg, &p);
	if (p.seats & (1u << seat))
		return 0;
	if (!p.seats)
		return err_set(err, ERR_ILLEGAL, "too late to undo: the game is over");
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		if (p.seats & (1u << i))
			buf_addf(&names, "%s%s", names.len ? " and " : "", seat_name(seats, nseats, i));
	rc = err_set(err, ERR_ILLEGAL,
		     "too late to undo: the turn has passed to %s, and a step is final once the turn passes; "
		     "if something went wrong, ask an admin to roll the game back", names.data);
	buf_release(&names);
	return rc;
}

/*
 * A batch failed after a step that revealed something: keep its first rows
 * rows (through that step) and their position in eg. 0 (err keeps the
 * failure's message) or the error that made that impossible.
 */
static int keep_revealed(struct engine_game *eg, struct batch *b, int rows, int nlines, int *untried,
			 struct err *err)
{
	struct engine_game kept = {0};
	struct err e = {0};

	if (engine_game_decode(eg->ops, b->rows[rows - 1].m.snapshot, &kept, &e) < 0) {
		*err = e;
		return e.code;
	}
	engine_game_release(eg);
	*eg = kept;
	for (int i = rows; i < b->n; i++) {
		free(b->rows[i].m.text);
		free(b->rows[i].m.snapshot);
		free(b->rows[i].m.client);
	}
	b->n = rows;
	*untried = nlines - rows;
	return 0;
}

/*
 * Apply lines on top of the position after step b->base, whose row is head.
 * Adds one row per line to b. eg holds the position and is updated.
 *
 * All or nothing, up to a step that reveals new information (a roll, a
 * draw): when a later line fails, the steps up to the last such step are
 * kept (they are stored), the position is theirs again, and 0 is returned
 * with *failed_line and err saying what failed and *untried how many lines
 * were not applied. So no answer, not even whether a batch was refused,
 * depends on a draw that is thrown away, and nobody can try a draw again
 * (docs/security.md, "Hidden draws").
 */
static int apply_lines(struct store_conn *c, const struct store_game *g, const struct store_seat *seats,
		       int nseats, struct engine_game *eg, const struct store_move *head, struct batch *b,
		       const struct submit_request *rq, int64_t at, int *failed_line, const char **code, int *untried,
		       struct err *err)
{
	struct buf canon = BUF_INIT;
	int cur_back = head->back, cur_undo = head->undo_seat;
	int rc = 0, revealed_rows = 0;

	*untried = 0;
	for (int i = 0; i < rq->nlines; i++) {
		const char *line = rq->lines[i];
		struct store_move *m;
		int count = b->base + b->n;

		*failed_line = i + 1;
		if (strlen(line) > SUBMIT_MAX_LINE) {
			*code = "step_too_long";
			rc = err_set(err, ERR_INPUT, "a step is at most %d characters long", SUBMIT_MAX_LINE);
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
			if (!rq->undo_after_turn && (rc = turn_passed(eg, seats, nseats, rq->seat, err)) < 0)
				goto done;
			if ((rc = row_get(c, g->id, b, cur_back, &tmp, &prev, err)) < 0)
				goto done;
			rc = engine_game_decode(eg->ops, prev->snapshot, &back, err);
			if (rc < 0) {
				store_move_release(&tmp);
				goto done;
			}
			engine_game_release(eg);
			*eg = back;
			/* prev may be a row of this batch, which batch_push moves: take what is needed first */
			{
				int prev_back = prev->back, prev_undo = prev->undo_seat;
				char *snap = strdup(prev->snapshot);

				store_move_release(&tmp);
				if (!snap || !(m = batch_push(b))) {
					free(snap);
					rc = err_set(err, ERR_NOMEM, "out of memory");
					goto done;
				}
				m->n = count + 1;
				m->seat = rq->seat;
				m->text = strdup("undo");
				m->back = prev_back;
				m->undo_seat = prev_undo;
				m->snapshot = snap;
			}
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
			if (!(m = batch_push(b))) {
				free(snap);
				rc = err_set(err, ERR_NOMEM, "out of memory");
				goto done;
			}
			m->n = count + 1;
			m->seat = rq->seat;
			m->text = buf_detach(&canon, NULL);
			m->back = count;
			m->undo_seat = revealed ? -1 : rq->seat;
			m->snapshot = snap;
			if (revealed)
				revealed_rows = b->n;
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
	if (rc == ERR_ILLEGAL && revealed_rows > 0)
		rc = keep_revealed(eg, b, revealed_rows, rq->nlines, untried, err);
	return rc;
}

/*
 * The game's chat channels hear once per turn, not once per step: when a
 * seat that was not to act is to act now (the lowest such seat is named), or
 * when the game ends (engine/channel.h).
 */
static int queue_channels(struct store_conn *c, int64_t game_id, unsigned before, unsigned after, int finished,
			  int64_t now, struct err *err)
{
	unsigned fresh = after & ~before;
	int seat = 0;

	if (finished)
		return channel_queue(c, game_id, 0, "game_over", -1, now, err);
	if (!fresh)
		return 0;
	while (!(fresh & (1u << seat)))
		seat++;
	return channel_queue(c, game_id, 0, "your_turn", seat, now, err);
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
	return queue_channels(c, g->id, before, after, finished, now, err);
}

/* The answer to a stored submission: what was applied and where the game is now, with the seat's view. */
static int submit_answer(int64_t game_id, int base, const struct batch *b, const struct game_pending *after,
			 const char *const *names, const json_t *final, const struct engine_game *eg, int seat,
			 int with_view, json_t **out, struct err *err)
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
	json_object_set_new(res, "active_seats", engine_seats_json(after->seats));
	json_object_set_new(res, "pending", engine_pending_json(after, names));
	if (with_view) {
		if (eg->ops->view(eg->state, seat, &view, err) < 0) {
			json_decref(res);
			return err->code;
		}
		engine_names_view(view, names);
		json_object_set_new(res, "view", view);
	}
	if (final) {
		json_t *shown = json_deep_copy(final);
		engine_names_key(shown, "tiebreak", names);
		json_object_set_new(res, "result", shown);
	}
	*out = res;
	return 0;
}

/*
 * A batch refused after a reveal, in the answer: "refused" {"line","text",
 * "detail"}, "not_applied" (the lines after the reveal) and "note" (what
 * happened, in words).
 */
static void untried_answer(json_t *res, const struct submit_request *rq, int untried, int failed_line,
			   const char *why)
{
	json_t *lines = json_array();
	char note[sizeof(((struct err *)0)->msg) + 400];
	int kept = rq->nlines - untried;

	for (int i = kept; i < rq->nlines; i++)
		json_array_append_new(lines, json_string(rq->lines[i]));
	json_object_set_new(res, "not_applied", lines);
	json_object_set_new(res, "refused", json_pack("{s:i,s:s,s:s}", "line", failed_line, "text",
						      rq->lines[failed_line - 1], "detail", why));
	snprintf(note, sizeof(note),
		 "Line %d (%s) was refused: %s. Line %d revealed something new (a roll or a draw), so the steps up "
		 "to it were played; the line%s after it %s not: send %s again as you see fit.",
		 failed_line, rq->lines[failed_line - 1], why, kept, untried == 1 ? "" : "s",
		 untried == 1 ? "was" : "were", untried == 1 ? "it" : "them");
	json_object_set_new(res, "note", json_string(note));
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
	int quiet; /* the request's: no outbox rows */
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
static int submit_work(struct store_conn *c, const struct submit_request *rq, struct prepared *p,
		       struct submit_outcome *out, struct err *err)
{
	struct store_seat *seats = NULL;
	struct store_move head = {0};
	struct engine_game eg = {0};
	struct err refused = {0};
	const struct game_ops *ops;
	const char *names[GAME_MAX_SEATS] = {0};
	int nseats = 0, rc;

	p->now = rq->at ? rq->at : clock_now_ms();
	p->quiet = rq->quiet;
	if ((rc = store_game_head(c, rq->game_id, &p->g, &head, err)) < 0)
		goto done;
	if (!(ops = engine_ops_find(p->g.game, err))) {
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
	for (int i = 0; i < nseats; i++)
		if (seats[i].seat >= 0 && seats[i].seat < GAME_MAX_SEATS)
			names[seats[i].seat] = seats[i].name;
	if ((rc = apply_lines(c, &p->g, seats, nseats, &eg, &head, &p->b, rq, p->now, &out->failed_line, &out->code,
			      &out->untried, err)) < 0) {
		engine_names_err(err, names);
		goto done;
	}
	/* a refusal after a reveal: the steps through it are kept, the refusal goes into the answer */
	if (out->untried) {
		engine_names_err(err, names);
		refused = *err;
		err_clear(err);
	}
	engine_game_pending(&eg, &p->after);
	p->final = ops->result(eg.state);
	p->final_text = p->final ? json_dumps(p->final, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	/* an answer kept for an Idempotency-Key is whole: a replay may be asked for without the preference */
	rc = submit_answer(p->g.id, p->g.move_count, &p->b, &p->after, names, p->final, &eg, rq->seat,
			   !rq->no_view || rq->idem_key, &p->res, err);
	if (rc == 0 && out->untried)
		untried_answer(p->res, rq, out->untried, out->failed_line, refused.msg);
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
	rc = p->quiet ? 0
		      : queue_notifications(c, &p->g, seats, nseats, p->before.seats, p->after.seats, p->final != NULL,
					    p->now, err);
	store_seats_free(seats, nseats);
	if (rc < 0)
		return rc;
	/* the clocks of the seats that stopped or started acting, in the same transaction */
	return store_game_clock_step(c, p->g.id, p->final ? 0 : p->after.seats, p->now, err);
}

/* The whole of submit_steps inside the caller's write transaction (which it neither commits nor rolls back). */
int submit_in_tx(struct store_conn *c, const struct submit_request *rq, json_t **result,
			struct submit_outcome *out, struct err *err)
{
	struct prepared p = {0};
	json_t *res = NULL;
	char *body = NULL;
	int rc;

	*result = NULL;
	memset(out, 0, sizeof(*out));
	if (rq->nlines < 1)
		return err_set(err, ERR_INPUT, "no moves given: send {\"moves\": [\"...\"]} with at least one step");
	if (rq->nlines > SUBMIT_MAX_LINES)
		return err_set(err, ERR_INPUT, "at most %d steps in one request", SUBMIT_MAX_LINES);
	if (rq->idem_key) {
		unsigned char hash[32];
		int64_t gid;

		rc = store_idem_get(c, rq->idem_token, rq->idem_key, hash, &gid, &out->status, &body, err);
		if (rc == 0) {
			if (gid != rq->game_id || !token_hash_equal(hash, rq->request_hash)) {
				out->code = "idempotency_key_reused";
				rc = err_set(err, ERR_ILLEGAL,
					     "this Idempotency-Key was already used for a different request: use a new key "
					     "for new steps");
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
	const struct submit_request *rq;
	json_t *result;
	struct submit_outcome *out;
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
static int submit_prepare(struct store *s, const struct submit_request *rq, struct prepared *p,
			  struct submit_outcome *out, struct err *err)
{
	struct store_conn *c;
	int rc;

	if ((rc = store_read_begin(s, &c, err)) < 0)
		return rc;
	rc = submit_work(c, rq, p, out, err);
	store_read_release(c);
	return rc;
}

/* A submission whose write waits for its commit and sync (submit_start). */
struct submit_pending {
	struct store *s;
	struct submit_job j;
	struct prepared p;    /* when j.p is set: the answer is p.res, else j.result */
	struct submit_outcome out;
	int rc;               /* the write's outcome, set before done is called */
	struct err err;
	submit_done_fn done;
	void *arg;
};

static void pending_stored(void *arg, int rc, const struct err *e)
{
	struct submit_pending *pp = arg;

	pp->rc = rc;
	if (rc < 0 && e)
		pp->err = *e;
	pp->done(pp->arg);
}

static void pending_free(struct submit_pending *pp)
{
	json_decref(pp->j.result);
	prepared_release(&pp->p);
	free(pp);
}

int submit_start(struct store *s, const struct submit_request *rq, submit_done_fn done, void *arg,
		      struct submit_pending **pending, struct submit_outcome *out, struct err *err)
{
	struct submit_pending *pp = calloc(1, sizeof(*pp));
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
	if (!rq->idem_key && rq->nlines >= 1 && rq->nlines <= SUBMIT_MAX_LINES) {
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

int submit_finish(struct submit_pending *pp, json_t **result, struct submit_outcome *out, struct err *err)
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

int submit_steps(struct store *s, const struct submit_request *rq, json_t **result, struct submit_outcome *out,
		struct err *err)
{
	struct submit_pending *pp;
	sem_t done;
	int rc;

	*result = NULL;
	sem_init(&done, 0, 0);
	if ((rc = submit_start(s, rq, post_done, &done, &pp, out, err)) == 0) {
		while (sem_wait(&done) < 0)
			;
		rc = submit_finish(pp, result, out, err);
	}
	sem_destroy(&done);
	return rc;
}

int submit_rollback_in_tx(struct store_conn *c, int64_t game_id, int to, const char *client, int64_t at,
			  const char *reason, int notify, int *before, int *after, struct err *err)
{
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	struct store_move target = {0}, row = {0};
	struct engine_game eg = {0};
	struct game_pending p;
	const struct game_ops *ops;
	json_t *final = NULL;
	char *final_text = NULL, text[48];
	int nseats = 0, rc;

	if ((rc = store_game_get(c, game_id, &g, err)) < 0)
		goto done;
	if (!(ops = engine_ops_find(g.game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	if (strcmp(g.status, "aborted") == 0) {
		rc = err_set(err, ERR_CONFLICT, "game %lld was aborted: it cannot be rolled back", (long long)game_id);
		goto done;
	}
	if (to < 0 || to >= g.move_count) {
		rc = g.move_count ? err_set(err, ERR_INPUT, "roll back to an earlier step: 0 (the set-up) to %d, not %d",
					    g.move_count - 1, to)
				  : err_set(err, ERR_INPUT, "game %lld has no steps to roll back", (long long)game_id);
		goto done;
	}
	if ((rc = store_move_get(c, game_id, to, &target, err)) < 0)
		goto done;
	if ((rc = engine_game_decode(ops, target.snapshot, &eg, err)) < 0)
		goto done;
	engine_game_pending(&eg, &p);
	final = ops->result(eg.state);
	final_text = final ? json_dumps(final, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	snprintf(text, sizeof(text), "rollback to %d", to);
	row.n = g.move_count + 1;
	row.kind = STORE_MOVE_ROLLBACK;
	row.target = to;
	row.seat = -1;
	row.text = text;
	snprintf(row.via, sizeof(row.via), "admin");
	row.client = (char *)client;
	row.at = at;
	/* like a step that revealed information: nobody can undo across a rollback */
	row.back = g.move_count;
	row.undo_seat = -1;
	row.snapshot = target.snapshot;
	if ((rc = store_move_append(c, game_id, &row, err)) < 0)
		goto done;
	if ((rc = store_game_update(c, game_id, row.n, final ? 0 : p.seats, final ? "finished" : "active", final_text,
				    at, err)) < 0)
		goto done;
	if ((rc = store_game_clock_step(c, game_id, final ? 0 : p.seats, at, err)) < 0)
		goto done;
	if (notify) {
		json_t *payload = json_pack("{s:i}", "to", to);
		char *ptext;
		if (reason)
			json_object_set_new(payload, "reason", json_string(reason));
		ptext = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(payload);
		if ((rc = store_seats_get(c, game_id, &seats, &nseats, err)) == 0)
			for (int i = 0; i < nseats && rc == 0; i++)
				if (seats[i].user_id)
					rc = store_outbox_add(c, "rollback", game_id, seats[i].seat, seats[i].user_id, ptext,
							      at, NULL, err);
		free(ptext);
		if (rc < 0)
			goto done;
	}
	if (before)
		*before = g.move_count;
	if (after)
		*after = row.n;
	rc = 0;
done:
	json_decref(final);
	free(final_text);
	engine_game_release(&eg);
	store_move_release(&target);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}
