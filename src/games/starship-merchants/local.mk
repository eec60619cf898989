# src/games/starship-merchants/local.mk: build fragment of the starship-merchants game, included by Makefile.am
# SPDX-License-Identifier: MIT
