/* games/alien-frontiers/af_data.h: the static data of Alien Frontiers: facilities, territories, cards, fields */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_GAMES_AF_DATA_H
#define TURNPOST_GAMES_AF_DATA_H

#include <stdint.h>

#define AF_MAXP 4 /* players */

/* Orbital facilities where ships dock (the Maintenance Bay is a location, not one of these). */
enum af_fac {
	AF_SOLAR, AF_MINE, AF_MARKET, AF_SHIPYARD, AF_CONSTRUCTOR,
	AF_TERRA, AF_HUB, AF_ARTIFACT, AF_RAIDERS, AF_NFAC
};

enum af_terr {
	AF_ASIMOV, AF_BRADBURY, AF_BURROUGHS, AF_HEINLEIN, AF_HERBERT, AF_LEM, AF_POHL, AF_VANVOGT, AF_NTERR
};

enum af_card {
	AF_CITY, AF_MONUMENT, AF_BOOSTER, AF_CRYSTAL, AF_GRAVITY, AF_DECOY, AF_TELEPORTER,
	AF_CANNON, AF_POLARITY, AF_CACHE, AF_STASIS, AF_WARPER, AF_NCARD
};

enum af_field { AF_ISOLATION, AF_POSITRON, AF_REPULSOR, AF_NFIELD };

struct af_name {
	const char *id;    /* canonical notation and JSON id */
	const char *name;  /* display name */
	const char *alias[4];
};
extern const struct af_name af_fac_names[AF_NFAC];
/* What each facility takes and gives, in a few words for its box on the board ("3 in a row: raid"). */
extern const char *const af_fac_rules[AF_NFAC];
extern const struct af_name af_terr_names[AF_NTERR];
extern const struct af_name af_card_names[AF_NCARD];
extern const struct af_name af_field_names[AF_NFIELD];
extern const uint8_t af_caps[3][AF_NFAC]; /* docking ports per player count 2, 3, 4 (hub: per track) */
extern const uint8_t af_colonies[3];
extern const uint8_t af_card_copies[AF_NCARD];
extern const uint8_t af_start_fuel[AF_MAXP], af_start_ore[AF_MAXP];
extern const uint8_t af_card_fuel[AF_NCARD]; /* fuel cost of each card's power (0: none) */

#endif
