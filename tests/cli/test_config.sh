#!/bin/sh
# tests/cli/test_config.sh: turnpost reads turnpostd's config file and environment, and refuses a database that is not there
# SPDX-License-Identifier: MIT
set -u
tp=${TURNPOST:-./turnpost}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
for v in $(env | sed -n 's/^\(TURNPOST_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
cd "$tmp" || exit 99

# A mistyped path is refused, says where it came from, and creates nothing.
refused() { # from, command...
	from=$1
	shift
	"$@" >out 2>&1
	st=$?
	[ $st = 1 ] && grep -q "no database at .*(from $from)" out && ok || bad "$* (from $from): status $st: $(cat out)"
}
refused --db "$tp" --db "$tmp/typo.db" user list
refused TURNPOST_DB env TURNPOST_DB="$tmp/typo.db" "$tp" game list
printf 'db = %s/typo.db\n' "$tmp" >typo.conf
refused "the config file" "$tp" --config typo.conf outbox list
refused "the config file" env TURNPOST_CONFIG="$tmp/typo.conf" "$tp" token add ann@example.org
refused "the default" "$tp" verify
refused --db "$tp" --db "$tmp/typo.db" user add ann@example.org --admin
refused --db "$tp" --db "$tmp/typo.db" backup "$tmp/copy.db"
[ -e typo.db ] || [ -e var ] || [ -e copy.db ] && bad "a refused command created a file: $(ls)" || ok
grep -q "user add EMAIL --admin --create" out && ok || bad "the refusal does not say how to make a database"
# --create is user add's alone
"$tp" --db "$tmp/typo.db" user list --create >out 2>&1
[ $? = 2 ] && ok || bad "user list --create is no usage error: $(cat out)"

# The first admin of a new database, as contrib/setup.sh makes it: user add --create, then a link.
"$tp" --db "$tmp/var/turnpost.db" user add admin@localhost --name Admin --admin --create >out 2>&1 &&
	tail -n 1 out | grep -q '^tp_' && ok || bad "user add --create: $(cat out)"
"$tp" --db "$tmp/var/turnpost.db" user add admin2@localhost --create >out 2>&1 && ok ||
	bad "user add --create on a database that exists: $(cat out)"
"$tp" --db "$tmp/var/turnpost.db" user link admin@localhost --base-url http://127.0.0.1:8080 >out 2>&1 &&
	tail -n 1 out | grep -q '^http://127.0.0.1:8080/signin/tp_' && ok || bad "user link: $(cat out)"
# ./var/turnpost.db is the default
"$tp" user list >out 2>&1 && grep -q "admin@localhost" out && ok || bad "the default database: $(cat out)"

# The config file's database and base URL, through --config or TURNPOST_CONFIG.
cat >site.conf <<CONF
# the server's settings
db = $tmp/var/turnpost.db
base-url = https://games.example.org/
threads = 4
CONF
link() { tail -n 1 out | sed 's|/signin/tp_.*||'; }
(cd / && "$tp" --config "$tmp/site.conf" user link admin@localhost >"$tmp/out" 2>&1) &&
	[ "$(link)" = https://games.example.org ] && ok || bad "--config: $(cat out)"
(cd / && TURNPOST_CONFIG="$tmp/site.conf" "$tp" user link admin@localhost >"$tmp/out" 2>&1) &&
	[ "$(link)" = https://games.example.org ] && ok || bad "TURNPOST_CONFIG: $(cat out)"
# the environment wins over the file, the command line over both
TURNPOST_BASE_URL=https://env.example.org "$tp" --config site.conf user link admin@localhost >out 2>&1 &&
	[ "$(link)" = https://env.example.org ] && ok || bad "TURNPOST_BASE_URL over the file: $(cat out)"
TURNPOST_BASE_URL=https://env.example.org "$tp" --config site.conf user link admin@localhost \
	--base-url https://flag.example.org >out 2>&1 && [ "$(link)" = https://flag.example.org ] && ok ||
	bad "--base-url over the environment: $(cat out)"
TURNPOST_DB="$tmp/typo.db" "$tp" --config site.conf user list >out 2>&1
[ $? = 1 ] && grep -q "(from TURNPOST_DB)" out && ok || bad "TURNPOST_DB over the file: $(cat out)"
"$tp" --config site.conf --db "$tmp/typo.db" user list >out 2>&1
[ $? = 1 ] && grep -q "(from --db)" out && ok || bad "--db over the file: $(cat out)"
# without a base URL, turnpostd's own: http:// and its --listen address
printf 'db = %s/var/turnpost.db\nlisten = 127.0.0.1:9123\n' "$tmp" >listen.conf
"$tp" --config listen.conf user link admin@localhost >out 2>&1 && [ "$(link)" = http://127.0.0.1:9123 ] && ok ||
	bad "the base URL from --listen: $(cat out)"

# A bad config file or variable stops turnpost as it stops turnpostd.
printf 'db = %s/var/turnpost.db\nthreads = lots\n' "$tmp" >bad.conf
"$tp" --config bad.conf user list >out 2>&1
[ $? = 2 ] && grep -q "bad.conf:2: threads must be 1 to 256" out && ok || bad "a bad config file: $(cat out)"
TURNPOST_BASE_URL=ftp://x "$tp" user list >out 2>&1
[ $? = 2 ] && grep -q "TURNPOST_BASE_URL: base-url must start with http" out && ok || bad "a bad variable: $(cat out)"
"$tp" --config "$tmp/none.conf" user list >out 2>&1
[ $? = 2 ] && grep -q "cannot read config file" out && ok || bad "a missing config file: $(cat out)"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
