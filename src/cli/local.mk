# src/cli/local.mk: build fragment of turnpost, the admin command line, included by Makefile.am
# SPDX-License-Identifier: MIT
# The commands live in the library so that tests/turnpost-test can add the test game to them.
libturnpost_a_SOURCES += \
	src/cli/cli.c src/cli/cli.h src/cli/user.c src/cli/token.c src/cli/game.c src/cli/replay.c \
	src/cli/action.c src/cli/outbox.c src/cli/backup.c src/cli/migrate.c
turnpost_SOURCES = src/cli/main.c

# The command table: help, per-command usage, declared options, and the man page agree
TESTS += tests/cli/test_table.sh
EXTRA_DIST += tests/cli/test_table.sh
# turnpost reads turnpostd's config file and environment, and refuses a database that is not there
TESTS += tests/cli/test_config.sh
EXTRA_DIST += tests/cli/test_config.sh
# Every setting works as flag, variable and config key; the man page and docs/operations.md list the table
TESTS += tests/cli/test_settings.sh
EXTRA_DIST += tests/cli/test_settings.sh
# Both programs report the commit they were built from (tools/version.sh)
TESTS += tests/cli/test_version.sh
EXTRA_DIST += tests/cli/test_version.sh
# backup under write load, restore, and the schema guard (a newer or foreign database is refused)
TESTS += tests/cli/test_backup.sh
EXTRA_DIST += tests/cli/test_backup.sh
