/* games/starship-merchants/sm_picks.c: a Starship Merchants step cut into the board parts a player taps */
/* SPDX-License-Identifier: MIT */
#include "games/starship-merchants/sm_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/picks.h"
#include "util/banned.h"

/*
 * The parts sm_board.c draws (struct game_pick.part):
 *   act-stay, act-move, act-pass   where to act this turn (the quadrants' row)
 *   card-<slug>                    a card of the Market display: buy it
 *   ship-<n>                       your ship n: the ship a bought or transferred card goes on
 *   run-ship-<n>, repay-ship-<n>   your ship n: run it in the Belt, repay its loans
 *   dest-<slug>                    a destination in the Belt: end the run there, or replace it
 *   anything else                  a button in the board's row of choices: buy-tug, lease-scout,
 *                                  replace-<slug> then and-<slug> (two Market cards, or one destination),
 *                                  pickup-cobalt then from-local,
 *                                  claim-iridium, act-explore, act-load, act-leave, aside-<slug>,
 *                                  transfer-<slug>, act-end-game, act-done
 * The action comes first (the card, the ship, the token), then its choices.
 */

static const char *type_name(int t)
{
	return t >= 0 && t < SM_NTYPES ? sm_type_names[t] : "ship";
}

/* The ship numbered no of seat, as words: "your Tug 2 (Mark 1)". */
static void ship_words(const struct sm_state *s, int seat, int no, char *out, size_t size)
{
	const struct sm_player *pl = &s->p[seat];

	for (int i = 0; i < pl->nships; i++)
		if (pl->ships[i].no == no) {
			snprintf(out, size, "your %s %d (Mark %d)", type_name(pl->ships[i].type), no, pl->ships[i].mark);
			return;
		}
	snprintf(out, size, "your ship %d", no);
}

/* Append to out (of size) what follows ", " when out has words already. */
static void add_words(char *out, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_words(char *out, size_t size, const char *fmt, ...)
{
	size_t len = strlen(out);
	va_list ap;

	if (len + 2 >= size)
		return;
	if (len) {
		memcpy(out + len, ", ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(out + len, size - len, fmt, ap);
	va_end(ap);
}

/*
 * What m costs and gives seat, in words ("pay 8 credits"; "+12 credits";
 * "pay 4 credits, 2 loans of 4 credits"; "1 energy"; "4 energy to spend"),
 * found by playing it on a copy with a throwaway generator (what it draws
 * is never shown: only counts are compared). The energy comes from the
 * rules: a run that ends with the step (its last energy spent) leaves none
 * to compare.
 */
static void effect(const struct sm_state *s, int seat, const struct sm_move *m, char *out, size_t size)
{
	struct sm_state *w = malloc(sizeof(*w));
	struct rng r;
	struct err e = { 0 };
	int d, loans, energy = sm_rules_energy(s, seat, m);

	out[0] = '\0';
	if (!w)
		return;
	*w = *s;
	rng_seed(&r, 1);
	if (sm_rules_apply(w, seat, m, &r, &e) < 0) {
		free(w);
		return;
	}
	d = w->p[seat].credits - s->p[seat].credits;
	loans = sm_player_loans(&w->p[seat]) - sm_player_loans(&s->p[seat]);
	if (d < 0)
		add_words(out, size, "pay %d credit%s", -d, d == -1 ? "" : "s");
	else if (d > 0)
		add_words(out, size, "+%d credit%s", d, d == 1 ? "" : "s");
	if (loans > 0)
		add_words(out, size, "%d loan%s of %d credits", loans, loans == 1 ? "" : "s",
			  (sm_player_loan_debt(&w->p[seat]) - sm_player_loan_debt(&s->p[seat])) / loans);
	if (energy > 0)
		add_words(out, size, "%d energy", energy);
	if (m->type == SM_MV_RUN && sm_ship_find(&s->p[seat], m->a) >= 0)
		add_words(out, size, "%d energy to spend",
			  sm_ship_energy(&s->p[seat].ships[sm_ship_find(&s->p[seat], m->a)]));
	free(w);
}

static int cut_move(const struct sm_state *s, int seat, const struct sm_move *m, struct picks_cut *c)
{
	char w[64];
	struct game_pick *p;

	switch (m->type) {
	case SM_MV_STAY:
		picks_label(picks_add(c, "act-stay"), "Stay at the %s and act there", sm_place_names[s->p[seat].pos]);
		break;
	case SM_MV_MOVE:
		picks_label(picks_add(c, "act-move"), "Move on to the %s and act there", sm_place_names[(s->p[seat].pos + 1) % 4]);
		break;
	case SM_MV_PASS:
		picks_label(picks_add(c, "act-pass"), "Pass: move on to the %s without acting",
		      sm_place_names[(s->p[seat].pos + 1) % 4]);
		break;
	case SM_MV_DONE:
		picks_label(picks_add(c, "act-done"), "Done");
		break;
	case SM_MV_EXPLORE:
		picks_label(picks_add(c, "act-explore"), "Explore: draw a token from the bag");
		break;
	case SM_MV_LOAD:
		picks_label(picks_add(c, "act-load"), "Load the explored token");
		break;
	case SM_MV_LEAVE:
		picks_label(picks_add(c, "act-leave"), "Leave the explored token in local space");
		break;
	case SM_MV_END_GAME:
		picks_label(picks_add(c, "act-end-game"), "End the game here");
		break;
	case SM_MV_BUY_SHIP:
		picks_label(picks_add(c, "buy-%s", sm_type_slugs[m->a]), "Buy a %s", type_name(m->a));
		break;
	case SM_MV_LEASE_SHIP:
		picks_label(picks_add(c, "lease-%s", sm_type_slugs[m->a]), "Lease a %s", type_name(m->a));
		break;
	case SM_MV_REPAY:
		ship_words(s, seat, m->a, w, sizeof(w));
		picks_label(picks_add(c, "repay-ship-%d", m->a), "Repay the loans on %s", w);
		break;
	case SM_MV_RUN:
		ship_words(s, seat, m->a, w, sizeof(w));
		picks_label(picks_add(c, "run-ship-%d", m->a), "Run %s in the Belt", w);
		break;
	case SM_MV_REPLACE_CARDS:
		picks_label(picks_add(c, "replace-%s", sm_cards[m->a].slug), "Replace the %s", sm_cards[m->a].name);
		picks_label(picks_add(c, "and-%s", sm_cards[m->b].slug), "and the %s", sm_cards[m->b].name);
		break;
	case SM_MV_BUY_CARD:
		p = picks_add(c, "card-%s", sm_cards[m->a].slug);
		picks_label(p, "Buy the %s", sm_cards[m->a].name);
		picks_cost(p, "%d credits", sm_cards[m->a].cost);
		if (sm_cards[m->a].cat != SM_CARD_REFINERY) {
			ship_words(s, seat, m->b, w, sizeof(w));
			picks_label(picks_add(c, "ship-%d", m->b), "for %s", w);
		}
		break;
	case SM_MV_CLAIM:
		picks_label(picks_add(c, "claim-%s", sm_kinds[m->a].slug), "Claim %s", sm_kinds[m->a].name);
		break;
	case SM_MV_PICKUP:
		picks_label(picks_add(c, "pickup-%s", sm_kinds[m->a].slug), "Pick up %s", sm_kinds[m->a].name);
		if (m->b == SM_SRC_KNOWN)
			picks_label(picks_add(c, "from-known"), "from known space");
		else if (m->b == SM_SRC_LOCAL)
			picks_label(picks_add(c, "from-local"), "from your local space");
		else
			picks_label(picks_add(c, "from-%d", m->b - SM_SRC_SEAT), "from %c%d's local space", GAME_NAME_MARK,
			      m->b - SM_SRC_SEAT);
		break;
	case SM_MV_REPLACE_DEST:
		picks_label(picks_add(c, "replace-%s", sm_dests[m->a].slug), "Replace the %s", sm_dests[m->a].name);
		break;
	case SM_MV_END_RUN:
		p = picks_add(c, "dest-%s", sm_dests[m->a].slug);
		picks_label(p, "End the run at the %s", sm_dests[m->a].name);
		break;
	case SM_MV_TRANSFER:
		picks_label(picks_add(c, "transfer-%s", sm_cards[m->a].slug), "Move the %s", sm_cards[m->a].name);
		ship_words(s, seat, m->b, w, sizeof(w));
		picks_label(picks_add(c, "ship-%d", m->b), "to %s", w);
		break;
	case SM_MV_SET_ASIDE:
		picks_label(picks_add(c, "aside-%s", sm_cards[m->a].slug), "Set the %s aside for your next ship", sm_cards[m->a].name);
		break;
	default:
		return -1;
	}
	return 0;
}

int sm_picks(const void *state, int seat, const void *move, struct game_pick *out, int max, struct err *err)
{
	const struct sm_state *s = state;
	const struct sm_move *m = move;
	struct picks_cut c = { .out = out, .max = max };
	char eff[96];

	if (cut_move(s, seat, m, &c) < 0 || c.n == 0)
		return err_set(err, ERR_INPUT, "this step cannot be tapped on the board");
	if (c.over)
		return err_set(err, ERR_INTERNAL, "this step needs more than %d taps", max);
	/* what the whole step costs and gives, on its last tap (a card's price stays on the card) */
	effect(s, seat, m, eff, sizeof(eff));
	/* the choices that cost nothing say so, beside the ones that do */
	if (!eff[0] && (m->type == SM_MV_STAY || m->type == SM_MV_MOVE || m->type == SM_MV_PASS ||
			m->type == SM_MV_REPLACE_CARDS))
		snprintf(eff, sizeof(eff), "free");
	if (eff[0] && !(c.n > 1 && m->type == SM_MV_BUY_CARD))
		snprintf(out[c.n - 1].cost, sizeof(out[c.n - 1].cost), "%s", eff);
	return c.n;
}
