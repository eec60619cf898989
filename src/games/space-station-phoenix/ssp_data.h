/* games/space-station-phoenix/ssp_data.h: the component tables of Space Station Phoenix */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_SSP_DATA_H
#define TURNPOST_GAMES_SSP_DATA_H

/*
 * Every ship, Sector, Station Hub and the Diplomacy board in one place. The
 * printed card values are not in our rule text; rules-notes.md fixes some of
 * them and we designed the rest. All of it is provisional and published in
 * docs/games/space-station-phoenix.md: a correction is a change of this data.
 */

/* Resources (also the index into the player's resource counts). */
enum ssp_res { SSP_FOOD = 0, SSP_WATER = 1, SSP_METAL = 2, SSP_GEM = 3 };

/* Resident kinds as stored in quarters (0 = empty). */
enum ssp_resident { SSP_EMPTY = 0, SSP_TEAL = 1, SSP_BROWN = 2, SSP_PINK = 3, SSP_GOLD = 4, SSP_HUMAN = 5 };

/* Ship types; the first four have Diplomacy tracks (same index). */
enum ssp_ship_type {
	SSP_DISMANTLE = 0, SSP_CONSTRUCT = 1, SSP_TRANSPORT = 2, SSP_EXPEDITION = 3,
	SSP_DIPLOMACY = 4, SSP_FARM = 5, SSP_ICE = 6
};

#define SSP_NSHIPS 59
#define SSP_SHIP_L2 20      /* first Level-2 card */
#define SSP_SHIP_L3 38      /* first Level-3 card */
#define SSP_SHIP_NEUTRAL 54 /* first neutral ship */

struct ssp_ship_info {
	const char *id;  /* "p1-transport", "dismantle-2a", "n-construct" */
	int level;       /* 1..3; neutral ships are level 1 */
	int type;        /* enum ssp_ship_type */
	int cost;        /* GEMs placed on the ship */
	int fee;         /* owner's fee (0 for neutral ships) */
	int metal;       /* metal when dismantled (0: cannot be owned) */
	int power;       /* transactions, discount, extra metal, tracks, food/water */
	int roll, keep;  /* Expedition duration and capacity */
};

extern const struct ssp_ship_info ssp_ships[SSP_NSHIPS];

#define SSP_NSECTORS 72

/* Quarter contents: income kind*10 + amount, or an ability marker. */
#define Q_NONE 0
#define Q_ABIL 1 /* the Sector's ongoing ability */
#define Q_END 2  /* the Sector's endgame bonus */
#define QF(n) (10 + (n))
#define QW(n) (20 + (n))
#define QM(n) (30 + (n))
#define QG(n) (40 + (n))

struct ssp_sector_info {
	int id;      /* 101..328: level, colour (0 teal, 1 brown, 2 pink), index 1..8 */
	int level;
	int colour;  /* 0 teal, 1 brown, 2 pink (resident kind = colour + 1) */
	int cost;    /* metal */
	int nq;      /* living quarters */
	int q[6];    /* Q_* per quarter, left to right */
	const char *text; /* ability, "" for income-only Sectors */
};

extern const struct ssp_sector_info ssp_sectors[SSP_NSECTORS];

#define SSP_NHUBS 24 /* 0..11 basic B-1..B-12, 12..23 advanced A-1..A-12 */

struct ssp_hub_info {
	const char *id;  /* "B-1" */
	int gems, food, water, metal; /* starting goods */
	int dip[4];      /* free starting advances per track */
	int dip_any;     /* free advances on tracks of the player's choice */
	int per_ship;    /* income GEMs per ship still owned */
	int flat;        /* income GEMs regardless of ships */
	int nq;          /* living quarters on the hub (B-11: 3, A-11: 5) */
	const char *setup; /* back side, as text */
	const char *text;  /* front side, as text */
};

extern const struct ssp_hub_info ssp_hubs[SSP_NHUBS];

/* Diplomacy: lobbying cost to reach level 1..5 (index 1..5). */
extern const int ssp_lobby_cost[6];
/* The level-3 resource of each track (enum ssp_res). */
extern const int ssp_track_res[4];

/* Player-count tables (index nplayers). */
extern const int ssp_humans_by_n[5];
extern const int ssp_aliens_by_n[5];
extern const int ssp_l3_display_by_n[5];

/* Expedition die faces: food, food, water, water, metal, Human (index = face 0..5). */
extern const int ssp_die_face[6];

/* First-game sets: hub index, two Level-3 and two (or four) Level-2 ship types. */
struct ssp_first_set {
	int hub;
	int l3[2];
	int l2[4];
	int nl2;
};
extern const struct ssp_first_set ssp_first_sets[4];

/* Lookups: index or -1. Matching ignores case; hubs accept "B-1", "b1". */
int ssp_data_ship_find(const char *id);
int ssp_data_sector_find(int id);
int ssp_data_hub_find(const char *id);

#endif
