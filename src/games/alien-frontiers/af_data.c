/* games/alien-frontiers/af_data.c: the static data of Alien Frontiers in tables */
/* SPDX-License-Identifier: MIT */
#include "games/alien-frontiers/af_data.h"

#include "util/banned.h"

/* Canonical ids are what `format` writes; aliases are what `parse` also reads. */
const struct af_name af_fac_names[AF_NFAC] = {
	[AF_SOLAR] = { "solar", "Solar Converter", { "solar-converter", "converter", "sc" } },
	[AF_MINE] = { "mine", "Lunar Mine", { "lunar-mine", "lunar", "lm" } },
	[AF_MARKET] = { "market", "Orbital Market", { "orbital-market", "om" } },
	[AF_SHIPYARD] = { "shipyard", "Shipyard", { "shipyards", "yard", "sy" } },
	[AF_CONSTRUCTOR] = { "constructor", "Colony Constructor", { "colony-constructor", "cc" } },
	[AF_TERRA] = { "terraforming", "Terraforming Station", { "terraforming-station", "terra", "ts" } },
	[AF_HUB] = { "hub", "Colonist Hub", { "colonist-hub", "colonist", "ch" } },
	[AF_ARTIFACT] = { "artifact", "Alien Artifact", { "alien-artifact", "aa" } },
	[AF_RAIDERS] = { "raiders", "Raiders' Outpost", { "raiders-outpost", "outpost", "raider", "ro" } },
};

const char *const af_fac_rules[AF_NFAC] = {
	[AF_SOLAR] = "any ship: fuel, half value",
	[AF_MINE] = "\xe2\x89\xa5 highest docked: 1 ore",
	[AF_MARKET] = "a pair: buy ore for fuel",
	[AF_SHIPYARD] = "a pair + fuel, ore: a ship",
	[AF_CONSTRUCTOR] = "3 alike + 3 ore: a colony",
	[AF_TERRA] = "a 6 + fuel, ore: a colony",
	[AF_HUB] = "each ship: colony +1 step",
	[AF_ARTIFACT] = "total 8: claim alien tech",
	[AF_RAIDERS] = "3 in a row: raid",
};

const struct af_name af_terr_names[AF_NTERR] = {
	[AF_ASIMOV] = { "asimov", "Asimov Crater", { "asimov-crater" } },
	[AF_BRADBURY] = { "bradbury", "Bradbury Plateau", { "bradbury-plateau" } },
	[AF_BURROUGHS] = { "burroughs", "Burroughs Desert", { "burroughs-desert" } },
	[AF_HEINLEIN] = { "heinlein", "Heinlein Plains", { "heinlein-plains" } },
	[AF_HERBERT] = { "herbert", "Herbert Valley", { "herbert-valley" } },
	[AF_LEM] = { "lem", "Lem Badlands", { "lem-badlands" } },
	[AF_POHL] = { "pohl", "Pohl Foothills", { "pohl-foothills" } },
	[AF_VANVOGT] = { "van-vogt", "Van Vogt Mountains", { "van-vogt-mountains", "vanvogt", "vogt" } },
};

const struct af_name af_card_names[AF_NCARD] = {
	[AF_CITY] = { "alien-city", "Alien City", { "city" } },
	[AF_MONUMENT] = { "alien-monument", "Alien Monument", { "monument" } },
	[AF_BOOSTER] = { "booster-pod", "Booster Pod", { "booster" } },
	[AF_CRYSTAL] = { "data-crystal", "Data Crystal", { "crystal" } },
	[AF_GRAVITY] = { "gravity-manipulator", "Gravity Manipulator", { "gravity" } },
	[AF_DECOY] = { "holographic-decoy", "Holographic Decoy", { "decoy", "hologram" } },
	[AF_TELEPORTER] = { "orbital-teleporter", "Orbital Teleporter", { "teleporter" } },
	[AF_CANNON] = { "plasma-cannon", "Plasma Cannon", { "cannon" } },
	[AF_POLARITY] = { "polarity-device", "Polarity Device", { "polarity" } },
	[AF_CACHE] = { "resource-cache", "Resource Cache", { "cache" } },
	[AF_STASIS] = { "stasis-beam", "Stasis Beam", { "stasis" } },
	[AF_WARPER] = { "temporal-warper", "Temporal Warper", { "warper" } },
};

const struct af_name af_field_names[AF_NFIELD] = {
	[AF_ISOLATION] = { "isolation", "Isolation Field", { "isolation-field" } },
	[AF_POSITRON] = { "positron", "Positron Field", { "positron-field" } },
	[AF_REPULSOR] = { "repulsor", "Repulsor Field", { "repulsor-field" } },
};

/*
 * Docking ports open for 2, 3 and 4 players (rules-notes set-up table): at 2
 * players one Solar Converter port, two Lunar Mine ports, one Orbital Market
 * pair, one Colony Constructor triple and two Shipyard pairs are covered; at 3
 * players one Solar Converter port, one Lunar Mine port, one Orbital Market
 * pair and one Shipyard pair. The Colonist Hub entry is per player's track.
 */
const uint8_t af_caps[3][AF_NFAC] = {
	/* solar mine market shipyard constructor terra hub artifact raiders */
	{ 7, 3, 2, 2, 3, 1, 3, 4, 3 },
	{ 7, 4, 2, 4, 6, 1, 3, 4, 3 },
	{ 8, 5, 4, 6, 6, 1, 3, 4, 3 },
};

const uint8_t af_colonies[3] = { 8, 7, 6 };

const uint8_t af_card_copies[AF_NCARD] = {
	[AF_CITY] = 1, [AF_MONUMENT] = 1, [AF_BOOSTER] = 2, [AF_CRYSTAL] = 2, [AF_GRAVITY] = 2,
	[AF_DECOY] = 2, [AF_TELEPORTER] = 2, [AF_CANNON] = 2, [AF_POLARITY] = 2, [AF_CACHE] = 2,
	[AF_STASIS] = 2, [AF_WARPER] = 2,
};

/* Seat 1 starts with nothing, seat 2 one fuel, seat 3 one ore, seat 4 one of each. */
const uint8_t af_start_fuel[AF_MAXP] = { 0, 1, 0, 1 };
const uint8_t af_start_ore[AF_MAXP] = { 0, 0, 1, 1 };

/* Fuel for a card's power; Data Crystal (per colony) and Plasma Cannon (per ship) are per unit. */
const uint8_t af_card_fuel[AF_NCARD] = {
	[AF_BOOSTER] = 1, [AF_CRYSTAL] = 1, [AF_GRAVITY] = 2, [AF_TELEPORTER] = 2,
	[AF_CANNON] = 1, [AF_POLARITY] = 1, [AF_STASIS] = 1, [AF_WARPER] = 1,
};
