/* tests/unit/test_cases.c: the shared rule-case runner reports wrong expectations with their file and line */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "fake_game.h"
#include "games/cases.h"
#include "testutil.h"

#include "util/banned.h"

/* The fake game has no commands of its own. */
static int no_command(struct cases_run *run, void *state, int argc, char **argv, const char *rest)
{
	(void)run;
	(void)state;
	(void)argc;
	(void)argv;
	(void)rest;
	return 1;
}

static const struct cases_game fake_cases = {
	.ops = &fake_game,
	.pure_refusal = 1,
	.command = no_command,
};

static int run(const char *text, struct buf *report)
{
	buf_reset(report);
	return cases_run_text(&fake_cases, "demo.txt", text, report);
}

/* A case whose every line holds passes without a report. */
static void test_cases__passing_case(void)
{
	struct buf report = BUF_INIT;

	CU_ASSERT_EQUAL(run("# two players race to 10\n"
			    "players 2\n"
			    "ok add 2\n"
			    "expect pending p1\n"
			    "expect decision turn\n"
			    "fail add 4 => [illegal] add 1 to 3, not 4\n"
			    "fail p2: add 1 => [forbidden] seat 0's turn\n"
			    "legal end\n"
			    "notlegal p2: end\n"
			    "expect legal add 1 | add 2 | add 3 | roll | end\n"
			    "expect legal p2: none\n"
			    "ok end\n"
			    "expect pending p2\n"
			    "expect reveal no\n"
			    "expect result none\n"
			    "expect view p1 total.0 2\n"
			    "expect view spectator turn 1\n",
			    &report),
			0);
	if (report.len)
		fprintf(stderr, "\n%s", report.data);
	buf_release(&report);
}

/* Each wrong expectation is one failure that names the file and its line. */
static void test_cases__wrong_expectations_fail(void)
{
	struct buf report = BUF_INIT;

	/* the wrong seat on turn, on line 3 */
	CU_ASSERT_EQUAL(run("players 2\nok add 2\nexpect pending p2\n", &report), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:3: expected pending p2, got p1"));
	/* a refusal with another code than the case says, on line 2 */
	CU_ASSERT_EQUAL(run("players 2\nfail add 4 => [input] from 1 to 3\n", &report), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:2: 'add 4' was refused as illegal ('you may add 1 to 3, not 4'); expected input"));
	/* a refusal whose message lacks the part, on line 3 */
	CU_ASSERT_EQUAL(run("players 2\n\nfail end => you may not\n", &report), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:3: refusal message 'add or roll at least once"));
	/* a step that must fail is accepted */
	CU_ASSERT_EQUAL(run("players 2\nfail add 1 => too much\n", &report), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:2: 'add 1' was accepted"));
	/* a step that must pass is refused, and the game goes on from the unchanged position */
	CU_ASSERT_EQUAL(run("players 2\nok end\nexpect pending p1\n", &report), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:2: 'end' was refused: add or roll"));
	/* legal and notlegal, a whole list, a result */
	CU_ASSERT_EQUAL(run("players 2\nlegal end\nnotlegal roll\nexpect legal roll\nexpect result winners [0]\n", &report), 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:5: expected a result with winners, the game is not over"));
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:2: 'end' is not listed by legal"));
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:3: 'roll' is listed by legal"));
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:4: expected legal roll, got add 1 | add 2 | add 3 | roll"));
	/* a part of the view */
	CU_ASSERT_EQUAL(run("players 2\nok add 2\nexpect view p1 total.0 3\nexpect view p1 nothing.here 1\n", &report), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:3: expected view total.0 3, got 2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:4: expected view nothing.here 1, got (missing)"));
	/* unknown commands and checks, and steps before any position */
	CU_ASSERT_EQUAL(run("ok add 1\nplayers 2\nfly\nexpect colour red\n", &report), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:1: 'ok' before any 'players' line"));
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:3: unknown command 'fly'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "demo.txt:4: unknown expectation 'colour'"));
	buf_release(&report);
}

/* A directory that is not there is a failure, not an empty pass. */
static void test_cases__missing_directory(void)
{
	struct buf report = BUF_INIT;
	int nfiles = 7;

	CU_ASSERT_EQUAL(cases_run_dir(&fake_cases, "tests/games/no-such-game/cases", &nfiles, &report), -1);
	CU_ASSERT_EQUAL(nfiles, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(report.data, "cannot read the directory"));
	buf_release(&report);
}

static CU_TestInfo cases_cases[] = {
	{ "test_cases__passing_case", test_cases__passing_case },
	{ "test_cases__wrong_expectations_fail", test_cases__wrong_expectations_fail },
	{ "test_cases__missing_directory", test_cases__missing_directory },
	CU_TEST_INFO_NULL,
};

int tests_register(void)
{
	TESTS_SUITE("cases", NULL, NULL, cases_cases);
	return 0;
}
