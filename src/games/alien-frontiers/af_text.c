/* games/alien-frontiers/af_text.c: the move notation of Alien Frontiers (parse and canonical format) */
/* SPDX-License-Identifier: MIT */
#include "games/alien-frontiers/af_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/banned.h"

#define MAXTOK 32
#define TOKLEN 48

struct toks {
	int n, i;
	char t[MAXTOK][TOKLEN];
};

#define BAD(...) \
	do { \
		err_set(err, ERR_INPUT, __VA_ARGS__); \
		return ERR_INPUT; \
	} while (0)

static int tokenize(const char *text, struct toks *tk, struct err *err)
{
	const char *p = text;

	tk->n = tk->i = 0;
	while (*p && *p != '#') {
		int len = 0;

		while (*p && *p != '#' && (isspace((unsigned char)*p) || *p == ','))
			p++;
		if (!*p || *p == '#')
			break;
		if (tk->n == MAXTOK)
			BAD("Too many words in one step; write one step per line.");
		while (*p && *p != '#' && !isspace((unsigned char)*p) && *p != ',') {
			if (len == TOKLEN - 1)
				BAD("A word is too long: one step per line, e.g. 'dock solar 3 4'.");
			tk->t[tk->n][len++] = (char)(*p == '_' ? '-' : tolower((unsigned char)*p));
			p++;
		}
		tk->t[tk->n][len] = 0;
		tk->n++;
	}
	return 0;
}

static const char *peek(const struct toks *tk)
{
	return tk->i < tk->n ? tk->t[tk->i] : NULL;
}

static int name_eq(const struct af_name *nm, const char *w)
{
	if (!strcmp(nm->id, w))
		return 1;
	for (int a = 0; a < 4 && nm->alias[a]; a++)
		if (!strcmp(nm->alias[a], w))
			return 1;
	return 0;
}

/* Match a name from the table at the cursor, also spelled over 2 or 3 words ("lunar mine"). */
static int take_name(struct toks *tk, const struct af_name *tab, int ntab)
{
	for (int span = 3; span >= 1; span--) {
		char w[3 * TOKLEN + 3];
		int len = 0;

		if (tk->i + span > tk->n)
			continue;
		for (int k = 0; k < span; k++) {
			int l = (int)strlen(tk->t[tk->i + k]);

			if (k)
				w[len++] = '-';
			memcpy(w + len, tk->t[tk->i + k], (size_t)l);
			len += l;
		}
		w[len] = 0;
		for (int j = 0; j < ntab; j++) {
			if (name_eq(&tab[j], w)) {
				tk->i += span;
				return j;
			}
		}
	}
	return -1;
}

static int take_fac(struct toks *tk)
{
	return take_name(tk, af_fac_names, AF_NFAC);
}

static int take_terr(struct toks *tk)
{
	return take_name(tk, af_terr_names, AF_NTERR);
}

static int take_card(struct toks *tk)
{
	return take_name(tk, af_card_names, AF_NCARD);
}

/* A ship token: "3" or "r3" (the Relic Ship). -1 when the word is not one. */
static int tok_of(const char *w)
{
	int relic = 0;

	if (w[0] == 'r' && w[1]) {
		relic = 1;
		w++;
	}
	if (w[0] >= '1' && w[0] <= '6' && !w[1])
		return (w[0] - '0') | (relic ? AF_TOK_RELIC : 0);
	return -1;
}

/* "p2" -> seat 1; -1 otherwise */
static int seat_of(const struct af_state *s, const char *w)
{
	if (w[0] == 'p' && w[1] >= '1' && w[1] <= '4' && !w[2] && w[1] - '1' < s->n)
		return w[1] - '1';
	return -1;
}

static int number_of(const char *w)
{
	int v = 0;

	if (!*w)
		return -1;
	for (; *w; w++) {
		if (!isdigit((unsigned char)*w) || v > 1000)
			return -1;
		v = v * 10 + (*w - '0');
	}
	return v;
}

static int ship_list(struct toks *tk, struct af_move *m, int max, struct err *err)
{
	const char *w;
	int t;

	while ((w = peek(tk)) && (t = tok_of(w)) >= 0) {
		if (m->n >= max)
			BAD("Too many ships named (at most %d).", max);
		m->tok[m->n++] = (uint8_t)t;
		tk->i++;
	}
	return 0;
}

static int expect_end(const struct toks *tk, const char *what, struct err *err)
{
	if (tk->i < tk->n)
		BAD("Unexpected '%s'; expected %s.", tk->t[tk->i], what);
	return 0;
}

static int parse_use(const struct af_state *s, struct toks *tk, struct af_move *m, struct err *err)
{
	int rc;

	switch (m->card) {
	case AF_BOOSTER:
	case AF_STASIS:
	case AF_POLARITY:
		rc = ship_list(tk, m, 1, err);
		if (rc)
			return rc;
		if (m->n != 1)
			BAD("Expected one ship value: 'use %s 3'.", af_card_names[m->card].id);
		return expect_end(tk, "nothing more", err);
	case AF_GRAVITY:
		rc = ship_list(tk, m, 2, err);
		if (rc)
			return rc;
		if (m->n != 2)
			BAD("Expected the ship to lower and the ship to raise: 'use gravity-manipulator 2 5'.");
		return expect_end(tk, "nothing more", err);
	case AF_WARPER:
		rc = ship_list(tk, m, AF_MAXHAND, err);
		if (rc)
			return rc;
		if (!m->n)
			BAD("Expected the ships to re-roll: 'use temporal-warper 1 2'.");
		return expect_end(tk, "ship values", err);
	case AF_CRYSTAL:
		m->terr = (int8_t)take_terr(tk);
		if (m->terr < 0)
			BAD("Expected a territory: 'use data-crystal heinlein'.");
		return expect_end(tk, "nothing more", err);
	case AF_CANNON: {
		const char *w;

		m->fac = (int8_t)take_fac(tk);
		if (m->fac < 0)
			BAD("Expected a facility and ships: 'use plasma-cannon shipyard p2:2 p2:2'.");
		while ((w = peek(tk))) {
			char seatw[4] = { 0 };
			int seat, t;

			if (strlen(w) < 4 || w[2] != ':')
				BAD("Expected a ship as p<seat>:<value> (e.g. 'p2:4', or 'p2:r4' for the Relic Ship), not '%s'.",
				    w);
			memcpy(seatw, w, 2);
			seat = seat_of(s, seatw);
			t = tok_of(w + 3);
			if (seat < 0 || t < 0)
				BAD("Expected a ship as p<seat>:<value> (e.g. 'p2:4'), not '%s'.", w);
			if (m->n >= 12)
				BAD("Too many ships named.");
			m->tok[m->n++] = (uint8_t)((seat << 4) | t);
			tk->i++;
		}
		if (!m->n)
			BAD("Name the ships to remove: 'use plasma-cannon shipyard p2:2 p2:2'.");
		return 0;
	}
	case AF_TELEPORTER: {
		const char *w;
		int t;

		m->fac = (int8_t)take_fac(tk);
		w = peek(tk);
		if (m->fac < 0 || !w || (t = tok_of(w)) < 0)
			BAD("Expected 'use orbital-teleporter <from> <value> <to> [more ships] [territory]'.");
		tk->i++;
		m->tok[m->n++] = (uint8_t)t;
		m->fac2 = (int8_t)take_fac(tk);
		if (m->fac2 < 0)
			BAD("Expected the facility to move the ship to.");
		rc = ship_list(tk, m, AF_MAXHAND, err);
		if (rc)
			return rc;
		if (peek(tk)) {
			m->terr = (int8_t)take_terr(tk);
			if (m->terr < 0)
				BAD("Unexpected '%s'; expected a territory or nothing.", peek(tk));
		}
		return expect_end(tk, "nothing more", err);
	}
	default:
		BAD("The %s has no power to use.", af_card_names[m->card].name);
	}
}

static int parse_discard(const struct af_state *s, struct toks *tk, struct af_move *m, struct err *err)
{
	const char *w;

	switch (m->card) {
	case AF_BOOSTER:
		m->field = (int8_t)take_name(tk, af_field_names, AF_NFIELD);
		if (m->field < 0)
			BAD("Expected a field generator: 'discard booster-pod isolation'.");
		return expect_end(tk, "nothing more", err);
	case AF_CRYSTAL:
	case AF_STASIS:
	case AF_GRAVITY:
		m->terr = (int8_t)take_terr(tk);
		if (m->terr < 0)
			BAD("Expected a territory: 'discard %s lem'.", af_card_names[m->card].id);
		return expect_end(tk, "nothing more", err);
	case AF_TELEPORTER:
		w = peek(tk);
		if (!w || (m->seat1 = (int8_t)seat_of(s, w)) < 0)
			BAD("Expected 'discard orbital-teleporter p<seat> <from territory> <to territory>'.");
		tk->i++;
		m->terr = (int8_t)take_terr(tk);
		m->terr2 = (int8_t)take_terr(tk);
		if (m->terr < 0 || m->terr2 < 0)
			BAD("Expected two territories: 'discard orbital-teleporter p2 van-vogt lem'.");
		return expect_end(tk, "nothing more", err);
	case AF_POLARITY:
		w = peek(tk);
		if (!w || (m->seat1 = (int8_t)seat_of(s, w)) < 0)
			BAD("Expected 'discard polarity-device p<seat> <territory> p<seat> <territory>'.");
		tk->i++;
		m->terr = (int8_t)take_terr(tk);
		w = peek(tk);
		if (m->terr < 0 || !w || (m->seat2 = (int8_t)seat_of(s, w)) < 0)
			BAD("Expected 'discard polarity-device p1 herbert p2 lem'.");
		tk->i++;
		m->terr2 = (int8_t)take_terr(tk);
		if (m->terr2 < 0)
			BAD("Expected 'discard polarity-device p1 herbert p2 lem'.");
		return expect_end(tk, "nothing more", err);
	case AF_CANNON: {
		char seatw[4] = { 0 };
		int seat, t;

		m->fac = (int8_t)take_fac(tk);
		w = peek(tk);
		if (m->fac < 0 || !w || strlen(w) < 4 || w[2] != ':')
			BAD("Expected 'discard plasma-cannon <facility> p<seat>:<value>' (e.g. 'discard plasma-cannon mine p2:6').");
		memcpy(seatw, w, 2);
		seat = seat_of(s, seatw);
		t = tok_of(w + 3);
		if (seat < 0 || t < 0)
			BAD("Expected a ship as p<seat>:<value>, not '%s'.", w);
		m->tok[0] = (uint8_t)((seat << 4) | t);
		m->n = 1;
		tk->i++;
		return expect_end(tk, "nothing more", err);
	}
	case AF_WARPER:
		m->card2 = (int8_t)take_card(tk);
		if (m->card2 < 0)
			BAD("Expected the card to take from the discard pile: 'discard temporal-warper alien-city'.");
		return expect_end(tk, "nothing more", err);
	default:
		BAD("The %s has no discard power.", af_card_names[m->card].name);
	}
}

static int parse_raid(const struct af_state *s, struct toks *tk, struct af_move *m, struct err *err)
{
	const char *w;
	int seat = -1, any = 0;

	while ((w = peek(tk))) {
		int v, k, c;

		if ((v = seat_of(s, w)) >= 0) {
			seat = v;
			tk->i++;
			continue;
		}
		if (seat < 0)
			BAD("Expected a player first: 'raid p2 2 fuel 2 ore' or 'raid p2 plasma-cannon'.");
		if ((c = take_card(tk)) >= 0) {
			if (any || m->card >= 0)
				BAD("A raid takes either resources or one card, not both.");
			m->card = (int8_t)c;
			m->seat1 = (int8_t)seat;
			continue;
		}
		k = number_of(w);
		if (k < 0 || k > 4 || tk->i + 1 >= tk->n)
			BAD("Expected '<number> fuel' or '<number> ore' (at most 4), not '%s'.", w);
		tk->i++;
		w = peek(tk);
		if (!strcmp(w, "fuel") || !strcmp(w, "f"))
			k += m->take[seat][0], m->take[seat][0] = (uint8_t)(k > 4 ? 4 : k);
		else if (!strcmp(w, "ore") || !strcmp(w, "o"))
			k += m->take[seat][1], m->take[seat][1] = (uint8_t)(k > 4 ? 4 : k);
		else
			BAD("Expected 'fuel' or 'ore', not '%s'.", w);
		if (k > 4)
			BAD("A raid takes at most 4 resources.");
		if (m->card >= 0)
			BAD("A raid takes either resources or one card, not both.");
		any = 1;
		tk->i++;
	}
	if (!any && m->card < 0)
		BAD("Say what to steal: 'raid p2 2 fuel 2 ore' or 'raid p2 plasma-cannon'.");
	return 0;
}

int af__parse(const struct af_state *s, const char *text, struct af_move *m, struct err *err)
{
	struct toks tk;
	const char *verb;
	int rc;

	rc = tokenize(text, &tk, err);
	if (rc)
		return rc;
	if (!tk.n)
		BAD("Empty move: write one step such as 'dock solar 3 4', 'use booster-pod 3' or 'end'.");
	verb = tk.t[tk.i++];
	if (!strcmp(verb, "dock") || !strcmp(verb, "place")) {
		af__move_init(m, AF_M_DOCK);
		m->fac = (int8_t)take_fac(&tk);
		if (m->fac < 0)
			BAD("Expected a facility after 'dock' (solar, mine, market, shipyard, constructor, terraforming, hub, artifact, raiders).");
		rc = ship_list(&tk, m, AF_MAXHAND, err);
		if (rc)
			return rc;
		if (!m->n)
			BAD("Expected ship values after the facility: 'dock %s 3'.", af_fac_names[m->fac].id);
		if (peek(&tk)) {
			m->terr = (int8_t)take_terr(&tk);
			if (m->terr < 0)
				BAD("Unexpected '%s'; expected ship values or a territory.", peek(&tk));
		}
		rc = expect_end(&tk, "nothing more", err);
	} else if (!strcmp(verb, "trade")) {
		af__move_init(m, AF_M_TRADE);
		m->count = 1;
		if (peek(&tk)) {
			int k = number_of(peek(&tk));

			if (k < 1 || k > 99)
				BAD("Expected the number of trades: 'trade 2'.");
			m->count = (uint8_t)k;
			tk.i++;
		}
		rc = expect_end(&tk, "nothing more", err);
	} else if (!strcmp(verb, "cycle")) {
		af__move_init(m, AF_M_CYCLE);
		rc = expect_end(&tk, "nothing more", err);
	} else if (!strcmp(verb, "claim") || !strcmp(verb, "take")) {
		af__move_init(m, AF_M_CLAIM);
		m->card = (int8_t)take_card(&tk);
		if (m->card < 0)
			BAD("Expected an alien tech card: 'claim plasma-cannon'.");
		rc = expect_end(&tk, "nothing more", err);
	} else if (!strcmp(verb, "launch")) {
		af__move_init(m, AF_M_LAUNCH);
		m->terr = (int8_t)take_terr(&tk);
		if (m->terr < 0)
			BAD("Expected a territory: 'launch heinlein'.");
		rc = expect_end(&tk, "nothing more", err);
	} else if (!strcmp(verb, "buy")) {
		af__move_init(m, AF_M_BUY);
		if (peek(&tk) && (!strcmp(peek(&tk), "relic") || !strcmp(peek(&tk), "relic-ship")))
			tk.i++;
		if (peek(&tk) && !strcmp(peek(&tk), "ship"))
			tk.i++;
		rc = expect_end(&tk, "'buy relic'", err);
	} else if (!strcmp(verb, "use") || !strcmp(verb, "discard")) {
		int use = verb[0] == 'u';

		af__move_init(m, use ? AF_M_USE : AF_M_DISCARD);
		m->card = (int8_t)take_card(&tk);
		if (m->card < 0)
			BAD("Expected an alien tech card after '%s' (e.g. '%s').", verb,
			    use ? "use booster-pod 3" : "discard stasis-beam lem");
		rc = use ? parse_use(s, &tk, m, err) : parse_discard(s, &tk, m, err);
	} else if (!strcmp(verb, "raid") || !strcmp(verb, "steal")) {
		af__move_init(m, AF_M_RAID);
		rc = parse_raid(s, &tk, m, err);
	} else if (!strcmp(verb, "return")) {
		const char *w;

		af__move_init(m, AF_M_RETURN);
		while ((w = peek(&tk))) {
			int k = number_of(w);

			if (k < 0 || k > 200 || tk.i + 1 >= tk.n)
				BAD("Expected 'return <n> fuel <n> ore', not '%s'.", w);
			tk.i++;
			w = peek(&tk);
			if (!strcmp(w, "fuel") || !strcmp(w, "f"))
				k += m->take[0][0], m->take[0][0] = (uint8_t)(k > 200 ? 200 : k);
			else if (!strcmp(w, "ore") || !strcmp(w, "o"))
				k += m->take[0][1], m->take[0][1] = (uint8_t)(k > 200 ? 200 : k);
			else
				BAD("Expected 'fuel' or 'ore', not '%s'.", w);
			if (k > 200)
				BAD("Too many resources to return.");
			tk.i++;
		}
		if (!m->take[0][0] && !m->take[0][1])
			BAD("Say what to return: 'return 2 fuel 1 ore'.");
		rc = 0;
	} else if (!strcmp(verb, "end") || !strcmp(verb, "pass") || !strcmp(verb, "done")) {
		af__move_init(m, AF_M_END);
		if (peek(&tk) && !strcmp(peek(&tk), "turn"))
			tk.i++;
		rc = expect_end(&tk, "nothing after 'end'", err);
	} else {
		BAD("Unknown step '%s': expected dock, trade, cycle, claim, launch, buy, use, discard, raid, return or end.",
		    verb);
	}
	if (rc)
		return rc;
	af__move_canon(m);
	return 0;
}

static void add_tok(struct buf *out, int t)
{
	if (t & AF_TOK_RELIC)
		buf_addf(out, " r%d", AF_TOK_VAL(t));
	else
		buf_addf(out, " %d", AF_TOK_VAL(t));
}

static void add_target(struct buf *out, int t)
{
	buf_addf(out, " p%d:%s%d", (t >> 4) + 1, (t & AF_TOK_RELIC) ? "r" : "", AF_TOK_VAL(t));
}

void af__format(const struct af_move *m, struct buf *out)
{
	switch (m->kind) {
	case AF_M_DOCK:
		buf_addf(out, "dock %s", af_fac_names[m->fac].id);
		for (int i = 0; i < m->n; i++)
			add_tok(out, m->tok[i]);
		if (m->terr >= 0)
			buf_addf(out, " %s", af_terr_names[m->terr].id);
		break;
	case AF_M_TRADE:
		buf_addf(out, "trade %d", m->count);
		break;
	case AF_M_CYCLE:
		buf_adds(out, "cycle");
		break;
	case AF_M_CLAIM:
		buf_addf(out, "claim %s", af_card_names[m->card].id);
		break;
	case AF_M_LAUNCH:
		buf_addf(out, "launch %s", af_terr_names[m->terr].id);
		break;
	case AF_M_BUY:
		buf_adds(out, "buy relic");
		break;
	case AF_M_USE:
		buf_addf(out, "use %s", af_card_names[m->card].id);
		if (m->card == AF_CRYSTAL) {
			buf_addf(out, " %s", af_terr_names[m->terr].id);
		} else if (m->card == AF_CANNON) {
			buf_addf(out, " %s", af_fac_names[m->fac].id);
			for (int i = 0; i < m->n; i++)
				add_target(out, m->tok[i]);
		} else if (m->card == AF_TELEPORTER) {
			buf_addf(out, " %s", af_fac_names[m->fac].id);
			add_tok(out, m->tok[0]);
			buf_addf(out, " %s", af_fac_names[m->fac2].id);
			for (int i = 1; i < m->n; i++)
				add_tok(out, m->tok[i]);
			if (m->terr >= 0)
				buf_addf(out, " %s", af_terr_names[m->terr].id);
		} else {
			for (int i = 0; i < m->n; i++)
				add_tok(out, m->tok[i]);
		}
		break;
	case AF_M_DISCARD:
		buf_addf(out, "discard %s", af_card_names[m->card].id);
		switch (m->card) {
		case AF_BOOSTER:
			buf_addf(out, " %s", af_field_names[m->field].id);
			break;
		case AF_TELEPORTER:
			buf_addf(out, " p%d %s %s", m->seat1 + 1, af_terr_names[m->terr].id, af_terr_names[m->terr2].id);
			break;
		case AF_POLARITY:
			buf_addf(out, " p%d %s p%d %s", m->seat1 + 1, af_terr_names[m->terr].id, m->seat2 + 1,
				 af_terr_names[m->terr2].id);
			break;
		case AF_CANNON:
			buf_addf(out, " %s", af_fac_names[m->fac].id);
			add_target(out, m->tok[0]);
			break;
		case AF_WARPER:
			buf_addf(out, " %s", af_card_names[m->card2].id);
			break;
		default:
			buf_addf(out, " %s", af_terr_names[m->terr].id);
			break;
		}
		break;
	case AF_M_RAID:
		buf_adds(out, "raid");
		if (m->card >= 0) {
			buf_addf(out, " p%d %s", m->seat1 + 1, af_card_names[m->card].id);
			break;
		}
		for (int v = 0; v < AF_MAXP; v++) {
			if (!m->take[v][0] && !m->take[v][1])
				continue;
			buf_addf(out, " p%d", v + 1);
			if (m->take[v][0])
				buf_addf(out, " %d fuel", m->take[v][0]);
			if (m->take[v][1])
				buf_addf(out, " %d ore", m->take[v][1]);
		}
		break;
	case AF_M_RETURN:
		buf_adds(out, "return");
		if (m->take[0][0])
			buf_addf(out, " %d fuel", m->take[0][0]);
		if (m->take[0][1])
			buf_addf(out, " %d ore", m->take[0][1]);
		break;
	case AF_M_END:
		buf_adds(out, "end");
		break;
	default:
		buf_adds(out, "?");
		break;
	}
}
