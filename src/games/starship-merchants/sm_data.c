/* games/starship-merchants/sm_data.c: the provisional content table of Starship Merchants */
/* SPDX-License-Identifier: MIT */
#include "games/starship-merchants/sm_data.h"

#include "util/banned.h"

/*
 * Our design (the rules summary gives none of these numbers except the ones
 * marked "summary"); published in docs/games/starship-merchants.md.
 */
const struct sm_consts sm_consts = {
	.start_credits = 15,           /* reviews: every player */
	.mark_limit = { 4, 4, 3, 2 },  /* summary */
	.loan_markers = 2,             /* summary */
	.claim_cost = 6,               /* summary */
	.pickup_cost = 1,              /* summary */
	.remote_cost = 3,              /* summary */
	.explore_cost = 2,             /* summary */
	.replace_cost = 1,             /* summary */
	.trigger_optional = 100,       /* summary */
	.trigger_forced = 150,         /* summary */
	.trigger_bonus = 10,           /* summary */
	.dock_wait = 5,                /* summary */
	.salvage_pilots = 1,           /* summary */
	.salvage_gear = 2,             /* summary */
};

const struct sm_token_kind sm_kinds[SM_NKINDS] = {
	[SM_ICE9]      = { "ice-9",     "Ice-9",     2, { 12, 15, 16 }, 1 },
	[SM_DEUTERIUM] = { "deuterium", "Deuterium", 3, { 10, 12, 14 }, 1 },
	[SM_COBALT]    = { "cobalt",    "Cobalt",    4, {  8, 10, 12 }, 1 },
	[SM_IRIDIUM]   = { "iridium",   "Iridium",   5, {  6,  7,  8 }, 0 },
	[SM_XENITE]    = { "xenite",    "Xenite",    7, {  4,  5,  4 }, 0 },
};

/*
 * Turn-order compensation (ours): players racing for the trigger (level-2
 * bots in every seat) won 64 % from the first seat at 2 players. Ice-9 for
 * the later seats narrows that and keeps the greedy players' seats within a
 * few points of even; stronger tokens even out the racing players but hand
 * the greedy ones' games to the later seats (docs/games/starship-merchants.md,
 * "Seat balance").
 */
const int sm_seat_setup[3][4][SM_NKINDS] = {
	/* 2 players */
	{ { 0 }, { [SM_ICE9] = 2 } },
	/* 3 players */
	{ { 0 }, { [SM_ICE9] = 1 }, { 0 } },
	/* 4 players */
	{ { 0 }, { [SM_ICE9] = 1 }, { [SM_ICE9] = 1 }, { [SM_ICE9] = 2 } },
};

/* [mark-1][type]: cost, energy, cargo, supply at 2/3/4 players (one of each type per player and Mark) */
const struct sm_ship_kind sm_ships[SM_NMARKS][SM_NTYPES] = {
	{ [SM_SCOUT] = {  8, 4, 2, { 2, 3, 4 } }, [SM_TUG] = {  8, 3, 3, { 2, 3, 4 } } },
	{ [SM_SCOUT] = { 14, 5, 3, { 2, 3, 4 } }, [SM_TUG] = { 14, 4, 5, { 2, 3, 4 } } },
	{ [SM_SCOUT] = { 22, 7, 4, { 2, 3, 4 } }, [SM_TUG] = { 22, 5, 7, { 2, 3, 4 } } },
	{ [SM_SCOUT] = { 32, 9, 5, { 2, 3, 4 } }, [SM_TUG] = { 32, 6, 9, { 2, 3, 4 } } },
};

const char *const sm_type_slugs[SM_NTYPES] = { "scout", "tug" };
const char *const sm_type_names[SM_NTYPES] = { "Scout", "Tug" };
const char *const sm_place_names[4] = { "Shipyard", "Market", "Belt", "Dock" };

const struct sm_card sm_cards[SM_NCARDS] = {
	/* pilots: delivery bonuses of their ship */
	{ "ice-jockey", "Ice Jockey", SM_CARD_PILOT, 5, 2,
	  { .per_kind = { [SM_ICE9] = 2 } }, "+2 credits per Ice-9 this ship delivers" },
	{ "fuel-runner", "Fuel Runner", SM_CARD_PILOT, 6, 2,
	  { .per_kind = { [SM_DEUTERIUM] = 2 } }, "+2 credits per Deuterium this ship delivers" },
	{ "cobalt-broker", "Cobalt Broker", SM_CARD_PILOT, 7, 2,
	  { .per_kind = { [SM_COBALT] = 2 } }, "+2 credits per Cobalt this ship delivers" },
	{ "gem-hunter", "Gem Hunter", SM_CARD_PILOT, 8, 2,
	  { .per_kind = { [SM_IRIDIUM] = 3, [SM_XENITE] = 3 } },
	  "+3 credits per Iridium or Xenite this ship delivers" },
	{ "veteran-captain", "Veteran Captain", SM_CARD_PILOT, 8, 2,
	  { .per_token = 1 }, "+1 credit per token this ship delivers" },
	{ "contract-pilot", "Contract Pilot", SM_CARD_PILOT, 6, 2,
	  { .flat = 6 }, "+6 credits whenever this ship delivers at least one token" },
	/* gear: ship bonuses, up to six per ship */
	{ "grapples", "Grapples", SM_CARD_GEAR, 4, 5,
	  { .cargo = 1 }, "+1 cargo" },
	{ "fusion-booster", "Fusion Booster", SM_CARD_GEAR, 5, 4,
	  { .energy = 1 }, "+1 energy" },
	{ "survey-robot", "Survey Robot", SM_CARD_GEAR, 5, 3,
	  { .explore_off = 1 }, "exploring costs 1 energy less (at least 1)" },
	{ "tractor-beam", "Tractor Beam", SM_CARD_GEAR, 4, 2,
	  { .remote_off = 1 }, "picking up from an opponent's local space costs 1 energy less" },
	{ "cargo-pod", "Cargo Pod", SM_CARD_GEAR, 8, 3,
	  { .cargo = 2 }, "+2 cargo" },
	{ "assay-scanner", "Assay Scanner", SM_CARD_GEAR, 8, 2,
	  { .per_token = 1 }, "+1 credit per token this ship delivers" },
	/* refineries: delivery bonuses for every ship of their owner */
	{ "ice-9-refinery", "Ice-9 Refinery", SM_CARD_REFINERY, 6, 2,
	  { .per_kind = { [SM_ICE9] = 1 } }, "+1 credit per Ice-9 any of your ships delivers" },
	{ "deuterium-refinery", "Deuterium Refinery", SM_CARD_REFINERY, 8, 2,
	  { .per_kind = { [SM_DEUTERIUM] = 1 } }, "+1 credit per Deuterium any of your ships delivers" },
	{ "cobalt-refinery", "Cobalt Refinery", SM_CARD_REFINERY, 10, 2,
	  { .per_kind = { [SM_COBALT] = 1 } }, "+1 credit per Cobalt any of your ships delivers" },
	{ "iridium-refinery", "Iridium Refinery", SM_CARD_REFINERY, 12, 2,
	  { .per_kind = { [SM_IRIDIUM] = 2 } }, "+2 credits per Iridium any of your ships delivers" },
	{ "xenite-refinery", "Xenite Refinery", SM_CARD_REFINERY, 10, 1,
	  { .per_kind = { [SM_XENITE] = 2 } }, "+2 credits per Xenite any of your ships delivers" },
	{ "central-refinery", "Central Refinery", SM_CARD_REFINERY, 20, 2,
	  { .per_token = 1 }, "+1 credit per token any of your ships delivers" },
};

const struct sm_dest sm_dests[SM_NDESTS] = {
	{ "waystation", "Waystation", 1, 2, { .flat = 5 }, "+5 credits" },
	{ "ice-moon", "Ice Moon", 2, 2, { .per_kind = { [SM_ICE9] = 2 } },
	  "+2 credits per Ice-9 aboard" },
	{ "fuel-depot", "Fuel Depot", 2, 2, { .per_kind = { [SM_DEUTERIUM] = 2 } },
	  "+2 credits per Deuterium aboard" },
	{ "foundry", "Foundry", 3, 2, { .per_kind = { [SM_COBALT] = 2 } },
	  "+2 credits per Cobalt aboard" },
	{ "jewel-exchange", "Jewel Exchange", 3, 2,
	  { .per_kind = { [SM_IRIDIUM] = 3, [SM_XENITE] = 3 } },
	  "+3 credits per Iridium or Xenite aboard" },
	{ "trade-hub", "Trade Hub", 3, 2, { .per_token = 1 }, "+1 credit per token aboard" },
	{ "assay-office", "Assay Office", 3, 2, { .per_distinct = 2 },
	  "+2 credits per distinct kind of token aboard" },
	{ "free-port", "Free Port", 4, 2, { .flat = 12 }, "+12 credits" },
	{ "capital-world", "Capital World", 5, 2, { .flat = 18 }, "+18 credits" },
};
