/* games/space-station-phoenix/ssp_story.c: each step in words (game_ops.describe), read from the positions around it */
/* SPDX-License-Identifier: MIT */
#include "games/space-station-phoenix/ssp_internal.h"

#include <stdio.h>
#include <string.h>

#include "util/banned.h"
#include "util/words.h"

/*
 * Space Station Phoenix has no hidden information (ssp_json_view): every
 * reader gets the same sentence. A step often sets off more than itself
 * (the engine resolves the bonuses after a ship action, fees go to a ship's
 * owner), so after what the step was the sentence says what changed for
 * each player, read from the difference of the positions.
 */

struct story {
	const struct ssp_state *b, *a; /* before, after */
	const struct ssp_move *m;
	int p; /* who took the step */
	const json_t *seats;
	struct buf *out;
};

static const char *const type_names[7] = { "Dismantle", "Construction", "Transport", "Expedition",
					   "Diplomacy",  "Farm",         "Ice Collector" };
static const char *const track_names[4] = { "Dismantle", "Construct", "Transport", "Expedition" };
static const char *const res_names[4] = { "food", "water", "metal", "GEM" };
static const char *const kind_names[6] = { "resident", "teal Alien", "brown Alien", "pink Alien", "gold Alien", "Human" };

static void who(const struct story *st, int seat)
{
	words_seat(st->out, st->seats, seat);
}

static const char *res_name(int r)
{
	return r >= 0 && r < 4 ? res_names[r] : "resource";
}

static const char *kind_name(int k)
{
	return k >= 0 && k < 6 ? kind_names[k] : "resident";
}

/* "a teal Alien", "a Human" */
static void a_kind(struct buf *out, int k)
{
	buf_addf(out, "a %s", kind_name(k));
}

/* "Sector 212", "the Station Hub" */
static void target(struct buf *out, int t)
{
	if (t == SSP_HUBQ)
		buf_adds(out, "the Station Hub");
	else if (t >= 0 && t < SSP_NSECTORS)
		buf_addf(out, "Sector %d", ssp_sectors[t].id);
	else
		buf_adds(out, "the station");
}

/* "the Level-2 Transport ship", "Zed's Level-1 Farm ship", "the neutral Construction ship" (where it was before). */
static void ship(const struct story *st, int s)
{
	struct buf *out = st->out;
	int loc;

	if (s < 0 || s >= SSP_NSHIPS) {
		buf_adds(out, "a ship");
		return;
	}
	loc = st->b->ship_loc[s];
	if (loc == SL_NEUTRAL || s >= SSP_SHIP_NEUTRAL) {
		buf_addf(out, "the neutral %s ship", type_names[ssp_ships[s].type]);
		return;
	}
	if (loc >= 0 && loc < SSP_MAXP && loc != st->p) {
		who(st, loc);
		buf_adds(out, "'s");
	} else if (loc == st->p) {
		buf_adds(out, "their");
	} else {
		buf_adds(out, "the");
	}
	buf_addf(out, " Level-%d %s ship", ssp_ships[s].level, type_names[ssp_ships[s].type]);
}

/* The sectors seat built in the step, by index; returns how many. */
static int built(const struct story *st, int seat, int *out, int max)
{
	int n = 0;

	for (int i = 0; i < SSP_NSECTORS && n < max; i++)
		if (st->a->sec_loc[i] == seat && st->b->sec_loc[i] != seat)
			out[n++] = i;
	return n;
}

/*
 * What changed for seat, as "+2 food, -6 metal, +1 point, Construct track 3"
 * into out (nothing when nothing did). skip_metal: the metal is said already.
 */
static void changes(const struct story *st, int seat, int skip_metal, struct buf *out)
{
	int said = st->m->kind == MV_BUILD && seat == st->p ? st->m->a : -1; /* the Sector the step names */
	const struct ssp_player *pb = &st->b->pl[seat], *pa = &st->a->pl[seat];
	size_t mark = out->len;
	int secs[8], ns = built(st, seat, secs, 8);

	for (int r = 0; r < 4; r++) {
		int d = pa->res[r] - pb->res[r];

		if (!d || (r == SSP_METAL && skip_metal))
			continue;
		words_sep(out, mark, ", ");
		buf_addf(out, "%+d %s%s", d, res_names[r], r == SSP_GEM && (d > 1 || d < -1) ? "s" : "");
	}
	if (pa->points != pb->points) {
		int d = pa->points - pb->points;

		words_sep(out, mark, ", ");
		buf_addf(out, "%+d point%s", d, d == 1 || d == -1 ? "" : "s");
	}
	for (int t = 0; t < 4; t++)
		if (pa->dip[t] != pb->dip[t]) {
			words_sep(out, mark, ", ");
			buf_addf(out, "%s track %d", track_names[t], pa->dip[t]);
		}
	for (int i = 0; i < ns; i++) {
		if (secs[i] == said)
			continue;
		words_sep(out, mark, ", ");
		buf_addf(out, "Sector %d", ssp_sectors[secs[i]].id);
	}
}

/* Counts as words: {2, 0, 1} with "food"/"food", ... -> "2 food and 1 metal"; "nothing" when all are 0. */
static void say_counts(struct buf *out, const int *v, int n, const char *const *one, const char *const *many)
{
	char items[6][48];
	const char *list[6];
	int k = 0;

	for (int i = 0; i < n && i < 6; i++) {
		if (v[i] <= 0)
			continue;
		if (v[i] == 1 && one[i][0] == 'a')
			snprintf(items[k], sizeof(items[k]), "%s", one[i]);
		else
			snprintf(items[k], sizeof(items[k]), "%d %s", v[i], v[i] == 1 ? one[i] : many[i]);
		list[k] = items[k];
		k++;
	}
	if (k)
		words_join(out, list, k);
	else
		buf_adds(out, "nothing");
}

static void say_bonus(struct buf *out, int b)
{
	static const char *const bonus[6] = { "a GEM", "2 GEMs", "a point", "1 food", "1 water", "1 metal" };

	buf_adds(out, b >= 0 && b < 6 ? bonus[b] : "a bonus");
}

static void say_step(const struct story *st)
{
	const struct ssp_state *b = st->b, *a = st->a;
	const struct ssp_move *m = st->m;
	struct buf *out = st->out;

	switch (m->kind) {
	case MV_DRAFT:
		buf_adds(out, " drafted ");
		ship(st, m->a);
		break;
	case MV_HUB:
		buf_addf(out, " chose Station Hub %s", ssp_hubs[m->a].id);
		break;
	case MV_DISCARD:
		buf_adds(out, " discarded ");
		ship(st, m->a);
		break;
	case MV_ADVANCE:
		buf_addf(out, " advanced on the %s", track_names[m->a]);
		if (m->b >= 0)
			buf_addf(out, " and %s tracks", track_names[m->b]);
		else
			buf_adds(out, " track");
		break;
	case MV_SKIP:
		if (b->ntask > 0 && b->task[0].kind == TK_DIPLO)
			buf_adds(out, " skipped the Diplomacy advance");
		else if (b->ntask > 0 && b->task[0].kind == TK_ACCEPT && ssp_data_sector_find(b->task[0].a) >= 0)
			buf_addf(out, " declined the offer of Sector %d", b->task[0].a);
		else
			buf_adds(out, " passed");
		break;
	case MV_USE:
		buf_adds(out, " used ");
		ship(st, m->a);
		break;
	case MV_INCOME:
		buf_adds(out, " took income");
		if (m->a >= 0) {
			buf_adds(out, " and placed a Human in ");
			target(out, m->a);
		}
		break;
	case MV_SELL:
		buf_adds(out, " sold a point");
		break;
	case MV_CONVERT:
		buf_addf(out, " converted a metal into %s", res_name(m->a));
		break;
	case MV_DISMANTLE:
		buf_adds(out, " dismantled ");
		ship(st, m->a);
		break;
	case MV_BUILD: {
		int metal = b->pl[st->p].res[SSP_METAL] - a->pl[st->p].res[SSP_METAL];

		buf_addf(out, " built Sector %d", ssp_sectors[m->a].id);
		if (metal > 0)
			buf_addf(out, " for %d metal", metal);
		break;
	}
	case MV_ALIEN:
		buf_adds(out, " brought ");
		a_kind(out, m->a);
		buf_adds(out, " to ");
		target(out, m->b);
		break;
	case MV_PLACE:
		buf_adds(out, " placed ");
		a_kind(out, m->a);
		buf_adds(out, " in ");
		target(out, m->b);
		break;
	case MV_TRADE:
		buf_addf(out, " traded %s and %s for %s", res_name(m->a), res_name(m->b), res_name(m->c));
		break;
	case MV_BUY:
		buf_addf(out, " bought %s", res_name(m->a));
		break;
	case MV_DONE:
		buf_adds(out, " finished");
		break;
	case MV_REROLL: {
		static const char *const one[4] = { "food die", "water die", "metal die", "Human die" };
		static const char *const many[4] = { "food dice", "water dice", "metal dice", "Human dice" };
		static const char *const face1[4] = { "food", "water", "metal", "Human" };
		static const char *const faces[4] = { "food", "water", "metal", "Humans" };

		buf_adds(out, " rolled ");
		say_counts(out, m->v, 4, one, many);
		buf_adds(out, " again: the dice show ");
		say_counts(out, a->dice, 4, face1, faces);
		break;
	}
	case MV_KEEP: {
		static const char *const one[5] = { "food", "water", "metal", "a Human ally", "a point" };
		static const char *const many[5] = { "food", "water", "metal", "Human allies", "points" };

		buf_adds(out, " kept ");
		say_counts(out, m->v, 5, one, many);
		break;
	}
	case MV_TAKE:
		buf_addf(out, " took %s", res_name(m->a));
		if (m->b >= 0)
			buf_addf(out, " and %s", res_name(m->b));
		break;
	case MV_ACCEPT:
		if (b->ntask > 0 && b->task[0].kind == TK_ACCEPT && ssp_data_sector_find(b->task[0].a) >= 0)
			buf_addf(out, " accepted the offer of Sector %d", b->task[0].a);
		else
			buf_adds(out, " accepted the offer");
		break;
	case MV_EXCHANGE:
		buf_addf(out, " exchanged %s for %s", res_name(m->a), res_name(m->b));
		break;
	case MV_PAY:
		if (m->a < 0)
			buf_adds(out, " paid nothing");
		else if (m->b < 0)
			buf_addf(out, " paid %s", res_name(m->a));
		else
			buf_addf(out, " paid %s and %s", res_name(m->a), res_name(m->b));
		break;
	case MV_MOVE:
		buf_adds(out, " moved ");
		a_kind(out, m->a);
		buf_adds(out, " from ");
		target(out, m->b);
		buf_adds(out, " to ");
		target(out, m->c);
		break;
	case MV_RETURN:
		if (m->a == 0) {
			buf_addf(out, " returned Sector %d", ssp_sectors[m->b].id);
		} else {
			buf_adds(out, " returned ");
			a_kind(out, m->a);
			buf_adds(out, " from ");
			target(out, m->b);
		}
		break;
	case MV_BONUS:
		buf_adds(out, " took ");
		say_bonus(out, m->a);
		if (m->b >= 0) {
			buf_adds(out, " and ");
			say_bonus(out, m->b);
		}
		buf_adds(out, " from Diplomacy");
		break;
	case MV_STANDING:
		if (!m->n) {
			buf_adds(out, " cleared their standing Diplomacy choice");
		} else {
			buf_adds(out, " will take Diplomacy bonuses in this order: ");
			for (int i = 0; i < m->n && i < 6; i++) {
				if (i)
					buf_adds(out, ", ");
				say_bonus(out, m->v[i]);
			}
		}
		break;
	default:
		buf_adds(out, " took a step");
		break;
	}
}

/* What changed for every player, the taker first ("+2 food"; "Zed +1 GEM"), and the end. */
static void aftermath(const struct story *st)
{
	struct buf *out = st->out, part = BUF_INIT;

	changes(st, st->p, st->m->kind == MV_BUILD, &part);
	if (part.len) {
		buf_adds(out, ": ");
		buf_add(out, part.data, part.len);
	}
	for (int q = 0; q < st->a->nplayers; q++) {
		if (q == st->p)
			continue;
		buf_reset(&part);
		changes(st, q, 0, &part);
		if (!part.len)
			continue;
		buf_adds(out, "; ");
		who(st, q);
		buf_adds(out, ": ");
		buf_add(out, part.data, part.len);
	}
	buf_release(&part);
	if (st->a->end_by >= 0 && st->b->end_by < 0) {
		buf_adds(out, "; ");
		who(st, st->a->end_by);
		buf_adds(out, " triggered the end of the game");
	}
	if (st->a->phase == PH_OVER && st->b->phase != PH_OVER)
		buf_adds(out, "; the game is over");
}

int ssp_story_describe(const struct ssp_state *before, const struct ssp_state *after, const struct ssp_move *m,
		       int seat, const json_t *seats, struct buf *out)
{
	struct story st = { .b = before, .a = after, .m = m, .p = seat, .seats = seats, .out = out };

	who(&st, seat);
	say_step(&st);
	aftermath(&st);
	buf_addc(out, '.');
	return 0;
}

/* ---- the position in words (game_ops.position) ---- */

static const char *const colour_words[3] = { "teal", "brown", "pink" };

/* seat's name, or "you"/"You" for the reader. */
static void pos_who(struct buf *out, const json_t *seats, int seat, int viewer, int capital)
{
	if (seat == viewer)
		buf_adds(out, capital ? "You" : "you");
	else
		words_seat(out, seats, seat);
}

/* "Zed and you" from a mask of seats. */
static void pos_seats(struct buf *out, const json_t *seats, unsigned mask, int nplayers, int viewer)
{
	struct buf names[SSP_MAXP] = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT };
	const char *list[SSP_MAXP];
	int n = 0;

	for (int p = 0; p < nplayers && p < SSP_MAXP; p++)
		if (mask & (1u << p)) {
			pos_who(&names[n], seats, p, viewer, 0);
			list[n] = names[n].data;
			n++;
		}
	words_join(out, list, n);
	for (int i = 0; i < SSP_MAXP; i++)
		buf_release(&names[i]);
}

/* "You: 7 points; 3 food, 2 water, 4 metal and 5 GEMs; 2 Sectors built." */
static void pos_player(const struct ssp_state *st, int p, int viewer, const json_t *seats, struct buf *out)
{
	const struct ssp_player *pl = &st->pl[p];

	pos_who(out, seats, p, viewer, 1);
	buf_adds(out, ": ");
	words_count(out, pl->points, "point", "points");
	buf_addf(out, "; %d food, %d water, %d metal and ", pl->res[SSP_FOOD], pl->res[SSP_WATER], pl->res[SSP_METAL]);
	words_count(out, pl->res[SSP_GEM], "GEM", "GEMs");
	buf_adds(out, "; ");
	words_count(out, ssp_rules_nsectors(st, p), "Sector", "Sectors");
	buf_adds(out, " built");
	if (pl->hub >= 0)
		buf_addf(out, "; Station Hub %s", ssp_hubs[pl->hub].id);
	buf_adds(out, ".\n");
}

int ssp_story_position(const struct ssp_state *st, int viewer, const json_t *seats, struct buf *out)
{
	unsigned who = ssp_rules_who(st);
	int any = 0;

	/* whose turn */
	if (st->phase == PH_OVER) {
		buf_adds(out, "The game is over.\n");
	} else {
		static const char *const phase_words[] = { "The draft of Level-3 ships", "The draft of Level-2 ships",
							   "The choice of Station Hubs", "The set-up bonuses", "Turn",
							   "Diplomacy" };
		buf_adds(out, phase_words[st->phase]);
		if (st->phase == PH_TURN)
			buf_addf(out, " %d", st->turn);
		buf_adds(out, ": waiting for ");
		pos_seats(out, seats, who, st->nplayers, viewer);
		if (st->end_by >= 0)
			buf_addf(out, " (the end is triggered: %d more turn%s)", st->final_left, st->final_left == 1 ? "" : "s");
		buf_adds(out, ".\n");
	}
	/* the players, the reader first */
	if (viewer >= 0 && viewer < st->nplayers)
		pos_player(st, viewer, viewer, seats, out);
	for (int p = 0; p < st->nplayers; p++)
		if (p != viewer)
			pos_player(st, p, viewer, seats, out);
	/* what is on offer: the ships of the draft, the Sectors to build, the ships the reader may use */
	for (int s = 0; s < SSP_NSHIPS; s++) {
		if (st->ship_loc[s] != SL_DISPLAY)
			continue;
		buf_adds(out, any ? ", " : "Ships in the draft: ");
		buf_addf(out, "the Level-%d %s ship", ssp_ships[s].level, type_names[ssp_ships[s].type]);
		any = 1;
	}
	if (any)
		buf_adds(out, ".\n");
	/* the Sectors on offer, one line a level: "Level-1 Sectors on offer: 105 (teal) for 6 metal, ..." */
	for (int level = 1; level <= 3; level++) {
		any = 0;
		for (int i = 0; i < SSP_NSECTORS; i++) {
			const struct ssp_sector_info *sec = &ssp_sectors[i];

			if (st->sec_loc[i] != SEC_DISPLAY || sec->level != level)
				continue;
			if (!any)
				buf_addf(out, "Level-%d Sectors on offer: ", level);
			buf_addf(out, "%s%d (%s) for %d metal", any ? ", " : "", sec->id, colour_words[sec->colour],
				 sec->cost);
			any = 1;
		}
		if (any)
			buf_adds(out, ".\n");
	}
	/* the ships not yet used this round, by owner: the reader's, each other player's, the neutral ones */
	if (st->phase == PH_TURN) {
		for (int o = -2; o < st->nplayers; o++) {
			int owner = o == -2 ? viewer : o, fresh = 0;

			if ((o == -2 && (viewer < 0 || viewer >= st->nplayers)) || (o >= 0 && o == viewer))
				continue;
			for (int s = 0; s < SSP_NSHIPS; s++) {
				int loc = st->ship_loc[s];

				if (st->ship_used[s] || (owner >= 0 ? loc != owner : loc != SL_NEUTRAL))
					continue;
				if (!fresh) {
					if (owner < 0)
						buf_adds(out, "Neutral ships not yet used");
					else if (owner == viewer)
						buf_adds(out, "Your ships not yet used");
					else {
						words_seat(out, seats, owner);
						buf_adds(out, "'s ships not yet used");
					}
					buf_adds(out, viewer >= 0 && viewer < st->nplayers ? " (your cost): " : ": ");
				} else {
					buf_adds(out, ", ");
				}
				if (owner >= 0)
					buf_addf(out, "Level-%d ", ssp_ships[s].level);
				buf_adds(out, type_names[ssp_ships[s].type]);
				if (viewer >= 0 && viewer < st->nplayers) {
					buf_adds(out, " (");
					words_count(out, ssp_rules_cost(st, viewer, s), "GEM", "GEMs");
					if (owner >= 0 && owner != viewer && ssp_ships[s].fee)
						buf_addf(out, " and %d to its owner", ssp_ships[s].fee);
					buf_adds(out, ")");
				}
				fresh = 1;
			}
			if (fresh)
				buf_adds(out, ".\n");
		}
	}
	buf_addf(out, "In the supply: %d teal, %d brown, %d pink and %d gold Aliens, ", st->aliens[0], st->aliens[1],
		 st->aliens[2], st->aliens[3]);
	words_count(out, st->humans, "Human", "Humans");
	buf_adds(out, ".\n");
	return 0;
}
