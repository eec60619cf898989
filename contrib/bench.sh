#!/bin/sh
# contrib/bench.sh: the benchmark suite (make bench): optimised build, then play, read, raw, engine, storage, peer
# SPDX-License-Identifier: MIT
#
# Usage: contrib/bench.sh [SRCDIR] [BUILDDIR]
# Builds turnpost with -O2 and without sanitizers in BUILDDIR (default
# ./bench-build), runs every benchmark on this machine and prints the figures
# (docs/performance.md explains them). Nothing here asserts a duration.
# Knobs (environment): BENCH_SECONDS (10), BENCH_CLIENTS (64), BENCH_GAMES (256),
# BENCH_THREADS (server threads, 8: turnpostd's default), BENCH_STORAGE_GAMES (10000),
# BENCH_STARTUP_MOVES (1000000), BENCH_PEER (1: run boardgame.io when npm works).
set -eu

SRC=$(cd "${1:-$(dirname "$0")/..}" && pwd)
BUILD=${2:-$PWD/bench-build}
SECONDS_EACH=${BENCH_SECONDS:-10}
CLIENTS=${BENCH_CLIENTS:-64}
GAMES=${BENCH_GAMES:-256}
THREADS=${BENCH_THREADS:-8}
STORAGE_GAMES=${BENCH_STORAGE_GAMES:-10000}
STARTUP_MOVES=${BENCH_STARTUP_MOVES:-1000000}
PEER=${BENCH_PEER:-1}
RUN=$BUILD/run
PIDS=""

cleanup() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
}
trap cleanup EXIT INT TERM

say() { printf '\n== %s\n' "$*"; }

ms_now() { date +%s%N | cut -c1-13; }

# ---- build
mkdir -p "$BUILD"
if [ ! -f "$BUILD/Makefile" ]; then
	(cd "$BUILD" && "$SRC/configure" CFLAGS="-O2 -g" >/dev/null)
fi
(cd "$BUILD" && make -j2 turnpostd turnpost af-bench bench/tp-load bench/tp-raw bench/tp-storegen >/dev/null)
rm -rf "$RUN"
mkdir -p "$RUN"

say "machine"
echo "nproc: $(nproc)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
echo "kernel: $(uname -sr); sqlite $(sqlite3 --version 2>/dev/null | cut -d' ' -f1 || echo '?'); $(curl --version | head -n1 | cut -d' ' -f1-2)"
echo "disk of $RUN: $(df -h "$RUN" | awk 'NR==2 {print $1}')"
echo "run: $SECONDS_EACH s each, $CLIENTS clients, $GAMES games, $THREADS server threads"

# ---- 4. engine
say "engine: complete random 4-player Alien Frontiers games (af-bench 5 4 0)"
"$BUILD/af-bench" 5 4 0

# ---- 2. the raw ceiling: a trivial libmicrohttpd handler
say "raw ceiling: trivial libmicrohttpd handler, $THREADS threads"
"$BUILD/bench/tp-raw" 0 "$THREADS" >"$RUN/raw.port" &
PIDS="$PIDS $!"
RAWPID=$!
for _ in $(seq 100); do [ -s "$RUN/raw.port" ] && break; sleep 0.05; done
"$BUILD/bench/tp-load" raw "http://127.0.0.1:$(cat "$RUN/raw.port")/" "$CLIENTS" "$SECONDS_EACH" | tee "$RUN/raw.out"
kill "$RAWPID"; wait "$RAWPID" 2>/dev/null || true

# ---- 1 and 3. turnpostd: play load, then read load
start_daemon() { # db port-file
	"$BUILD/turnpostd" --db "$1" --listen 127.0.0.1:0 --port-file "$2" --threads "$THREADS" \
		--max-connections 1024 --max-connections-per-client 1024 --quiet --mail-transport file --mail-dir "$RUN/mail" 2>>"$RUN/turnpostd.log" &
	DPID=$!
	PIDS="$PIDS $DPID"
}
wait_port() { # port-file
	for _ in $(seq 2000); do [ -s "$1" ] && return 0; sleep 0.005; done
	echo "turnpostd did not start: see $RUN/turnpostd.log" >&2
	return 1
}

TOKEN=$(TURNPOST_DB="$RUN/play.db" "$BUILD/turnpost" user add bench@example.org --name Bench --admin --create | tail -n 1)
start_daemon "$RUN/play.db" "$RUN/play.port"
wait_port "$RUN/play.port"
URL="http://127.0.0.1:$(cat "$RUN/play.port")"

say "play: $CLIENTS clients, $GAMES Alien Frontiers games, GET legal + POST move with If-Match"
"$BUILD/bench/tp-load" play "$URL" "$TOKEN" "$CLIENTS" "$GAMES" "$SECONDS_EACH" 4 | tee "$RUN/play.out"

say "read: game GETs, full answer and If-None-Match; the phone game page of the seat on turn"
"$BUILD/bench/tp-load" read "$URL" "$TOKEN" "$CLIENTS" "$SECONDS_EACH" full | tee "$RUN/read_full.out"
"$BUILD/bench/tp-load" read "$URL" "$TOKEN" "$CLIENTS" "$SECONDS_EACH" inm | tee "$RUN/read_inm.out"
"$BUILD/bench/tp-load" read "$URL" "$TOKEN" "$CLIENTS" "$SECONDS_EACH" page | tee "$RUN/read_page.out"
kill "$DPID"; wait "$DPID" 2>/dev/null || true

# ---- 5. storage and start-up
say "storage: $STORAGE_GAMES finished 4-player games written through the store API"
"$BUILD/bench/tp-storegen" "$RUN/storage.db" "$STORAGE_GAMES" 4 | tee "$RUN/storage.out"

startup() { # db label
	rm -f "$RUN/up.port"
	t0=$(ms_now)
	start_daemon "$1" "$RUN/up.port"
	wait_port "$RUN/up.port"
	until curl -fs "http://127.0.0.1:$(cat "$RUN/up.port")/healthz" >/dev/null; do sleep 0.002; done
	t1=$(ms_now)
	kill "$DPID"; wait "$DPID" 2>/dev/null || true
	echo "start-up with $2: $((t1 - t0)) ms from exec to the first /healthz 200"
	echo "RESULT startup label=$2 ms=$((t1 - t0))"
}
say "start-up time"
: >"$RUN/startup.out"
if [ "$STARTUP_MOVES" -gt 0 ]; then
	"$BUILD/bench/tp-storegen" "$RUN/startup.db" 100000 4 "$STARTUP_MOVES" | tee "$RUN/startup_gen.out"
	startup "$RUN/startup.db" "$(sed -n 's/.* moves=\([0-9]*\).*/\1/p' "$RUN/startup_gen.out") moves" | tee -a "$RUN/startup.out"
fi
startup "$RUN/storage.db" "$(sed -n 's/.* moves=\([0-9]*\).*/\1/p' "$RUN/storage.out") moves" | tee -a "$RUN/startup.out"
startup "$RUN/empty.db" "an empty database" | tee -a "$RUN/startup.out"
rm -f "$RUN/storage.db" "$RUN/storage.db-wal" "$RUN/storage.db-shm"

# ---- 6. the peer: boardgame.io with its file storage, driven by the same load generator
if [ "$PEER" = 1 ] && [ ! -f "$SRC/bench/peer/server.js" ]; then
	say "peer: not run (bench/peer/server.js, the boardgame.io adapter, is not written yet)"
elif [ "$PEER" = 1 ] && command -v node >/dev/null && command -v npm >/dev/null; then
	say "peer: boardgame.io 0.50 (npm), its game master and FlatFile storage, one node process; same load: $CLIENTS clients, $GAMES games"
	mkdir -p "$RUN/peer"
	cp "$SRC/bench/peer/package.json" "$SRC/bench/peer/package-lock.json" "$SRC/bench/peer/server.js" "$RUN/peer/"
	if (cd "$RUN/peer" && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1); then
		(cd "$RUN/peer" && PEER_DIR="$RUN/peer/data" exec node server.js 0 >"$RUN/peer.port" 2>"$RUN/peer.log") &
		PPID_=$!
		PIDS="$PIDS $PPID_"
		wait_port "$RUN/peer.port"
		"$BUILD/bench/tp-load" play "http://127.0.0.1:$(cat "$RUN/peer.port")" peer "$CLIENTS" "$GAMES" \
			"$SECONDS_EACH" 4 | tee "$RUN/peer.out" || true
		kill "$PPID_" 2>/dev/null || true
	else
		echo "npm ci failed: no peer figures (see npm's log)"
	fi
fi

# ---- summary
say "summary"
val() { sed -n "s/^RESULT .*$2=\([0-9.]*\).*/\1/p" "$RUN/$1" | head -n 1; }
raw=$(val raw.out req_per_s)
play=$(val play.out moves_per_s)
playreq=$(val play.out req_per_s)
full=$(val read_full.out req_per_s)
inm=$(val read_inm.out req_per_s)
page=$(val read_page.out req_per_s)
echo "raw ceiling:        $raw requests/s"
echo "play:               $play moves/s (p50 $(val play.out p50_ms) ms, p95 $(val play.out p95_ms) ms, p99 $(val play.out p99_ms) ms);" \
	"$playreq requests/s = $(awk "BEGIN{printf \"%.2f\", $playreq/$raw}") of the ceiling"
echo "read, full:         $full requests/s = $(awk "BEGIN{printf \"%.2f\", $full/$raw}") of the ceiling"
echo "read, If-None-Match: $inm requests/s = $(awk "BEGIN{printf \"%.2f\", $inm/$raw}") of the ceiling"
echo "phone game page:    $page requests/s = $(awk "BEGIN{printf \"%.2f\", $page/$full}") of the JSON game GET;" \
	"$(val read_page.out body_bytes) bytes per page"
echo "storage:            $(val storage.out bytes_per_move) bytes per move"
if [ -s "$RUN/peer.out" ] && grep -q '^RESULT' "$RUN/peer.out"; then
	peer=$(val peer.out moves_per_s)
	echo "peer boardgame.io:  $peer moves/s (p99 $(val peer.out p99_ms) ms); turnpost/peer = $(awk "BEGIN{printf \"%.1f\", $play/$peer}")"
fi
