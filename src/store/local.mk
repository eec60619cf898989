# src/store/local.mk: build fragment of the store (SQLite persistence), included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/store/store.c src/store/store.h src/store/store_int.h \
	src/store/user.c src/store/game.c \
	src/store/admin.c src/store/admin.h src/store/audit.c \
	src/store/outbox.c src/store/clock.c \
	src/store/inbound.c src/store/inbound.h

check_PROGRAMS += tests/unit/test_store
tests_unit_test_store_SOURCES = tests/unit/test_store.c tests/cunit_main.c tests/testutil.h
tests_unit_test_store_LDADD = $(TEST_LDADD)
