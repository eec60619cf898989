/* tests/games/picks_check.c: a game's picks at one position: every legal step cut, none alike, each offered part drawn */
/* SPDX-License-Identifier: MIT */
#include "picks_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

struct cut {
	struct game_pick p[GAME_MAX_PICKS];
	int n;
};

static int well_formed(const struct cut *c)
{
	for (int k = 0; k < c->n; k++) {
		if (!c->p[k].part[0] || !c->p[k].label[0])
			return 0;
		for (const char *s = c->p[k].part; *s; s++)
			if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
				return 0;
	}
	return 1;
}

/* The board for the parts offered after the first depth parts of base: each must be a link. */
static int board_draws(const struct game_ops *ops, const void *state, int seat, int nplayers, const struct cut *cuts,
		       size_t n, const struct cut *base, int depth)
{
	struct game_tap taps[128];
	char hrefs[128][16];
	const char *chosen[GAME_MAX_PICKS];
	int nt = 0, faults = 0;
	json_t *view = NULL, *seats = json_array();
	struct err e = { 0 };
	struct buf svg = BUF_INIT;

	for (int k = 0; k < depth; k++)
		chosen[k] = base->p[k].part;
	for (size_t i = 0; i < n && nt < 128; i++) {
		int same = cuts[i].n > depth, dup = 0;
		for (int k = 0; same && k < depth; k++)
			same = !strcmp(cuts[i].p[k].part, chosen[k]);
		if (!same)
			continue;
		for (int t = 0; t < nt; t++)
			dup |= !strcmp(taps[t].part, cuts[i].p[depth].part);
		if (dup)
			continue;
		snprintf(hrefs[nt], sizeof(hrefs[nt]), "#t%d", nt);
		taps[nt] = (struct game_tap){ cuts[i].p[depth].part, hrefs[nt], cuts[i].p[depth].label, cuts[i].p[depth].cost };
		nt++;
	}
	for (int s = 0; s < nplayers; s++)
		json_array_append_new(seats, json_pack("{s:i,s:s}", "seat", s, "name", s ? "Zed" : "Yara"));
	if (ops->view(state, seat, &view, &e) < 0) {
		printf("\n  view: %s", e.msg);
		faults++;
	} else {
		struct game_tapset set = { taps, nt, chosen, depth };
		struct game_board_in in = { view, seats, seat, &set };
		if (ops->board(&in, &svg, &e) < 0) {
			printf("\n  board: %s", e.msg);
			faults++;
		}
		for (int t = 0; t < nt && svg.data; t++) {
			char want[32];
			snprintf(want, sizeof(want), "href=\"%s\"", hrefs[t]);
			if (!strstr(svg.data, want)) {
				printf("\n  the board draws no tap for %s (after %d parts)", taps[t].part, depth);
				faults++;
			}
		}
		/* names, never marks, in what a person reads */
		if (svg.data && strchr(svg.data, GAME_NAME_MARK)) {
			printf("\n  the board shows a name mark: %.80s", strchr(svg.data, GAME_NAME_MARK));
			faults++;
		}
	}
	buf_release(&svg);
	json_decref(view);
	json_decref(seats);
	return faults;
}

int picks_check(const struct game_ops *ops, const void *state, int seat, int nplayers)
{
	struct err e = { 0 };
	json_t *legal = NULL;
	struct cut *cuts;
	size_t n;
	int faults = 0;

	if (ops->legal(state, seat, &legal, &e) < 0) {
		printf("\n  legal: %s", e.msg);
		return 1;
	}
	n = json_array_size(legal);
	cuts = calloc(n ? n : 1, sizeof(*cuts));
	for (size_t i = 0; i < n; i++) {
		const char *text = json_string_value(json_array_get(legal, i));
		void *m = NULL;
		if (ops->parse(state, seat, text, &m, &e) < 0) {
			printf("\n  %s does not parse: %s", text, e.msg);
			faults++;
			continue;
		}
		cuts[i].n = ops->picks(state, seat, m, cuts[i].p, GAME_MAX_PICKS, &e);
		ops->move_free(m);
		if (cuts[i].n < 1 || cuts[i].n > GAME_MAX_PICKS || !well_formed(&cuts[i])) {
			printf("\n  %s cuts into no well-formed parts (%s)", text, cuts[i].n < 0 ? e.msg : "");
			faults++;
			cuts[i].n = 0;
		}
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			int same = cuts[i].n && cuts[i].n == cuts[j].n;
			for (int k = 0; same && k < cuts[i].n; k++)
				same = !strcmp(cuts[i].p[k].part, cuts[j].p[k].part);
			if (same) {
				printf("\n  %s and %s have the same parts", json_string_value(json_array_get(legal, i)),
				       json_string_value(json_array_get(legal, j)));
				faults++;
			}
		}
	if (n && ops->board) {
		faults += board_draws(ops, state, seat, nplayers, cuts, n, &cuts[0], 0);
		for (size_t i = 0; i < n; i += 1 + n / 3)
			for (int d = 1; d < cuts[i].n; d++)
				faults += board_draws(ops, state, seat, nplayers, cuts, n, &cuts[i], d);
	}
	free(cuts);
	json_decref(legal);
	return faults;
}

int picks_of(const struct game_ops *ops, const void *state, int seat, const char *text, char *out, size_t size,
	     struct game_pick *last)
{
	struct err e = { 0 };
	struct game_pick p[GAME_MAX_PICKS];
	void *m = NULL;
	size_t len = 0;
	int n;

	out[0] = '\0';
	if (ops->parse(state, seat, text, &m, &e) < 0)
		return -1;
	n = ops->picks(state, seat, m, p, GAME_MAX_PICKS, &e);
	ops->move_free(m);
	for (int k = 0; k < n && len < size; k++)
		len += (size_t)snprintf(out + len, size - len, "%s%s", k ? " " : "", p[k].part);
	if (last && n > 0)
		*last = p[n - 1];
	return n > 0 ? 0 : -1;
}
