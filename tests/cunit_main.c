/* tests/cunit_main.c: the main() every CUnit test program shares */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "testutil.h"

/*
 * Runs every suite the program registered (tests_register, one per test
 * file) in CUnit's basic mode. With an argument, runs only the suite of that
 * name. Exit status: 0 when everything passed, 1 otherwise (and 99, the
 * automake "hard error", when CUnit itself failed).
 */
unsigned test_leaked_secrets;

int main(int argc, char **argv)
{
	unsigned failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 99;
	if (tests_register() != 0) {
		fprintf(stderr, "test registration failed: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 99;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	if (argc > 1) {
		CU_pSuite s = CU_get_suite(argv[1]);
		if (!s) {
			fprintf(stderr, "no suite named %s\n", argv[1]);
			CU_cleanup_registry();
			return 99;
		}
		CU_basic_run_suite(s);
	} else {
		CU_basic_run_tests();
	}
	{
		const CU_RunSummary *sum = CU_get_run_summary();
		unsigned not_run = 0;

		/* a suite whose set-up failed ran none of its tests: each of them counts as failed */
		for (CU_pFailureRecord f = CU_get_failure_list(); f; f = f->pNext)
			if (f->type == CUF_SuiteInitFailed && f->pSuite)
				not_run += f->pSuite->uiNumberOfTests ? f->pSuite->uiNumberOfTests : 1;
		(void)sum;
		failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed() + not_run + test_leaked_secrets;
		printf("\n%u passed, %u failed\n", CU_get_number_of_tests_run() - CU_get_number_of_tests_failed(),
		       CU_get_number_of_tests_failed() + not_run + test_leaked_secrets);
	}
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
