/* engine/replay.c: a game's whole log: verify it by replaying, export it, import a replay file */
/* SPDX-License-Identifier: MIT */
#include "engine/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/account.h"
#include "engine/create.h"
#include "engine/engine.h"
#include "engine/submit.h"
#include "engine/views.h"
#include "store/chat.h"
#include "store/game_clock.h"
#include "store/user.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/banned.h"

/*
 * Replay rows on top of the set-up, calling check(ctx, n, snapshot, row) after
 * each; the replayed snapshots are kept for undo.
 */
int replay_verify(struct store *s, int64_t id, int *first_bad, struct err *err)
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
	if (!(ops = engine_ops_find(g.game, err))) {
		rc = ERR_NOTFOUND;
		goto done;
	}
	options = json_loads(g.options, 0, NULL);
	if (engine_seed_parse(g.seed, &seed) < 0) {
		rc = err_set(err, ERR_CONFLICT, "game %lld: stored seed is not a number", (long long)id);
		*first_bad = 0;
		goto done;
	}
	if ((rc = engine_game_setup(ops, options, g.nplayers, seed, &eg, err)) < 0)
		goto done;
	snaps = calloc((size_t)n + 1, sizeof(*snaps));
	backs = calloc((size_t)n + 1, sizeof(*backs));
	undos = calloc((size_t)n + 1, sizeof(*undos));
	if (!snaps || !backs || !undos) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
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

/* A seat clock as the replay file holds it (times in ms since the epoch, 0: not set). */
static json_t *seat_clock_json(const struct store_seat_clock *x)
{
	return json_pack("{s:i,s:I,s:I,s:I,s:I,s:b,s:b,s:b}", "seat", x->seat, "bank_ms", (json_int_t)x->bank_ms,
			 "turn_started_at", (json_int_t)x->turn_started_at, "deadline_at", (json_int_t)x->deadline_at,
			 "remind_at", (json_int_t)x->remind_at, "reminded", x->reminded, "timed_out", x->timed_out,
			 "dropped", x->dropped);
}

/*
 * What a replay file keeps besides the log: the time control with every
 * seat's clock ("clock", null without one) and the chat ("chat"), in a new
 * object *out.
 */
static int export_extras(struct store_conn *c, int64_t id, json_t **out, struct err *err)
{
	struct store_game_clock k = {0};
	struct store_seat_clock *sc = NULL;
	struct store_chat *chat = NULL;
	json_t *o = json_object(), *clock = json_null(), *lines;
	int nsc = 0, nchat = 0, rc;

	*out = NULL;
	rc = store_game_clock_get(c, id, &k, err);
	if (rc == 0) {
		json_t *seats = json_array();
		clock = json_pack("{s:s,s:I,s:I,s:I,s:I,s:s,s:i}", "mode", k.mode, "turn_ms", (json_int_t)k.turn_ms,
				  "bank_ms", (json_int_t)k.bank_ms, "increment_ms", (json_int_t)k.increment_ms,
				  "reminder_ms", (json_int_t)k.reminder_ms, "timeout", k.timeout, "bot_level",
				  k.bot_level);
		if ((rc = store_game_clock_seats(c, id, &sc, &nsc, err)) < 0) {
			json_decref(seats);
			goto done;
		}
		for (int i = 0; i < nsc; i++)
			json_array_append_new(seats, seat_clock_json(&sc[i]));
		json_object_set_new(clock, "seats", seats);
	} else if (rc == ERR_NOTFOUND) {
		rc = 0;
	} else {
		goto done;
	}
	if ((rc = store_chat_list_all(c, id, &chat, &nchat, err)) < 0)
		goto done;
	lines = json_array();
	for (int i = 0; i < nchat; i++)
		json_array_append_new(lines, json_pack("{s:i,s:s,s:s?,s:s,s:I}", "seat", chat[i].seat, "name",
						       chat[i].name, "email", chat[i].email, "text", chat[i].text,
						       "at", (json_int_t)chat[i].at));
	json_object_set_new(o, "chat", lines);
done:
	json_object_set_new(o, "clock", clock);
	if (rc < 0)
		json_decref(o);
	else
		*out = o;
	free(sc);
	store_chats_free(chat, nchat);
	return rc;
}

int replay_export(struct store *s, int64_t id, json_t **out, struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	struct store_move *moves = NULL;
	json_t *o, *sa, *extras = NULL;
	int n = 0, nseats = 0, rc;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_get(c, id, &g, err);
	if (rc == 0)
		rc = store_seats_get(c, id, &seats, &nseats, err);
	if (rc == 0)
		rc = store_moves_list(c, id, 0, &moves, &n, err);
	if (rc == 0)
		rc = export_extras(c, id, &extras, err);
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
	json_object_set_new(o, "moves", views_moves_array(moves, n, 0));
	json_object_set_new(o, "status", json_string(g.status));
	json_object_set_new(o, "players_see_emails", json_boolean(g.players_see_emails));
	json_object_update(o, extras);
	*out = o;
done:
	json_decref(extras);
	store_moves_free(moves, n);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

/*
 * Whether a replay file's move is a rollback: IMPORT_STEP for a player's
 * step, IMPORT_ROLLBACK with the step it rolls back to in *target when its
 * "kind" is "rollback", IMPORT_BAD_ROLLBACK when that "to" is missing or
 * negative. Files written before steps had kinds carry a rollback only as
 * its text ("rollback to N", seat -1, via "admin"): those are read as
 * rollbacks too.
 */
enum import_kind { IMPORT_STEP, IMPORT_ROLLBACK, IMPORT_BAD_ROLLBACK };

static enum import_kind import_rollback_target(const json_t *m, int *target)
{
	const char *kind = json_string_value(json_object_get(m, "kind"));
	const char *text = json_string_value(json_object_get(m, "text"));
	const char *via = json_string_value(json_object_get(m, "via"));
	const json_t *to = json_object_get(m, "to");
	char *end;
	long n;

	*target = 0;
	if (kind) {
		if (strcmp(kind, "rollback") != 0)
			return IMPORT_STEP;
		if (!json_is_integer(to) || json_integer_value(to) < 0 || json_integer_value(to) >= 1000000000)
			return IMPORT_BAD_ROLLBACK;
		*target = (int)json_integer_value(to);
		return IMPORT_ROLLBACK;
	}
	if (json_integer_value(json_object_get(m, "seat")) >= 0 || !via || strcmp(via, "admin") != 0 || !text ||
	    strncmp(text, "rollback to ", 12) != 0 || text[12] < '0' || text[12] > '9')
		return IMPORT_STEP;
	n = strtol(text + 12, &end, 10);
	if (*end || n >= 1000000000)
		return IMPORT_BAD_ROLLBACK;
	*target = (int)n;
	return IMPORT_ROLLBACK;
}

/* The time control of a replay file's "clock" (null or missing: none, *have 0). */
static int import_clock(const json_t *file, struct store_game_clock *k, int *have, struct err *err)
{
	const json_t *o = json_object_get(file, "clock");
	const char *mode, *timeout;

	*have = 0;
	if (!o || json_is_null(o))
		return 0;
	mode = json_string_value(json_object_get(o, "mode"));
	timeout = json_string_value(json_object_get(o, "timeout"));
	if (!json_is_object(o) || !mode || (strcmp(mode, "per_turn") != 0 && strcmp(mode, "bank") != 0) || !timeout ||
	    (strcmp(timeout, "bot") != 0 && strcmp(timeout, "drop") != 0 && strcmp(timeout, "notify") != 0))
		return err_set(err, ERR_INPUT, "the replay file's \"clock\" needs a \"mode\" (per_turn or bank) and a "
			       "\"timeout\" (bot, drop or notify)");
	snprintf(k->mode, sizeof(k->mode), "%s", mode);
	snprintf(k->timeout, sizeof(k->timeout), "%s", timeout);
	k->turn_ms = json_integer_value(json_object_get(o, "turn_ms"));
	k->bank_ms = json_integer_value(json_object_get(o, "bank_ms"));
	k->increment_ms = json_integer_value(json_object_get(o, "increment_ms"));
	k->reminder_ms = json_integer_value(json_object_get(o, "reminder_ms"));
	k->bot_level = (int)json_integer_value(json_object_get(o, "bot_level"));
	if (k->turn_ms < 0 || k->bank_ms < 0 || k->increment_ms < 0 || k->reminder_ms < 0 || k->bot_level < 0)
		return err_set(err, ERR_INPUT, "the replay file's \"clock\" has a negative time");
	*have = 1;
	return 0;
}

/*
 * After the steps, inside the import's transaction: every seat's clock as the
 * file says (deadlines, reminders, what is left of a chess clock, timed out,
 * dropped) and the chat, each line by the account of its "email" (made if
 * new), else by its seat's player.
 */
static int import_extras(struct store_conn *c, const json_t *file, int64_t id, int have_clock, struct err *err)
{
	const json_t *clock_seats = json_object_get(json_object_get(file, "clock"), "seats");
	const json_t *chat = json_object_get(file, "chat"), *x;
	struct store_seat *seats = NULL;
	int nseats = 0, rc;
	size_t i;

	if ((rc = store_seats_get(c, id, &seats, &nseats, err)) < 0)
		return rc;
	if (have_clock && json_is_array(clock_seats)) {
		json_array_foreach(clock_seats, i, x) {
			struct store_seat_clock sc = {
				.game_id = id,
				.seat = (int)json_integer_value(json_object_get(x, "seat")),
				.bank_ms = json_integer_value(json_object_get(x, "bank_ms")),
				.turn_started_at = json_integer_value(json_object_get(x, "turn_started_at")),
				.deadline_at = json_integer_value(json_object_get(x, "deadline_at")),
				.remind_at = json_integer_value(json_object_get(x, "remind_at")),
				.reminded = json_is_true(json_object_get(x, "reminded")),
				.timed_out = json_is_true(json_object_get(x, "timed_out")),
				.dropped = json_is_true(json_object_get(x, "dropped")),
			};
			if (sc.seat < 0 || sc.seat >= nseats) {
				rc = err_set(err, ERR_INPUT, "clock %zu of the replay file is for seat %d, which the game "
					     "does not have", i + 1, sc.seat);
				goto done;
			}
			if ((rc = store_game_clock_seat_put(c, &sc, err)) < 0)
				goto done;
		}
	}
	if (chat && !json_is_array(chat)) {
		rc = err_set(err, ERR_INPUT, "the replay file's \"chat\" must be an array");
		goto done;
	}
	json_array_foreach(chat, i, x) {
		const char *text = json_string_value(json_object_get(x, "text"));
		const char *email = json_string_value(json_object_get(x, "email"));
		const char *name = json_string_value(json_object_get(x, "name"));
		const json_t *seat_j = json_object_get(x, "seat");
		int seat = json_is_integer(seat_j) ? (int)json_integer_value(seat_j) : -1;
		int64_t user_id = 0;

		if (!text || !*text) {
			rc = err_set(err, ERR_INPUT, "chat line %zu of the replay file has no text", i + 1);
			goto done;
		}
		if (seat >= nseats) {
			rc = err_set(err, ERR_INPUT, "chat line %zu of the replay file is by seat %d, which the game "
				     "does not have", i + 1, seat);
			goto done;
		}
		if (email && *email && !account_valid_email(email)) {
			rc = err_set(err, ERR_INPUT, "chat line %zu of the replay file has a bad \"email\"", i + 1);
			goto done;
		}
		/* the writer's account when the file names it (a seat may have changed hands since), else the seat's */
		if (email && *email)
			rc = store_user_ensure(c, email, name && *name ? name : email, &user_id, err);
		else if (seat >= 0)
			user_id = seats[seat].user_id;
		if (rc < 0)
			goto done;
		if (seat < 0)
			seat = -1;
		if ((rc = store_chat_add(c, id, seat, user_id, text,
					 json_integer_value(json_object_get(x, "at")), err)) < 0)
			goto done;
	}
	rc = 0;
done:
	store_seats_free(seats, nseats);
	return rc;
}

int replay_import(struct store *s, const json_t *file, int64_t created_by, int notify, int64_t *id,
		  struct err *err)
{
	const json_t *seats_j = json_object_get(file, "seats"), *moves_j = json_object_get(file, "moves");
	struct create_player players[GAME_MAX_SEATS];
	struct create_spec ng = {0};
	struct store_game_clock clock = {0};
	struct store_conn *c;
	size_t nseats, i;
	const json_t *m;
	int have_clock = 0, rc;

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
	if (!ng.game || engine_seed_parse(json_string_value(json_object_get(file, "seed")), &ng.seed) < 0)
		return err_set(err, ERR_INPUT, "a replay file needs \"game\" and a numeric \"seed\"");
	ng.have_seed = 1;
	/* invitations (each seat's new link) only when asked */
	ng.quiet = !notify;
	ng.players_see_emails = json_is_true(json_object_get(file, "players_see_emails"));
	if ((rc = import_clock(file, &clock, &have_clock, err)) < 0)
		return rc;
	ng.clock = have_clock ? &clock : NULL;
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = create_setup_in_tx(c, &ng, id, NULL, err)) < 0)
		goto done;
	json_array_foreach(moves_j, i, m) {
		const char *text = json_string_value(json_object_get(m, "text"));
		const char *lines[1] = { text };
		struct submit_request rq = {
			.game_id = *id,
			.seat = (int)json_integer_value(json_object_get(m, "seat")),
			.lines = lines,
			.nlines = 1,
			.via = json_string_value(json_object_get(m, "via")),
			.if_match = (int)i,
			.at = json_integer_value(json_object_get(m, "at")),
			.undo_after_turn = 1,
			.quiet = 1,
		};
		struct submit_outcome po;
		json_t *res = NULL;
		enum import_kind kind;
		int to;

		if (!text) {
			rc = err_set(err, ERR_INPUT, "move %zu of the replay file has no text", i + 1);
			break;
		}
		kind = import_rollback_target(m, &to);
		if (kind == IMPORT_ROLLBACK)
			rc = submit_rollback_in_tx(c, *id, to, NULL, rq.at ? rq.at : clock_now_ms(), NULL, 0, NULL,
							NULL, err);
		else if (kind == IMPORT_BAD_ROLLBACK)
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
	if (rc == 0)
		rc = import_extras(c, file, *id, have_clock, err);
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
