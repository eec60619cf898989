#!/bin/sh
# tests/cli/test_backup.sh: backup under write load, restore, and the schema guard of turnpost and turnpostd
# SPDX-License-Identifier: MIT
set -u
build=${TOP_BUILDDIR:-.}
tp=$build/tests/turnpost-test   # turnpost with the test game (counting-race)
tpd=$build/tests/turnpostd-test
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3 command to make test databases with"; exit 77; }
command -v curl >/dev/null || { echo "SKIP: no curl for the load client"; exit 77; }
tmp=$(mktemp -d)
dpid=
trap '[ -n "$dpid" ] && kill "$dpid" 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
for v in $(env | sed -n 's/^\(TURNPOST_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
cd "$tmp" || exit 99

# A database of some size (40 MB of audit rows), so that a copy takes longer than the gap between two moves.
"$tp" --db db user add admin@example.org --admin --create >/dev/null 2>&1 || bad "user add --create"
out=$("$tp" --db db game create counting-race --player 'Ann <ann@example.org>' --player 'Bob <bob@example.org>' \
	--option target=1000 2>&1) || bad "game create: $out"
s0=$(echo "$out" | awk '$1 == "seat" && $2 == 0 { print $NF }')
s1=$(echo "$out" | awk '$1 == "seat" && $2 == 1 { print $NF }')
sqlite3 db "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)
	INSERT INTO audit(at, actor, action, detail) SELECT 0, 'test', 'padding', hex(randomblob(5000)) FROM n;" ||
	bad "padding the database"

# turnpostd on it, and a load client making moves as fast as it answers.
"$tpd" --db db --listen 127.0.0.1:0 --port-file port --quiet 2>daemon.log &
dpid=$!
i=0
while [ ! -s port ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -s port ] || { echo "FAIL: turnpostd did not start: $(cat daemon.log)"; exit 1; }
url=http://127.0.0.1:$(cat port)/api/v1/games/1/moves
load() {
	while [ ! -e stop ]; do
		for s in "$s0" "$s1"; do
			curl -s -o /dev/null -w '%{http_code}\n' -H "Authorization: Bearer $s" \
				-H 'Content-Type: application/json' -d '{"moves":["add 1","end"]}' "$url" >>codes
		done
	done
}
moves() {
	n=$(grep -c '^200$' codes 2>/dev/null)
	echo "${n:-0}"
}
load &
lpid=$!
i=0
while [ "$(moves)" -lt 10 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done

# The backup finishes while the moves go on (an online backup that restarts on every commit would not).
before=$(moves)
timeout 120 "$tp" --db db backup copy.db >out 2>&1 && ok || bad "backup under load: status $?: $(cat out)"
after=$(moves)
[ "$after" -gt "$before" ] && ok || bad "no move was made during the backup ($before, then $after)"
"$tp" --db copy.db verify >out 2>&1 && grep -q "^1 verified, 0 failed" out && ok || bad "verify on the copy: $(cat out)"
n=$(sqlite3 copy.db "SELECT move_count FROM games WHERE id = 1")
[ "${n:-0}" -gt 0 ] && ok || bad "the copy has no moves ($n)"
[ "$(sqlite3 copy.db "SELECT count(*) FROM audit WHERE action = 'padding'")" = 4000 ] && ok || bad "the copy lacks rows"
ls copy.db.tmp-* >/dev/null 2>&1 && bad "a temporary file was left: $(ls)" || ok

# An existing file is kept unless --force.
echo keep >taken.db
"$tp" --db db backup taken.db >out 2>&1
[ $? = 1 ] && grep -q "taken.db exists: give --force" out && [ "$(cat taken.db)" = keep ] && ok ||
	bad "backup over an existing file: $(cat out)"
"$tp" --db db backup taken.db --force >out 2>&1 && "$tp" --db taken.db verify >/dev/null 2>&1 && ok ||
	bad "backup --force: $(cat out)"
# A backup is as private as the database, whatever the umask.
(umask 000 && "$tp" --db db backup private.db >out 2>&1)
[ "$(stat -c %a private.db 2>/dev/null)" = 600 ] && ok || bad "backup under umask 000: mode $(stat -c %a private.db 2>&1)"

# No restore while turnpostd runs.
"$tp" --db db restore copy.db >out 2>&1
[ $? = 1 ] && grep -q "turnpostd is running on the database db" out && ok || bad "restore under turnpostd: $(cat out)"
touch stop
wait "$lpid"
kill "$dpid"
wait "$dpid"
dpid=

# Restore: the old database is kept (with its WAL), the copy takes its place.
"$tp" --db db restore copy.db >out 2>&1 && ok || bad "restore: $(cat out)"
old=$(sed -n 's/^the database it replaced is kept as //p' out)
[ -n "$old" ] && [ -f "$old" ] && ok || bad "restore does not say where the old database is: $(cat out)"
[ "$(sqlite3 db "SELECT move_count FROM games WHERE id = 1")" = "$n" ] && ok || bad "the restored database is not the copy"
[ "$(sqlite3 "$old" "SELECT move_count FROM games WHERE id = 1")" -ge "$n" ] && ok || bad "the old database lost moves"
"$tp" --db db verify >/dev/null 2>&1 && ok || bad "verify after restore"

# A corrupt backup, a file of another program, one that is not SQLite: refused, the database untouched.
cp copy.db corrupt.db
dd if=/dev/urandom of=corrupt.db bs=4096 seek=3 count=8 conv=notrunc 2>/dev/null
sum=$(cksum <db)
for f in corrupt.db; do
	"$tp" --db db restore "$f" >out 2>&1
	[ $? = 1 ] && grep -q "integrity check\|malformed" out && ok || bad "restore of $f: $(cat out)"
done
sqlite3 foreign.db "CREATE TABLE notes(x); INSERT INTO notes VALUES (1);"
cp foreign.db foreign.orig
echo "not a database at all, but long enough to look like one at first sight" >junk.db
"$tp" --db db restore foreign.db >out 2>&1
[ $? = 1 ] && grep -q "not turnpost's" out && ok || bad "restore of another program's database: $(cat out)"
"$tp" --db db restore junk.db >out 2>&1
[ $? = 1 ] && grep -q "not a database" out && ok || bad "restore of a file that is not SQLite: $(cat out)"
[ "$(cksum <db)" = "$sum" ] && ok || bad "a refused restore changed the database"

# A database of a newer turnpost: both programs refuse it, and so does restore.
cp copy.db future.db
sqlite3 future.db "INSERT INTO schema_migrations VALUES ('999_from_the_future.sql', 0)"
"$tp" --db future.db user list >out 2>&1
[ $? = 1 ] && grep -q "schema migration 999_from_the_future.sql, newer than this turnpost knows" out && ok ||
	bad "turnpost on a newer schema: $(cat out)"
"$tpd" --db future.db --listen 127.0.0.1:0 --port-file port2 --quiet >out 2>&1 &
p=$!
i=0
while kill -0 $p 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $p 2>/dev/null; then
	kill $p
	bad "turnpostd started on a newer schema"
else
	wait $p
	st=$?
	[ $st != 0 ] && grep -q "newer than this turnpost knows" out && [ ! -s port2 ] && ok ||
		bad "turnpostd on a newer schema: status $st: $(cat out)"
fi
"$tp" --db db restore future.db >out 2>&1
[ $? = 1 ] && grep -q "newer than this turnpost knows" out && ok || bad "restore of a newer schema: $(cat out)"

# Another program's SQLite file: neither program extends it (nor turns it to WAL).
"$tp" --db foreign.db user list >out 2>&1
[ $? = 1 ] && grep -q "not turnpost's" out && ok || bad "turnpost on another program's database: $(cat out)"
"$tpd" --db foreign.db --listen 127.0.0.1:0 --quiet >out 2>&1
[ $? != 0 ] && grep -q "not turnpost's" out && ok || bad "turnpostd on another program's database: $(cat out)"
cmp -s foreign.db foreign.orig && [ ! -e foreign.db-wal ] && ok || bad "another program's database was changed"
"$tp" --db junk.db backup x.db >out 2>&1
[ $? = 1 ] && [ ! -e x.db ] && ok || bad "backup of a file that is not a database: $(cat out)"

# Migrations are logged by name when applied.
"$tp" --db fresh.db user add a@example.org --create >out 2>&1
grep -q "migration 001_init.sql applied" out && ok || bad "migrations are not logged: $(cat out)"

echo "backup: $pass passed, $fail failed"
[ $fail = 0 ]
