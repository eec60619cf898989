# src/store/local.mk: build fragment of the store (SQLite persistence), included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/store/store.c src/store/store.h src/store/store_int.h src/store/sqlite.c \
	src/store/user.c src/store/user.h \
	src/store/game.c src/store/game.h \
	src/store/seat.c src/store/seat.h \
	src/store/move.c src/store/move.h \
	src/store/chat.c src/store/chat.h \
	src/store/idem.c src/store/idem.h \
	src/store/outbox.c src/store/outbox.h \
	src/store/audit.c src/store/audit.h \
	src/store/game_clock.c src/store/game_clock.h \
	src/store/vacation.c src/store/vacation.h \
	src/store/reply_token.c src/store/reply_token.h \
	src/store/inbound_mail.c src/store/inbound_mail.h

check_PROGRAMS += tests/unit/test_store
tests_unit_test_store_SOURCES = tests/unit/test_store.c tests/cunit_main.c tests/testutil.h
tests_unit_test_store_LDADD = $(TEST_LDADD)
