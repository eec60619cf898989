/* tests/testutil.h: helpers shared by the CUnit test programs */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_TESTUTIL_H
#define TURNPOST_TESTS_TESTUTIL_H

#include <CUnit/CUnit.h>

/* Each test program defines this: add its suites to the CUnit registry. 0 or -1. */
int tests_register(void);

/* Add a suite with its cases from a NULL-terminated CU_TestInfo array. */
#define TESTS_SUITE(name, init, clean, cases) \
	do { \
		CU_pSuite s_ = CU_add_suite((name), (init), (clean)); \
		if (!s_) \
			return -1; \
		for (CU_TestInfo *t_ = (cases); t_->pName; t_++) \
			if (!CU_add_test(s_, t_->pName, t_->pTestFunc)) \
				return -1; \
	} while (0)

/*
 * Secrets found in the logs a test program's daemons wrote (tests/http/httptest.c scans each daemon's log
 * before its directory goes): each counts as a failure of the program (tests/cunit_main.c).
 */
extern unsigned test_leaked_secrets;

/* Assert two C strings are equal and print both when they are not. */
#define ASSERT_STR_EQ(actual, expected) \
	do { \
		const char *a_ = (actual), *e_ = (expected); \
		if (!a_ || !e_ || strcmp(a_, e_) != 0) \
			fprintf(stderr, "\n  %s:%d: got \"%s\", expected \"%s\"\n", __FILE__, __LINE__, \
				a_ ? a_ : "(null)", e_ ? e_ : "(null)"); \
		CU_ASSERT_STRING_EQUAL(a_ ? a_ : "(null)", e_ ? e_ : "(null)"); \
	} while (0)

#endif
