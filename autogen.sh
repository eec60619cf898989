#!/bin/sh
# autogen.sh: generate ./configure from configure.ac and Makefile.am
# SPDX-License-Identifier: MIT
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf --install --force
