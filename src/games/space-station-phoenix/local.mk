# src/games/space-station-phoenix/local.mk: build fragment of the space-station-phoenix game, included by Makefile.am
# SPDX-License-Identifier: MIT
