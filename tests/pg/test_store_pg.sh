#!/bin/sh
# tests/pg/test_store_pg.sh: the store's suite (tests/unit/test_store) on a throwaway PostgreSQL cluster
# SPDX-License-Identifier: MIT
exec sh "${TOP_SRCDIR:-.}/tests/pg/run.sh" "${TOP_BUILDDIR:-.}/tests/unit/test_store"
