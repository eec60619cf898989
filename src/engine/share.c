/* engine/share.c: a finished game shown to anyone by a link, when all its players allow it */
/* SPDX-License-Identifier: MIT */
#include "engine/share.h"

#include <string.h>

#include "engine/game.h"
#include "util/banned.h"

/* The share decisions kept: far more than seats times changes of mind. */
#define SHARE_ROWS 1000

int share_set(struct store *s, int64_t id, int seat, int64_t user_id, int allow, const struct actor *a,
	      int64_t now, struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	int nseats = 0, held = 0, rc;

	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_game_get(c, id, &g, err)) < 0 || (rc = store_seats_get(c, id, &seats, &nseats, err)) < 0)
		goto done;
	for (int i = 0; i < nseats; i++)
		held |= seats[i].seat == seat && user_id && seats[i].user_id == user_id;
	if (!held) {
		rc = err_set(err, ERR_FORBIDDEN, "Only the player in a seat can decide whether the game is shown to anyone.");
		goto done;
	}
	rc = actor_audit(c, a, "share", id, g.move_count, g.move_count,
			 json_pack("{s:i,s:b,s:I}", "seat", seat, "allow", allow != 0, "user", (json_int_t)user_id), now,
			 err);
done:
	if (rc < 0)
		store_write_rollback(c);
	else
		rc = store_write_commit(c, err);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

int share_state(struct store *s, int64_t id, struct share_state *out, struct err *err)
{
	struct store_conn *c;
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	struct store_audit_row *rows = NULL;
	struct store_audit_filter f = { .game_id = id, .action = "share", .limit = SHARE_ROWS };
	unsigned decided = 0;
	int nseats = 0, n = 0, rc;

	memset(out, 0, sizeof(*out));
	if ((rc = store_read_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_game_get(c, id, &g, err)) == 0 && (rc = store_seats_get(c, id, &seats, &nseats, err)) == 0)
		rc = store_audit_list(c, &f, &rows, &n, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	for (int i = 0; i < nseats; i++)
		if (seats[i].user_id && seats[i].seat >= 0 && seats[i].seat < GAME_MAX_SEATS)
			out->players |= 1u << seats[i].seat;
	/* newest first: a seat's latest decision by the player who holds it now counts */
	for (int i = 0; i < n; i++) {
		json_t *d = rows[i].detail ? json_loads(rows[i].detail, 0, NULL) : NULL;
		json_t *seat = json_object_get(d, "seat");
		int k = json_is_integer(seat) ? (int)json_integer_value(seat) : -1;
		int64_t who = json_integer_value(json_object_get(d, "user"));

		for (int j = 0; k >= 0 && j < nseats; j++) {
			if (seats[j].seat != k || !seats[j].user_id || seats[j].user_id != who ||
			    ((decided >> k) & 1u))
				continue;
			decided |= 1u << k;
			if (json_is_true(json_object_get(d, "allow")))
				out->allowed |= 1u << k;
		}
		json_decref(d);
	}
	out->over = strcmp(g.status, "active") != 0;
	out->shared = out->over && out->players && (out->allowed & out->players) == out->players;
done:
	store_audit_rows_free(rows, n);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}
