# src/engine/local.mk: build fragment of the engine (game interface, registry, actions, steps, views, replay, cache), included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/engine/game.h \
	src/engine/rng.c src/engine/rng.h \
	src/engine/registry.c src/engine/registry.h \
	src/engine/engine.c src/engine/engine.h \
	src/engine/submit.c src/engine/submit.h src/engine/views.c src/engine/views.h \
	src/engine/replay.c src/engine/replay.h \
	src/engine/cache.c src/engine/cache.h \
	src/engine/manage.c src/engine/manage.h \
	src/engine/actor.c src/engine/actor.h src/engine/tokens.c src/engine/tokens.h \
	src/engine/signin.c src/engine/signin.h src/engine/outbox.c src/engine/outbox.h \
	src/engine/chat.c src/engine/chat.h src/engine/channel.c src/engine/channel.h src/engine/join.c src/engine/join.h \
	src/engine/account.c src/engine/account.h src/engine/create.c src/engine/create.h \
	src/engine/health.c src/engine/health.h \
	src/engine/story.c src/engine/story.h \
	src/engine/access.c src/engine/access.h \
	src/engine/share.c src/engine/share.h \
	src/engine/taps.c src/engine/taps.h \
	src/engine/account_email.c src/engine/account_email.h \
	src/engine/unsubscribe.c src/engine/unsubscribe.h

check_PROGRAMS += tests/unit/test_engine
tests_unit_test_engine_SOURCES = tests/unit/test_engine.c tests/fake_game.c tests/fake_game.h tests/cunit_main.c
tests_unit_test_engine_LDADD = $(TEST_LDADD)
# Export/import beyond the log: clocks, chat, invitations, the audit row
check_PROGRAMS += tests/unit/test_import
tests_unit_test_import_SOURCES = tests/unit/test_import.c tests/fake_game.c tests/fake_game.h tests/cunit_main.c
tests_unit_test_import_LDADD = $(TEST_LDADD)
# The engine's actions, one suite per module, against a real store
check_PROGRAMS += tests/unit/test_actions
tests_unit_test_actions_SOURCES = tests/unit/test_actions.c tests/unit/actions_fixture.c tests/unit/actions_fixture.h \
	tests/unit/test_tokens.c tests/unit/test_signin.c tests/unit/test_outbox.c tests/unit/test_chat.c \
	tests/unit/test_join.c tests/unit/test_account.c tests/unit/test_create.c \
	tests/fake_game.c tests/fake_game.h tests/cunit_main.c tests/testutil.h
tests_unit_test_actions_LDADD = $(TEST_LDADD)
# The position cache and the reply writer: cached answers equal uncached ones
check_PROGRAMS += tests/unit/test_cache
tests_unit_test_cache_SOURCES = tests/unit/test_cache.c tests/cunit_main.c tests/testutil.h
tests_unit_test_cache_LDADD = $(TEST_LDADD)
# Group commit: concurrent submissions sharing commits
check_PROGRAMS += tests/unit/test_group
tests_unit_test_group_SOURCES = tests/unit/test_group.c tests/fake_game.c tests/fake_game.h tests/cunit_main.c
tests_unit_test_group_LDADD = $(TEST_LDADD)
# The rule-case runner the games' tests share (tests/games/cases.README) reports what fails, with file and line
check_PROGRAMS += tests/unit/test_cases
tests_unit_test_cases_SOURCES = tests/unit/test_cases.c tests/games/cases.c tests/games/cases.h \
	tests/fake_game.c tests/fake_game.h tests/cunit_main.c tests/testutil.h
tests_unit_test_cases_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/games/cases.README
# The registry and the build agree (a folder, a build line and a registry entry per game, one layout); every
# game's game_ops passes a smoke test
check_PROGRAMS += tests/unit/test_registry
tests_unit_test_registry_SOURCES = tests/unit/test_registry.c tests/cunit_main.c tests/testutil.h
tests_unit_test_registry_LDADD = $(TEST_LDADD)
# The story of a game: the log in words per reader, since your last turn, replay positions; undo ends with the turn
check_PROGRAMS += tests/unit/test_story
tests_unit_test_story_SOURCES = tests/unit/test_story.c tests/fake_game.c tests/fake_game.h tests/cunit_main.c \
	tests/testutil.h
tests_unit_test_story_LDADD = $(TEST_LDADD)

# a user's private feeds: their token, the games they list (docs/web.md "Feeds")
libturnpost_a_SOURCES += src/engine/feeds.c src/engine/feeds.h
