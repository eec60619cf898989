/* engine/access.c: who may see a game: its players, admins, and (to take a seat) anyone while one is open */
/* SPDX-License-Identifier: MIT */
#include "engine/access.h"

#include <string.h>

#include "engine/share.h"
#include "engine/views.h"
#include "util/banned.h"

enum access_level access_decide(const struct access_facts *f)
{
	if (f->holds > 0)
		return ACCESS_PLAYER;
	if (f->is_admin)
		return ACCESS_WATCH;
	/* once over, a game's replay is for anyone signed in, and for anyone at all when its players share it */
	if (!f->active && (f->signed_in || f->shared))
		return ACCESS_REPLAY;
	/* an open game invites anyone signed in: they see who plays, not the board or the chat */
	if (f->signed_in && f->active && f->open_seat)
		return ACCESS_JOIN;
	return ACCESS_NONE;
}

int access_game_at(struct store *s, const struct store_game *g, const struct store_seat *seats, int nseats,
		   const struct access_viewer *v, int wanted, struct access_grant *out, struct err *err)
{
	struct access_facts f = {0};
	int rc;

	out->level = ACCESS_NONE;
	out->seat = -1;
	out->held = 0;
	f.is_admin = v->is_admin && !v->only_game;
	f.signed_in = v->user_id && !v->only_game;
	f.active = strcmp(g->status, "active") == 0;
	for (int i = 0; i < nseats; i++) {
		if (!seats[i].user_id)
			f.open_seat = 1;
		if (!v->user_id || seats[i].user_id != v->user_id)
			continue;
		out->held++;
		/* a seat link's session plays its own seat, and only while that seat is still this player's */
		if (v->only_game && (v->only_game != g->id || seats[i].seat != v->only_seat))
			continue;
		f.holds++;
		if (out->seat < 0 || seats[i].seat == wanted)
			out->seat = seats[i].seat;
	}
	if (!f.active && out->held == 0 && !f.is_admin) {
		struct share_state st;
		if ((rc = share_state(s, g->id, &st, err)) < 0) {
			out->seat = -1;
			out->held = 0;
			return rc;
		}
		f.shared = st.shared;
	}
	out->level = access_decide(&f);
	if (out->level != ACCESS_PLAYER)
		out->seat = -1;
	return 0;
}

int access_game(struct store *s, int64_t game_id, const struct access_viewer *v, int wanted,
		struct access_grant *out, struct err *err)
{
	struct store_game g;
	struct store_seat *seats = NULL;
	int nseats = 0, rc;

	out->level = ACCESS_NONE;
	out->seat = -1;
	out->held = 0;
	if ((rc = views_game_info(s, game_id, &g, &seats, &nseats, err)) < 0)
		return rc;
	rc = access_game_at(s, &g, seats, nseats, v, wanted, out, err);
	views_game_info_release(&g, seats, nseats);
	return rc;
}
