/* engine/registry.h: the static table of hosted games */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_ENGINE_REGISTRY_H
#define TURNPOST_ENGINE_REGISTRY_H

#include "engine/game.h"

/* The game with this id, or NULL. Borrowed (static). */
const struct game_ops *registry_find(const char *id);
/* The i-th game, or NULL past the end. */
const struct game_ops *registry_at(size_t i);
/* Make an extra game findable (tests use this for their fake game). Not thread-safe: call before serving. */
void registry_add_for_tests(const struct game_ops *ops);

#endif
