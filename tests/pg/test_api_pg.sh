#!/bin/sh
# tests/pg/test_api_pg.sh: the HTTP API suite (tests/http/test_api) with turnpostd on a throwaway PostgreSQL cluster
# SPDX-License-Identifier: MIT
exec sh "${TOP_SRCDIR:-.}/tests/pg/run.sh" "${TOP_BUILDDIR:-.}/tests/http/test_api"
