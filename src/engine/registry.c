/* engine/registry.c: the static table of hosted games */
/* SPDX-License-Identifier: MIT */
#include "engine/registry.h"

#include <string.h>

#include "games/alien-frontiers/alien_frontiers.h"
#include "games/space-station-phoenix/space_station_phoenix.h"
#include "games/starship-merchants/starship_merchants.h"
#include "util/banned.h"

/* The hosted games, in catalog order; the rest of the table is room for tests' games. */
static const struct game_ops *games[16] = {
	&game_alien_frontiers,
	&game_space_station_phoenix,
	&game_starship_merchants,
	NULL
};

static size_t ngames_static(void)
{
	size_t n = 0;

	while (n < sizeof(games) / sizeof(games[0]) && games[n])
		n++;
	return n;
}

const struct game_ops *registry_find(const char *id)
{
	for (size_t i = 0; id && i < sizeof(games) / sizeof(games[0]) && games[i]; i++)
		if (strcmp(games[i]->id, id) == 0)
			return games[i];
	return NULL;
}

const struct game_ops *registry_at(size_t i)
{
	return i < sizeof(games) / sizeof(games[0]) ? games[i] : NULL;
}

void registry_add_for_tests(const struct game_ops *ops)
{
	size_t n = ngames_static();

	if (registry_find(ops->id))
		return;
	if (n < sizeof(games) / sizeof(games[0]))
		games[n] = ops;
}
