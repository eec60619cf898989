/* engine/engine.c: a decoded game (ops, state, RNG) and its snapshot format */
/* SPDX-License-Identifier: MIT */
#include "engine/engine.h"

#include <stdio.h>
#include <inttypes.h>
#include <ctype.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/registry.h"
#include "util/banned.h"

int engine_game_setup(const struct game_ops *ops, const json_t *options, int nplayers, uint64_t seed,
		      struct engine_game *out, struct err *err)
{
	json_t *empty = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (nplayers < ops->min_players || nplayers > ops->max_players)
		return err_set(err, ERR_INPUT, "%s is for %d to %d players, not %d", ops->title,
			       ops->min_players, ops->max_players, nplayers);
	if (!options)
		options = empty = json_object();
	if (!json_is_object(options)) {
		json_decref(empty);
		return err_set(err, ERR_INPUT, "options must be a JSON object");
	}
	out->ops = ops;
	out->nplayers = nplayers;
	rng_seed(&out->rng, seed);
	rc = ops->setup(options, nplayers, &out->rng, &out->state, err);
	json_decref(empty);
	if (rc < 0)
		memset(out, 0, sizeof(*out));
	return rc < 0 ? rc : 0;
}

int engine_game_decode(const struct game_ops *ops, const char *snapshot, struct engine_game *out,
		       struct err *err)
{
	json_error_t jerr;
	json_t *root = NULL, *st, *rng;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	root = json_loads(snapshot, 0, &jerr);
	if (!root) {
		rc = err_set(err, ERR_INTERNAL, "snapshot is not JSON: %s", jerr.text);
		goto done;
	}
	rng = json_object_get(root, "rng");
	st = json_object_get(root, "state");
	if (!json_is_string(rng) || !st || rng_decode(&out->rng, json_string_value(rng)) < 0) {
		rc = err_set(err, ERR_INTERNAL, "snapshot lacks a valid rng or state");
		goto done;
	}
	out->ops = ops;
	if ((rc = ops->decode(st, &out->state, err)) < 0) {
		out->ops = NULL;
		goto done;
	}
	out->nplayers = (int)json_integer_value(json_object_get(root, "players"));
	rc = 0;
done:
	json_decref(root);
	return rc;
}

int engine_game_encode(const struct engine_game *g, char **snapshot, struct err *err)
{
	json_t *root = NULL, *st = NULL;
	char rng[96];
	int rc;

	*snapshot = NULL;
	if ((rc = g->ops->encode(g->state, &st, err)) < 0)
		return rc;
	rng_encode(&g->rng, rng);
	root = json_object();
	json_object_set_new(root, "players", json_integer(g->nplayers));
	json_object_set_new(root, "rng", json_string(rng));
	json_object_set_new(root, "state", st);
	*snapshot = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(root);
	if (!*snapshot)
		return err_set(err, ERR_NOMEM, "cannot encode snapshot");
	return 0;
}

void engine_game_release(struct engine_game *g)
{
	if (!g)
		return;
	if (g->ops && g->state)
		g->ops->state_free(g->state);
	memset(g, 0, sizeof(*g));
}

int engine_game_step(struct engine_game *g, int seat, const char *line, struct buf *canonical,
		     int *revealed, struct err *err)
{
	void *move = NULL;
	uint64_t draws = g->rng.draws;
	size_t mark = canonical->len;
	int rc;

	*revealed = 0;
	if ((rc = g->ops->parse(g->state, seat, line, &move, err)) < 0)
		return rc;
	/* format before apply: the canonical text describes the move in the position it was made in */
	if ((rc = g->ops->format(g->state, move, canonical, err)) < 0)
		goto done;
	rc = g->ops->apply(g->state, seat, move, &g->rng, err);
	if (rc < 0) {
		buf_setlen(canonical, mark);
		goto done;
	}
	*revealed = (rc & GAME_APPLY_REVEAL) || g->rng.draws != draws;
	rc = 0;
done:
	if (move)
		g->ops->move_free(move);
	return rc;
}

void engine_game_pending(const struct engine_game *g, struct game_pending *out)
{
	memset(out, 0, sizeof(*out));
	if (g->ops->pending(g->state, out) < 0)
		memset(out, 0, sizeof(*out));
}

int engine_line_is_undo(const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	if (strncasecmp(line, "undo", 4) != 0)
		return 0;
	line += 4;
	while (isspace((unsigned char)*line))
		line++;
	return *line == '\0';
}

uint64_t engine_new_seed(void)
{
	uint64_t seed;

	randombytes_buf(&seed, sizeof(seed));
	return seed;
}

int engine_snapshot_equal(const char *a, const char *b)
{
	json_t *ja, *jb;
	int eq;

	if (!a || !b)
		return 0;
	if (strcmp(a, b) == 0)
		return 1;
	ja = json_loads(a, 0, NULL);
	jb = json_loads(b, 0, NULL);
	eq = ja && jb && json_equal(ja, jb);
	json_decref(ja);
	json_decref(jb);
	return eq;
}

json_t *engine_seats_json(unsigned mask)
{
	json_t *a = json_array();

	for (int i = 0; i < GAME_MAX_SEATS; i++)
		if (mask & (1u << i))
			json_array_append_new(a, json_integer(i));
	return a;
}

json_t *engine_pending_json(const struct game_pending *p, const char *const *names)
{
	json_t *o = json_object();
	struct buf b = BUF_INIT;

	engine_names_fill(&b, p->prompt, names);
	json_object_set_new(o, "seats", engine_seats_json(p->seats));
	json_object_set_new(o, "kind", json_string(p->kind));
	json_object_set_new(o, "prompt", json_string(b.data));
	json_object_set_new(o, "offturn", engine_seats_json(p->seats & p->offturn));
	buf_release(&b);
	return o;
}

void engine_names_fill(struct buf *out, const char *text, const char *const *names)
{
	const char *mark;

	if (!text)
		return;
	while ((mark = strchr(text, GAME_NAME_MARK))) {
		int n = mark[1] - '0';
		buf_add(out, text, (size_t)(mark - text));
		if (n < 0 || n >= GAME_MAX_SEATS) {
			buf_addc(out, GAME_NAME_MARK);
			text = mark + 1;
			continue;
		}
		if (names && names[n] && *names[n])
			buf_adds(out, names[n]);
		else
			buf_addf(out, "Player %d", n + 1);
		text = mark + 2;
	}
	buf_adds(out, text);
}

char *engine_names_text(const char *text, const char *const *names)
{
	struct buf b = BUF_INIT;

	engine_names_fill(&b, text, names);
	return buf_detach(&b, NULL);
}

void engine_names_err(struct err *err, const char *const *names)
{
	struct buf b = BUF_INIT;

	if (!err || !strchr(err->msg, GAME_NAME_MARK))
		return;
	engine_names_fill(&b, err->msg, names);
	snprintf(err->msg, sizeof(err->msg), "%s", b.data);
	buf_release(&b);
}

void engine_names_json(const json_t *seats, const char *names[GAME_MAX_SEATS])
{
	const json_t *s;
	size_t i;

	for (int k = 0; k < GAME_MAX_SEATS; k++)
		names[k] = NULL;
	json_array_foreach(seats, i, s) {
		json_int_t n = json_integer_value(json_object_get(s, "seat"));
		if (n >= 0 && n < GAME_MAX_SEATS)
			names[n] = json_string_value(json_object_get(s, "name"));
	}
}

void engine_names_key(json_t *obj, const char *key, const char *const *names)
{
	const char *t = json_string_value(json_object_get(obj, key));
	char *filled;

	if (!t || !strchr(t, GAME_NAME_MARK))
		return;
	if ((filled = engine_names_text(t, names)))
		json_object_set_new(obj, key, json_string(filled));
	free(filled);
}

const struct game_ops *engine_ops_find(const char *id, struct err *err)
{
	const struct game_ops *ops = registry_find(id);

	if (!ops)
		err_set(err, ERR_NOTFOUND, "no game called \"%s\" is hosted here", id ? id : "");
	return ops;
}

char *engine_seed_text(uint64_t seed)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, seed);
	return strdup(buf);
}

int engine_seed_parse(const char *text, uint64_t *seed)
{
	char *end;

	*seed = 0;
	if (!text || !*text)
		return ERR_INPUT;
	*seed = strtoull(text, &end, 10);
	if (*end) {
		*seed = 0;
		return ERR_INPUT;
	}
	return 0;
}

void engine_names_view(json_t *view, const char *const *names)
{
	engine_names_key(view, "prompt", names);
	engine_names_key(json_object_get(view, "pending"), "prompt", names);
}
