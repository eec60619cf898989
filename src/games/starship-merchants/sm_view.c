/* games/starship-merchants/sm_view.c: the view JSON of Starship Merchants and the final result */
/* SPDX-License-Identifier: MIT */
#include "games/starship-merchants/sm_internal.h"

#include <stdio.h>
#include <string.h>

#include "util/buf.h"

#include "util/banned.h"

static const char *const phase_names[SM_PH_COUNT] = {
	"start", "shipyard", "market", "belt", "run", "explore", "salvage", "trigger", "over"
};

static json_t *tokens(const int t[SM_NKINDS])
{
	json_t *o = json_object();

	for (int k = 0; k < SM_NKINDS; k++)
		json_object_set_new(o, sm_kinds[k].slug, json_integer(t[k]));
	return o;
}

static json_t *card(int c)
{
	const struct sm_card *d = &sm_cards[c];
	static const char *const cats[] = { "pilot", "gear", "refinery" };

	return json_pack("{s:s, s:s, s:s, s:i, s:s}", "slug", d->slug, "name", d->name, "type", cats[d->cat],
			 "cost", d->cost, "text", d->text);
}

static json_t *dest(int i)
{
	const struct sm_dest *d = &sm_dests[i];

	return json_pack("{s:s, s:s, s:i, s:s}", "slug", d->slug, "name", d->name, "cost", d->cost, "text",
			 d->text);
}

static json_t *display(const int *disp, int n, int dests)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		if (disp[i] >= 0)
			json_array_append_new(a, dests ? dest(disp[i]) : card(disp[i]));
	return a;
}

static json_t *ship(const struct sm_state *s, int seat, const struct sm_ship *sh)
{
	json_t *o = json_object(), *gear = json_array();

	for (int i = 0; i < sh->ngear; i++)
		json_array_append_new(gear, json_string(sm_cards[sh->gear[i]].slug));
	json_object_set_new(o, "no", json_integer(sh->no));
	json_object_set_new(o, "mark", json_integer(sh->mark));
	json_object_set_new(o, "type", json_string(sm_type_slugs[sh->type]));
	json_object_set_new(o, "obsolete", json_boolean(sm_ship_obsolete(s, sh)));
	json_object_set_new(o, "energy", json_integer(sm_ship_energy(sh)));
	json_object_set_new(o, "capacity", json_integer(sm_ship_capacity(sh)));
	json_object_set_new(o, "loans", json_integer(sh->loans));
	json_object_set_new(o, "marker_cost", json_integer(sm_marker_cost(sh)));
	json_object_set_new(o, "pilot", sh->pilot >= 0 ? json_string(sm_cards[sh->pilot].slug) : json_null());
	json_object_set_new(o, "gear", gear);
	json_object_set_new(o, "cargo", tokens(sh->cargo));
	json_object_set_new(o, "claimed", tokens(sh->claimed));
	json_object_set_new(o, "destination", sh->dest >= 0 ? json_string(sm_dests[sh->dest].slug) : json_null());
	json_object_set_new(o, "payment", json_integer(sm_ship_payment(s, seat, sh)));
	return o;
}

json_t *sm_view_build(const struct sm_state *s, int seat)
{
	json_t *o = json_object(), *seats = json_array(), *supply = json_array();
	json_t *market = json_object(), *belt = json_object();
	struct game_pending pend;
	int deck = 0, rdeck = 0, ddeck = 0, bag = 0;

	for (int c = 0; c < SM_NCARDS; c++) {
		if (sm_cards[c].cat == SM_CARD_REFINERY)
			rdeck += s->deck[c] + s->disc[c];
		else
			deck += s->deck[c] + s->disc[c];
	}
	for (int d = 0; d < SM_NDESTS; d++)
		ddeck += s->ddeck[d] + s->ddisc[d];
	for (int k = 0; k < SM_NKINDS; k++)
		bag += s->bag[k];
	sm_rules_pending(s, &pend);
	json_object_set_new(o, "game", json_string("starship-merchants"));
	json_object_set_new(o, "players", json_integer(s->n));
	json_object_set_new(o, "you", seat >= 0 && seat < s->n ? json_integer(seat) : json_null());
	json_object_set_new(o, "turn", s->phase == SM_PH_OVER ? json_null() : json_integer(s->cur));
	json_object_set_new(o, "phase", json_string(phase_names[s->phase]));
	json_object_set_new(o, "prompt", json_string(pend.prompt));
	json_object_set_new(o, "turns_played", json_integer(s->turn_no));
	json_object_set_new(o, "era", json_integer(s->era));
	json_object_set_new(o, "final_circuit", json_boolean(s->final));
	json_object_set_new(o, "triggered_by", s->trigger >= 0 ? json_integer(s->trigger) : json_null());
	for (int m = 0; m < SM_NMARKS; m++)
		for (int t = 0; t < SM_NTYPES; t++)
			json_array_append_new(supply, json_pack("{s:i, s:s, s:i, s:i, s:i, s:i}", "mark", m + 1,
								"type", sm_type_slugs[t], "left", s->supply[m][t],
								"cost", sm_ships[m][t].cost, "energy",
								sm_ships[m][t].energy, "cargo", sm_ships[m][t].cargo));
	json_object_set_new(o, "shipyard", supply);
	json_object_set_new(market, "cards", display(s->mdisp, SM_MARKET_SLOTS, 0));
	json_object_set_new(market, "deck", json_integer(deck));
	json_object_set_new(market, "refineries", display(s->rdisp, SM_REFINERY_SLOTS, 0));
	json_object_set_new(market, "refinery_deck", json_integer(rdeck));
	json_object_set_new(market, "refineries_open", json_boolean(s->refineries_open));
	json_object_set_new(o, "market", market);
	{
		json_t *kinds = json_array();

		for (int k = 0; k < SM_NKINDS; k++)
			json_array_append_new(kinds, json_pack("{s:s, s:s, s:i}", "slug", sm_kinds[k].slug, "name",
							       sm_kinds[k].name, "value", sm_kinds[k].value));
		json_object_set_new(belt, "kinds", kinds);
	}
	json_object_set_new(belt, "known", tokens(s->known));
	json_object_set_new(belt, "bag", json_integer(bag));
	json_object_set_new(belt, "destinations", display(s->ddisp, SM_DEST_SLOTS, 1));
	json_object_set_new(belt, "destination_deck", json_integer(ddeck));
	json_object_set_new(o, "belt", belt);
	if (s->phase == SM_PH_RUN || s->phase == SM_PH_EXPLORE)
		json_object_set_new(o, "run", json_pack("{s:i, s:i, s:o}", "ship", s->p[s->cur].ships[s->run].no,
							"energy", s->energy, "drawn",
							s->drawn >= 0 ? json_string(sm_kinds[s->drawn].slug) :
									json_null()));
	if (s->phase == SM_PH_SALVAGE) {
		json_t *cards = json_array();

		for (int i = 0; i < s->nsalvage; i++)
			json_array_append_new(cards, card(s->salvage[i]));
		json_object_set_new(o, "salvage", json_pack("{s:o, s:i, s:i}", "cards", cards, "pilots",
							    s->salv_pilots, "gear", s->salv_gear));
	}
	for (int p = 0; p < s->n; p++) {
		const struct sm_player *pl = &s->p[p];
		json_t *po = json_object(), *ships = json_array(), *ref = json_array(), *aside = json_array();

		for (int c = 0; c < SM_NCARDS; c++)
			for (int i = 0; i < pl->refinery[c]; i++)
				json_array_append_new(ref, json_string(sm_cards[c].slug));
		for (int i = 0; i < pl->naside; i++)
			json_array_append_new(aside, json_string(sm_cards[pl->aside[i]].slug));
		for (int i = 0; i < pl->nships; i++)
			json_array_append_new(ships, ship(s, p, &pl->ships[i]));
		json_object_set_new(po, "seat", json_integer(p));
		json_object_set_new(po, "credits", json_integer(pl->credits));
		json_object_set_new(po, "place", json_string(sm_place_names[pl->pos]));
		json_object_set_new(po, "laps", json_integer(pl->laps));
		json_object_set_new(po, "turns", json_integer(pl->turns));
		json_object_set_new(po, "loans", json_integer(sm_player_loans(pl)));
		json_object_set_new(po, "debt", json_integer(sm_player_loan_debt(pl)));
		json_object_set_new(po, "local", tokens(pl->local));
		json_object_set_new(po, "claimed", tokens(pl->lclaim));
		json_object_set_new(po, "setup_tokens", tokens(pl->setup));
		json_object_set_new(po, "refineries", ref);
		json_object_set_new(po, "set_aside", aside);
		json_object_set_new(po, "ships", ships);
		json_object_set_new(po, "last_paid", json_integer(s->last_pay[p]));
		json_object_set_new(po, "dock_order", json_integer(pl->dock_at));
		json_object_set_new(po, "finished", json_boolean(pl->finished));
		json_object_set_new(po, "may_leave_dock", json_boolean(pl->may_leave));
		json_array_append_new(seats, po);
	}
	json_object_set_new(o, "seats", seats);
	{
		/* each seat's score now (credits less unpaid loans, as at the end), as the lobby shows it */
		json_t *scores = json_array();
		for (int p = 0; p < s->n; p++)
			json_array_append_new(scores, json_integer(sm_player_score(&s->p[p])));
		json_object_set_new(o, "scores", scores);
	}
	return o;
}

/* a before b in the final order: the higher score, then the earlier arrival in the Dock */
static int ahead(const struct sm_state *s, int a, int b)
{
	const struct sm_player *pa = &s->p[a], *pb = &s->p[b];

	if (sm_player_score(pa) != sm_player_score(pb))
		return sm_player_score(pa) > sm_player_score(pb);
	return pa->dock_at && (!pb->dock_at || pa->dock_at < pb->dock_at);
}

/* scores are credits less any loan still unpaid (sm_player_score) */
json_t *sm_view_result(const struct sm_state *s)
{
	json_t *o, *scores = json_array(), *ranks = json_array(), *winners = json_array();
	struct buf tb = BUF_INIT;
	int best = 0, tied = 0;

	if (s->phase != SM_PH_OVER) {
		json_decref(scores);
		json_decref(ranks);
		json_decref(winners);
		return NULL;
	}
	for (int p = 0; p < s->n; p++) {
		int rank = 1, score = sm_player_score(&s->p[p]);

		for (int q = 0; q < s->n; q++)
			if (q != p && ahead(s, q, p))
				rank++;
		json_array_append_new(scores, json_integer(score));
		json_array_append_new(ranks, json_integer(rank));
		if (rank == 1)
			json_array_append_new(winners, json_integer(p));
		if (p == 0 || score > best)
			best = score;
	}
	for (int p = 0; p < s->n; p++)
		tied += sm_player_score(&s->p[p]) == best;
	if (tied > 1) {
		int first = 0;

		buf_adds(&tb, "tied on ");
		buf_addf(&tb, "%d credits:", best);
		for (int p = 0; p < s->n; p++) {
			if (sm_player_score(&s->p[p]) != best)
				continue;
			buf_addf(&tb, "%s @%d", first ? "," : "", p);
			first = 1;
		}
		buf_addf(&tb, "; @%d was earliest into the Dock",
			 (int)json_integer_value(json_array_get(winners, 0)));
	}
	o = json_pack("{s:o, s:o, s:o, s:s}", "scores", scores, "ranks", ranks, "winners", winners, "tiebreak",
		      tb.data);
	buf_release(&tb);
	return o;
}
