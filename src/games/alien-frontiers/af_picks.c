/* games/alien-frontiers/af_picks.c: an Alien Frontiers step cut into the board parts a player taps */
/* SPDX-License-Identifier: MIT */
#include "games/alien-frontiers/af_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/picks.h"
#include "util/banned.h"

/*
 * The parts af_board.c draws (struct game_pick.part):
 *   die-3, die-r5          an unplaced ship of yours (r: the Relic Ship), one tap per ship
 *   fac-solar              an orbital facility
 *   terr-lem               a territory
 *   display-plasma-cannon  a card of the Alien Artifact's display (claim)
 *   use-booster-pod        your card's power; discard-booster-pod its discard power
 *   act-...                a choice drawn as a button in the board's row of actions:
 *                          act-end, act-trade, act-trade-2, act-cycle, act-launch, act-buy-relic,
 *                          act-return-2-1 (fuel, ore), act-take-2-fuel / act-take-2-ore (one
 *                          resource from player 2), act-take-2-plasma-cannon, act-ship-mine-2-r5
 *                          (player 2's Relic Ship showing 5 at the Lunar Mine), act-colony-lem-2,
 *                          act-field-isolation, act-pile-alien-city
 * Dice sets are tapped in ascending order, as the notation writes them, so
 * each step has one sequence of taps.
 */

#define FAC_NAME(f) (af_fac_names[(f)].name)
#define TERR_NAME(t) (af_terr_names[(t)].name)
#define CARD_NAME(c) (af_card_names[(c)].name)

/* A ship token as a part suffix ("3", "r5") and as words ("3", "Relic Ship 5"). */
static void tok_part(int tok, char out[8])
{
	snprintf(out, 8, "%s%d", tok & AF_TOK_RELIC ? "r" : "", AF_TOK_VAL(tok));
}

static void tok_words(int tok, char out[24])
{
	snprintf(out, 24, "%s%d", tok & AF_TOK_RELIC ? "Relic Ship " : "", AF_TOK_VAL(tok));
}

/* "3, 3 and 5" */
static void toks_words(const uint8_t *tok, int n, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int i = 0; i < n && len < size; i++) {
		char w[24];

		tok_words(tok[i], w);
		len += (size_t)snprintf(out + len, size - len, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ", w);
	}
}

static int colonies_placed(const struct af_state *s, int p)
{
	int n = 0;

	for (int t = 0; t < AF_NTERR; t++)
		n += s->col[t][p];
	return n;
}

static int ships_out(const struct af_state *s, int p)
{
	int n = 0;

	for (int i = 0; i < AF_RELIC; i++)
		if (af__ship_owner(s, i) == p && s->loc[i] != AF_LOC_STOCK)
			n++;
	return n;
}

/*
 * What m costs and gives seat p, in words ("pay 2 fuel: +1 ore"), found by
 * playing it on a copy with a throwaway generator (its draws are never
 * shown: only counts are compared). "" when nothing of p's changes.
 */
static void effect(const struct af_state *s, int p, const struct af_move *m, char *out, size_t size)
{
	struct af_state w = *s;
	struct rng r;
	char pay[40] = "", gain[80] = "";
	size_t lp = 0, lg = 0;
	int d;

	out[0] = '\0';
	rng_seed(&r, 1);
	if (af__step(&w, p, m, &r, NULL) < 0)
		return;
#define PAY(n, what) lp += (size_t)snprintf(pay + lp, sizeof(pay) - lp, "%s%d %s", lp ? ", " : "", (n), (what))
#define GAIN(fmt, ...) lg += (size_t)snprintf(gain + lg, sizeof(gain) - lg, "%s" fmt, lg ? ", " : "", __VA_ARGS__)
	if ((d = w.fuel[p] - s->fuel[p]) < 0)
		PAY(-d, "fuel");
	if ((d = w.ore[p] - s->ore[p]) < 0)
		PAY(-d, "ore");
	if ((d = w.fuel[p] - s->fuel[p]) > 0)
		GAIN("+%d fuel", d);
	if ((d = w.ore[p] - s->ore[p]) > 0)
		GAIN("+%d ore", d);
	if ((d = colonies_placed(&w, p) - colonies_placed(s, p)) > 0)
		GAIN("+%d colon%s", d, d == 1 ? "y" : "ies");
	if ((d = ships_out(&w, p) - ships_out(s, p)) > 0)
		GAIN("+%d ship%s", d, d == 1 ? "" : "s");
	if ((d = af__cards(&w, p) - af__cards(s, p)) > 0)
		GAIN("+%d card%s", d, d == 1 ? "" : "s");
	if (w.hub[p] != s->hub[p] && w.hub[p] > s->hub[p])
		GAIN("Hub track %d of %d", w.hub[p], AF_HUB_TOP);
	if (w.art_sum > s->art_sum)
		GAIN("Artifact %d of 8 to claim", w.art_sum);
	if ((d = (int)w.vp[p] - (int)s->vp[p]) != 0)
		GAIN("%+d VP", d);
#undef PAY
#undef GAIN
	if (lp && lg)
		snprintf(out, size, "pay %s: %s", pay, gain);
	else if (lp)
		snprintf(out, size, "pay %s", pay);
	else
		snprintf(out, size, "%s", gain);
}

/* Unplaced ships, tapped one by one; first is the label of the first, then "Add your 4". */
static void dice(struct picks_cut *c, const uint8_t *tok, int n, const char *first_verb)
{
	for (int i = 0; i < n; i++) {
		char part[8], w[24];

		tok_part(tok[i], part);
		tok_words(tok[i], w);
		picks_label(picks_add(c, "die-%s", part), i == 0 ? "%s your %s" : "Add your %s", i == 0 ? first_verb : w, w);
	}
}

static void card_pick(struct picks_cut *c, const struct af_state *s, int p, int card, int use)
{
	struct game_pick *k = picks_add(c, "%s-%s", use ? "use" : "discard", af_card_names[card].id);

	if (use) {
		picks_label(k, "Use the %s", CARD_NAME(card));
		if (card == AF_CRYSTAL)
			picks_cost(k, "1 fuel per colony there");
		else if (card == AF_CANNON)
			picks_cost(k, "1 fuel per ship");
		else if (af_card_fuel[card])
			picks_cost(k, "%d fuel", af_card_fuel[card]);
	} else {
		picks_label(k, "Discard the %s for its power", CARD_NAME(card));
		picks_cost(k, "the card goes");
	}
	(void)s;
	(void)p;
}

/* A docked ship of seat o at facility f, as an action button. */
static struct game_pick *ship_pick(struct picks_cut *c, int f, int o, int tok)
{
	char part[8];

	tok_part(tok, part);
	return picks_add(c, "act-ship-%s-%d-%s", af_fac_names[f].id, o + 1, part);
}

static int cut(const struct af_state *s, int p, const struct af_move *m, struct picks_cut *c)
{
	char eff[128], vals[64], w[24];
	struct game_pick *k;

	effect(s, p, m, eff, sizeof(eff));
	switch (m->kind) {
	case AF_M_DOCK:
		toks_words(m->tok, m->n, vals, sizeof(vals));
		dice(c, m->tok, m->n, "Choose");
		k = picks_add(c, "fac-%s", af_fac_names[m->fac].id);
		picks_label(k, "Dock your %s at the %s", vals, FAC_NAME(m->fac));
		picks_cost(k, "%s", eff);
		if (m->terr >= 0) {
			k = picks_add(c, "terr-%s", af_terr_names[m->terr].id);
			picks_label(k, "%s: place the colony on %s", FAC_NAME(m->fac), TERR_NAME(m->terr));
			picks_cost(k, "%s", eff);
		}
		break;
	case AF_M_TRADE:
		k = picks_add(c, "act-trade");
		picks_label(k, "Trade fuel for ore at the Orbital Market");
		k = picks_add(c, "act-trade-%d", m->count);
		picks_label(k, "Trade %d time%s", m->count, m->count == 1 ? "" : "s");
		picks_cost(k, "%s", eff);
		break;
	case AF_M_CYCLE:
		k = picks_add(c, "act-cycle");
		picks_label(k, "Cycle the alien tech display");
		picks_cost(k, "3 new cards on display");
		break;
	case AF_M_CLAIM:
		k = picks_add(c, "display-%s", af_card_names[m->card].id);
		picks_label(k, "Claim the %s", CARD_NAME(m->card));
		picks_cost(k, "%s", eff);
		break;
	case AF_M_LAUNCH:
		k = picks_add(c, "act-launch");
		picks_label(k, "Launch the colony from the Colonist Hub");
		picks_cost(k, "1 fuel, 1 ore");
		k = picks_add(c, "terr-%s", af_terr_names[m->terr].id);
		picks_label(k, "Launch the colony to %s", TERR_NAME(m->terr));
		picks_cost(k, "%s", eff);
		break;
	case AF_M_BUY:
		k = picks_add(c, "act-buy-relic");
		picks_label(k, "Buy the Relic Ship");
		picks_cost(k, "%s", eff);
		break;
	case AF_M_USE:
		card_pick(c, s, p, m->card, 1);
		switch (m->card) {
		case AF_BOOSTER:
		case AF_STASIS:
		case AF_POLARITY: {
			int v = AF_TOK_VAL(m->tok[0]);
			int to = m->card == AF_BOOSTER ? v + 1 : m->card == AF_STASIS ? v - 1 : 7 - v;

			tok_words(m->tok[0], w);
			k = picks_add(c, "die-%s%d", m->tok[0] & AF_TOK_RELIC ? "r" : "", v);
			picks_label(k, "%s your %s to %d", m->card == AF_BOOSTER ? "Raise" : m->card == AF_STASIS ? "Lower" : "Flip",
			      w, to);
			picks_cost(k, "%s", eff);
			break;
		}
		case AF_GRAVITY: {
			char w2[24];

			tok_words(m->tok[0], w);
			tok_words(m->tok[1], w2);
			k = picks_add(c, "die-%s%d", m->tok[0] & AF_TOK_RELIC ? "r" : "", AF_TOK_VAL(m->tok[0]));
			picks_label(k, "Lower your %s by 1", w);
			k = picks_add(c, "die-%s%d", m->tok[1] & AF_TOK_RELIC ? "r" : "", AF_TOK_VAL(m->tok[1]));
			picks_label(k, "Raise your %s by 1 (and lower your %s)", w2, w);
			picks_cost(k, "%s", eff);
			break;
		}
		case AF_WARPER:
			toks_words(m->tok, m->n, vals, sizeof(vals));
			dice(c, m->tok, m->n, "Re-roll");
			snprintf(c->out[c->n - 1].label, sizeof(c->out[0].label), "Re-roll your %s", vals);
			picks_cost(&c->out[c->n - 1], "%s", eff);
			break;
		case AF_CRYSTAL:
			k = picks_add(c, "terr-%s", af_terr_names[m->terr].id);
			picks_label(k, "Borrow the bonus of %s this turn", TERR_NAME(m->terr));
			picks_cost(k, "%s", eff);
			break;
		case AF_CANNON:
			for (int i = 0; i < m->n; i++) {
				char tw[24];

				tok_words(m->tok[i] & 15, tw);
				k = ship_pick(c, m->fac, m->tok[i] >> 4, m->tok[i] & 15);
				picks_label(k, "%s %c%d's %s at the %s", i ? "Also shoot" : "Shoot", GAME_NAME_MARK, m->tok[i] >> 4, tw,
				      FAC_NAME(m->fac));
				picks_cost(k, "%s", eff);
			}
			break;
		case AF_TELEPORTER:
			tok_words(m->tok[0], w);
			k = ship_pick(c, m->fac, p, m->tok[0]);
			picks_label(k, "Teleport your %s from the %s", w, FAC_NAME(m->fac));
			dice(c, m->tok + 1, m->n - 1, "Pair it with");
			k = picks_add(c, "fac-%s", af_fac_names[m->fac2].id);
			picks_label(k, "Teleport your %s to the %s", w, FAC_NAME(m->fac2));
			picks_cost(k, "%s", eff);
			if (m->terr >= 0) {
				k = picks_add(c, "terr-%s", af_terr_names[m->terr].id);
				picks_label(k, "%s: place the colony on %s", FAC_NAME(m->fac2), TERR_NAME(m->terr));
				picks_cost(k, "%s", eff);
			}
			break;
		default:
			break;
		}
		break;
	case AF_M_DISCARD:
		card_pick(c, s, p, m->card, 0);
		switch (m->card) {
		case AF_BOOSTER:
			k = picks_add(c, "act-field-%s", af_field_names[m->field].id);
			picks_label(k, "Remove the %s", af_field_names[m->field].name);
			break;
		case AF_TELEPORTER:
			k = picks_add(c, "act-colony-%s-%d", af_terr_names[m->terr].id, m->seat1 + 1);
			picks_label(k, "Move a colony of %c%d's from %s", GAME_NAME_MARK, m->seat1, TERR_NAME(m->terr));
			k = picks_add(c, "terr-%s", af_terr_names[m->terr2].id);
			picks_label(k, "Move %c%d's colony from %s to %s", GAME_NAME_MARK, m->seat1, TERR_NAME(m->terr),
			      TERR_NAME(m->terr2));
			break;
		case AF_POLARITY:
			k = picks_add(c, "act-colony-%s-%d", af_terr_names[m->terr].id, m->seat1 + 1);
			picks_label(k, "Swap a colony of %c%d's on %s", GAME_NAME_MARK, m->seat1, TERR_NAME(m->terr));
			k = picks_add(c, "act-colony-%s-%d", af_terr_names[m->terr2].id, m->seat2 + 1);
			picks_label(k, "Swap it with a colony of %c%d's on %s", GAME_NAME_MARK, m->seat2, TERR_NAME(m->terr2));
			break;
		case AF_CANNON:
			tok_words(m->tok[0] & 15, w);
			k = ship_pick(c, m->fac, m->tok[0] >> 4, m->tok[0] & 15);
			picks_label(k, "Send %c%d's %s at the %s back to the stock", GAME_NAME_MARK, m->tok[0] >> 4, w,
			      FAC_NAME(m->fac));
			break;
		case AF_WARPER:
			k = picks_add(c, "act-pile-%s", af_card_names[m->card2].id);
			picks_label(k, "Take the %s from the discard pile", CARD_NAME(m->card2));
			break;
		default: {
			int field = m->card == AF_STASIS ? AF_ISOLATION : m->card == AF_CRYSTAL ? AF_POSITRON : AF_REPULSOR;

			k = picks_add(c, "terr-%s", af_terr_names[m->terr].id);
			picks_label(k, "Put the %s on %s", af_field_names[field].name, TERR_NAME(m->terr));
			break;
		}
		}
		if (k)
			picks_cost(k, "%s", eff[0] ? eff : "discard the card");
		break;
	case AF_M_RAID:
		if (m->card >= 0) {
			k = picks_add(c, "act-take-%d-%s", m->seat1 + 1, af_card_names[m->card].id);
			picks_label(k, "Steal the %s from %c%d", CARD_NAME(m->card), GAME_NAME_MARK, m->seat1);
			picks_cost(k, "%s", eff);
			break;
		}
		for (int v = 0; v < AF_MAXP; v++)
			for (int r = 0; r < 2; r++)
				for (int i = 0; i < m->take[v][r]; i++) {
					k = picks_add(c, "act-take-%d-%s", v + 1, r ? "ore" : "fuel");
					picks_label(k, "Steal 1 %s from %c%d", r ? "ore" : "fuel", GAME_NAME_MARK, v);
					picks_cost(k, "+1 %s", r ? "ore" : "fuel");
				}
		break;
	case AF_M_RETURN:
		k = picks_add(c, "act-return-%d-%d", m->take[0][0], m->take[0][1]);
		picks_label(k, "Return %d fuel and %d ore to keep 8", m->take[0][0], m->take[0][1]);
		picks_cost(k, "%s", eff);
		break;
	case AF_M_END:
		k = picks_add(c, "act-end");
		picks_label(k, "End your turn");
		break;
	default:
		break;
	}
	return c->n;
}

int af_picks(const void *state, int seat, const void *move, struct game_pick *out, int max, struct err *err)
{
	struct picks_cut c = { out, 0, max, 0 };
	const struct af_move *m = move;

	if (cut(state, seat, m, &c) < 1 || c.over)
		return err_set(err, ERR_INTERNAL, "no taps for this Alien Frontiers step");
	for (int i = 0; i < c.n; i++)
		if (!out[i].part[0] || !out[i].label[0])
			return err_set(err, ERR_INTERNAL, "an Alien Frontiers tap without a part or words");
	return c.n;
}
