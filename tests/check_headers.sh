#!/bin/sh
# tests/check_headers.sh: every source file starts with a one-line purpose comment and an SPDX line
# SPDX-License-Identifier: MIT
# Checks the files of the source tree (the distributed ones when there is no git).
set -u
top=${TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 99
if [ -d .git ] && command -v git >/dev/null 2>&1; then
	files=$(git ls-files '*.c' '*.h' '*.sh' '*.sql' '*.mjs' '*.js' '*.py' '*.css' '*.mk')
else
	files=$(find src tests tools contrib sql static bench -type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' \
		-o -name '*.sql' -o -name '*.mjs' -o -name '*.js' -o -name '*.py' -o -name '*.css' -o -name '*.mk' \) \
		-not -path '*/node_modules/*' 2>/dev/null)
fi
pass=0
fail=0
for f in $files; do
	b=$(basename "$f")
	if ! head -n 3 "$f" | grep -q 'SPDX-License-Identifier: MIT'; then
		echo "$f: no SPDX-License-Identifier line in its first three lines"
		fail=$((fail + 1))
	elif ! head -n 2 "$f" | grep -q "$b: "; then
		echo "$f: the first lines do not say \"$b: what it is for\""
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
