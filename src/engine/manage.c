/* engine/manage.c: the admin console's reads and actions on stored games (rollback, seats, clocks, audit) */
/* SPDX-License-Identifier: MIT */
#include "engine/manage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/outbox.h"
#include "engine/replay.h"
#include "engine/submit.h"
#include "engine/views.h"
#include "engine/registry.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

#define DAY_MS (24LL * 3600 * 1000)
#define DORMANT_TURN_MS (365 * DAY_MS)
#define EXTEND_MIN_MS (60LL * 1000)
#define EXTEND_MAX_MS (366 * DAY_MS)
#define CHAT_MAX 1000
#define DIFF_MAX 500



/* The seat row of a game, or NULL. */
static const struct store_seat *seat_of(const struct store_seat *seats, int n, int seat)
{
	for (int i = 0; i < n; i++)
		if (seats[i].seat == seat)
			return &seats[i];
	return NULL;
}

/* Queue event for every seat with a player but skip_seat (-1: none), with the payload {"reason":...}. */
static int tell_players(struct store_conn *c, const char *event, int64_t game_id, const struct store_seat *seats,
			int nseats, int skip_seat, const char *reason, int64_t now, struct err *err)
{
	json_t *payload = json_object();
	char *text;
	int rc = 0;

	if (reason)
		json_object_set_new(payload, "reason", json_string(reason));
	text = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(payload);
	for (int i = 0; i < nseats && rc == 0; i++)
		if (seats[i].user_id && seats[i].seat != skip_seat)
			rc = store_outbox_add(c, event, game_id, seats[i].seat, seats[i].user_id, text, now, NULL, err);
	free(text);
	return rc;
}


/* Begin an action: check the reason, take the writer. */
static int begin(struct store *s, const struct actor *a, struct store_conn **c, struct err *err)
{
	int rc;

	if ((rc = actor_check(a, err)) < 0)
		return rc;
	return store_write_begin(s, c, err);
}

/* End an action: commit when rc is 0, else roll back; returns the outcome. */
static int finish(struct store_conn *c, int rc, struct err *err)
{
	if (rc < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

static void give(json_t **out, json_t *v, int rc)
{
	if (out && rc == 0)
		*out = v;
	else
		json_decref(v);
}

int manage_rollback(struct store *s, const struct actor *a, int64_t game_id, int to, json_t **out,
			struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	int64_t now = clock_now_ms();
	int before = -1, after = -1, rc;
	json_t *res = NULL;

	if (out)
		*out = NULL;
	if ((rc = begin(s, a, &c, err)) < 0)
		return rc;
	rc = submit_rollback_in_tx(c, game_id, to, a->client, now, a->reason, 1, &before, &after, err);
	if (rc == 0)
		rc = actor_audit(c, a, "rollback", game_id, before, after, json_pack("{s:i}", "to", to), now, err);
	if (rc == 0 && (rc = store_game_get(c, game_id, &g, err)) == 0)
		res = json_pack("{s:I,s:s,s:i,s:i,s:i,s:s,s:o}", "game", (json_int_t)game_id, "action", "rollback", "to",
				to, "move_count_before", before, "move_count_after", after, "status", g.status,
				"active_seats", engine_seats_json(g.active_seats));
	store_game_release(&g);
	rc = finish(c, rc, err);
	give(out, res, rc);
	return rc;
}

/* The game row and seats of an active game inside a transaction. */
static int load_active(struct store_conn *c, int64_t game_id, int need_active, struct store_game *g,
		       struct store_seat **seats, int *nseats, struct err *err)
{
	int rc;

	*seats = NULL;
	*nseats = 0;
	if ((rc = store_game_get(c, game_id, g, err)) < 0)
		return rc;
	if (need_active && strcmp(g->status, "active") != 0)
		return err_set(err, ERR_CONFLICT, "game %lld is %s, not active", (long long)game_id, g->status);
	return store_seats_get(c, game_id, seats, nseats, err);
}

int manage_seat_replace(struct store *s, const struct actor *a, int64_t game_id, int seat,
			    const char *name, const char *email, json_t **out, struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	const struct store_seat *old;
	struct store_user u = {0};
	char tok[TOKEN_TEXT_MAX] = "", newname[96];
	unsigned char hash[32];
	int64_t now = clock_now_ms(), user_id = 0;
	int nseats = 0, revoked = 0, rc;
	json_t *res = NULL, *detail;

	if (out)
		*out = NULL;
	if (email && !*email)
		email = NULL;
	if (name && !*name)
		name = NULL;
	if ((rc = begin(s, a, &c, err)) < 0)
		return rc;
	if ((rc = load_active(c, game_id, 0, &g, &seats, &nseats, err)) < 0)
		goto done;
	if (strcmp(g.status, "aborted") == 0) {
		rc = err_set(err, ERR_CONFLICT, "game %lld was aborted", (long long)game_id);
		goto done;
	}
	if (!(old = seat_of(seats, nseats, seat))) {
		rc = err_set(err, ERR_NOTFOUND, "game %lld has no seat %d", (long long)game_id, seat);
		goto done;
	}
	if (email) {
		rc = store_user_by_email(c, email, &u, err);
		if (rc == ERR_NOTFOUND) {
			err_clear(err);
			rc = store_user_ensure(c, email, name ? name : old->name, &user_id, err);
		} else if (rc == 0) {
			user_id = u.id;
			if (!name)
				name = u.name;
		}
		if (rc < 0)
			goto done;
	}
	snprintf(newname, sizeof(newname), "%s", name ? name : old->name);
	if ((rc = store_seat_set(c, game_id, seat, user_id, newname, email, err)) < 0)
		goto done;
	if ((rc = store_token_revoke_seat(c, game_id, seat, now, &revoked, err)) < 0)
		goto done;
	token_new(tok, hash);
	if ((rc = store_token_add(c, hash, TOKEN_SEAT, user_id, game_id, seat, "seat", 0, NULL, err)) < 0)
		goto done;
	/* a seat the bot played is a person's again */
	rc = store_game_clock_flag(c, game_id, seat, -1, -1, 0, now, err);
	if (rc == ERR_NOTFOUND) {
		err_clear(err);
		rc = 0;
	}
	if (rc < 0)
		goto done;
	if (user_id && strcmp(g.status, "active") == 0 &&
	    (rc = store_outbox_add(c, "invite", game_id, seat, user_id, NULL, now, NULL, err)) < 0)
		goto done;
	detail = json_pack("{s:i,s:{s:s,s:s?,s:I},s:{s:s,s:s?,s:I},s:i}", "seat", seat, "old", "name", old->name,
			   "email", old->email, "user", (json_int_t)old->user_id, "new", "name", newname, "email", email,
			   "user", (json_int_t)user_id, "tokens_revoked", revoked);
	if ((rc = actor_audit(c, a, "seat_replace", game_id, g.move_count, g.move_count, detail, now, err)) < 0)
		goto done;
	res = json_pack("{s:I,s:s,s:i,s:s,s:s?,s:s,s:i}", "game", (json_int_t)game_id, "action", "seat_replace", "seat",
			seat, "name", newname, "email", email, "token", tok, "tokens_revoked", revoked);
done:
	rc = finish(c, rc, err);
	give(out, res, rc);
	memset(tok, 0, sizeof(tok));
	store_user_release(&u);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

int manage_drop(struct store *s, const struct actor *a, int64_t game_id, int seat, json_t **out,
		    struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	const struct store_seat *old;
	const struct game_ops *ops;
	struct store_game_clock k;
	char botname[96];
	int64_t now = clock_now_ms();
	int nseats = 0, revoked = 0, rc;
	const char *outcome;
	json_t *res = NULL, *detail;

	if (out)
		*out = NULL;
	if ((rc = begin(s, a, &c, err)) < 0)
		return rc;
	if ((rc = load_active(c, game_id, 1, &g, &seats, &nseats, err)) < 0)
		goto done;
	if (!(old = seat_of(seats, nseats, seat))) {
		rc = err_set(err, ERR_NOTFOUND, "game %lld has no seat %d", (long long)game_id, seat);
		goto done;
	}
	if (!(ops = engine_ops_find(g.game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	if (!ops->bot) {
		/* nobody can play the seat: the game cannot go on */
		outcome = "aborted";
		if ((rc = store_game_update(c, game_id, g.move_count, 0, "aborted", NULL, now, err)) < 0 ||
		    (rc = store_game_clock_step(c, game_id, 0, now, err)) < 0)
			goto done;
		/* the others hear that the game ended */
		if ((rc = tell_players(c, "abort", game_id, seats, nseats, seat, a->reason, now, err)) < 0)
			goto done;
	} else {
		outcome = "bot";
		rc = store_game_clock_get(c, game_id, &k, err);
		if (rc == ERR_NOTFOUND) {
			/* the notifier's deadlines drive the bot: a dormant clock that only the dropped seat runs out */
			struct store_game_clock dormant = { .mode = "per_turn", .turn_ms = DORMANT_TURN_MS, .timeout = "notify",
						       .bot_level = GAME_BOT_STRONG };
			err_clear(err);
			rc = store_game_clock_create(c, game_id, &dormant, nseats, g.active_seats, now, err);
		}
		if (rc < 0)
			goto done;
		if ((rc = store_game_clock_flag(c, game_id, seat, -1, -1, 1, now, err)) < 0)
			goto done;
		snprintf(botname, sizeof(botname), "%.70s (bot)", old->name);
		if ((rc = store_seat_set(c, game_id, seat, 0, botname, NULL, err)) < 0)
			goto done;
		if ((rc = store_token_revoke_seat(c, game_id, seat, now, &revoked, err)) < 0)
			goto done;
	}
	/* the dropped player hears it once (their seat row no longer names them) */
	if (old->user_id) {
		json_t *payload = json_pack("{s:s,s:s}", "action", outcome, "name", old->name);
		char *text;
		json_object_set_new(payload, "reason", json_string(a->reason));
		text = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(payload);
		rc = store_outbox_add(c, "dropped", game_id, seat, old->user_id, text, now, NULL, err);
		free(text);
		if (rc < 0)
			goto done;
	}
	detail = json_pack("{s:i,s:s,s:s,s:s?,s:I,s:i}", "seat", seat, "outcome", outcome, "name", old->name, "email",
			   old->email, "user", (json_int_t)old->user_id, "tokens_revoked", revoked);
	if ((rc = actor_audit(c, a, "drop", game_id, g.move_count, g.move_count, detail, now, err)) < 0)
		goto done;
	res = json_pack("{s:I,s:s,s:i,s:s}", "game", (json_int_t)game_id, "action", "drop", "seat", seat, "outcome",
			outcome);
done:
	rc = finish(c, rc, err);
	give(out, res, rc);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

int manage_extend(struct store *s, const struct actor *a, int64_t game_id, int seat, int64_t add_ms,
		      json_t **out, struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	int64_t now = clock_now_ms(), deadline = 0;
	int nseats = 0, rc;
	json_t *res = NULL;
	char when[32];

	if (out)
		*out = NULL;
	if (add_ms < EXTEND_MIN_MS || add_ms > EXTEND_MAX_MS)
		return err_set(err, ERR_INPUT, "extend a deadline by 1 minute to 366 days");
	if ((rc = begin(s, a, &c, err)) < 0)
		return rc;
	if ((rc = load_active(c, game_id, 1, &g, &seats, &nseats, err)) < 0)
		goto done;
	if (!seat_of(seats, nseats, seat)) {
		rc = err_set(err, ERR_NOTFOUND, "game %lld has no seat %d", (long long)game_id, seat);
		goto done;
	}
	rc = store_game_clock_extend(c, game_id, seat, add_ms, now, &deadline, err);
	if (rc == ERR_NOTFOUND)
		rc = err_set(err, ERR_CONFLICT, "game %lld has no time control: there is no deadline to extend",
			     (long long)game_id);
	if (rc < 0)
		goto done;
	clock_format_utc(deadline, when);
	if ((rc = actor_audit(c, a, "extend_deadline", game_id, g.move_count, g.move_count,
			json_pack("{s:i,s:I,s:I}", "seat", seat, "added_ms", (json_int_t)add_ms, "deadline",
				  (json_int_t)deadline),
			now, err)) < 0)
		goto done;
	res = json_pack("{s:I,s:s,s:i,s:I,s:s}", "game", (json_int_t)game_id, "action", "extend_deadline", "seat", seat,
			"deadline", (json_int_t)deadline, "deadline_time", when);
done:
	rc = finish(c, rc, err);
	give(out, res, rc);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

int manage_abort(struct store *s, const struct actor *a, int64_t game_id, json_t **out,
		     struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	int64_t now = clock_now_ms();
	int nseats = 0, rc;
	json_t *res = NULL;

	if (out)
		*out = NULL;
	if ((rc = begin(s, a, &c, err)) < 0)
		return rc;
	if ((rc = load_active(c, game_id, 1, &g, &seats, &nseats, err)) < 0)
		goto done;
	if ((rc = store_game_update(c, game_id, g.move_count, 0, "aborted", NULL, now, err)) < 0)
		goto done;
	if ((rc = store_game_clock_step(c, game_id, 0, now, err)) < 0)
		goto done;
	if ((rc = tell_players(c, "abort", game_id, seats, nseats, -1, a->reason, now, err)) < 0)
		goto done;
	if ((rc = actor_audit(c, a, "abort", game_id, g.move_count, g.move_count, NULL, now, err)) < 0)
		goto done;
	res = json_pack("{s:I,s:s,s:s}", "game", (json_int_t)game_id, "action", "abort", "status", "aborted");
done:
	rc = finish(c, rc, err);
	give(out, res, rc);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

int manage_import(struct store *s, const struct actor *a, const json_t *file, int notify, json_t **out,
		      struct err *err)
{
	struct store_conn *c;
	int64_t id = 0, now;
	int first_bad, count, rc;

	if (out)
		*out = NULL;
	if ((rc = actor_check(a, err)) < 0)
		return rc;
	if ((rc = replay_import(s, file, a->user_id, notify, &id, err)) < 0)
		return rc;
	if ((rc = replay_verify(s, id, &first_bad, err)) < 0)
		return rc;
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	now = clock_now_ms();
	count = actor_move_count(c, id);
	rc = actor_audit(c, a, "import", id, -1, count,
		   json_pack("{s:s?,s:O?,s:b}", "game", json_string_value(json_object_get(file, "game")), "seed",
			     json_object_get(file, "seed"), "notify", notify),
		   now, err);
	if ((rc = finish(c, rc, err)) < 0)
		return rc;
	if (out)
		*out = json_pack("{s:I,s:s,s:i,s:b}", "id", (json_int_t)id, "action", "import", "move_count", count,
				 "verified", 1);
	return 0;
}

int manage_verify(struct store *s, const struct actor *a, int64_t game_id, int *first_bad,
		      json_t **out, struct err *err)
{
	struct actor act = *a;
	struct store_conn *c;
	struct err we = {0};
	json_t *detail, *res;
	int64_t now;
	int count, vrc, rc;

	if (out)
		*out = NULL;
	*first_bad = -1;
	/* verify changes nothing: the reason may be left out */
	act.flags |= ACTOR_REASON_OPTIONAL;
	if ((rc = actor_check(&act, err)) < 0)
		return rc;
	vrc = replay_verify(s, game_id, first_bad, err);
	if (vrc < 0 && vrc != ERR_CONFLICT)
		return vrc; /* no such game, or the replay could not run: nothing was verified */
	detail = vrc == 0 ? json_pack("{s:b}", "ok", 1)
			  : json_pack("{s:b,s:i,s:s}", "ok", 0, "first_difference", *first_bad, "difference", err->msg);
	res = json_deep_copy(detail);
	json_object_set_new(res, "game", json_integer(game_id));
	if ((rc = store_write_begin(s, &c, &we)) < 0) {
		json_decref(detail);
		json_decref(res);
		*err = we;
		return rc;
	}
	now = clock_now_ms();
	count = actor_move_count(c, game_id);
	rc = actor_audit(c, &act, "verify", game_id, count, count, detail, now, &we);
	if ((rc = finish(c, rc, &we)) < 0) {
		json_decref(res);
		*err = we;
		return rc;
	}
	give(out, res, 0);
	return vrc;
}

/* ---- reads ---- */

static const char *game_title(const char *id)
{
	const struct game_ops *ops = registry_find(id);
	return ops ? ops->title : id;
}

int manage_games(struct store *s, const struct store_game_filter *f, json_t **out, struct err *err)
{
	struct store_conn *c;
	int64_t *ids = NULL;
	int n = 0, rc;
	json_t *list = json_array();

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0) {
		json_decref(list);
		return rc;
	}
	if ((rc = store_game_search(c, f, &ids, &n, err)) < 0)
		goto done;
	for (int i = 0; i < n; i++) {
		struct store_game g;
		struct store_seat *seats = NULL;
		int nseats = 0, dead = 0;
		json_t *sa;

		if ((rc = store_game_get(c, ids[i], &g, err)) < 0 ||
		    (rc = store_seats_get(c, ids[i], &seats, &nseats, err)) < 0 ||
		    (rc = store_outbox_dead_count(c, ids[i], &dead, err)) < 0) {
			store_game_release(&g);
			goto done;
		}
		sa = json_array();
		for (int k = 0; k < nseats; k++)
			json_array_append_new(sa, json_pack("{s:i,s:s,s:s?}", "seat", seats[k].seat, "name", seats[k].name,
							    "email", seats[k].email));
		json_array_append_new(list, json_pack("{s:I,s:s,s:s,s:s,s:i,s:o,s:o,s:i,s:I,s:I}", "id", (json_int_t)g.id,
						      "game", g.game, "title", game_title(g.game), "status", g.status,
						      "move_count", g.move_count, "active_seats",
						      engine_seats_json(strcmp(g.status, "active") ? 0 : g.active_seats), "seats",
						      sa, "dead", dead, "created_at", (json_int_t)g.created_at, "updated_at",
						      (json_int_t)g.updated_at));
		store_seats_free(seats, nseats);
		store_game_release(&g);
	}
	rc = 0;
done:
	store_read_release(c);
	free(ids);
	if (rc < 0)
		json_decref(list);
	else
		*out = list;
	return rc;
}

static json_t *token_json(const struct store_token_info *t)
{
	char when[32];
	json_t *o;

	clock_format_utc(t->created_at, when);
	o = json_pack("{s:I,s:s,s:s,s:s,s:b}", "id", (json_int_t)t->id, "kind", t->kind, "label", t->label, "created",
		      when, "live", !t->revoked_at);
	if (t->user_id)
		json_object_set_new(o, "user", json_integer(t->user_id));
	if (t->seat >= 0)
		json_object_set_new(o, "seat", json_integer(t->seat));
	if (t->revoked_at) {
		clock_format_utc(t->revoked_at, when);
		json_object_set_new(o, "revoked", json_string(when));
	}
	return o;
}

int manage_game(struct store *s, int64_t id, json_t **out, struct err *err)
{
	struct store_conn *c;
	struct store_seat *seats = NULL;
	struct store_seat_clock *clocks = NULL;
	struct store_token_info *tokens = NULL;
	struct store_outbox_row *rows = NULL;
	struct store_chat *chat = NULL;
	struct store_game_clock k = {0};
	json_t *g = NULL, *sa, *so, *notes = json_array(), *msgs = json_array();
	int nseats = 0, nclocks = 0, ntokens = 0, nrows = 0, nchat = 0, dead = 0, rc;
	size_t i;

	*out = NULL;
	if ((rc = views_game_json(s, id, -1, 1, &g, err)) < 0)
		goto done;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		goto done;
	rc = store_seats_get(c, id, &seats, &nseats, err);
	if (rc == 0)
		rc = store_game_clock_seats(c, id, &clocks, &nclocks, err);
	if (rc == 0)
		rc = store_token_list_game(c, id, &tokens, &ntokens, err);
	if (rc == 0)
		rc = store_outbox_list_game(c, id, &rows, &nrows, err);
	if (rc == 0)
		rc = store_chat_list(c, id, CHAT_MAX, &chat, &nchat, err);
	if (rc == 0)
		rc = store_outbox_dead_count(c, id, &dead, err);
	if (rc == 0) {
		rc = store_game_clock_get(c, id, &k, err);
		if (rc == ERR_NOTFOUND) {
			err_clear(err);
			rc = 0;
		}
	}
	store_read_release(c);
	if (rc < 0)
		goto done;
	sa = json_object_get(g, "seats");
	json_array_foreach(sa, i, so) {
		int seat = (int)json_integer_value(json_object_get(so, "seat"));
		const struct store_seat *row = seat_of(seats, nseats, seat);
		json_t *tl = json_array();

		json_object_set_new(so, "user_id", json_integer(row ? row->user_id : 0));
		for (int t = 0; t < nclocks; t++) {
			const struct store_seat_clock *x = &clocks[t];
			char dl[32] = "";
			if (x->seat != seat)
				continue;
			if (x->deadline_at)
				clock_format_utc(x->deadline_at, dl);
			json_object_set_new(so, "clock", json_pack("{s:I,s:I,s:s,s:b,s:b,s:b,s:b}", "bank_ms",
								   (json_int_t)x->bank_ms, "deadline",
								   (json_int_t)x->deadline_at, "deadline_time", dl,
								   "running", x->turn_started_at != 0, "dropped",
								   x->dropped, "timed_out", x->timed_out, "reminded",
								   x->reminded));
		}
		for (int t = 0; t < ntokens; t++)
			if (tokens[t].seat == seat)
				json_array_append_new(tl, token_json(&tokens[t]));
		json_object_set_new(so, "tokens", tl);
	}
	json_object_set_new(g, "clock_mode", json_string(k.mode[0] ? k.mode : "none"));
	json_object_set_new(g, "dead", json_integer(dead));
	for (int t = 0; t < nrows; t++)
		json_array_append_new(notes, outbox_row_json(&rows[t]));
	json_object_set_new(g, "notifications", notes);
	notes = NULL;
	for (int t = 0; t < nchat; t++) {
		char when[32];
		clock_format_utc(chat[t].at, when);
		json_array_append_new(msgs, json_pack("{s:I,s:i,s:s,s:s,s:I,s:s}", "id", (json_int_t)chat[t].id, "seat",
						      chat[t].seat, "name", chat[t].name, "text", chat[t].text, "at",
						      (json_int_t)chat[t].at, "time", when));
	}
	json_object_set_new(g, "chat", msgs);
	msgs = NULL;
	*out = g;
	g = NULL;
	rc = 0;
done:
	json_decref(g);
	json_decref(notes);
	json_decref(msgs);
	store_seats_free(seats, nseats);
	free(clocks);
	free(tokens);
	store_outbox_rows_free(rows, nrows);
	store_chats_free(chat, nchat);
	return rc;
}

/*
 * Who sat in a seat until a change: from the audit rows of seat replacements
 * and drops, oldest first. A step made at move count n or earlier by that
 * seat was that player's.
 */
struct seat_era {
	int seat;
	int until;        /* the move count when the seat changed hands */
	char *name;       /* the seat's name before the change */
};

static void eras_free(struct seat_era *eras, int n)
{
	for (int i = 0; eras && i < n; i++)
		free(eras[i].name);
	free(eras);
}

/* The seat changes of a game as eras; *out new (eras_free). */
static int eras_load(struct store_conn *c, int64_t game_id, struct seat_era **out, int *n, struct err *err)
{
	struct store_audit_row *rows = NULL;
	int nrows = 0, k = 0, rc;

	*out = NULL;
	*n = 0;
	if ((rc = store_audit_seat_changes(c, game_id, &rows, &nrows, err)) < 0)
		return rc;
	if (nrows && !(*out = calloc((size_t)nrows, sizeof(**out)))) {
		store_audit_rows_free(rows, nrows);
		return err_set(err, ERR_NOMEM, "out of memory");
	}
	for (int i = 0; i < nrows; i++) {
		json_t *d = rows[i].detail ? json_loads(rows[i].detail, 0, NULL) : NULL;
		json_t *seat = json_object_get(d, "seat");
		/* a replacement keeps the old player under "old", a drop at the top */
		const char *name = json_string_value(json_object_get(json_object_get(d, "old"), "name"));

		if (!name)
			name = json_string_value(json_object_get(d, "name"));
		if (json_is_integer(seat) && name && rows[i].before >= 0) {
			(*out)[k].seat = (int)json_integer_value(seat);
			(*out)[k].until = rows[i].before;
			if (!((*out)[k].name = strdup(name))) {
				json_decref(d);
				eras_free(*out, k);
				*out = NULL;
				store_audit_rows_free(rows, nrows);
				return err_set(err, ERR_NOMEM, "out of memory");
			}
			k++;
		}
		json_decref(d);
	}
	*n = k;
	store_audit_rows_free(rows, nrows);
	return 0;
}

/* The name of whoever played step m: the first later change of its seat says who it was, else the seat's name now. */
static const char *player_at(const struct store_move *m, const struct store_seat *seats, int nseats,
			     const struct seat_era *eras, int neras)
{
	const struct store_seat *st;

	if (m->seat < 0)
		return "admin";
	for (int i = 0; i < neras; i++)
		if (eras[i].seat == m->seat && m->n <= eras[i].until)
			return eras[i].name;
	st = seat_of(seats, nseats, m->seat);
	return st ? st->name : "?";
}

struct manage_eras {
	struct seat_era *eras;
	int n;
};

int manage_eras_load(struct store_conn *c, int64_t game_id, struct manage_eras **out, struct err *err)
{
	struct manage_eras *e = calloc(1, sizeof(*e));
	int rc;

	*out = NULL;
	if (!e)
		return err_set(err, ERR_NOMEM, "out of memory");
	if ((rc = eras_load(c, game_id, &e->eras, &e->n, err)) < 0) {
		free(e);
		return rc;
	}
	*out = e;
	return 0;
}

const char *manage_eras_name(const struct manage_eras *e, int seat, int n, const struct store_seat *seats,
			     int nseats)
{
	struct store_move m = { .n = n, .seat = seat };

	return player_at(&m, seats, nseats, e ? e->eras : NULL, e ? e->n : 0);
}

char *manage_eras_key(const struct manage_eras *e)
{
	struct buf b = BUF_INIT;

	for (int i = 0; e && i < e->n; i++)
		buf_addf(&b, "%d:%d:%s\n", e->eras[i].seat, e->eras[i].until, e->eras[i].name);
	return buf_detach(&b, NULL);
}

void manage_eras_free(struct manage_eras *e)
{
	if (!e)
		return;
	eras_free(e->eras, e->n);
	free(e);
}

static json_t *step_json(const struct store_move *m, const struct store_seat *seats, int nseats,
			 const struct seat_era *eras, int neras)
{
	char when[32];

	clock_format_utc(m->at, when);
	return json_pack("{s:i,s:i,s:s,s:s,s:s,s:I,s:s,s:s?}", "n", m->n, "seat", m->seat, "player",
			 player_at(m, seats, nseats, eras, neras), "text", m->text, "via", m->via, "at",
			 (json_int_t)m->at, "time", when, "client", m->client);
}

int manage_timeline(struct store *s, int64_t id, json_t **out, struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	struct store_move *moves = NULL;
	struct seat_era *eras = NULL;
	int n = 0, nseats = 0, neras = 0, rc;
	json_t *steps;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_get(c, id, &g, err);
	if (rc == 0)
		rc = store_seats_get(c, id, &seats, &nseats, err);
	if (rc == 0)
		rc = store_moves_list(c, id, 0, &moves, &n, err);
	if (rc == 0)
		rc = eras_load(c, id, &eras, &neras, err);
	store_read_release(c);
	if (rc == 0) {
		steps = json_array();
		for (int i = 0; i < n; i++)
			json_array_append_new(steps, step_json(&moves[i], seats, nseats, eras, neras));
		*out = json_pack("{s:I,s:s,s:i,s:o}", "game", (json_int_t)id, "status", g.status, "move_count",
				 g.move_count, "steps", steps);
	}
	eras_free(eras, neras);
	store_moves_free(moves, n);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

int manage_position(struct store *s, int64_t id, int n, json_t **out, struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	struct store_move m = {0};
	struct engine_game eg = {0};
	struct game_pending p;
	struct seat_era *eras = NULL;
	const struct game_ops *ops;
	json_t *view = NULL, *result, *sa, *o;
	const char *names[GAME_MAX_SEATS];
	int nseats = 0, neras = 0, rc;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_get(c, id, &g, err);
	if (rc == 0)
		rc = store_seats_get(c, id, &seats, &nseats, err);
	if (rc == 0) {
		if (n < 0 || n > g.move_count)
			rc = err_set(err, ERR_NOTFOUND, "game %lld has steps 0 to %d, not %d", (long long)id, g.move_count, n);
		else
			rc = store_move_get(c, id, n, &m, err);
	}
	if (rc == 0)
		rc = eras_load(c, id, &eras, &neras, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	if (!(ops = engine_ops_find(g.game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	if ((rc = engine_game_decode(ops, m.snapshot, &eg, err)) < 0)
		goto done;
	if ((rc = ops->view(eg.state, -1, &view, err)) < 0)
		goto done;
	engine_game_pending(&eg, &p);
	result = ops->result(eg.state);
	sa = json_array();
	for (int i = 0; i < nseats; i++)
		json_array_append_new(sa, json_pack("{s:i,s:s}", "seat", seats[i].seat, "name", seats[i].name));
	engine_names_json(sa, names);
	engine_names_key(result, "tiebreak", names);
	engine_names_view(view, names);
	o = json_pack("{s:s,s:I,s:s,s:i,s:i,s:o,s:o,s:o,s:o,s:o}", "game", g.game, "id", (json_int_t)id,
		      "title", ops->title, "n", n, "move_count", g.move_count, "step",
		      n > 0 ? step_json(&m, seats, nseats, eras, neras) : json_null(), "view", view, "pending",
		      engine_pending_json(&p, names), "result", result ? result : json_null(), "seats", sa);
	view = NULL;
	*out = o;
	rc = 0;
done:
	json_decref(view);
	eras_free(eras, neras);
	engine_game_release(&eg);
	store_move_release(&m);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

static void diff_add(json_t *list, size_t max, const char *path, const json_t *a, const json_t *b)
{
	json_t *o;

	if (json_array_size(list) >= max)
		return;
	o = json_pack("{s:s}", "path", *path ? path : "(whole view)");
	if (a)
		json_object_set(o, "before", (json_t *)a);
	if (b)
		json_object_set(o, "after", (json_t *)b);
	json_array_append_new(list, o);
}

static void diff_walk(json_t *list, size_t max, struct buf *path, const json_t *a, const json_t *b)
{
	size_t keep = path->len;

	if (json_array_size(list) >= max)
		return;
	if (json_is_object(a) && json_is_object(b)) {
		const char *key;
		json_t *v;
		/* keys of a (changed or gone), then keys only b has */
		json_object_foreach((json_t *)a, key, v) {
			buf_addf(path, "%s%s", path->len ? "." : "", key);
			diff_walk(list, max, path, v, json_object_get(b, key));
			buf_setlen(path, keep);
		}
		json_object_foreach((json_t *)b, key, v) {
			if (json_object_get(a, key))
				continue;
			buf_addf(path, "%s%s", path->len ? "." : "", key);
			diff_walk(list, max, path, NULL, v);
			buf_setlen(path, keep);
		}
		return;
	}
	if (json_is_array(a) && json_is_array(b)) {
		size_t na = json_array_size(a), nb = json_array_size(b);
		for (size_t i = 0; i < na || i < nb; i++) {
			buf_addf(path, "[%zu]", i);
			diff_walk(list, max, path, json_array_get(a, i), json_array_get(b, i));
			buf_setlen(path, keep);
		}
		return;
	}
	if (a && b && json_equal((json_t *)a, (json_t *)b))
		return;
	diff_add(list, max, path->data, a, b);
}

json_t *manage_diff(const json_t *a, const json_t *b, size_t max)
{
	json_t *list = json_array();
	struct buf path = BUF_INIT;

	diff_walk(list, max ? max : DIFF_MAX, &path, a, b);
	buf_release(&path);
	return list;
}

int manage_audit(struct store *s, const struct store_audit_filter *f, json_t **out, struct err *err)
{
	struct store_conn *c;
	struct store_audit_row *rows = NULL;
	int n = 0, rc;
	json_t *list;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_audit_list(c, f, &rows, &n, err);
	store_read_release(c);
	if (rc < 0)
		return rc;
	list = json_array();
	for (int i = 0; i < n; i++) {
		const struct store_audit_row *r = &rows[i];
		json_t *detail = r->detail ? json_loads(r->detail, 0, NULL) : NULL;
		char when[32];

		clock_format_utc(r->at, when);
		json_array_append_new(list, json_pack("{s:I,s:I,s:s,s:s,s:o,s:s?,s:s,s:o,s:s?,s:o,s:o,s:o}", "id",
						      (json_int_t)r->id, "at", (json_int_t)r->at, "time", when, "actor",
						      r->actor, "actor_user_id",
						      r->actor_user_id ? json_integer(r->actor_user_id) : json_null(),
						      "actor_email", r->actor_email, "action", r->action, "game",
						      r->game_id ? json_integer(r->game_id) : json_null(), "reason",
						      r->reason, "before", r->before >= 0 ? json_integer(r->before) : json_null(),
						      "after", r->after >= 0 ? json_integer(r->after) : json_null(), "detail",
						      detail ? detail : json_object()));
	}
	store_audit_rows_free(rows, n);
	*out = list;
	return 0;
}
