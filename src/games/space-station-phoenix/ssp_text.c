/* games/space-station-phoenix/ssp_text.c: the move notation of Space Station Phoenix (parse and format) */
/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "games/space-station-phoenix/ssp_internal.h"
#include "util/banned.h"

#define MAXTOK 16

static const char *const res_words[3] = { "food", "water", "metal" };
static const char *const kind_words[6] = { "", "teal", "brown", "pink", "gold", "human" };
static const char *const track_words[4] = { "dismantle", "construct", "transport", "expedition" };
static const char *const bonus_words[6] = { "gem", "2gems", "point", "food", "water", "metal" };

const char *ssp_text_res(int r)
{
	return r >= 0 && r < 3 ? res_words[r] : r == SSP_GEM ? "gems" : "?";
}

const char *ssp_text_resident(int k)
{
	return k >= 1 && k <= 5 ? kind_words[k] : "?";
}

const char *ssp_text_track(int t)
{
	return t >= 0 && t < 4 ? track_words[t] : "?";
}

const char *ssp_text_bonus(int b)
{
	return b >= 0 && b < 6 ? bonus_words[b] : "?";
}

void ssp_text_target(int target, struct buf *out)
{
	if (target == SSP_HUBQ)
		buf_adds(out, "hub");
	else if (target >= 0 && target < SSP_NSECTORS)
		buf_addf(out, "%d", ssp_sectors[target].id);
	else
		buf_adds(out, "?");
}

/* ------------------------------------------------------------------ words */

static int word_in(const char *w, const char *const *list, int n)
{
	for (int i = 0; i < n; i++)
		if (list[i][0] && strcmp(w, list[i]) == 0)
			return i;
	return -1;
}

static int is_filler(const char *w)
{
	static const char *const fill[] = { "for", "to", "at", "on", "in", "into", "from", "with", "of", "the", "and",
					    "a", "an", "then" };
	return word_in(w, fill, (int)(sizeof(fill) / sizeof(fill[0]))) >= 0;
}

static int p_res(const char *w)
{
	static const char *const alt[] = { "foods", "waters", "metals" };
	int r = word_in(w, res_words, 3);
	return r >= 0 ? r : word_in(w, alt, 3);
}

static int p_kind(const char *w)
{
	static const char *const alt[] = { "", "turkanshee", "zonri", "ensaroo", "whijinga", "humans" };
	int k = word_in(w, kind_words, 6);
	return k >= 1 ? k : word_in(w, alt, 6);
}

static int p_track(const char *w)
{
	static const char *const alt[] = { "dismantling", "construction", "transports", "terran" };
	int t = word_in(w, track_words, 4);
	return t >= 0 ? t : word_in(w, alt, 4);
}

static int p_bonus(const char *w)
{
	static const char *const alt[] = { "1gem", "gems", "1point", "", "", "" };
	int b = word_in(w, bonus_words, 6);
	if (b >= 0)
		return b;
	b = word_in(w, alt, 6);
	if (b == 1) /* "gems" alone means the 2-GEM space */
		return BN_2GEMS;
	return b;
}

static int p_int(const char *w, int *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)w[0]))
		return -1;
	errno = 0;
	v = strtol(w, &end, 10);
	if (errno || *end || v > 100000)
		return -1;
	*out = (int)v;
	return 0;
}

static int p_sector(const char *w)
{
	int id;

	if (p_int(w, &id) < 0 || id < 101 || id > 328 || id % 10 < 1 || id % 10 > 8 || (id / 10) % 10 > 2)
		return -1;
	return ssp_data_sector_find(id);
}

static int p_target(const char *w)
{
	if (strcmp(w, "hub") == 0)
		return SSP_HUBQ;
	return p_sector(w);
}

/* ------------------------------------------------------------------ parse */

static int want(struct err *err, const char *what)
{
	return err_set(err, ERR_INPUT, "expected %s", what);
}

/*
 * One or two choices read by p (tok2 may be NULL) into m->a and m->b (-1 when
 * only one), the two in ascending order so every spelling has one canonical
 * form. -1 when a word is not a choice.
 */
static int one_or_two(struct ssp_move *m, const char *tok1, const char *tok2, int (*p)(const char *))
{
	m->a = p(tok1);
	m->b = tok2 ? p(tok2) : -1;
	if (m->a < 0 || (tok2 && m->b < 0))
		return -1;
	if (m->b >= 0 && m->b < m->a) {
		int x = m->a;
		m->a = m->b;
		m->b = x;
	}
	return 0;
}

int ssp_text_parse(const struct ssp_state *st, const char *text, struct ssp_move *m, struct err *err)
{
	char buf[256], *tok[MAXTOK];
	int nt = 0, i;
	size_t n = 0;
	const char *v;

	(void)st;
	memset(m, 0, sizeof(*m));
	if (!text)
		return want(err, "a move");
	/* lower-case; commas, '=' and '+' separate words like spaces */
	for (const char *p = text; *p && n + 1 < sizeof(buf); p++) {
		char c = (char)tolower((unsigned char)*p);
		buf[n++] = (c == ',' || c == '+' || c == ';' || c == '\t' || c == '\r' || c == '\n') ? ' ' : c;
	}
	buf[n] = '\0';
	if (strlen(text) >= sizeof(buf))
		return err_set(err, ERR_INPUT, "move text too long (at most %zu characters)", sizeof(buf) - 1);
	for (char *p = buf; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (nt >= MAXTOK)
			return err_set(err, ERR_INPUT, "too many words in one move (at most %d)", MAXTOK);
		tok[nt] = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
		if (nt > 0 && is_filler(tok[nt]))
			continue;
		nt++;
	}
	if (nt == 0)
		return want(err, "a move such as \"use p1-transport\" or \"income\"");
	v = tok[0];
#define NEED(cnt, what) do { if (nt != (cnt)) return want(err, what); } while (0)
	if (!strcmp(v, "draft") || !strcmp(v, "use") || !strcmp(v, "dismantle") || !strcmp(v, "discard")) {
		const char *what = !strcmp(v, "draft") ? "draft <ship>, e.g. draft construct-3a"
				 : !strcmp(v, "use") ? "use <ship>, e.g. use p1-transport or use n-construct"
				 : !strcmp(v, "dismantle") ? "dismantle <ship>, e.g. dismantle p1-transport"
							   : "discard <ship>, e.g. discard farm-2a";
		NEED(2, what);
		m->kind = !strcmp(v, "draft") ? MV_DRAFT : !strcmp(v, "use") ? MV_USE : !strcmp(v, "dismantle") ? MV_DISMANTLE : MV_DISCARD;
		m->a = ssp_data_ship_find(tok[1]);
		if (m->a < 0)
			return err_set(err, ERR_INPUT, "no ship called \"%s\" (ships are named like p2-transport, construct-3a, farm-2b, n-diplomacy)", tok[1]);
		return 0;
	}
	if (!strcmp(v, "hub")) {
		NEED(2, "hub <id>, e.g. hub B-5");
		m->kind = MV_HUB;
		m->a = ssp_data_hub_find(tok[1]);
		if (m->a < 0)
			return err_set(err, ERR_INPUT, "no Station Hub \"%s\" (B-1..B-12, A-1..A-12)", tok[1]);
		return 0;
	}
	if (!strcmp(v, "advance")) {
		if (nt != 2 && nt != 3)
			return want(err, "advance <track> [<track>], tracks: dismantle, construct, transport, expedition");
		m->kind = MV_ADVANCE;
		m->a = p_track(tok[1]);
		m->b = nt == 3 ? p_track(tok[2]) : -1;
		if (m->a < 0 || (nt == 3 && m->b < 0))
			return want(err, "a Diplomacy track: dismantle, construct, transport or expedition");
		if (m->b >= 0 && m->b < m->a) {
			int x = m->a;
			m->a = m->b;
			m->b = x;
		}
		return 0;
	}
	if (!strcmp(v, "skip") || !strcmp(v, "done") || !strcmp(v, "accept") || !strcmp(v, "pass") || !strcmp(v, "no") ||
	    !strcmp(v, "yes")) {
		NEED(1, "a single word");
		m->kind = (!strcmp(v, "skip") || !strcmp(v, "no")) ? MV_SKIP : !strcmp(v, "accept") || !strcmp(v, "yes") ? MV_ACCEPT : MV_DONE;
		if (!strcmp(v, "pass"))
			return err_set(err, ERR_INPUT, "there is no passing in Space Station Phoenix: use a ship or take income (\"done\" ends transactions)");
		return 0;
	}
	if (!strcmp(v, "income")) {
		m->kind = MV_INCOME;
		m->a = -1;
		if (nt == 1)
			return 0;
		if (nt == 3 && p_kind(tok[1]) == SSP_HUMAN && (m->a = p_target(tok[2])) >= 0)
			return 0;
		return want(err, "income, or (Hub A-8) income human <sector>");
	}
	if (!strcmp(v, "sell")) {
		if (nt == 1 || (nt == 2 && (!strcmp(tok[1], "point") || !strcmp(tok[1], "1point")))) {
			m->kind = MV_SELL;
			return 0;
		}
		return want(err, "sell point");
	}
	if (!strcmp(v, "convert")) {
		/* convert [metal] food|water */
		int r = nt >= 2 ? p_res(tok[nt - 1]) : -1;
		if ((nt == 2 || (nt == 3 && p_res(tok[1]) == SSP_METAL)) && (r == SSP_FOOD || r == SSP_WATER)) {
			m->kind = MV_CONVERT;
			m->a = r;
			return 0;
		}
		return want(err, "convert metal food, or convert metal water");
	}
	if (!strcmp(v, "build")) {
		NEED(2, "build <sector number>, e.g. build 214");
		m->kind = MV_BUILD;
		if ((m->a = p_sector(tok[1])) < 0)
			return want(err, "a Sector number such as 101, 214 or 326");
		return 0;
	}
	if (!strcmp(v, "alien") || !strcmp(v, "place")) {
		NEED(3, !strcmp(v, "alien") ? "alien <teal|brown|pink|gold> <sector|hub>" : "place <kind> <sector|hub>");
		m->kind = !strcmp(v, "alien") ? MV_ALIEN : MV_PLACE;
		m->a = p_kind(tok[1]);
		m->b = p_target(tok[2]);
		if (m->a < 1 || (m->kind == MV_ALIEN && m->a == SSP_HUMAN))
			return want(err, m->kind == MV_ALIEN ? "an Alien colour: teal, brown, pink or gold" : "a resident: teal, brown, pink, gold or human");
		if (m->b < 0)
			return want(err, "a Sector number of your station or \"hub\"");
		return 0;
	}
	if (!strcmp(v, "trade")) {
		NEED(4, "trade <resource> <resource> for <resource>, e.g. trade water water for metal");
		m->kind = MV_TRADE;
		m->a = p_res(tok[1]);
		m->b = p_res(tok[2]);
		m->c = p_res(tok[3]);
		if (m->a < 0 || m->b < 0 || m->c < 0)
			return want(err, "resources food, water or metal");
		if (m->b < m->a) {
			int x = m->a;
			m->a = m->b;
			m->b = x;
		}
		return 0;
	}
	if (!strcmp(v, "buy")) {
		NEED(2, "buy <resource> (3 GEMs), e.g. buy metal");
		m->kind = MV_BUY;
		if ((m->a = p_res(tok[1])) < 0)
			return want(err, "a resource: food, water or metal");
		return 0;
	}
	if (!strcmp(v, "reroll") || !strcmp(v, "keep")) {
		int keep = !strcmp(v, "keep");
		m->kind = keep ? MV_KEEP : MV_REROLL;
		if (nt == 2 && (!strcmp(tok[1], "nothing") || !strcmp(tok[1], "none")) && keep)
			return 0;
		if (nt < 2)
			return want(err, keep ? "keep <dice>, e.g. keep food food water ally observe (or keep nothing)"
					      : "reroll <dice>, e.g. reroll human metal");
		for (i = 1; i < nt; i++) {
			int count = 1, idx = -1;
			const char *w = tok[i];
			if (isdigit((unsigned char)w[0]) && i + 1 < nt && w[1] == '\0') {
				count = w[0] - '0';
				w = tok[++i];
			}
			if (p_res(w) >= 0)
				idx = p_res(w);
			else if (!keep && p_kind(w) == SSP_HUMAN)
				idx = 3;
			else if (keep && (!strcmp(w, "ally") || !strcmp(w, "allies")))
				idx = 3;
			else if (keep && (!strcmp(w, "observe") || !strcmp(w, "point") || !strcmp(w, "points")))
				idx = 4;
			if (idx < 0)
				return want(err, keep ? "dice to keep: food, water, metal, ally (Human ally) or observe (Human: 1 point)"
						      : "dice to reroll: food, water, metal or human");
			m->v[idx] += count;
		}
		return 0;
	}
	if (!strcmp(v, "take")) {
		if (nt != 2 && nt != 3)
			return want(err, "take <resource> (or take <resource> <resource> for Sector 228)");
		m->kind = MV_TAKE;
		if (one_or_two(m, tok[1], nt == 3 ? tok[2] : NULL, p_res) < 0)
			return want(err, "resources food, water or metal");
		return 0;
	}
	if (!strcmp(v, "exchange")) {
		NEED(3, "exchange <resource> for <resource>");
		m->kind = MV_EXCHANGE;
		m->a = p_res(tok[1]);
		m->b = p_res(tok[2]);
		if (m->a < 0 || m->b < 0)
			return want(err, "resources food, water or metal");
		return 0;
	}
	if (!strcmp(v, "pay")) {
		m->kind = MV_PAY;
		m->a = m->b = -1;
		if (nt == 2 && !strcmp(tok[1], "nothing"))
			return 0;
		if (nt != 2 && nt != 3)
			return want(err, "pay <resource> <resource> (Sector 307), or pay nothing");
		if (one_or_two(m, tok[1], nt == 3 ? tok[2] : NULL, p_res) < 0)
			return want(err, "resources food, water or metal");
		return 0;
	}
	if (!strcmp(v, "move")) {
		NEED(4, "move <kind> <from> <to>, e.g. move pink 221 121 (1 GEM)");
		m->kind = MV_MOVE;
		m->a = p_kind(tok[1]);
		m->b = p_target(tok[2]);
		m->c = p_target(tok[3]);
		if (m->a < 1 || m->b < 0 || m->c < 0)
			return want(err, "move <teal|brown|pink|gold|human> <sector|hub> <sector|hub>");
		return 0;
	}
	if (!strcmp(v, "return")) {
		NEED(3, "return <kind> <sector|hub>, or return sector <number>");
		m->kind = MV_RETURN;
		if (!strcmp(tok[1], "sector")) {
			m->a = 0;
			if ((m->b = p_sector(tok[2])) < 0)
				return want(err, "a Sector number");
			return 0;
		}
		m->a = p_kind(tok[1]);
		m->b = p_target(tok[2]);
		if (m->a < 1 || m->b < 0)
			return want(err, "return <teal|brown|pink|gold|human> <sector|hub>");
		return 0;
	}
	if (!strcmp(v, "bonus")) {
		if (nt != 2 && nt != 3)
			return want(err, "bonus <choice>[,<choice>]: gem, 2gems, point, food, water, metal");
		m->kind = MV_BONUS;
		if (one_or_two(m, tok[1], nt == 3 ? tok[2] : NULL, p_bonus) < 0)
			return want(err, "Diplomacy bonuses: gem, 2gems, point, food, water or metal");
		return 0;
	}
	if (!strcmp(v, "standing")) {
		m->kind = MV_STANDING;
		if (nt == 2 && !strcmp(tok[1], "clear"))
			return 0;
		if (nt < 3 || strcmp(tok[1], "diplomacy") != 0)
			return want(err, "standing diplomacy <choice>,<choice>,... (in order of preference) or standing clear");
		if (nt - 2 > 6)
			return want(err, "at most 6 standing choices");
		for (i = 2; i < nt; i++) {
			int b = p_bonus(tok[i]);
			if (b < 0)
				return want(err, "standing choices among gem, 2gems, point, food, water, metal");
			for (int j = 0; j < m->n; j++)
				if (m->v[j] == b)
					return err_set(err, ERR_INPUT, "standing choice \"%s\" named twice", bonus_words[b]);
			m->v[m->n++] = b;
		}
		return 0;
	}
#undef NEED
	return err_set(err, ERR_INPUT,
		       "unknown move \"%s\": expected use, income, dismantle, build, alien, trade, buy, done, reroll, keep, advance, "
		       "place, take, accept, skip, move, bonus, standing, draft, hub, discard, ...", v);
}

/* ------------------------------------------------------------------ format */

void ssp_text_format(const struct ssp_move *m, struct buf *out)
{
	switch (m->kind) {
	case MV_DRAFT: buf_addf(out, "draft %s", ssp_ships[m->a].id); break;
	case MV_HUB: buf_addf(out, "hub %s", ssp_hubs[m->a].id); break;
	case MV_DISCARD: buf_addf(out, "discard %s", ssp_ships[m->a].id); break;
	case MV_ADVANCE:
		buf_addf(out, "advance %s", track_words[m->a]);
		if (m->b >= 0)
			buf_addf(out, " %s", track_words[m->b]);
		break;
	case MV_SKIP: buf_adds(out, "skip"); break;
	case MV_USE: buf_addf(out, "use %s", ssp_ships[m->a].id); break;
	case MV_INCOME:
		buf_adds(out, "income");
		if (m->a >= 0) {
			buf_adds(out, " human ");
			ssp_text_target(m->a, out);
		}
		break;
	case MV_SELL: buf_adds(out, "sell point"); break;
	case MV_CONVERT: buf_addf(out, "convert metal %s", res_words[m->a]); break;
	case MV_DISMANTLE: buf_addf(out, "dismantle %s", ssp_ships[m->a].id); break;
	case MV_BUILD: buf_addf(out, "build %d", ssp_sectors[m->a].id); break;
	case MV_ALIEN:
	case MV_PLACE:
		buf_addf(out, "%s %s ", m->kind == MV_ALIEN ? "alien" : "place", kind_words[m->a]);
		ssp_text_target(m->b, out);
		break;
	case MV_TRADE: buf_addf(out, "trade %s %s for %s", res_words[m->a], res_words[m->b], res_words[m->c]); break;
	case MV_BUY: buf_addf(out, "buy %s", res_words[m->a]); break;
	case MV_DONE: buf_adds(out, "done"); break;
	case MV_REROLL:
	case MV_KEEP: {
		static const char *const kw[5] = { "food", "water", "metal", "ally", "observe" };
		static const char *const rw[4] = { "food", "water", "metal", "human" };
		int any = 0;
		buf_adds(out, m->kind == MV_KEEP ? "keep" : "reroll");
		for (int i = 0; i < (m->kind == MV_KEEP ? 5 : 4); i++)
			for (int k = 0; k < m->v[i]; k++) {
				buf_addf(out, " %s", m->kind == MV_KEEP ? kw[i] : rw[i]);
				any = 1;
			}
		if (!any)
			buf_adds(out, " nothing");
		break;
	}
	case MV_TAKE:
		buf_addf(out, "take %s", res_words[m->a]);
		if (m->b >= 0)
			buf_addf(out, " %s", res_words[m->b]);
		break;
	case MV_ACCEPT: buf_adds(out, "accept"); break;
	case MV_EXCHANGE: buf_addf(out, "exchange %s for %s", res_words[m->a], res_words[m->b]); break;
	case MV_PAY:
		if (m->a < 0)
			buf_adds(out, "pay nothing");
		else if (m->b < 0)
			buf_addf(out, "pay %s", res_words[m->a]);
		else
			buf_addf(out, "pay %s %s", res_words[m->a], res_words[m->b]);
		break;
	case MV_MOVE:
		buf_addf(out, "move %s ", kind_words[m->a]);
		ssp_text_target(m->b, out);
		buf_adds(out, " ");
		ssp_text_target(m->c, out);
		break;
	case MV_RETURN:
		if (m->a == 0) {
			buf_addf(out, "return sector %d", ssp_sectors[m->b].id);
		} else {
			buf_addf(out, "return %s ", kind_words[m->a]);
			ssp_text_target(m->b, out);
		}
		break;
	case MV_BONUS:
		buf_addf(out, "bonus %s", bonus_words[m->a]);
		if (m->b >= 0)
			buf_addf(out, ",%s", bonus_words[m->b]);
		break;
	case MV_STANDING:
		if (m->n == 0) {
			buf_adds(out, "standing clear");
			break;
		}
		buf_adds(out, "standing diplomacy ");
		for (int i = 0; i < m->n; i++)
			buf_addf(out, "%s%s", i ? "," : "", bonus_words[m->v[i]]);
		break;
	default:
		buf_adds(out, "?");
	}
}
