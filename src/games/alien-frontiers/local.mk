# src/games/alien-frontiers/local.mk: build fragment of the alien-frontiers game, included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/games/alien-frontiers/alien_frontiers.h \
	src/games/alien-frontiers/af_internal.h \
	src/games/alien-frontiers/af_data.c src/games/alien-frontiers/af_data.h \
	src/games/alien-frontiers/af_game.c \
	src/games/alien-frontiers/af_rules.c \
	src/games/alien-frontiers/af_text.c \
	src/games/alien-frontiers/af_view.c \
	src/games/alien-frontiers/af_bot.c \
	src/games/alien-frontiers/af_board.c \
	src/games/alien-frontiers/af_story.c \
	src/games/alien-frontiers/af_picks.c

check_PROGRAMS += tests/games/alien-frontiers/test_af
tests_games_alien_frontiers_test_af_SOURCES = \
	tests/games/alien-frontiers/test_af.c \
	tests/games/alien-frontiers/test_af_props.c \
	tests/games/alien-frontiers/af_test.h \
	tests/games/cases.c tests/games/cases.h tests/cunit_main.c tests/testutil.h
tests_games_alien_frontiers_test_af_LDADD = $(TEST_LDADD)

EXTRA_DIST += tests/games/alien-frontiers/cases
