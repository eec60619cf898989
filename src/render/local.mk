# src/render/local.mk: build fragment of the template renderer, included by Makefile.am
# SPDX-License-Identifier: MIT
