/* tests/games/bot_shape.c: how a finished game of each hosted game ended, read from its state */
/* SPDX-License-Identifier: MIT */
#include "bot_shape.h"

#include <string.h>

#include "games/alien-frontiers/af_internal.h"
#include "games/space-station-phoenix/ssp_internal.h"
#include "games/starship-merchants/sm_internal.h"

#include "util/banned.h"

/* The game ends at once when a player lands their last colony. */
static void shape_af(const void *state, struct bot_shape *out)
{
	const struct af_state *s = state;

	out->rulebook = s->over && af__colonies_left(s, s->ender) == 0;
	out->end = out->rulebook ? "last colony landed" : "other";
	out->unit = "rounds";
	out->length = (s->turn + s->n - 1) / s->n;
}

/* 40 points, 9 Sectors or 4 or fewer Aliens at the end of the trigger's turn, then one turn for the others. */
static void shape_ssp(const void *state, struct bot_shape *out)
{
	const struct ssp_state *st = state;
	int al = st->aliens[0] + st->aliens[1] + st->aliens[2] + st->aliens[3];

	out->unit = "rounds";
	out->length = (st->turn + st->nplayers - 1) / st->nplayers;
	out->rulebook = st->phase == PH_OVER && st->end_by >= 0;
	if (st->end_by < 0)
		out->end = "no rulebook condition";
	else if (st->pl[st->end_by].points >= 40)
		out->end = "40 points";
	else if (ssp_rules_nsectors(st, st->end_by) >= 9)
		out->end = "9 Sectors";
	else if (al <= 4)
		out->end = "4 or fewer Aliens";
	else
		out->end = "triggered (the condition has gone since)";
	for (int p = 0; p < st->nplayers; p++) {
		out->built[p] = ssp_rules_nsectors(st, p);
		out->incomes[p] = st->pl[p].incomes;
		for (int r = 0; r < 4; r++)
			out->goods[p][r] = st->pl[p].res[r];
	}
}

/* A player finishes a Dock visit with 100+ credits (and chooses to end) or 150+; the others complete the circuit. */
static void shape_sm(const void *state, struct bot_shape *out)
{
	const struct sm_state *s = state;

	out->rulebook = s->phase == SM_PH_OVER && s->trigger >= 0;
	out->end = out->rulebook ? "100/150 trigger" : "other";
	out->unit = "laps of the trigger player";
	out->length = s->trigger >= 0 ? s->p[s->trigger].laps : 0;
}

int bot_shape_read(const char *game_id, const void *state, struct bot_shape *out)
{
	static const struct {
		const char *id;
		void (*read)(const void *state, struct bot_shape *out);
	} games[] = {
		{ "alien-frontiers", shape_af },
		{ "space-station-phoenix", shape_ssp },
		{ "starship-merchants", shape_sm },
	};

	memset(out, 0, sizeof(*out));
	for (int p = 0; p < GAME_MAX_SEATS; p++)
		out->built[p] = out->incomes[p] = -1;
	for (size_t i = 0; i < sizeof(games) / sizeof(games[0]); i++)
		if (strcmp(games[i].id, game_id) == 0) {
			if (state)
				games[i].read(state, out);
			return 0;
		}
	return -1;
}
