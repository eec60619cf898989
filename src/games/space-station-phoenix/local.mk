# src/games/space-station-phoenix/local.mk: build fragment of the space-station-phoenix game, included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/games/space-station-phoenix/space_station_phoenix.h \
	src/games/space-station-phoenix/ssp_internal.h \
	src/games/space-station-phoenix/ssp_data.c \
	src/games/space-station-phoenix/ssp_data.h \
	src/games/space-station-phoenix/ssp_game.c \
	src/games/space-station-phoenix/ssp_bot.c \
	src/games/space-station-phoenix/ssp_rules.c \
	src/games/space-station-phoenix/ssp_text.c \
	src/games/space-station-phoenix/ssp_view.c \
	src/games/space-station-phoenix/ssp_board.c \
	src/games/space-station-phoenix/ssp_story.c \
	src/games/space-station-phoenix/ssp_picks.c

check_PROGRAMS += tests/games/space-station-phoenix/test_ssp
tests_games_space_station_phoenix_test_ssp_SOURCES = \
	tests/games/space-station-phoenix/test_ssp.c \
	tests/games/space-station-phoenix/test_ssp_play.c \
	tests/games/space-station-phoenix/test_ssp_abilities.c \
	tests/games/space-station-phoenix/ssp_testlib.c \
	tests/games/space-station-phoenix/ssp_testlib.h \
	tests/games/picks_check.c tests/games/picks_check.h \
	tests/games/cases.c tests/games/cases.h tests/cunit_main.c tests/testutil.h
tests_games_space_station_phoenix_test_ssp_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/games/space-station-phoenix/cases
