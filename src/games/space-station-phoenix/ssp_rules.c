/* games/space-station-phoenix/ssp_rules.c: set-up, turns, actions, abilities and scoring of Space Station Phoenix */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "games/space-station-phoenix/ssp_internal.h"
#include "util/banned.h"

/* Hub indexes: B-n and A-n. */
#define HB(n) ((n) - 1)
#define HA(n) (11 + (n))

#define SECIDX(id) ((((id) / 100) - 1) * 24 + (((id) / 10) % 10) * 8 + ((id) % 10) - 1)

/* once-per-action offers (act_once bits) */
enum { ONCE_117 = 1 << 0, ONCE_118 = 1 << 1, ONCE_208 = 1 << 2, ONCE_322 = 1 << 3, ONCE_222 = 1 << 4,
       ONCE_228 = 1 << 5, ONCE_A1 = 1 << 6 };

static const char *const kind_name[6] = { "empty", "teal Alien", "brown Alien", "pink Alien", "gold Alien", "Human" };
static const char *const res_name[4] = { "food", "water", "metal", "GEMs" };
static const char *const track_name[4] = { "Dismantle", "Construct", "Transport", "Expedition" };

static int step(struct ssp_state *st, int seat, const struct ssp_move *m, struct err *err);
static void run(struct ssp_state *st, struct rng *rng);
static int convert_metal(struct ssp_state *st, int p, int to, struct err *err);

/* ------------------------------------------------------------------ helpers */

static int has_hub(const struct ssp_state *st, int p, int hub)
{
	return st->pl[p].hub == hub;
}

static int ability_q(int idx)
{
	for (int q = 0; q < ssp_sectors[idx].nq; q++)
		if (ssp_sectors[idx].q[q] == Q_ABIL)
			return q;
	return -1;
}

static int end_q(int idx)
{
	for (int q = 0; q < ssp_sectors[idx].nq; q++)
		if (ssp_sectors[idx].q[q] == Q_END)
			return q;
	return -1;
}

/* Sector id's ongoing ability works for p: built, quarter occupied, not placed this turn. */
static int on(const struct ssp_state *st, int p, int id)
{
	int idx = SECIDX(id), q;

	if (st->sec_loc[idx] != p)
		return 0;
	q = ability_q(idx);
	return q >= 0 && st->sec_res[idx][q] && !(st->sec_fresh[idx] & (1 << q));
}

static int end_on(const struct ssp_state *st, int p, int id)
{
	int idx = SECIDX(id), q;

	if (st->sec_loc[idx] != p)
		return 0;
	q = end_q(idx);
	return q >= 0 && st->sec_res[idx][q];
}

static int occupied(const struct ssp_state *st, int idx)
{
	int n = 0;

	while (n < ssp_sectors[idx].nq && st->sec_res[idx][n])
		n++;
	return n;
}

void ssp_rules_residents(const struct ssp_state *st, int seat, int count[6])
{
	memset(count, 0, 6 * sizeof(int));
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (st->sec_loc[i] == seat)
			for (int q = 0; q < ssp_sectors[i].nq; q++)
				count[st->sec_res[i][q]]++;
	for (int q = 0; q < 5; q++)
		count[st->pl[seat].hubq[q]]++;
	count[0] = 0;
}

int ssp_rules_nsectors(const struct ssp_state *st, int seat)
{
	int n = 0;

	for (int i = 0; i < SSP_NSECTORS; i++)
		n += st->sec_loc[i] == seat;
	return n;
}

static int nships(const struct ssp_state *st, int p)
{
	int n = 0;

	for (int s = 0; s < SSP_NSHIPS; s++)
		n += st->ship_loc[s] == p;
	return n;
}

static int total_res(const struct ssp_state *st, int p)
{
	return st->pl[p].res[SSP_FOOD] + st->pl[p].res[SSP_WATER] + st->pl[p].res[SSP_METAL];
}

static void push_back(struct ssp_state *st, int kind, int a, int b, int c, int d)
{
	struct ssp_task *t;

	if (st->ntask >= SSP_MAXTASK)
		return; /* cannot happen: a turn queues far fewer */
	t = &st->task[st->ntask++];
	t->kind = kind;
	t->a = a;
	t->b = b;
	t->c = c;
	t->d = d;
}

static void push_front(struct ssp_state *st, int kind, int a, int b, int c, int d)
{
	if (st->ntask >= SSP_MAXTASK)
		return;
	memmove(&st->task[1], &st->task[0], (size_t)st->ntask * sizeof(st->task[0]));
	st->ntask++;
	st->task[0] = (struct ssp_task){ kind, a, b, c, d };
}

static void pop_front(struct ssp_state *st)
{
	if (st->ntask <= 0)
		return;
	memmove(&st->task[0], &st->task[1], (size_t)(st->ntask - 1) * sizeof(st->task[0]));
	st->ntask--;
	memset(&st->task[st->ntask], 0, sizeof(st->task[0]));
}

/* ------------------------------------------------------------------ residents */

/* May p place a resident of kind at target (sector index or SSP_HUBQ)? */
static int can_place(const struct ssp_state *st, int p, int kind, int target)
{
	if (kind < SSP_TEAL || kind > SSP_HUMAN)
		return 0;
	if (target == SSP_HUBQ) {
		if (!has_hub(st, p, HB(11)) || kind == SSP_TEAL || kind == SSP_BROWN)
			return 0;
		for (int q = 0; q < 3; q++)
			if (!st->pl[p].hubq[q])
				return 1;
		return 0;
	}
	if (target < 0 || target >= SSP_NSECTORS || st->sec_loc[target] != p)
		return 0;
	if (occupied(st, target) >= ssp_sectors[target].nq)
		return 0;
	if (kind == SSP_GOLD || kind == SSP_HUMAN || kind == ssp_sectors[target].colour + 1)
		return 1;
	return ssp_sectors[target].colour == 0 && on(st, p, 108);
}

static int any_room(const struct ssp_state *st, int p, int kind)
{
	if (can_place(st, p, kind, SSP_HUBQ))
		return 1;
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (can_place(st, p, kind, i))
			return 1;
	return 0;
}

/* Free quarters a Human could take. */
static int human_room(const struct ssp_state *st, int p)
{
	int n = 0;

	for (int i = 0; i < SSP_NSECTORS; i++)
		if (st->sec_loc[i] == p)
			n += ssp_sectors[i].nq - occupied(st, i);
	if (has_hub(st, p, HB(11)))
		for (int q = 0; q < 3; q++)
			n += !st->pl[p].hubq[q];
	return n;
}

static void gained(struct ssp_state *st, int p, int kind)
{
	if (kind == SSP_HUMAN) {
		if (on(st, p, 115))
			st->pl[p].points += 1;
		if (on(st, p, 126))
			st->pl[p].res[SSP_GEM] += 2;
		if (on(st, p, 217))
			push_front(st, TK_TAKE, 7, 1, 0, 0);
	} else if (on(st, p, 106)) {
		st->pl[p].res[SSP_GEM] += 1;
	}
}

/* Take a resident from the supply and put it at target (checked by the caller). */
static void place(struct ssp_state *st, int p, int kind, int target, int fresh)
{
	if (kind == SSP_HUMAN)
		st->humans--;
	else
		st->aliens[kind - 1]--;
	if (target == SSP_HUBQ) {
		for (int q = 0; q < 3; q++)
			if (!st->pl[p].hubq[q]) {
				st->pl[p].hubq[q] = kind;
				break;
			}
	} else {
		int q = occupied(st, target);
		st->sec_res[target][q] = kind;
		if (fresh)
			st->sec_fresh[target] |= 1 << q;
	}
	gained(st, p, kind);
}

/* Remove the rightmost resident of kind from a sector or hub; shift left (not on A-11's hub). 0 or -1. */
static int unplace(struct ssp_state *st, int p, int kind, int from)
{
	if (from == SSP_HUBQ) {
		int *h = st->pl[p].hubq;
		if (has_hub(st, p, HA(11))) {
			if (kind < 1 || kind > 5 || h[kind - 1] != kind)
				return -1;
			h[kind - 1] = 0;
			return 0;
		}
		for (int q = 2; q >= 0; q--)
			if (h[q] == kind) {
				for (int r = q; r < 2; r++)
					h[r] = h[r + 1];
				h[2] = 0;
				return 0;
			}
		return -1;
	}
	if (from < 0 || from >= SSP_NSECTORS || st->sec_loc[from] != p)
		return -1;
	for (int q = ssp_sectors[from].nq - 1; q >= 0; q--)
		if (st->sec_res[from][q] == kind) {
			int nq = ssp_sectors[from].nq, fr = st->sec_fresh[from], nf;
			for (int r = q; r < nq - 1; r++)
				st->sec_res[from][r] = st->sec_res[from][r + 1];
			st->sec_res[from][nq - 1] = 0;
			nf = fr & ((1 << q) - 1);
			nf |= (fr >> 1) & ~((1 << q) - 1);
			st->sec_fresh[from] = nf & ((1 << (nq - 1)) - 1);
			return 0;
		}
	return -1;
}

static int has_resident(const struct ssp_state *st, int p, int kind, int from)
{
	if (from == SSP_HUBQ) {
		for (int q = 0; q < 5; q++)
			if (st->pl[p].hubq[q] == kind)
				return 1;
		return 0;
	}
	if (from < 0 || from >= SSP_NSECTORS || st->sec_loc[from] != p)
		return 0;
	for (int q = 0; q < ssp_sectors[from].nq; q++)
		if (st->sec_res[from][q] == kind)
			return 1;
	return 0;
}

/* Queue a free resident (kind 0: an Alien of any colour) if one is left and there is room. */
static void gain_free(struct ssp_state *st, int p, int kind, int front)
{
	(void)p;
	if (kind == SSP_HUMAN ? st->humans <= 0 : (kind && st->aliens[kind - 1] <= 0))
		return;
	if (front)
		push_front(st, TK_PLACE, kind, 0, 0, 0);
	else
		push_back(st, TK_PLACE, kind, 0, 0, 0);
}

/* Resources waived when gaining a Human (215, A-10): which of food, water, metal p pays. */
static int human_discount(const struct ssp_state *st, int p)
{
	return on(st, p, 215) + has_hub(st, p, HA(10));
}

static void human_cost(const struct ssp_state *st, int p, int need[3])
{
	int d = human_discount(st, p);
	static const int order[3] = { SSP_METAL, SSP_WATER, SSP_FOOD };

	need[0] = need[1] = need[2] = 1;
	for (int i = 0; i < 3 && d > 0; i++)
		if (st->pl[p].res[order[i]] < 1) {
			need[order[i]] = 0;
			d--;
		}
	for (int i = 0; i < 3 && d > 0; i++)
		if (need[order[i]]) {
			need[order[i]] = 0;
			d--;
		}
}

void ssp_rules_human_cost(const struct ssp_state *st, int seat, int need[3])
{
	human_cost(st, seat, need);
}

static int pay_human(struct ssp_state *st, int p, struct err *err)
{
	int need[3];

	human_cost(st, p, need);
	for (int r = 0; r < 3; r++)
		if (st->pl[p].res[r] < need[r])
			return err_set(err, ERR_ILLEGAL, "a Human ally costs %d food, %d water and %d metal; you have %d, %d and %d",
				       need[0], need[1], need[2], st->pl[p].res[0], st->pl[p].res[1], st->pl[p].res[2]);
	for (int r = 0; r < 3; r++)
		st->pl[p].res[r] -= need[r];
	return 0;
}

/* ------------------------------------------------------------------ sectors */

/* May p build sector idx now (wing and level order rules, source)? Ignores metal. */
static int can_build_where(const struct ssp_state *st, int p, int idx, int free326)
{
	const struct ssp_sector_info *s = &ssp_sectors[idx];
	int have[4] = { 0, 0, 0, 0 };

	if (st->sec_loc[idx] != SEC_DISPLAY && st->sec_loc[idx] != SEC_PRIVATE + p)
		return 0;
	if (st->sec_loc[idx] == SEC_PRIVATE + p && !has_hub(st, p, HA(6)))
		return 0;
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (st->sec_loc[i] == p && ssp_sectors[i].colour == s->colour)
			have[ssp_sectors[i].level] = 1;
	if (have[s->level])
		return 0;
	if (free326)
		return s->level == 1;
	if (has_hub(st, p, HA(9)))
		return 1;
	return s->level == 1 || have[s->level - 1];
}

static int build_cost(int idx, int discount)
{
	int c = ssp_sectors[idx].cost - discount;
	return c < 0 ? 0 : c;
}

static int any_build(const struct ssp_state *st, int p, int discount, int free326)
{
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (can_build_where(st, p, i, free326) &&
		    (free326 || build_cost(i, discount) <= st->pl[p].res[SSP_METAL]))
			return 1;
	return 0;
}

/* ------------------------------------------------------------------ ships */

int ssp_rules_cost(const struct ssp_state *st, int p, int s)
{
	const struct ssp_ship_info *sh = &ssp_ships[s];
	int own = st->ship_loc[s] == p, c = sh->cost;

	if (has_hub(st, p, HA(2)))
		c -= own ? 1 : 2;
	if (has_hub(st, p, HA(5)) && !own)
		c -= 1;
	if (has_hub(st, p, HA(7)) && !own && sh->type == SSP_DIPLOMACY)
		c -= 2;
	if (has_hub(st, p, HA(10)) && sh->type == SSP_EXPEDITION)
		c -= 1;
	return c < 1 ? 1 : c;
}

/*
 * Ships a and b are the same card in this position: the same printed values
 * (level, kind, cost, fee, metal, power, dice), at the same place (one owner's
 * fleet, the draft display, the ships drawn at set-up) and used alike. No rule
 * tells such cards apart, so a choice between them is no choice.
 */
static int same_card(const struct ssp_state *st, int a, int b)
{
	const struct ssp_ship_info *x = &ssp_ships[a], *y = &ssp_ships[b];

	return x->level == y->level && x->type == y->type && x->cost == y->cost && x->fee == y->fee &&
	       x->metal == y->metal && x->power == y->power && x->roll == y->roll && x->keep == y->keep &&
	       st->ship_loc[a] == st->ship_loc[b] && st->ship_used[a] == st->ship_used[b];
}

int ssp_rules_first_card(const struct ssp_state *st, int s)
{
	if (s < 0 || s >= SSP_NSHIPS)
		return s;
	for (int o = 0; o < s; o++)
		if (same_card(st, o, s))
			return o;
	return s;
}

static int ship_fee(const struct ssp_state *st, int p, int s)
{
	int loc = st->ship_loc[s];
	return (loc >= 0 && loc < SSP_MAXP && loc != p) ? ssp_ships[s].fee : 0;
}

static int transport_size(const struct ssp_state *st, int p, int s)
{
	return ssp_ships[s].power + on(st, p, 214) + has_hub(st, p, HA(4)) + has_hub(st, p, HA(12));
}

static int construct_discount(const struct ssp_state *st, int p, int s)
{
	return ssp_ships[s].power + on(st, p, 211) + 2 * on(st, p, 326) + has_hub(st, p, HA(6)) + has_hub(st, p, HA(12));
}

/* Any transport transaction possible for p? */
static int any_transaction(const struct ssp_state *st, int p)
{
	const int *r = st->pl[p].res;

	if (r[SSP_GEM] >= 3 || total_res(st, p) >= 2)
		return 1;
	if (r[SSP_FOOD] < 1 || r[SSP_WATER] < 1)
		return 0;
	for (int k = SSP_TEAL; k <= SSP_GOLD; k++) {
		if (st->aliens[k - 1] <= 0 || (k == SSP_GOLD && r[SSP_GEM] < 1))
			continue;
		if (any_room(st, p, k))
			return 1;
	}
	return 0;
}

static int any_advance(const struct ssp_state *st, int p, int free, int extra)
{
	for (int t = 0; t < 4; t++) {
		int l = st->pl[p].dip[t];
		if (l < 5 && (free || st->pl[p].res[SSP_GEM] >= ssp_lobby_cost[l + 1] + extra))
			return 1;
	}
	return 0;
}

static int own_unused_other(const struct ssp_state *st, int p, int except)
{
	for (int s = 0; s < SSP_NSHIPS; s++)
		if (s != except && st->ship_loc[s] == p && !st->ship_used[s])
			return 1;
	return 0;
}

/* Can p use ship s now (unused, affordable, and at least part of its action possible)? */
static int ship_usable(const struct ssp_state *st, int p, int s, struct err *err)
{
	const struct ssp_ship_info *sh;
	struct ssp_state *t;
	int loc, cost, fee, ok = 1;

	if (s < 0 || s >= SSP_NSHIPS)
		return err_set(err, ERR_ILLEGAL, "no such ship");
	sh = &ssp_ships[s];
	loc = st->ship_loc[s];
	if (!(loc == SL_NEUTRAL || (loc >= 0 && loc < SSP_MAXP)))
		return err_set(err, ERR_ILLEGAL, "ship %s is not in play", sh->id);
	if (st->ship_used[s])
		return err_set(err, ERR_ILLEGAL, "ship %s is used (GEMs on it) until its owner's next Income", sh->id);
	if (loc == SL_NEUTRAL && st->pl[p].neutral >= 0)
		return err_set(err, ERR_ILLEGAL, "neutral ships: your Neutral Ship token is on %s until your next Income",
			       ssp_ships[st->pl[p].neutral].id);
	cost = ssp_rules_cost(st, p, s);
	fee = ship_fee(st, p, s);
	if (st->pl[p].res[SSP_GEM] < cost + fee)
		return err_set(err, ERR_ILLEGAL, "ship %s costs %d GEMs plus an owner's fee of %d; you have %d", sh->id,
			       cost, fee, st->pl[p].res[SSP_GEM]);
	t = malloc(sizeof(*t));
	if (!t)
		return err_set(err, ERR_NOMEM, "out of memory");
	*t = *st;
	t->pl[p].res[SSP_GEM] -= cost + fee;
	t->ship_used[s] = 1 + p;
	switch (sh->type) {
	case SSP_DISMANTLE:
		if (!own_unused_other(t, p, s))
			ok = err_set(err, ERR_ILLEGAL, "Dismantle needs another unused ship of your own; you have none");
		break;
	case SSP_CONSTRUCT:
		if (!any_build(t, p, construct_discount(t, p, s), 0))
			ok = err_set(err, ERR_ILLEGAL, "Construction: no Sector you may build with %d metal (discount %d)",
				     t->pl[p].res[SSP_METAL], construct_discount(t, p, s));
		break;
	case SSP_TRANSPORT:
		if (!any_transaction(t, p))
			ok = err_set(err, ERR_ILLEGAL, "Transport: no transaction possible after paying %d GEMs", cost + fee);
		break;
	case SSP_DIPLOMACY:
		if (!any_advance(t, p, 0, 0))
			ok = err_set(err, ERR_ILLEGAL, "Diplomacy: no track you can advance (you would have %d GEMs left)",
				     t->pl[p].res[SSP_GEM]);
		break;
	default:
		break;
	}
	free(t);
	return ok == 1 ? 0 : ok;
}

static int any_ship_usable(const struct ssp_state *st, int p)
{
	/* NULL err: only the answer is wanted, and formatting messages is what costs */
	for (int s = 0; s < SSP_NSHIPS; s++)
		if (ship_usable(st, p, s, NULL) == 0)
			return 1;
	return 0;
}

int ssp_rules_usable(const struct ssp_state *st, int seat, int ship)
{
	return seat >= 0 && seat < st->nplayers && ship_usable(st, seat, ship, NULL) == 0;
}

int ssp_rules_price(const struct ssp_state *st, int seat, int ship)
{
	return ssp_rules_cost(st, seat, ship) + ship_fee(st, seat, ship);
}

static int income_eligible(const struct ssp_state *st, int p)
{
	if (st->pl[p].res[SSP_GEM] <= 7)
		return 1;
	for (int s = 0; s < SSP_NSHIPS; s++)
		if (st->ship_loc[s] == p && st->ship_used[s])
			return 1;
	return !any_ship_usable(st, p);
}

/* ------------------------------------------------------------------ set-up */

static int draft_seat(const struct ssp_state *st)
{
	int n = st->nplayers, i = st->draft_pos;
	int forward = (st->phase == PH_DRAFT3) ? (i < n) : (i >= n);

	i = i % n;
	return forward ? i : n - 1 - i;
}

static int take_random(struct ssp_state *st, int *loc, int count, int from, int to, int level, int colour,
		       struct rng *rng)
{
	int pool[SSP_NSECTORS], np = 0, got = 0;

	for (int i = 0; i < SSP_NSECTORS; i++)
		if (loc[i] == from && ssp_sectors[i].level == level && ssp_sectors[i].colour == colour)
			pool[np++] = i;
	while (got < count && np > 0) {
		int k = (int)rng_below(rng, (uint32_t)np);
		loc[pool[k]] = to;
		pool[k] = pool[--np];
		got++;
	}
	(void)st;
	return got;
}

static void draw_ships(struct ssp_state *st, int level, int count, int to, struct rng *rng)
{
	int pool[SSP_NSHIPS], np = 0;
	int lo = level == 2 ? SSP_SHIP_L2 : SSP_SHIP_L3, hi = level == 2 ? SSP_SHIP_L3 : SSP_SHIP_NEUTRAL;

	for (int s = lo; s < hi; s++)
		if (st->ship_loc[s] == SL_DECK)
			pool[np++] = s;
	for (int i = 0; i < count && np > 0; i++) {
		int k = (int)rng_below(rng, (uint32_t)np);
		st->ship_loc[pool[k]] = to;
		pool[k] = pool[--np];
	}
}

/* The back of p's hub: goods, advances and the special set-up effects (queued decisions). */
static void hub_setup(struct ssp_state *st, int p, struct rng *rng)
{
	const struct ssp_hub_info *h = &ssp_hubs[st->pl[p].hub];
	int hub = st->pl[p].hub;

	st->pl[p].res[SSP_GEM] += h->gems;
	st->pl[p].res[SSP_FOOD] += h->food;
	st->pl[p].res[SSP_WATER] += h->water;
	st->pl[p].res[SSP_METAL] += h->metal;
	for (int t = 0; t < 4; t++)
		st->pl[p].dip[t] += h->dip[t];
	for (int i = 0; i < h->dip_any; i++)
		push_back(st, TK_DIPLO, 1, 1, 0, 0);
	if (hub == HB(2) && !st->first_game) {
		draw_ships(st, 2, 3, SL_DRAWN + p, rng);
		push_back(st, TK_DISCARD, 0, 0, 0, 0);
	}
	if (hub == HA(1) || hub == HA(8)) {
		draw_ships(st, 2, 2, SL_DRAWN + p, rng);
		push_back(st, TK_DISCARD, 0, 0, 0, 0);
	}
	if (hub == HB(6) || hub == HA(4) || hub == HA(5))
		st->ship_loc[p * 5 + SSP_DIPLOMACY] = SL_GONE;
	if (hub == HA(5) || hub == HA(9))
		push_back(st, TK_DISCARD, 1, 0, 0, 0);
	if (hub == HB(6) || hub == HB(7))
		take_random(st, st->sec_loc, 1, SEC_BOX, p, 1, 1, rng);
	if (hub == HB(8) || hub == HB(9))
		take_random(st, st->sec_loc, 1, SEC_BOX, p, 1, 0, rng);
	if (hub == HB(10) || hub == HB(11))
		take_random(st, st->sec_loc, 1, SEC_BOX, p, 1, 2, rng);
	if (hub == HB(11))
		for (int q = 0; q < 3; q++)
			if (st->aliens[SSP_PINK - 1] > 0) {
				st->aliens[SSP_PINK - 1]--;
				st->pl[p].hubq[q] = SSP_PINK;
			}
	if (hub == HA(6))
		for (int l = 1; l <= 3; l++)
			for (int c = 0; c < 3; c++)
				take_random(st, st->sec_loc, 1, SEC_BOX, SEC_PRIVATE + p, l, c, rng);
	if (hub == HA(11))
		for (int k = SSP_TEAL; k <= SSP_HUMAN; k++) {
			int *sup = k == SSP_HUMAN ? &st->humans : &st->aliens[k - 1];
			if (*sup > 0) {
				(*sup)--;
				st->pl[p].hubq[k - 1] = k;
			}
		}
}

int ssp_rules_setup(struct ssp_state *st, int n, int first_game, int advanced, int friendly,
		    struct rng *rng, struct err *err)
{
	int bag[100], order[SSP_NHUBS], nh;

	if (n < 2 || n > SSP_MAXP)
		return err_set(err, ERR_INPUT, "Space Station Phoenix is for 2 to 4 players, not %d", n);
	memset(st, 0, sizeof(*st));
	st->nplayers = n;
	st->first_game = first_game;
	st->advanced = advanced && !first_game;
	st->friendly = friendly;
	st->end_by = -1;
	st->act_ship = -1;
	st->humans = st->human_total = ssp_humans_by_n[n];
	for (int i = 0; i < 100; i++)
		bag[i] = i % 4;
	rng_shuffle_int(rng, bag, 100);
	for (int i = 0; i < ssp_aliens_by_n[n]; i++)
		st->aliens[bag[i]]++;
	memcpy(st->alien_total, st->aliens, sizeof(st->aliens));
	for (int p = 0; p < SSP_MAXP; p++) {
		st->pl[p].hub = st->pl[p].dealt[0] = st->pl[p].dealt[1] = -1;
		st->pl[p].neutral = -1;
	}
	/* Sectors: per level and colour, n (+1 friendly) at random; first game: indexes 1..4 only */
	for (int i = 0; i < SSP_NSECTORS; i++)
		st->sec_loc[i] = (first_game && ssp_sectors[i].id % 10 > 4) ? SEC_GONE : SEC_BOX;
	for (int l = 1; l <= 3; l++)
		for (int c = 0; c < 3; c++)
			take_random(st, st->sec_loc, n + (friendly ? 1 : 0), SEC_BOX, SEC_DISPLAY, l, c, rng);
	if (first_game)
		for (int i = 0; i < SSP_NSECTORS; i++)
			if (st->sec_loc[i] == SEC_GONE)
				st->sec_loc[i] = SEC_BOX;
	/* ships */
	for (int s = 0; s < SSP_NSHIPS; s++) {
		if (s < SSP_SHIP_L2)
			st->ship_loc[s] = s / 5 < n ? s / 5 : SL_BOX;
		else if (s < SSP_SHIP_NEUTRAL)
			st->ship_loc[s] = SL_DECK;
		else
			st->ship_loc[s] = SL_NEUTRAL;
	}
	if (first_game) {
		int sets[4] = { 0, 1, 2, 3 };
		rng_shuffle_int(rng, sets, 4);
		for (int p = 0; p < n; p++) {
			const struct ssp_first_set *fs = &ssp_first_sets[sets[p]];
			st->pl[p].hub = fs->hub;
			for (int i = 0; i < 2 + fs->nl2; i++) {
				int lvl = i < 2 ? 3 : 2, type = i < 2 ? fs->l3[i] : fs->l2[i - 2];
				for (int s = lvl == 3 ? SSP_SHIP_L3 : SSP_SHIP_L2; s < (lvl == 3 ? SSP_SHIP_NEUTRAL : SSP_SHIP_L3); s++)
					if (st->ship_loc[s] == SL_DECK && ssp_ships[s].type == type) {
						st->ship_loc[s] = p;
						break;
					}
			}
		}
		for (int s = SSP_SHIP_L2; s < SSP_SHIP_NEUTRAL; s++)
			if (st->ship_loc[s] == SL_DECK)
				st->ship_loc[s] = SL_BOX;
		st->phase = PH_SETUP;
		st->active = 0;
		st->draft_pos = 0;
		hub_setup(st, 0, rng);
		run(st, rng);
		return 0;
	}
	nh = st->advanced ? SSP_NHUBS : 12;
	for (int i = 0; i < nh; i++)
		order[i] = i;
	rng_shuffle_int(rng, order, nh);
	for (int p = 0; p < n; p++) {
		st->pl[p].dealt[0] = order[2 * p] < order[2 * p + 1] ? order[2 * p] : order[2 * p + 1];
		st->pl[p].dealt[1] = order[2 * p] < order[2 * p + 1] ? order[2 * p + 1] : order[2 * p];
	}
	draw_ships(st, 3, ssp_l3_display_by_n[n], SL_DISPLAY, rng);
	st->phase = PH_DRAFT3;
	st->draft_pos = 0;
	st->active = draft_seat(st);
	return 0;
}

/* ------------------------------------------------------------------ income */

static void do_income(struct ssp_state *st, int p, struct rng *rng)
{
	struct ssp_player *pl = &st->pl[p];
	const struct ssp_hub_info *h = &ssp_hubs[pl->hub];
	int c[6];

	(void)rng;
	for (int s = 0; s < SSP_NSHIPS; s++)
		if (st->ship_loc[s] == p)
			st->ship_used[s] = 0;
	if (pl->neutral >= 0) {
		st->ship_used[pl->neutral] = 0;
		pl->neutral = -1;
	}
	pl->res[SSP_GEM] += h->per_ship * nships(st, p) + h->flat;
	for (int i = 0; i < SSP_NSECTORS; i++) {
		if (st->sec_loc[i] != p)
			continue;
		for (int q = 0; q < ssp_sectors[i].nq; q++) {
			int v = ssp_sectors[i].q[q];
			if (v < 10 || !st->sec_res[i][q] || (st->sec_fresh[i] & (1 << q)))
				continue;
			pl->res[v / 10 - 1] += v % 10;
		}
	}
	if (has_hub(st, p, HA(11))) {
		static const int hr[5] = { SSP_FOOD, SSP_WATER, SSP_METAL, SSP_GEM, SSP_GEM };
		static const int hn[5] = { 1, 1, 1, 2, 2 };
		for (int q = 0; q < 5; q++)
			if (pl->hubq[q])
				pl->res[hr[q]] += hn[q];
	}
	ssp_rules_residents(st, p, c);
	if (has_hub(st, p, HB(4)))
		pl->res[SSP_GEM] += c[SSP_HUMAN] / 2;
	if (on(st, p, 308))
		pl->res[SSP_GEM] += c[SSP_HUMAN] / 2;
	if (has_hub(st, p, HB(6)))
		pl->points += 1;
	if (has_hub(st, p, HB(7)))
		pl->res[SSP_WATER] += c[SSP_BROWN] / 4;
	if (has_hub(st, p, HB(9)))
		pl->res[SSP_FOOD] += c[SSP_TEAL] / 4;
	if (has_hub(st, p, HB(10)))
		pl->res[SSP_GEM] += c[SSP_PINK] / 2;
	if (on(st, p, 226)) {
		int k = 0;
		for (int t = 0; t < 4; t++)
			k += pl->dip[t] >= 3;
		if (k > 1)
			pl->points += k - 1;
	}
	if (on(st, p, 101))
		push_back(st, TK_TAKE, 3, 1, 0, 0);
	if (has_hub(st, p, HB(8)))
		push_back(st, TK_TAKE, 3, 1, 0, 0);
	if (on(st, p, 128))
		push_back(st, TK_EXCHANGE, 0, 0, 0, 0);
	if (on(st, p, 218))
		push_back(st, TK_TRANSPORT, 1, 0, 0, 0);
	if (has_hub(st, p, HB(5)))
		push_back(st, TK_TRANSPORT, 1, 0, 0, 0);
	if (on(st, p, 222))
		push_back(st, TK_ACCEPT, 222, 0, 0, 0);
	if (on(st, p, 225))
		push_back(st, TK_DICE, 1, 0, 2, 0);
	if (on(st, p, 228))
		push_back(st, TK_BUY2, 0, 0, 0, 0);
	if (on(st, p, 307))
		push_back(st, TK_HUMAN2, 0, 0, 0, 0);
	if (has_hub(st, p, HA(7)))
		push_back(st, TK_DIPLO, 1, 0, 1, 0);
	push_back(st, TK_RELOCATE, 0, 0, 0, 0);
	if (has_hub(st, p, HA(11)) && pl->incomes < 5)
		push_back(st, TK_A11, 0, 0, 0, 0);
	if (has_hub(st, p, HA(12)))
		push_back(st, TK_RETURN, 0, 0, 0, 0);
	pl->incomes++;
}

/* ------------------------------------------------------------------ ship actions */

static void roll(struct ssp_state *st, int n, struct rng *rng)
{
	for (int i = 0; i < n; i++)
		st->dice[ssp_die_face[rng_die(rng, 6) - 1]]++;
}

static void after_ship(struct ssp_state *st, int p, int type)
{
	struct ssp_player *pl = &st->pl[p];

	switch (type) {
	case SSP_DISMANTLE:
		if (on(st, p, 104))
			pl->res[SSP_GEM] += 3;
		if (on(st, p, 125))
			push_back(st, TK_TAKE, 3, 1, 0, 0);
		if (on(st, p, 312)) {
			pl->res[SSP_FOOD]++;
			pl->res[SSP_WATER]++;
		}
		if (has_hub(st, p, HB(2))) {
			pl->res[SSP_FOOD]++;
			pl->res[SSP_WATER]++;
		}
		break;
	case SSP_CONSTRUCT:
		if (on(st, p, 122))
			pl->points += 2;
		break;
	case SSP_TRANSPORT:
		if (on(st, p, 107))
			pl->res[SSP_GEM] += 2;
		if (on(st, p, 116))
			pl->points += 1;
		if (on(st, p, 324)) {
			pl->res[SSP_FOOD]++;
			pl->res[SSP_WATER]++;
		}
		if (on(st, p, 118))
			push_back(st, TK_ACCEPT, 118, 0, 0, 0);
		if (on(st, p, 303))
			gain_free(st, p, SSP_HUMAN, 0);
		if (on(st, p, 325))
			gain_free(st, p, 0, 0);
		if (has_hub(st, p, HB(3)))
			gain_free(st, p, 0, 0);
		if (on(st, p, 306))
			push_back(st, TK_DIPLO, 1, 1, 1, 0);
		if (has_hub(st, p, HA(3)))
			push_back(st, TK_DICE, 2, 0, 3, 0);
		break;
	case SSP_EXPEDITION:
		if (on(st, p, 105))
			pl->res[SSP_GEM] += 2;
		if (on(st, p, 321)) {
			pl->res[SSP_FOOD]++;
			pl->res[SSP_WATER]++;
		}
		if (on(st, p, 322))
			push_back(st, TK_ACCEPT, 322, 0, 0, 0);
		if (on(st, p, 301))
			push_back(st, TK_TRANSPORT, 1, 0, 0, 0);
		if (has_hub(st, p, HA(3)))
			push_back(st, TK_TRANSPORT, 1, 0, 0, 0);
		break;
	case SSP_DIPLOMACY:
		if (has_hub(st, p, HA(7)))
			pl->points += 1;
		if (on(st, p, 112))
			push_back(st, TK_TAKE, 7, 1, 0, 0);
		if (on(st, p, 117))
			push_back(st, TK_DIPLO, 1, 0, 1, 3);
		if (on(st, p, 206))
			push_back(st, TK_TRANSPORT, 1, 0, 0, 0);
		if (on(st, p, 318))
			gain_free(st, p, SSP_HUMAN, 0);
		if (has_hub(st, p, HB(12)))
			gain_free(st, p, SSP_HUMAN, 0);
		if (on(st, p, 208))
			push_back(st, TK_ACCEPT, 208, 0, 0, 0);
		break;
	default:
		break;
	}
}

static int use_ship(struct ssp_state *st, int p, int s, struct err *err)
{
	const struct ssp_ship_info *sh = &ssp_ships[s];
	int rc = ship_usable(st, p, s, err), cost, fee, loc;

	if (rc < 0)
		return rc;
	cost = ssp_rules_cost(st, p, s);
	fee = ship_fee(st, p, s);
	loc = st->ship_loc[s];
	st->pl[p].res[SSP_GEM] -= cost + fee;
	if (fee)
		st->pl[loc].res[SSP_GEM] += fee;
	st->ship_used[s] = 1 + p;
	if (loc == SL_NEUTRAL)
		st->pl[p].neutral = s;
	st->stalled = 0;
	st->acting = 1;
	st->act_ship = s;
	st->act_once = 0;
	memset(st->act_gained, 0, sizeof(st->act_gained));
	switch (sh->type) {
	case SSP_DISMANTLE: {
		int extra = sh->power + 2 * on(st, p, 212) + 3 * on(st, p, 304) + has_hub(st, p, HA(12)) + has_hub(st, p, HB(2));
		push_back(st, TK_DISMANTLE, extra, 0, 0, 0);
		break;
	}
	case SSP_CONSTRUCT:
		push_back(st, TK_BUILD, construct_discount(st, p, s), 0, 1, 0);
		break;
	case SSP_TRANSPORT:
		push_back(st, TK_TRANSPORT, transport_size(st, p, s), 1, 1, 0);
		break;
	case SSP_EXPEDITION: {
		int r = sh->roll + on(st, p, 124) + 2 * on(st, p, 327) + has_hub(st, p, HA(8)) + has_hub(st, p, HA(10));
		int k = sh->keep + on(st, p, 204) + on(st, p, 314) + has_hub(st, p, HA(8)) + has_hub(st, p, HA(10)) +
			has_hub(st, p, HA(12));
		int rr = has_hub(st, p, HB(4)) + on(st, p, 315);
		push_back(st, TK_DICE, k, rr, r, 0);
		break;
	}
	case SSP_DIPLOMACY:
		push_back(st, TK_DIPLO, sh->power, 0, 0, 0);
		break;
	case SSP_FARM:
		st->pl[p].res[SSP_FOOD] += sh->power;
		break;
	case SSP_ICE:
		st->pl[p].res[SSP_WATER] += sh->power;
		break;
	}
	push_back(st, TK_AFTER, sh->type, 0, 0, 0);
	return 0;
}

/* Build sector idx (cost already checked); triggers construction and immediate effects. */
static void build(struct ssp_state *st, int p, int idx, int by_ship)
{
	int id = ssp_sectors[idx].id, col = ssp_sectors[idx].colour;

	st->sec_loc[idx] = p;
	if (by_ship) {
		if (on(st, p, 227))
			gain_free(st, p, col + 1, 1);
		if (has_hub(st, p, HB(1)))
			gain_free(st, p, col + 1, 1);
	}
	switch (id) {
	case 301:
	case 323:
		st->extra_turns++;
		break;
	case 302:
	case 313:
		st->pl[p].points += 5;
		break;
	case 317:
		st->pl[p].points += 10;
		break;
	case 307:
	case 318:
		gain_free(st, p, SSP_HUMAN, 1);
		break;
	case 311:
		gain_free(st, p, SSP_BROWN, 1);
		gain_free(st, p, SSP_BROWN, 1);
		break;
	case 324:
		gain_free(st, p, SSP_PINK, 1);
		gain_free(st, p, SSP_PINK, 1);
		break;
	case 321:
		push_front(st, TK_DICE, 5, 0, 7, 0);
		break;
	case 326:
		push_front(st, TK_BUILD, 0, 1, 0, 0);
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------------ Diplomacy bonuses */

static int bonus_level(int b, int track)
{
	switch (b) {
	case BN_GEM: return 0;
	case BN_2GEMS: return 1;
	case BN_POINT: return 2;
	case BN_FOOD: return ssp_track_res[track] == SSP_FOOD ? 3 : -1;
	case BN_WATER: return ssp_track_res[track] == SSP_WATER ? 3 : -1;
	case BN_METAL: return ssp_track_res[track] == SSP_METAL ? 3 : -1;
	}
	return -1;
}

/* What seat q may take on the track: highest single space and whether two different bonuses. */
static void bonus_rights(const struct ssp_state *st, int q, int track, int *maxsingle, int *two)
{
	int l = st->pl[q].dip[track], sole = 1;

	for (int o = 0; o < st->nplayers; o++)
		if (o != q && st->pl[o].dip[track] >= l)
			sole = 0;
	if (l == 0) {
		*maxsingle = -1;
		*two = 0;
		return;
	}
	*maxsingle = sole ? (l < 3 ? l : 3) : (l - 1 < 3 ? l - 1 : 3);
	*two = sole ? l >= 4 : l == 5;
}

static int bonus_ok(const struct ssp_state *st, int q, int a, int b, struct err *err)
{
	int track = st->dip_track, ms, two, la = bonus_level(a, track), lb = b >= 0 ? bonus_level(b, track) : 0;

	bonus_rights(st, q, track, &ms, &two);
	if (la < 0 || lb < 0)
		return err_set(err, ERR_ILLEGAL, "the %s track's level-3 bonus is %s, not that resource",
			       track_name[track], res_name[ssp_track_res[track]]);
	if (b < 0) {
		if (la > ms)
			return err_set(err, ERR_ILLEGAL,
				       "Diplomacy bonus: on level %d of the %s track%s you may take a bonus of level %d or lower, not %d",
				       st->pl[q].dip[track], track_name[track], ms == st->pl[q].dip[track] ? " as sole leader" : "",
				       ms, la);
		return 0;
	}
	if (!two)
		return err_set(err, ERR_ILLEGAL,
			       "Diplomacy bonus: two bonuses need level 4 as sole leader or level 5 (you are on level %d of %s)",
			       st->pl[q].dip[track], track_name[track]);
	if (a == b)
		return err_set(err, ERR_ILLEGAL, "Diplomacy bonus: the two bonuses must be different");
	return 0;
}

static void bonus_give(struct ssp_state *st, int q, int b)
{
	switch (b) {
	case BN_GEM: st->pl[q].res[SSP_GEM] += 1; break;
	case BN_2GEMS: st->pl[q].res[SSP_GEM] += 2; break;
	case BN_POINT: st->pl[q].points += 1; break;
	case BN_FOOD: st->pl[q].res[SSP_FOOD] += 1; break;
	case BN_WATER: st->pl[q].res[SSP_WATER] += 1; break;
	case BN_METAL: st->pl[q].res[SSP_METAL] += 1; break;
	}
}

/* Options of seat q: count of legal bonus choices, and the only one when there is one. */
static int bonus_options(const struct ssp_state *st, int q, int *only_a, int *only_b)
{
	int n = 0;

	for (int a = 0; a < 6; a++) {
		if (bonus_ok(st, q, a, -1, NULL) == 0) {
			n++;
			*only_a = a;
			*only_b = -1;
		}
		for (int b = a + 1; b < 6; b++)
			if (bonus_ok(st, q, a, b, NULL) == 0) {
				n++;
				*only_a = a;
				*only_b = b;
			}
	}
	return n;
}

/* Apply q's standing choice if it fits; 1 when applied. */
static int bonus_standing(struct ssp_state *st, int q)
{
	const struct ssp_player *pl = &st->pl[q];
	int ms, two, pick[2], np = 0;

	if (!pl->nstand)
		return 0;
	bonus_rights(st, q, st->dip_track, &ms, &two);
	for (int i = 0; i < pl->nstand && np < (two ? 2 : 1); i++) {
		int b = pl->stand[i], l = bonus_level(b, st->dip_track);
		if (l < 0 || l > (two ? 3 : ms))
			continue;
		pick[np++] = b;
	}
	if (np < (two ? 2 : 1))
		return 0;
	if (np == 2) {
		int a = pick[0] < pick[1] ? pick[0] : pick[1], b = pick[0] < pick[1] ? pick[1] : pick[0];
		if (bonus_ok(st, q, a, b, NULL))
			return 0;
		bonus_give(st, q, a);
		bonus_give(st, q, b);
	} else {
		if (bonus_ok(st, q, pick[0], -1, NULL))
			return 0;
		bonus_give(st, q, pick[0]);
	}
	return 1;
}

static void start_diplomacy(struct ssp_state *st, int track)
{
	st->dip_track = track;
	st->dip_mask = 0;
	for (int q = 0; q < st->nplayers; q++) {
		int a = -1, b = -1, n;
		if (st->pl[q].dip[track] == 0)
			continue;
		n = bonus_options(st, q, &a, &b);
		if (n == 1) {
			bonus_give(st, q, a);
			if (b >= 0)
				bonus_give(st, q, b);
		} else if (n > 1 && !bonus_standing(st, q)) {
			st->dip_mask |= 1u << q;
		}
	}
	if (st->dip_mask)
		st->phase = PH_DIPLO;
}

/* ------------------------------------------------------------------ turn flow */

static int end_condition(const struct ssp_state *st, int p)
{
	int al = st->aliens[0] + st->aliens[1] + st->aliens[2] + st->aliens[3];
	return st->pl[p].points >= 40 || ssp_rules_nsectors(st, p) >= 9 || al <= 4;
}

static void end_turn(struct ssp_state *st)
{
	int p = st->active;

	memset(st->sec_fresh, 0, sizeof(st->sec_fresh));
	st->pl[p].conv = 0;
	st->acting = 0;
	st->act_ship = -1;
	st->phase = PH_TURN;
	if (st->end_by < 0) {
		if (end_condition(st, p)) {
			st->end_by = p;
			st->final_left = st->nplayers - 1;
			st->extra_turns = 0;
		}
	} else {
		st->final_left--;
		st->extra_turns = 0;
		if (st->final_left <= 0) {
			st->phase = PH_OVER;
			return;
		}
	}
	if (st->extra_turns > 0 && st->end_by < 0) {
		st->extra_turns--;
	} else {
		st->extra_turns = 0;
		st->active = (p + 1) % st->nplayers;
	}
	st->turn++;
}

static int task_legal(const struct ssp_state *st, struct ssp_move *out, int max);

/* Resolve what needs no decision; stop at the next decision. */
static void run(struct ssp_state *st, struct rng *rng)
{
	for (int guard = 0; guard < 1000; guard++) {
		if (st->phase == PH_DIPLO) {
			if (st->dip_mask)
				return;
			end_turn(st);
			continue;
		}
		if (st->phase != PH_TURN && st->phase != PH_SETUP)
			return;
		if (st->ntask > 0) {
			struct ssp_task *t = &st->task[0];
			struct ssp_move opts[2];
			int n;

			if (t->kind == TK_AFTER) {
				int type = t->a;
				pop_front(st);
				after_ship(st, st->active, type);
				continue;
			}
			if (t->kind == TK_DICE && t->c > 0) {
				memset(st->dice, 0, sizeof(st->dice));
				roll(st, t->c, rng);
				t->c = 0;
			}
			if (t->kind == TK_RETURN || t->kind == TK_A11) {
				n = task_legal(st, opts, 2);
				if (n == 0) {
					if (t->kind == TK_RETURN) {
						st->pl[st->active].points -= 5;
					} else {
						int *h = st->pl[st->active].hubq;
						for (int q = 0; q < 5; q++)
							if (h[q]) {
								if (h[q] == SSP_HUMAN)
									st->humans++;
								else
									st->aliens[h[q] - 1]++;
								h[q] = 0;
								break;
							}
					}
					pop_front(st);
					continue;
				}
			} else {
				n = task_legal(st, opts, 2);
			}
			if (n == 0) {
				pop_front(st);
				continue;
			}
			if (n == 1) {
				if (step(st, st->active, &opts[0], NULL) < 0)
					pop_front(st); /* cannot happen: the option was just checked */
				continue;
			}
			return;
		}
		if (st->phase == PH_SETUP) {
			st->draft_pos++;
			if (st->draft_pos < st->nplayers) {
				st->active = st->draft_pos;
				hub_setup(st, st->active, rng);
				continue;
			}
			for (int p = 1; p < st->nplayers; p++)
				st->pl[p].res[SSP_GEM] += p;
			for (int s = 0; s < SSP_NSHIPS; s++)
				if (st->ship_loc[s] == SL_DECK)
					st->ship_loc[s] = SL_BOX;
			st->phase = PH_TURN;
			st->active = 0;
			st->turn = 1;
			st->acting = 0;
			return;
		}
		if (!st->acting)
			return;
		/* Hub A-1: the conversion may also come after the main action */
		if (has_hub(st, st->active, HA(1)) && !st->pl[st->active].conv && !(st->act_once & ONCE_A1) &&
		    st->pl[st->active].res[SSP_METAL] > 0) {
			st->act_once |= ONCE_A1;
			push_back(st, TK_CONVERT, 0, 0, 0, 0);
			return;
		}
		st->acting = 0;
		if (st->act_ship >= 0 && ssp_ships[st->act_ship].type <= SSP_EXPEDITION) {
			start_diplomacy(st, ssp_ships[st->act_ship].type);
			if (st->phase == PH_DIPLO)
				return;
		}
		end_turn(st);
		return;
	}
}

/* ------------------------------------------------------------------ steps */

static int need_res(const struct ssp_state *st, int p, int r, int n, const char *what, struct err *err)
{
	if (st->pl[p].res[r] < n)
		return err_set(err, ERR_ILLEGAL, "%s needs %d %s; you have %d", what, n, res_name[r], st->pl[p].res[r]);
	return 0;
}

static int check_target(const struct ssp_state *st, int p, int kind, int target, struct err *err)
{
	if (can_place(st, p, kind, target))
		return 0;
	if (target == SSP_HUBQ)
		return err_set(err, ERR_ILLEGAL, "placement: your Station Hub has no free quarters for a %s", kind_name[kind]);
	if (target < 0 || target >= SSP_NSECTORS || st->sec_loc[target] != p)
		return err_set(err, ERR_ILLEGAL, "placement: Sector %d is not on your station",
			       target >= 0 && target < SSP_NSECTORS ? ssp_sectors[target].id : target);
	if (occupied(st, target) >= ssp_sectors[target].nq)
		return err_set(err, ERR_ILLEGAL, "placement: Sector %d is full (%d quarters)", ssp_sectors[target].id,
			       ssp_sectors[target].nq);
	return err_set(err, ERR_ILLEGAL, "placement: a %s cannot live in %s Sector %d (aerobic Aliens need their own colour)",
		       kind_name[kind], (const char *[]){ "teal", "brown", "pink" }[ssp_sectors[target].colour],
		       ssp_sectors[target].id);
}

static int step_transport(struct ssp_state *st, int p, struct ssp_task *t, const struct ssp_move *m, struct err *err)
{
	int *r = st->pl[p].res, rc, main_tx = t->c;

	switch (m->kind) {
	case MV_ALIEN: {
		int k = m->a;
		if (k < SSP_TEAL || k > SSP_GOLD)
			return err_set(err, ERR_ILLEGAL, "transport: only Aliens come by transaction");
		if (st->aliens[k - 1] <= 0)
			return err_set(err, ERR_ILLEGAL, "transport: no %s left in the supply", kind_name[k]);
		if ((rc = need_res(st, p, SSP_FOOD, 1, "an Alien", err)) < 0 ||
		    (rc = need_res(st, p, SSP_WATER, 1, "an Alien", err)) < 0)
			return rc;
		if (k == SSP_GOLD && (rc = need_res(st, p, SSP_GEM, 1, "a gold Alien", err)) < 0)
			return rc;
		if ((rc = check_target(st, p, k, m->b, err)) < 0)
			return rc;
		r[SSP_FOOD]--;
		r[SSP_WATER]--;
		if (k == SSP_GOLD)
			r[SSP_GEM]--;
		if (main_tx)
			st->act_gained[k - 1]++;
		place(st, p, k, m->b, 1); /* an Alien: queues nothing, t stays valid */
		break;
	}
	case MV_TRADE:
		if (m->a < 0 || m->a > 2 || m->b < 0 || m->b > 2 || m->c < 0 || m->c > 2)
			return err_set(err, ERR_ILLEGAL, "trade: resources are food, water and metal");
		/* trading for one of the resources given only loses the other: never a choice worth offering */
		if (m->c == m->a || m->c == m->b)
			return err_set(err, ERR_ILLEGAL, "trade: %s and %s for %s gives back what it takes; trade for a resource "
				       "you do not give", res_name[m->a], res_name[m->b], res_name[m->c]);
		if (m->a == m->b ? r[m->a] < 2 : (r[m->a] < 1 || r[m->b] < 1))
			return err_set(err, ERR_ILLEGAL, "trade: you need %s and %s to pay (you have %d food, %d water, %d metal)",
				       res_name[m->a], res_name[m->b], r[0], r[1], r[2]);
		r[m->a]--;
		r[m->b]--;
		r[m->c]++;
		break;
	case MV_BUY:
		if (m->a < 0 || m->a > 2)
			return err_set(err, ERR_ILLEGAL, "buy: resources are food, water and metal");
		if ((rc = need_res(st, p, SSP_GEM, 3, "buying a resource", err)) < 0)
			return rc;
		r[SSP_GEM] -= 3;
		r[m->a]++;
		break;
	case MV_DONE:
		if (t->b)
			return err_set(err, ERR_ILLEGAL, "Transport: a Transport ship needs at least one transaction");
		pop_front(st);
		goto finish;
	default:
		return err_set(err, ERR_ILLEGAL, "now: a transport transaction (alien, trade, buy) or done");
	}
	t->b = 0;
	if (--t->a > 0)
		return 0;
	pop_front(st);
finish:
	if (main_tx && on(st, p, 207)) {
		/* 207 after the ship's own transactions (only that task counts Aliens) */
		for (int k = 0; k < 4; k++)
			if (st->act_gained[k] >= 3 && st->aliens[k] > 0) {
				st->act_gained[k] = 0;
				push_front(st, TK_PLACE, k + 1, 0, 0, 0);
			}
	}
	return 0;
}

static int step_dice(struct ssp_state *st, int p, struct ssp_task *t, const struct ssp_move *m, struct rng *rng_unused,
		     struct err *err)
{
	(void)rng_unused;
	if (m->kind == MV_REROLL) {
		int tot = 0;
		if (t->b <= 0)
			return err_set(err, ERR_ILLEGAL, "Expedition: no reroll left (Hub B-4 and Sector 315 give one each)");
		for (int f = 0; f < 4; f++) {
			if (m->v[f] < 0 || m->v[f] > st->dice[f])
				return err_set(err, ERR_ILLEGAL, "reroll: you have %d %s dice, not %d", st->dice[f],
					       f == 3 ? "Human" : res_name[f], m->v[f]);
			tot += m->v[f];
		}
		if (!tot)
			return err_set(err, ERR_ILLEGAL, "reroll: name at least one die");
		/* the dice are rolled by apply (it has the rng); remember how many */
		for (int f = 0; f < 4; f++)
			st->dice[f] -= m->v[f];
		t->b--;
		t->c = -tot; /* negative: a reroll of tot dice, added to the kept ones */
		return 0;
	}
	if (m->kind == MV_KEEP) {
		int tot = 0, *r = st->pl[p].res;
		for (int i = 0; i < 5; i++) {
			if (m->v[i] < 0)
				return err_set(err, ERR_INPUT, "keep: negative count");
			tot += m->v[i];
		}
		if (tot > t->a)
			return err_set(err, ERR_ILLEGAL, "Expedition: capacity is %d dice; you chose %d", t->a, tot);
		for (int f = 0; f < 3; f++)
			if (m->v[f] > st->dice[f])
				return err_set(err, ERR_ILLEGAL, "Expedition: %d %s dice rolled, you chose %d", st->dice[f],
					       res_name[f], m->v[f]);
		if (m->v[3] + m->v[4] > st->dice[3])
			return err_set(err, ERR_ILLEGAL, "Expedition: %d Human dice rolled, you chose %d", st->dice[3],
				       m->v[3] + m->v[4]);
		if (m->v[3] > st->humans)
			return err_set(err, ERR_ILLEGAL, "Expedition: only %d Humans left on Terra", st->humans);
		if (m->v[3] > human_room(st, p))
			return err_set(err, ERR_ILLEGAL, "Expedition: %d Human allies but only %d free quarters",
				       m->v[3], human_room(st, p));
		for (int f = 0; f < 3; f++)
			r[f] += m->v[f];
		for (int i = 0; i < m->v[3]; i++) {
			int rc = pay_human(st, p, err);
			if (rc < 0)
				return rc;
		}
		st->pl[p].points += m->v[4];
		pop_front(st);
		memset(st->dice, 0, sizeof(st->dice));
		for (int i = 0; i < m->v[3]; i++)
			push_front(st, TK_PLACE, SSP_HUMAN, 0, 0, 0);
		return 0;
	}
	return err_set(err, ERR_ILLEGAL, "now: keep the Expedition dice (keep ...)%s", t->b > 0 ? " or reroll some" : "");
}

static int step_diplo(struct ssp_state *st, int p, struct ssp_task *t, const struct ssp_move *m, struct err *err)
{
	int cost = t->d, tr[2] = { m->a, m->b }, n = m->b >= 0 ? 2 : 1;

	if (m->kind == MV_SKIP) {
		if (!t->c)
			return err_set(err, ERR_ILLEGAL, "this Diplomacy advance is not optional");
		pop_front(st);
		return 0;
	}
	if (m->kind != MV_ADVANCE)
		return err_set(err, ERR_ILLEGAL, "now: advance on a Diplomacy track%s", t->c ? " (or skip)" : "");
	if (n > t->a)
		return err_set(err, ERR_ILLEGAL, "Diplomacy: this action advances on 1 track only");
	if (n == 2 && tr[0] == tr[1])
		return err_set(err, ERR_ILLEGAL, "Diplomacy: a Level-3 ship advances on 2 different tracks");
	for (int i = 0; i < n; i++) {
		if (tr[i] < 0 || tr[i] > 3)
			return err_set(err, ERR_INPUT, "no such track");
		if (st->pl[p].dip[tr[i]] >= 5)
			return err_set(err, ERR_ILLEGAL, "Diplomacy: you are at the top of the %s track", track_name[tr[i]]);
		if (!t->b)
			cost += ssp_lobby_cost[st->pl[p].dip[tr[i]] + 1];
	}
	if (st->pl[p].res[SSP_GEM] < cost)
		return err_set(err, ERR_ILLEGAL, "Diplomacy: lobbying costs %d GEMs; you have %d", cost, st->pl[p].res[SSP_GEM]);
	st->pl[p].res[SSP_GEM] -= cost;
	for (int i = 0; i < n; i++)
		st->pl[p].dip[tr[i]]++;
	pop_front(st);
	return 0;
}

static int top_of_wing(const struct ssp_state *st, int p, int idx)
{
	if (st->sec_loc[idx] != p)
		return 0;
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (st->sec_loc[i] == p && ssp_sectors[i].colour == ssp_sectors[idx].colour &&
		    ssp_sectors[i].level > ssp_sectors[idx].level && !has_hub(st, p, HA(9)))
			return 0;
	return 1;
}

static int step_task(struct ssp_state *st, int p, const struct ssp_move *m, struct err *err)
{
	struct ssp_task *t = &st->task[0];
	int *r = st->pl[p].res, rc;

	switch (t->kind) {
	case TK_DISMANTLE: {
		int s = m->a;
		if (m->kind != MV_DISMANTLE)
			return err_set(err, ERR_ILLEGAL, "now: dismantle one of your unused ships");
		if (s < 0 || s >= SSP_NSHIPS || st->ship_loc[s] != p)
			return err_set(err, ERR_ILLEGAL, "Dismantle: you may only dismantle a ship of your own fleet");
		if (st->ship_used[s])
			return err_set(err, ERR_ILLEGAL, "Dismantle: %s is used (GEMs on it); only unused ships", ssp_ships[s].id);
		st->ship_loc[s] = SL_GONE;
		r[SSP_METAL] += ssp_ships[s].metal + t->a;
		pop_front(st);
		return 0;
	}
	case TK_BUILD: {
		int idx = m->a, cost;
		if (m->kind != MV_BUILD)
			return err_set(err, ERR_ILLEGAL, "now: build a Sector");
		if (idx < 0 || idx >= SSP_NSECTORS)
			return err_set(err, ERR_INPUT, "no such Sector");
		if (st->sec_loc[idx] != SEC_DISPLAY && st->sec_loc[idx] != SEC_PRIVATE + p)
			return err_set(err, ERR_ILLEGAL, "Construction: Sector %d is not in the supply", ssp_sectors[idx].id);
		if (!can_build_where(st, p, idx, t->b)) {
			if (t->b)
				return err_set(err, ERR_ILLEGAL, "Sector 326: the free Sector is a Level-1 of a colour you lack");
			return err_set(err, ERR_ILLEGAL,
				       "Construction: a wing has one Sector per level, built from Level 1 up; Sector %d does not fit",
				       ssp_sectors[idx].id);
		}
		cost = t->b ? 0 : build_cost(idx, t->a);
		if (r[SSP_METAL] < cost)
			return err_set(err, ERR_ILLEGAL, "Construction: Sector %d costs %d metal (%d less %d); you have %d",
				       ssp_sectors[idx].id, cost, ssp_sectors[idx].cost, t->a, r[SSP_METAL]);
		r[SSP_METAL] -= cost;
		{
			int by_ship = t->c;
			pop_front(st);
			build(st, p, idx, by_ship);
		}
		return 0;
	}
	case TK_TRANSPORT:
		return step_transport(st, p, t, m, err);
	case TK_DICE:
		return step_dice(st, p, t, m, NULL, err);
	case TK_DIPLO:
		return step_diplo(st, p, t, m, err);
	case TK_CONVERT:
		if (m->kind == MV_DONE) {
			pop_front(st);
			return 0;
		}
		if (m->kind != MV_CONVERT)
			return err_set(err, ERR_ILLEGAL, "now: Hub A-1 may convert 1 metal (convert metal food / water) or done");
		if ((rc = convert_metal(st, p, m->a, err)) < 0)
			return rc;
		pop_front(st);
		return 0;
	case TK_PLACE:
	case TK_A11: {
		int k = m->a;
		if (m->kind != MV_PLACE)
			return err_set(err, ERR_ILLEGAL, "now: place your new resident (place <kind> <sector>)");
		if (t->kind == TK_A11) {
			if (k < 1 || k > 5 || st->pl[p].hubq[k - 1] != k)
				return err_set(err, ERR_ILLEGAL, "Hub A-11: there is no %s on your hub", kind_name[k < 1 || k > 5 ? 0 : k]);
			if (m->b == SSP_HUBQ || (rc = check_target(st, p, k, m->b, err)) < 0)
				return m->b == SSP_HUBQ ? err_set(err, ERR_ILLEGAL, "Hub A-11: move it to a Sector") : rc;
			st->pl[p].hubq[k - 1] = 0;
			pop_front(st);
			{
				int q = occupied(st, m->b);
				st->sec_res[m->b][q] = k;
				st->sec_fresh[m->b] |= 1 << q;
			}
			return 0;
		}
		if (t->a ? k != t->a : (k < SSP_TEAL || k > SSP_GOLD))
			return err_set(err, ERR_ILLEGAL, "now: place the %s you gained", t->a ? kind_name[t->a] : "Alien (any colour)");
		if (k == SSP_HUMAN ? st->humans <= 0 : st->aliens[k - 1] <= 0)
			return err_set(err, ERR_ILLEGAL, "no %s left in the supply", kind_name[k]);
		if ((rc = check_target(st, p, k, m->b, err)) < 0)
			return rc;
		pop_front(st);
		place(st, p, k, m->b, 1);
		return 0;
	}
	case TK_TAKE:
		if (m->kind != MV_TAKE || m->b >= 0)
			return err_set(err, ERR_ILLEGAL, "now: take one resource (take <resource>)");
		if (m->a < 0 || m->a > 2 || !(t->a & (1 << m->a)))
			return err_set(err, ERR_ILLEGAL, "this bonus gives %s", t->a == 3 ? "food or water" : "food, water or metal");
		r[m->a]++;
		pop_front(st);
		return 0;
	case TK_ACCEPT: {
		int id = t->a;
		if (m->kind == MV_SKIP) {
			pop_front(st);
			return 0;
		}
		if (m->kind != MV_ACCEPT)
			return err_set(err, ERR_ILLEGAL, "now: accept or skip the offer of Sector %d", id);
		if (id == 118) {
			if ((rc = need_res(st, p, SSP_GEM, 2, "Sector 118's metal", err)) < 0)
				return rc;
			r[SSP_GEM] -= 2;
			r[SSP_METAL]++;
		} else if (id == 208) {
			if ((rc = need_res(st, p, SSP_GEM, 3, "Sector 208's extra turn", err)) < 0)
				return rc;
			r[SSP_GEM] -= 3;
			st->extra_turns++;
		} else {
			int price = id == 222 ? 6 : 4;
			if ((rc = need_res(st, p, SSP_GEM, price, id == 222 ? "Sector 222's Human" : "Sector 322's Human", err)) < 0)
				return rc;
			if (st->humans <= 0 || !any_room(st, p, SSP_HUMAN))
				return err_set(err, ERR_ILLEGAL, "no Human left or no free quarters");
			r[SSP_GEM] -= price;
			pop_front(st);
			push_front(st, TK_PLACE, SSP_HUMAN, 0, 0, 0);
			return 0;
		}
		pop_front(st);
		return 0;
	}
	case TK_BUY2:
		if (m->kind == MV_SKIP) {
			pop_front(st);
			return 0;
		}
		if (m->kind != MV_TAKE || m->b < 0)
			return err_set(err, ERR_ILLEGAL, "now: Sector 228: take two resources for 4 GEMs (take <r> <r>) or skip");
		if (m->a < 0 || m->a > 2 || m->b > 2)
			return err_set(err, ERR_INPUT, "resources are food, water and metal");
		if ((rc = need_res(st, p, SSP_GEM, 4, "Sector 228", err)) < 0)
			return rc;
		r[SSP_GEM] -= 4;
		r[m->a]++;
		r[m->b]++;
		pop_front(st);
		return 0;
	case TK_EXCHANGE:
		if (m->kind == MV_SKIP) {
			pop_front(st);
			return 0;
		}
		if (m->kind != MV_EXCHANGE)
			return err_set(err, ERR_ILLEGAL, "now: Sector 128: exchange <resource> for <resource>, or skip");
		if (m->a < 0 || m->a > 2 || m->b < 0 || m->b > 2 || m->a == m->b)
			return err_set(err, ERR_ILLEGAL, "exchange: two different resources");
		if ((rc = need_res(st, p, m->a, 1, "the exchange", err)) < 0)
			return rc;
		r[m->a]--;
		r[m->b]++;
		pop_front(st);
		return 0;
	case TK_HUMAN2: {
		int need = 2 - human_discount(st, p), paid = (m->a >= 0) + (m->b >= 0);
		if (need < 0)
			need = 0;
		if (m->kind == MV_SKIP) {
			pop_front(st);
			return 0;
		}
		if (m->kind != MV_PAY)
			return err_set(err, ERR_ILLEGAL, "now: Sector 307: pay %d resources for a Human, or skip", need);
		if (paid != need)
			return err_set(err, ERR_ILLEGAL, "Sector 307: a Human costs %d resources here, you named %d", need, paid);
		if (st->humans <= 0 || !any_room(st, p, SSP_HUMAN))
			return err_set(err, ERR_ILLEGAL, "Sector 307: no Human left or no free quarters");
		if (m->a >= 0 && m->a == m->b ? r[m->a] < 2 : ((m->a >= 0 && r[m->a] < 1) || (m->b >= 0 && r[m->b] < 1)))
			return err_set(err, ERR_ILLEGAL, "Sector 307: you lack the resources named");
		if (m->a >= 0)
			r[m->a]--;
		if (m->b >= 0)
			r[m->b]--;
		pop_front(st);
		push_front(st, TK_PLACE, SSP_HUMAN, 0, 0, 0);
		return 0;
	}
	case TK_RELOCATE: {
		int k = m->a;
		if (m->kind == MV_DONE) {
			pop_front(st);
			return 0;
		}
		if (m->kind != MV_MOVE)
			return err_set(err, ERR_ILLEGAL, "now: relocate residents (move <kind> <from> <to>, 1 GEM each) or done");
		if ((rc = need_res(st, p, SSP_GEM, 1, "relocating a resident", err)) < 0)
			return rc;
		if (k < 1 || k > 5 || !has_resident(st, p, k, m->b))
			return err_set(err, ERR_ILLEGAL, "relocate: there is no %s there", kind_name[k < 1 || k > 5 ? 0 : k]);
		if (m->b == m->c)
			return err_set(err, ERR_ILLEGAL, "relocate: to another Sector");
		if (unplace(st, p, k, m->b) < 0)
			return err_set(err, ERR_ILLEGAL, "relocate: there is no %s there", kind_name[k]);
		if (k == SSP_HUMAN)
			st->humans++;
		else
			st->aliens[k - 1]++;
		if ((rc = check_target(st, p, k, m->c, err)) < 0)
			return rc;
		r[SSP_GEM]--;
		if (k == SSP_HUMAN)
			st->humans--;
		else
			st->aliens[k - 1]--;
		if (m->c == SSP_HUBQ) {
			for (int q = 0; q < 3; q++)
				if (!st->pl[p].hubq[q]) {
					st->pl[p].hubq[q] = k;
					break;
				}
		} else {
			int q = occupied(st, m->c);
			st->sec_res[m->c][q] = k;
			st->sec_fresh[m->c] |= 1 << q;
		}
		return 0;
	}
	case TK_RETURN:
		if (m->kind != MV_RETURN)
			return err_set(err, ERR_ILLEGAL, "now: Hub A-12: return an Alien, a Human or a Sector");
		if (m->a == 0) {
			int idx = m->b;
			if (idx < 0 || idx >= SSP_NSECTORS || !top_of_wing(st, p, idx))
				return err_set(err, ERR_ILLEGAL, "Hub A-12: return the top Sector of one of your wings");
			for (int q = 0; q < ssp_sectors[idx].nq; q++) {
				int k = st->sec_res[idx][q];
				if (k == SSP_HUMAN)
					st->humans++;
				else if (k)
					st->aliens[k - 1]++;
				st->sec_res[idx][q] = 0;
			}
			st->sec_fresh[idx] = 0;
			st->sec_loc[idx] = SEC_DISPLAY;
		} else {
			if (m->a < 1 || m->a > 5 || unplace(st, p, m->a, m->b) < 0)
				return err_set(err, ERR_ILLEGAL, "Hub A-12: there is no %s there", kind_name[m->a < 1 || m->a > 5 ? 0 : m->a]);
			if (m->a == SSP_HUMAN)
				st->humans++;
			else
				st->aliens[m->a - 1]++;
		}
		pop_front(st);
		return 0;
	case TK_DISCARD: {
		int s = m->a;
		if (m->kind != MV_DISCARD)
			return err_set(err, ERR_ILLEGAL, "now: discard a ship");
		if (s < 0 || s >= SSP_NSHIPS)
			return err_set(err, ERR_INPUT, "no such ship");
		if (t->a == 0 && st->ship_loc[s] != SL_DRAWN + p)
			return err_set(err, ERR_ILLEGAL, "discard one of the Level-2 ships you drew");
		if (t->a == 1 && (st->ship_loc[s] != p || ssp_ships[s].level != 2))
			return err_set(err, ERR_ILLEGAL, "discard one of your Level-2 ships");
		st->ship_loc[s] = SL_GONE;
		if (t->a == 0)
			for (int o = 0; o < SSP_NSHIPS; o++)
				if (st->ship_loc[o] == SL_DRAWN + p)
					st->ship_loc[o] = p;
		pop_front(st);
		return 0;
	}
	default:
		return err_set(err, ERR_INTERNAL, "unknown task %d", t->kind);
	}
}

/*
 * Hub B-6's "at any time": at every point of the owner's own turn and
 * whenever the owner is asked for a decision (a Diplomacy bonus).
 */
static int may_sell(const struct ssp_state *st, int p)
{
	if (!has_hub(st, p, HB(6)))
		return 0;
	if (st->phase == PH_TURN || st->phase == PH_SETUP)
		return p == st->active;
	return st->phase == PH_DIPLO && (st->dip_mask & (1u << p));
}

static int convert_metal(struct ssp_state *st, int p, int to, struct err *err)
{
	int rc;

	if (st->pl[p].conv)
		return err_set(err, ERR_ILLEGAL, "Hub A-1: one conversion per turn");
	if (to != SSP_FOOD && to != SSP_WATER)
		return err_set(err, ERR_ILLEGAL, "Hub A-1: metal converts to food or water");
	if ((rc = need_res(st, p, SSP_METAL, 1, "Hub A-1's conversion", err)) < 0)
		return rc;
	st->pl[p].res[SSP_METAL]--;
	st->pl[p].res[to]++;
	st->pl[p].conv = 1;
	return 0;
}

/* One step, validated; no automatic resolution afterwards (see run). */
static int step(struct ssp_state *st, int p, const struct ssp_move *m, struct err *err)
{
	int *r = st->pl[p].res, rc;

	if (m->kind == MV_SELL) {
		if (!may_sell(st, p))
			return err_set(err, ERR_ILLEGAL,
				       "only the owner of Hub B-6 sells points, on their own turn or when asked for a decision");
		if (st->pl[p].points < 1)
			return err_set(err, ERR_ILLEGAL, "Hub B-6: you have no point to sell");
		st->pl[p].points--;
		r[SSP_GEM] += 4;
		return 0;
	}
	/* before the main action here; after it through the TK_CONVERT decision (step_task) */
	if (m->kind == MV_CONVERT && !(st->ntask && st->task[0].kind == TK_CONVERT)) {
		if (st->phase != PH_TURN || p != st->active || !has_hub(st, p, HA(1)) || st->ntask || st->acting)
			return err_set(err, ERR_ILLEGAL, "Hub A-1: convert metal before or after your action, on your own turn");
		return convert_metal(st, p, m->a, err);
	}
	switch (st->phase) {
	case PH_DRAFT3:
	case PH_DRAFT2:
		if (m->kind != MV_DRAFT)
			return err_set(err, ERR_ILLEGAL, "now: draft a Level-%d ship (draft <ship>)", st->phase == PH_DRAFT3 ? 3 : 2);
		if (m->a < 0 || m->a >= SSP_NSHIPS || st->ship_loc[m->a] != SL_DISPLAY)
			return err_set(err, ERR_ILLEGAL, "draft: that ship is not on display");
		st->ship_loc[m->a] = p;
		st->draft_pos++;
		if (st->draft_pos >= 2 * st->nplayers) {
			for (int s = SSP_SHIP_L2; s < SSP_SHIP_NEUTRAL; s++)
				if (st->ship_loc[s] == SL_DISPLAY)
					st->ship_loc[s] = SL_BOX;
			st->draft_pos = 0;
			if (st->phase == PH_DRAFT3) {
				st->phase = PH_DRAFT2;
			} else {
				st->phase = PH_HUB;
			}
		}
		return 0;
	case PH_HUB:
		if (m->kind != MV_HUB)
			return err_set(err, ERR_ILLEGAL, "now: keep one of your two Station Hubs (hub <id>)");
		if (m->a < 0 || (m->a != st->pl[p].dealt[0] && m->a != st->pl[p].dealt[1]))
			return err_set(err, ERR_ILLEGAL, "hub: you were dealt %s and %s", ssp_hubs[st->pl[p].dealt[0]].id,
				       ssp_hubs[st->pl[p].dealt[1]].id);
		st->pl[p].hub = m->a;
		st->pl[p].dealt[0] = st->pl[p].dealt[1] = -1;
		st->draft_pos++;
		return GAME_APPLY_REVEAL;
	case PH_DIPLO:
		if (m->kind != MV_BONUS)
			return err_set(err, ERR_ILLEGAL, "now: take your Diplomacy bonus (bonus <choice>)");
		if ((rc = bonus_ok(st, p, m->a, m->b, err)) < 0)
			return rc;
		bonus_give(st, p, m->a);
		if (m->b >= 0)
			bonus_give(st, p, m->b);
		st->dip_mask &= ~(1u << p);
		return 0;
	case PH_TURN:
	case PH_SETUP:
		if (st->ntask > 0)
			return step_task(st, p, m, err);
		if (st->phase == PH_SETUP)
			return err_set(err, ERR_INTERNAL, "set-up without a decision");
		if (m->kind == MV_USE)
			return use_ship(st, p, m->a, err);
		if (m->kind == MV_INCOME) {
			int stuck = !any_ship_usable(st, p);
			if (!stuck && !income_eligible(st, p))
				return err_set(err, ERR_ILLEGAL,
					       "Income: you have %d GEMs (more than 7), no used ship and a ship you can use",
					       r[SSP_GEM]);
			if (m->a >= 0) {
				if (!has_hub(st, p, HA(8)))
					return err_set(err, ERR_ILLEGAL, "only Hub A-8 gains a Human before Income");
				if (st->humans <= 0)
					return err_set(err, ERR_ILLEGAL, "Hub A-8: no Human left on Terra");
				if ((rc = check_target(st, p, SSP_HUMAN, m->a, err)) < 0)
					return rc;
				if ((rc = pay_human(st, p, err)) < 0)
					return rc;
				place(st, p, SSP_HUMAN, m->a, 0);
			}
			st->acting = 1;
			st->act_ship = -1;
			st->act_once = 0;
			do_income(st, p, NULL);
			return 0;
		}
		return err_set(err, ERR_ILLEGAL, "now: use a ship (use <ship>) or take income");
	default:
		return err_set(err, ERR_ILLEGAL, "the game is over");
	}
}

/* ------------------------------------------------------------------ pending */

static const char *task_word(int kind)
{
	switch (kind) {
	case TK_DISMANTLE: return "dismantle";
	case TK_BUILD: return "build";
	case TK_TRANSPORT: return "transport";
	case TK_DICE: return "expedition";
	case TK_DIPLO: return "advance";
	case TK_PLACE: return "place";
	case TK_TAKE: return "take";
	case TK_ACCEPT: return "offer";
	case TK_BUY2: return "sector-228";
	case TK_EXCHANGE: return "sector-128";
	case TK_HUMAN2: return "sector-307";
	case TK_RELOCATE: return "relocate";
	case TK_RETURN: return "return";
	case TK_DISCARD: return "discard";
	case TK_A11: return "hub-a11";
	case TK_CONVERT: return "hub-a1";
	}
	return "turn";
}

unsigned ssp_rules_pending(const struct ssp_state *st, char *kind, size_t ksz, char *prompt, size_t psz)
{
	int p = st->active;

	switch (st->phase) {
	case PH_DRAFT3:
	case PH_DRAFT2:
		snprintf(kind, ksz, "draft");
		snprintf(prompt, psz, "@%d: draft a Level-%d ship", p, st->phase == PH_DRAFT3 ? 3 : 2);
		return 1u << p;
	case PH_HUB:
		snprintf(kind, ksz, "hub");
		snprintf(prompt, psz, "@%d: keep one of your two Station Hubs", p);
		return 1u << p;
	case PH_DIPLO:
		snprintf(kind, ksz, "diplomacy");
		snprintf(prompt, psz, "Diplomacy bonuses on the %s track after @%d's action: choose yours",
			 track_name[st->dip_track], p);
		return (unsigned)st->dip_mask;
	case PH_SETUP:
	case PH_TURN:
		if (st->ntask > 0) {
			const struct ssp_task *t = &st->task[0];
			snprintf(kind, ksz, "%s", task_word(t->kind));
			if (t->kind == TK_DICE)
				snprintf(prompt, psz, "@%d: keep up to %d dice (rolled %d food, %d water, %d metal, %d Human)%s",
					 p, t->a, st->dice[0], st->dice[1], st->dice[2], st->dice[3],
					 t->b > 0 ? ", or reroll" : "");
			else if (t->kind == TK_TRANSPORT)
				snprintf(prompt, psz, "@%d: up to %d transport transaction%s%s", p, t->a,
					 t->a == 1 ? "" : "s", t->b ? "" : " (or done)");
			else
				snprintf(prompt, psz, "@%d: %s%s", p, st->phase == PH_SETUP ? "set-up: " : "",
					 task_word(t->kind));
			return 1u << p;
		}
		snprintf(kind, ksz, "turn");
		snprintf(prompt, psz, "@%d: use a ship or take income", p);
		return 1u << p;
	default:
		snprintf(kind, ksz, "over");
		snprintf(prompt, psz, "the game is over");
		return 0;
	}
}

unsigned ssp_rules_who(const struct ssp_state *st)
{
	switch (st->phase) {
	case PH_DRAFT3:
	case PH_DRAFT2:
	case PH_HUB:
	case PH_SETUP:
	case PH_TURN:
		return 1u << st->active;
	case PH_DIPLO:
		return (unsigned)st->dip_mask;
	default:
		return 0;
	}
}

int ssp_rules_over(const struct ssp_state *st)
{
	return st->phase == PH_OVER;
}

/* ------------------------------------------------------------------ candidates */

struct mlist {
	struct ssp_move *m;
	int n, max;
};

static void add(struct mlist *l, int kind, int a, int b, int c)
{
	struct ssp_move *m;

	if (l->n >= l->max)
		return;
	m = &l->m[l->n++];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->a = a;
	m->b = b;
	m->c = c;
}

static int targets(const struct ssp_state *st, int p, int *out)
{
	int n = 0;

	for (int i = 0; i < SSP_NSECTORS; i++)
		if (st->sec_loc[i] == p)
			out[n++] = i;
	if (has_hub(st, p, HB(11)) || has_hub(st, p, HA(11)))
		out[n++] = SSP_HUBQ;
	return n;
}

static void cand_task(const struct ssp_state *st, int p, struct mlist *l)
{
	const struct ssp_task *t = &st->task[0];
	int tg[12], nt = targets(st, p, tg);

	switch (t->kind) {
	case TK_DISMANTLE:
		for (int s = 0; s < SSP_NSHIPS; s++)
			if (st->ship_loc[s] == p && !st->ship_used[s] && ssp_rules_first_card(st, s) == s)
				add(l, MV_DISMANTLE, s, 0, 0);
		break;
	case TK_BUILD:
		for (int i = 0; i < SSP_NSECTORS; i++)
			if (st->sec_loc[i] == SEC_DISPLAY || st->sec_loc[i] == SEC_PRIVATE + p)
				add(l, MV_BUILD, i, 0, 0);
		break;
	case TK_TRANSPORT:
		for (int k = SSP_TEAL; k <= SSP_GOLD; k++)
			for (int i = 0; i < nt; i++)
				if (can_place(st, p, k, tg[i]))
					add(l, MV_ALIEN, k, tg[i], 0);
		for (int a = 0; a < 3; a++)
			for (int b = a; b < 3; b++)
				for (int c = 0; c < 3; c++)
					add(l, MV_TRADE, a, b, c);
		for (int a = 0; a < 3; a++)
			add(l, MV_BUY, a, 0, 0);
		add(l, MV_DONE, 0, 0, 0);
		break;
	case TK_DICE:
		if (t->b > 0)
			for (int f = 0; f <= st->dice[0]; f++)
				for (int w = 0; w <= st->dice[1]; w++)
					for (int me = 0; me <= st->dice[2]; me++)
						for (int h = 0; h <= st->dice[3]; h++) {
							if (!(f + w + me + h))
								continue;
							add(l, MV_REROLL, 0, 0, 0);
							l->m[l->n - 1].v[0] = f;
							l->m[l->n - 1].v[1] = w;
							l->m[l->n - 1].v[2] = me;
							l->m[l->n - 1].v[3] = h;
						}
		for (int f = 0; f <= st->dice[0]; f++)
			for (int w = 0; w <= st->dice[1]; w++)
				for (int me = 0; me <= st->dice[2]; me++)
					for (int al = 0; al <= st->dice[3]; al++)
						for (int ob = 0; al + ob <= st->dice[3]; ob++) {
							if (f + w + me + al + ob > t->a)
								continue;
							add(l, MV_KEEP, 0, 0, 0);
							l->m[l->n - 1].v[0] = f;
							l->m[l->n - 1].v[1] = w;
							l->m[l->n - 1].v[2] = me;
							l->m[l->n - 1].v[3] = al;
							l->m[l->n - 1].v[4] = ob;
						}
		break;
	case TK_DIPLO:
		for (int a = 0; a < 4; a++) {
			add(l, MV_ADVANCE, a, -1, 0);
			if (t->a == 2)
				for (int b = a + 1; b < 4; b++)
					add(l, MV_ADVANCE, a, b, 0);
		}
		if (t->c)
			add(l, MV_SKIP, 0, 0, 0);
		break;
	case TK_PLACE:
		for (int k = SSP_TEAL; k <= SSP_HUMAN; k++)
			for (int i = 0; i < nt; i++)
				if (can_place(st, p, k, tg[i]))
					add(l, MV_PLACE, k, tg[i], 0);
		break;
	case TK_CONVERT:
		add(l, MV_CONVERT, SSP_FOOD, 0, 0);
		add(l, MV_CONVERT, SSP_WATER, 0, 0);
		add(l, MV_DONE, 0, 0, 0);
		break;
	case TK_A11:
		for (int k = SSP_TEAL; k <= SSP_HUMAN; k++)
			if (st->pl[p].hubq[k - 1])
				for (int i = 0; i < nt; i++)
					if (tg[i] != SSP_HUBQ && can_place(st, p, k, tg[i]))
						add(l, MV_PLACE, k, tg[i], 0);
		break;
	case TK_TAKE:
		for (int a = 0; a < 3; a++)
			add(l, MV_TAKE, a, -1, 0);
		break;
	case TK_ACCEPT:
		add(l, MV_ACCEPT, 0, 0, 0);
		add(l, MV_SKIP, 0, 0, 0);
		break;
	case TK_BUY2:
		for (int a = 0; a < 3; a++)
			for (int b = a; b < 3; b++)
				add(l, MV_TAKE, a, b, 0);
		add(l, MV_SKIP, 0, 0, 0);
		break;
	case TK_EXCHANGE:
		for (int a = 0; a < 3; a++)
			for (int b = 0; b < 3; b++)
				if (a != b)
					add(l, MV_EXCHANGE, a, b, 0);
		add(l, MV_SKIP, 0, 0, 0);
		break;
	case TK_HUMAN2: {
		int need = 2 - human_discount(st, p);
		if (need <= 0)
			add(l, MV_PAY, -1, -1, 0);
		else if (need == 1)
			for (int a = 0; a < 3; a++)
				add(l, MV_PAY, a, -1, 0);
		else
			for (int a = 0; a < 3; a++)
				for (int b = a; b < 3; b++)
					add(l, MV_PAY, a, b, 0);
		add(l, MV_SKIP, 0, 0, 0);
		break;
	}
	case TK_RELOCATE:
		if (st->pl[p].res[SSP_GEM] >= 1)
			for (int k = SSP_TEAL; k <= SSP_HUMAN; k++)
				for (int i = 0; i < nt; i++)
					if (has_resident(st, p, k, tg[i]))
						for (int j = 0; j < nt; j++)
							if (j != i && can_place(st, p, k, tg[j]))
								add(l, MV_MOVE, k, tg[i], tg[j]);
		add(l, MV_DONE, 0, 0, 0);
		break;
	case TK_RETURN:
		for (int k = SSP_TEAL; k <= SSP_HUMAN; k++)
			for (int i = 0; i < nt; i++)
				if (has_resident(st, p, k, tg[i]))
					add(l, MV_RETURN, k, tg[i], 0);
		for (int i = 0; i < SSP_NSECTORS; i++)
			if (st->sec_loc[i] == p)
				add(l, MV_RETURN, 0, i, 0);
		break;
	case TK_DISCARD:
		for (int s = 0; s < SSP_NSHIPS; s++)
			if (((t->a == 0 && st->ship_loc[s] == SL_DRAWN + p) ||
			     (t->a == 1 && st->ship_loc[s] == p && ssp_ships[s].level == 2)) &&
			    ssp_rules_first_card(st, s) == s)
				add(l, MV_DISCARD, s, 0, 0);
		break;
	default:
		break;
	}
}

/* The ship actions in the order of the rulebook's "Ships and Their Actions" (pages 12-16). */
static const int kind_order[] = { SSP_DISMANTLE, SSP_CONSTRUCT, SSP_EXPEDITION, SSP_TRANSPORT,
				  SSP_FARM,      SSP_ICE,       SSP_DIPLOMACY };

static void cand(const struct ssp_state *st, int p, struct mlist *l, int extras)
{
	if (p < 0 || p >= st->nplayers)
		return;
	switch (st->phase) {
	case PH_DRAFT3:
	case PH_DRAFT2:
		if (p == st->active)
			for (int s = SSP_SHIP_L2; s < SSP_SHIP_NEUTRAL; s++)
				if (st->ship_loc[s] == SL_DISPLAY && ssp_rules_first_card(st, s) == s)
					add(l, MV_DRAFT, s, 0, 0);
		return;
	case PH_HUB:
		if (p == st->active)
			for (int i = 0; i < 2; i++)
				if (st->pl[p].dealt[i] >= 0)
					add(l, MV_HUB, st->pl[p].dealt[i], 0, 0);
		return;
	case PH_DIPLO:
		if (st->dip_mask & (1u << p))
			for (int a = 0; a < 6; a++) {
				add(l, MV_BONUS, a, -1, 0);
				for (int b = a + 1; b < 6; b++)
					add(l, MV_BONUS, a, b, 0);
			}
		if (extras && may_sell(st, p))
			add(l, MV_SELL, 0, 0, 0);
		return;
	case PH_TURN:
	case PH_SETUP:
		if (p != st->active)
			return;
		if (st->ntask > 0) {
			cand_task(st, p, l);
		} else if (st->phase == PH_TURN) {
			/* the rulebook's turn options in its order: a ship action (by kind), then Income */
			for (int k = 0; k < (int)(sizeof(kind_order) / sizeof(kind_order[0])); k++)
				for (int s = 0; s < SSP_NSHIPS; s++)
					if (ssp_ships[s].type == kind_order[k] &&
					    (st->ship_loc[s] == SL_NEUTRAL || (st->ship_loc[s] >= 0 && st->ship_loc[s] < SSP_MAXP)) &&
					    ssp_rules_first_card(st, s) == s)
						add(l, MV_USE, s, 0, 0);
			add(l, MV_INCOME, -1, 0, 0);
			if (has_hub(st, p, HA(8))) {
				int tg[12], nt = targets(st, p, tg);
				for (int i = 0; i < nt; i++)
					add(l, MV_INCOME, tg[i], 0, 0);
			}
			if (extras && has_hub(st, p, HA(1))) {
				add(l, MV_CONVERT, SSP_FOOD, 0, 0);
				add(l, MV_CONVERT, SSP_WATER, 0, 0);
			}
		}
		if (extras && may_sell(st, p))
			add(l, MV_SELL, 0, 0, 0);
		return;
	default:
		return;
	}
}

int ssp_rules_candidates(const struct ssp_state *st, int seat, struct ssp_move *out, int max)
{
	struct mlist l = { out, 0, max };

	cand(st, seat, &l, 1);
	return l.n;
}

static int filter(const struct ssp_state *st, int p, struct ssp_move *m, int n, int max)
{
	struct ssp_state *t = malloc(sizeof(*t));
	int k = 0;

	if (!t)
		return 0;
	/* no message wanted: err_set skips formatting for a NULL err, the bulk of the cost */
	/* stops at max: the engine often asks only "none, one or more?" (max 2) */
	for (int i = 0; i < n && k < max; i++) {
		*t = *st;
		if (step(t, p, &m[i], NULL) >= 0)
			m[k++] = m[i];
	}
	free(t);
	return k;
}

/* Legal moves of the active player's front task, without the any-time extras. */
static int task_legal(const struct ssp_state *st, struct ssp_move *out, int max)
{
	struct ssp_move buf[1024];
	struct mlist l = { buf, 0, 1024 };
	int n;

	cand_task(st, st->active, &l);
	n = filter(st, st->active, buf, l.n, max < 1024 ? max : 1024);
	memcpy(out, buf, (size_t)n * sizeof(*out));
	return n;
}

int ssp_rules_legal(const struct ssp_state *st, int seat, struct ssp_move *out, int max)
{
	struct mlist l = { out, 0, max };

	cand(st, seat, &l, 1);
	return filter(st, seat, out, l.n, max);
}

int ssp_rules_random_legal(const struct ssp_state *st, int seat, struct rng *rng, struct ssp_move *out)
{
	/* 1,024 candidates cover every position bots reached (at most about 400); a full list is redone larger */
	int max = 1024, rc = -1;
	struct ssp_move *m = malloc((size_t)max * sizeof(*m));
	struct ssp_state *t = malloc(sizeof(*t));
	struct mlist l = { m, 0, max };

	if (!m || !t)
		goto done;
	cand(st, seat, &l, 1);
	if (l.n >= max) {
		struct ssp_move *big = realloc(m, (size_t)max * 16 * sizeof(*m));
		if (!big)
			goto done;
		m = big;
		l = (struct mlist){ m, 0, max * 16 };
		cand(st, seat, &l, 1);
	}
	for (int i = 0; i < l.n; i++) {
		int j = i + (int)rng_below(rng, (uint32_t)(l.n - i));
		struct ssp_move x = m[j];
		m[j] = m[i];
		m[i] = x;
		*t = *st;
		if (step(t, seat, &x, NULL) >= 0) {
			*out = x;
			rc = 0;
			break;
		}
	}
done:
	free(m);
	free(t);
	return rc;
}

/* ------------------------------------------------------------------ apply */

/* Seat's only legal step is the Income action (the count of legal steps is 1). */
static int only_income(const struct ssp_state *st, int p)
{
	struct ssp_move *m = malloc(1024 * sizeof(*m));
	struct mlist l = { m, 0, 1024 };
	int n;

	if (!m)
		return 0;
	cand(st, p, &l, 1);
	n = filter(st, p, m, l.n, 2); /* a second legal step settles it */
	free(m);
	return n == 1;
}

/*
 * Food, water and metal above this count as this much when positions are
 * compared: no rule asks for more than 14 of one of them at once (a Level-3
 * Sector's metal), so a larger stock opens no step a smaller one does not.
 */
#define SAME_RES_CAP 30

/* The parts of a position that decide what can ever happen (see same_position). */
static void position_key(struct ssp_state *t)
{
	t->turn = 0;
	t->active = 0;
	t->stalled = 0;
	for (int p = 0; p < SSP_MAXP; p++) {
		for (int r = SSP_FOOD; r <= SSP_METAL; r++)
			if (t->pl[p].res[r] > SAME_RES_CAP)
				t->pl[p].res[r] = SAME_RES_CAP;
		/* only Hub A-11 reads the count of Income actions, for the first five */
		if (!has_hub(t, p, HA(11)) || t->pl[p].incomes > 5)
			t->pl[p].incomes = has_hub(t, p, HA(11)) ? 5 : 0;
	}
}

/*
 * a and b are the same position but for the turn counter, the seat on turn,
 * food, water and metal beyond SAME_RES_CAP, and the count of Income actions
 * where no rule reads it.
 */
static int same_position(const struct ssp_state *a, const struct ssp_state *b)
{
	struct ssp_state *ka = malloc(sizeof(*ka)), *kb = malloc(sizeof(*kb));
	int same = 0;

	if (ka && kb) {
		*ka = *a;
		*kb = *b;
		position_key(ka);
		position_key(kb);
		same = memcmp(ka, kb, sizeof(*ka)) == 0;
	}
	free(ka);
	free(kb);
	return same;
}

/*
 * The only end besides the rulebook's (ours): a dead position, where provably
 * no seat can ever use a ship again. `stalled` counts the turns in a row that
 * were forced and changed nothing: the seat could use no ship, its only legal
 * step was Income, the Income asked for no decision, and the position after
 * the turn is the position before it (same_position: food, water or metal
 * piling up beyond what any rule asks for is no change). Once a whole round
 * of seats has had such a turn the position repeats: every seat again has
 * Income as its only step and Income involves no randomness, so the same
 * round repeats for ever, nobody can ever act, and the game ends and is
 * scored. A position where any seat gains a GEM, a point, a resident or a
 * needed resource, or has any other legal step, is never dead.
 */
static void note_stall(struct ssp_state *st, const struct ssp_state *before)
{
	if (!before || st->phase != PH_TURN || st->ntask || st->acting || st->turn == before->turn ||
	    !same_position(before, st)) {
		st->stalled = 0;
		return;
	}
	st->stalled++;
	if (st->stalled >= st->nplayers)
		st->phase = PH_OVER;
}

int ssp_rules_apply(struct ssp_state *st, int seat, const struct ssp_move *m, struct rng *rng, struct err *err)
{
	char kind[32], prompt[200];
	unsigned who;
	int rc;
	struct ssp_state *before = NULL;

	if (st->phase == PH_OVER)
		return err_set(err, ERR_ILLEGAL, "the game is over");
	if (seat < 0 || seat >= st->nplayers)
		return err_set(err, ERR_FORBIDDEN, "seat %d does not play in this game", seat);
	if (m->kind == MV_STANDING) {
		struct ssp_player *pl = &st->pl[seat];
		pl->nstand = m->n;
		for (int i = 0; i < 6; i++)
			pl->stand[i] = i < m->n ? m->v[i] : 0;
		if (st->phase == PH_DIPLO && (st->dip_mask & (1u << seat)) && bonus_standing(st, seat)) {
			st->dip_mask &= ~(1u << seat);
			run(st, rng);
		}
		return 0;
	}
	who = ssp_rules_who(st);
	if (!(who & (1u << seat))) {
		/* the prompt is formatted only for a refusal: bots apply thousands of steps */
		if (err)
			ssp_rules_pending(st, kind, sizeof(kind), prompt, sizeof(prompt));
		return err_set(err, ERR_FORBIDDEN, "it is not your turn to act (waiting for: %s)", prompt);
	}
	if (m->kind == MV_INCOME && st->phase == PH_TURN && !st->ntask && !any_ship_usable(st, seat) &&
	    only_income(st, seat) && (before = malloc(sizeof(*before))) != NULL)
		*before = *st;
	rc = step(st, seat, m, err);
	if (rc < 0) {
		free(before);
		return rc;
	}
	/* a reroll: roll the dice picked up */
	if (m->kind == MV_REROLL && st->ntask > 0 && st->task[0].kind == TK_DICE && st->task[0].c < 0) {
		roll(st, -st->task[0].c, rng);
		st->task[0].c = 0;
	}
	if (st->phase == PH_DRAFT3 || st->phase == PH_DRAFT2) {
		if (st->phase == PH_DRAFT2 && st->draft_pos == 0) {
			int any = 0;
			for (int s = SSP_SHIP_L2; s < SSP_SHIP_L3; s++)
				any |= st->ship_loc[s] == SL_DISPLAY;
			if (!any)
				draw_ships(st, 2, ssp_l3_display_by_n[st->nplayers], SL_DISPLAY, rng);
		}
		st->active = draft_seat(st);
	} else if (st->phase == PH_HUB) {
		if (st->draft_pos >= st->nplayers) {
			st->phase = PH_SETUP;
			st->draft_pos = 0;
			st->active = 0;
			hub_setup(st, 0, rng);
		} else {
			st->active = st->draft_pos;
		}
	}
	run(st, rng);
	note_stall(st, before);
	free(before);
	return rc;
}

/* ------------------------------------------------------------------ scoring */

void ssp_rules_score(const struct ssp_state *st, int sc[SSP_MAXP][SC_NCAT])
{
	int n = st->nplayers, cnt[SSP_MAXP][6] = { { 0 } };
	int l3s[SSP_MAXP] = { 0 }, fulls[SSP_MAXP] = { 0 }, nsec[SSP_MAXP] = { 0 }, nship[SSP_MAXP] = { 0 };

	memset(sc, 0, sizeof(int) * SSP_MAXP * SC_NCAT);
	/* one pass over the Sectors and one over the ships for every seat: bots score every step they try */
	for (int i = 0; i < SSP_NSECTORS; i++) {
		int p = st->sec_loc[i];

		if (p < 0 || p >= n)
			continue;
		nsec[p]++;
		sc[p][SC_SECTORS] += (int[]){ 0, 4, 6, 10 }[ssp_sectors[i].level];
		l3s[p] += ssp_sectors[i].level == 3;
		fulls[p] += occupied(st, i) == ssp_sectors[i].nq;
		for (int q = 0; q < ssp_sectors[i].nq; q++)
			cnt[p][st->sec_res[i][q]]++;
	}
	for (int s = 0; s < SSP_NSHIPS; s++)
		if (st->ship_loc[s] >= 0 && st->ship_loc[s] < n)
			nship[st->ship_loc[s]]++;
	for (int p = 0; p < n; p++) {
		const struct ssp_player *pl = &st->pl[p];
		int l3 = l3s[p], full = fulls[p], sectors = nsec[p], ships = nship[p];

		for (int q = 0; q < 5; q++)
			cnt[p][pl->hubq[q]]++;
		cnt[p][0] = 0;
		sc[p][SC_POINTS] = pl->points;
		for (int k = 1; k <= 5; k++)
			sc[p][SC_RESIDENTS] += 2 * cnt[p][k];
		/* hub endgame bonuses */
		switch (pl->hub) {
		case HB(1): sc[p][SC_BONUS] += 2 * l3; break;
		case HB(4):
		case HB(12): sc[p][SC_BONUS] += cnt[p][SSP_HUMAN]; break;
		case HB(5): sc[p][SC_BONUS] += 2 * full; break;
		case HB(6):
		case HB(7): sc[p][SC_BONUS] += cnt[p][SSP_BROWN]; break;
		case HB(8):
		case HB(9): sc[p][SC_BONUS] += cnt[p][SSP_TEAL]; break;
		case HB(10):
		case HB(11): sc[p][SC_BONUS] += cnt[p][SSP_PINK]; break;
		case HA(1): sc[p][SC_BONUS] += ships <= 3 ? 20 - 5 * ships : 0; break;
		case HA(4): sc[p][SC_BONUS] += 2 * ships; break;
		case HA(6): sc[p][SC_BONUS] += sectors; break;
		default: break;
		}
		if (end_on(st, p, 305))
			sc[p][SC_BONUS] += pl->res[SSP_METAL] / 3;
		if (end_on(st, p, 306))
			sc[p][SC_BONUS] += cnt[p][SSP_TEAL];
		if (end_on(st, p, 308))
			sc[p][SC_BONUS] += cnt[p][SSP_HUMAN];
		if (end_on(st, p, 316))
			sc[p][SC_BONUS] += cnt[p][SSP_BROWN];
		if (end_on(st, p, 325))
			sc[p][SC_BONUS] += cnt[p][SSP_PINK];
		if (end_on(st, p, 327))
			sc[p][SC_BONUS] += cnt[p][SSP_HUMAN];
		sc[p][SC_LEFTOVER] = pl->res[SSP_GEM] / 20 + total_res(st, p) / 5;
	}
	/* pluralities: Humans, gold, teal, pink, brown */
	{
		static const int kinds[5] = { SSP_HUMAN, SSP_GOLD, SSP_TEAL, SSP_PINK, SSP_BROWN };
		for (int i = 0; i < 5; i++) {
			int k = kinds[i], best = 0, nbest = 0, second = 0, nsecond = 0;
			for (int p = 0; p < n; p++)
				if (cnt[p][k] > best)
					best = cnt[p][k];
			if (!best)
				continue;
			for (int p = 0; p < n; p++)
				nbest += cnt[p][k] == best;
			if (nbest > 1) {
				for (int p = 0; p < n; p++)
					if (cnt[p][k] == best)
						sc[p][SC_HUMAN + i] = 15 / nbest;
				continue;
			}
			for (int p = 0; p < n; p++)
				if (cnt[p][k] == best)
					sc[p][SC_HUMAN + i] = 10;
				else if (cnt[p][k] > second)
					second = cnt[p][k];
			if (!second)
				continue;
			for (int p = 0; p < n; p++)
				nsecond += cnt[p][k] == second;
			for (int p = 0; p < n; p++)
				if (cnt[p][k] == second)
					sc[p][SC_HUMAN + i] = 5 / nsecond;
		}
	}
	for (int p = 0; p < n; p++)
		for (int c = 0; c < SC_TOTAL; c++)
			sc[p][SC_TOTAL] += sc[p][c];
}

/* ------------------------------------------------------------------ invariants */

int ssp_rules_check(const struct ssp_state *st, struct err *err)
{
	int al[4] = { 0, 0, 0, 0 }, hu = 0;

	for (int p = 0; p < st->nplayers; p++) {
		int c[6];
		for (int r = 0; r < 4; r++)
			if (st->pl[p].res[r] < 0)
				return err_set(err, ERR_INTERNAL, "seat %d has %d %s", p, st->pl[p].res[r], res_name[r]);
		for (int t = 0; t < 4; t++)
			if (st->pl[p].dip[t] < 0 || st->pl[p].dip[t] > 5)
				return err_set(err, ERR_INTERNAL, "seat %d diplomacy level %d", p, st->pl[p].dip[t]);
		ssp_rules_residents(st, p, c);
		for (int k = 0; k < 4; k++)
			al[k] += c[k + 1];
		hu += c[SSP_HUMAN];
		for (int i = 0; i < SSP_NSECTORS; i++) {
			int have[4] = { 0, 0, 0, 0 };
			if (st->sec_loc[i] != p)
				continue;
			for (int q = 1; q < ssp_sectors[i].nq; q++)
				if (st->sec_res[i][q] && !st->sec_res[i][q - 1])
					return err_set(err, ERR_INTERNAL, "Sector %d has a gap in its quarters", ssp_sectors[i].id);
			for (int j = 0; j < SSP_NSECTORS; j++)
				if (st->sec_loc[j] == p && ssp_sectors[j].colour == ssp_sectors[i].colour) {
					if (have[ssp_sectors[j].level])
						return err_set(err, ERR_INTERNAL, "seat %d has two Sectors of one level in a wing", p);
					have[ssp_sectors[j].level] = 1;
				}
			if (!has_hub(st, p, HA(9)) && ssp_sectors[i].level > 1 && !have[ssp_sectors[i].level - 1])
				return err_set(err, ERR_INTERNAL, "seat %d has Sector %d without the level below", p,
					       ssp_sectors[i].id);
		}
	}
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (st->sec_loc[i] < 0 || st->sec_loc[i] >= st->nplayers)
			for (int q = 0; q < 6; q++)
				if (st->sec_res[i][q])
					return err_set(err, ERR_INTERNAL, "unbuilt Sector %d has residents", ssp_sectors[i].id);
	for (int k = 0; k < 4; k++)
		if (st->aliens[k] < 0 || st->aliens[k] + al[k] != st->alien_total[k])
			return err_set(err, ERR_INTERNAL, "%s: %d in supply + %d on stations != %d", kind_name[k + 1],
				       st->aliens[k], al[k], st->alien_total[k]);
	if (st->humans < 0 || st->humans + hu != st->human_total)
		return err_set(err, ERR_INTERNAL, "Humans: %d + %d != %d", st->humans, hu, st->human_total);
	for (int s = 0; s < SSP_NSHIPS; s++)
		if (st->ship_used[s] && st->ship_loc[s] != SL_NEUTRAL && (st->ship_loc[s] < 0 || st->ship_loc[s] >= SSP_MAXP))
			return err_set(err, ERR_INTERNAL, "ship %s used but not in play", ssp_ships[s].id);
	return 0;
}
