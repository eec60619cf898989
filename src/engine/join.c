/* engine/join.c: taking an open seat of a running game */
/* SPDX-License-Identifier: MIT */
#include "engine/join.h"

#include "util/banned.h"

int join_game(struct store *s, int64_t game_id, int64_t user_id, int *seat, struct err *err)
{
	struct store_seat *seats = NULL;
	struct store_game g = {0};
	struct store_user u = {0};
	struct store_conn *c;
	int nseats = 0, rc;

	*seat = -1;
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_game_get(c, game_id, &g, err)) < 0)
		goto done;
	if ((rc = store_user_by_id(c, user_id, &u, err)) < 0)
		goto done;
	if ((rc = store_seats_get(c, game_id, &seats, &nseats, err)) < 0)
		goto done;
	for (int i = 0; i < nseats; i++)
		if (seats[i].user_id == user_id) {
			rc = err_set(err, ERR_CONFLICT, "You already play in this game.");
			goto done;
		}
	rc = store_seat_claim(c, game_id, user_id, u.name, u.email, seat, err);
done:
	if (rc < 0) {
		store_write_rollback(c);
		*seat = -1;
	} else if ((rc = store_write_commit(c, err)) < 0) {
		*seat = -1;
	}
	store_seats_free(seats, nseats);
	store_game_release(&g);
	store_user_release(&u);
	return rc;
}
