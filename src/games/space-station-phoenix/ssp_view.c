/* games/space-station-phoenix/ssp_view.c: snapshot encoding, player views and the result of Space Station Phoenix */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/space-station-phoenix/ssp_internal.h"
#include "util/banned.h"

#define SNAP_VERSION 1
#define PL_INTS 27 /* ints per player in the snapshot */

static const char res_char[6] = { '.', 't', 'b', 'p', 'g', 'h' };

static json_t *ints(const int *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static void pl_pack(const struct ssp_player *pl, int *o)
{
	int k = 0;

	for (int i = 0; i < 4; i++)
		o[k++] = pl->res[i];
	o[k++] = pl->points;
	o[k++] = pl->hub;
	o[k++] = pl->dealt[0];
	o[k++] = pl->dealt[1];
	for (int i = 0; i < 4; i++)
		o[k++] = pl->dip[i];
	o[k++] = pl->neutral;
	for (int i = 0; i < 5; i++)
		o[k++] = pl->hubq[i];
	o[k++] = pl->incomes;
	o[k++] = pl->conv;
	o[k++] = pl->nstand;
	for (int i = 0; i < 6; i++)
		o[k++] = pl->stand[i];
}

static void pl_unpack(struct ssp_player *pl, const int *o)
{
	int k = 0;

	for (int i = 0; i < 4; i++)
		pl->res[i] = o[k++];
	pl->points = o[k++];
	pl->hub = o[k++];
	pl->dealt[0] = o[k++];
	pl->dealt[1] = o[k++];
	for (int i = 0; i < 4; i++)
		pl->dip[i] = o[k++];
	pl->neutral = o[k++];
	for (int i = 0; i < 5; i++)
		pl->hubq[i] = o[k++];
	pl->incomes = o[k++];
	pl->conv = o[k++];
	pl->nstand = o[k++];
	for (int i = 0; i < 6; i++)
		pl->stand[i] = o[k++];
}

/* The residents of a sector as text: one letter per quarter, upper case when placed this turn. */
static void sector_text(const struct ssp_state *st, int i, char *out)
{
	int nq = ssp_sectors[i].nq;

	for (int q = 0; q < nq; q++) {
		char c = res_char[st->sec_res[i][q]];
		if (st->sec_res[i][q] && (st->sec_fresh[i] & (1 << q)))
			c = (char)(c - 'a' + 'A');
		out[q] = c;
	}
	out[nq] = '\0';
}

int ssp_json_encode(const struct ssp_state *st, json_t **out, struct err *err)
{
	json_t *o = json_object(), *res = json_object(), *pl = json_array(), *tk = json_array();
	int x[21], k = 0, opt[3] = { st->first_game, st->advanced, st->friendly };

	if (!o || !res || !pl || !tk) {
		json_decref(o);
		json_decref(res);
		json_decref(pl);
		json_decref(tk);
		return err_set(err, ERR_NOMEM, "out of memory");
	}
	json_object_set_new(o, "v", json_integer(SNAP_VERSION));
	json_object_set_new(o, "n", json_integer(st->nplayers));
	json_object_set_new(o, "opt", ints(opt, 3));
	x[k++] = st->phase;
	x[k++] = st->active;
	x[k++] = st->turn;
	x[k++] = st->draft_pos;
	x[k++] = st->acting;
	x[k++] = st->act_ship;
	x[k++] = st->act_once;
	for (int i = 0; i < 4; i++)
		x[k++] = st->act_gained[i];
	for (int i = 0; i < 4; i++)
		x[k++] = st->dice[i];
	x[k++] = st->dip_track;
	x[k++] = st->dip_mask;
	x[k++] = st->extra_turns;
	x[k++] = st->stalled;
	x[k++] = st->end_by;
	x[k++] = st->final_left;
	json_object_set_new(o, "x", ints(x, k));
	json_object_set_new(o, "ship", ints(st->ship_loc, SSP_NSHIPS));
	json_object_set_new(o, "used", ints(st->ship_used, SSP_NSHIPS));
	json_object_set_new(o, "sec", ints(st->sec_loc, SSP_NSECTORS));
	for (int i = 0; i < SSP_NSECTORS; i++) {
		char t[8], key[8];
		int any = 0;
		for (int q = 0; q < 6; q++)
			any |= st->sec_res[i][q];
		if (!any)
			continue;
		sector_text(st, i, t);
		snprintf(key, sizeof(key), "%d", ssp_sectors[i].id);
		json_object_set_new(res, key, json_string(t));
	}
	json_object_set_new(o, "res", res);
	{
		int sup[10];
		for (int i = 0; i < 4; i++) {
			sup[i] = st->aliens[i];
			sup[5 + i] = st->alien_total[i];
		}
		sup[4] = st->humans;
		sup[9] = st->human_total;
		json_object_set_new(o, "sup", ints(sup, 10));
	}
	for (int p = 0; p < st->nplayers; p++) {
		int v[PL_INTS];
		pl_pack(&st->pl[p], v);
		json_array_append_new(pl, ints(v, PL_INTS));
	}
	json_object_set_new(o, "pl", pl);
	for (int i = 0; i < st->ntask; i++) {
		int v[5] = { st->task[i].kind, st->task[i].a, st->task[i].b, st->task[i].c, st->task[i].d };
		json_array_append_new(tk, ints(v, 5));
	}
	json_object_set_new(o, "task", tk);
	*out = o;
	return 0;
}

static int get_ints(const json_t *o, const char *key, int *v, int n, struct err *err)
{
	const json_t *a = json_object_get(o, key);

	if (!json_is_array(a) || (int)json_array_size(a) != n)
		return err_set(err, ERR_INPUT, "snapshot: \"%s\" must be an array of %d integers", key, n);
	for (int i = 0; i < n; i++) {
		const json_t *e = json_array_get(a, (size_t)i);
		if (!json_is_integer(e))
			return err_set(err, ERR_INPUT, "snapshot: \"%s\"[%d] is not an integer", key, i);
		v[i] = (int)json_integer_value(e);
	}
	return 0;
}

static int get_arr(const json_t *a, int *v, int n)
{
	if (!json_is_array(a) || (int)json_array_size(a) != n)
		return -1;
	for (int i = 0; i < n; i++) {
		const json_t *e = json_array_get(a, (size_t)i);
		if (!json_is_integer(e))
			return -1;
		v[i] = (int)json_integer_value(e);
	}
	return 0;
}

int ssp_json_decode(const json_t *in, struct ssp_state *st, struct err *err)
{
	int x[21], opt[3], sup[10], rc, k = 0;
	const json_t *res, *pl, *tk, *val;
	const char *key;

	memset(st, 0, sizeof(*st));
	if (!json_is_object(in) || json_integer_value(json_object_get(in, "v")) != SNAP_VERSION)
		return err_set(err, ERR_INPUT, "snapshot: not a Space Station Phoenix snapshot of version %d", SNAP_VERSION);
	st->nplayers = (int)json_integer_value(json_object_get(in, "n"));
	if (st->nplayers < 2 || st->nplayers > SSP_MAXP)
		return err_set(err, ERR_INPUT, "snapshot: bad player count");
	if ((rc = get_ints(in, "opt", opt, 3, err)) < 0 || (rc = get_ints(in, "x", x, 21, err)) < 0 ||
	    (rc = get_ints(in, "ship", st->ship_loc, SSP_NSHIPS, err)) < 0 ||
	    (rc = get_ints(in, "used", st->ship_used, SSP_NSHIPS, err)) < 0 ||
	    (rc = get_ints(in, "sec", st->sec_loc, SSP_NSECTORS, err)) < 0 ||
	    (rc = get_ints(in, "sup", sup, 10, err)) < 0)
		return rc;
	st->first_game = opt[0];
	st->advanced = opt[1];
	st->friendly = opt[2];
	st->phase = x[k++];
	st->active = x[k++];
	st->turn = x[k++];
	st->draft_pos = x[k++];
	st->acting = x[k++];
	st->act_ship = x[k++];
	st->act_once = x[k++];
	for (int i = 0; i < 4; i++)
		st->act_gained[i] = x[k++];
	for (int i = 0; i < 4; i++)
		st->dice[i] = x[k++];
	st->dip_track = x[k++];
	st->dip_mask = x[k++];
	st->extra_turns = x[k++];
	st->stalled = x[k++];
	st->end_by = x[k++];
	st->final_left = x[k++];
	if (st->phase < PH_DRAFT3 || st->phase > PH_OVER || st->active < 0 || st->active >= st->nplayers ||
	    st->dip_track < 0 || st->dip_track > 3 || st->act_ship < -1 || st->act_ship >= SSP_NSHIPS)
		return err_set(err, ERR_INPUT, "snapshot: bad turn state");
	for (int i = 0; i < 4; i++) {
		st->aliens[i] = sup[i];
		st->alien_total[i] = sup[5 + i];
	}
	st->humans = sup[4];
	st->human_total = sup[9];
	res = json_object_get(in, "res");
	if (!json_is_object(res))
		return err_set(err, ERR_INPUT, "snapshot: \"res\" must be an object");
	json_object_foreach((json_t *)res, key, val) {
		char *end;
		long id = strtol(key, &end, 10);
		int idx = (*end || id < 101 || id > 328) ? -1 : ssp_data_sector_find((int)id);
		const char *t = json_string_value(val);
		if (idx < 0 || !t || (int)strlen(t) != ssp_sectors[idx].nq)
			return err_set(err, ERR_INPUT, "snapshot: bad residents for Sector %s", key);
		for (int q = 0; t[q]; q++) {
			char c = t[q];
			int fresh = c >= 'A' && c <= 'Z', kind = -1;
			if (fresh)
				c = (char)(c - 'A' + 'a');
			for (int r = 0; r < 6; r++)
				if (res_char[r] == c)
					kind = r;
			if (kind < 0)
				return err_set(err, ERR_INPUT, "snapshot: bad resident '%c' in Sector %s", t[q], key);
			st->sec_res[idx][q] = kind;
			if (fresh)
				st->sec_fresh[idx] |= 1 << q;
		}
	}
	pl = json_object_get(in, "pl");
	if (!json_is_array(pl) || (int)json_array_size(pl) != st->nplayers)
		return err_set(err, ERR_INPUT, "snapshot: \"pl\" must hold one array per player");
	for (int p = 0; p < st->nplayers; p++) {
		int v[PL_INTS];
		if (get_arr(json_array_get(pl, (size_t)p), v, PL_INTS) < 0)
			return err_set(err, ERR_INPUT, "snapshot: player %d must be %d integers", p, PL_INTS);
		pl_unpack(&st->pl[p], v);
		if (st->pl[p].hub < -1 || st->pl[p].hub >= SSP_NHUBS || st->pl[p].nstand < 0 || st->pl[p].nstand > 6)
			return err_set(err, ERR_INPUT, "snapshot: bad player %d", p);
	}
	for (int p = st->nplayers; p < SSP_MAXP; p++) {
		st->pl[p].hub = st->pl[p].dealt[0] = st->pl[p].dealt[1] = -1;
		st->pl[p].neutral = -1;
	}
	tk = json_object_get(in, "task");
	if (!json_is_array(tk) || json_array_size(tk) > SSP_MAXTASK)
		return err_set(err, ERR_INPUT, "snapshot: bad task list");
	st->ntask = (int)json_array_size(tk);
	for (int i = 0; i < st->ntask; i++) {
		int v[5];
		if (get_arr(json_array_get(tk, (size_t)i), v, 5) < 0 || v[0] <= TK_NONE || v[0] > TK_CONVERT)
			return err_set(err, ERR_INPUT, "snapshot: bad task %d", i);
		st->task[i] = (struct ssp_task){ v[0], v[1], v[2], v[3], v[4] };
	}
	return 0;
}

/* ------------------------------------------------------------------ view */

static const char *ship_where(const struct ssp_state *st, int s, int seat, char *buf, size_t n)
{
	int loc = st->ship_loc[s];

	if (loc >= 0 && loc < SSP_MAXP)
		snprintf(buf, n, "p%d", loc + 1);
	else if (loc == SL_NEUTRAL)
		snprintf(buf, n, "neutral");
	else if (loc == SL_DISPLAY)
		snprintf(buf, n, "display");
	else if (loc >= SL_DRAWN && loc < SL_DRAWN + SSP_MAXP)
		snprintf(buf, n, "drawn-p%d", loc - SL_DRAWN + 1);
	else
		return NULL;
	(void)seat;
	return buf;
}

/*
 * What each living quarter gives once a resident is in it, so a person can
 * play without the printed Sector: income (kind and amount per Income
 * action), the Sector's ability, its end-of-game bonus, or nothing.
 */
static json_t *quarters_json(const struct ssp_state *st, int i)
{
	static const char *const kinds[6] = { NULL, "teal", "brown", "pink", "gold", "human" };
	static const char *const res[4] = { "food", "water", "metal", "gems" };
	const struct ssp_sector_info *s = &ssp_sectors[i];
	json_t *a = json_array();

	for (int q = 0; q < s->nq; q++) {
		json_t *o = json_object();
		int v = s->q[q], r = st->sec_res[i][q];

		json_object_set_new(o, "resident", r ? json_string(kinds[r]) : json_null());
		if (v == Q_ABIL) {
			json_object_set_new(o, "gives", json_string("ability"));
		} else if (v == Q_END) {
			json_object_set_new(o, "gives", json_string("end_bonus"));
		} else if (v >= QF(0) && v < QG(0) + 10) {
			json_object_set_new(o, "gives", json_string("income"));
			json_object_set_new(o, "income", json_pack("{s:i}", res[v / 10 - 1], v % 10));
		} else {
			json_object_set_new(o, "gives", json_string("nothing"));
		}
		json_array_append_new(a, o);
	}
	return a;
}

/* A Station Hub as the view shows it: both sides and its GEM income rate. */
static json_t *hub_json(int h)
{
	const struct ssp_hub_info *hi = &ssp_hubs[h];

	return json_pack("{s:s,s:s,s:s,s:{s:i,s:i}}", "id", hi->id, "setup", hi->setup, "text", hi->text, "income",
			 "gems_per_ship", hi->per_ship, "gems", hi->flat);
}

/*
 * The Diplomacy board: the lobbying cost of each step and the bonus of each
 * step of each track, with who may take what (as bonus_rights decides).
 */
static json_t *diplomacy_json(void)
{
	static const char *const res[3] = { "1 food", "1 water", "1 metal" };
	json_t *o = json_object(), *cost = json_array(), *tracks = json_object();

	for (int l = 1; l <= 5; l++)
		json_array_append_new(cost, json_pack("{s:i,s:i}", "level", l, "gems", ssp_lobby_cost[l]));
	for (int t = 0; t < 4; t++) {
		json_t *steps = json_array();

		json_array_append_new(steps, json_pack("{s:i,s:s}", "level", 0, "bonus", "1 GEM"));
		json_array_append_new(steps, json_pack("{s:i,s:s}", "level", 1, "bonus", "2 GEMs"));
		json_array_append_new(steps, json_pack("{s:i,s:s}", "level", 2, "bonus", "1 point"));
		json_array_append_new(steps, json_pack("{s:i,s:s}", "level", 3, "bonus", res[ssp_track_res[t]]));
		json_array_append_new(steps, json_pack("{s:i,s:s}", "level", 4, "bonus",
						       "two different bonuses of levels 0-3 (sole leader)"));
		json_array_append_new(steps, json_pack("{s:i,s:s}", "level", 5, "bonus",
						       "two different bonuses of levels 0-3"));
		json_object_set_new(tracks, ssp_text_track(t), steps);
	}
	json_object_set_new(o, "lobbying_cost", cost);
	json_object_set_new(o, "tracks", tracks);
	json_object_set_new(o, "how",
			    json_string("after a ship of a track's type is used, everyone on that track takes one bonus: "
					"the sole leader up to their own level (at most 3), others up to one level below "
					"theirs; two different bonuses at level 4 as sole leader or at level 5"));
	return o;
}

static json_t *sector_json(const struct ssp_state *st, int i)
{
	const struct ssp_sector_info *s = &ssp_sectors[i];
	char t[8];
	json_t *o = json_object();

	sector_text(st, i, t);
	json_object_set_new(o, "id", json_integer(s->id));
	json_object_set_new(o, "level", json_integer(s->level));
	json_object_set_new(o, "colour", json_string((const char *[]){ "teal", "brown", "pink" }[s->colour]));
	json_object_set_new(o, "cost", json_integer(s->cost));
	json_object_set_new(o, "quarters", json_string(t));
	json_object_set_new(o, "living_quarters", quarters_json(st, i));
	if (s->text[0])
		json_object_set_new(o, "ability", json_string(s->text));
	return o;
}

int ssp_json_view(const struct ssp_state *st, int seat, json_t **out, struct err *err)
{
	json_t *o = json_object(), *players = json_array(), *ships = json_array(), *display = json_array();
	char kind[32], prompt[200];
	unsigned who = ssp_rules_pending(st, kind, sizeof(kind), prompt, sizeof(prompt));
	int deck2 = 0, deck3 = 0;

	if (!o || !players || !ships || !display) {
		json_decref(o);
		json_decref(players);
		json_decref(ships);
		json_decref(display);
		return err_set(err, ERR_NOMEM, "out of memory");
	}
	json_object_set_new(o, "game", json_string("space-station-phoenix"));
	json_object_set_new(o, "seat", json_integer(seat));
	json_object_set_new(o, "turn", json_integer(st->turn));
	json_object_set_new(o, "active", json_integer(st->active));
	json_object_set_new(o, "phase", json_string((const char *[]){ "draft-level-3", "draft-level-2", "hub", "setup",
								      "turn", "diplomacy", "over" }[st->phase]));
	{
		json_t *pend = json_array();
		for (int p = 0; p < st->nplayers; p++)
			if (who & (1u << p))
				json_array_append_new(pend, json_integer(p));
		json_object_set_new(o, "pending", pend);
		json_object_set_new(o, "decision", json_string(kind));
		json_object_set_new(o, "prompt", json_string(prompt));
	}
	json_object_set_new(o, "options", json_pack("{s:b,s:b,s:b}", "first_game", st->first_game, "advanced", st->advanced,
						     "friendly", st->friendly));
	{
		int sup[5] = { st->aliens[0], st->aliens[1], st->aliens[2], st->aliens[3], st->humans };
		json_object_set_new(o, "supply", json_pack("{s:i,s:i,s:i,s:i,s:i}", "teal", sup[0], "brown", sup[1], "pink",
							    sup[2], "gold", sup[3], "human", sup[4]));
	}
	for (int s = 0; s < SSP_NSHIPS; s++) {
		char wbuf[16];
		const char *w = ship_where(st, s, seat, wbuf, sizeof(wbuf));
		const struct ssp_ship_info *sh = &ssp_ships[s];
		json_t *j;
		if (st->ship_loc[s] == SL_DECK) {
			if (sh->level == 2)
				deck2++;
			else
				deck3++;
		}
		if (!w)
			continue;
		j = json_pack("{s:s,s:s,s:i,s:s,s:i,s:i,s:i}", "id", sh->id, "where", w, "level", sh->level, "type",
			      (const char *[]){ "dismantle", "construct", "transport", "expedition", "diplomacy", "farm",
						"ice" }[sh->type],
			      "cost", sh->cost, "fee", sh->fee, "metal", sh->metal);
		if (sh->type == SSP_TRANSPORT || sh->type == SSP_FARM || sh->type == SSP_ICE || sh->type == SSP_DIPLOMACY ||
		    sh->type == SSP_DISMANTLE || sh->type == SSP_CONSTRUCT)
			json_object_set_new(j, "power", json_integer(sh->power));
		if (sh->type == SSP_EXPEDITION) {
			json_object_set_new(j, "roll", json_integer(sh->roll));
			json_object_set_new(j, "keep", json_integer(sh->keep));
		}
		json_object_set_new(j, "used", json_boolean(st->ship_used[s] != 0));
		if (st->ship_used[s])
			json_object_set_new(j, "used_by", json_integer(st->ship_used[s] - 1));
		if (seat >= 0 && seat < st->nplayers && (st->ship_loc[s] == SL_NEUTRAL || (st->ship_loc[s] >= 0 && st->ship_loc[s] < SSP_MAXP)))
			json_object_set_new(j, "your_cost", json_integer(ssp_rules_cost(st, seat, s)));
		json_array_append_new(ships, j);
	}
	json_object_set_new(o, "ships", ships);
	json_object_set_new(o, "deck", json_pack("{s:i,s:i}", "level2", deck2, "level3", deck3));
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (st->sec_loc[i] == SEC_DISPLAY)
			json_array_append_new(display, sector_json(st, i));
	json_object_set_new(o, "sectors", display);
	for (int p = 0; p < st->nplayers; p++) {
		const struct ssp_player *pl = &st->pl[p];
		json_t *j = json_object(), *station = json_array(), *priv = json_array(), *stand = json_array();
		json_object_set_new(j, "seat", json_integer(p));
		json_object_set_new(j, "points", json_integer(pl->points));
		json_object_set_new(j, "gems", json_integer(pl->res[SSP_GEM]));
		json_object_set_new(j, "food", json_integer(pl->res[SSP_FOOD]));
		json_object_set_new(j, "water", json_integer(pl->res[SSP_WATER]));
		json_object_set_new(j, "metal", json_integer(pl->res[SSP_METAL]));
		json_object_set_new(j, "hub", pl->hub >= 0 ? json_string(ssp_hubs[pl->hub].id) : json_null());
		if (pl->hub >= 0) {
			json_object_set_new(j, "hub_text", json_string(ssp_hubs[pl->hub].text));
			json_object_set_new(j, "hub_info", hub_json(pl->hub));
		}
		/* no hidden information: every seat and spectator sees every player's dealt hubs */
		if (pl->dealt[0] >= 0) {
			json_t *d = json_array();
			for (int i = 0; i < 2; i++)
				json_array_append_new(d, hub_json(pl->dealt[i]));
			json_object_set_new(j, "dealt_hubs", d);
		}
		json_object_set_new(j, "diplomacy", json_pack("{s:i,s:i,s:i,s:i}", "dismantle", pl->dip[0], "construct",
							       pl->dip[1], "transport", pl->dip[2], "expedition", pl->dip[3]));
		json_object_set_new(j, "neutral_token", pl->neutral >= 0 ? json_string(ssp_ships[pl->neutral].id) : json_null());
		for (int i = 0; i < SSP_NSECTORS; i++) {
			if (st->sec_loc[i] == p)
				json_array_append_new(station, sector_json(st, i));
			else if (st->sec_loc[i] == SEC_PRIVATE + p)
				json_array_append_new(priv, sector_json(st, i));
		}
		json_object_set_new(j, "station", station);
		if (json_array_size(priv))
			json_object_set_new(j, "private_sectors", priv);
		else
			json_decref(priv);
		if (pl->hubq[0] || pl->hubq[1] || pl->hubq[2] || pl->hubq[3] || pl->hubq[4]) {
			char t[6];
			for (int q = 0; q < 5; q++)
				t[q] = res_char[pl->hubq[q]];
			t[5] = '\0';
			json_object_set_new(j, "hub_quarters", json_string(t));
		}
		{
			int c[6];
			ssp_rules_residents(st, p, c);
			json_object_set_new(j, "residents", json_pack("{s:i,s:i,s:i,s:i,s:i}", "teal", c[1], "brown", c[2], "pink",
								       c[3], "gold", c[4], "human", c[5]));
		}
		for (int i = 0; i < pl->nstand; i++)
			json_array_append_new(stand, json_string(ssp_text_bonus(pl->stand[i])));
		json_object_set_new(j, "standing_diplomacy", stand);
		json_array_append_new(players, j);
	}
	json_object_set_new(o, "players", players);
	{
		/* each seat's score now (the points so far; the end adds the station's), as the lobby shows it */
		json_t *scores = json_array();
		for (int p = 0; p < st->nplayers; p++)
			json_array_append_new(scores, json_integer(st->pl[p].points));
		json_object_set_new(o, "scores", scores);
	}
	json_object_set_new(o, "diplomacy_board", diplomacy_json());
	if (st->ntask > 0 && st->task[0].kind == TK_DICE && st->task[0].c == 0)
		json_object_set_new(o, "dice", json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "food", st->dice[0], "water", st->dice[1],
							  "metal", st->dice[2], "human", st->dice[3], "keep", st->task[0].a,
							  "rerolls", st->task[0].b));
	if (st->phase == PH_DIPLO)
		json_object_set_new(o, "diplomacy_track", json_string(ssp_text_track(st->dip_track)));
	if (st->end_by >= 0)
		json_object_set_new(o, "end", json_pack("{s:i,s:i}", "triggered_by", st->end_by, "turns_left", st->final_left));
	if (st->phase == PH_OVER) {
		json_t *r = ssp_json_result(st);
		if (r)
			json_object_set_new(o, "result", r);
	}
	*out = o;
	return 0;
}

/* ------------------------------------------------------------------ result */

json_t *ssp_json_result(const struct ssp_state *st)
{
	int sc[SSP_MAXP][SC_NCAT], n = st->nplayers, al[SSP_MAXP], hu[SSP_MAXP], used_tb = 0;
	json_t *o, *scores, *ranks, *winners, *sheet;
	static const char *const cat[SC_NCAT] = { "points", "sectors", "residents", "humans", "gold", "teal", "pink", "brown",
						  "bonuses", "leftovers", "total" };

	if (st->phase != PH_OVER)
		return NULL;
	ssp_rules_score(st, sc);
	for (int p = 0; p < n; p++) {
		int c[6];
		ssp_rules_residents(st, p, c);
		al[p] = c[1] + c[2] + c[3] + c[4];
		hu[p] = c[5];
	}
	o = json_object();
	scores = json_array();
	ranks = json_array();
	winners = json_array();
	sheet = json_array();
	for (int p = 0; p < n; p++) {
		int rank = 1;
		json_t *row = json_object();
		for (int q = 0; q < n; q++) {
			if (q == p)
				continue;
			if (sc[q][SC_TOTAL] > sc[p][SC_TOTAL] ||
			    (sc[q][SC_TOTAL] == sc[p][SC_TOTAL] &&
			     (al[q] > al[p] || (al[q] == al[p] && hu[q] > hu[p]))))
				rank++;
			if (sc[q][SC_TOTAL] == sc[p][SC_TOTAL])
				used_tb = 1;
		}
		json_array_append_new(scores, json_integer(sc[p][SC_TOTAL]));
		json_array_append_new(ranks, json_integer(rank));
		if (rank == 1)
			json_array_append_new(winners, json_integer(p));
		for (int c = 0; c < SC_NCAT; c++)
			json_object_set_new(row, cat[c], json_integer(sc[p][c]));
		json_array_append_new(sheet, row);
	}
	json_object_set_new(o, "scores", scores);
	json_object_set_new(o, "ranks", ranks);
	json_object_set_new(o, "winners", winners);
	json_object_set_new(o, "tiebreak", json_string(used_tb ? "tied totals: most Aliens, then most Humans; still tied players share"
							     : "none needed"));
	json_object_set_new(o, "sheet", sheet);
	return o;
}
