/* games/alien-frontiers/af_story.c: each step in words (game_ops.describe), read from the positions around it */
/* SPDX-License-Identifier: MIT */
#include "games/alien-frontiers/af_internal.h"

#include <stdio.h>
#include <string.h>

#include "util/banned.h"
#include "util/words.h"

/*
 * Alien Frontiers has no hidden information (every hand of alien tech is
 * face up, the display is public, the draw pile is shuffled and unseen by
 * all), so every reader gets the same sentence.
 */

#define FAC_NAME(f) (af_fac_names[(f)].name)
#define TERR_NAME(t) (af_terr_names[(t)].name)
#define CARD_NAME(c) (af_card_names[(c)].name)

struct story {
	const struct af_state *b, *a; /* before, after */
	const struct af_move *m;
	int p; /* who took the step */
	const json_t *seats;
	struct buf *out;
};

static void who(const struct story *st, int seat)
{
	words_seat(st->out, st->seats, seat);
}

/* "1 fuel and 2 ore", "3 ore", "nothing" */
static void amounts(struct buf *out, int fuel, int ore)
{
	if (fuel > 0)
		buf_addf(out, "%d fuel", fuel);
	if (fuel > 0 && ore > 0)
		buf_adds(out, " and ");
	if (ore > 0)
		buf_addf(out, "%d ore", ore);
	if (fuel <= 0 && ore <= 0)
		buf_adds(out, "nothing");
}

/* " for 2 fuel" when the card's power cost something */
static void paid(struct buf *out, int fuel)
{
	if (fuel > 0)
		buf_addf(out, " for %d fuel", fuel);
}

/* Ship tokens as people say them: "a 3", "2 and 3", "3 and the Relic Ship on 4". */
static void ships(struct buf *out, const uint8_t *tok, int n)
{
	char items[AF_MAXHAND + 5][32];
	const char *list[AF_MAXHAND + 5];

	if (n == 1 && !(tok[0] & AF_TOK_RELIC)) {
		buf_addf(out, "a %d", AF_TOK_VAL(tok[0]));
		return;
	}
	for (int i = 0; i < n && i < AF_MAXHAND + 5; i++) {
		if (tok[i] & AF_TOK_RELIC)
			snprintf(items[i], sizeof(items[i]), "the Relic Ship on %d", AF_TOK_VAL(tok[i]));
		else
			snprintf(items[i], sizeof(items[i]), "%d", AF_TOK_VAL(tok[i]));
		list[i] = items[i];
	}
	words_join(out, list, n < AF_MAXHAND + 5 ? n : AF_MAXHAND + 5);
}

/* The territory where p has one more colony after the step than before; -1 when none. */
static int landed_on(const struct story *st)
{
	for (int t = 0; t < AF_NTERR; t++)
		if (st->a->col[t][st->p] > st->b->col[t][st->p])
			return t;
	return -1;
}

/* What docking at fac gave, after ": " (fuel and ore: the change of p's resources the docking made). */
static void dock_effect(const struct story *st, int fac, int fuel, int ore)
{
	const struct af_state *b = st->b, *a = st->a;
	struct buf *out = st->out;
	int p = st->p, t;

	switch (fac) {
	case AF_SOLAR:
		buf_addf(out, ": +%d fuel", fuel);
		break;
	case AF_MINE:
		buf_addf(out, ": +%d ore", ore);
		break;
	case AF_MARKET: {
		int rate = 7;

		for (int i = 0; i < AF_NSHIPS; i++)
			if (a->loc[i] == AF_LOC_FAC + AF_MARKET && af__ship_owner(a, i) == p && a->val[i] < rate)
				rate = a->val[i];
		if (af__has_bonus(a, p, AF_HEINLEIN))
			rate = 1;
		if (rate < 7)
			buf_addf(out, ": may trade %d fuel for each ore", rate);
		break;
	}
	case AF_SHIPYARD:
		buf_adds(out, ": a new ship for ");
		amounts(out, -fuel, -ore);
		break;
	case AF_CONSTRUCTOR:
	case AF_TERRA:
		if ((t = landed_on(st)) >= 0) {
			buf_addf(out, ": a colony on %s for ", TERR_NAME(t));
			amounts(out, -fuel, -ore);
		}
		break;
	case AF_HUB:
		if (a->hub[p] && a->hub[p] != b->hub[p]) {
			buf_addf(out, ": %s colony on circle %d of 7", b->hub[p] ? "the" : "a new", a->hub[p]);
			if (a->hub[p] == AF_HUB_TOP)
				buf_adds(out, ", ready to launch");
		}
		break;
	case AF_ARTIFACT:
		if (a->art_sum >= 8)
			buf_addf(out, ": %d there, enough to claim a card", a->art_sum);
		else
			buf_addf(out, ": %d there of the 8 that claim a card", a->art_sum);
		break;
	case AF_RAIDERS: {
		int bumped = 0;

		for (int i = 0; i < AF_NSHIPS; i++)
			bumped += b->loc[i] == AF_LOC_FAC + AF_RAIDERS && a->loc[i] == AF_LOC_BAY;
		if (bumped)
			buf_adds(out, ", sending the ships there before to the Maintenance Bay");
		buf_adds(out, a->raid ? ": a raid follows" : ": there is nothing to raid");
		break;
	}
	default:
		break;
	}
}

/* What every kind of step may change besides its own result: control, the Relic Ship, the end. */
static void aftermath(const struct story *st)
{
	const struct af_state *b = st->b, *a = st->a;
	struct buf *out = st->out;

	for (int t = 0; t < AF_NTERR; t++) {
		if (a->ctl[t] == b->ctl[t])
			continue;
		buf_adds(out, "; ");
		if (a->ctl[t] >= 0) {
			who(st, a->ctl[t]);
			buf_addf(out, " now controls %s", TERR_NAME(t));
		} else {
			buf_addf(out, "nobody controls %s now", TERR_NAME(t));
		}
	}
	if (b->relic_owner >= 0 && a->relic_owner < 0 && st->m->kind != AF_M_END)
		buf_adds(out, "; the Relic Ship went back to Burroughs Desert");
	if (a->over && !b->over) {
		buf_adds(out, "; ");
		who(st, a->ender);
		buf_adds(out, " landed their last colony: the game is over");
	}
}

static void say_end(const struct story *st)
{
	const struct af_state *b = st->b, *a = st->a;
	struct buf *out = st->out;
	int q = a->cur;

	buf_adds(out, " ended the turn; ");
	who(st, q);
	if (!a->nrolled) {
		buf_adds(out, " had no ships to roll");
	} else {
		buf_adds(out, " rolled");
		for (int i = 0; i < a->nrolled && i < AF_MAXHAND; i++)
			buf_addf(out, " %d", a->rolled[i]);
	}
	if (q != st->p && (b->hand[q] >> AF_CACHE & 1)) {
		int fuel = a->fuel[q] - b->fuel[q], ore = a->ore[q] - b->ore[q];

		buf_adds(out, " and the Resource Cache gave ");
		amounts(out, fuel, ore);
		if (!(a->hand[q] >> AF_CACHE & 1))
			buf_adds(out, ", then went to the discard pile");
	}
}

/* Booster Pod, Stasis Beam, Polarity Device: "a 3 became a 4" */
static void say_change(const struct story *st, int from, int to)
{
	buf_addf(st->out, "a %d became a %d", from, to);
}

/* The values that p's unplaced ships show after a step and did not before it, ascending. */
static int new_values(const struct story *st, int *out)
{
	int before[7] = { 0 }, after[7] = { 0 }, n = 0;

	for (int i = 0; i < AF_NSHIPS; i++) {
		if (af__ship_owner(st->b, i) == st->p && st->b->loc[i] == AF_LOC_HAND)
			before[st->b->val[i] % 7]++;
		if (af__ship_owner(st->a, i) == st->p && st->a->loc[i] == AF_LOC_HAND)
			after[st->a->val[i] % 7]++;
	}
	for (int k = 0; k < st->m->n; k++)
		before[AF_TOK_VAL(st->m->tok[k])]--;
	for (int v = 1; v <= 6; v++)
		for (int k = before[v] > 0 ? before[v] : 0; k < after[v]; k++)
			out[n++] = v;
	return n;
}

/* Plasma Cannon targets grouped by owner: "Zed's 2 and 2 and Yara's Relic Ship on 5" */
static void targets(const struct story *st, const uint8_t *tok, int n)
{
	struct buf *out = st->out;
	int owners[AF_MAXP], nown = 0;

	for (int o = 0; o < AF_MAXP; o++)
		for (int i = 0; i < n; i++)
			if ((tok[i] >> 4) == o) {
				owners[nown++] = o;
				break;
			}
	for (int g = 0; g < nown; g++) {
		uint8_t mine[12];
		int k = 0;

		for (int i = 0; i < n && k < 12; i++)
			if ((tok[i] >> 4) == owners[g])
				mine[k++] = (uint8_t)(tok[i] & 15);
		if (g)
			buf_adds(out, g == nown - 1 ? " and " : ", ");
		who(st, owners[g]);
		buf_adds(out, "'s ");
		if (k == 1 && !(mine[0] & AF_TOK_RELIC))
			buf_addf(out, "%d", AF_TOK_VAL(mine[0]));
		else
			ships(out, mine, k);
	}
}

static void say_use(const struct story *st)
{
	const struct af_state *b = st->b, *a = st->a;
	const struct af_move *m = st->m;
	struct buf *out = st->out;
	int p = st->p, fuel = b->fuel[p] - a->fuel[p], vals[AF_MAXHAND];

	switch (m->card) {
	case AF_BOOSTER:
	case AF_STASIS:
	case AF_POLARITY: {
		int v = AF_TOK_VAL(m->tok[0]);

		buf_addf(out, " used the %s", CARD_NAME(m->card));
		paid(out, fuel);
		buf_adds(out, ": ");
		say_change(st, v, m->card == AF_BOOSTER ? v + 1 : m->card == AF_STASIS ? v - 1 : 7 - v);
		break;
	}
	case AF_GRAVITY:
		buf_addf(out, " used the %s", CARD_NAME(m->card));
		paid(out, fuel);
		buf_adds(out, ": ");
		say_change(st, AF_TOK_VAL(m->tok[0]), AF_TOK_VAL(m->tok[0]) - 1);
		buf_adds(out, " and ");
		say_change(st, AF_TOK_VAL(m->tok[1]), AF_TOK_VAL(m->tok[1]) + 1);
		break;
	case AF_WARPER: {
		int k = new_values(st, vals);

		buf_addf(out, " used the %s", CARD_NAME(m->card));
		paid(out, fuel);
		buf_adds(out, " to roll ");
		ships(out, m->tok, m->n);
		buf_adds(out, " again");
		if (k) {
			buf_adds(out, ": now ");
			words_ints(out, vals, k);
		}
		break;
	}
	case AF_CRYSTAL:
		buf_addf(out, " used the %s", CARD_NAME(m->card));
		paid(out, fuel);
		buf_addf(out, " to borrow the bonus of %s", TERR_NAME(m->terr));
		break;
	case AF_CANNON:
		buf_addf(out, " fired the %s at the %s", CARD_NAME(m->card), FAC_NAME(m->fac));
		paid(out, fuel);
		buf_adds(out, ": ");
		targets(st, m->tok, m->n);
		buf_adds(out, m->fac == AF_TERRA ? " went back to the stock" : " went to the Maintenance Bay");
		break;
	case AF_TELEPORTER: {
		int cost = af_card_fuel[AF_TELEPORTER] - (af__has_bonus(b, p, AF_POHL) ? 1 : 0);

		if (cost < 0)
			cost = 0;
		buf_addf(out, " used the %s", CARD_NAME(m->card));
		paid(out, cost);
		buf_adds(out, " to move ");
		ships(out, m->tok, 1);
		buf_addf(out, " from the %s to the %s", FAC_NAME(m->fac), FAC_NAME(m->fac2));
		if (m->n > 1) {
			buf_adds(out, " and docked ");
			ships(out, m->tok + 1, m->n - 1);
			buf_adds(out, " with it");
		}
		dock_effect(st, m->fac2, a->fuel[p] - b->fuel[p] + cost, a->ore[p] - b->ore[p]);
		break;
	}
	default:
		buf_addf(out, " used the %s", CARD_NAME(m->card));
		break;
	}
}

static void say_discard(const struct story *st)
{
	const struct af_state *b = st->b;
	const struct af_move *m = st->m;
	struct buf *out = st->out;

	buf_addf(out, " discarded the %s to ", CARD_NAME(m->card));
	switch (m->card) {
	case AF_BOOSTER:
		buf_addf(out, "remove the %s", af_field_names[m->field].name);
		if (b->field[m->field] >= 0)
			buf_addf(out, " from %s", TERR_NAME(b->field[m->field]));
		break;
	case AF_CRYSTAL:
	case AF_STASIS:
	case AF_GRAVITY: {
		int f = m->card == AF_CRYSTAL ? AF_POSITRON : m->card == AF_STASIS ? AF_ISOLATION : AF_REPULSOR;

		if (b->field[f] >= 0)
			buf_addf(out, "move the %s from %s to %s", af_field_names[f].name, TERR_NAME(b->field[f]),
				 TERR_NAME(m->terr));
		else
			buf_addf(out, "put the %s on %s", af_field_names[f].name, TERR_NAME(m->terr));
		break;
	}
	case AF_TELEPORTER:
		buf_adds(out, "move ");
		who(st, m->seat1);
		buf_addf(out, "'s colony from %s to %s", TERR_NAME(m->terr), TERR_NAME(m->terr2));
		break;
	case AF_POLARITY:
		buf_adds(out, "swap ");
		who(st, m->seat1);
		buf_addf(out, "'s colony on %s with ", TERR_NAME(m->terr));
		who(st, m->seat2);
		buf_addf(out, "'s on %s", TERR_NAME(m->terr2));
		break;
	case AF_CANNON:
		buf_adds(out, "send ");
		who(st, m->tok[0] >> 4);
		if (m->tok[0] & AF_TOK_RELIC)
			buf_addf(out, "'s Relic Ship on %d at the %s back to Burroughs Desert", AF_TOK_VAL(m->tok[0]),
				 FAC_NAME(m->fac));
		else
			buf_addf(out, "'s %d at the %s back to the stock", AF_TOK_VAL(m->tok[0]), FAC_NAME(m->fac));
		break;
	case AF_WARPER:
		buf_addf(out, "take the %s from the discard pile", CARD_NAME(m->card2));
		break;
	default:
		buf_adds(out, "use its power");
		break;
	}
}

static void say_raid(const struct story *st)
{
	const struct af_state *b = st->b;
	const struct af_move *m = st->m;
	struct buf *out = st->out;
	int groups = 0, total = 0;

	if (m->card >= 0) {
		buf_addf(out, " stole the %s from ", CARD_NAME(m->card));
		who(st, m->seat1);
		if (b->hand[st->p] >> m->card & 1)
			buf_adds(out, " and discarded it, having one already");
		return;
	}
	buf_adds(out, " stole ");
	for (int v = 0; v < b->n; v++)
		total += m->take[v][0] || m->take[v][1];
	for (int v = 0; v < b->n; v++) {
		if (!m->take[v][0] && !m->take[v][1])
			continue;
		if (groups)
			buf_adds(out, groups == total - 1 ? " and " : ", ");
		amounts(out, m->take[v][0], m->take[v][1]);
		buf_adds(out, " from ");
		who(st, v);
		groups++;
	}
}

static void say_step(const struct story *st)
{
	const struct af_state *b = st->b, *a = st->a;
	const struct af_move *m = st->m;
	struct buf *out = st->out;
	int p = st->p;

	switch (m->kind) {
	case AF_M_DOCK:
		buf_adds(out, " docked ");
		ships(out, m->tok, m->n);
		buf_addf(out, " at the %s", FAC_NAME(m->fac));
		dock_effect(st, m->fac, a->fuel[p] - b->fuel[p], a->ore[p] - b->ore[p]);
		break;
	case AF_M_TRADE:
		buf_addf(out, " traded %d fuel for %d ore at the Orbital Market", b->fuel[p] - a->fuel[p],
			 a->ore[p] - b->ore[p]);
		break;
	case AF_M_CYCLE: {
		const char *list[3];
		int k = 0;

		for (int i = 0; i < 3; i++)
			if (a->disp[i] >= 0)
				list[k++] = CARD_NAME(a->disp[i]);
		buf_adds(out, " cycled the cards of the Alien Artifact: ");
		if (k) {
			words_join(out, list, k);
			buf_adds(out, k == 1 ? " is" : " are");
			buf_adds(out, " on display now");
		} else {
			buf_adds(out, "the display is empty");
		}
		break;
	}
	case AF_M_CLAIM: {
		int slot = -1;

		for (int i = 0; i < 3; i++)
			if (b->disp[i] == m->card)
				slot = i;
		buf_addf(out, " claimed the %s at the Alien Artifact", CARD_NAME(m->card));
		if (slot >= 0 && a->disp[slot] >= 0)
			buf_addf(out, "; the %s takes its place on display", CARD_NAME(a->disp[slot]));
		else if (slot >= 0)
			buf_adds(out, "; its place on display stays empty");
		break;
	}
	case AF_M_LAUNCH:
		buf_addf(out, " launched a colony from the Colonist Hub to %s for ", TERR_NAME(m->terr));
		amounts(out, b->fuel[p] - a->fuel[p], b->ore[p] - a->ore[p]);
		if (a->hub[p])
			buf_addf(out, "; the next colony starts on circle %d", a->hub[p]);
		break;
	case AF_M_BUY:
		buf_adds(out, " bought the Relic Ship for ");
		amounts(out, b->fuel[p] - a->fuel[p], b->ore[p] - a->ore[p]);
		break;
	case AF_M_USE:
		say_use(st);
		break;
	case AF_M_DISCARD:
		say_discard(st);
		break;
	case AF_M_RAID:
		say_raid(st);
		break;
	case AF_M_RETURN:
		buf_adds(out, " returned ");
		amounts(out, m->take[0][0], m->take[0][1]);
		buf_addf(out, " to keep %d resources", AF_HAND_LIMIT);
		break;
	case AF_M_END:
		say_end(st);
		break;
	default:
		buf_adds(out, " took a step");
		break;
	}
}

int af__describe(const struct af_state *before, const struct af_state *after, const struct af_move *m, int seat,
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

/* The ships still to place this turn: "3 and the Relic Ship on 5". */
static int pos_unplaced(const struct af_state *s, struct buf *out)
{
	char items[AF_MAXHAND + 1][32];
	const char *list[AF_MAXHAND + 1];
	int n = 0;

	for (int i = 0; i < AF_NSHIPS && n < AF_MAXHAND + 1; i++) {
		if (s->loc[i] != AF_LOC_HAND)
			continue;
		if (i == AF_RELIC)
			snprintf(items[n], sizeof(items[n]), "the Relic Ship on %d", s->val[i]);
		else
			snprintf(items[n], sizeof(items[n]), "%d", s->val[i]);
		list[n] = items[n];
		n++;
	}
	words_join(out, list, n);
	return n;
}

/* One player's line: "You: 5 victory points, 3 fuel, 2 ore, 6 colonies to land; alien tech: Data Crystal." */
static void pos_player(const struct af_state *s, int p, int viewer, const json_t *seats, struct buf *out)
{
	const char *cards[AF_NCARD];
	int ncards = 0;

	pos_who(out, seats, p, viewer, 1);
	buf_adds(out, ": ");
	words_count(out, s->vp[p], "victory point", "victory points");
	buf_addf(out, ", %d fuel, %d ore, ", s->fuel[p], s->ore[p]);
	words_count(out, af__colonies_left(s, p), "colony", "colonies");
	buf_adds(out, " to land");
	if (s->hub[p])
		buf_addf(out, " (one on circle %d of the Colonist Hub)", s->hub[p]);
	if (s->relic_owner == p)
		buf_adds(out, ", the Relic Ship");
	for (int c = 0; c < AF_NCARD; c++)
		if ((s->hand[p] >> c) & 1)
			cards[ncards++] = CARD_NAME(c);
	buf_adds(out, "; alien tech: ");
	if (ncards)
		words_join(out, cards, ncards);
	else
		buf_adds(out, "none");
	buf_adds(out, ".\n");
}

int af__position(const struct af_state *s, int viewer, const json_t *seats, struct buf *out)
{
	int any = 0;

	/* whose turn, and the roll */
	if (s->over) {
		buf_adds(out, "The game is over: ");
		words_seat(out, seats, s->ender);
		buf_adds(out, " landed their last colony.\n");
	} else {
		struct buf ships = BUF_INIT;
		int left = pos_unplaced(s, &ships);

		buf_addf(out, "Turn %d: ", s->turn);
		if (s->cur == viewer)
			buf_adds(out, "your turn");
		else {
			words_seat(out, seats, s->cur);
			buf_adds(out, "'s turn");
		}
		if (s->nrolled) {
			int v[AF_MAXHAND];

			for (int i = 0; i < s->nrolled; i++)
				v[i] = s->rolled[i];
			buf_adds(out, "; rolled ");
			words_ints(out, v, s->nrolled);
		}
		if (left && left == s->nrolled && s->loc[AF_RELIC] != AF_LOC_HAND) {
			buf_adds(out, ", none placed yet");
		} else if (left) {
			buf_adds(out, "; still to place: ");
			buf_adds(out, ships.data);
		} else if (s->nrolled) {
			buf_adds(out, "; every ship placed");
		}
		buf_adds(out, ".\n");
		buf_release(&ships);
	}
	/* the players, the reader first */
	if (viewer >= 0 && viewer < s->n)
		pos_player(s, viewer, viewer, seats, out);
	for (int p = 0; p < s->n; p++)
		if (p != viewer)
			pos_player(s, p, viewer, seats, out);
	/* the territories with colonies: who holds each */
	buf_adds(out, "Colonies: ");
	for (int t = 0; t < AF_NTERR; t++) {
		int total = 0, first = 1;

		for (int p = 0; p < s->n; p++)
			total += s->col[t][p];
		if (!total)
			continue;
		buf_addf(out, "%s%s ", any ? "; " : "", TERR_NAME(t));
		if (s->ctl[t] >= 0) {
			buf_adds(out, "held by ");
			pos_who(out, seats, s->ctl[t], viewer, 0);
		} else {
			buf_adds(out, "held by no one");
		}
		buf_adds(out, " (");
		for (int p = 0; p < s->n; p++) {
			if (!s->col[t][p])
				continue;
			buf_adds(out, first ? "" : ", ");
			pos_who(out, seats, p, viewer, 0);
			buf_addf(out, " %d", s->col[t][p]);
			first = 0;
		}
		buf_adds(out, ")");
		any = 1;
	}
	buf_adds(out, any ? ".\n" : "none landed yet.\n");
	/* the field generators that sit on a territory */
	for (int f = 0; f < AF_NFIELD; f++)
		if (s->field[f] >= 0)
			buf_addf(out, "The %s is on %s.\n", af_field_names[f].name, TERR_NAME(s->field[f]));
	/* the alien tech on offer */
	{
		const char *shown[3];
		int n = 0, deck = 0;

		for (int i = 0; i < 3; i++)
			if (s->disp[i] >= 0)
				shown[n++] = CARD_NAME(s->disp[i]);
		for (int c = 0; c < AF_NCARD; c++)
			deck += s->deck[c];
		buf_adds(out, "Alien tech on offer: ");
		if (n)
			words_join(out, shown, n);
		else
			buf_adds(out, "none");
		buf_adds(out, " (");
		words_count(out, deck, "card", "cards");
		buf_adds(out, " in the draw pile).\n");
	}
	return 0;
}
