/* games/starship-merchants/sm_data.h: the content set of Starship Merchants (one table, our design) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_SM_DATA_H
#define TURNPOST_GAMES_SM_DATA_H

/*
 * Everything the rules summary leaves out lives in sm_data.c: ships per Mark,
 * mine tokens and the bag mix, pilots, gear, refineries, destinations and the
 * rule constants. It is provisional (our design, see
 * docs/games/starship-merchants.md), so a correction is a data change.
 * The sizes below must match the tables (sm_data.c checks them).
 */

#define SM_MIN_PLAYERS 2
#define SM_MAX_PLAYERS 4
#define SM_NKINDS 5   /* mine token kinds */
#define SM_NMARKS 4   /* Mark 1 .. Mark 4 */
#define SM_NTYPES 2   /* scout, tug */
#define SM_NCARDS 18  /* pilots, gear and refineries (kinds of card) */
#define SM_NDESTS 9   /* kinds of destination card */
#define SM_MAX_GEAR 6 /* gear per ship (rule) */

#define SM_MARKET_SLOTS 4
#define SM_REFINERY_SLOTS 3
#define SM_DEST_SLOTS 3

enum sm_ship_type { SM_SCOUT = 0, SM_TUG = 1 };
enum sm_kind { SM_ICE9 = 0, SM_DEUTERIUM, SM_COBALT, SM_IRIDIUM, SM_XENITE };
enum sm_card_cat { SM_CARD_PILOT = 0, SM_CARD_GEAR, SM_CARD_REFINERY };

/*
 * What a card does. Pilots, gear and destinations act on the ship they sit
 * on; refineries act on every ship of their owner. Delivery bonuses are
 * credits at the Dock; flat is paid only when the ship delivers at least one
 * token (destinations: always).
 */
struct sm_bonus {
	int energy;             /* + energy when this ship runs */
	int cargo;              /* + cargo capacity */
	int explore_off;        /* exploring costs this much less energy (never below 1) */
	int remote_off;         /* picking up from an opponent's local space costs this much less (never below 1) */
	int per_token;          /* credits per token delivered */
	int per_kind[SM_NKINDS];/* credits per token of that kind delivered */
	int per_distinct;       /* credits per distinct kind delivered */
	int flat;               /* credits per delivery */
};

struct sm_token_kind {
	const char *slug; /* move text: "ice-9" */
	const char *name; /* "Ice-9" */
	int value;        /* credits paid at the Dock */
	int bag[3];       /* tokens in the game at 2, 3, 4 players */
	int setup;        /* of which each player gets this many at set-up */
};

/*
 * Turn-order compensation: set-up tokens a seat gets beyond every player's
 * (struct sm_token_kind.setup), by player count (2, 3, 4) and seat; they
 * come out of the bag like the others (ours, docs/games/starship-merchants.md).
 */
extern const int sm_seat_setup[3][4][SM_NKINDS];

struct sm_ship_kind {
	int cost;
	int energy;
	int cargo;
	int supply[3];    /* ships of this Mark and type in the Shipyard at 2, 3, 4 players */
};

struct sm_card {
	const char *slug; /* move text: "survey-robot" */
	const char *name;
	int cat;          /* enum sm_card_cat */
	int cost;
	int count;        /* copies in the deck */
	struct sm_bonus b;
	const char *text; /* one line for the player */
};

struct sm_dest {
	const char *slug;
	const char *name;
	int cost;         /* energy to end a run here */
	int count;
	struct sm_bonus b;
	const char *text;
};

/* Rule numbers, given by the summary unless marked ours in the docs. */
struct sm_consts {
	int start_credits;     /* 15: every player, whatever the seat */
	int mark_limit[SM_NMARKS]; /* ships of a Mark one player may own: 4 4 3 2 */
	int loan_markers;      /* 2 markers per lease */
	int claim_cost;        /* 6 */
	int pickup_cost;       /* 1: local or known space */
	int remote_cost;       /* 3: an opponent's local space */
	int explore_cost;      /* 2 */
	int replace_cost;      /* 1: replace a destination card */
	int trigger_optional;  /* 100 */
	int trigger_forced;    /* 150 */
	int trigger_bonus;     /* 10 */
	int dock_wait;         /* 5: a final-circuit turn spent in the Dock */
	int salvage_pilots;    /* 1 per scrapped ship */
	int salvage_gear;      /* 2 per scrapped ship */
};

extern const struct sm_consts sm_consts;
extern const struct sm_token_kind sm_kinds[SM_NKINDS];
extern const struct sm_ship_kind sm_ships[SM_NMARKS][SM_NTYPES];
extern const char *const sm_type_slugs[SM_NTYPES];
extern const char *const sm_type_names[SM_NTYPES]; /* what players call them: "Scout", "Tug" */
extern const char *const sm_place_names[4];
extern const struct sm_card sm_cards[SM_NCARDS];
extern const struct sm_dest sm_dests[SM_NDESTS];

#endif
