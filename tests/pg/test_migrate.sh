#!/bin/sh
# tests/pg/test_migrate.sh: turnpost migrate-db from SQLite to PostgreSQL and back; verify passes on each copy
# SPDX-License-Identifier: MIT
set -u
# on a throwaway cluster of its own (run.sh skips, saying why, where PostgreSQL is not installed)
[ -n "${TURNPOST_TEST_PG:-}" ] || exec sh "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/pg/run.sh" sh "$0"
build=${TOP_BUILDDIR:-.}
tp=$build/tests/turnpost-test   # turnpost with the test game (counting-race)
tpd=$build/tests/turnpostd-test
command -v curl >/dev/null || { echo "SKIP: no curl to play with"; exit 77; }
pg=$TURNPOST_TEST_PG
tmp=$(mktemp -d)
dpid=
trap '[ -n "$dpid" ] && kill "$dpid" 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
for v in $(env | sed -n 's/^\(TURNPOST_[A-Z_]*\)=.*/\1/p'); do [ "$v" = TURNPOST_TEST_PG ] || unset "$v"; done
cd "$tmp" || exit 99

# A site on SQLite: users, a game played a while (steps, snapshots, notifications), a revoked token.
"$tp" --db a.db user add admin@example.org --admin --create >out 2>&1 || bad "user add: $(cat out)"
admin=$(tail -n 1 out)
out=$("$tp" --db a.db game create counting-race --player 'Ann <ann@example.org>' --player 'Bob <bob@example.org>' \
	--option target=50 2>&1) || bad "game create: $out"
s0=$(echo "$out" | awk '$1 == "seat" && $2 == 0 { print $NF }')
s1=$(echo "$out" | awk '$1 == "seat" && $2 == 1 { print $NF }')
"$tp" --db a.db token add admin@example.org --label gone >out 2>&1 || bad "token add"
gone=$(sed -n 's/^token \([0-9]*\) .*/\1/p' out)
"$tp" --db a.db token revoke "$gone" >/dev/null 2>&1 || bad "token revoke"
"$tpd" --db a.db --listen 127.0.0.1:0 --port-file port >daemon.log 2>&1 &
dpid=$!
for _ in $(seq 100); do [ -s port ] && break; sleep 0.1; done
port=$(cat port)
api() { curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $1" -H 'Content-Type: application/json' \
	-d "$3" "http://127.0.0.1:$port/api/v1/games/1/$2"; }
for turn in 1 2 3 4 5 6; do
	[ "$(api "$s0" moves '{"moves":["add 2","end"]}')" = 200 ] || bad "seat 0's turn $turn"
	[ "$(api "$s1" moves '{"moves":["add 1","end"]}')" = 200 ] || bad "seat 1's turn $turn"
done
# an unsubscribe link of a mail sent from SQLite: signed with the site's key, it must work on every copy
unsub=
for _ in $(seq 100); do
	unsub=$(cat mail/*.eml 2>/dev/null | grep -o '/unsubscribe/[A-Za-z0-9_.~-]*' | head -n 1)
	[ -n "$unsub" ] && break
	sleep 0.1
done
[ -n "$unsub" ] || bad "no mail with an unsubscribe link from the SQLite daemon"
link() { curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$unsub"; }
[ "$(link)" = 200 ] && ok || bad "the unsubscribe link on SQLite: $(link)"
kill "$dpid"; wait "$dpid" 2>/dev/null; dpid=
"$tp" --db a.db game show 1 >show.a 2>&1 || bad "game show on SQLite"
grep -q '"move_count": 24' show.a && ok || bad "the SQLite game has not 24 steps: $(head -c 300 show.a)"

# SQLite -> PostgreSQL: everything, and verify passes there
"$tp" migrate-db --from a.db --to "$pg" >out 2>&1 && ok || bad "migrate-db to PostgreSQL: $(cat out)"
grep -q 'copied .* 24 steps' out && ok || bad "migrate-db says: $(cat out)"
"$tp" --db "$pg" game show 1 >show.pg 2>&1 || bad "game show on PostgreSQL"
cmp -s show.a show.pg && ok || bad "the game differs on PostgreSQL: $(diff show.a show.pg | head -5)"
for cmd in "user list" "audit" "outbox list"; do
	# shellcheck disable=SC2086
	"$tp" --db a.db $cmd >list.a 2>&1
	# shellcheck disable=SC2086
	"$tp" --db "$pg" $cmd >list.pg 2>&1
	cmp -s list.a list.pg && ok || bad "$cmd differs: $(diff list.a list.pg | head -5)"
done
"$tp" --db "$pg" verify >out 2>&1 && ok || bad "verify on PostgreSQL: $(cat out)"
# the copied credentials work, the revoked one stays revoked, and new rows take new ids
"$tpd" --db "$pg" --listen 127.0.0.1:0 --port-file port2 --mail-dir mail >daemon2.log 2>&1 &
dpid=$!
for _ in $(seq 100); do [ -s port2 ] && break; sleep 0.1; done
port=$(cat port2)
[ "$(api "$s0" moves '{"moves":["add 2","end"]}')" = 200 ] && ok || bad "a move on PostgreSQL with a copied seat token"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $admin" "http://127.0.0.1:$port/api/v1/games")
[ "$code" = 200 ] && ok || bad "the copied admin token: $code"
[ "$(link)" = 200 ] && ok || bad "a mail's unsubscribe link on PostgreSQL (the site's key not copied): $(link)"
kill "$dpid"; wait "$dpid" 2>/dev/null; dpid=
"$tp" --db "$pg" token add admin@example.org >out 2>&1 || bad "token add on PostgreSQL: $(cat out)"
new=$(sed -n 's/^token \([0-9]*\) .*/\1/p' out)
[ "${new:-0}" -gt "$gone" ] && ok || bad "a new token on PostgreSQL took id ${new:-none} (the copied ones go to $gone)"

# into a database that holds rows: refused, nothing changed
"$tp" migrate-db --from a.db --to "$pg" >out 2>&1
[ $? = 1 ] && grep -q 'not empty' out && ok || bad "migrate-db into a used database: $(cat out)"
"$tp" --db "$pg" game show 1 | grep -q '"move_count": 26' && ok || bad "the refused copy changed the database"
"$tp" migrate-db --from nowhere.db --to b.db >out 2>&1
[ $? = 1 ] && [ ! -e b.db ] && ok || bad "migrate-db from a missing file: $(cat out)"

# PostgreSQL -> SQLite: back again, with the step played there
"$tp" migrate-db --from "$pg" --to b.db >out 2>&1 && ok || bad "migrate-db to SQLite: $(cat out)"
"$tp" --db b.db verify >out 2>&1 && ok || bad "verify on the SQLite copy: $(cat out)"
"$tp" --db "$pg" game show 1 >show.pg 2>&1
"$tp" --db b.db game show 1 >show.b 2>&1
cmp -s show.pg show.b && ok || bad "the game differs back on SQLite: $(diff show.pg show.b | head -5)"
# and the link still works back on SQLite
"$tpd" --db b.db --listen 127.0.0.1:0 --port-file port3 --mail-dir mail3 >daemon3.log 2>&1 &
dpid=$!
for _ in $(seq 100); do [ -s port3 ] && break; sleep 0.1; done
port=$(cat port3)
[ "$(link)" = 200 ] && ok || bad "a mail's unsubscribe link back on SQLite: $(link)"
kill "$dpid"; wait "$dpid" 2>/dev/null; dpid=

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
