/* games/starship-merchants/sm_story.c: each step in words (game_ops.describe), read from the positions around it */
/* SPDX-License-Identifier: MIT */
#include "games/starship-merchants/sm_internal.h"

#include <stdio.h>
#include <string.h>

#include "util/banned.h"
#include "util/words.h"

/*
 * Starship Merchants hides only the order of the bag and of the decks
 * (sm_view_build): a token drawn by exploring and a card dealt to a display
 * are on the table for everyone, so every reader gets the same sentence.
 */

struct story {
	const struct sm_state *b, *a; /* before, after */
	const struct sm_move *m;
	int p; /* who took the step */
	const json_t *seats;
	struct buf *out;
};

static void who(const struct story *st, int seat)
{
	words_seat(st->out, st->seats, seat);
}

static const char *place(int pos)
{
	return pos >= 0 && pos < 4 ? sm_place_names[pos] : "table";
}

/* The credits p gained (> 0) or spent (< 0) in the step. */
static int credits(const struct story *st)
{
	return st->a->p[st->p].credits - st->b->p[st->p].credits;
}

static void say_credits(const struct story *st, int c)
{
	words_count(st->out, c, "credit", "credits");
}

/* The card that took the place of card in a display, or -1. */
static int replacement(const int *before, const int *after, int n, int card)
{
	for (int i = 0; i < n; i++)
		if (before[i] == card && after[i] != card)
			return after[i];
	return -1;
}

/* What the Dock did for p: paid, scrapped ships. */
static void dock_effects(const struct story *st)
{
	const struct sm_player *pb = &st->b->p[st->p], *pa = &st->a->p[st->p];
	struct buf *out = st->out;
	int scrapped = 0;

	for (int i = 0; i < pb->nships; i++)
		scrapped += sm_ship_find(pa, pb->ships[i].no) < 0;
	if (st->a->last_pay[st->p] != st->b->last_pay[st->p] || credits(st) > 0) {
		buf_adds(out, " and was paid ");
		say_credits(st, st->a->last_pay[st->p]);
	}
	if (scrapped) {
		buf_adds(out, "; ");
		words_count(out, scrapped, "obsolete ship was", "obsolete ships were");
		buf_adds(out, " scrapped");
	}
}

static void say_start(const struct story *st)
{
	const struct sm_player *pb = &st->b->p[st->p], *pa = &st->a->p[st->p];
	struct buf *out = st->out;

	switch (st->m->type) {
	case SM_MV_STAY:
		buf_addf(out, " stayed at the %s", place(pa->pos));
		break;
	case SM_MV_MOVE:
		buf_addf(out, " moved to the %s", place(pa->pos));
		break;
	default:
		buf_addf(out, " passed, moving to the %s", place(pa->pos));
		break;
	}
	if (pa->pos == SM_DOCK && pb->pos == SM_DOCK && st->m->type == SM_MV_STAY && st->b->final) {
		buf_adds(out, " and took ");
		say_credits(st, sm_consts.dock_wait);
		return;
	}
	if (pa->pos == SM_DOCK && st->m->type != SM_MV_PASS)
		dock_effects(st);
}

static void say_ship(const struct story *st)
{
	const struct sm_player *pa = &st->a->p[st->p];
	const struct sm_ship *sh = pa->nships ? &pa->ships[pa->nships - 1] : NULL;
	struct buf *out = st->out;

	buf_addf(out, " %s a", st->m->type == SM_MV_LEASE_SHIP ? "leased" : "bought");
	if (sh)
		buf_addf(out, " Mark %d", sh->mark);
	buf_addf(out, " %s for ", sm_type_slugs[st->m->a]);
	say_credits(st, -credits(st));
	if (sh && st->m->type == SM_MV_LEASE_SHIP) {
		buf_adds(out, " and ");
		words_count(out, sh->loans, "loan marker", "loan markers");
	}
	if (sh)
		buf_addf(out, " (ship %d)", sh->no);
	if (st->a->era > st->b->era)
		buf_addf(out, "; Mark %d ships are for sale now", st->a->era);
}

static void say_market(const struct story *st)
{
	const struct sm_state *b = st->b, *a = st->a;
	const struct sm_move *m = st->m;
	struct buf *out = st->out;

	if (m->type == SM_MV_REPLACE_CARDS) {
		int i = -1, j = -1, x, y;

		/* the slots the rules replace: the first showing a, then the first other one showing b */
		for (int k = 0; k < SM_MARKET_SLOTS; k++)
			if (i < 0 && b->mdisp[k] == m->a)
				i = k;
		for (int k = 0; k < SM_MARKET_SLOTS; k++)
			if (j < 0 && k != i && b->mdisp[k] == m->b)
				j = k;
		x = i >= 0 ? a->mdisp[i] : -1;
		y = j >= 0 ? a->mdisp[j] : -1;
		if (m->a == m->b) {
			const char *nm = sm_cards[m->a].name;

			buf_addf(out, " replaced both %s%s at the Market", nm, nm[strlen(nm) - 1] == 's' ? "" : "s");
		} else {
			buf_addf(out, " replaced the %s and the %s at the Market", sm_cards[m->a].name,
				 sm_cards[m->b].name);
		}
		if (x >= 0 && y >= 0)
			buf_addf(out, ": the %s and the %s came out", sm_cards[x].name, sm_cards[y].name);
		else if (x >= 0 || y >= 0)
			buf_addf(out, ": the %s came out", sm_cards[x >= 0 ? x : y].name);
		return;
	}
	if (m->type == SM_MV_BUY_CARD) {
		int refinery = sm_cards[m->a].cat == SM_CARD_REFINERY;
		int r = refinery ? replacement(b->rdisp, a->rdisp, SM_REFINERY_SLOTS, m->a)
				 : replacement(b->mdisp, a->mdisp, SM_MARKET_SLOTS, m->a);

		buf_addf(out, " bought the %s", sm_cards[m->a].name);
		if (!refinery)
			buf_addf(out, " for ship %d", m->b);
		buf_adds(out, refinery ? " for " : ", paying ");
		say_credits(st, -credits(st));
		if (r >= 0)
			buf_addf(out, "; the %s takes its place", sm_cards[r].name);
		return;
	}
	/* a claim */
	buf_addf(out, " claimed a %s token in local space for ", sm_kinds[m->a].name);
	say_credits(st, -credits(st));
}

static void say_run(const struct story *st)
{
	const struct sm_state *b = st->b, *a = st->a;
	const struct sm_move *m = st->m;
	struct buf *out = st->out;
	int spent = b->energy - a->energy;

	switch (m->type) {
	case SM_MV_RUN:
		buf_addf(out, " ran ship %d with ", m->a);
		words_count(out, a->energy, "energy", "energy");
		break;
	case SM_MV_PICKUP:
		buf_addf(out, " picked up %s from ", sm_kinds[m->a].name);
		if (m->b == SM_SRC_KNOWN) {
			buf_adds(out, "known space");
		} else if (m->b == SM_SRC_LOCAL) {
			buf_adds(out, "local space");
		} else {
			who(st, m->b - SM_SRC_SEAT);
			buf_adds(out, "'s local space");
		}
		if (spent > 0) {
			buf_adds(out, " for ");
			words_count(out, spent, "energy", "energy");
		}
		break;
	case SM_MV_EXPLORE:
		buf_adds(out, " explored");
		if (spent > 0) {
			buf_adds(out, " for ");
			words_count(out, spent, "energy", "energy");
		}
		if (a->drawn >= 0)
			buf_addf(out, " and drew %s", sm_kinds[a->drawn].name);
		else
			buf_adds(out, " and found the bag empty");
		break;
	case SM_MV_LOAD:
		if (b->drawn >= 0)
			buf_addf(out, " loaded the %s aboard", sm_kinds[b->drawn].name);
		else
			buf_adds(out, " loaded the token aboard");
		if (b->run >= 0)
			buf_addf(out, " ship %d", b->p[st->p].ships[b->run].no);
		break;
	case SM_MV_LEAVE:
		if (b->drawn >= 0)
			buf_addf(out, " left the %s in local space", sm_kinds[b->drawn].name);
		else
			buf_adds(out, " left the token in local space");
		break;
	case SM_MV_REPLACE_DEST: {
		int r = replacement(b->ddisp, a->ddisp, SM_DEST_SLOTS, m->a);

		buf_addf(out, " replaced the destination %s", sm_dests[m->a].name);
		if (r >= 0)
			buf_addf(out, " with %s", sm_dests[r].name);
		if (spent > 0) {
			buf_adds(out, " for ");
			words_count(out, spent, "energy", "energy");
		}
		break;
	}
	default: /* the end of a run */
		buf_addf(out, " ended the run at %s", sm_dests[m->a].name);
		if (b->run >= 0)
			buf_addf(out, " with ship %d", b->p[st->p].ships[b->run].no);
		break;
	}
}

static void say_step(const struct story *st)
{
	const struct sm_move *m = st->m;
	struct buf *out = st->out;

	switch (m->type) {
	case SM_MV_STAY:
	case SM_MV_MOVE:
	case SM_MV_PASS:
		say_start(st);
		break;
	case SM_MV_BUY_SHIP:
	case SM_MV_LEASE_SHIP:
		say_ship(st);
		break;
	case SM_MV_REPAY:
		buf_addf(out, " repaid a loan marker of ship %d for ", m->a);
		say_credits(st, -credits(st));
		break;
	case SM_MV_REPLACE_CARDS:
	case SM_MV_BUY_CARD:
	case SM_MV_CLAIM:
		say_market(st);
		break;
	case SM_MV_RUN:
	case SM_MV_PICKUP:
	case SM_MV_EXPLORE:
	case SM_MV_LOAD:
	case SM_MV_LEAVE:
	case SM_MV_REPLACE_DEST:
	case SM_MV_END_RUN:
		say_run(st);
		break;
	case SM_MV_TRANSFER:
		buf_addf(out, " moved the %s from a scrapped ship to ship %d for ", sm_cards[m->a].name, m->b);
		say_credits(st, -credits(st));
		break;
	case SM_MV_SET_ASIDE:
		buf_addf(out, " set the %s aside for the next ship for ", sm_cards[m->a].name);
		say_credits(st, -credits(st));
		break;
	case SM_MV_END_GAME:
		buf_addf(out, " ended the game: +%d credits", sm_consts.trigger_bonus);
		break;
	default:
		if (st->b->phase == SM_PH_SALVAGE)
			buf_adds(out, " kept no more of the scrapped cards");
		else if (st->b->phase == SM_PH_TRIGGER)
			buf_adds(out, " chose not to end the game yet");
		else
			buf_adds(out, " ended the turn");
		break;
	}
}

/* What a step may set off besides its own result: the end triggered, the game over. */
static void aftermath(const struct story *st)
{
	const struct sm_state *b = st->b, *a = st->a;
	struct buf *out = st->out;

	if (a->final && !b->final && st->m->type != SM_MV_END_GAME) {
		buf_adds(out, "; ");
		who(st, a->trigger);
		buf_addf(out, " reached %d credits and ended the game: every other ship makes one last circuit",
			 sm_consts.trigger_forced);
	} else if (a->final && !b->final) {
		buf_adds(out, "; every other ship makes one last circuit");
	}
	if (a->phase == SM_PH_OVER && b->phase != SM_PH_OVER)
		buf_adds(out, "; the game is over");
}

int sm_story_describe(const struct sm_state *before, const struct sm_state *after, const struct sm_move *m, int seat,
		      const json_t *seats, struct buf *out)
{
	struct story st = { .b = before, .a = after, .m = m, .p = seat, .seats = seats, .out = out };

	who(&st, seat);
	say_step(&st);
	aftermath(&st);
	buf_addc(out, '.');
	return 0;
}

/* ---- the position in words (game_ops.position) ---- */

/* seat's name, or "you"/"You" for the reader. */
static void pos_who(struct buf *out, const json_t *seats, int seat, int viewer, int capital)
{
	if (seat == viewer)
		buf_adds(out, capital ? "You" : "you");
	else
		words_seat(out, seats, seat);
}

/* "2 Cobalt and 1 Xenite" from counts per kind; returns whether there was any. */
static int pos_tokens(struct buf *out, const int *count)
{
	char items[SM_NKINDS][48];
	const char *list[SM_NKINDS];
	int n = 0;

	for (int k = 0; k < SM_NKINDS; k++)
		if (count[k] > 0) {
			snprintf(items[n], sizeof(items[n]), "%d %s", count[k], sm_kinds[k].name);
			list[n] = items[n];
			n++;
		}
	words_join(out, list, n);
	return n > 0;
}

/* "ship 1, a Mark 1 scout carrying 2 Cobalt" */
static void pos_ship(const struct sm_ship *sh, struct buf *out)
{
	buf_addf(out, "ship %d, a Mark %d %s", sh->no, sh->mark, sm_type_slugs[sh->type]);
	if (sm_ship_load(sh)) {
		buf_adds(out, " carrying ");
		pos_tokens(out, sh->cargo);
	} else {
		buf_adds(out, ", empty");
	}
	if (sh->loans)
		buf_adds(out, " (leased)");
}

/* "You: 34 credits, at the Market; ship 1, ...; 2 Ice-9 in your local space; 1 loan marker." */
static void pos_player(const struct sm_state *s, int p, int viewer, const json_t *seats, struct buf *out)
{
	const struct sm_player *pl = &s->p[p];
	int loans = sm_player_loans(pl);

	pos_who(out, seats, p, viewer, 1);
	buf_adds(out, ": ");
	words_count(out, pl->credits, "credit", "credits");
	buf_addf(out, ", at the %s", place(pl->pos));
	if (pl->finished)
		buf_adds(out, " for good");
	buf_adds(out, "; ");
	if (!pl->nships)
		buf_adds(out, "no ships");
	for (int i = 0; i < pl->nships; i++) {
		if (i)
			buf_adds(out, "; ");
		pos_ship(&pl->ships[i], out);
	}
	{
		int local[SM_NKINDS];

		for (int k = 0; k < SM_NKINDS; k++)
			local[k] = pl->local[k] + pl->lclaim[k];
		for (int k = 0; k < SM_NKINDS; k++)
			if (local[k]) {
				buf_adds(out, "; in ");
				buf_adds(out, p == viewer ? "your" : "their");
				buf_adds(out, " local space: ");
				pos_tokens(out, local);
				break;
			}
	}
	if (loans) {
		buf_adds(out, "; ");
		words_count(out, loans, "loan marker", "loan markers");
		buf_addf(out, " (%d credits to repay)", sm_player_loan_debt(pl));
	}
	buf_adds(out, ".\n");
}

/* "Grapples (4 credits), Survey Robot (3 credits)" from a display; returns how many. */
static int pos_cards(struct buf *out, const int *disp, int n, int dest)
{
	int shown = 0;

	for (int i = 0; i < n; i++) {
		if (disp[i] < 0)
			continue;
		if (shown++)
			buf_adds(out, ", ");
		if (dest)
			buf_addf(out, "%s (%d energy)", sm_dests[disp[i]].name, sm_dests[disp[i]].cost);
		else
			buf_addf(out, "%s (%d credits)", sm_cards[disp[i]].name, sm_cards[disp[i]].cost);
	}
	return shown;
}

int sm_story_position(const struct sm_state *s, int viewer, const json_t *seats, struct buf *out)
{
	int bag = 0;

	/* whose turn */
	if (s->phase == SM_PH_OVER) {
		buf_adds(out, "The game is over.\n");
	} else {
		buf_addf(out, "Mark %d ships are for sale; ", s->era);
		if (s->cur == viewer)
			buf_adds(out, "your turn");
		else {
			words_seat(out, seats, s->cur);
			buf_adds(out, "'s turn");
		}
		if (s->final) {
			buf_adds(out, " (the final circuit: ");
			words_seat(out, seats, s->trigger);
			buf_adds(out, " ended the game)");
		}
		if (s->phase == SM_PH_RUN || s->phase == SM_PH_EXPLORE)
			buf_addf(out, "; running ship %d with %d energy left", s->p[s->cur].ships[s->run].no, s->energy);
		buf_adds(out, ".\n");
	}
	/* the players, the reader first */
	if (viewer >= 0 && viewer < s->n)
		pos_player(s, viewer, viewer, seats, out);
	for (int p = 0; p < s->n; p++)
		if (p != viewer)
			pos_player(s, p, viewer, seats, out);
	/* the market */
	buf_adds(out, "At the Market: ");
	if (!pos_cards(out, s->mdisp, SM_MARKET_SLOTS, 0))
		buf_adds(out, "no cards");
	if (s->refineries_open) {
		buf_adds(out, "; refineries: ");
		if (!pos_cards(out, s->rdisp, SM_REFINERY_SLOTS, 0))
			buf_adds(out, "none");
	}
	buf_adds(out, ".\n");
	/* the shipyard: this Mark's ships */
	buf_addf(out, "At the Shipyard: Mark %d scouts for %d credits (%d left), tugs for %d credits (%d left).\n",
		 s->era, sm_ships[s->era - 1][SM_SCOUT].cost, s->supply[s->era - 1][SM_SCOUT],
		 sm_ships[s->era - 1][SM_TUG].cost, s->supply[s->era - 1][SM_TUG]);
	/* the belt */
	for (int k = 0; k < SM_NKINDS; k++)
		bag += s->bag[k];
	buf_adds(out, "In known space: ");
	if (!pos_tokens(out, s->known))
		buf_adds(out, "nothing");
	buf_adds(out, "; destinations: ");
	if (!pos_cards(out, s->ddisp, SM_DEST_SLOTS, 1))
		buf_adds(out, "none");
	buf_adds(out, "; ");
	words_count(out, bag, "token", "tokens");
	buf_adds(out, " in the bag.\n");
	return 0;
}
