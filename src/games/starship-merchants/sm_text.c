/* games/starship-merchants/sm_text.c: reading and writing the step notation of Starship Merchants */
/* SPDX-License-Identifier: MIT */
#include "games/starship-merchants/sm_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

#define MAX_WORDS 12
#define WORD_LEN 40

struct words {
	int n;
	char w[MAX_WORDS][WORD_LEN];
};

/* Split into lower-case words; commas, colons and full stops count as spaces. */
static int split(const char *text, struct words *ws)
{
	const char *p = text;

	ws->n = 0;
	while (*p) {
		size_t len = 0;

		while (*p && (isspace((unsigned char)*p) || *p == ',' || *p == ';' || *p == ':' ||
			      (*p == '.' && !isalnum((unsigned char)p[1]))))
			p++;
		if (!*p)
			break;
		if (ws->n == MAX_WORDS)
			return -1;
		while (*p && !isspace((unsigned char)*p) && *p != ',' && *p != ';' && *p != ':' &&
		       !(*p == '.' && !isalnum((unsigned char)p[1]))) {
			if (len + 1 >= WORD_LEN)
				return -1;
			ws->w[ws->n][len++] = (char)tolower((unsigned char)*p);
			p++;
		}
		ws->w[ws->n][len] = '\0';
		/* filler words people write between the parts of a step */
		if (strcmp(ws->w[ws->n], "on") && strcmp(ws->w[ws->n], "to") &&
		    strcmp(ws->w[ws->n], "for") && strcmp(ws->w[ws->n], "from") &&
		    strcmp(ws->w[ws->n], "the") && strcmp(ws->w[ws->n], "at") &&
		    strcmp(ws->w[ws->n], "a") && strcmp(ws->w[ws->n], "my"))
			ws->n++;
	}
	return 0;
}

/* Letters and digits only: "Survey Robot" and "survey-robot" both become "surveyrobot". */
static void squash(const char *in, char *out, size_t size)
{
	size_t j = 0;

	for (size_t i = 0; in[i] && j + 1 < size; i++)
		if (isalnum((unsigned char)in[i]))
			out[j++] = (char)tolower((unsigned char)in[i]);
	out[j] = '\0';
}

/*
 * Match a name of up to three words starting at word *i against a list of
 * slugs; on success returns the index and moves *i past the name. Longest
 * match first, so "ice 9 refinery" is the refinery and not Ice-9.
 */
static int match_name(const struct words *ws, int *i, const char *const *slugs, int count)
{
	for (int k = 3; k >= 1; k--) {
		char joined[3 * WORD_LEN + 1] = "", sq[3 * WORD_LEN + 1], slug[64];
		size_t len = 0;

		if (*i + k > ws->n)
			continue;
		for (int j = 0; j < k; j++) {
			size_t wl = strlen(ws->w[*i + j]);

			memcpy(joined + len, ws->w[*i + j], wl);
			len += wl;
		}
		joined[len] = '\0';
		squash(joined, sq, sizeof(sq));
		for (int c = 0; c < count; c++) {
			squash(slugs[c], slug, sizeof(slug));
			if (strcmp(sq, slug) == 0) {
				*i += k;
				return c;
			}
		}
	}
	return -1;
}

static const char *kind_slug(int k)
{
	return sm_kinds[k].slug;
}

static int match_kind(const struct words *ws, int *i)
{
	const char *slugs[SM_NKINDS];

	for (int k = 0; k < SM_NKINDS; k++)
		slugs[k] = kind_slug(k);
	return match_name(ws, i, slugs, SM_NKINDS);
}

static int match_card(const struct words *ws, int *i)
{
	const char *slugs[SM_NCARDS];

	for (int c = 0; c < SM_NCARDS; c++)
		slugs[c] = sm_cards[c].slug;
	return match_name(ws, i, slugs, SM_NCARDS);
}

static int match_dest(const struct words *ws, int *i)
{
	const char *slugs[SM_NDESTS];

	for (int d = 0; d < SM_NDESTS; d++)
		slugs[d] = sm_dests[d].slug;
	return match_name(ws, i, slugs, SM_NDESTS);
}

const char *sm_slug_name(const char *slug)
{
	if (!slug)
		return "";
	for (int k = 0; k < SM_NKINDS; k++)
		if (!strcmp(slug, sm_kinds[k].slug))
			return sm_kinds[k].name;
	for (int c = 0; c < SM_NCARDS; c++)
		if (!strcmp(slug, sm_cards[c].slug))
			return sm_cards[c].name;
	for (int d = 0; d < SM_NDESTS; d++)
		if (!strcmp(slug, sm_dests[d].slug))
			return sm_dests[d].name;
	for (int t = 0; t < SM_NTYPES; t++)
		if (!strcmp(slug, sm_type_slugs[t]))
			return sm_type_names[t];
	return slug;
}

static int read_number(const char *w, int *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)w[0]))
		return -1;
	v = strtol(w, &end, 10);
	if (*end || v < 1 || v > 9999)
		return -1;
	*out = (int)v;
	return 0;
}

/* "ship 2", "ship2", "s2", "#2" or "2". */
static int match_ship(const struct words *ws, int *i, int *no)
{
	const char *w;

	if (*i >= ws->n)
		return -1;
	w = ws->w[*i];
	if (strcmp(w, "ship") == 0) {
		if (*i + 1 >= ws->n || read_number(ws->w[*i + 1], no))
			return -1;
		*i += 2;
		return 0;
	}
	if (strncmp(w, "ship", 4) == 0 && !read_number(w + 4, no)) {
		(*i)++;
		return 0;
	}
	if ((w[0] == 's' || w[0] == '#') && !read_number(w + 1, no)) {
		(*i)++;
		return 0;
	}
	if (!read_number(w, no)) {
		(*i)++;
		return 0;
	}
	return -1;
}

static int match_type(const char *w)
{
	for (int t = 0; t < SM_NTYPES; t++)
		if (strcmp(w, sm_type_slugs[t]) == 0)
			return t;
	return -1;
}

static int expected(struct err *err, const char *text, const char *what)
{
	return err_set(err, ERR_INPUT, "cannot read \"%.80s\": expected %s", text, what);
}

int sm_move_parse(const struct sm_state *s, int seat, const char *text, struct sm_move *m, struct err *err)
{
	struct words ws;
	int i = 1, v;
	const char *w0;

	memset(m, 0, sizeof(*m));
	if (split(text, &ws) || ws.n == 0)
		return expected(err, text,
				"one step such as stay, move, pass, buy tug, lease scout, repay ship 1, "
				"buy grapples ship 1, claim cobalt, run ship 1, pickup cobalt known, explore, "
				"end run foundry, transfer grapples ship 2, end game or done");
	w0 = ws.w[0];
	if (!strcmp(w0, "stay") || !strcmp(w0, "act")) {
		m->type = SM_MV_STAY;
	} else if (!strcmp(w0, "move")) {
		m->type = SM_MV_MOVE;
		if (ws.n >= 2 && (!strcmp(ws.w[1], "pass") || !strcmp(ws.w[1], "and"))) {
			/* "move and pass", "move pass" */
			i = 2;
			if (!strcmp(ws.w[1], "and") && ws.n >= 3 && !strcmp(ws.w[2], "pass"))
				i = 3;
			if (!strcmp(ws.w[i - 1], "pass"))
				m->type = SM_MV_PASS;
			else if (ws.n >= 3 && !strcmp(ws.w[2], "act"))
				i = 3;
		}
	} else if (!strcmp(w0, "pass")) {
		m->type = SM_MV_PASS;
	} else if (!strcmp(w0, "done") || !strcmp(w0, "stop") || !strcmp(w0, "finish")) {
		m->type = SM_MV_DONE;
	} else if (!strcmp(w0, "explore")) {
		m->type = SM_MV_EXPLORE;
	} else if (!strcmp(w0, "load") || !strcmp(w0, "keep")) {
		m->type = SM_MV_LOAD;
	} else if (!strcmp(w0, "leave") || !strcmp(w0, "drop")) {
		m->type = SM_MV_LEAVE;
	} else if (!strcmp(w0, "lease")) {
		if (ws.n < 2 || (m->a = match_type(ws.w[1])) < 0)
			return expected(err, text, "lease scout or lease tug");
		m->type = SM_MV_LEASE_SHIP;
		i = 2;
	} else if (!strcmp(w0, "buy")) {
		if (ws.n >= 2 && (m->a = match_type(ws.w[1])) >= 0) {
			m->type = SM_MV_BUY_SHIP;
			i = 2;
		} else {
			m->type = SM_MV_BUY_CARD;
			if ((m->a = match_card(&ws, &i)) < 0)
				return expected(err, text, "buy scout, buy tug, buy <card> ship <n> or buy <refinery>");
			if (sm_cards[m->a].cat != SM_CARD_REFINERY &&
			    match_ship(&ws, &i, &m->b))
				return expected(err, text, "buy <pilot or gear> ship <n>, e.g. buy grapples ship 1");
		}
	} else if (!strcmp(w0, "repay") || !strcmp(w0, "pay")) {
		m->type = SM_MV_REPAY;
		if (match_ship(&ws, &i, &m->a))
			return expected(err, text, "repay ship <n>");
	} else if (!strcmp(w0, "replace") || !strcmp(w0, "swap")) {
		int j = i, d = match_dest(&ws, &j);

		if (d >= 0) {
			m->type = SM_MV_REPLACE_DEST;
			m->a = d;
			i = j;
		} else {
			m->type = SM_MV_REPLACE_CARDS;
			if ((m->a = match_card(&ws, &i)) < 0 || (m->b = match_card(&ws, &i)) < 0)
				return expected(err, text,
						"replace <card> <card> (two market cards) or replace <destination>");
			if (m->a > m->b) {
				v = m->a;
				m->a = m->b;
				m->b = v;
			}
		}
	} else if (!strcmp(w0, "claim")) {
		m->type = SM_MV_CLAIM;
		if ((m->a = match_kind(&ws, &i)) < 0)
			return expected(err, text, "claim <token>: ice-9, deuterium, cobalt, iridium or xenite");
	} else if (!strcmp(w0, "run")) {
		m->type = SM_MV_RUN;
		if (match_ship(&ws, &i, &m->a))
			return expected(err, text, "run ship <n>");
	} else if (!strcmp(w0, "pickup") || !strcmp(w0, "pick") || !strcmp(w0, "take")) {
		m->type = SM_MV_PICKUP;
		if (!strcmp(w0, "pick") && i < ws.n && !strcmp(ws.w[i], "up"))
			i++;
		if ((m->a = match_kind(&ws, &i)) < 0)
			return expected(err, text, "pickup <token> known|local|p<n>, e.g. pickup cobalt known");
		if (i >= ws.n)
			return expected(err, text, "where to pick up: known, local or p<n> (an opponent)");
		if (!strcmp(ws.w[i], "known") || !strcmp(ws.w[i], "space")) {
			m->b = SM_SRC_KNOWN;
			i++;
			if (i < ws.n && !strcmp(ws.w[i], "space"))
				i++;
		} else if (!strcmp(ws.w[i], "local") || !strcmp(ws.w[i], "mine") || !strcmp(ws.w[i], "own")) {
			m->b = SM_SRC_LOCAL;
			i++;
			if (i < ws.n && !strcmp(ws.w[i], "space"))
				i++;
		} else {
			int no = -1;

			if (!strcmp(ws.w[i], "player") && i + 1 < ws.n) {
				if (read_number(ws.w[i + 1], &no))
					no = -1;
				i += 2;
			} else if (ws.w[i][0] == 'p') {
				if (read_number(ws.w[i] + 1, &no))
					no = -1;
				i++;
			}
			if (no < 1 || no > SM_MAX_PLAYERS)
				return expected(err, text, "where to pick up: known, local or p1..p4");
			m->b = no - 1 == seat ? SM_SRC_LOCAL : SM_SRC_SEAT + no - 1;
		}
	} else if (!strcmp(w0, "end")) {
		if (ws.n >= 2 && !strcmp(ws.w[1], "game")) {
			m->type = SM_MV_END_GAME;
			i = 2;
		} else if (ws.n >= 2 && !strcmp(ws.w[1], "run")) {
			m->type = SM_MV_END_RUN;
			i = 2;
			if ((m->a = match_dest(&ws, &i)) < 0)
				return expected(err, text, "end run <destination>, e.g. end run foundry");
		} else {
			return expected(err, text, "end run <destination> or end game");
		}
	} else if (!strcmp(w0, "transfer")) {
		m->type = SM_MV_TRANSFER;
		if ((m->a = match_card(&ws, &i)) < 0 || match_ship(&ws, &i, &m->b))
			return expected(err, text, "transfer <card> ship <n>");
	} else if (!strcmp(w0, "set") || !strcmp(w0, "aside")) {
		m->type = SM_MV_SET_ASIDE;
		if (!strcmp(w0, "set") && (i >= ws.n || strcmp(ws.w[i], "aside")))
			return expected(err, text, "set aside <card>");
		if (!strcmp(w0, "set"))
			i++;
		if ((m->a = match_card(&ws, &i)) < 0)
			return expected(err, text, "set aside <card>");
	} else {
		return expected(err, text,
				"a step: stay, move, pass, buy, lease, repay, replace, claim, run, pickup, "
				"explore, load, leave, end run, transfer, set aside, end game or done");
	}
	if (i < ws.n)
		return err_set(err, ERR_INPUT, "cannot read \"%.80s\": unexpected \"%s\" at the end", text,
			       ws.w[i]);
	(void)s;
	return 0;
}

int sm_move_format(const struct sm_move *m, struct buf *out, struct err *err)
{
	switch (m->type) {
	case SM_MV_STAY: buf_adds(out, "stay"); break;
	case SM_MV_MOVE: buf_adds(out, "move"); break;
	case SM_MV_PASS: buf_adds(out, "pass"); break;
	case SM_MV_DONE: buf_adds(out, "done"); break;
	case SM_MV_EXPLORE: buf_adds(out, "explore"); break;
	case SM_MV_LOAD: buf_adds(out, "load"); break;
	case SM_MV_LEAVE: buf_adds(out, "leave"); break;
	case SM_MV_END_GAME: buf_adds(out, "end game"); break;
	case SM_MV_BUY_SHIP:
	case SM_MV_LEASE_SHIP:
		if (m->a < 0 || m->a >= SM_NTYPES)
			goto bad;
		buf_addf(out, "%s %s", m->type == SM_MV_BUY_SHIP ? "buy" : "lease", sm_type_slugs[m->a]);
		break;
	case SM_MV_REPAY: buf_addf(out, "repay ship %d", m->a); break;
	case SM_MV_RUN: buf_addf(out, "run ship %d", m->a); break;
	case SM_MV_REPLACE_CARDS:
		if (m->a < 0 || m->b < 0 || m->a >= SM_NCARDS || m->b >= SM_NCARDS)
			goto bad;
		buf_addf(out, "replace %s %s", sm_cards[m->a].slug, sm_cards[m->b].slug);
		break;
	case SM_MV_BUY_CARD:
		if (m->a < 0 || m->a >= SM_NCARDS)
			goto bad;
		if (sm_cards[m->a].cat == SM_CARD_REFINERY)
			buf_addf(out, "buy %s", sm_cards[m->a].slug);
		else
			buf_addf(out, "buy %s ship %d", sm_cards[m->a].slug, m->b);
		break;
	case SM_MV_CLAIM:
		if (m->a < 0 || m->a >= SM_NKINDS)
			goto bad;
		buf_addf(out, "claim %s", kind_slug(m->a));
		break;
	case SM_MV_PICKUP:
		if (m->a < 0 || m->a >= SM_NKINDS || m->b < 0 || m->b >= SM_SRC_SEAT + SM_MAX_PLAYERS)
			goto bad;
		if (m->b == SM_SRC_KNOWN)
			buf_addf(out, "pickup %s known", kind_slug(m->a));
		else if (m->b == SM_SRC_LOCAL)
			buf_addf(out, "pickup %s local", kind_slug(m->a));
		else
			buf_addf(out, "pickup %s p%d", kind_slug(m->a), m->b - SM_SRC_SEAT + 1);
		break;
	case SM_MV_REPLACE_DEST:
	case SM_MV_END_RUN:
		if (m->a < 0 || m->a >= SM_NDESTS)
			goto bad;
		buf_addf(out, "%s %s", m->type == SM_MV_END_RUN ? "end run" : "replace", sm_dests[m->a].slug);
		break;
	case SM_MV_TRANSFER:
		if (m->a < 0 || m->a >= SM_NCARDS)
			goto bad;
		buf_addf(out, "transfer %s ship %d", sm_cards[m->a].slug, m->b);
		break;
	case SM_MV_SET_ASIDE:
		if (m->a < 0 || m->a >= SM_NCARDS)
			goto bad;
		buf_addf(out, "set aside %s", sm_cards[m->a].slug);
		break;
	default:
		goto bad;
	}
	return 0;
bad:
	return err_set(err, ERR_INTERNAL, "Starship Merchants: cannot format move type %d", m->type);
}
