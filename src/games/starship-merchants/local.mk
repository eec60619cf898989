# src/games/starship-merchants/local.mk: build fragment of the starship-merchants game, included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/games/starship-merchants/starship_merchants.h \
	src/games/starship-merchants/sm_internal.h \
	src/games/starship-merchants/sm_data.c src/games/starship-merchants/sm_data.h \
	src/games/starship-merchants/sm_game.c \
	src/games/starship-merchants/sm_state.c \
	src/games/starship-merchants/sm_rules.c \
	src/games/starship-merchants/sm_text.c \
	src/games/starship-merchants/sm_view.c \
	src/games/starship-merchants/sm_bot.c \
	src/games/starship-merchants/sm_board.c \
	src/games/starship-merchants/sm_story.c \
	src/games/starship-merchants/sm_picks.c

check_PROGRAMS += tests/games/starship-merchants/test_sm_rules tests/games/starship-merchants/test_sm_props
tests_games_starship_merchants_test_sm_rules_SOURCES = \
	tests/games/starship-merchants/test_sm_rules.c \
	tests/games/starship-merchants/sm_testlib.c tests/games/starship-merchants/sm_testlib.h \
	tests/games/cases.c tests/games/cases.h tests/cunit_main.c tests/testutil.h
tests_games_starship_merchants_test_sm_rules_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/games/starship-merchants/cases
tests_games_starship_merchants_test_sm_props_SOURCES = \
	tests/games/starship-merchants/test_sm_props.c \
	tests/games/starship-merchants/sm_testlib.c tests/games/starship-merchants/sm_testlib.h \
	tests/games/picks_check.c tests/games/picks_check.h \
	tests/cunit_main.c tests/testutil.h
tests_games_starship_merchants_test_sm_props_LDADD = $(TEST_LDADD)

# measures game length and winning scores of bot games (a tool, not a test)
noinst_PROGRAMS += tests/games/starship-merchants/sm_measure
tests_games_starship_merchants_sm_measure_SOURCES = tests/games/starship-merchants/sm_measure.c
tests_games_starship_merchants_sm_measure_LDADD = $(LDADD)
