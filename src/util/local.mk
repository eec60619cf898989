# src/util/local.mk: build fragment of the utilities (errors, buffers, clock, log, tokens, SVG, the games' taps), included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/util/err.c src/util/err.h \
	src/util/buf.c src/util/buf.h \
	src/util/banned.h \
	src/util/clock.c src/util/clock.h \
	src/util/log.c src/util/log.h \
	src/util/token.c src/util/token.h \
	src/util/embed.h \
	src/util/svg.c src/util/svg.h \
	src/util/picks.c src/util/picks.h src/util/tapdraw.c src/util/tapdraw.h \
	src/util/netaddr.c src/util/netaddr.h \
	src/util/words.c src/util/words.h
libturnpost_a_SOURCES += src/util/seal.c src/util/seal.h

check_PROGRAMS += tests/unit/test_util
tests_unit_test_util_SOURCES = tests/unit/test_util.c tests/cunit_main.c tests/testutil.h
tests_unit_test_util_LDADD = $(TEST_LDADD)
