/* tests/games/starship-merchants/sm_testlib.c: helpers shared by the Starship Merchants tests */
/* SPDX-License-Identifier: MIT */
#include "sm_testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "games/starship-merchants/starship_merchants.h"

#include "util/banned.h"

struct sm_state *t_new(int n, uint64_t seed, struct rng *rng)
{
	void *s = NULL;
	struct err e = { 0 };

	rng_seed(rng, seed);
	if (game_starship_merchants.setup(NULL, n, rng, &s, &e))
		return NULL;
	return s;
}

int t_do(struct sm_state *s, int seat, const char *text, struct rng *rng, struct err *e)
{
	void *m = NULL;
	int rc;

	err_clear(e);
	rc = game_starship_merchants.parse(s, seat, text, &m, e);
	if (rc)
		return rc;
	rc = game_starship_merchants.apply(s, seat, m, rng, e);
	game_starship_merchants.move_free(m);
	return rc;
}

int t_ok(struct sm_state *s, const char *text, struct rng *rng)
{
	struct err e = { 0 };
	int rc = t_do(s, s->cur, text, rng, &e);

	if (rc < 0)
		fprintf(stderr, "\n  step \"%s\" refused: %s\n", text, e.msg);
	CU_ASSERT(rc >= 0);
	return rc;
}

int t_give_ship(struct sm_state *s, int seat, int mark, int type, int loans)
{
	struct sm_player *pl = &s->p[seat];
	struct sm_ship *sh = &pl->ships[pl->nships++];

	memset(sh, 0, sizeof(*sh));
	sh->no = pl->next_no++;
	sh->mark = mark;
	sh->type = type;
	sh->loans = loans;
	sh->pilot = -1;
	sh->dest = -1;
	return sh->no;
}

int t_legal_has(const struct sm_state *s, int seat, const char *text)
{
	json_t *arr = NULL;
	struct err e = { 0 };
	int found = 0;

	if (game_starship_merchants.legal(s, seat, &arr, &e))
		return 0;
	for (size_t i = 0; i < json_array_size(arr); i++)
		if (strcmp(json_string_value(json_array_get(arr, i)), text) == 0)
			found = 1;
	json_decref(arr);
	return found;
}

int t_invariants(const struct sm_state *s, const int totals[SM_NKINDS], char *why, size_t size)
{
	int now[SM_NKINDS];

	sm_state_token_totals(s, now);
	for (int k = 0; k < SM_NKINDS; k++)
		if (now[k] != totals[k]) {
			snprintf(why, size, "%s tokens: %d in play, expected %d", sm_kinds[k].slug, now[k], totals[k]);
			return -1;
		}
	for (int k = 0; k < SM_NKINDS; k++)
		if (s->bag[k] < 0 || s->known[k] < 0) {
			snprintf(why, size, "negative token count");
			return -1;
		}
	for (int p = 0; p < s->n; p++) {
		const struct sm_player *pl = &s->p[p];

		if (pl->credits < 0) {
			snprintf(why, size, "p%d has %d credits", p + 1, pl->credits);
			return -1;
		}
		for (int k = 0; k < SM_NKINDS; k++)
			if (pl->local[k] < 0 || pl->lclaim[k] < 0 || pl->setup[k] < 0) {
				snprintf(why, size, "p%d negative local tokens", p + 1);
				return -1;
			}
		for (int m = 1; m <= SM_NMARKS; m++)
			if (sm_owned_of_mark(pl, m) > sm_consts.mark_limit[m - 1]) {
				snprintf(why, size, "p%d owns %d Mark %d ships", p + 1, sm_owned_of_mark(pl, m), m);
				return -1;
			}
		for (int i = 0; i < pl->nships; i++) {
			const struct sm_ship *sh = &pl->ships[i];

			if (sm_ship_load(sh) > sm_ship_capacity(sh)) {
				snprintf(why, size, "p%d ship %d carries %d of %d", p + 1, sh->no, sm_ship_load(sh),
					 sm_ship_capacity(sh));
				return -1;
			}
			if (sh->ngear > SM_MAX_GEAR || sh->loans < 0 || sh->loans > 2 || sh->mark > s->era) {
				snprintf(why, size, "p%d ship %d: bad gear, loans or mark", p + 1, sh->no);
				return -1;
			}
			for (int k = 0; k < SM_NKINDS; k++)
				if (sh->cargo[k] < 0 || sh->claimed[k] < 0 || sh->claimed[k] > sh->cargo[k]) {
					snprintf(why, size, "p%d ship %d: bad cargo", p + 1, sh->no);
					return -1;
				}
		}
	}
	for (int m = 0; m < SM_NMARKS; m++)
		for (int t = 0; t < SM_NTYPES; t++)
			if (s->supply[m][t] < 0) {
				snprintf(why, size, "negative ship supply");
				return -1;
			}
	return 0;
}
