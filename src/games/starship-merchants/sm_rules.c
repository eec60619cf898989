/* games/starship-merchants/sm_rules.c: checking and applying the steps of Starship Merchants */
/* SPDX-License-Identifier: MIT */
#include "games/starship-merchants/sm_internal.h"

#include <stdio.h>
#include <string.h>

#include "util/banned.h"

static const char *card_name(int c)
{
	return sm_cards[c].name;
}

static int in_display(const int *disp, int n, int card, int skip)
{
	for (int i = 0; i < n; i++)
		if (i != skip && disp[i] == card)
			return i;
	return -1;
}

static int salvage_index(const struct sm_state *s, int card)
{
	for (int i = 0; i < s->nsalvage; i++)
		if (s->salvage[i] == card)
			return i;
	return -1;
}

/* Cheapest loan marker the player holds, or 0 when none. */
static int cheapest_marker(const struct sm_player *pl)
{
	int best = 0;

	for (int i = 0; i < pl->nships; i++)
		if (pl->ships[i].loans && (!best || sm_marker_cost(&pl->ships[i]) < best))
			best = sm_marker_cost(&pl->ships[i]);
	return best;
}

/* The Shipyard forces a repayment: loans held and at least one marker affordable. */
static int must_repay(const struct sm_player *pl)
{
	int c = cheapest_marker(pl);

	return c > 0 && pl->credits >= c;
}

static const char *phase_words(int ph)
{
	switch (ph) {
	case SM_PH_START: return "choose stay, move or pass";
	case SM_PH_SHIPYARD: return "buy or lease a ship, or repay loans, at the Shipyard";
	case SM_PH_MARKET: return "buy a card at the Market";
	case SM_PH_BELT: return "choose a ship to run in the Belt";
	case SM_PH_RUN: return "spend the running ship's energy";
	case SM_PH_EXPLORE: return "load or leave the explored token";
	case SM_PH_SALVAGE: return "transfer or set aside the cards of your scrapped ships";
	case SM_PH_TRIGGER: return "decide whether to end the game";
	default: return "nothing (the game is over)";
	}
}

static int check_start(const struct sm_state *s, int seat, const struct sm_move *m, struct err *err)
{
	const struct sm_player *pl = &s->p[seat];

	if (m->type == SM_MV_STAY || m->type == SM_MV_MOVE)
		return 0;
	/* PASS */
	if (pl->pos == SM_DOCK && must_repay(pl))
		return err_set(err, ERR_ILLEGAL,
			       "entering the Shipyard with %d loan marker(s) you must repay at least one "
			       "(%d credits each or more, you have %d): use move, then repay",
			       sm_player_loans(pl), cheapest_marker(pl), pl->credits);
	return 0;
}

static int check_shipyard(const struct sm_state *s, int seat, const struct sm_move *m, struct err *err)
{
	const struct sm_player *pl = &s->p[seat];
	int loans = sm_player_loans(pl);

	if (m->type == SM_MV_BUY_SHIP || m->type == SM_MV_LEASE_SHIP) {
		const struct sm_ship_kind *k;
		int price, mark = s->era;

		if (m->a < 0 || m->a >= SM_NTYPES)
			return err_set(err, ERR_ILLEGAL, "there is no such ship type");
		if (loans || s->repaid)
			return err_set(err, ERR_ILLEGAL,
				       "you %s loan marker(s): at the Shipyard repaying is your whole action",
				       loans ? "hold" : "repaid");
		k = &sm_ships[mark - 1][m->a];
		if (s->supply[mark - 1][m->a] == 0)
			return err_set(err, ERR_ILLEGAL, "no Mark %d %ss are left (only the current Mark is sold)",
				       mark, sm_type_slugs[m->a]);
		if (sm_owned_of_mark(pl, mark) >= sm_consts.mark_limit[mark - 1])
			return err_set(err, ERR_ILLEGAL, "you already own %d Mark %d ships, the limit is %d",
				       sm_owned_of_mark(pl, mark), mark, sm_consts.mark_limit[mark - 1]);
		if (pl->nships >= SM_MAX_SHIPS)
			return err_set(err, ERR_ILLEGAL, "your fleet is full (%d ships)", pl->nships);
		price = m->type == SM_MV_BUY_SHIP ? k->cost : k->cost / 2;
		if (pl->credits < price)
			return err_set(err, ERR_ILLEGAL, "a Mark %d %s %s %d credits; you have %d", mark,
				       sm_type_slugs[m->a], m->type == SM_MV_BUY_SHIP ? "costs" : "leases for",
				       price, pl->credits);
		return 0;
	}
	if (m->type == SM_MV_REPAY) {
		int i = sm_ship_find(pl, m->a);

		if (i < 0)
			return err_set(err, ERR_ILLEGAL, "you have no ship %d", m->a);
		if (!pl->ships[i].loans)
			return err_set(err, ERR_ILLEGAL, "ship %d has no loan markers", m->a);
		if (pl->credits < sm_marker_cost(&pl->ships[i]))
			return err_set(err, ERR_ILLEGAL, "a loan marker on ship %d costs %d credits; you have %d",
				       m->a, sm_marker_cost(&pl->ships[i]), pl->credits);
		return 0;
	}
	if (m->type == SM_MV_DONE) {
		if (s->repaid == 0 && must_repay(pl))
			return err_set(err, ERR_ILLEGAL,
				       "with %d loan marker(s) at the Shipyard you must repay at least one "
				       "(the cheapest costs %d credits, you have %d)",
				       loans, cheapest_marker(pl), pl->credits);
		return 0;
	}
	return err_set(err, ERR_ILLEGAL, "at the Shipyard you may only %s", phase_words(SM_PH_SHIPYARD));
}

static int check_card_to_ship(const struct sm_player *pl, const struct sm_state *s, int card, int no,
			      struct err *err)
{
	int i = sm_ship_find(pl, no);
	const struct sm_ship *sh;

	if (i < 0)
		return err_set(err, ERR_ILLEGAL, "you have no ship %d", no);
	sh = &pl->ships[i];
	if (sm_ship_obsolete(s, sh))
		return err_set(err, ERR_ILLEGAL, "ship %d is obsolete (Mark %d in the Mark %d era)", no, sh->mark,
			       s->era);
	if (sm_cards[card].cat == SM_CARD_PILOT && sh->pilot >= 0)
		return err_set(err, ERR_ILLEGAL, "ship %d already has a pilot (%s); one pilot per ship", no,
			       card_name(sh->pilot));
	if (sm_cards[card].cat == SM_CARD_GEAR && sh->ngear >= SM_MAX_GEAR)
		return err_set(err, ERR_ILLEGAL, "ship %d already carries %d gear, the limit", no, sh->ngear);
	return 0;
}

static int check_market(const struct sm_state *s, int seat, const struct sm_move *m, struct err *err)
{
	const struct sm_player *pl = &s->p[seat];

	switch (m->type) {
	case SM_MV_REPLACE_CARDS: {
		int i;

		if (s->bought)
			return err_set(err, ERR_ILLEGAL, "market cards are replaced on arrival, before buying");
		if (!s->moved)
			return err_set(err, ERR_ILLEGAL,
				       "market cards may be replaced only on arrival (you stayed at the Market)");
		if (s->replaced)
			return err_set(err, ERR_ILLEGAL, "you already replaced two market cards this visit");
		if (m->a < 0 || m->b < 0 || m->a >= SM_NCARDS || m->b >= SM_NCARDS || m->a > m->b)
			return err_set(err, ERR_ILLEGAL, "name two cards of the market display");
		i = in_display(s->mdisp, SM_MARKET_SLOTS, m->a, -1);
		if (i < 0)
			return err_set(err, ERR_ILLEGAL, "%s is not in the market display", card_name(m->a));
		if (in_display(s->mdisp, SM_MARKET_SLOTS, m->b, i) < 0)
			return err_set(err, ERR_ILLEGAL, m->a == m->b ? "there is only one %s in the market display" :
					     "%s is not in the market display", card_name(m->b));
		return 0;
	}
	case SM_MV_BUY_CARD: {
		const struct sm_card *c;

		if (s->bought)
			return err_set(err, ERR_ILLEGAL, "you already bought a card this visit (one per action)");
		if (m->a < 0 || m->a >= SM_NCARDS)
			return err_set(err, ERR_ILLEGAL, "there is no such card");
		c = &sm_cards[m->a];
		if (c->cat == SM_CARD_REFINERY) {
			if (!s->refineries_open)
				return err_set(err, ERR_ILLEGAL,
					       "refinery cards are on sale only once a player has left the Dock");
			if (in_display(s->rdisp, SM_REFINERY_SLOTS, m->a, -1) < 0)
				return err_set(err, ERR_ILLEGAL, "%s is not in the refinery display", c->name);
		} else {
			int rc;

			if (in_display(s->mdisp, SM_MARKET_SLOTS, m->a, -1) < 0)
				return err_set(err, ERR_ILLEGAL, "%s is not in the market display", c->name);
			rc = check_card_to_ship(pl, s, m->a, m->b, err);
			if (rc)
				return rc;
		}
		if (pl->credits < c->cost)
			return err_set(err, ERR_ILLEGAL, "%s costs %d credits; you have %d", c->name, c->cost,
				       pl->credits);
		return 0;
	}
	case SM_MV_CLAIM:
		if (!s->bought)
			return err_set(err, ERR_ILLEGAL, "a mine claim comes only with a market or refinery purchase");
		if (m->a < 0 || m->a >= SM_NKINDS)
			return err_set(err, ERR_ILLEGAL, "there is no such token");
		if (!pl->local[m->a])
			return err_set(err, ERR_ILLEGAL, "you have no unclaimed %s in your local space to claim",
				       sm_kinds[m->a].name);
		if (pl->credits < sm_consts.claim_cost)
			return err_set(err, ERR_ILLEGAL, "a mine claim costs %d credits; you have %d",
				       sm_consts.claim_cost, pl->credits);
		return 0;
	case SM_MV_DONE:
		return 0;
	default:
		return err_set(err, ERR_ILLEGAL, "at the Market you may only %s (or replace two cards on arrival, claim a mine, done)",
			       phase_words(SM_PH_MARKET));
	}
}

int sm_rules_energy(const struct sm_state *s, int seat, const struct sm_move *m)
{
	const struct sm_ship *sh;

	if (s->run < 0 || seat != s->cur)
		return 0;
	sh = &s->p[seat].ships[s->run];
	switch (m->type) {
	case SM_MV_PICKUP:
		return m->b >= SM_SRC_SEAT ? sm_ship_remote_cost(sh) : sm_consts.pickup_cost;
	case SM_MV_EXPLORE:
		return sm_ship_explore_cost(sh);
	case SM_MV_REPLACE_DEST:
		return sm_consts.replace_cost;
	case SM_MV_END_RUN:
		return m->a >= 0 && m->a < SM_NDESTS ? sm_dests[m->a].cost : 0;
	default:
		return 0;
	}
}

static int check_run(const struct sm_state *s, int seat, const struct sm_move *m, struct err *err)
{
	const struct sm_player *pl = &s->p[seat];
	const struct sm_ship *sh = &pl->ships[s->run];

	switch (m->type) {
	case SM_MV_PICKUP: {
		int cost = sm_rules_energy(s, seat, m);

		if (m->a < 0 || m->a >= SM_NKINDS)
			return err_set(err, ERR_ILLEGAL, "there is no such token");
		if (m->b == SM_SRC_KNOWN) {
			if (!s->known[m->a])
				return err_set(err, ERR_ILLEGAL, "there is no %s in known space", sm_kinds[m->a].name);
		} else if (m->b == SM_SRC_LOCAL) {
			if (!pl->local[m->a] && !pl->lclaim[m->a])
				return err_set(err, ERR_ILLEGAL, "there is no %s in your local space", sm_kinds[m->a].name);
		} else {
			int o = m->b - SM_SRC_SEAT;

			if (o < 0 || o >= s->n || o == seat)
				return err_set(err, ERR_ILLEGAL, "there is no opponent p%d", o + 1);
			if (!s->p[o].local[m->a])
				return err_set(err, ERR_ILLEGAL,
					       "@%d has no unclaimed %s in local space (claimed tokens cannot be taken)",
					       o, sm_kinds[m->a].name);
		}
		if (sm_ship_load(sh) >= sm_ship_capacity(sh))
			return err_set(err, ERR_ILLEGAL, "ship %d is full (%d of %d cargo); loaded tokens stay aboard",
				       sh->no, sm_ship_load(sh), sm_ship_capacity(sh));
		if (s->energy < cost)
			return err_set(err, ERR_ILLEGAL, "this pickup costs %d energy; %d left", cost, s->energy);
		return 0;
	}
	case SM_MV_EXPLORE: {
		int left = 0;

		for (int k = 0; k < SM_NKINDS; k++)
			left += s->bag[k];
		if (!left)
			return err_set(err, ERR_ILLEGAL, "the bag is empty: nothing left to explore");
		if (s->energy < sm_rules_energy(s, seat, m))
			return err_set(err, ERR_ILLEGAL, "exploring costs %d energy; %d left",
				       sm_rules_energy(s, seat, m), s->energy);
		return 0;
	}
	case SM_MV_REPLACE_DEST:
		if (m->a < 0 || m->a >= SM_NDESTS || in_display(s->ddisp, SM_DEST_SLOTS, m->a, -1) < 0)
			return err_set(err, ERR_ILLEGAL, "that destination is not on display");
		if (s->energy < sm_rules_energy(s, seat, m))
			return err_set(err, ERR_ILLEGAL, "replacing a destination costs %d energy; %d left",
				       sm_rules_energy(s, seat, m), s->energy);
		return 0;
	case SM_MV_END_RUN:
		if (m->a < 0 || m->a >= SM_NDESTS || in_display(s->ddisp, SM_DEST_SLOTS, m->a, -1) < 0)
			return err_set(err, ERR_ILLEGAL, "that destination is not on display");
		if (sh->dest >= 0)
			return err_set(err, ERR_ILLEGAL, "this ship already carries a destination (%s) until the Dock",
				       sm_dests[sh->dest].name);
		if (s->energy < sm_rules_energy(s, seat, m))
			return err_set(err, ERR_ILLEGAL, "%s costs %d energy; %d left", sm_dests[m->a].name,
				       sm_rules_energy(s, seat, m), s->energy);
		return 0;
	case SM_MV_DONE:
		return 0;
	default:
		return err_set(err, ERR_ILLEGAL, "while running a ship you may only pickup, explore, replace a destination, "
			       "end run or done (%s)", phase_words(SM_PH_RUN));
	}
}

static int check_salvage(const struct sm_state *s, int seat, const struct sm_move *m, struct err *err)
{
	const struct sm_player *pl = &s->p[seat];
	const struct sm_card *c;

	if (m->type == SM_MV_DONE)
		return 0;
	if (m->type != SM_MV_TRANSFER && m->type != SM_MV_SET_ASIDE)
		return err_set(err, ERR_ILLEGAL, "after scrapping you may only %s, or done", phase_words(SM_PH_SALVAGE));
	if (m->a < 0 || m->a >= SM_NCARDS || salvage_index(s, m->a) < 0)
		return err_set(err, ERR_ILLEGAL, "that card was not on a ship you scrapped");
	c = &sm_cards[m->a];
	if (c->cat == SM_CARD_PILOT && s->salv_pilots <= 0)
		return err_set(err, ERR_ILLEGAL, "you may keep only %d pilot per scrapped ship",
			       sm_consts.salvage_pilots);
	if (c->cat == SM_CARD_GEAR && s->salv_gear <= 0)
		return err_set(err, ERR_ILLEGAL, "you may keep only %d gear per scrapped ship",
			       sm_consts.salvage_gear);
	if (m->type == SM_MV_TRANSFER) {
		int rc = check_card_to_ship(pl, s, m->a, m->b, err);

		if (rc)
			return rc;
	} else if (pl->naside >= SM_MAX_ASIDE) {
		return err_set(err, ERR_ILLEGAL, "you already set aside %d cards", pl->naside);
	}
	if (pl->credits < c->cost)
		return err_set(err, ERR_ILLEGAL, "keeping %s costs its original %d credits; you have %d", c->name,
			       c->cost, pl->credits);
	return 0;
}

int sm_rules_check(const struct sm_state *s, int seat, const struct sm_move *m, struct err *err)
{
	const struct sm_player *pl;

	if (s->phase == SM_PH_OVER)
		return err_set(err, ERR_FORBIDDEN, "the game is over");
	if (seat != s->cur)
		return err_set(err, ERR_FORBIDDEN, "it is @%d's turn, not @%d's", s->cur, seat);
	pl = &s->p[seat];
	switch (s->phase) {
	case SM_PH_START:
		if (m->type != SM_MV_STAY && m->type != SM_MV_MOVE && m->type != SM_MV_PASS)
			return err_set(err, ERR_ILLEGAL, "start your turn with stay, move or pass (you are at the %s)",
				       sm_place_names[pl->pos]);
		return check_start(s, seat, m, err);
	case SM_PH_SHIPYARD:
		return check_shipyard(s, seat, m, err);
	case SM_PH_MARKET:
		return check_market(s, seat, m, err);
	case SM_PH_BELT:
		if (m->type == SM_MV_DONE)
			return 0;
		if (m->type != SM_MV_RUN)
			return err_set(err, ERR_ILLEGAL, "in the Belt you must first %s (run ship <n>) or done",
				       phase_words(SM_PH_BELT));
		{
			int i = sm_ship_find(pl, m->a);

			if (i < 0)
				return err_set(err, ERR_ILLEGAL, "you have no ship %d", m->a);
			if (sm_ship_obsolete(s, &pl->ships[i]))
				return err_set(err, ERR_ILLEGAL, "ship %d is obsolete (Mark %d in the Mark %d era) and cannot run",
					       m->a, pl->ships[i].mark, s->era);
		}
		return 0;
	case SM_PH_RUN:
		return check_run(s, seat, m, err);
	case SM_PH_EXPLORE:
		if (m->type == SM_MV_LEAVE)
			return 0;
		if (m->type == SM_MV_LOAD) {
			const struct sm_ship *sh = &pl->ships[s->run];

			if (sm_ship_load(sh) >= sm_ship_capacity(sh))
				return err_set(err, ERR_ILLEGAL, "ship %d is full (%d of %d cargo): leave the %s in local space",
					       sh->no, sm_ship_load(sh), sm_ship_capacity(sh), sm_kinds[s->drawn].name);
			return 0;
		}
		return err_set(err, ERR_ILLEGAL, "first %s", phase_words(SM_PH_EXPLORE));
	case SM_PH_SALVAGE:
		return check_salvage(s, seat, m, err);
	case SM_PH_TRIGGER:
		if (m->type == SM_MV_END_GAME || m->type == SM_MV_DONE)
			return 0;
		return err_set(err, ERR_ILLEGAL, "you may now %s: end game or done", phase_words(SM_PH_TRIGGER));
	default:
		return err_set(err, ERR_INTERNAL, "bad phase %d", s->phase);
	}
}

/* ---- applying ---- */

/* A scrapped ship's markers: paid in full as far as the credits go, the rest forgiven. */
static void pay_scrapped_loans(struct sm_player *pl, struct sm_ship *sh)
{
	while (sh->loans) {
		int c = sm_marker_cost(sh);

		pl->credits = pl->credits >= c ? pl->credits - c : 0;
		sh->loans--;
	}
}

/*
 * The final circuit's "Loan Markers MUST be all paid off": every marker the
 * credits cover is paid; one they do not cover stays on its ship, later
 * credits (the waiting turns' 5) go to it, and what is still owed at the end
 * counts against the final score (sm_player_score). Never forgiven.
 */
static void pay_loans(struct sm_player *pl)
{
	for (int i = 0; i < pl->nships; i++) {
		struct sm_ship *sh = &pl->ships[i];

		while (sh->loans && pl->credits >= sm_marker_cost(sh)) {
			pl->credits -= sm_marker_cost(sh);
			sh->loans--;
		}
	}
}

static void unload(struct sm_player *pl, struct sm_ship *sh)
{
	for (int k = 0; k < SM_NKINDS; k++) {
		pl->lclaim[k] += sh->claimed[k];
		pl->local[k] += sh->cargo[k] - sh->claimed[k];
		sh->cargo[k] = 0;
		sh->claimed[k] = 0;
	}
}

static void finish_game(struct sm_state *s)
{
	for (int p = 0; p < s->n; p++)
		pay_loans(&s->p[p]);
	s->phase = SM_PH_OVER;
}

static void end_turn(struct sm_state *s)
{
	int all = 1;

	s->p[s->cur].turns++;
	s->turn_no++;
	s->phase = SM_PH_START;
	s->moved = s->replaced = s->bought = s->repaid = 0;
	s->run = -1;
	s->energy = 0;
	s->drawn = -1;
	s->nsalvage = s->salv_pilots = s->salv_gear = 0;
	if (!s->final) {
		s->cur = (s->cur + 1) % s->n;
		return;
	}
	for (int p = 0; p < s->n; p++)
		all &= s->p[p].finished;
	if (all) {
		finish_game(s);
		return;
	}
	/* players in the Dock for good take 5 credits instead of a turn */
	for (;;) {
		s->cur = (s->cur + 1) % s->n;
		if (!s->p[s->cur].finished)
			break;
		s->p[s->cur].credits += sm_consts.dock_wait;
		pay_loans(&s->p[s->cur]);
		s->p[s->cur].turns++;
		s->turn_no++;
	}
}

static void trigger_end(struct sm_state *s, int seat)
{
	s->final = 1;
	s->trigger = seat;
	pay_loans(&s->p[seat]);
	s->p[seat].credits += sm_consts.trigger_bonus;
	for (int p = 0; p < s->n; p++) {
		s->p[p].finished = p == seat;
		s->p[p].may_leave = p != seat && s->p[p].pos == SM_DOCK;
	}
	end_turn(s);
}

/* The Dock action after the salvage decisions: the end trigger, then unloading. */
static void dock_finish(struct sm_state *s)
{
	struct sm_player *pl = &s->p[s->cur];

	for (int i = 0; i < s->nsalvage; i++)
		s->disc[s->salvage[i]]++;
	s->nsalvage = s->salv_pilots = s->salv_gear = 0;
	if (pl->credits >= sm_consts.trigger_forced) {
		trigger_end(s, s->cur);
		return;
	}
	if (pl->credits >= sm_consts.trigger_optional && !sm_player_loans(pl)) {
		s->phase = SM_PH_TRIGGER;
		return;
	}
	for (int i = 0; i < pl->nships; i++)
		unload(pl, &pl->ships[i]);
	end_turn(s);
}

static void dock_pay(struct sm_state *s, struct sm_player *pl)
{
	int total = 0;

	for (int i = 0; i < pl->nships; i++) {
		struct sm_ship *sh = &pl->ships[i];

		total += sm_ship_payment(s, s->cur, sh);
		if (sh->dest >= 0)
			s->ddisc[sh->dest]++;
		sh->dest = -1;
	}
	pl->credits += total;
	s->last_pay[s->cur] = total;
}

static void dock_action(struct sm_state *s)
{
	struct sm_player *pl = &s->p[s->cur];

	/* unclaimed tokens in local space go to known space */
	for (int k = 0; k < SM_NKINDS; k++) {
		s->known[k] += pl->local[k];
		pl->local[k] = 0;
	}
	dock_pay(s, pl);
	if (s->final) {
		/* final circuit: paid first, then the loans from what the player has now */
		pay_loans(pl);
		pl->finished = 1;
		end_turn(s);
		return;
	}
	for (int i = 0; i < pl->nships;) {
		struct sm_ship *sh = &pl->ships[i];

		if (!sm_ship_obsolete(s, sh)) {
			i++;
			continue;
		}
		unload(pl, sh);
		pay_scrapped_loans(pl, sh);
		if (sh->pilot >= 0 && s->nsalvage < SM_MAX_SALVAGE)
			s->salvage[s->nsalvage++] = sh->pilot;
		for (int g = 0; g < sh->ngear && s->nsalvage < SM_MAX_SALVAGE; g++)
			s->salvage[s->nsalvage++] = sh->gear[g];
		s->salv_pilots += sm_consts.salvage_pilots;
		s->salv_gear += sm_consts.salvage_gear;
		memmove(sh, sh + 1, (size_t)(pl->nships - i - 1) * sizeof(*sh));
		pl->nships--;
	}
	if (s->nsalvage) {
		s->phase = SM_PH_SALVAGE;
		return;
	}
	dock_finish(s);
}

static void arrive(struct sm_state *s, struct sm_player *pl)
{
	if (pl->pos == SM_DOCK) {
		pl->laps++;
		pl->may_leave = 0;
		s->refineries_open = 1;
	}
	pl->pos = (pl->pos + 1) % 4;
	if (pl->pos == SM_BELT && !pl->belt_seen) {
		for (int k = 0; k < SM_NKINDS; k++) {
			pl->local[k] += pl->setup[k];
			pl->setup[k] = 0;
		}
		pl->belt_seen = 1;
	}
	if (pl->pos == SM_DOCK) {
		pl->dock_at = ++s->dock_seq;
		/* the loans are paid after the Dock's payout (dock_action) or, on a pass, at once */
		if (s->final)
			pl->finished = 1;
	}
}

static void begin_action(struct sm_state *s)
{
	struct sm_player *pl = &s->p[s->cur];

	switch (pl->pos) {
	case SM_SHIPYARD:
		s->phase = SM_PH_SHIPYARD;
		s->repaid = 0;
		break;
	case SM_MARKET:
		s->phase = SM_PH_MARKET;
		s->replaced = !s->moved;
		s->bought = 0;
		break;
	case SM_BELT:
		s->phase = SM_PH_BELT;
		break;
	default:
		dock_action(s);
		break;
	}
}

static void add_card_to_ship(struct sm_ship *sh, int card)
{
	if (sm_cards[card].cat == SM_CARD_PILOT)
		sh->pilot = card;
	else
		sh->gear[sh->ngear++] = card;
}

static void new_ship(struct sm_state *s, struct sm_player *pl, int type, int leased)
{
	struct sm_ship *sh = &pl->ships[pl->nships++];
	int mark = s->era;

	memset(sh, 0, sizeof(*sh));
	sh->no = pl->next_no++;
	sh->mark = mark;
	sh->type = type;
	sh->pilot = -1;
	sh->dest = -1;
	s->supply[mark - 1][type]--;
	if (leased) {
		pl->credits -= sm_ships[mark - 1][type].cost / 2;
		sh->loans = sm_consts.loan_markers;
	} else {
		pl->credits -= sm_ships[mark - 1][type].cost;
	}
	/* cards set aside after scrapping go onto the next ship */
	for (int i = 0; i < pl->naside;) {
		int c = pl->aside[i];
		int fits = sm_cards[c].cat == SM_CARD_PILOT ? sh->pilot < 0 : sh->ngear < SM_MAX_GEAR;

		if (!fits) {
			i++;
			continue;
		}
		add_card_to_ship(sh, c);
		memmove(&pl->aside[i], &pl->aside[i + 1], (size_t)(pl->naside - i - 1) * sizeof(int));
		pl->naside--;
	}
	/* the next Mark opens when the current one sells out */
	while (s->era < SM_NMARKS && !s->supply[s->era - 1][SM_SCOUT] && !s->supply[s->era - 1][SM_TUG])
		s->era++;
}

static void take_salvage(struct sm_state *s, int card)
{
	int i = salvage_index(s, card);

	memmove(&s->salvage[i], &s->salvage[i + 1], (size_t)(s->nsalvage - i - 1) * sizeof(int));
	s->nsalvage--;
	if (sm_cards[card].cat == SM_CARD_PILOT)
		s->salv_pilots--;
	else
		s->salv_gear--;
}

static void apply_done(struct sm_state *s)
{
	struct sm_player *pl = &s->p[s->cur];

	switch (s->phase) {
	case SM_PH_SALVAGE:
		dock_finish(s);
		break;
	case SM_PH_TRIGGER:
		for (int i = 0; i < pl->nships; i++)
			unload(pl, &pl->ships[i]);
		end_turn(s);
		break;
	default:
		end_turn(s);
		break;
	}
}

/* Is there a legal step other than done? */
static int has_real_step(const struct sm_state *s)
{
	struct sm_move mv[1];

	/* done is always listed last, so the first legal step tells */
	return sm_rules_legal(s, s->cur, mv, 1) == 1 && mv[0].type != SM_MV_DONE;
}

int sm_rules_apply(struct sm_state *s, int seat, const struct sm_move *m, struct rng *rng, struct err *err)
{
	struct sm_player *pl;
	int rc = sm_rules_check(s, seat, m, err);
	int reveal = 0;

	if (rc)
		return rc;
	pl = &s->p[seat];
	switch (m->type) {
	case SM_MV_STAY:
		s->moved = 0;
		if (s->final && pl->pos == SM_DOCK) {
			/* in the Dock at the trigger and staying: 5 credits instead of an action */
			pl->may_leave = 0;
			pl->finished = 1;
			pl->credits += sm_consts.dock_wait;
			pay_loans(pl);
			end_turn(s);
			break;
		}
		begin_action(s);
		break;
	case SM_MV_MOVE:
		arrive(s, pl);
		s->moved = 1;
		if (s->final && pl->finished) {
			/* arriving in the Dock in the final circuit: paid, tokens stay aboard */
			s->p[seat].finished = 0;
			dock_action(s);
			break;
		}
		begin_action(s);
		break;
	case SM_MV_PASS:
		arrive(s, pl);
		if (s->final && pl->finished)
			pay_loans(pl);
		end_turn(s);
		break;
	case SM_MV_BUY_SHIP:
	case SM_MV_LEASE_SHIP:
		new_ship(s, pl, m->a, m->type == SM_MV_LEASE_SHIP);
		end_turn(s);
		break;
	case SM_MV_REPAY: {
		struct sm_ship *sh = &pl->ships[sm_ship_find(pl, m->a)];

		pl->credits -= sm_marker_cost(sh);
		sh->loans--;
		s->repaid++;
		break;
	}
	case SM_MV_REPLACE_CARDS: {
		int i = in_display(s->mdisp, SM_MARKET_SLOTS, m->a, -1);
		int j = in_display(s->mdisp, SM_MARKET_SLOTS, m->b, i);

		s->mdisp[i] = sm_draw_card(s, 0, rng);
		s->mdisp[j] = sm_draw_card(s, 0, rng);
		s->disc[m->a]++;
		s->disc[m->b]++;
		s->replaced = 1;
		reveal = 1;
		break;
	}
	case SM_MV_BUY_CARD: {
		const struct sm_card *c = &sm_cards[m->a];

		pl->credits -= c->cost;
		if (c->cat == SM_CARD_REFINERY) {
			int i = in_display(s->rdisp, SM_REFINERY_SLOTS, m->a, -1);

			pl->refinery[m->a]++;
			s->rdisp[i] = sm_draw_card(s, 1, rng);
		} else {
			int i = in_display(s->mdisp, SM_MARKET_SLOTS, m->a, -1);

			add_card_to_ship(&pl->ships[sm_ship_find(pl, m->b)], m->a);
			s->mdisp[i] = sm_draw_card(s, 0, rng);
		}
		s->bought = 1;
		s->replaced = 1;
		reveal = 1;
		break;
	}
	case SM_MV_CLAIM:
		pl->credits -= sm_consts.claim_cost;
		pl->local[m->a]--;
		pl->lclaim[m->a]++;
		end_turn(s);
		break;
	case SM_MV_RUN:
		s->run = sm_ship_find(pl, m->a);
		s->energy = sm_ship_energy(&pl->ships[s->run]);
		s->phase = SM_PH_RUN;
		break;
	case SM_MV_PICKUP: {
		struct sm_ship *sh = &pl->ships[s->run];

		s->energy -= sm_rules_energy(s, seat, m);
		if (m->b == SM_SRC_KNOWN) {
			s->known[m->a]--;
		} else if (m->b == SM_SRC_LOCAL) {
			/* unclaimed first: a claimed token is safe in local space anyway */
			if (pl->local[m->a]) {
				pl->local[m->a]--;
			} else {
				pl->lclaim[m->a]--;
				sh->claimed[m->a]++;
			}
		} else {
			s->p[m->b - SM_SRC_SEAT].local[m->a]--;
		}
		sh->cargo[m->a]++;
		break;
	}
	case SM_MV_EXPLORE:
		s->energy -= sm_rules_energy(s, seat, m);
		s->drawn = sm_draw_token(s, rng);
		s->phase = SM_PH_EXPLORE;
		reveal = 1;
		break;
	case SM_MV_LOAD:
		pl->ships[s->run].cargo[s->drawn]++;
		s->drawn = -1;
		s->phase = SM_PH_RUN;
		break;
	case SM_MV_LEAVE:
		pl->local[s->drawn]++;
		s->drawn = -1;
		s->phase = SM_PH_RUN;
		break;
	case SM_MV_REPLACE_DEST: {
		int i = in_display(s->ddisp, SM_DEST_SLOTS, m->a, -1);

		s->energy -= sm_rules_energy(s, seat, m);
		s->ddisp[i] = sm_draw_dest(s, rng);
		s->ddisc[m->a]++;
		reveal = 1;
		break;
	}
	case SM_MV_END_RUN: {
		int i = in_display(s->ddisp, SM_DEST_SLOTS, m->a, -1);

		pl->ships[s->run].dest = m->a;
		s->ddisp[i] = sm_draw_dest(s, rng);
		reveal = 1;
		end_turn(s);
		break;
	}
	case SM_MV_TRANSFER:
		pl->credits -= sm_cards[m->a].cost;
		take_salvage(s, m->a);
		add_card_to_ship(&pl->ships[sm_ship_find(pl, m->b)], m->a);
		break;
	case SM_MV_SET_ASIDE:
		pl->credits -= sm_cards[m->a].cost;
		take_salvage(s, m->a);
		pl->aside[pl->naside++] = m->a;
		break;
	case SM_MV_END_GAME:
		trigger_end(s, seat);
		break;
	case SM_MV_DONE:
		apply_done(s);
		break;
	default:
		return err_set(err, ERR_INTERNAL, "bad move type %d", m->type);
	}
	/* a turn ends by itself when done would be the only legal step */
	while (s->phase != SM_PH_START && s->phase != SM_PH_OVER && s->phase != SM_PH_EXPLORE &&
	       !has_real_step(s))
		apply_done(s);
	return reveal ? GAME_APPLY_REVEAL : 0;
}

/* ---- legal steps ---- */

static int add(const struct sm_state *s, int seat, struct sm_move *mv, int n, int max, int type, int a, int b)
{
	struct sm_move m = { type, a, b };

	/* no message wanted: err_set skips the formatting for a NULL err */
	if (n < max && sm_rules_check(s, seat, &m, NULL) == 0)
		mv[n++] = m;
	return n;
}

int sm_rules_legal(const struct sm_state *s, int seat, struct sm_move *mv, int max)
{
	const struct sm_player *pl;
	int n = 0;

	if (s->phase == SM_PH_OVER || seat != s->cur)
		return 0;
	pl = &s->p[seat];
	switch (s->phase) {
	case SM_PH_START:
		n = add(s, seat, mv, n, max, SM_MV_STAY, 0, 0);
		n = add(s, seat, mv, n, max, SM_MV_MOVE, 0, 0);
		n = add(s, seat, mv, n, max, SM_MV_PASS, 0, 0);
		break;
	case SM_PH_SHIPYARD:
		for (int t = 0; t < SM_NTYPES; t++)
			n = add(s, seat, mv, n, max, SM_MV_BUY_SHIP, t, 0);
		for (int t = 0; t < SM_NTYPES; t++)
			n = add(s, seat, mv, n, max, SM_MV_LEASE_SHIP, t, 0);
		for (int i = 0; i < pl->nships; i++)
			n = add(s, seat, mv, n, max, SM_MV_REPAY, pl->ships[i].no, 0);
		break;
	case SM_PH_MARKET:
		for (int a = 0; a < SM_NCARDS; a++)
			for (int b = a; b < SM_NCARDS; b++)
				if (in_display(s->mdisp, SM_MARKET_SLOTS, a, -1) >= 0 &&
				    in_display(s->mdisp, SM_MARKET_SLOTS, b, -1) >= 0)
					n = add(s, seat, mv, n, max, SM_MV_REPLACE_CARDS, a, b);
		for (int c = 0; c < SM_NCARDS; c++) {
			if (sm_cards[c].cat == SM_CARD_REFINERY) {
				n = add(s, seat, mv, n, max, SM_MV_BUY_CARD, c, 0);
				continue;
			}
			if (in_display(s->mdisp, SM_MARKET_SLOTS, c, -1) < 0)
				continue;
			for (int i = 0; i < pl->nships; i++)
				n = add(s, seat, mv, n, max, SM_MV_BUY_CARD, c, pl->ships[i].no);
		}
		for (int k = 0; k < SM_NKINDS; k++)
			n = add(s, seat, mv, n, max, SM_MV_CLAIM, k, 0);
		break;
	case SM_PH_BELT:
		for (int i = 0; i < pl->nships; i++)
			n = add(s, seat, mv, n, max, SM_MV_RUN, pl->ships[i].no, 0);
		break;
	case SM_PH_RUN:
		for (int k = 0; k < SM_NKINDS; k++)
			for (int src = 0; src < SM_SRC_SEAT + s->n; src++)
				n = add(s, seat, mv, n, max, SM_MV_PICKUP, k, src);
		n = add(s, seat, mv, n, max, SM_MV_EXPLORE, 0, 0);
		for (int d = 0; d < SM_NDESTS; d++)
			n = add(s, seat, mv, n, max, SM_MV_REPLACE_DEST, d, 0);
		for (int d = 0; d < SM_NDESTS; d++)
			n = add(s, seat, mv, n, max, SM_MV_END_RUN, d, 0);
		break;
	case SM_PH_EXPLORE:
		n = add(s, seat, mv, n, max, SM_MV_LOAD, 0, 0);
		n = add(s, seat, mv, n, max, SM_MV_LEAVE, 0, 0);
		break;
	case SM_PH_SALVAGE:
		for (int c = 0; c < SM_NCARDS; c++) {
			if (salvage_index(s, c) < 0)
				continue;
			for (int i = 0; i < pl->nships; i++)
				n = add(s, seat, mv, n, max, SM_MV_TRANSFER, c, pl->ships[i].no);
			n = add(s, seat, mv, n, max, SM_MV_SET_ASIDE, c, 0);
		}
		break;
	case SM_PH_TRIGGER:
		n = add(s, seat, mv, n, max, SM_MV_END_GAME, 0, 0);
		break;
	default:
		break;
	}
	n = add(s, seat, mv, n, max, SM_MV_DONE, 0, 0);
	return n;
}

int sm_rules_pending(const struct sm_state *s, struct game_pending *out)
{
	const struct sm_player *pl;

	memset(out, 0, sizeof(*out));
	if (s->phase == SM_PH_OVER) {
		snprintf(out->kind, sizeof(out->kind), "over");
		snprintf(out->prompt, sizeof(out->prompt), "The game is over");
		return 0;
	}
	pl = &s->p[s->cur];
	out->seats = 1u << s->cur;
	switch (s->phase) {
	case SM_PH_RUN:
		snprintf(out->kind, sizeof(out->kind), "run");
		snprintf(out->prompt, sizeof(out->prompt), "@%d: run ship %d in the Belt, %d energy left",
			 s->cur, pl->ships[s->run].no, s->energy);
		break;
	case SM_PH_EXPLORE:
		snprintf(out->kind, sizeof(out->kind), "explore");
		snprintf(out->prompt, sizeof(out->prompt), "@%d: explored a %s: load it or leave it in local space",
			 s->cur, sm_kinds[s->drawn].name);
		break;
	case SM_PH_START:
		snprintf(out->kind, sizeof(out->kind), "turn");
		snprintf(out->prompt, sizeof(out->prompt), "@%d: at the %s with %d credits: stay, move or pass%s",
			 s->cur, sm_place_names[pl->pos], pl->credits,
			 s->final ? " (final circuit)" : "");
		break;
	default:
		snprintf(out->kind, sizeof(out->kind), "action");
		snprintf(out->prompt, sizeof(out->prompt), "@%d: %s (%d credits)", s->cur,
			 phase_words(s->phase), pl->credits);
		break;
	}
	return 0;
}
