#!/bin/sh
# tests/pg/test_chan_pg.sh: the chat channels' HTTP suite (tests/http/test_chan) with turnpostd on a throwaway PostgreSQL cluster
# SPDX-License-Identifier: MIT
exec sh "${TOP_SRCDIR:-.}/tests/pg/run.sh" "${TOP_BUILDDIR:-.}/tests/http/test_chan"
