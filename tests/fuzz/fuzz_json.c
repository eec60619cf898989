/* fuzz_json.c: fuzz target for JSON bodies: game options, time controls, snapshots */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/game.h"
#include "engine/registry.h"
#include "engine/rng.h"
#include "fuzz/fuzz.h"
#include "notify/notify.h"
#include "store/store.h"
#include "util/err.h"
#include "util/banned.h"

const char *const fuzz_corpora[] = { "tests/fuzz/corpus/json", NULL };

/* setup of every game with these options, for the fewest and the most players. */
static void fuzz_json_options(const json_t *options)
{
	for (size_t g = 0; registry_at(g); g++) {
		const struct game_ops *ops = registry_at(g);
		int counts[2] = { ops->min_players, ops->max_players };
		for (int k = 0; k < 2; k++) {
			struct err e = {0};
			struct rng rng;
			void *state = NULL;
			rng_seed(&rng, 11);
			if (ops->setup(options, counts[k], &rng, &state, &e) == 0)
				ops->state_free(state);
			else if (!e.msg[0])
				abort(); /* a refusal says why */
		}
	}
}

/* decode of every game: what decodes encodes, and that decodes to the same encoding. */
static void fuzz_json_snapshot(const json_t *v)
{
	for (size_t g = 0; registry_at(g); g++) {
		const struct game_ops *ops = registry_at(g);
		struct err e = {0};
		void *state = NULL, *again = NULL;
		json_t *once = NULL, *twice = NULL;

		if (ops->decode(v, &state, &e) < 0)
			continue;
		if (ops->encode(state, &once, &e) < 0 || ops->decode(once, &again, &e) < 0 ||
		    ops->encode(again, &twice, &e) < 0 || !json_equal(once, twice))
			abort();
		ops->state_free(state);
		ops->state_free(again);
		json_decref(once);
		json_decref(twice);
	}
}

/*
 * The input is a request body. It is read as the API reads bodies (duplicate
 * keys refused); the object itself and its "options" go to every game's
 * setup, the object and its "clock" to the time control reader, and the
 * value to every game's snapshot decoder (whose round trip must hold).
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *v = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);
	struct store_game_clock clock;
	struct err e = {0};

	if (!v)
		return 0;
	if (json_is_object(v)) {
		fuzz_json_options(v);
		if (json_is_object(json_object_get(v, "options")))
			fuzz_json_options(json_object_get(v, "options"));
		memset(&clock, 0, sizeof(clock));
		notify_clock_parse(v, &clock, &e);
		memset(&clock, 0, sizeof(clock));
		err_clear(&e);
		notify_clock_parse(json_object_get(v, "clock"), &clock, &e);
	}
	fuzz_json_snapshot(v);
	json_decref(v);
	return 0;
}
