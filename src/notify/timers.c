/* notify/timers.c: reminders and deadlines (bot move, drop, tell the creator), time controls, vacations */
/* SPDX-License-Identifier: MIT */
#include "notify/notify_int.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/submit.h"
#include "engine/registry.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/banned.h"

#define HOUR_MS (3600LL * 1000)
#define DAY_MS (24 * HOUR_MS)
#define MAX_BOT_STEPS 64

static atomic_int vacation_days = 30;

void notify_set_vacation_days(int days)
{
	atomic_store(&vacation_days, days < 0 ? 0 : days);
}

int notify_vacation_days(void)
{
	return atomic_load(&vacation_days);
}

/* Queue one notification in its own transaction, with an optional seat clock flag change. */
static int queue(struct notify *n, const char *event, int64_t game_id, int seat, int64_t user_id, json_t *payload,
		 const struct store_seat_clock *flag_seat, int reminded, int timed_out, int dropped, int64_t now,
		 struct err *err)
{
	struct store_conn *c;
	char *text = payload ? json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	int rc;

	json_decref(payload);
	if ((rc = store_write_begin(n->store, &c, err)) < 0) {
		free(text);
		return rc;
	}
	if (user_id)
		rc = store_outbox_add(c, event, game_id, seat, user_id, text, now, NULL, err);
	if (rc == 0 && flag_seat)
		rc = store_game_clock_flag(c, flag_seat->game_id, flag_seat->seat, reminded, timed_out, dropped, now, err);
	free(text);
	if (rc < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

/*
 * Let the game's bot play seat's steps until the seat need not act any more
 * (or MAX_BOT_STEPS). *played: how many steps. ERR_NOTFOUND when the game has
 * no bot.
 */
static int bot_play(struct notify *n, int64_t game_id, int seat, int level, int64_t now, int *played,
		    json_t *steps, struct err *err)
{
	int rc = 0;

	*played = 0;
	for (int i = 0; i < MAX_BOT_STEPS; i++) {
		struct store_conn *c;
		struct store_game g = {0};
		struct store_move head = {0};
		struct engine_game eg = {0};
		struct game_pending p;
		struct buf text = BUF_INIT;
		struct rng r;
		void *move = NULL;
		const struct game_ops *ops = NULL;
		json_t *res = NULL;
		struct submit_outcome po;
		const char *line;
		int pending = 0; /* a game no longer active has nobody pending */

		if ((rc = store_read_acquire(n->store, &c, err)) < 0)
			return rc;
		rc = store_game_get(c, game_id, &g, err);
		if (rc == 0)
			rc = store_move_get(c, game_id, g.move_count, &head, err);
		store_read_release(c);
		if (rc < 0)
			goto step_done;
		if (!(ops = registry_find(g.game))) {
			rc = err_set(err, ERR_NOTFOUND, "game %lld: %s is not hosted here", (long long)game_id, g.game);
			goto step_done;
		}
		if (!ops->bot) {
			rc = err_set(err, ERR_NOTFOUND, "%s has no bot to play for a player", ops->title);
			goto step_done;
		}
		if (strcmp(g.status, "active") != 0 || (rc = engine_game_decode(ops, head.snapshot, &eg, err)) < 0)
			goto step_done;
		engine_game_pending(&eg, &p);
		pending = (p.seats >> seat) & 1u;
		if (!pending)
			goto step_done;
		/* the bot's own generator, seeded from the position so a retry chooses the same */
		rng_seed(&r, (uint64_t)game_id * 0x9E3779B97F4A7C15ULL + (uint64_t)g.move_count * 31u + (uint64_t)seat);
		if ((rc = ops->bot(eg.state, seat, level, &r, &move, err)) < 0)
			goto step_done;
		if ((rc = ops->format(eg.state, move, &text, err)) < 0)
			goto step_done;
		line = text.data;
		{
			struct submit_request sub = { .game_id = game_id, .seat = seat, .lines = &line, .nlines = 1,
						   .via = "timeout", .if_match = g.move_count, .at = now };
			rc = submit_steps(n->store, &sub, &res, &po, err);
		}
		if (rc == 0) {
			(*played)++;
			if (steps)
				json_array_append_new(steps, json_string(line));
		}
		json_decref(res);
step_done:
		if (move && ops)
			ops->move_free(move);
		buf_release(&text);
		engine_game_release(&eg);
		store_move_release(&head);
		store_game_release(&g);
		if (rc < 0 || !pending)
			break;
	}
	return rc;
}

static int handle_timeout(struct notify *n, const struct store_seat_clock *x, int64_t now, struct notify_stats *st,
			  struct err *err)
{
	struct store_game_clock k;
	struct store_conn *c;
	struct store_game g = {0};
	json_t *steps = NULL;
	const char *action;
	int played = 0, rc;

	if ((rc = store_read_acquire(n->store, &c, err)) < 0)
		return rc;
	rc = store_game_clock_get(c, x->game_id, &k, err);
	if (rc == 0)
		rc = store_game_get(c, x->game_id, &g, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	st->timeouts++;
	action = x->dropped ? "bot" : k.timeout;
	if (strcmp(action, "drop") == 0) {
		/* from now on the bot plays this seat at once; the player hears it once */
		if ((rc = queue(n, "timeout", x->game_id, x->seat, x->user_id,
				json_pack("{s:s,s:I}", "action", "drop", "deadline", (json_int_t)x->deadline_at), x, -1,
				-1, 1, now, err)) < 0)
			goto done;
		log_info("game %lld: seat %d missed its deadline and is dropped; the bot plays it from now on",
			 (long long)x->game_id, x->seat);
		action = "bot";
	}
	if (strcmp(action, "bot") == 0) {
		steps = json_array();
		rc = bot_play(n, x->game_id, x->seat, k.bot_level, now, &played, steps, err);
		if (rc == 0 && played > 0) {
			log_info("game %lld: seat %d missed its deadline; the bot played %d step%s", (long long)x->game_id,
				 x->seat, played, played == 1 ? "" : "s");
			if (!x->dropped && strcmp(k.timeout, "bot") == 0)
				rc = queue(n, "timeout", x->game_id, x->seat, x->user_id,
					   json_pack("{s:s,s:O,s:I}", "action", "bot", "steps", steps, "deadline",
						     (json_int_t)x->deadline_at),
					   NULL, -1, -1, -1, now, err);
			goto done;
		}
		if (rc < 0)
			log_warn("game %lld: the bot cannot play for seat %d (%s); telling the game's creator",
				 (long long)x->game_id, x->seat, err->msg);
		err_clear(err);
	}
	/* tell the creator (or, when nobody created it, the late player) once */
	rc = queue(n, "timeout", x->game_id, x->seat, g.created_by ? g.created_by : x->user_id,
		   json_pack("{s:s,s:i,s:I}", "action", "notify", "late_seat", x->seat, "deadline",
			     (json_int_t)x->deadline_at),
		   x, -1, 1, -1, now, err);
done:
	json_decref(steps);
	store_game_release(&g);
	return rc;
}

int notify__timers(struct notify *n, int64_t now, struct notify_stats *st, struct err *err)
{
	struct store_seat_clock *due = NULL;
	struct store_conn *c;
	int ndue = 0, rc;

	if ((rc = store_read_acquire(n->store, &c, err)) < 0)
		return rc;
	rc = store_game_clock_due(c, now, 100, &due, &ndue, err);
	store_read_release(c);
	if (rc < 0)
		return rc;
	for (int i = 0; i < ndue && rc == 0 && !atomic_load(&n->stopping); i++) {
		struct store_seat_clock *x = &due[i];

		if (x->deadline_at && x->deadline_at <= now && !x->timed_out) {
			rc = handle_timeout(n, x, now, st, err);
		} else if (x->remind_at && x->remind_at <= now && !x->reminded) {
			st->reminders++;
			rc = queue(n, "reminder", x->game_id, x->seat, x->user_id,
				   json_pack("{s:I}", "deadline", (json_int_t)x->deadline_at), x, 1, -1, -1, now, err);
		}
	}
	free(due);
	return rc;
}

/* ---- time controls from and to JSON ---- */

/* A duration given as NAME_hours, NAME_minutes or NAME_ms; 0 when absent. ERR_INPUT when not a number. */
static int duration(const json_t *in, const char *name, int64_t *ms, int *given, struct err *err)
{
	static const struct {
		const char *suffix;
		double scale;
	} units[] = { { "hours", 3600000.0 }, { "minutes", 60000.0 }, { "ms", 1.0 } };
	char key[48];

	*ms = 0;
	*given = 0;
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		const json_t *v;
		snprintf(key, sizeof(key), "%s_%s", name, units[u].suffix);
		v = json_object_get(in, key);
		if (!v)
			continue;
		if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) * units[u].scale > 366.0 * DAY_MS)
			return err_set(err, ERR_INPUT, "clock: \"%s\" must be a number from 0 up to a year", key);
		*ms = (int64_t)(json_number_value(v) * units[u].scale + 0.5);
		*given = 1;
	}
	return 0;
}

int notify_clock_parse(const json_t *in, struct store_game_clock *out, struct err *err)
{
	const char *mode, *timeout, *key;
	const json_t *v;
	int64_t turn, bank, inc, rem;
	int g_turn, g_bank, g_inc, g_rem, rc;

	memset(out, 0, sizeof(*out));
	snprintf(out->mode, sizeof(out->mode), "none");
	snprintf(out->timeout, sizeof(out->timeout), "notify");
	/* the strongest bot stands in for a late or dropped player */
	out->bot_level = GAME_BOT_STRONG;
	if (!in || json_is_null(in))
		return 0;
	if (!json_is_object(in))
		return err_set(err, ERR_INPUT, "\"clock\" must be an object such as {\"mode\": \"per_turn\", \"turn_hours\": 24}");
	json_object_foreach((json_t *)in, key, v) {
		static const char *const known[] = { "mode", "timeout", "bot_level", "turn_hours", "turn_minutes",
						     "turn_ms", "bank_hours", "bank_minutes", "bank_ms",
						     "increment_hours", "increment_minutes", "increment_ms",
						     "reminder_hours", "reminder_minutes", "reminder_ms", NULL };
		int ok = 0;
		for (const char *const *k = known; *k; k++)
			ok |= strcmp(*k, key) == 0;
		if (!ok)
			return err_set(err, ERR_INPUT, "clock: unknown field \"%s\"", key);
	}
	mode = json_string_value(json_object_get(in, "mode"));
	if (!mode || (strcmp(mode, "none") != 0 && strcmp(mode, "per_turn") != 0 && strcmp(mode, "bank") != 0))
		return err_set(err, ERR_INPUT, "clock: \"mode\" must be \"none\", \"per_turn\" or \"bank\"");
	snprintf(out->mode, sizeof(out->mode), "%s", mode);
	if ((rc = duration(in, "turn", &turn, &g_turn, err)) < 0 || (rc = duration(in, "bank", &bank, &g_bank, err)) < 0 ||
	    (rc = duration(in, "increment", &inc, &g_inc, err)) < 0 ||
	    (rc = duration(in, "reminder", &rem, &g_rem, err)) < 0)
		return rc;
	timeout = json_string_value(json_object_get(in, "timeout"));
	if (json_object_get(in, "timeout") &&
	    (!timeout || (strcmp(timeout, "bot") != 0 && strcmp(timeout, "drop") != 0 && strcmp(timeout, "notify") != 0)))
		return err_set(err, ERR_INPUT, "clock: \"timeout\" must be \"bot\", \"drop\" or \"notify\"");
	if (timeout)
		snprintf(out->timeout, sizeof(out->timeout), "%s", timeout);
	v = json_object_get(in, "bot_level");
	if (v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > GAME_BOT_STRONG)
			return err_set(err, ERR_INPUT,
				       "clock: \"bot_level\" must be 0 (random), 1 (greedy) or 2 (strong, the default)");
		out->bot_level = (int)json_integer_value(v);
	}
	if (strcmp(mode, "none") == 0)
		return 0;
	if (strcmp(mode, "per_turn") == 0) {
		if (turn < 60000)
			return err_set(err, ERR_INPUT, "clock: a per_turn clock needs \"turn_hours\" (at least one minute)");
		if (g_bank || g_inc)
			return err_set(err, ERR_INPUT, "clock: bank and increment belong to mode \"bank\"");
		out->turn_ms = turn;
	} else {
		if (bank < 60000)
			return err_set(err, ERR_INPUT, "clock: a bank clock needs \"bank_hours\" (at least one minute)");
		if (g_turn)
			return err_set(err, ERR_INPUT, "clock: \"turn_hours\" belongs to mode \"per_turn\"");
		out->bank_ms = bank;
		out->increment_ms = inc;
	}
	/* by default a reminder goes out when a quarter of the time is left */
	out->reminder_ms = g_rem ? rem : (out->turn_ms ? out->turn_ms : out->bank_ms) / 4;
	return 0;
}

int notify_clock_json(struct store *s, int64_t game_id, json_t **out, struct err *err)
{
	struct store_conn *c;
	struct store_game_clock k;
	struct store_seat_clock *seats = NULL;
	json_t *o, *sa;
	int n = 0, rc;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_game_clock_get(c, game_id, &k, err);
	if (rc == 0)
		rc = store_game_clock_seats(c, game_id, &seats, &n, err);
	store_read_release(c);
	if (rc == ERR_NOTFOUND) {
		err_clear(err);
		*out = json_pack("{s:s}", "mode", "none");
		return 0;
	}
	if (rc < 0)
		return rc;
	o = json_pack("{s:s,s:s,s:i,s:I}", "mode", k.mode, "timeout", k.timeout, "bot_level", k.bot_level, "reminder_ms",
		      (json_int_t)k.reminder_ms);
	if (strcmp(k.mode, "per_turn") == 0)
		json_object_set_new(o, "turn_ms", json_integer(k.turn_ms));
	else
		json_object_set_new(o, "bank_ms", json_integer(k.bank_ms)),
			json_object_set_new(o, "increment_ms", json_integer(k.increment_ms));
	sa = json_array();
	for (int i = 0; i < n; i++) {
		json_t *so = json_pack("{s:i,s:b,s:b}", "seat", seats[i].seat, "dropped", seats[i].dropped, "timed_out",
				       seats[i].timed_out);
		char at[32];
		if (strcmp(k.mode, "bank") == 0)
			json_object_set_new(so, "bank_ms", json_integer(seats[i].bank_ms));
		if (seats[i].turn_started_at && seats[i].deadline_at) {
			clock_format_utc(seats[i].deadline_at, at);
			json_object_set_new(so, "deadline", json_integer(seats[i].deadline_at));
			json_object_set_new(so, "deadline_time", json_string(at));
		} else {
			json_object_set_new(so, "deadline", json_null());
		}
		json_array_append_new(sa, so);
	}
	json_object_set_new(o, "seats", sa);
	free(seats);
	*out = o;
	return 0;
}

/* ---- vacations ---- */

static void year_bounds(int64_t now, int64_t *from, int64_t *to)
{
	time_t t = (time_t)(now / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	tm.tm_mon = 0;
	tm.tm_mday = 1;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	*from = (int64_t)timegm(&tm) * 1000;
	tm.tm_year++;
	*to = (int64_t)timegm(&tm) * 1000;
}

int notify_vacation_set(struct store *s, int64_t user_id, double days, int64_t now, struct err *err)
{
	struct store_conn *c;
	int64_t from, to, used, cs, ce, start, end, allowance = (int64_t)notify_vacation_days() * DAY_MS;
	int rc;

	if (!(days >= 0) || days > 366)
		return err_set(err, ERR_INPUT, "\"days\" must be a number of days from 0 (end the vacation) to 366");
	year_bounds(now, &from, &to);
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_vacation_end(c, user_id, now, NULL, err)) < 0)
		goto fail;
	if (days > 0) {
		end = now + (int64_t)(days * (double)DAY_MS + 0.5);
		/* each calendar year the vacation touches pays for its own part of it (up to 366 days: two years) */
		start = now;
		while (start < end) {
			if ((rc = store_vacation_summary(c, user_id, from, to, now, &used, &cs, &ce, err)) < 0)
				goto fail;
			if (used + ((end < to ? end : to) - start) > allowance) {
				rc = err_set(err, ERR_LIMIT,
					     "that vacation is longer than what is left of %s allowance: %.1f of %d days "
					     "used, %.1f of the %.1f days asked for fall in it",
					     start == now ? "this year's" : "next year's", (double)used / DAY_MS,
					     notify_vacation_days(), (double)((end < to ? end : to) - start) / DAY_MS, days);
				goto fail;
			}
			start = to;
			year_bounds(start, &from, &to);
		}
		if ((rc = store_vacation_add(c, user_id, now, end, now, err)) < 0)
			goto fail;
	}
	if ((rc = store_game_clock_refresh_user(c, user_id, now, err)) < 0)
		goto fail;
	return store_write_commit(c, err);
fail:
	store_write_rollback(c);
	return rc;
}

int notify_vacation_json(struct store *s, int64_t user_id, int64_t now, json_t **out, struct err *err)
{
	struct store_conn *c;
	int64_t from, to, used, cs, ce;
	int rc;

	*out = NULL;
	year_bounds(now, &from, &to);
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_vacation_summary(c, user_id, from, to, now, &used, &cs, &ce, err);
	store_read_release(c);
	if (rc < 0)
		return rc;
	*out = json_pack("{s:b,s:o,s:o,s:i,s:f,s:f}", "on_vacation", ce > now, "start",
			 ce > now ? json_integer(cs) : json_null(), "end", ce > now ? json_integer(ce) : json_null(),
			 "allowance_days", notify_vacation_days(), "used_days", (double)used / DAY_MS, "left_days",
			 (double)((int64_t)notify_vacation_days() * DAY_MS - used) / DAY_MS);
	return 0;
}
