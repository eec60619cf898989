# src/store/local.mk: build fragment of the store (SQLite persistence), included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/store/store.c src/store/store.h src/store/store_int.h src/store/sqlite.c src/store/pg.c \
	src/store/copy.c src/store/copy.h \
	src/store/user.c src/store/user.h \
	src/store/email_change.c src/store/email_change.h \
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
	src/store/inbound_mail.c src/store/inbound_mail.h \
	src/store/server_key.c src/store/server_key.h \
	src/store/push_sub.c src/store/push_sub.h \
	src/store/retention.c src/store/retention.h
libturnpost_a_SOURCES += src/store/channel.c src/store/channel.h
libturnpost_a_SOURCES += src/store/feed_token.c src/store/feed_token.h

check_PROGRAMS += tests/unit/test_store
tests_unit_test_store_SOURCES = tests/unit/test_store.c tests/cunit_main.c tests/testutil.h
tests_unit_test_store_LDADD = $(TEST_LDADD)

# The store's suite and an HTTP suite again on a throwaway PostgreSQL cluster, and several daemons on one
# database (skipped, saying so, where PostgreSQL's server binaries are not installed)
check_PROGRAMS += tests/pg/test_pg
tests_pg_test_pg_SOURCES = tests/pg/test_pg.c tests/http/httptest.c tests/http/httptest.h tests/cunit_main.c \
	tests/fake_game.c tests/fake_game.h
tests_pg_test_pg_LDADD = $(TEST_LDADD)
tests_pg_test_pg_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
# Two daemons under load, one of them killed; whole games of the three games across two daemons
check_PROGRAMS += tests/pg/test_scale
tests_pg_test_scale_SOURCES = tests/pg/test_scale.c tests/http/httptest.c tests/http/httptest.h tests/cunit_main.c \
	tests/fake_game.c tests/fake_game.h
tests_pg_test_scale_LDADD = $(TEST_LDADD)
tests_pg_test_scale_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
TESTS += tests/pg/test_store_pg.sh tests/pg/test_api_pg.sh tests/pg/test_pages_pg.sh
EXTRA_DIST += tests/pg/run.sh tests/pg/test_store_pg.sh tests/pg/test_api_pg.sh tests/pg/test_pages_pg.sh
TESTS += tests/pg/test_migrate.sh
EXTRA_DIST += tests/pg/test_migrate.sh

# What the database holds right now, for /metrics
libturnpost_a_SOURCES += src/store/stats.c src/store/stats.h
