/* games/alien-frontiers/af_view.c: snapshot encode/decode, the view JSON, pending and result */
/* SPDX-License-Identifier: MIT */
#include "games/alien-frontiers/af_internal.h"

#include <stdio.h>
#include <string.h>

#include "util/banned.h"

#define AF_SNAPSHOT_VERSION 1

/*
 * The snapshot: {"v":1,"n":players,"t":turn,"b":board} where board is a
 * string of base-64 digits (0-9 a-z A-Z - _), one per small number (two for
 * fuel, ore and the 12-bit card sets), in the order written by encode_board
 * (documented in docs/games/alien-frontiers.md).
 */
static const char b64[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";

static int b64_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 36;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

static int board_len(int n, int nrolled)
{
	return 2 + 4 * n + 2 * AF_NSHIPS + 1 + 2 * n + AF_NTERR * n + AF_NFIELD + 2 * AF_NCARD + 3 + 2 * n + 1 + nrolled + 11;
}

static void encode_board(const struct af_state *s, char *b)
{
	int k = 0;

#define PUT(x) (b[k++] = b64[(x) & 63])
	PUT(s->cur);
	PUT(s->over ? s->ender + 1 : 0);
	for (int p = 0; p < s->n; p++) {
		PUT(s->fuel[p]);
		PUT(s->fuel[p] >> 6);
		PUT(s->ore[p]);
		PUT(s->ore[p] >> 6);
	}
	for (int i = 0; i < AF_NSHIPS; i++) {
		PUT(s->loc[i]);
		PUT(s->val[i]);
	}
	PUT(s->relic_owner + 1);
	for (int p = 0; p < s->n; p++) {
		PUT(s->supply[p]);
		PUT(s->hub[p]);
	}
	for (int t = 0; t < AF_NTERR; t++)
		for (int p = 0; p < s->n; p++)
			PUT(s->col[t][p]);
	for (int f = 0; f < AF_NFIELD; f++)
		PUT(s->field[f] + 1);
	for (int c = 0; c < AF_NCARD; c++)
		PUT(s->deck[c]);
	for (int c = 0; c < AF_NCARD; c++)
		PUT(s->disc[c]);
	for (int i = 0; i < 3; i++)
		PUT(s->disp[i] + 1);
	for (int p = 0; p < s->n; p++) {
		PUT(s->hand[p]);
		PUT(s->hand[p] >> 6);
	}
	PUT(s->nrolled);
	for (int i = 0; i < s->nrolled; i++)
		PUT(s->rolled[i]);
	PUT(s->used);
	PUT(s->used >> 6);
	PUT(s->discarded);
	PUT(s->art_sum);
	PUT(s->cycles);
	PUT(s->mine_docked);
	PUT(s->hub_docked);
	PUT(s->asimov_done);
	PUT(s->hub_excess);
	PUT(s->borrow + 1);
	PUT(s->raid);
#undef PUT
	b[k] = 0;
}

int af__encode(const struct af_state *s, json_t **out)
{
	char b[256];
	json_t *o = json_object();

	encode_board(s, b);
	json_object_set_new(o, "v", json_integer(AF_SNAPSHOT_VERSION));
	json_object_set_new(o, "n", json_integer(s->n));
	json_object_set_new(o, "t", json_integer(s->turn));
	json_object_set_new(o, "b", json_stringn(b, strlen(b)));
	*out = o;
	return 0;
}

static int get_int(const json_t *in, const char *key, int *v, int lo, int hi, struct err *err)
{
	const json_t *x = json_object_get(in, key);

	if (!json_is_integer(x) || json_integer_value(x) < lo || json_integer_value(x) > hi)
		return err_set(err, ERR_INPUT, "Alien Frontiers snapshot: '%s' must be an integer in %d..%d.", key, lo, hi);
	*v = (int)json_integer_value(x);
	return 0;
}

#define BADSNAP(...) err_set(err, ERR_INPUT, "Alien Frontiers snapshot: " __VA_ARGS__)

int af__decode(const json_t *in, struct af_state *s, struct err *err)
{
	int x, n, rc, k = 0, len, v[256];
	const json_t *b;
	const char *str;

	memset(s, 0, sizeof(*s));
	if (!json_is_object(in))
		return BADSNAP("expected a JSON object.");
	if ((rc = get_int(in, "v", &x, AF_SNAPSHOT_VERSION, AF_SNAPSHOT_VERSION, err)) ||
	    (rc = get_int(in, "n", &n, 2, AF_MAXP, err)))
		return rc;
	s->n = (uint8_t)n;
	if ((rc = get_int(in, "t", &x, 1, 65535, err)))
		return rc;
	s->turn = (uint16_t)x;
	b = json_object_get(in, "b");
	if (!json_is_string(b))
		return BADSNAP("'b' must be a string.");
	str = json_string_value(b);
	len = (int)json_string_length(b);
	if (len < board_len(n, 0) || len > board_len(n, AF_MAXHAND))
		return BADSNAP("'b' has %d characters; expected %d to %d.", len, board_len(n, 0), board_len(n, AF_MAXHAND));
	for (int i = 0; i < len; i++)
		if ((v[i] = b64_val(str[i])) < 0)
			return BADSNAP("'b' holds '%c', which is not a base-64 digit.", str[i]);

#define GET(lo, hi, what) \
	(x = v[k++], (x < (lo) || x > (hi)) ? (BADSNAP("%s out of range (%d).", (what), x), 0) : 1)
	if (!GET(0, n - 1, "the seat on turn"))
		return ERR_INPUT;
	s->cur = (uint8_t)x;
	if (!GET(0, n, "the game's end"))
		return ERR_INPUT;
	s->over = x > 0;
	s->ender = (uint8_t)(x > 0 ? x - 1 : 0);
	for (int p = 0; p < n; p++) {
		s->fuel[p] = (int16_t)(v[k] | v[k + 1] << 6);
		s->ore[p] = (int16_t)(v[k + 2] | v[k + 3] << 6);
		k += 4;
	}
	for (int i = 0; i < AF_NSHIPS; i++) {
		if (!GET(0, AF_LOC_FAC + AF_NFAC - 1, "a ship's place"))
			return ERR_INPUT;
		s->loc[i] = (uint8_t)x;
		if (!GET(0, 6, "a ship's value"))
			return ERR_INPUT;
		s->val[i] = (uint8_t)x;
		if ((s->loc[i] == AF_LOC_BURROUGHS && i != AF_RELIC) || (i == AF_RELIC && s->loc[i] == AF_LOC_STOCK) ||
		    (i / AF_SHIPS_PER >= n && i != AF_RELIC && s->loc[i] != AF_LOC_STOCK))
			return BADSNAP("ship %d has an impossible place.", i);
	}
	if (!GET(0, n, "the Relic Ship's owner"))
		return ERR_INPUT;
	s->relic_owner = (int8_t)(x - 1);
	if ((s->relic_owner < 0) != (s->loc[AF_RELIC] == AF_LOC_BURROUGHS))
		return BADSNAP("the Relic Ship's owner and place disagree.");
	for (int p = 0; p < n; p++) {
		if (!GET(0, 8, "a colony supply"))
			return ERR_INPUT;
		s->supply[p] = (uint8_t)x;
		if (!GET(0, AF_HUB_TOP, "a Colonist Hub circle"))
			return ERR_INPUT;
		s->hub[p] = (uint8_t)x;
	}
	for (int t = 0; t < AF_NTERR; t++)
		for (int p = 0; p < n; p++) {
			if (!GET(0, 8, "a colony count"))
				return ERR_INPUT;
			s->col[t][p] = (uint8_t)x;
		}
	for (int f = 0; f < AF_NFIELD; f++) {
		if (!GET(0, AF_NTERR, "a field generator's place"))
			return ERR_INPUT;
		s->field[f] = (int8_t)(x - 1);
	}
	for (int c = 0; c < 2 * AF_NCARD; c++) {
		if (!GET(0, 2, "a card count"))
			return ERR_INPUT;
		if (c < AF_NCARD)
			s->deck[c] = (uint8_t)x;
		else
			s->disc[c - AF_NCARD] = (uint8_t)x;
	}
	for (int i = 0; i < 3; i++) {
		if (!GET(0, AF_NCARD, "a displayed card"))
			return ERR_INPUT;
		s->disp[i] = (int8_t)(x - 1);
	}
	for (int p = 0; p < n; p++) {
		int lo = v[k++];

		if (!GET(0, (1 << (AF_NCARD - 6)) - 1, "a hand of cards"))
			return ERR_INPUT;
		s->hand[p] = (uint16_t)(lo | x << 6);
	}
	if (!GET(0, AF_MAXHAND, "the number of dice rolled"))
		return ERR_INPUT;
	s->nrolled = (uint8_t)x;
	if (len != board_len(n, s->nrolled))
		return BADSNAP("'b' has %d characters; expected %d.", len, board_len(n, s->nrolled));
	for (int i = 0; i < s->nrolled; i++) {
		if (!GET(1, 6, "a rolled die"))
			return ERR_INPUT;
		s->rolled[i] = (uint8_t)x;
	}
	{
		int lo = v[k++];

		if (!GET(0, (1 << (AF_NCARD - 6)) - 1, "the cards used"))
			return ERR_INPUT;
		s->used = (uint16_t)(lo | x << 6);
	}
	if (!GET(0, 1, "the discard flag"))
		return ERR_INPUT;
	s->discarded = (uint8_t)x;
	if (!GET(0, 63, "the artifact total"))
		return ERR_INPUT;
	s->art_sum = (uint8_t)x;
	if (!GET(0, 63, "the cycles left"))
		return ERR_INPUT;
	s->cycles = (uint8_t)x;
	if (!GET(0, 1, "the Lunar Mine flag"))
		return ERR_INPUT;
	s->mine_docked = (uint8_t)x;
	if (!GET(0, 63, "the Colonist Hub ships"))
		return ERR_INPUT;
	s->hub_docked = (uint8_t)x;
	if (!GET(0, 1, "the Asimov Crater flag"))
		return ERR_INPUT;
	s->asimov_done = (uint8_t)x;
	if (!GET(0, 63, "the Colonist Hub excess"))
		return ERR_INPUT;
	s->hub_excess = (uint8_t)x;
	if (!GET(0, AF_NTERR, "the borrowed territory"))
		return ERR_INPUT;
	s->borrow = (int8_t)(x - 1);
	if (!GET(0, 1, "the raid flag"))
		return ERR_INPUT;
	s->raid = (uint8_t)x;
#undef GET
	/* every card exactly once */
	for (int c = 0; c < AF_NCARD; c++) {
		int total = s->deck[c] + s->disc[c];

		for (int i = 0; i < 3; i++)
			total += s->disp[i] == c;
		for (int p = 0; p < n; p++)
			total += (s->hand[p] >> c) & 1;
		if (total != af_card_copies[c])
			return BADSNAP("%d copies of %s instead of %d.", total, af_card_names[c].name, af_card_copies[c]);
	}
	af__refresh(s);
	return 0;
}

static json_t *seat_or_null(int seat)
{
	return seat >= 0 ? json_integer(seat) : json_null();
}

static json_t *ship_json(const struct af_state *s, int i)
{
	json_t *o = json_object();

	json_object_set_new(o, "seat", seat_or_null(af__ship_owner(s, i)));
	json_object_set_new(o, "value", s->val[i] ? json_integer(s->val[i]) : json_null());
	if (i == AF_RELIC)
		json_object_set_new(o, "relic", json_true());
	return o;
}

static json_t *card_list(unsigned mask)
{
	json_t *a = json_array();

	for (int c = 0; c < AF_NCARD; c++)
		if ((mask >> c) & 1)
			json_array_append_new(a, json_string(af_card_names[c].id));
	return a;
}

static const char *loc_name(int loc)
{
	static const char *const names[] = { "stock", "maintenance-bay", "unplaced", "burroughs" };

	return loc < AF_LOC_FAC ? names[loc] : af_fac_names[loc - AF_LOC_FAC].id;
}

void af__pending(const struct af_state *s, struct game_pending *out)
{
	char dice[64] = "";
	int len = 0;

	memset(out, 0, sizeof(*out));
	if (s->over) {
		snprintf(out->kind, sizeof(out->kind), "over");
		snprintf(out->prompt, sizeof(out->prompt), "The game is over: @%d landed their last colony.",
			 s->ender);
		return;
	}
	out->seats = 1u << s->cur;
	/* lowest first, as the board lines them up; the Relic Ship last */
	for (int v = 0; v <= 6; v++)
		for (int i = 0; i < AF_NSHIPS; i++)
			if (s->loc[i] == AF_LOC_HAND && (i == AF_RELIC ? v == 6 : s->val[i] == v) &&
			    len < (int)sizeof(dice) - 4)
				len += snprintf(dice + len, sizeof(dice) - (size_t)len, " %s%d",
						i == AF_RELIC ? "Relic Ship " : "", s->val[i]);
	if (s->raid) {
		snprintf(out->kind, sizeof(out->kind), "raid");
		snprintf(out->prompt, sizeof(out->prompt),
			 "@%d: raid - steal 4 resources from the others (all there is when they hold fewer) or one alien tech card",
			 s->cur);
	} else if (len) {
		snprintf(out->kind, sizeof(out->kind), "turn");
		snprintf(out->prompt, sizeof(out->prompt), "@%d: dock your ships (to place:%s)", s->cur, dice);
	} else {
		snprintf(out->kind, sizeof(out->kind), "turn");
		snprintf(out->prompt, sizeof(out->prompt), "@%d: all ships placed - use tech cards or end your turn",
			 s->cur);
	}
}

int af__view(const struct af_state *s, int seat, json_t **out)
{
	json_t *o = json_object(), *a, *x;
	struct game_pending pend;

	json_object_set_new(o, "game", json_string("alien-frontiers"));
	json_object_set_new(o, "players", json_integer(s->n));
	json_object_set_new(o, "you", seat >= 0 && seat < s->n ? json_integer(seat) : json_null());
	json_object_set_new(o, "turn", json_integer(s->cur));
	json_object_set_new(o, "turn_number", json_integer(s->turn));
	json_object_set_new(o, "over", json_boolean(s->over));
	af__pending(s, &pend);
	x = json_object();
	a = json_array();
	for (int p = 0; p < s->n; p++)
		if ((pend.seats >> p) & 1)
			json_array_append_new(a, json_integer(p));
	json_object_set_new(x, "seats", a);
	json_object_set_new(x, "kind", json_string(pend.kind));
	json_object_set_new(x, "prompt", json_string(pend.prompt));
	json_object_set_new(o, "pending", x);

	/* this turn */
	x = json_object();
	a = json_array();
	for (int i = 0; i < s->nrolled; i++)
		json_array_append_new(a, json_integer(s->rolled[i]));
	json_object_set_new(x, "rolled", a);
	a = json_array();
	for (int i = 0; i < AF_NSHIPS; i++)
		if (s->loc[i] == AF_LOC_HAND)
			json_array_append_new(a, ship_json(s, i));
	json_object_set_new(x, "unplaced", a);
	a = json_array();
	for (int i = 0; i < AF_NSHIPS; i++)
		if (s->loc[i] >= AF_LOC_FAC && af__ship_owner(s, i) == s->cur) {
			json_t *d = ship_json(s, i);

			json_object_set_new(d, "facility", json_string(loc_name(s->loc[i])));
			json_array_append_new(a, d);
		}
	json_object_set_new(x, "docked", a);
	json_object_set_new(x, "cards_used", card_list(s->used));
	json_object_set_new(x, "discard_used", json_boolean(s->discarded));
	json_object_set_new(x, "artifact_total", json_integer(s->art_sum));
	json_object_set_new(x, "cycles_left", json_integer(s->cycles));
	json_object_set_new(x, "lunar_mine_used", json_boolean(s->mine_docked));
	json_object_set_new(x, "hub_ships", json_integer(s->hub_docked));
	json_object_set_new(x, "hub_excess", json_integer(s->hub_excess));
	json_object_set_new(x, "borrowed", s->borrow >= 0 ? json_string(af_terr_names[s->borrow].id) : json_null());
	json_object_set_new(x, "raid_pending", json_boolean(s->raid));
	json_object_set_new(o, "this_turn", x);

	/* facilities */
	a = json_array();
	for (int f = 0; f < AF_NFAC; f++) {
		json_t *fo = json_object(), *ships = json_array();

		json_object_set_new(fo, "id", json_string(af_fac_names[f].id));
		json_object_set_new(fo, "name", json_string(af_fac_names[f].name));
		json_object_set_new(fo, "ports", json_integer(f == AF_HUB ? af__caps(s, f) * s->n : af__caps(s, f)));
		for (int i = 0; i < AF_NSHIPS; i++)
			if (s->loc[i] == AF_LOC_FAC + f)
				json_array_append_new(ships, ship_json(s, i));
		json_object_set_new(fo, "ships", ships);
		if (f == AF_HUB) {
			json_t *tr = json_array();

			for (int p = 0; p < s->n; p++)
				json_array_append_new(tr, json_integer(s->hub[p]));
			json_object_set_new(fo, "tracks", tr);
		}
		json_array_append_new(a, fo);
	}
	json_object_set_new(o, "facilities", a);
	a = json_array();
	for (int i = 0; i < AF_NSHIPS; i++)
		if (s->loc[i] == AF_LOC_BAY)
			json_array_append_new(a, ship_json(s, i));
	json_object_set_new(o, "maintenance_bay", a);
	a = json_array();
	for (int p = 0; p < s->n; p++) {
		int k = 0;

		for (int i = p * AF_SHIPS_PER; i < (p + 1) * AF_SHIPS_PER; i++)
			k += s->loc[i] == AF_LOC_STOCK;
		json_array_append_new(a, json_integer(k));
	}
	json_object_set_new(o, "ship_stock", a);
	x = json_object();
	json_object_set_new(x, "owner", seat_or_null(s->relic_owner));
	json_object_set_new(x, "where", json_string(loc_name(s->loc[AF_RELIC])));
	json_object_set_new(x, "value", s->val[AF_RELIC] ? json_integer(s->val[AF_RELIC]) : json_null());
	json_object_set_new(o, "relic_ship", x);

	/* territories and fields */
	a = json_array();
	for (int t = 0; t < AF_NTERR; t++) {
		json_t *to = json_object(), *cols = json_array(), *fl = json_array();

		json_object_set_new(to, "id", json_string(af_terr_names[t].id));
		json_object_set_new(to, "name", json_string(af_terr_names[t].name));
		for (int p = 0; p < s->n; p++)
			json_array_append_new(cols, json_integer(s->col[t][p]));
		json_object_set_new(to, "colonies", cols);
		json_object_set_new(to, "controller", seat_or_null(s->ctl[t]));
		for (int f = 0; f < AF_NFIELD; f++)
			if (s->field[f] == t)
				json_array_append_new(fl, json_string(af_field_names[f].id));
		json_object_set_new(to, "fields", fl);
		json_array_append_new(a, to);
	}
	json_object_set_new(o, "territories", a);
	x = json_object();
	for (int f = 0; f < AF_NFIELD; f++)
		json_object_set_new(x, af_field_names[f].id,
				    s->field[f] >= 0 ? json_string(af_terr_names[s->field[f]].id) : json_null());
	json_object_set_new(o, "fields", x);

	/* alien tech: the display, the pile sizes and the public discard pile */
	x = json_object();
	a = json_array();
	for (int i = 0; i < 3; i++)
		json_array_append_new(a, s->disp[i] >= 0 ? json_string(af_card_names[s->disp[i]].id) : json_null());
	json_object_set_new(x, "display", a);
	{
		int deck = 0;
		json_t *d = json_array();

		for (int c = 0; c < AF_NCARD; c++) {
			deck += s->deck[c];
			for (int k = 0; k < s->disc[c]; k++)
				json_array_append_new(d, json_string(af_card_names[c].id));
		}
		json_object_set_new(x, "deck_size", json_integer(deck));
		json_object_set_new(x, "discard_pile", d);
	}
	json_object_set_new(o, "tech", x);

	a = json_array();
	for (int p = 0; p < s->n; p++) {
		json_t *po = json_object();
		int inplay = 0;

		for (int i = p * AF_SHIPS_PER; i < (p + 1) * AF_SHIPS_PER; i++)
			inplay += s->loc[i] != AF_LOC_STOCK;
		json_object_set_new(po, "seat", json_integer(p));
		json_object_set_new(po, "fuel", json_integer(s->fuel[p]));
		json_object_set_new(po, "ore", json_integer(s->ore[p]));
		json_object_set_new(po, "colonies_left", json_integer(af__colonies_left(s, p)));
		json_object_set_new(po, "hub_circle", json_integer(s->hub[p]));
		json_object_set_new(po, "ships", json_integer(inplay));
		json_object_set_new(po, "vp", json_integer(s->vp[p]));
		json_object_set_new(po, "cards", card_list(s->hand[p]));
		json_array_append_new(a, po);
	}
	json_object_set_new(o, "player_state", a);
	/* each seat's score now (victory points), as the lobby shows it */
	a = json_array();
	for (int p = 0; p < s->n; p++)
		json_array_append_new(a, json_integer(s->vp[p]));
	json_object_set_new(o, "scores", a);
	*out = o;
	return 0;
}

/* Higher is better: vp, then tech cards, then ore, then fuel. */
static int cmp_key(const struct af_state *s, int a, int b)
{
	int ka[4] = { s->vp[a], af__cards(s, a), s->ore[a], s->fuel[a] };
	int kb[4] = { s->vp[b], af__cards(s, b), s->ore[b], s->fuel[b] };

	for (int i = 0; i < 4; i++)
		if (ka[i] != kb[i])
			return ka[i] > kb[i] ? 1 : -1;
	return 0;
}

json_t *af__result(const struct af_state *s)
{
	json_t *o, *scores, *ranks, *winners;
	int rank[AF_MAXP], top = 0, nwin = 0, level = 0;
	static const char *const what[] = { "victory points", "alien tech cards", "ore", "fuel" };
	char text[300];

	if (!s->over)
		return NULL;
	for (int p = 0; p < s->n; p++) {
		rank[p] = 1;
		for (int q = 0; q < s->n; q++)
			if (cmp_key(s, q, p) > 0)
				rank[p]++;
	}
	for (int p = 0; p < s->n; p++)
		if (s->vp[p] > s->vp[top])
			top = p;
	/* how deep the comparison among the players with the top score had to go */
	for (int p = 0; p < s->n; p++) {
		int ka[4] = { s->vp[p], af__cards(s, p), s->ore[p], s->fuel[p] };

		if (rank[p] == 1)
			nwin++;
		if (s->vp[p] != s->vp[top])
			continue;
		for (int q = 0; q < s->n; q++) {
			int kb[4] = { s->vp[q], af__cards(s, q), s->ore[q], s->fuel[q] };
			int d = 0;

			if (q == p || s->vp[q] != s->vp[top])
				continue;
			while (d < 4 && ka[d] == kb[d])
				d++;
			if (d > level)
				level = d;
		}
	}
	o = json_object();
	scores = json_array();
	ranks = json_array();
	winners = json_array();
	for (int p = 0; p < s->n; p++) {
		json_array_append_new(scores, json_integer(s->vp[p]));
		json_array_append_new(ranks, json_integer(rank[p]));
		if (rank[p] == 1)
			json_array_append_new(winners, json_integer(p));
	}
	json_object_set_new(o, "scores", scores);
	json_object_set_new(o, "ranks", ranks);
	json_object_set_new(o, "winners", winners);
	if (level == 0)
		snprintf(text, sizeof(text), "@%d landed their last colony; most victory points (%d) wins.",
			 s->ender, s->vp[top]);
	else if (level < 4)
		snprintf(text, sizeof(text),
			 "@%d landed their last colony; tied on %d victory points, decided by %s (then ore, then fuel).",
			 s->ender, s->vp[top], what[level]);
	else
		snprintf(text, sizeof(text),
			 "@%d landed their last colony; %d players tied on victory points, tech cards, ore and fuel: they share the win.",
			 s->ender, nwin);
	json_object_set_new(o, "tiebreak", json_string(text));
	return o;
}
