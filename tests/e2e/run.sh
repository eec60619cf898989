#!/bin/sh
# tests/e2e/run.sh: run the browser tests (node's test runner, playwright-core, Debian's chromium)
# SPDX-License-Identifier: MIT
# The tests run from a copy in the build tree, where npm installs playwright-core.
# Exit 77 (skipped) only when this machine has no chromium or node; contrib/setup.sh installs both.
#   run.sh [FILE.test.mjs...]   the given files only (default: every *.test.mjs)
#   run.sh --screenshots        the whole games by taps only, writing docs/screenshots/<game>.jpg of the source tree
set -u
src=$(cd "$(dirname "$0")" && pwd)
: "${TOP_BUILDDIR:=$(pwd)}"
export TOP_BUILDDIR
command -v node >/dev/null 2>&1 || { echo "node is not installed: skipping the browser tests"; exit 77; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "chromium is not installed: skipping the browser tests"; exit 77; }
work="$TOP_BUILDDIR/tests/e2e-run"
mkdir -p "$work"
# the tests and the modules they share (harness.mjs)
cp "$src/package.json" "$src/package-lock.json" "$src"/*.mjs "$work/"
if [ "${1:-}" = --screenshots ]; then
	shift
	SCREENSHOTS=$(cd "$src/../../docs" && pwd)/screenshots
	mkdir -p "$SCREENSHOTS" || exit 99
	export SCREENSHOTS
	set -- taps.test.mjs taps_ssp_sm.test.mjs
fi
if ! cmp -s "$src/package-lock.json" "$work/node_modules/.turnpost-lock" 2>/dev/null; then
	(cd "$work" && npm ci --no-audit --no-fund --silent) || exit 99
	cp "$src/package-lock.json" "$work/node_modules/.turnpost-lock"
fi
# Files at once (E2E_JOBS): node's default is one fewer than the CPUs, one on two; each file has its daemon and
# chromium, and a file waits on them in turn, so two at once finish sooner even on two CPUs.
jobs=${E2E_JOBS:-$(( $(nproc 2>/dev/null || echo 2) - 1 ))}
[ "$jobs" -ge 2 ] 2>/dev/null || jobs=2
out=$(cd "$work" && node --test --test-concurrency="$jobs" --test-reporter=tap "$@" 2>&1)
status=$?
printf '%s\n' "$out"
pass=$(printf '%s\n' "$out" | sed -n 's/^# pass \([0-9]*\)$/\1/p' | tail -n 1)
fail=$(printf '%s\n' "$out" | sed -n 's/^# fail \([0-9]*\)$/\1/p' | tail -n 1)
echo "${pass:-0} passed, ${fail:-0} failed"
exit $status
