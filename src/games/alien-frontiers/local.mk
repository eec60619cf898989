# src/games/alien-frontiers/local.mk: build fragment of the alien-frontiers game, included by Makefile.am
# SPDX-License-Identifier: MIT
