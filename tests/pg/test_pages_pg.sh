#!/bin/sh
# tests/pg/test_pages_pg.sh: the web pages, the admin console and inbound mail suites with turnpostd on PostgreSQL
# SPDX-License-Identifier: MIT
# One throwaway cluster for the three (each daemon gets a new database of it); every suite runs, the first failure counts.
b=${TOP_BUILDDIR:-.}
exec sh "${TOP_SRCDIR:-.}/tests/pg/run.sh" sh -c \
	'rc=0; for t in "$@"; do "$t" || { s=$?; [ $rc != 0 ] || rc=$s; }; done; exit $rc' sh \
	"$b/tests/http/test_web" "$b/tests/http/test_admin" "$b/tests/email/test_inbound"
