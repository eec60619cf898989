/* engine/taps.c: a step built by taps on the board: what can be tapped next, and the step once complete */
/* SPDX-License-Identifier: MIT */
#include "engine/taps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cache.h"
#include "engine/engine.h"
#include "util/banned.h"

static int part_ok(const char *p)
{
	if (!*p)
		return 0;
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return 0;
	return 1;
}

void taps_steps_release(struct taps_steps *s)
{
	for (int i = 0; s && i < s->n; i++)
		free(s->steps[i].text);
	if (s) {
		free(s->steps);
		s->steps = NULL;
		s->n = 0;
	}
}

int taps_steps_cut(const struct game_ops *ops, const void *state, int seat, const json_t *legal,
		   struct taps_steps *out, struct err *err)
{
	size_t i, n = json_array_size(legal);
	json_t *v;
	int rc = 0;

	out->steps = NULL;
	out->n = 0;
	if (!ops->picks)
		return err_set(err, ERR_NOTFOUND, "%s is not played by taps on the board", ops->title);
	if (n && !(out->steps = calloc(n, sizeof(*out->steps))))
		return err_set(err, ERR_NOMEM, "out of memory");
	json_array_foreach(legal, i, v) {
		struct taps_step *st = &out->steps[out->n];
		const char *text = json_string_value(v);
		void *move = NULL;
		struct err e = {0};

		if (!text || ops->parse(state, seat, text, &move, &e) < 0) {
			rc = err_set(err, ERR_INTERNAL, "the legal step '%s' does not parse: %s", text ? text : "?", e.msg);
			goto done;
		}
		memset(st->picks, 0, sizeof(st->picks));
		st->npicks = ops->picks(state, seat, move, st->picks, GAME_MAX_PICKS, &e);
		ops->move_free(move);
		if (st->npicks < 1 || st->npicks > GAME_MAX_PICKS) {
			rc = err_set(err, ERR_INTERNAL, "no taps build the legal step '%s': %s", text, e.msg);
			goto done;
		}
		for (int k = 0; k < st->npicks; k++) {
			if (!part_ok(st->picks[k].part)) {
				rc = err_set(err, ERR_INTERNAL, "the step '%s' has a bad board part '%s'", text,
					     st->picks[k].part);
				goto done;
			}
		}
		if (!(st->text = strdup(text))) {
			rc = err_set(err, ERR_NOMEM, "out of memory");
			goto done;
		}
		out->n++;
	}
done:
	if (rc < 0)
		taps_steps_release(out);
	return rc;
}

static int starts_with(const struct taps_step *st, const char *const *chosen, int nchosen)
{
	if (st->npicks < nchosen)
		return 0;
	for (int k = 0; k < nchosen; k++)
		if (strcmp(st->picks[k].part, chosen[k]) != 0)
			return 0;
	return 1;
}

int taps_offer_find(const struct taps_steps *steps, const char *const *chosen, int nchosen, struct taps_offer *out)
{
	int cap = (int)(sizeof(out->next) / sizeof(out->next[0]));

	memset(out, 0, sizeof(*out));
	out->nchosen = nchosen;
	for (int i = 0; i < steps->n; i++) {
		const struct taps_step *st = &steps->steps[i];
		const struct game_pick *p;
		int seen = 0;

		if (!starts_with(st, chosen, nchosen))
			continue;
		if (!out->match)
			out->match = st;
		if (st->npicks == nchosen) {
			/* two steps with the same picks would be one choice: the first is kept, the invariant test fails */
			if (!out->complete)
				out->complete = st;
			continue;
		}
		p = &st->picks[nchosen];
		for (int k = 0; k < out->nnext && !seen; k++)
			seen = !strcmp(out->next[k].part, p->part);
		if (seen)
			continue;
		if (out->nnext == cap) {
			out->truncated = 1;
			continue;
		}
		out->next[out->nnext++] = *p;
	}
	if (!out->match) {
		out->nchosen = 0;
		return ERR_NOTFOUND;
	}
	return 0;
}

int taps_split(const char *chosen, char *buf, size_t size, const char **parts, int max)
{
	size_t len = chosen ? strlen(chosen) : 0;
	int n = 0;

	if (!len)
		return 0;
	if (len + 1 > size)
		return ERR_INPUT;
	memcpy(buf, chosen, len + 1);
	for (char *p = buf; p;) {
		char *sep = strchr(p, TAPS_SEP);

		if (sep)
			*sep++ = '\0';
		if (n == max || !part_ok(p))
			return ERR_INPUT;
		parts[n++] = p;
		p = sep;
	}
	return n;
}

static json_t *pick_json(const struct game_pick *p)
{
	return json_pack("{s:s,s:s,s:s}", "part", p->part, "label", p->label, "cost", p->cost);
}

/* The chosen parts joined, then extra (may be NULL). */
static void join_path(struct buf *b, const char *const *parts, int n, const char *extra)
{
	for (int k = 0; k < n; k++)
		buf_addf(b, "%s%s", k ? "." : "", parts[k]);
	if (extra)
		buf_addf(b, "%s%s", n ? "." : "", extra);
}

/* The offer as JSON (see taps_game_json). */
static json_t *offer_json(const struct taps_offer *o, const char *const *chosen, int nchosen, int reset)
{
	json_t *j = json_object(), *next = json_array(), *ch = json_array();
	struct buf b = BUF_INIT;

	join_path(&b, chosen, nchosen, NULL);
	json_object_set_new(j, "picks", json_true());
	json_object_set_new(j, "path", json_string(b.data));
	for (int k = 0; k < nchosen && o->match; k++)
		json_array_append_new(ch, pick_json(&o->match->picks[k]));
	for (int k = 0; k < o->nnext; k++) {
		json_t *p = pick_json(&o->next[k]);

		buf_reset(&b);
		join_path(&b, chosen, nchosen, o->next[k].part);
		json_object_set_new(p, "path", json_string(b.data));
		json_array_append_new(next, p);
	}
	json_object_set_new(j, "chosen", ch);
	json_object_set_new(j, "next", next);
	if (o->complete) {
		const struct game_pick *last = &o->complete->picks[o->complete->npicks - 1];

		json_object_set_new(j, "complete", json_pack("{s:s,s:s,s:s}", "text", o->complete->text, "label",
							     last->label, "cost", last->cost));
	} else {
		json_object_set_new(j, "complete", json_null());
	}
	json_object_set_new(j, "reset", json_boolean(reset));
	buf_release(&b);
	return j;
}

int taps_position_json(const struct engine_game *eg, int active, int move_count, int seat, const char *chosen,
		       json_t **out, struct err *err)
{
	const struct game_ops *ops = eg->ops;
	struct taps_steps steps = {0};
	struct taps_offer *offer = NULL;
	const char *parts[TAPS_MAX_CHOSEN];
	char buf[TAPS_MAX_CHOSEN * 48 + 16];
	json_t *legal = NULL, *o = NULL;
	int rc = 0, n, reset = 0;

	*out = NULL;
	if (!active || seat < 0) {
		legal = json_array();
	} else if ((rc = ops->legal(eg->state, seat, &legal, err)) < 0) {
		goto done;
	}
	o = json_object();
	json_object_set_new(o, "move_count", json_integer(move_count));
	json_object_set_new(o, "legal", json_incref(legal));
	if (!ops->picks || !json_array_size(legal)) {
		json_object_set_new(o, "picks", json_false());
		json_object_set_new(o, "next", json_array());
		goto finish;
	}
	if ((rc = taps_steps_cut(ops, eg->state, seat, legal, &steps, err)) < 0)
		goto done;
	if (!(offer = malloc(sizeof(*offer)))) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	n = taps_split(chosen, buf, sizeof(buf), parts, TAPS_MAX_CHOSEN);
	if (n < 0 || taps_offer_find(&steps, parts, n, offer) < 0) {
		reset = n != 0;
		n = 0;
		taps_offer_find(&steps, parts, 0, offer);
	}
	json_decref(o);
	o = offer_json(offer, parts, n, reset);
	json_object_set_new(o, "move_count", json_integer(move_count));
	json_object_set_new(o, "legal", json_incref(legal));
finish:
	*out = o;
	o = NULL;
done:
	free(offer);
	taps_steps_release(&steps);
	json_decref(legal);
	json_decref(o);
	return rc;
}

int taps_game_json(struct store *s, int64_t id, int seat, const char *chosen, json_t **out, struct err *err)
{
	struct store_conn *c = NULL;
	struct store_game g = {0};
	struct store_move head = {0};
	struct cache_pos *pos = NULL;
	const struct game_ops *ops;
	int rc;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_head(c, id, &g, &head, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	if (!(ops = engine_ops_find(g.game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	if ((rc = cache_pos_load(ops, id, head.snapshot, &pos, err)) < 0)
		goto done;
	rc = taps_position_json(cache_pos_game(pos), strcmp(g.status, "active") == 0, g.move_count, seat, chosen, out,
				err);
done:
	cache_pos_release(pos);
	store_move_release(&head);
	store_game_release(&g);
	return rc;
}
