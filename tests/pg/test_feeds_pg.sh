#!/bin/sh
# tests/pg/test_feeds_pg.sh: the private feeds' HTTP suite (tests/http/test_feeds) with turnpostd on a throwaway PostgreSQL cluster
# SPDX-License-Identifier: MIT
exec sh "${TOP_SRCDIR:-.}/tests/pg/run.sh" "${TOP_BUILDDIR:-.}/tests/http/test_feeds"
