/* games/starship-merchants/sm_state.c: set-up, snapshots and derived numbers of Starship Merchants */
/* SPDX-License-Identifier: MIT */
#include "games/starship-merchants/sm_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

int sm_state_col(const struct sm_state *s)
{
	return s->n - SM_MIN_PLAYERS;
}

static int card_in_group(int card, int refinery)
{
	return (sm_cards[card].cat == SM_CARD_REFINERY) == (refinery != 0);
}

int sm_draw_card(struct sm_state *s, int refinery, struct rng *rng)
{
	int total = 0;
	uint32_t r;

	for (int i = 0; i < SM_NCARDS; i++)
		if (card_in_group(i, refinery))
			total += s->deck[i];
	if (total == 0) {
		/* the discards of this group are shuffled into a new deck */
		for (int i = 0; i < SM_NCARDS; i++)
			if (card_in_group(i, refinery)) {
				s->deck[i] += s->disc[i];
				s->disc[i] = 0;
				total += s->deck[i];
			}
	}
	if (total == 0)
		return -1;
	r = rng_below(rng, (uint32_t)total);
	for (int i = 0; i < SM_NCARDS; i++) {
		if (!card_in_group(i, refinery))
			continue;
		if (r < (uint32_t)s->deck[i]) {
			s->deck[i]--;
			return i;
		}
		r -= (uint32_t)s->deck[i];
	}
	return -1;
}

int sm_draw_dest(struct sm_state *s, struct rng *rng)
{
	int total = 0;
	uint32_t r;

	for (int i = 0; i < SM_NDESTS; i++)
		total += s->ddeck[i];
	if (total == 0) {
		for (int i = 0; i < SM_NDESTS; i++) {
			s->ddeck[i] += s->ddisc[i];
			s->ddisc[i] = 0;
			total += s->ddeck[i];
		}
	}
	if (total == 0)
		return -1;
	r = rng_below(rng, (uint32_t)total);
	for (int i = 0; i < SM_NDESTS; i++) {
		if (r < (uint32_t)s->ddeck[i]) {
			s->ddeck[i]--;
			return i;
		}
		r -= (uint32_t)s->ddeck[i];
	}
	return -1;
}

int sm_draw_token(struct sm_state *s, struct rng *rng)
{
	int total = 0;
	uint32_t r;

	for (int k = 0; k < SM_NKINDS; k++)
		total += s->bag[k];
	if (total == 0)
		return -1;
	r = rng_below(rng, (uint32_t)total);
	for (int k = 0; k < SM_NKINDS; k++) {
		if (r < (uint32_t)s->bag[k]) {
			s->bag[k]--;
			return k;
		}
		r -= (uint32_t)s->bag[k];
	}
	return -1;
}

/*
 * The published game starts everyone with 15 credits; the seat balance is
 * left to the content set (measurements in docs/games/starship-merchants.md).
 */
int sm_start_credits(int n, int seat)
{
	(void)n;
	(void)seat;
	return sm_consts.start_credits;
}

int sm_state_setup(int n, struct rng *rng, struct sm_state **out, struct err *err)
{
	struct sm_state *s;
	int col;

	*out = NULL;
	if (n < SM_MIN_PLAYERS || n > SM_MAX_PLAYERS)
		return err_set(err, ERR_INPUT, "Starship Merchants is for %d to %d players, not %d",
			       SM_MIN_PLAYERS, SM_MAX_PLAYERS, n);
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, ERR_NOMEM, "out of memory");
	s->n = n;
	col = sm_state_col(s);
	s->era = 1;
	s->run = -1;
	s->drawn = -1;
	s->trigger = -1;
	for (int m = 0; m < SM_NMARKS; m++)
		for (int t = 0; t < SM_NTYPES; t++)
			s->supply[m][t] = sm_ships[m][t].supply[col];
	for (int k = 0; k < SM_NKINDS; k++) {
		s->bag[k] = sm_kinds[k].bag[col] - n * sm_kinds[k].setup;
		for (int p = 0; p < n; p++)
			s->bag[k] -= sm_seat_setup[col][p][k];
	}
	for (int i = 0; i < SM_NCARDS; i++)
		s->deck[i] = sm_cards[i].count;
	for (int i = 0; i < SM_NDESTS; i++)
		s->ddeck[i] = sm_dests[i].count;
	for (int i = 0; i < SM_MARKET_SLOTS; i++)
		s->mdisp[i] = sm_draw_card(s, 0, rng);
	for (int i = 0; i < SM_REFINERY_SLOTS; i++)
		s->rdisp[i] = sm_draw_card(s, 1, rng);
	for (int i = 0; i < SM_DEST_SLOTS; i++)
		s->ddisp[i] = sm_draw_dest(s, rng);
	for (int p = 0; p < n; p++) {
		struct sm_player *pl = &s->p[p];

		pl->credits = sm_start_credits(n, p);
		pl->pos = SM_SHIPYARD;
		pl->next_no = 1;
		for (int k = 0; k < SM_NKINDS; k++)
			pl->setup[k] = sm_kinds[k].setup + sm_seat_setup[col][p][k];
	}
	*out = s;
	return 0;
}

void sm_state_free(struct sm_state *s)
{
	free(s);
}

/* ---- derived numbers ---- */

int sm_ship_find(const struct sm_player *pl, int no)
{
	for (int i = 0; i < pl->nships; i++)
		if (pl->ships[i].no == no)
			return i;
	return -1;
}

int sm_ship_obsolete(const struct sm_state *s, const struct sm_ship *sh)
{
	/* Mark 1 in the Mark 3 era, Mark 2 in the Mark 4 era */
	return sh->mark <= s->era - 2;
}

/* The ship bonuses of its pilot and gear added up. */
static void ship_bonus(const struct sm_ship *sh, struct sm_bonus *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = -1; i < sh->ngear; i++) {
		const struct sm_bonus *b;

		if (i < 0 && sh->pilot < 0)
			continue;
		b = i < 0 ? &sm_cards[sh->pilot].b : &sm_cards[sh->gear[i]].b;
		t->energy += b->energy;
		t->cargo += b->cargo;
		t->explore_off += b->explore_off;
		t->remote_off += b->remote_off;
	}
}

int sm_ship_capacity(const struct sm_ship *sh)
{
	struct sm_bonus b;

	ship_bonus(sh, &b);
	return sm_ships[sh->mark - 1][sh->type].cargo + b.cargo;
}

int sm_ship_load(const struct sm_ship *sh)
{
	int n = 0;

	for (int k = 0; k < SM_NKINDS; k++)
		n += sh->cargo[k];
	return n;
}

int sm_ship_energy(const struct sm_ship *sh)
{
	struct sm_bonus b;

	ship_bonus(sh, &b);
	return sm_ships[sh->mark - 1][sh->type].energy + b.energy;
}

int sm_ship_explore_cost(const struct sm_ship *sh)
{
	struct sm_bonus b;
	int c;

	ship_bonus(sh, &b);
	c = sm_consts.explore_cost - b.explore_off;

	return c < 1 ? 1 : c;
}

int sm_ship_remote_cost(const struct sm_ship *sh)
{
	struct sm_bonus b;
	int c;

	ship_bonus(sh, &b);
	c = sm_consts.remote_cost - b.remote_off;

	return c < 1 ? 1 : c;
}

int sm_ship_cost(const struct sm_ship *sh)
{
	return sm_ships[sh->mark - 1][sh->type].cost;
}

int sm_marker_cost(const struct sm_ship *sh)
{
	return sm_ship_cost(sh) / 2;
}

/* Credits a bonus gives for this cargo; flat needs at least one token unless always is set. */
static int bonus_pay(const struct sm_bonus *b, const int cargo[SM_NKINDS], int always)
{
	int tokens = 0, distinct = 0, v = 0;

	for (int k = 0; k < SM_NKINDS; k++) {
		tokens += cargo[k];
		distinct += cargo[k] > 0;
		v += b->per_kind[k] * cargo[k];
	}
	v += b->per_token * tokens + b->per_distinct * distinct;
	if (always || tokens > 0)
		v += b->flat;
	return v;
}

int sm_ship_payment(const struct sm_state *s, int seat, const struct sm_ship *sh)
{
	const struct sm_player *pl = &s->p[seat];
	int v = 0;

	for (int k = 0; k < SM_NKINDS; k++)
		v += sh->cargo[k] * sm_kinds[k].value;
	if (sh->pilot >= 0)
		v += bonus_pay(&sm_cards[sh->pilot].b, sh->cargo, 0);
	for (int i = 0; i < sh->ngear; i++)
		v += bonus_pay(&sm_cards[sh->gear[i]].b, sh->cargo, 0);
	for (int c = 0; c < SM_NCARDS; c++)
		if (pl->refinery[c])
			v += pl->refinery[c] * bonus_pay(&sm_cards[c].b, sh->cargo, 0);
	if (sh->dest >= 0)
		v += bonus_pay(&sm_dests[sh->dest].b, sh->cargo, 1);
	return v;
}

int sm_player_loans(const struct sm_player *pl)
{
	int n = 0;

	for (int i = 0; i < pl->nships; i++)
		n += pl->ships[i].loans;
	return n;
}

int sm_player_loan_debt(const struct sm_player *pl)
{
	int n = 0;

	for (int i = 0; i < pl->nships; i++)
		n += pl->ships[i].loans * sm_marker_cost(&pl->ships[i]);
	return n;
}

int sm_player_score(const struct sm_player *pl)
{
	return pl->credits - sm_player_loan_debt(pl);
}

int sm_owned_of_mark(const struct sm_player *pl, int mark)
{
	int n = 0;

	for (int i = 0; i < pl->nships; i++)
		n += pl->ships[i].mark == mark;
	return n;
}

void sm_state_token_totals(const struct sm_state *s, int totals[SM_NKINDS])
{
	for (int k = 0; k < SM_NKINDS; k++)
		totals[k] = s->bag[k] + s->known[k] + (s->drawn == k);
	for (int p = 0; p < s->n; p++) {
		const struct sm_player *pl = &s->p[p];

		for (int k = 0; k < SM_NKINDS; k++)
			totals[k] += pl->local[k] + pl->lclaim[k] + pl->setup[k];
		for (int i = 0; i < pl->nships; i++)
			for (int k = 0; k < SM_NKINDS; k++)
				totals[k] += pl->ships[i].cargo[k];
	}
}

/* ---- snapshots ---- */

static json_t *int_array(const int *a, int n)
{
	json_t *arr = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(arr, json_integer(a[i]));
	return arr;
}

int sm_state_encode(const struct sm_state *s, json_t **out, struct err *err)
{
	json_t *o = json_object(), *players = json_array();
	int sup[SM_NMARKS * SM_NTYPES];
	int t[14] = {
		s->refineries_open, s->moved, s->replaced, s->bought, s->repaid, s->run, s->energy,
		s->drawn, s->salv_pilots, s->salv_gear, s->final, s->trigger, s->dock_seq, s->turn_no
	};

	for (int m = 0; m < SM_NMARKS; m++)
		for (int ty = 0; ty < SM_NTYPES; ty++)
			sup[m * SM_NTYPES + ty] = s->supply[m][ty];
	json_object_set_new(o, "v", json_integer(1));
	json_object_set_new(o, "n", json_integer(s->n));
	json_object_set_new(o, "cur", json_integer(s->cur));
	json_object_set_new(o, "ph", json_integer(s->phase));
	json_object_set_new(o, "era", json_integer(s->era));
	json_object_set_new(o, "sup", int_array(sup, SM_NMARKS * SM_NTYPES));
	json_object_set_new(o, "bag", int_array(s->bag, SM_NKINDS));
	json_object_set_new(o, "known", int_array(s->known, SM_NKINDS));
	json_object_set_new(o, "deck", int_array(s->deck, SM_NCARDS));
	json_object_set_new(o, "disc", int_array(s->disc, SM_NCARDS));
	json_object_set_new(o, "mdisp", int_array(s->mdisp, SM_MARKET_SLOTS));
	json_object_set_new(o, "rdisp", int_array(s->rdisp, SM_REFINERY_SLOTS));
	json_object_set_new(o, "ddeck", int_array(s->ddeck, SM_NDESTS));
	json_object_set_new(o, "ddisc", int_array(s->ddisc, SM_NDESTS));
	json_object_set_new(o, "ddisp", int_array(s->ddisp, SM_DEST_SLOTS));
	json_object_set_new(o, "t", int_array(t, 14));
	json_object_set_new(o, "salv", int_array(s->salvage, s->nsalvage));
	json_object_set_new(o, "pay", int_array(s->last_pay, s->n));
	for (int p = 0; p < s->n; p++) {
		const struct sm_player *pl = &s->p[p];
		json_t *po = json_object(), *ships = json_array(), *ref = json_array();
		int f[7] = { pl->next_no, pl->laps, pl->turns, pl->dock_at, pl->belt_seen,
			     pl->finished, pl->may_leave };

		for (int c = 0; c < SM_NCARDS; c++)
			for (int i = 0; i < pl->refinery[c]; i++)
				json_array_append_new(ref, json_integer(c));
		for (int i = 0; i < pl->nships; i++) {
			const struct sm_ship *sh = &pl->ships[i];
			int head[6] = { sh->no, sh->mark, sh->type, sh->loans, sh->pilot, sh->dest };
			json_t *so = int_array(head, 6);

			json_array_append_new(so, int_array(sh->gear, sh->ngear));
			json_array_append_new(so, int_array(sh->cargo, SM_NKINDS));
			json_array_append_new(so, int_array(sh->claimed, SM_NKINDS));
			json_array_append_new(ships, so);
		}
		json_object_set_new(po, "c", json_integer(pl->credits));
		json_object_set_new(po, "pos", json_integer(pl->pos));
		json_object_set_new(po, "f", int_array(f, 7));
		json_object_set_new(po, "loc", int_array(pl->local, SM_NKINDS));
		json_object_set_new(po, "lcl", int_array(pl->lclaim, SM_NKINDS));
		json_object_set_new(po, "set", int_array(pl->setup, SM_NKINDS));
		json_object_set_new(po, "ref", ref);
		json_object_set_new(po, "aside", int_array(pl->aside, pl->naside));
		json_object_set_new(po, "s", ships);
		json_array_append_new(players, po);
	}
	json_object_set_new(o, "p", players);
	(void)err;
	*out = o;
	return 0;
}

/* Read an integer array of exactly n (or, with n < 0, at most -n) items in [lo, hi]; returns the count or -1. */
static int read_ints(const json_t *a, int n, int lo, int hi, int *dst)
{
	size_t len;
	int max = n < 0 ? -n : n;

	if (!json_is_array(a))
		return -1;
	len = json_array_size(a);
	if ((n >= 0 && len != (size_t)n) || len > (size_t)max)
		return -1;
	for (size_t i = 0; i < len; i++) {
		const json_t *v = json_array_get(a, i);
		json_int_t x;

		if (!json_is_integer(v))
			return -1;
		x = json_integer_value(v);
		if (x < lo || x > hi)
			return -1;
		dst[i] = (int)x;
	}
	return (int)len;
}

static int read_int(const json_t *o, const char *key, int lo, int hi, int *dst)
{
	const json_t *v = json_object_get(o, key);
	json_int_t x;

	if (!json_is_integer(v))
		return -1;
	x = json_integer_value(v);
	if (x < lo || x > hi)
		return -1;
	*dst = (int)x;
	return 0;
}

#define BIG 1000000

static int decode_ship(const json_t *a, struct sm_ship *sh)
{
	int head[6];

	if (!json_is_array(a) || json_array_size(a) != 9)
		return -1;
	for (int i = 0; i < 6; i++) {
		const json_t *v = json_array_get(a, (size_t)i);

		if (!json_is_integer(v))
			return -1;
		head[i] = (int)json_integer_value(v);
	}
	sh->no = head[0];
	sh->mark = head[1];
	sh->type = head[2];
	sh->loans = head[3];
	sh->pilot = head[4];
	sh->dest = head[5];
	if (sh->no < 1 || sh->no > BIG || sh->mark < 1 || sh->mark > SM_NMARKS ||
	    sh->type < 0 || sh->type >= SM_NTYPES || sh->loans < 0 || sh->loans > sm_consts.loan_markers ||
	    sh->pilot < -1 || sh->pilot >= SM_NCARDS || sh->dest < -1 || sh->dest >= SM_NDESTS)
		return -1;
	if (sh->pilot >= 0 && sm_cards[sh->pilot].cat != SM_CARD_PILOT)
		return -1;
	sh->ngear = read_ints(json_array_get(a, 6), -SM_MAX_GEAR, 0, SM_NCARDS - 1, sh->gear);
	if (sh->ngear < 0)
		return -1;
	for (int i = 0; i < sh->ngear; i++)
		if (sm_cards[sh->gear[i]].cat != SM_CARD_GEAR)
			return -1;
	if (read_ints(json_array_get(a, 7), SM_NKINDS, 0, BIG, sh->cargo) < 0 ||
	    read_ints(json_array_get(a, 8), SM_NKINDS, 0, BIG, sh->claimed) < 0)
		return -1;
	for (int k = 0; k < SM_NKINDS; k++)
		if (sh->claimed[k] > sh->cargo[k])
			return -1;
	return 0;
}

static int decode_player(const json_t *po, struct sm_player *pl)
{
	int f[7], ref[SM_MAX_SALVAGE], nref;
	const json_t *ships = json_object_get(po, "s");

	if (!json_is_object(po) || read_int(po, "c", 0, BIG, &pl->credits) ||
	    read_int(po, "pos", 0, 3, &pl->pos) ||
	    read_ints(json_object_get(po, "f"), 7, 0, BIG, f) < 0 ||
	    read_ints(json_object_get(po, "loc"), SM_NKINDS, 0, BIG, pl->local) < 0 ||
	    read_ints(json_object_get(po, "lcl"), SM_NKINDS, 0, BIG, pl->lclaim) < 0 ||
	    read_ints(json_object_get(po, "set"), SM_NKINDS, 0, BIG, pl->setup) < 0)
		return -1;
	pl->next_no = f[0];
	pl->laps = f[1];
	pl->turns = f[2];
	pl->dock_at = f[3];
	pl->belt_seen = f[4];
	pl->finished = f[5];
	pl->may_leave = f[6];
	nref = read_ints(json_object_get(po, "ref"), -SM_MAX_SALVAGE, 0, SM_NCARDS - 1, ref);
	if (nref < 0)
		return -1;
	for (int i = 0; i < nref; i++) {
		if (sm_cards[ref[i]].cat != SM_CARD_REFINERY)
			return -1;
		pl->refinery[ref[i]]++;
	}
	pl->naside = read_ints(json_object_get(po, "aside"), -SM_MAX_ASIDE, 0, SM_NCARDS - 1, pl->aside);
	if (pl->naside < 0)
		return -1;
	if (!json_is_array(ships) || json_array_size(ships) > SM_MAX_SHIPS)
		return -1;
	pl->nships = (int)json_array_size(ships);
	for (int i = 0; i < pl->nships; i++) {
		if (decode_ship(json_array_get(ships, (size_t)i), &pl->ships[i]))
			return -1;
		if (pl->ships[i].no >= pl->next_no)
			return -1;
	}
	return 0;
}

int sm_state_decode(const json_t *in, struct sm_state **out, struct err *err)
{
	struct sm_state *s = NULL;
	int sup[SM_NMARKS * SM_NTYPES], t[14], v;
	const json_t *players;
	int rc = ERR_INPUT;

	*out = NULL;
	if (!json_is_object(in))
		return err_set(err, ERR_INPUT, "Starship Merchants snapshot: expected a JSON object");
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, ERR_NOMEM, "out of memory");
	if (read_int(in, "v", 1, 1, &v) || read_int(in, "n", SM_MIN_PLAYERS, SM_MAX_PLAYERS, &s->n) ||
	    read_int(in, "cur", 0, s->n - 1, &s->cur) || read_int(in, "ph", 0, SM_PH_COUNT - 1, &s->phase) ||
	    read_int(in, "era", 1, SM_NMARKS, &s->era) ||
	    read_ints(json_object_get(in, "sup"), SM_NMARKS * SM_NTYPES, 0, BIG, sup) < 0 ||
	    read_ints(json_object_get(in, "bag"), SM_NKINDS, 0, BIG, s->bag) < 0 ||
	    read_ints(json_object_get(in, "known"), SM_NKINDS, 0, BIG, s->known) < 0 ||
	    read_ints(json_object_get(in, "deck"), SM_NCARDS, 0, BIG, s->deck) < 0 ||
	    read_ints(json_object_get(in, "disc"), SM_NCARDS, 0, BIG, s->disc) < 0 ||
	    read_ints(json_object_get(in, "mdisp"), SM_MARKET_SLOTS, -1, SM_NCARDS - 1, s->mdisp) < 0 ||
	    read_ints(json_object_get(in, "rdisp"), SM_REFINERY_SLOTS, -1, SM_NCARDS - 1, s->rdisp) < 0 ||
	    read_ints(json_object_get(in, "ddeck"), SM_NDESTS, 0, BIG, s->ddeck) < 0 ||
	    read_ints(json_object_get(in, "ddisc"), SM_NDESTS, 0, BIG, s->ddisc) < 0 ||
	    read_ints(json_object_get(in, "ddisp"), SM_DEST_SLOTS, -1, SM_NDESTS - 1, s->ddisp) < 0 ||
	    read_ints(json_object_get(in, "t"), 14, -1, BIG, t) < 0)
		goto bad;
	for (int m = 0; m < SM_NMARKS; m++)
		for (int ty = 0; ty < SM_NTYPES; ty++)
			s->supply[m][ty] = sup[m * SM_NTYPES + ty];
	s->refineries_open = t[0];
	s->moved = t[1];
	s->replaced = t[2];
	s->bought = t[3];
	s->repaid = t[4];
	s->run = t[5];
	s->energy = t[6];
	s->drawn = t[7];
	s->salv_pilots = t[8];
	s->salv_gear = t[9];
	s->final = t[10];
	s->trigger = t[11];
	s->dock_seq = t[12];
	s->turn_no = t[13];
	if (s->run >= SM_MAX_SHIPS || s->drawn >= SM_NKINDS || s->trigger >= s->n || s->energy < 0)
		goto bad;
	s->nsalvage = read_ints(json_object_get(in, "salv"), -SM_MAX_SALVAGE, 0, SM_NCARDS - 1, s->salvage);
	if (s->nsalvage < 0 || read_ints(json_object_get(in, "pay"), s->n, 0, BIG, s->last_pay) < 0)
		goto bad;
	for (int i = 0; i < SM_MARKET_SLOTS; i++)
		if (s->mdisp[i] >= 0 && sm_cards[s->mdisp[i]].cat == SM_CARD_REFINERY)
			goto bad;
	for (int i = 0; i < SM_REFINERY_SLOTS; i++)
		if (s->rdisp[i] >= 0 && sm_cards[s->rdisp[i]].cat != SM_CARD_REFINERY)
			goto bad;
	players = json_object_get(in, "p");
	if (!json_is_array(players) || json_array_size(players) != (size_t)s->n)
		goto bad;
	for (int p = 0; p < s->n; p++)
		if (decode_player(json_array_get(players, (size_t)p), &s->p[p]))
			goto bad;
	if (s->run >= s->p[s->cur].nships)
		goto bad;
	if ((s->phase == SM_PH_RUN || s->phase == SM_PH_EXPLORE) && s->run < 0)
		goto bad;
	if (s->phase == SM_PH_EXPLORE && s->drawn < 0)
		goto bad;
	*out = s;
	s = NULL;
	rc = 0;
bad:
	if (rc)
		err_set(err, ERR_INPUT, "Starship Merchants snapshot: a field is missing or out of range");
	free(s);
	return rc;
}
