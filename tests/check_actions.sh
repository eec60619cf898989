#!/bin/sh
# tests/check_actions.sh: the pages and the API act through the engine: src/http/ calls no store_* function
# SPDX-License-Identifier: MIT
#
# Usage: check_actions.sh [ROOT]  (ROOT: a source tree, default the one this script is in)
# Every action (revoke, re-send, chat, join, sign-in, account changes, new
# games) and every read lives once in src/engine/ (docs/engine.md); http/
# parses, calls the engine and formats. A call of a store_* function from a
# file of src/http/ (its types, struct store_..., may be named) is a second
# home for something: this prints each and exits 1.
set -u
top=${1:-${TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}}
cd "$top" || exit 99
[ -d src/http ] || { echo "check_actions: no src/http/ in $top"; exit 99; }
calls=$(grep -n -E '(^|[^A-Za-z0-9_])store_[a-z0-9_]+[[:space:]]*\(' src/http/*.c src/http/*.h 2>/dev/null |
	grep -v -E '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*)')
if [ -n "$calls" ]; then
	echo "$calls"
	echo "check_actions: src/http/ calls the store itself; call the engine (docs/engine.md)"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "1 passed, 0 failed"
exit 0
