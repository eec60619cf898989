/* engine/views.c: games as people see them: lists, one game for a seat, legal steps, the steps so far */
/* SPDX-License-Identifier: MIT */
#include "engine/views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cache.h"
#include "engine/engine.h"
#include "util/clock.h"
#include "util/banned.h"

int views_game_ids(struct store *s, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err)
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

int views_games_open(struct store *s, int64_t user_id, int limit, int64_t **ids, int *n, struct err *err)
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

int views_move_count(struct store *s, int64_t id, int *move_count, struct err *err)
{
	struct store_conn *c;
	struct store_game g;
	int rc;

	*move_count = 0;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_get(c, id, &g, err);
	store_read_release(c);
	if (rc == 0)
		*move_count = g.move_count;
	store_game_release(&g);
	return rc;
}

int views_game_info(struct store *s, int64_t id, struct store_game *g, struct store_seat **seats, int *nseats,
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
		views_game_info_release(g, *seats, *nseats);
		*seats = NULL;
		*nseats = 0;
	}
	return rc;
}

void views_game_info_release(struct store_game *g, struct store_seat *seats, int nseats)
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
	if (!(ops = engine_ops_find(g->game, err))) {
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

int views_game_json(struct store *s, int64_t id, int viewer_seat, int with_emails, json_t **out,
		   struct err *err)
{
	return views_game_json_at(s, id, viewer_seat, with_emails, 1, out, NULL, err);
}

int views_view_json(const struct engine_game *eg, int viewer_seat, const json_t *seats, json_t **out, struct err *err)
{
	const char *names[GAME_MAX_SEATS];
	int rc;

	*out = NULL;
	if ((rc = eg->ops->view(eg->state, viewer_seat, out, err)) < 0)
		return rc;
	engine_names_json(seats, names);
	engine_names_view(*out, names);
	return 0;
}

int views_now_load(struct store *s, int64_t id, struct views_now *now, struct err *err)
{
	int rc;

	memset(now, 0, sizeof(*now));
	now->undo_seat = -1;
	if ((rc = load_current(s, id, &now->g, &now->seats, &now->nseats, &now->dropped, &now->pos, &now->undo_seat,
			       err)) < 0)
		views_now_release(now);
	return rc;
}

void views_now_release(struct views_now *now)
{
	cache_pos_release(now->pos);
	store_seats_free(now->seats, now->nseats);
	store_game_release(&now->g);
	memset(now, 0, sizeof(*now));
}

int views_now_json(const struct views_now *now, int viewer_seat, int with_emails, int with_view, json_t **out,
		   struct err *err)
{
	const struct store_game *gp = &now->g;
	const struct store_seat *seats = now->seats;
	const struct engine_game *eg = cache_pos_game(now->pos);
	struct game_pending p;
	json_t *o = NULL, *sa, *view = NULL;
	int nseats = now->nseats, undo_seat = now->undo_seat, rc;
	unsigned dropped = now->dropped;

	*out = NULL;
	if (with_view && (rc = eg->ops->view(eg->state, viewer_seat, &view, err)) < 0)
		return rc;
	engine_game_pending(eg, &p);
	o = json_object();
	json_object_set_new(o, "id", json_integer(gp->id));
	json_object_set_new(o, "game", json_string(gp->game));
	json_object_set_new(o, "title", json_string(eg->ops->title));
	json_object_set_new(o, "status", json_string(gp->status));
	json_object_set_new(o, "move_count", json_integer(gp->move_count));
	json_object_set_new(o, "active_seats", engine_seats_json(strcmp(gp->status, "active") ? 0 : p.seats));
	{
		const char *names[GAME_MAX_SEATS] = {0};
		for (int i = 0; i < nseats; i++)
			if (seats[i].seat >= 0 && seats[i].seat < GAME_MAX_SEATS)
				names[seats[i].seat] = seats[i].name;
		json_object_set_new(o, "pending", engine_pending_json(&p, names));
		if (view)
			engine_names_view(view, names);
		if (gp->result) {
			json_t *res = json_loads(gp->result, 0, NULL);
			engine_names_key(res, "tiebreak", names);
			json_object_set_new(o, "result", res ? res : json_null());
		} else {
			json_object_set_new(o, "result", json_null());
		}
	}
	/* the seat that may undo now: none once the turn passed to others (engine/submit.c) */
	if (undo_seat >= 0 && !(p.seats & (1u << undo_seat)))
		undo_seat = -1;
	json_object_set_new(o, "undo_seat", json_integer(strcmp(gp->status, "active") ? -1 : undo_seat));
	sa = json_array();
	for (int i = 0; i < nseats; i++) {
		json_t *so = json_object();
		json_object_set_new(so, "seat", json_integer(seats[i].seat));
		json_object_set_new(so, "name", json_string(seats[i].name));
		/* nobody may join a dropped player's seat: the bot plays it */
		json_object_set_new(so, "open", json_boolean(!seats[i].user_id && !((dropped >> seats[i].seat) & 1u)));
		if ((dropped >> seats[i].seat) & 1u)
			json_object_set_new(so, "bot", json_true());
		if (seats[i].email && (with_emails == VIEWS_EMAILS_ALL ||
				       (with_emails == VIEWS_EMAILS_IF_SHARED && gp->players_see_emails)))
			json_object_set_new(so, "email", json_string(seats[i].email));
		json_array_append_new(sa, so);
	}
	json_object_set_new(o, "seats", sa);
	json_object_set_new(o, "players_see_emails", json_boolean(gp->players_see_emails));
	if (viewer_seat >= 0)
		json_object_set_new(o, "you", json_integer(viewer_seat));
	if (view)
		json_object_set_new(o, "view", view);
	json_object_set_new(o, "created_at", json_integer(gp->created_at));
	json_object_set_new(o, "updated_at", json_integer(gp->updated_at));
	*out = o;
	return 0;
}

int views_game_json_at(struct store *s, int64_t id, int viewer_seat, int with_emails, int with_view, json_t **out,
		       struct cache_pos **at, struct err *err)
{
	struct views_now now;
	int rc;

	*out = NULL;
	if ((rc = views_now_load(s, id, &now, err)) < 0)
		return rc;
	if ((rc = views_now_json(&now, viewer_seat, with_emails, with_view, out, err)) == 0 && at) {
		*at = now.pos;
		now.pos = NULL;
	}
	views_now_release(&now);
	return rc;
}

int views_legal_json(struct store *s, int64_t id, int seat, json_t **out, struct err *err)
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

json_t *views_moves_array(const struct store_move *moves, int n, int with_client)
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

int views_moves_json(struct store *s, int64_t id, json_t **out, struct err *err)
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
	json_object_set_new(*out, "moves", views_moves_array(moves, n, 0));
	store_moves_free(moves, n);
	return 0;
}
