#!/bin/sh
# tests/cli/test_table.sh: turnpost's command table: help, per-command usage, declared options, the man page
# SPDX-License-Identifier: MIT
set -u
top=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tp=${TURNPOST:-./turnpost}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# The commands, as --help lists them: the lower-case words before the arguments.
"$tp" --help >"$tmp/help" || bad "--help exits non-zero"
awk '/^  [a-z]/ { w = ""; for (i = 1; i <= 2 && $i ~ /^[a-z][a-z-]*$/; i++) w = w (w ? " " : "") $i; if (w != "help") print w }' \
	"$tmp/help" >"$tmp/commands"
[ "$(wc -l <"$tmp/commands")" -ge 20 ] && ok || bad "--help lists only $(wc -l <"$tmp/commands") commands"

# Each one has its own usage, from the same table.
while read -r words; do
	# shellcheck disable=SC2086
	out=$("$tp" help $words) || { bad "turnpost help $words exits non-zero"; continue; }
	case "$out" in
	"usage: turnpost $words"*) ok ;;
	*) bad "turnpost help $words says: $out" ;;
	esac
	# shellcheck disable=SC2086
	"$tp" $words --help | head -n 1 | grep -q "^usage: turnpost $words" && ok || bad "$words --help"
	# the man page documents it (roff escapes dashes)
	sed 's/\\-/-/g; s/"//g' "$top/man/turnpost.1" | grep -q "^\.BI\{0,1\} $words\( \|$\)" && ok ||
		bad "man/turnpost.1 does not document \"$words\""
done <"$tmp/commands"

# ... and the man page documents no command the table lacks.
sed 's/\\-/-/g; s/"//g' "$top/man/turnpost.1" | sed -n '/^\.SH COMMANDS/,/^\.SH EXIT/p' |
	awk '/^\.BI? [a-z]/ { w = ""; for (i = 2; i <= NF && $i ~ /^[a-z][a-z-]*$/; i++) w = w (w ? " " : "") $i; print w }' |
	while read -r words; do
		grep -qx "$words" "$tmp/commands" || echo "$words"
	done >"$tmp/extra"
[ -s "$tmp/extra" ] && bad "man/turnpost.1 documents commands turnpost lacks: $(cat "$tmp/extra")" || ok

"$tp" help nonsense >/dev/null 2>&1
[ $? = 2 ] && ok || bad "help of an unknown command is not a usage error"
"$tp" frobnicate >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'unknown command "frobnicate"' "$tmp/err" && ok || bad "an unknown command"

# Options are the ones the synopsis declares: others are usage errors, before any database is touched.
db="$tmp/t.db"
"$tp" --db "$db" user add ann@example.org --colour blue >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "does not take the option --colour" "$tmp/err" && grep -q "^usage: turnpost user add" "$tmp/err" &&
	ok || bad "an undeclared option: $(cat "$tmp/err")"
[ -e "$db" ] && bad "a usage error created the database" || ok
"$tp" --db "$db" user add ann@example.org --name >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q -- "--name needs a value" "$tmp/err" && ok || bad "an option without its value"
"$tp" --db "$db" user add ann@example.org --admin=yes >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q -- "--admin takes no value" "$tmp/err" && ok || bad "a switch given a value"

# --opt=VALUE and --opt VALUE mean the same; switches anywhere after the words.
"$tp" --db "$db" user add --admin ann@example.org --name=Ann --create >"$tmp/out" 2>&1 && ok || bad "user add: $(cat "$tmp/out")"
grep -q "^user 1 Ann <ann@example.org> (admin)$" "$tmp/out" && ok || bad "user add said: $(cat "$tmp/out")"
"$tp" --db "$db" token add ann@example.org --label ci >"$tmp/out" 2>&1 && ok || bad "token add: $(cat "$tmp/out")"
"$tp" --db "$db" token revoke 2 --reason=rotated >"$tmp/out" 2>&1 && grep -q "^token 2 revoked$" "$tmp/out" && ok ||
	bad "token revoke: $(cat "$tmp/out")"
"$tp" --db "$db" audit --action token_revoke >"$tmp/out" 2>&1 && grep -q "token_revoke.*rotated" "$tmp/out" && ok ||
	bad "audit: $(cat "$tmp/out")"
"$tp" --db "$db" outbox list --dead --limit 5 >"$tmp/out" 2>&1 && ok || bad "outbox list: $(cat "$tmp/out")"
"$tp" --db "$db" rollback 1 2 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "needs --reason" "$tmp/err" && ok || bad "an admin action without --reason"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
