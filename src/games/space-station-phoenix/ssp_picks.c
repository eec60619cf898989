/* games/space-station-phoenix/ssp_picks.c: a Space Station Phoenix step cut into the board parts a player taps */
/* SPDX-License-Identifier: MIT */
#include "games/space-station-phoenix/ssp_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/picks.h"
#include "util/banned.h"

/*
 * The parts ssp_board.c draws (struct game_pick.part):
 *   ships-transport          a button: use a Transport ship (then its card), when there are two or more
 *   ship-p2-transport        a ship card: use it, or draft it from the display
 *   dismantle-<ship>         a ship card while a Dismantle action chooses
 *   discard-<ship>           a ship card while a hub or ship asks for a discard
 *   hub-b-5                  a Station Hub dealt to you
 *   sector-218               a Sector of the display (Construction)
 *   track-construct          a Diplomacy track (advance on it)
 *   keep-food-2, ...         the Expedition dice: keep 2 food (ally, observe: Human dice)
 *   reroll-food-2, ...       the Expedition dice to roll again
 *   anything else            a button in the board's row of choices: act-income,
 *                            give-food-water then get-metal (a trade), buy-metal,
 *                            alien-pink then target-123, bonus-point, pay-food, ...
 * Parts follow the notation's order, so each legal step has one sequence of
 * taps; the main action (the kind of ship, the Sector, the track) comes first.
 */

/* A ship in words for seat: "your Transport ship", "@1's Transport ship", "the neutral Expedition ship", "Farm 2a". */
static void ship_words(int seat, int ship, char *out, size_t size)
{
	static const char *const type[] = { "Dismantle", "Construction", "Transport", "Expedition", "Diplomacy", "Farm",
					    "Ice" };
	const struct ssp_ship_info *sh = &ssp_ships[ship];
	const char *id = sh->id, *dash = strrchr(id, '-');

	if (id[0] == 'p' && id[1] - '1' == seat && id[2] == '-')
		snprintf(out, size, "your %s ship", type[sh->type]);
	else if (id[0] == 'p' && id[1] >= '1' && id[1] <= '9' && id[2] == '-')
		snprintf(out, size, "%c%d's %s ship", GAME_NAME_MARK, id[1] - '1', type[sh->type]);
	else if (id[0] == 'n' && id[1] == '-')
		snprintf(out, size, "the neutral %s ship", type[sh->type]);
	else
		snprintf(out, size, "%s %s", type[sh->type], dash ? dash + 1 : id);
}

/* A target in words: "Sector 123" or "the hub". */
static void target_words(int t, char *out, size_t size)
{
	if (t == SSP_HUBQ)
		snprintf(out, size, "the hub");
	else if (t >= 0 && t < SSP_NSECTORS)
		snprintf(out, size, "Sector %d", ssp_sectors[t].id);
	else
		snprintf(out, size, "?");
}

static void target_part(struct picks_cut *c, int t)
{
	char w[32];
	struct game_pick *p;

	if (t == SSP_HUBQ)
		p = picks_add(c, "target-hub");
	else
		p = picks_add(c, "target-%d", t >= 0 && t < SSP_NSECTORS ? ssp_sectors[t].id : 0);
	target_words(t, w, sizeof(w));
	picks_label(p, "in %s", w);
}

/* What a step changes of its player's goods: food, water, metal, GEMs (enum ssp_res), then points. */
#define NGOODS 5

/* Widen [*lo, *hi] to v; n: how many values it held before (0: it starts at v). */
static void widen(int n, int v, int *lo, int *hi)
{
	*lo = n && *lo < v ? *lo : v;
	*hi = n && *hi > v ? *hi : v;
}

/*
 * A group's tap (a kind of ship, a wing), which leads to n choices priced
 * from lo to hi: "3 ships, 2 to 4 GEMs", "2 Sectors, 5 metal each". NULL,
 * and nothing added, when it leads to fewer than two: their tap comes first.
 */
static struct game_pick *group_part(struct picks_cut *c, const char *part, int n, const char *things, int lo, int hi,
				    const char *unit, const char *units)
{
	struct game_pick *p;

	if (n < 2)
		return NULL;
	p = picks_add(c, "%s", part);
	if (lo == hi)
		picks_cost(p, "%d %s, %d %s each", n, things, lo, lo == 1 ? unit : units);
	else
		picks_cost(p, "%d %s, %d to %d %s", n, things, lo, hi, units);
	return p;
}

/*
 * What m changes of seat's goods, found by playing it on a copy with a
 * throwaway generator (what it draws is never shown: only counts are
 * compared). -1 when m does not apply.
 */
static int delta(const struct ssp_state *st, int seat, const struct ssp_move *m, int d[NGOODS])
{
	struct ssp_state *w = malloc(sizeof(*w));
	struct rng r;
	int rc = -1;

	if (!w)
		return -1;
	*w = *st;
	rng_seed(&r, 1);
	/* no message wanted (NULL): only whether it applies */
	if (ssp_rules_apply(w, seat, m, &r, NULL) >= 0) {
		for (int i = 0; i < 4; i++)
			d[i] = w->pl[seat].res[i] - st->pl[seat].res[i];
		d[4] = w->pl[seat].points - st->pl[seat].points;
		rc = 0;
	}
	free(w);
	return rc;
}

/*
 * Goods changes from lo to hi (equal when the step is one) in words: "pay 3
 * GEMs, 1 metal: +2 points", "pay 1 food, 1 water: +8 to 10 GEMs"; "" when
 * nothing changes.
 */
static void goods_words(const int lo[NGOODS], const int hi[NGOODS], char *out, size_t size)
{
	static const char *const what[NGOODS] = { "food", "water", "metal", "GEM", "point" };
	static const int order[NGOODS] = { SSP_GEM, SSP_FOOD, SSP_WATER, SSP_METAL, 4 };
	char pay[96] = "", gain[96] = "";
	size_t lp = 0, lg = 0;

	for (int k = 0; k < NGOODS; k++) {
		int i = order[k], a = lo[i], b = hi[i], pl = (a < -1 || b > 1 || a != b) && (i == SSP_GEM || i == 4);
		const char *s = pl ? "s" : "";
		if (i != 4 && b < 0 && lp < sizeof(pay)) {
			if (a == b)
				lp += (size_t)snprintf(pay + lp, sizeof(pay) - lp, "%s%d %s%s", lp ? ", " : "", -a, what[i], s);
			else
				lp += (size_t)snprintf(pay + lp, sizeof(pay) - lp, "%s%d to %d %s%s", lp ? ", " : "", -b, -a,
						       what[i], s);
		} else if ((a || b) && lg < sizeof(gain)) {
			if (a == b)
				lg += (size_t)snprintf(gain + lg, sizeof(gain) - lg, "%s%+d %s%s", lg ? ", " : "", a, what[i], s);
			else if (a == 0)
				lg += (size_t)snprintf(gain + lg, sizeof(gain) - lg, "%sup to %+d %s%s", lg ? ", " : "", b,
						       what[i], s);
			else
				lg += (size_t)snprintf(gain + lg, sizeof(gain) - lg, "%s%+d to %d %s%s", lg ? ", " : "", a, b,
						       what[i], s);
		}
	}
	if (lp && lg)
		snprintf(out, size, "pay %s: %s", pay, gain);
	else if (lp)
		snprintf(out, size, "pay %s", pay);
	else
		snprintf(out, size, "%s", gain);
}

/* What m costs and gives seat, in words ("pay 3 GEMs, 1 metal: +2 points"); "" when nothing of seat's changes. */
static void effect(const struct ssp_state *st, int seat, const struct ssp_move *m, char *out, size_t size)
{
	int d[NGOODS];

	out[0] = '\0';
	if (delta(st, seat, m, d) == 0)
		goods_words(d, d, out, size);
}

/*
 * Hub A-8's Income with a Human: its first tap says what it costs and gives
 * wherever the Human goes: the Human's price, then the income with what the
 * Human adds where it goes ("pay 1 food, 1 water, 1 metal for the Human:
 * income +9 GEMs, up to +1 water"), the same on every such step's cut.
 */
static void income_human_cost(const struct ssp_state *st, int seat, struct game_pick *p)
{
	static const char *const what[3] = { "food", "water", "metal" };
	int lo[NGOODS], hi[NGOODS], need[3], n = 0;
	char pay[64] = "", gain[96], all[192];
	size_t lp = 0;

	if (!p)
		return;
	ssp_rules_human_cost(st, seat, need);
	for (int t = 0; t <= SSP_NSECTORS; t++) {
		struct ssp_move m = { .kind = MV_INCOME, .a = t < SSP_NSECTORS ? t : SSP_HUBQ };
		int d[NGOODS];
		if ((t < SSP_NSECTORS && st->sec_loc[t] != seat) || delta(st, seat, &m, d) < 0)
			continue;
		for (int i = 0; i < 3; i++)
			d[i] += need[i];
		for (int i = 0; i < NGOODS; i++)
			widen(n, d[i], &lo[i], &hi[i]);
		n++;
	}
	if (!n)
		return;
	for (int i = 0; i < 3; i++)
		if (need[i] && lp < sizeof(pay))
			lp += (size_t)snprintf(pay + lp, sizeof(pay) - lp, "%s%d %s", lp ? ", " : "", need[i], what[i]);
	goods_words(lo, hi, gain, sizeof(gain));
	snprintf(all, sizeof(all), "%s%s%s%s%s", lp ? "pay " : "", pay, lp ? " for the Human" : "",
		 gain[0] ? (lp ? ": income " : "income ") : "", gain);
	snprintf(p->cost, sizeof(p->cost), "%.*s", (int)sizeof(p->cost) - 1, all);
}

/*
 * A turn starts with the kind of action, the way the board game asks: a
 * Transport, then which Transport ship (your own, another's for a fee, the
 * neutral one). When seat can use only one ship of a kind, its card is the
 * first tap. The kind's tap says how many ships it leads to and their
 * prices, the same for each of them (the offer shows one of their labels).
 */
static void kind_part(const struct ssp_state *st, int seat, int ship, struct picks_cut *c)
{
	static const char *const kw[] = { "dismantle", "construct", "transport", "expedition", "diplomacy", "farm", "ice" };
	static const char *const say[] = { "a Dismantle", "a Construction", "a Transport", "an Expedition", "a Diplomacy",
					   "a Farm", "an Ice" };
	int type = ssp_ships[ship].type, n = 0, lo = 0, hi = 0;
	char part[32];

	for (int s = 0; s < SSP_NSHIPS; s++) {
		int price;
		if (ssp_ships[s].type != type || ssp_rules_first_card(st, s) != s || !ssp_rules_usable(st, seat, s))
			continue;
		price = ssp_rules_price(st, seat, s);
		widen(n++, price, &lo, &hi);
	}
	snprintf(part, sizeof(part), "ships-%s", kw[type]);
	picks_label(group_part(c, part, n, "ships", lo, hi, "GEM", "GEMs"), "Use %s ship", say[type]);
}

/*
 * The dice of a keep or reroll, one part per kind with its count
 * ("keep-food-2"), in a fixed order (food, water, metal, Human as an ally,
 * Human to observe). The first kind's count comes after a tap of its kind
 * ("keep-food": "Keep food dice") when two or more of them could be
 * chosen, so a decision starts with one tap per kind of die, not one per
 * count (up to 21 with ten dice and a reroll left).
 */
static void dice_parts(const struct ssp_state *st, struct picks_cut *c, const struct ssp_move *m)
{
	static const char *const keep_kw[5] = { "food", "water", "metal", "ally", "observe" };
	static const char *const keep_say[5] = { "food", "water", "metal", "Human as an ally", "Human to observe" };
	static const char *const roll_kw[4] = { "food", "water", "metal", "human" };
	int keep = m->kind == MV_KEEP, any = 0;
	int room = keep && st->ntask > 0 ? st->task[0].a : 99;

	for (int i = 0; i < (keep ? 5 : 4); i++) {
		struct game_pick *p;
		const char *kw = keep ? keep_kw[i] : roll_kw[i];
		int most = st->dice[i < 4 ? i : 3] < room ? st->dice[i < 4 ? i : 3] : room;
		if (!m->v[i])
			continue;
		if (!any && most >= 2) {
			p = picks_add(c, "%s-%s", keep ? "keep" : "reroll", kw);
			if (keep)
				picks_label(p, "Keep %s dice%s", i < 3 ? keep_say[i] : "Human",
					    i >= 3 ? (i == 3 ? " as allies" : " to observe") : "");
			else
				picks_label(p, "Roll %s dice again", roll_kw[i]);
			picks_cost(p, "up to %d", most);
		}
		any = 1;
		p = picks_add(c, "%s-%s-%d", keep ? "keep" : "reroll", kw, m->v[i]);
		if (keep)
			picks_label(p, "Keep %d %s di%s%s", m->v[i], i < 3 ? keep_say[i] : "Human", m->v[i] == 1 ? "e" : "ce",
			      i >= 3 ? (i == 3 ? " as allies" : " to observe") : "");
		else
			picks_label(p, "Roll %d %s di%s again", m->v[i], roll_kw[i], m->v[i] == 1 ? "e" : "ce");
	}
	if (!any)
		picks_label(picks_add(c, keep ? "keep-nothing" : "reroll-nothing"), keep ? "Keep no dice" : "Roll no dice again");
}

/* Does m apply for seat (on a copy; nothing is formatted)? */
static int applies(const struct ssp_state *st, int seat, const struct ssp_move *m)
{
	int d[NGOODS];

	return delta(st, seat, m, d) == 0;
}

/*
 * A Construction: the wing first ("Build in your teal wing", with how many
 * Sectors and their prices) when two or more Sectors of its colour may be
 * built, then the Sector in the display; so a decision starts with at most
 * three wings (up to 15 Sectors with four players).
 */
static void wing_part(const struct ssp_state *st, int seat, int idx, struct picks_cut *c)
{
	static const char *const colour[3] = { "teal", "brown", "pink" };
	int col = ssp_sectors[idx].colour, n = 0, lo = 0, hi = 0;
	char part[32];

	for (int i = 0; i < SSP_NSECTORS; i++) {
		struct ssp_move m = { .kind = MV_BUILD, .a = i };
		int d[NGOODS];
		if (ssp_sectors[i].colour != col || (st->sec_loc[i] != SEC_DISPLAY && st->sec_loc[i] != SEC_PRIVATE + seat) ||
		    delta(st, seat, &m, d) < 0)
			continue;
		widen(n++, -d[SSP_METAL], &lo, &hi);
	}
	snprintf(part, sizeof(part), "wing-%s", colour[col]);
	picks_label(group_part(c, part, n, "Sectors", lo, hi, "metal", "metal"), "Build in your %s wing", colour[col]);
}

/*
 * A trade: "Trade two resources for one" first when two or more pairs can
 * be given, then the pair, then what it gives; so a Transport decision
 * starts with the Aliens, one tap for trades, the buys and done (at most
 * 10, where every pair a tap of its own came to 15).
 */
static void trade_part(const struct ssp_state *st, int seat, struct picks_cut *c)
{
	int pairs = 0;

	for (int a = 0; a < 3; a++)
		for (int b = a; b < 3; b++) {
			/* a resource the pair does not hold: what a trade of it may give */
			struct ssp_move m = { .kind = MV_TRADE, .a = a, .b = b, .c = a != 0 && b != 0 ? 0 : a != 1 && b != 1 ? 1 : 2 };
			pairs += applies(st, seat, &m);
		}
	if (pairs >= 2) {
		struct game_pick *p = picks_add(c, "trade");
		picks_label(p, "Trade two resources for one");
		picks_cost(p, "pay 2 resources: +1 resource");
	}
}

/* Hub A-12's return of a Sector: "Return a Sector" first when two or more may go back. */
static void return_part(const struct ssp_state *st, int seat, struct picks_cut *c)
{
	int n = 0;

	for (int i = 0; i < SSP_NSECTORS && n < 2; i++) {
		struct ssp_move m = { .kind = MV_RETURN, .a = 0, .b = i };
		n += st->sec_loc[i] == seat && applies(st, seat, &m);
	}
	if (n >= 2)
		picks_label(picks_add(c, "return-sector"), "Return a Sector");
}

static int cut_move(const struct ssp_state *st, int seat, const struct ssp_move *m, struct picks_cut *c)
{
	char w[64], v[64];
	struct game_pick *p;

	switch (m->kind) {
	case MV_DRAFT:
		ship_words(seat, m->a, w, sizeof(w));
		picks_label(picks_add(c, "ship-%s", ssp_ships[m->a].id), "Draft %s (Level %d)", w, ssp_ships[m->a].level);
		break;
	case MV_HUB:
		picks_label(picks_add(c, "hub-%s", ssp_hubs[m->a].id), "Keep Station Hub %s", ssp_hubs[m->a].id);
		break;
	case MV_DISCARD:
		ship_words(seat, m->a, w, sizeof(w));
		picks_label(picks_add(c, "discard-%s", ssp_ships[m->a].id), "Discard %s", w);
		break;
	case MV_USE:
		kind_part(st, seat, m->a, c);
		ship_words(seat, m->a, w, sizeof(w));
		picks_label(picks_add(c, "ship-%s", ssp_ships[m->a].id), "Use %s", w);
		break;
	case MV_DISMANTLE:
		ship_words(seat, m->a, w, sizeof(w));
		picks_label(picks_add(c, "dismantle-%s", ssp_ships[m->a].id), "Dismantle %s", w);
		break;
	case MV_BUILD:
		wing_part(st, seat, m->a, c);
		picks_label(picks_add(c, "sector-%d", ssp_sectors[m->a].id), "Build Sector %d in your %s wing", ssp_sectors[m->a].id,
		      (const char *[]){ "teal", "brown", "pink" }[ssp_sectors[m->a].colour]);
		break;
	case MV_ADVANCE:
		picks_label(picks_add(c, "track-%s", ssp_text_track(m->a)), "Advance on the %s track", ssp_text_track(m->a));
		if (m->b >= 0)
			picks_label(picks_add(c, "track-%s", ssp_text_track(m->b)), "and on the %s track", ssp_text_track(m->b));
		break;
	case MV_SKIP:
		picks_label(picks_add(c, "act-skip"), "Skip");
		break;
	case MV_INCOME:
		if (m->a < 0) {
			picks_label(picks_add(c, "act-income"), "Take income");
		} else {
			p = picks_add(c, "act-income-human");
			picks_label(p, "Take income with a Human");
			income_human_cost(st, seat, p);
			target_part(c, m->a);
		}
		break;
	case MV_SELL:
		picks_label(picks_add(c, "act-sell-point"), "Buy 1 point for 4 GEMs");
		break;
	case MV_CONVERT:
		picks_label(picks_add(c, "convert-%s", ssp_text_res(m->a)), "Convert metal to %s", ssp_text_res(m->a));
		break;
	case MV_ALIEN:
	case MV_PLACE:
		p = picks_add(c, "%s-%s", m->kind == MV_ALIEN ? "alien" : "place", ssp_text_resident(m->a));
		if (m->kind == MV_ALIEN) {
			picks_label(p, "Take a %s Alien", ssp_text_resident(m->a));
			/* the price is the same wherever it goes (the target's tap adds what the step gives) */
			picks_cost(p, "pay %s1 food, 1 water", m->a == SSP_GOLD ? "1 GEM, " : "");
		} else
			picks_label(p, "Place the %s resident", ssp_text_resident(m->a));
		target_part(c, m->b);
		break;
	case MV_TRADE:
		trade_part(st, seat, c);
		p = picks_add(c, "give-%s-%s", ssp_text_res(m->a), ssp_text_res(m->b));
		picks_label(p, "Trade %s and %s", ssp_text_res(m->a), ssp_text_res(m->b));
		if (m->a == m->b)
			picks_cost(p, "pay 2 %s", ssp_text_res(m->a));
		else
			picks_cost(p, "pay 1 %s, 1 %s", ssp_text_res(m->a), ssp_text_res(m->b));
		picks_label(picks_add(c, "get-%s", ssp_text_res(m->c)), "for 1 %s", ssp_text_res(m->c));
		break;
	case MV_BUY:
		picks_label(picks_add(c, "buy-%s", ssp_text_res(m->a)), "Buy 1 %s", ssp_text_res(m->a));
		break;
	case MV_DONE:
		picks_label(picks_add(c, "act-done"), "Done");
		break;
	case MV_REROLL:
	case MV_KEEP:
		dice_parts(st, c, m);
		break;
	case MV_TAKE:
		picks_label(picks_add(c, "take-%s", ssp_text_res(m->a)), "Take 1 %s", ssp_text_res(m->a));
		if (m->b >= 0)
			picks_label(picks_add(c, "take-%s", ssp_text_res(m->b)), "and 1 %s", ssp_text_res(m->b));
		break;
	case MV_ACCEPT:
		picks_label(picks_add(c, "act-accept"), "Accept the offer");
		break;
	case MV_EXCHANGE:
		picks_label(picks_add(c, "exchange-%s-%s", ssp_text_res(m->a), ssp_text_res(m->b)), "Exchange %s for %s",
		      ssp_text_res(m->a), ssp_text_res(m->b));
		break;
	case MV_PAY:
		if (m->a < 0)
			picks_label(picks_add(c, "pay-nothing"), "Pay nothing for the Human");
		else if (m->b < 0)
			picks_label(picks_add(c, "pay-%s", ssp_text_res(m->a)), "Pay %s for the Human", ssp_text_res(m->a));
		else
			picks_label(picks_add(c, "pay-%s-%s", ssp_text_res(m->a), ssp_text_res(m->b)), "Pay %s and %s for the Human",
			      ssp_text_res(m->a), ssp_text_res(m->b));
		break;
	case MV_MOVE:
		p = picks_add(c, "move-%s", ssp_text_resident(m->a));
		picks_label(p, "Move a %s resident", ssp_text_resident(m->a));
		picks_cost(p, "pay 1 GEM");
		target_words(m->b, w, sizeof(w));
		p = picks_add(c, "from-%s", "x");
		if (p) {
			struct buf t = BUF_INIT;
			ssp_text_target(m->b, &t);
			snprintf(p->part, sizeof(p->part), "from-%s", t.data);
			buf_release(&t);
		}
		picks_label(p, "from %s", w);
		target_part(c, m->c);
		break;
	case MV_RETURN:
		if (m->a == 0) {
			return_part(st, seat, c);
			picks_label(picks_add(c, "return-sector-%d", ssp_sectors[m->b].id), "Return Sector %d", ssp_sectors[m->b].id);
		} else {
			picks_label(picks_add(c, "return-%s", ssp_text_resident(m->a)), "Return a %s resident", ssp_text_resident(m->a));
			target_words(m->b, v, sizeof(v));
			p = picks_add(c, "from-x");
			if (p) {
				struct buf t = BUF_INIT;
				ssp_text_target(m->b, &t);
				snprintf(p->part, sizeof(p->part), "from-%s", t.data);
				buf_release(&t);
			}
			picks_label(p, "from %s", v);
		}
		break;
	case MV_BONUS:
		picks_label(picks_add(c, "bonus-%s", ssp_text_bonus(m->a)), "Take the bonus: %s", ssp_text_bonus(m->a));
		if (m->b >= 0)
			picks_label(picks_add(c, "bonus-%s", ssp_text_bonus(m->b)), "and %s", ssp_text_bonus(m->b));
		break;
	default:
		return -1;
	}
	(void)st;
	return 0;
}

int ssp_picks(const void *state, int seat, const void *move, struct game_pick *out, int max, struct err *err)
{
	const struct ssp_state *st = state;
	const struct ssp_move *m = move;
	struct picks_cut c = { .out = out, .max = max };

	if (cut_move(st, seat, m, &c) < 0 || c.n == 0)
		return err_set(err, ERR_INPUT, "this step cannot be tapped on the board");
	if (c.over)
		return err_set(err, ERR_INTERNAL, "this step needs more than %d taps", max);
	/* what the whole step costs and gives, on its last tap */
	effect(st, seat, m, out[c.n - 1].cost, sizeof(out[c.n - 1].cost));
	/* a ship's price (with the owner's fee) shows on its own tap, the last */
	if (m->kind == MV_USE && !out[c.n - 1].cost[0]) {
		int cost = ssp_rules_price(st, seat, m->a);
		snprintf(out[c.n - 1].cost, sizeof(out[c.n - 1].cost), "pay %d GEM%s", cost, cost == 1 ? "" : "s");
	}
	return c.n;
}
