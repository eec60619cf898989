/* tests/games/cases.h: the rule-case language the games' tests share: line reading, steps through game_ops, failures with file:line */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_CASES_H
#define TURNPOST_TESTS_CASES_H

#include <stddef.h>

#include "engine/game.h"
#include "util/buf.h"

/*
 * A case file is one command a line; '#' starts a comment. The runner knows
 * the commands every game shares (tests/games/cases.README lists them):
 * "players N [SEED]", "seed N", the steps "ok", "fail", "legal", "notlegal",
 * and the checks "expect pending|decision|reveal|legal|result". Everything
 * else (the position set-up and the game's own checks) goes to the game's
 * command hook.
 */

struct cases_run;

struct cases_game {
	const struct game_ops *ops;
	/*
	 * A refused step is tried on a copy of the position: of this many bytes
	 * when the state is one flat struct, else (0) made through encode and
	 * decode.
	 */
	size_t state_size;
	/* Also check that a refused step left the position unchanged (its bytes, or its snapshot). */
	int pure_refusal;
	/*
	 * "players N [SEED]": a new state for N players, the run's rng seeded
	 * first. NULL: the game's own set-up (ops->setup) with the run's rng.
	 * 0 or a failure reported with cases_fail (then -1).
	 */
	int (*players)(struct cases_run *run, int n, void **state);
	/*
	 * A command of the game: position set-up or, when argv[0] is "expect",
	 * one of its checks. argv are the words (comment removed; argv[i] is
	 * NULL for argc <= i < 48), rest the text after argv[0] with its spaces
	 * kept. 0 when the command was the game's
	 * (failures reported with cases_fail), 1 when it does not know it.
	 */
	int (*command)(struct cases_run *run, void *state, int argc, char **argv, const char *rest);
	/* Optional: called before each step and check (derived fields brought up to date). */
	void (*refresh)(void *state);
	/* Optional: called after each accepted step. */
	void (*after_step)(struct cases_run *run, void *state);
};

struct cases_run {
	const struct cases_game *game;
	void *state;      /* the position; NULL before "players" */
	struct rng rng;   /* the game's random numbers */
	const char *file; /* the name failures carry */
	int line;
	int failures;
	int last_rc;      /* apply's result for the last accepted step */
	int last_seat;    /* the seat that played it */
	struct buf *report; /* failures are appended here, one line each */
	void *before;     /* the position before the last accepted step (NULL before any) */
	void *last_move;  /* that step, parsed for before */
};

/* The names the runner gives seats p1..p4 for "expect describe": Ann, Zed, Yara, Bo. */
extern const char *const cases_names[4];

/* Report a failure at the current file and line (and count it). */
void cases_fail(struct cases_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "p2" -> 1; -1 for anything else. */
int cases_seat(const char *word);
/* The seat words "p1".."p4" of a seat mask in out ("p1 p3"; "none" for 0). */
void cases_seats_text(unsigned seats, char *out, size_t size);
/* Compare a number word with got; a failure naming what when they differ. Returns 0 when equal. */
int cases_expect_int(struct cases_run *run, const char *what, const char *want, long got);
/* Compare text with got, the same way. */
int cases_expect_str(struct cases_run *run, const char *what, const char *want, const char *got);

/*
 * Run the case text (lines separated by '\n') as if it were the file name.
 * Failures are appended to report. Returns the number of failures.
 */
int cases_run_text(const struct cases_game *game, const char *name, const char *text, struct buf *report);

/*
 * Run every *.txt file of the directory $TOP_SRCDIR/subdir in name order.
 * Returns the number of failures (-1 when the directory cannot be read); the
 * files run in *nfiles.
 */
int cases_run_dir(const struct cases_game *game, const char *subdir, int *nfiles, struct buf *report);

/* The CUnit case for a game: runs the directory, prints the failures, asserts none and at least min_files files. */
void cases_check_dir(const struct cases_game *game, const char *subdir, int min_files);

#endif
