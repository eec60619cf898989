#!/bin/sh
# tests/test_check_layers.sh: check_layers.sh fails on a tiny tree that breaks each of its rules, passes a clean one
# SPDX-License-Identifier: MIT
set -u
here=$(cd "$(dirname "$0")" && pwd)
check="$here/check_layers.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# A tree every rule holds in: each library in its own directory, a game on the engine interface.
clean_tree() {
	rm -rf "$tmp/t" && mkdir -p "$tmp/t/src/store" "$tmp/t/src/http" "$tmp/t/src/notify" "$tmp/t/src/engine" \
		"$tmp/t/src/util" "$tmp/t/src/games/chess" || exit 99
	printf '#include <sqlite3.h>\n#include "store/store.h"\n' > "$tmp/t/src/store/store.c"
	printf '#include <microhttpd.h>\n' > "$tmp/t/src/http/server.c"
	printf '#include <curl/curl.h>\n#  include <curl/easy.h>\n' > "$tmp/t/src/notify/transport.c"
	printf '#include <curl/curl.h>\n#include <openssl/evp.h>\n' > "$tmp/t/src/notify/push.c"
	printf '#include <jansson.h>\n#include "engine/rng.h"\n' > "$tmp/t/src/engine/game.h"
	printf '#include <stdio.h>\n#include <string.h>\n#include <jansson.h>\n#include "engine/game.h"\n#include "engine/rng.h"\n#include "util/buf.h"\n#include "games/chess/chess.h"\n' \
		> "$tmp/t/src/games/chess/chess.c"
	printf '#include <stdint.h>\n#include "util/err.h"\n' > "$tmp/t/src/games/chess/chess.h"
}

# expect NAME STATUS PATTERN: check_layers.sh on the tree exits STATUS and its output matches PATTERN
expect() {
	out=$("$check" "$tmp/t" 2>&1)
	rc=$?
	if [ "$rc" = "$2" ] && echo "$out" | grep -q -- "$3"; then
		pass=$((pass + 1))
	else
		echo "FAIL $1: exit $rc (wanted $2), output:"
		echo "$out" | sed 's/^/  /'
		fail=$((fail + 1))
	fi
}

clean_tree
expect clean 0 '^[1-9][0-9]* passed, 0 failed$'

clean_tree
printf '#include <sqlite3.h>\n' > "$tmp/t/src/engine/play.c"
expect sqlite-outside-store 1 '^src/engine/play.c: includes <sqlite3.h>'

clean_tree
printf '#include "store/store.h"\n  #  include   <sqlite3.h>\n' > "$tmp/t/src/http/api.h"
expect sqlite-indented-in-a-header 1 '^src/http/api.h: includes <sqlite3.h>'

clean_tree
printf 'struct sqlite3;\nint play_db(struct sqlite3 *db);\n' > "$tmp/t/src/engine/play.h"
expect sqlite-type-outside-store 1 '^src/engine/play.h: names SQLite (sqlite3)'

clean_tree
printf 'int busy(int rc) { return rc == SQLITE_BUSY; }\n' > "$tmp/t/src/http/server.c"
expect sqlite-constant-outside-store 1 '^src/http/server.c: names SQLite (SQLITE_BUSY)'

clean_tree
printf '#include <libpq-fe.h>\n' > "$tmp/t/src/store/pg.c"
expect libpq-in-store 0 '^[1-9][0-9]* passed, 0 failed$'

clean_tree
mkdir -p "$tmp/t/src/cli" && printf '#include <libpq-fe.h>\n' > "$tmp/t/src/cli/migrate.c"
expect libpq-outside-store 1 '^src/cli/migrate.c: includes <libpq-fe.h>'

clean_tree
printf 'struct pg_conn;\nint health(struct pg_conn *db);\n' > "$tmp/t/src/engine/health.h"
expect libpq-type-outside-store 1 '^src/engine/health.h: names libpq (pg_conn)'

clean_tree
printf 'int up(void *c) { return PQstatus(c) == 0; }\n' > "$tmp/t/src/http/health.c"
expect libpq-function-outside-store 1 '^src/http/health.c: names libpq (PQstatus)'

clean_tree
printf '#include <microhttpd.h>\n' > "$tmp/t/src/notify/notify.c"
expect microhttpd-outside-http 1 '^src/notify/notify.c: includes <microhttpd.h>'

clean_tree
printf '#include <curl/curl.h>\n' > "$tmp/t/src/http/web.c"
expect curl-outside-notify 1 '^src/http/web.c: includes <curl/curl.h>'

clean_tree
printf '#include <openssl/evp.h>\n' > "$tmp/t/src/notify/notify.c"
expect openssl-outside-push 1 '^src/notify/notify.c: includes <openssl/evp.h>'

clean_tree
printf '#include "store/store.h"\n' > "$tmp/t/src/games/chess/chess_bot.c"
expect game-includes-store 1 '^src/games/chess/chess_bot.c: includes "store/store.h"'

clean_tree
printf '#include "engine/views.h"\n' > "$tmp/t/src/games/chess/chess.h"
expect game-includes-engine-beyond-interface 1 '^src/games/chess/chess.h: includes "engine/views.h"'

clean_tree
mkdir -p "$tmp/t/src/games/go" && printf '#include "games/chess/chess.h"\n' > "$tmp/t/src/games/go/go.c"
expect game-includes-another-game 1 '^src/games/go/go.c: includes "games/chess/chess.h"'

clean_tree
printf '#include <pthread.h>\n' > "$tmp/t/src/games/chess/chess.c"
expect game-includes-system-library 1 '^src/games/chess/chess.c: includes <pthread.h>'

clean_tree
printf '#include "http/board.h"\n' > "$tmp/t/src/games/chess/chess_svg.c"
printf '#include <microhttpd.h>\n' > "$tmp/t/src/util/log.c"
expect every-break-counted 1 '^[0-9]* passed, 2 failed$'

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
