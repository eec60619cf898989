/* games/space-station-phoenix/ssp_data.c: ships, Sectors, Station Hubs and the Diplomacy board (provisional) */
/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "games/space-station-phoenix/ssp_data.h"
#include "util/banned.h"

/*
 * THE component table. The rulebook's card images are missing: values fixed
 * by rules-notes.md are marked (notes), values from a worked example (ex), and
 * everything else is our design (ours). docs/games/space-station-phoenix.md
 * publishes the same table; keep both in step.
 *
 * Ships: id, level, type, cost to use, owner's fee, metal when dismantled,
 * power (transactions / construction discount / extra dismantle metal /
 * Diplomacy tracks / food or water), Expedition dice rolled and kept.
 * Level 1 (notes: fee 1, metal 6, Transport 3 transactions, Expedition 6/4,
 * Diplomacy 1 track; ex: Transport costs 2, Expedition 3, Diplomacy 3; ours:
 * Dismantle 2, Construction 3). Level 2 (notes: fee 2, metal 8, powers; ex:
 * Dismantle 3, Transport 3, Expedition 4; ours: the mix 3 of each of six
 * types, Construction 5, Farm 3, Ice Collector 3). Level 3 (notes: fee 3,
 * metal 10, powers; ex: Construction 8; ours: the mix of 16 cards and the
 * other costs). Neutral (notes: level-1 strength, one GEM dearer, no fee).
 */
const struct ssp_ship_info ssp_ships[SSP_NSHIPS] = {
	{ "p1-dismantle", 1, SSP_DISMANTLE, 2, 1, 6, 0, 0, 0 },
	{ "p1-construct", 1, SSP_CONSTRUCT, 3, 1, 6, 0, 0, 0 },
	{ "p1-transport", 1, SSP_TRANSPORT, 2, 1, 6, 3, 0, 0 },
	{ "p1-expedition", 1, SSP_EXPEDITION, 3, 1, 6, 0, 6, 4 },
	{ "p1-diplomacy", 1, SSP_DIPLOMACY, 3, 1, 6, 1, 0, 0 },
	{ "p2-dismantle", 1, SSP_DISMANTLE, 2, 1, 6, 0, 0, 0 },
	{ "p2-construct", 1, SSP_CONSTRUCT, 3, 1, 6, 0, 0, 0 },
	{ "p2-transport", 1, SSP_TRANSPORT, 2, 1, 6, 3, 0, 0 },
	{ "p2-expedition", 1, SSP_EXPEDITION, 3, 1, 6, 0, 6, 4 },
	{ "p2-diplomacy", 1, SSP_DIPLOMACY, 3, 1, 6, 1, 0, 0 },
	{ "p3-dismantle", 1, SSP_DISMANTLE, 2, 1, 6, 0, 0, 0 },
	{ "p3-construct", 1, SSP_CONSTRUCT, 3, 1, 6, 0, 0, 0 },
	{ "p3-transport", 1, SSP_TRANSPORT, 2, 1, 6, 3, 0, 0 },
	{ "p3-expedition", 1, SSP_EXPEDITION, 3, 1, 6, 0, 6, 4 },
	{ "p3-diplomacy", 1, SSP_DIPLOMACY, 3, 1, 6, 1, 0, 0 },
	{ "p4-dismantle", 1, SSP_DISMANTLE, 2, 1, 6, 0, 0, 0 },
	{ "p4-construct", 1, SSP_CONSTRUCT, 3, 1, 6, 0, 0, 0 },
	{ "p4-transport", 1, SSP_TRANSPORT, 2, 1, 6, 3, 0, 0 },
	{ "p4-expedition", 1, SSP_EXPEDITION, 3, 1, 6, 0, 6, 4 },
	{ "p4-diplomacy", 1, SSP_DIPLOMACY, 3, 1, 6, 1, 0, 0 },
	{ "dismantle-2a", 2, SSP_DISMANTLE, 3, 2, 8, 1, 0, 0 },
	{ "dismantle-2b", 2, SSP_DISMANTLE, 3, 2, 8, 1, 0, 0 },
	{ "dismantle-2c", 2, SSP_DISMANTLE, 3, 2, 8, 1, 0, 0 },
	{ "construct-2a", 2, SSP_CONSTRUCT, 5, 2, 8, 1, 0, 0 },
	{ "construct-2b", 2, SSP_CONSTRUCT, 5, 2, 8, 1, 0, 0 },
	{ "construct-2c", 2, SSP_CONSTRUCT, 5, 2, 8, 1, 0, 0 },
	{ "transport-2a", 2, SSP_TRANSPORT, 3, 2, 8, 4, 0, 0 },
	{ "transport-2b", 2, SSP_TRANSPORT, 3, 2, 8, 4, 0, 0 },
	{ "transport-2c", 2, SSP_TRANSPORT, 3, 2, 8, 4, 0, 0 },
	{ "expedition-2a", 2, SSP_EXPEDITION, 4, 2, 8, 0, 8, 5 },
	{ "expedition-2b", 2, SSP_EXPEDITION, 4, 2, 8, 0, 8, 5 },
	{ "expedition-2c", 2, SSP_EXPEDITION, 4, 2, 8, 0, 8, 5 },
	{ "farm-2a", 2, SSP_FARM, 3, 2, 8, 4, 0, 0 },
	{ "farm-2b", 2, SSP_FARM, 3, 2, 8, 4, 0, 0 },
	{ "farm-2c", 2, SSP_FARM, 3, 2, 8, 4, 0, 0 },
	{ "ice-2a", 2, SSP_ICE, 3, 2, 8, 4, 0, 0 },
	{ "ice-2b", 2, SSP_ICE, 3, 2, 8, 4, 0, 0 },
	{ "ice-2c", 2, SSP_ICE, 3, 2, 8, 4, 0, 0 },
	{ "construct-3a", 3, SSP_CONSTRUCT, 8, 3, 10, 2, 0, 0 },
	{ "construct-3b", 3, SSP_CONSTRUCT, 8, 3, 10, 2, 0, 0 },
	{ "construct-3c", 3, SSP_CONSTRUCT, 8, 3, 10, 2, 0, 0 },
	{ "dismantle-3a", 3, SSP_DISMANTLE, 5, 3, 10, 2, 0, 0 },
	{ "dismantle-3b", 3, SSP_DISMANTLE, 5, 3, 10, 2, 0, 0 },
	{ "dismantle-3c", 3, SSP_DISMANTLE, 5, 3, 10, 2, 0, 0 },
	{ "transport-3a", 3, SSP_TRANSPORT, 5, 3, 10, 5, 0, 0 },
	{ "transport-3b", 3, SSP_TRANSPORT, 5, 3, 10, 5, 0, 0 },
	{ "transport-3c", 3, SSP_TRANSPORT, 5, 3, 10, 5, 0, 0 },
	{ "expedition-3a", 3, SSP_EXPEDITION, 6, 3, 10, 0, 10, 6 },
	{ "expedition-3b", 3, SSP_EXPEDITION, 6, 3, 10, 0, 10, 6 },
	{ "expedition-3c", 3, SSP_EXPEDITION, 6, 3, 10, 0, 10, 6 },
	{ "diplomacy-3a", 3, SSP_DIPLOMACY, 6, 3, 10, 2, 0, 0 },
	{ "diplomacy-3b", 3, SSP_DIPLOMACY, 6, 3, 10, 2, 0, 0 },
	{ "farm-3a", 3, SSP_FARM, 4, 3, 10, 5, 0, 0 },
	{ "ice-3a", 3, SSP_ICE, 4, 3, 10, 5, 0, 0 },
	{ "n-dismantle", 1, SSP_DISMANTLE, 3, 0, 0, 0, 0, 0 },
	{ "n-construct", 1, SSP_CONSTRUCT, 4, 0, 0, 0, 0, 0 },
	{ "n-transport", 1, SSP_TRANSPORT, 3, 0, 0, 3, 0, 0 },
	{ "n-expedition", 1, SSP_EXPEDITION, 4, 0, 0, 0, 6, 4 },
	{ "n-diplomacy", 1, SSP_DIPLOMACY, 4, 0, 0, 1, 0, 0 },
};

/*
 * Sectors (notes: numbering, quarters 3/5/6, cost ranges, 218 costs 9; ours:
 * even index = the lower cost, the income on each quarter, and which quarter
 * carries the ability: level 1 the 3rd, level 2 the 4th (ship abilities) or
 * the 5th (income abilities), level 3 the 5th, endgame bonuses the 6th).
 * Immediate (build-time) effects of level-3 Sectors need no resident.
 */
const struct ssp_sector_info ssp_sectors[SSP_NSECTORS] = {
	{ 101, 1, 0,  6, 3, { Q_NONE, QW(1), Q_ABIL }, "During income, gain 1 food or 1 water." },
	{ 102, 1, 0,  5, 3, { Q_NONE, QM(1), QG(1) }, "" },
	{ 103, 1, 0,  6, 3, { Q_NONE, QG(1), QF(1) }, "" },
	{ 104, 1, 0,  5, 3, { Q_NONE, QF(1), Q_ABIL }, "When using a Dismantle ship, gain 3 GEMs." },
	{ 105, 1, 0,  6, 3, { Q_NONE, QW(1), Q_ABIL }, "When using an Expedition ship, gain 2 GEMs." },
	{ 106, 1, 0,  5, 3, { Q_NONE, QM(1), Q_ABIL }, "When gaining an Alien (by any means), gain 1 GEM." },
	{ 107, 1, 0,  6, 3, { Q_NONE, QG(1), Q_ABIL }, "When using a Transport ship, gain 2 GEMs." },
	{ 108, 1, 0,  5, 3, { Q_NONE, QF(1), Q_ABIL }, "Your teal Sectors can hold Aliens of any colour." },
	{ 111, 1, 1,  6, 3, { Q_NONE, QM(1), QG(1) }, "" },
	{ 112, 1, 1,  5, 3, { Q_NONE, QG(1), Q_ABIL }, "When using a Diplomacy ship, gain 1 resource of your choice." },
	{ 113, 1, 1,  6, 3, { Q_NONE, QF(1), QW(1) }, "" },
	{ 114, 1, 1,  5, 3, { Q_NONE, QW(1), QM(1) }, "" },
	{ 115, 1, 1,  6, 3, { Q_NONE, QM(1), Q_ABIL }, "When gaining a Human (by any means), gain 1 point." },
	{ 116, 1, 1,  5, 3, { Q_NONE, QG(1), Q_ABIL }, "When using a Transport ship, gain 1 point." },
	{ 117, 1, 1,  6, 3, { Q_NONE, QF(1), Q_ABIL }, "When using a Diplomacy ship, you may pay 3 GEMs for one additional Diplomacy action (lobbying cost paid too), once per action." },
	{ 118, 1, 1,  5, 3, { Q_NONE, QW(1), Q_ABIL }, "When using a Transport ship, you may pay 2 GEMs to gain 1 metal (not a transaction), once per action." },
	{ 121, 1, 2,  6, 3, { Q_NONE, QG(1), QF(1) }, "" },
	{ 122, 1, 2,  5, 3, { Q_NONE, QF(1), Q_ABIL }, "When using a Construction ship, gain 2 points." },
	{ 123, 1, 2,  6, 3, { Q_NONE, QW(1), QM(1) }, "" },
	{ 124, 1, 2,  5, 3, { Q_NONE, QM(1), Q_ABIL }, "When using an Expedition ship, roll 1 extra die." },
	{ 125, 1, 2,  6, 3, { Q_NONE, QG(1), Q_ABIL }, "When using a Dismantle ship, gain 1 food or 1 water." },
	{ 126, 1, 2,  5, 3, { Q_NONE, QF(1), Q_ABIL }, "When gaining a Human (by any means), gain 2 GEMs." },
	{ 127, 1, 2,  6, 3, { Q_NONE, QW(1), QM(1) }, "" },
	{ 128, 1, 2,  5, 3, { Q_NONE, QM(1), Q_ABIL }, "During income, you may exchange 1 resource for another (once)." },
	{ 201, 2, 0, 10, 5, { Q_NONE, QW(1), QM(1), QG(1), QG(2) }, "" },
	{ 202, 2, 0,  9, 5, { Q_NONE, QM(1), QG(1), QF(1), QG(2) }, "" },
	{ 203, 2, 0, 10, 5, { Q_NONE, QG(1), QF(1), QW(1), QG(2) }, "" },
	{ 204, 2, 0,  9, 5, { Q_NONE, QF(1), QW(1), Q_ABIL, QG(2) }, "When using an Expedition ship, capacity +1." },
	{ 205, 2, 0, 10, 5, { Q_NONE, QW(1), QM(1), QG(1), QG(2) }, "" },
	{ 206, 2, 0,  9, 5, { Q_NONE, QM(1), QG(1), Q_ABIL, QG(2) }, "When using a Diplomacy ship, you may perform one transport transaction." },
	{ 207, 2, 0, 10, 5, { Q_NONE, QG(1), QF(1), Q_ABIL, QG(2) }, "When using a Transport ship to gain at least 3 Aliens of one colour, gain one more of that colour for free." },
	{ 208, 2, 0,  9, 5, { Q_NONE, QF(1), QW(1), Q_ABIL, QG(2) }, "After an action with a Diplomacy ship, you may pay 3 GEMs to take an additional turn (once per action)." },
	{ 211, 2, 1, 10, 5, { Q_NONE, QM(1), QG(1), Q_ABIL, QG(2) }, "When using a Construction ship, pay 1 metal less." },
	{ 212, 2, 1,  9, 5, { Q_NONE, QG(1), QF(1), Q_ABIL, QG(2) }, "When using a Dismantle ship, gain 2 extra metal." },
	{ 213, 2, 1, 10, 5, { Q_NONE, QF(1), QW(1), QM(1), QG(2) }, "" },
	{ 214, 2, 1,  9, 5, { Q_NONE, QW(1), QM(1), Q_ABIL, QG(2) }, "When using a Transport ship, +1 transaction." },
	{ 215, 2, 1, 10, 5, { Q_NONE, QM(1), QG(1), Q_ABIL, QG(2) }, "When gaining a Human, pay 1 resource less." },
	{ 216, 2, 1,  9, 5, { Q_NONE, QG(1), QF(1), QW(1), QG(2) }, "" },
	{ 217, 2, 1, 10, 5, { Q_NONE, QF(1), QW(1), Q_ABIL, QG(2) }, "Whenever you gain a Human, gain 1 resource of your choice." },
	{ 218, 2, 1,  9, 5, { Q_NONE, QW(1), QM(1), QG(1), Q_ABIL }, "During income, you may perform 1 transport transaction." },
	{ 221, 2, 2, 10, 5, { Q_NONE, QG(1), QF(1), QW(1), QG(2) }, "" },
	{ 222, 2, 2,  9, 5, { Q_NONE, QF(1), QW(1), QM(1), Q_ABIL }, "During income, you may pay 6 GEMs to gain 1 Human (once)." },
	{ 223, 2, 2, 10, 5, { Q_NONE, QW(1), QM(1), QG(1), QG(2) }, "" },
	{ 224, 2, 2,  9, 5, { Q_NONE, QM(1), QG(1), QF(1), QG(2) }, "" },
	{ 225, 2, 2, 10, 5, { Q_NONE, QG(1), QF(1), QW(1), Q_ABIL }, "During income, do an Expedition: roll 2 dice, keep 1." },
	{ 226, 2, 2,  9, 5, { Q_NONE, QF(1), QW(1), QM(1), Q_ABIL }, "During income, gain 1 point per own Diplomacy token on level 3 or higher, minus 1." },
	{ 227, 2, 2, 10, 5, { Q_NONE, QW(1), QM(1), Q_ABIL, QG(2) }, "When constructing, gain an Alien of the colour of the Sector built (if any is left)." },
	{ 228, 2, 2,  9, 5, { Q_NONE, QM(1), QG(1), QF(1), Q_ABIL }, "During income, you may spend 4 GEMs to gain 2 resources of your choice (once)." },
	{ 301, 3, 0, 14, 6, { Q_NONE, QW(1), QM(1), QG(2), Q_ABIL, QG(3) }, "Immediate: take an additional turn. When using an Expedition ship, afterwards you may do 1 transport transaction." },
	{ 302, 3, 0, 13, 6, { Q_NONE, QM(1), QG(1), QG(2), QF(1), QG(3) }, "Immediate: gain 5 points." },
	{ 303, 3, 0, 14, 6, { Q_NONE, QG(1), QF(1), QG(2), Q_ABIL, QG(3) }, "When using a Transport ship, gain 1 Human for free." },
	{ 304, 3, 0, 13, 6, { Q_NONE, QF(1), QW(1), QG(2), Q_ABIL, QG(3) }, "When using a Dismantle ship, gain 3 extra metal." },
	{ 305, 3, 0, 14, 6, { Q_NONE, QW(1), QM(1), QG(2), QG(1), Q_END }, "End of game: 1 point per 3 metal you have." },
	{ 306, 3, 0, 13, 6, { Q_NONE, QM(1), QG(1), QG(2), Q_ABIL, Q_END }, "End of game: 1 point per teal Alien. When using a Transport ship, you may advance one Diplomacy track for free." },
	{ 307, 3, 0, 14, 6, { Q_NONE, QG(1), QF(1), QG(2), Q_ABIL, QG(3) }, "Immediate: gain 1 Human. During income, you may pay any 2 resources to gain 1 Human." },
	{ 308, 3, 0, 13, 6, { Q_NONE, QF(1), QW(1), QG(2), Q_ABIL, Q_END }, "During income, gain 1 GEM per 2 Humans. End of game: 1 point per Human." },
	{ 311, 3, 1, 14, 6, { Q_NONE, QM(1), QG(1), QG(2), QF(1), QG(3) }, "Immediate: gain 2 brown Aliens (if any are left)." },
	{ 312, 3, 1, 13, 6, { Q_NONE, QG(1), QF(1), QG(2), Q_ABIL, QG(3) }, "When using a Dismantle ship, gain 1 food and 1 water." },
	{ 313, 3, 1, 14, 6, { Q_NONE, QF(1), QW(1), QG(2), QM(1), QG(3) }, "Immediate: gain 5 points." },
	{ 314, 3, 1, 13, 6, { Q_NONE, QW(1), QM(1), QG(2), Q_ABIL, QG(3) }, "When using an Expedition ship, capacity +1." },
	{ 315, 3, 1, 14, 6, { Q_NONE, QM(1), QG(1), QG(2), Q_ABIL, QG(3) }, "When using an Expedition ship, you may reroll any number of dice once (twice with Hub B-4)." },
	{ 316, 3, 1, 13, 6, { Q_NONE, QG(1), QF(1), QG(2), QW(1), Q_END }, "End of game: 1 point per brown Alien." },
	{ 317, 3, 1, 14, 6, { Q_NONE, QF(1), QW(1), QG(2), QM(1), QG(3) }, "Immediate: gain 10 points." },
	{ 318, 3, 1, 13, 6, { Q_NONE, QW(1), QM(1), QG(2), Q_ABIL, QG(3) }, "Immediate: gain 1 Human. When using a Diplomacy ship, gain 1 Human." },
	{ 321, 3, 2, 14, 6, { Q_NONE, QG(1), QF(1), QG(2), Q_ABIL, QG(3) }, "Immediate: roll 7 dice, keep 5 (no Expedition bonuses, no Diplomacy bonuses). When using an Expedition ship, gain 1 food and 1 water." },
	{ 322, 3, 2, 13, 6, { Q_NONE, QF(1), QW(1), QG(2), Q_ABIL, QG(3) }, "When using an Expedition ship, you may pay 4 GEMs to gain a Human (once per action, not using capacity)." },
	{ 323, 3, 2, 14, 6, { Q_NONE, QW(1), QM(1), QG(2), QG(1), QG(3) }, "Immediate: take an additional turn." },
	{ 324, 3, 2, 13, 6, { Q_NONE, QM(1), QG(1), QG(2), Q_ABIL, QG(3) }, "Immediate: gain 2 pink Aliens (if any are left). When using a Transport ship, gain 1 food and 1 water." },
	{ 325, 3, 2, 14, 6, { Q_NONE, QG(1), QF(1), QG(2), Q_ABIL, Q_END }, "End of game: 1 point per pink Alien. When using a Transport ship, gain 1 Alien of any colour for free (not a transaction)." },
	{ 326, 3, 2, 13, 6, { Q_NONE, QF(1), QW(1), QG(2), Q_ABIL, QG(3) }, "Immediate: gain a free Level-1 Sector of a colour you have no Level-1 Sector of. When using a Construction ship, pay 2 metal less." },
	{ 327, 3, 2, 14, 6, { Q_NONE, QW(1), QM(1), QG(2), Q_ABIL, Q_END }, "End of game: 1 point per Human. When using an Expedition ship, roll 2 extra dice." },
	{ 328, 3, 2, 13, 6, { Q_NONE, QM(1), QG(1), QG(2), QF(1), QG(3) }, "" },
};

/*
 * Station Hubs. Abilities are the Reference Guide's; starting goods, free
 * Diplomacy advances and the A-11 hub quarters' income are ours.
 */
const struct ssp_hub_info ssp_hubs[SSP_NHUBS] = {
	{ "B-1", 10, 1, 1, 2, { 0, 1, 0, 0 }, 0, 1, 0, 0, "10 GEMs, 1 food, 1 water, 2 metal; Construct track +1.",
	  "When constructing, gain an Alien of the Sector's colour. End: 2 points per Level-3 Sector." },
	{ "B-2", 8, 1, 1, 1, { 1, 0, 0, 0 }, 0, 1, 0, 0, "8 GEMs, 1 food, 1 water, 1 metal; Dismantle track +1; draw 3 extra Level-2 ships, keep 2.",
	  "When using a Dismantle ship, gain 1 extra metal, food and water." },
	{ "B-3", 9, 1, 2, 0, { 0, 0, 1, 0 }, 0, 1, 0, 0, "9 GEMs, 1 food, 2 water; Transport track +1.",
	  "When using a Transport ship, gain 1 free Alien of any colour (not a transaction)." },
	{ "B-4", 10, 2, 1, 0, { 0, 0, 0, 1 }, 0, 1, 0, 0, "10 GEMs, 2 food, 1 water; Expedition track +1.",
	  "Income: 1 GEM per 2 Humans. Expedition ship: reroll any dice once. End: 1 point per Human." },
	{ "B-5", 10, 1, 1, 1, { 0, 0, 1, 0 }, 0, 1, 0, 0, "10 GEMs, 1 food, 1 water, 1 metal; Transport track +1.",
	  "Income: 1 transport transaction. End: 2 points per Sector with all quarters filled." },
	{ "B-6", 8, 1, 1, 1, { 0, 0, 0, 0 }, 1, 1, 0, 0, "8 GEMs, 1 food, 1 water, 1 metal; 1 advance of your choice; discard the Level-1 Diplomacy ship; free Level-1 brown Sector.",
	  "Income: 1 point. Any time: spend 1 point for 4 GEMs. End: 1 point per brown Alien." },
	{ "B-7", 9, 1, 1, 0, { 0, 1, 0, 0 }, 0, 1, 0, 0, "9 GEMs, 1 food, 1 water; Construct track +1; free Level-1 brown Sector.",
	  "Income: 1 water per 4 brown Aliens. End: 1 point per brown Alien." },
	{ "B-8", 9, 1, 1, 0, { 0, 0, 0, 1 }, 0, 1, 0, 0, "9 GEMs, 1 food, 1 water; Expedition track +1; free Level-1 teal Sector.",
	  "Income: 1 food or 1 water. End: 1 point per teal Alien." },
	{ "B-9", 10, 0, 1, 1, { 1, 0, 0, 0 }, 0, 1, 0, 0, "10 GEMs, 1 water, 1 metal; Dismantle track +1; free Level-1 teal Sector.",
	  "Income: 1 food per 4 teal Aliens. End: 1 point per teal Alien." },
	{ "B-10", 9, 1, 0, 1, { 0, 0, 1, 0 }, 0, 1, 0, 0, "9 GEMs, 1 food, 1 metal; Transport track +1; free Level-1 pink Sector.",
	  "Income: 1 GEM per 2 pink Aliens. End: 1 point per pink Alien." },
	{ "B-11", 8, 1, 1, 0, { 0, 0, 0, 0 }, 0, 1, 0, 3, "8 GEMs, 1 food, 1 water; free Level-1 pink Sector; 3 pink Aliens on the hub.",
	  "3 hub quarters (pink, gold, Humans). End: 1 point per pink Alien." },
	{ "B-12", 10, 1, 1, 1, { 0, 0, 0, 0 }, 1, 1, 0, 0, "10 GEMs, 1 food, 1 water, 1 metal; 1 advance of your choice.",
	  "When using a Diplomacy ship, gain 1 Human. End: 1 point per Human." },
	{ "A-1", 8, 1, 1, 2, { 0, 0, 0, 0 }, 0, 0, 10, 0, "8 GEMs, 1 food, 1 water, 2 metal; draw 2 Level-2 ships, discard 1.",
	  "Income 10 GEMs. Once a turn, before or after your action, convert 1 metal to 1 food or water. End: 20/15/10/5 points for 0/1/2/3 ships left." },
	{ "A-2", 8, 1, 1, 1, { 1, 0, 0, 0 }, 0, 1, 3, 0, "8 GEMs, 1 food, 1 water, 1 metal; Dismantle track +1.",
	  "Income +3 GEMs. Own ships cost 1 less, others' and neutral ships 2 less (minimum 1)." },
	{ "A-3", 10, 1, 1, 0, { 0, 0, 0, 1 }, 0, 1, 0, 0, "10 GEMs, 1 food, 1 water; Expedition track +1.",
	  "After a Transport ship: roll 3 dice, keep 2. After an Expedition ship: 1 transport transaction." },
	{ "A-4", 10, 1, 1, 1, { 0, 0, 1, 0 }, 0, 2, 0, 0, "10 GEMs, 1 food, 1 water, 1 metal; Transport track +1; discard the Level-1 Diplomacy ship.",
	  "Income 2 GEMs per ship. Transport ship +1 transaction. End: 2 points per ship left." },
	{ "A-5", 10, 1, 1, 1, { 0, 0, 0, 0 }, 2, 2, 0, 0, "10 GEMs, 1 food, 1 water, 1 metal; 2 advances of your choice; discard the Level-1 Diplomacy ship and one Level-2 ship.",
	  "Income 2 GEMs per ship. Others' and neutral ships cost 1 less (minimum 1)." },
	{ "A-6", 8, 0, 0, 2, { 0, 1, 0, 0 }, 0, 1, 0, 0, "8 GEMs, 2 metal; Construct track +1; 9 private Sectors (one per colour and level).",
	  "Construction 1 metal cheaper; may build your private Sectors. End: 1 point per Sector." },
	{ "A-7", 8, 1, 1, 0, { 0, 0, 0, 0 }, 2, 1, 0, 0, "8 GEMs, 1 food, 1 water; 2 advances of your choice.",
	  "Income: a Diplomacy action (paying lobbying). Diplomacy ship: +1 point; others' and neutral Diplomacy ships 2 cheaper (minimum 1)." },
	{ "A-8", 9, 1, 1, 1, { 0, 0, 0, 1 }, 0, 1, 0, 0, "9 GEMs, 1 food, 1 water, 1 metal; Expedition track +1; draw 2 Level-2 ships, discard 1.",
	  "Instead of a turn: pay food, water, metal for a Human, then take income. Expedition ship: roll +1, keep +1." },
	{ "A-9", 12, 1, 1, 2, { 0, 0, 0, 0 }, 0, 1, 0, 0, "12 GEMs, 1 food, 1 water, 2 metal; discard one Level-2 ship.",
	  "Build Sectors of a wing in any level order." },
	{ "A-10", 9, 1, 1, 0, { 0, 0, 0, 1 }, 0, 1, 0, 0, "9 GEMs, 1 food, 1 water; Expedition track +1.",
	  "Expedition ships cost 1 less (minimum 1), roll +1, keep +1. Humans cost 1 resource less." },
	{ "A-11", 8, 0, 0, 1, { 0, 0, 0, 0 }, 0, 1, 0, 5, "8 GEMs, 1 metal; one teal, brown, pink, gold Alien and one Human on the hub.",
	  "Hub quarters pay teal 1 food, brown 1 water, pink 1 metal, gold 2 GEMs, Human 2 GEMs. First 5 incomes: move one hub resident to a Sector." },
	{ "A-12", 12, 2, 2, 2, { 0, 0, 0, 0 }, 2, 1, 0, 0, "12 GEMs, 2 food, 2 water, 2 metal; 2 advances of your choice.",
	  "End of each income: return an Alien, a Human or a Sector, or lose 5 points. Construction -1 metal, Dismantle +1 metal, Transport +1, Expedition keep +1." },
};

/* notes */
const int ssp_lobby_cost[6] = { 0, 2, 3, 4, 5, 6 };
/* notes: Dismantle and Construct give metal, Transport water, Expedition food */
const int ssp_track_res[4] = { SSP_METAL, SSP_METAL, SSP_WATER, SSP_FOOD };

const int ssp_humans_by_n[5] = { 0, 0, 16, 20, 24 };
const int ssp_aliens_by_n[5] = { 0, 0, 50, 70, 90 };
const int ssp_l3_display_by_n[5] = { 0, 0, 5, 7, 9 };

/* notes: food, food, water, water, metal, Human; 3 = Human */
const int ssp_die_face[6] = { SSP_FOOD, SSP_FOOD, SSP_WATER, SSP_WATER, SSP_METAL, 3 };

/* the rulebook's predefined first-game sets (B-2 also takes Transport and Dismantle) */
const struct ssp_first_set ssp_first_sets[4] = {
	{ 0, { SSP_CONSTRUCT, SSP_DISMANTLE }, { SSP_EXPEDITION, SSP_DISMANTLE, 0, 0 }, 2 },
	{ 1, { SSP_TRANSPORT, SSP_ICE }, { SSP_CONSTRUCT, SSP_FARM, SSP_TRANSPORT, SSP_DISMANTLE }, 4 },
	{ 2, { SSP_DISMANTLE, SSP_EXPEDITION }, { SSP_DISMANTLE, SSP_CONSTRUCT, 0, 0 }, 2 },
	{ 3, { SSP_EXPEDITION, SSP_CONSTRUCT }, { SSP_EXPEDITION, SSP_TRANSPORT, 0, 0 }, 2 },
};

int ssp_data_ship_find(const char *id)
{
	for (int i = 0; i < SSP_NSHIPS; i++)
		if (strcasecmp(ssp_ships[i].id, id) == 0)
			return i;
	return -1;
}

int ssp_data_sector_find(int id)
{
	for (int i = 0; i < SSP_NSECTORS; i++)
		if (ssp_sectors[i].id == id)
			return i;
	return -1;
}

int ssp_data_hub_find(const char *id)
{
	char want[8];
	size_t n = 0;

	for (const char *p = id; *p && n + 1 < sizeof(want); p++)
		if (*p != '-')
			want[n++] = (char)tolower((unsigned char)*p);
	want[n] = '\0';
	for (int i = 0; i < SSP_NHUBS; i++) {
		char have[8];
		size_t m = 0;
		for (const char *p = ssp_hubs[i].id; *p; p++)
			if (*p != '-')
				have[m++] = (char)tolower((unsigned char)*p);
		have[m] = '\0';
		if (strcmp(want, have) == 0)
			return i;
	}
	return -1;
}
