#!/bin/sh
# tests/check_layers.sh: the layers hold: each library is included by its one directory, games by none
# SPDX-License-Identifier: MIT
#
# Usage: check_layers.sh [ROOT]  (ROOT: a source tree, default the one this script is in)
# Checks every .c and .h under ROOT/src:
#   - only src/store/ includes <sqlite3.h> or <libpq-fe.h>
#   - only src/http/ includes <microhttpd.h>
#   - only src/notify/ includes <curl/...>
#   - only src/notify/push.c includes <openssl/...> (libcrypto: web push's keys and encryption)
#   - src/games/<game>/ includes, of our headers, only the engine's game
#     interface ("engine/game.h", "engine/rng.h"), "util/..." and its own
#     folder's; of the system's, only the C standard library and <jansson.h>
#     (what engine/game.h needs): games are pure functions of (state, move, rng)
#   - outside src/store/, no code names a SQLite or libpq type, function or
#     constant (sqlite3..., SQLITE_..., PGconn, PGresult, PQ...): callers see
#     the store's own types only
# Prints one line per broken rule and the count; exits 1 when any rule is broken.
set -u
top=${1:-${TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}}
cd "$top" || exit 99
[ -d src ] || { echo "check_layers: no src/ in $top"; exit 99; }

# The headers of ISO C11 (and <strings.h>, which the games use for strcasecmp), and jansson.
games_system='assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h
setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h
string.h strings.h tgmath.h threads.h time.h uchar.h wchar.h wctype.h jansson.h'

pass=0
fail=0
broken() {
	echo "$1"
	fail=$((fail + 1))
}

# Every include as "file<TAB>kind<TAB>name", kind "<" or "\"".
includes=$(find src -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort | while read -r f; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"]\)\([^>"]*\)[>"].*/\1	\2/p' "$f" |
		while IFS='	' read -r kind name; do
			printf '%s\t%s\t%s\n' "$f" "$kind" "$name"
		done
done)

tab=$(printf '\t')
old_ifs=$IFS
IFS='
'
for line in $includes; do
	IFS=$tab
	# shellcheck disable=SC2086
	set -- $line
	IFS='
'
	f=$1 kind=$2 name=$3
	ok=1
	case "$kind$name" in
	'<sqlite3.h' | '<libpq-fe.h')
		case "$f" in src/store/*) ;; *) broken "$f: includes <$name>: only src/store/ may"; ok=0 ;; esac ;;
	'<microhttpd.h')
		case "$f" in src/http/*) ;; *) broken "$f: includes <microhttpd.h>: only src/http/ may"; ok=0 ;; esac ;;
	'<curl/'*)
		case "$f" in src/notify/*) ;; *) broken "$f: includes <$name>: only src/notify/ may"; ok=0 ;; esac ;;
	'<openssl/'*)
		case "$f" in src/notify/push.c) ;; *) broken "$f: includes <$name>: only src/notify/push.c may"; ok=0 ;; esac ;;
	esac
	case "$f" in
	src/games/*/*)
		game=$(echo "$f" | cut -d/ -f3)
		if [ "$kind" = '"' ]; then
			case "$name" in
			engine/game.h | engine/rng.h | util/*.h | "games/$game/"*) ;;
			*) broken "$f: includes \"$name\": a game includes only engine/game.h, engine/rng.h, util/ and its own folder"
				ok=0 ;;
			esac
		else
			case " $(echo $games_system) " in
			*" $name "*) ;;
			*) broken "$f: includes <$name>: a game includes only the C library and <jansson.h>"; ok=0 ;;
			esac
		fi ;;
	esac
	[ "$ok" = 0 ] || pass=$((pass + 1))
done
IFS=$old_ifs

# SQLite's and libpq's names outside the store: a forward declaration or a constant leaks as much as an include.
for f in $(find src -type f \( -name '*.c' -o -name '*.h' \) -not -path 'src/store/*' | LC_ALL=C sort); do
	if grep -n 'sqlite3\|SQLITE_' "$f" >/dev/null; then
		broken "$f: names SQLite ($(grep -o 'sqlite3[A-Za-z_]*\|SQLITE_[A-Z_]*' "$f" | head -n 1)): only src/store/ may"
	elif grep -n '\bPGconn\b\|\bPGresult\b\|\bpg_conn\b\|\bpg_result\b\|\bPQ[a-z][A-Za-z]*(' "$f" >/dev/null; then
		broken "$f: names libpq ($(grep -o '\bPGconn\b\|\bPGresult\b\|\bpg_conn\b\|\bpg_result\b\|\bPQ[a-z][A-Za-z]*' "$f" | head -n 1)): only src/store/ may"
	else
		pass=$((pass + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
