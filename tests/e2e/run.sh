#!/bin/sh
# tests/e2e/run.sh: run the browser tests (node's test runner, playwright-core, Debian's chromium)
# SPDX-License-Identifier: MIT
# The tests run from a copy in the build tree, where npm installs playwright-core.
# Exit 77 (skipped) only when this machine has no chromium or node; contrib/setup.sh installs both.
set -u
src=$(cd "$(dirname "$0")" && pwd)
: "${TOP_BUILDDIR:=$(pwd)}"
export TOP_BUILDDIR
command -v node >/dev/null 2>&1 || { echo "node is not installed: skipping the browser tests"; exit 77; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "chromium is not installed: skipping the browser tests"; exit 77; }
work="$TOP_BUILDDIR/tests/e2e-run"
mkdir -p "$work"
cp "$src/package.json" "$src/package-lock.json" "$src"/*.test.mjs "$work/"
if ! cmp -s "$src/package-lock.json" "$work/node_modules/.turnpost-lock" 2>/dev/null; then
	(cd "$work" && npm ci --no-audit --no-fund --silent) || exit 99
	cp "$src/package-lock.json" "$work/node_modules/.turnpost-lock"
fi
out=$(cd "$work" && node --test --test-reporter=tap 2>&1)
status=$?
printf '%s\n' "$out"
pass=$(printf '%s\n' "$out" | sed -n 's/^# pass \([0-9]*\)$/\1/p' | tail -n 1)
fail=$(printf '%s\n' "$out" | sed -n 's/^# fail \([0-9]*\)$/\1/p' | tail -n 1)
echo "${pass:-0} passed, ${fail:-0} failed"
exit $status
