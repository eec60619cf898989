#!/bin/sh
# tests/cli/test_version.sh: both programs report the commit they were built from (git describe), or the release
# SPDX-License-Identifier: MIT
set -u
top=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${TOP_BUILDDIR:-.}
tp=${TURNPOST:-./turnpost}
tpd=${TURNPOSTD:-./turnpostd}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

release=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$build/config.h")
[ -n "$release" ] && ok || bad "no PACKAGE_VERSION in $build/config.h"
v=$("$tpd" --version | sed -n 's/^turnpostd //p')
[ -n "$v" ] && ok || bad "turnpostd --version says nothing"
[ "$("$tp" --version)" = "turnpost $v" ] && ok || bad "turnpost --version says $("$tp" --version), turnpostd $v"

if [ -e "$top/.git" ] && command -v git >/dev/null 2>&1; then
	# built from git: the commit is in it, and whether the tree had changes
	head=$(git -C "$top" rev-parse --short HEAD)
	case "$v" in
	*-g"$head" | *-g"$head"-dirty) ok ;;
	*) bad "the version $v does not name the commit $head" ;;
	esac
	if git -C "$top" diff --quiet HEAD 2>/dev/null; then
		case "$v" in *-dirty) bad "a clean tree built as $v" ;; *) ok ;; esac
	else
		case "$v" in *-dirty) ok ;; *) bad "a tree with changes built as $v, without -dirty" ;; esac
	fi
	if tag=$(git -C "$top" describe --tags --abbrev=0 2>/dev/null); then
		case "$v" in "${tag#v}"*) ok ;; *) bad "the version $v does not start with the tag $tag" ;; esac
	else
		case "$v" in "$release"-g*) ok ;; *) bad "without a tag the version $v does not start with $release-g" ;; esac
	fi
else
	[ "$v" = "$release" ] && ok || bad "a build outside git reports $v, not the release $release"
fi

# tools/version.sh outside a git checkout gives the release alone
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh "$top/tools/version.sh" "$tmp" 9.8.7 | grep -qx 'const char version_text\[\] = "9.8.7";' && ok ||
	bad "tools/version.sh outside git: $(sh "$top/tools/version.sh" "$tmp" 9.8.7)"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
