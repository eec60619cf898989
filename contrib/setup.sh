#!/bin/sh
# contrib/setup.sh: install what turnpost needs on Debian, build it, and run the server or the tests
# SPDX-License-Identifier: MIT
#
#   contrib/setup.sh run     build and start the server on http://127.0.0.1:8080 (./var/turnpost.db)
#   contrib/setup.sh test    build with ASan+UBSan and run the whole test suite
#   contrib/setup.sh deps    only install the Debian packages
#   contrib/setup.sh build   only build (release flags) into build/release
#
# Environment: TURNPOST_LISTEN, TURNPOST_DB, JOBS (parallel make jobs, default: nproc).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
packages="build-essential autoconf automake libtool pkg-config libmicrohttpd-dev libjansson-dev
libsqlite3-dev libpq-dev libcurl4-openssl-dev libcunit1-dev libsodium-dev libssl-dev zlib1g-dev sqlite3 curl python3
python3-aiosmtpd"

say() { printf '%s\n' "setup: $*" >&2; }

deps() {
	want=$packages
	# the browser tests need Debian's chromium and node (for npm's playwright-core)
	[ "${1:-}" = test ] && want="$want chromium"
	# the PostgreSQL tests start throwaway clusters of their own (initdb, pg_ctl): the server's binaries
	[ "${1:-}" = test ] && want="$want postgresql"
	[ "${1:-}" = test ] && ! command -v node >/dev/null 2>&1 && want="$want nodejs npm"
	missing=""
	for p in $want; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	say "installing Debian packages:$missing"
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	# a fresh machine has no package lists yet
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

configure_in() {
	dir=$1
	shift
	[ -x "$top/configure" ] || { say "generating ./configure"; ./autogen.sh >/dev/null 2>&1; }
	mkdir -p "$dir"
	if [ ! -f "$dir/Makefile" ] || [ "$top/configure" -nt "$dir/Makefile" ]; then
		say "configuring $dir $*"
		(cd "$dir" && "$top/configure" -q "$@")
	fi
}

build_release() {
	configure_in "$top/build/release" CFLAGS="-O2 -g"
	say "building (make -j$jobs)"
	make -s -C "$top/build/release" -j"$jobs" >/dev/null
}

run() {
	deps
	build_release
	db=${TURNPOST_DB:-./var/turnpost.db}
	listen=${TURNPOST_LISTEN:-127.0.0.1:8080}
	bin="$top/build/release"
	admins=0
	if [ -f "$db" ]; then
		admins=$("$bin/turnpost" --db "$db" user list | grep -c "	admin$" || true)
	fi
	if [ "$admins" = 0 ]; then
		token=$("$bin/turnpost" --db "$db" user add admin@localhost --name Admin --admin --create | tail -n 1)
		link=$("$bin/turnpost" --db "$db" user link admin@localhost --base-url "http://$listen" | tail -n 1)
		cat >&2 <<MSG

  First admin created: admin@localhost.

  Sign in on the web (this link works once, for an hour; another one:
  build/release/turnpost --db $db user link admin@localhost):

    $link

  The API token (shown once; another one: build/release/turnpost --db $db token add admin@localhost):

    $token

  Try it:
    curl -H 'Authorization: Bearer $token' http://$listen/api/v1/me
    curl http://$listen/api/v1/catalog

MSG
	else
		admin=$("$bin/turnpost" --db "$db" user list | awk -F'\t' '$4 == "admin" { print $2; exit }')
		link=$("$bin/turnpost" --db "$db" user link "$admin" --base-url "http://$listen" | tail -n 1)
		say "an admin exists; sign in with this one-time link: $link"
		say "a new API token: build/release/turnpost --db $db token add EMAIL"
	fi
	say "starting turnpostd on http://$listen (Ctrl-C stops it)"
	exec "$bin/turnpostd" --db "$db" --listen "$listen"
}

summary() {
	# Each CUnit program ends its log with "N passed, N failed"; add them up.
	find "$1/tests" -name '*.log' -exec cat {} + 2>/dev/null |
		awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3 } END { printf "check: %d passed, %d failed\n", p, f }'
}

test_all() {
	deps test
	dir="$top/build/check"
	configure_in "$dir" --enable-sanitizers CFLAGS="-O1 -g"
	say "building and running the test suite under ASan+UBSan (make -j$jobs check)"
	status=0
	make -s -C "$dir" -j"$jobs" check || status=$?
	if [ $status != 0 ]; then
		for f in $(find "$dir/tests" -name '*.log'); do
			grep -q -E '^(FAIL|ERROR)' "${f%.log}.trs" 2>/dev/null && { echo "=== $f"; tail -n 60 "$f"; }
		done
	fi
	summary "$dir"
	return $status
}

case "${1:-}" in
run) run ;;
test) test_all ;;
deps) deps ;;
build) deps && build_release ;;
*)
	sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac
