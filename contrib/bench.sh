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
# BENCH_STARTUP_MOVES (1000000), BENCH_PEER (1: run boardgame.io when npm works),
# BENCH_PG (1: the same play and read loads on PostgreSQL, one daemon and two
# on one database, when PostgreSQL's server binaries are installed).
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
PG=${BENCH_PG:-1}
RUN=$BUILD/run
PIDS=""

PGSTOP=""
cleanup() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	if [ -n "$PGSTOP" ]; then $PGSTOP >/dev/null 2>&1 || true; fi
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
TP_LOAD_GZIP=1 "$BUILD/bench/tp-load" read "$URL" "$TOKEN" "$CLIENTS" "$SECONDS_EACH" page | tee "$RUN/read_page_gz.out"
say "read right after a change: each client steps its game, then reads it as the seat now on turn (JSON, page)"
"$BUILD/bench/tp-load" read "$URL" "$TOKEN" "$CLIENTS" "$SECONDS_EACH" full-fresh | tee "$RUN/read_full_fresh.out"
"$BUILD/bench/tp-load" read "$URL" "$TOKEN" "$CLIENTS" "$SECONDS_EACH" page-fresh | tee "$RUN/read_page_fresh.out"
kill "$DPID"; wait "$DPID" 2>/dev/null || true

# ---- 1 and 3 on PostgreSQL: the same loads, one daemon, then two daemons on one database
pg_bin=
for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && pg_bin=$d; done
if [ "$PG" = 1 ] && [ -z "$pg_bin" ]; then
	say "PostgreSQL: not run (no server binaries: initdb, pg_ctl; Debian: apt-get install postgresql)"
elif [ "$PG" = 1 ]; then
	# a cluster of its own, durable as a site's would be (fsync and synchronous_commit on, the defaults)
	as_pg=
	[ "$(id -u)" = 0 ] && as_pg="runuser -u postgres --"
	PGDIR="$RUN/pg"
	mkdir -p "$PGDIR"
	chmod 755 "$RUN" "$PGDIR"
	[ -z "$as_pg" ] || chown postgres "$PGDIR"
	$as_pg "$pg_bin/initdb" -D "$PGDIR/data" -A trust -U turnpost -E UTF8 >"$PGDIR/initdb.log" 2>&1
	pgport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat >>"$PGDIR/data/postgresql.conf" <<CONF
unix_socket_directories = '$PGDIR'
listen_addresses = ''
port = $pgport
max_connections = 200
shared_buffers = 256MB
CONF
	$as_pg "$pg_bin/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w start >/dev/null
	PGSTOP="$as_pg $pg_bin/pg_ctl -D $PGDIR/data -m fast -w stop"
	psql -q -h "$PGDIR" -p "$pgport" -U turnpost -d postgres -c 'CREATE DATABASE bench' >/dev/null
	PGURL="postgresql://turnpost@/bench?host=$PGDIR&port=$pgport"
	echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}'), fsync on, synchronous_commit on, on the same disk"
	PGTOKEN=$("$BUILD/turnpost" --db "$PGURL" user add bench@example.org --name Bench --admin | tail -n 1)

	start_daemon "$PGURL" "$RUN/pg1.port"
	PG1=$DPID
	wait_port "$RUN/pg1.port"
	URL1="http://127.0.0.1:$(cat "$RUN/pg1.port")"
	say "PostgreSQL, one daemon: play ($CLIENTS clients, $GAMES games), then full game GETs"
	"$BUILD/bench/tp-load" play "$URL1" "$PGTOKEN" "$CLIENTS" "$GAMES" "$SECONDS_EACH" 4 | tee "$RUN/pg_play1.out"
	"$BUILD/bench/tp-load" read "$URL1" "$PGTOKEN" "$CLIENTS" "$SECONDS_EACH" full | tee "$RUN/pg_read1.out"

	start_daemon "$PGURL" "$RUN/pg2.port"
	PG2=$DPID
	wait_port "$RUN/pg2.port"
	URL2="http://127.0.0.1:$(cat "$RUN/pg2.port")"
	half=$((CLIENTS / 2))
	say "PostgreSQL, two daemons on one database: $half clients and $((GAMES / 2)) games on each, at once"
	"$BUILD/bench/tp-load" play "$URL1" "$PGTOKEN" "$half" "$((GAMES / 2))" "$SECONDS_EACH" 4 >"$RUN/pg_play2a.out" &
	L1=$!
	"$BUILD/bench/tp-load" play "$URL2" "$PGTOKEN" "$half" "$((GAMES / 2))" "$SECONDS_EACH" 4 >"$RUN/pg_play2b.out"
	wait "$L1" || true
	cat "$RUN/pg_play2a.out" "$RUN/pg_play2b.out"
	"$BUILD/bench/tp-load" read "$URL1" "$PGTOKEN" "$half" "$SECONDS_EACH" full >"$RUN/pg_read2a.out" &
	L1=$!
	"$BUILD/bench/tp-load" read "$URL2" "$PGTOKEN" "$half" "$SECONDS_EACH" full >"$RUN/pg_read2b.out"
	wait "$L1" || true
	cat "$RUN/pg_read2a.out" "$RUN/pg_read2b.out"
	kill "$PG1" "$PG2"; wait "$PG1" "$PG2" 2>/dev/null || true
	$PGSTOP >/dev/null 2>&1 || true
	PGSTOP=
fi

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
pagegz=$(val read_page_gz.out req_per_s)
echo "  with Accept-Encoding: gzip: $pagegz requests/s = $(awk "BEGIN{printf \"%.2f\", $pagegz/$full}") of the JSON game GET;" \
	"$(val read_page_gz.out body_bytes) bytes per page sent"
ffull=$(val read_full_fresh.out req_per_s)
fpage=$(val read_page_fresh.out req_per_s)
echo "first read after a step: JSON $ffull/s (p50 $(val read_full_fresh.out p50_ms) ms), page $fpage/s" \
	"(p50 $(val read_page_fresh.out p50_ms) ms) = $(awk "BEGIN{printf \"%.2f\", $fpage/$ffull}") of the JSON's (each with a step before it)"
echo "storage:            $(val storage.out bytes_per_move) bytes per move"
if [ -s "$RUN/pg_play1.out" ] && grep -q '^RESULT' "$RUN/pg_play1.out"; then
	p1=$(val pg_play1.out moves_per_s)
	p2=$(( $(val pg_play2a.out moves_per_s) + $(val pg_play2b.out moves_per_s) ))
	r1=$(val pg_read1.out req_per_s)
	r2=$(( $(val pg_read2a.out req_per_s) + $(val pg_read2b.out req_per_s) ))
	p99b=$(printf '%s\n%s\n' "$(val pg_play2a.out p99_ms)" "$(val pg_play2b.out p99_ms)" | sort -g | tail -n 1)
	echo "PostgreSQL play, 1 daemon:  $p1 moves/s (p50 $(val pg_play1.out p50_ms) ms, p99 $(val pg_play1.out p99_ms) ms);" \
		"$(awk "BEGIN{printf \"%.2f\", $p1/$play}") of SQLite;" \
		"$(awk "BEGIN{printf \"%.2f\", $(val pg_play1.out req_per_s)/$raw}") of the ceiling"
	echo "PostgreSQL play, 2 daemons: $p2 moves/s (p99 $p99b ms, the worse of the two);" \
		"$(awk "BEGIN{printf \"%.2f\", $p2/$play}") of SQLite;" \
		"$(awk "BEGIN{printf \"%.2f\", 2*$p2/$raw}") of the ceiling"
	echo "PostgreSQL read, full:      $r1 requests/s with 1 daemon, $r2 with 2;" \
		"$(awk "BEGIN{printf \"%.2f\", $r1/$raw}") and $(awk "BEGIN{printf \"%.2f\", $r2/$raw}") of the ceiling"
fi
if [ -s "$RUN/peer.out" ] && grep -q '^RESULT' "$RUN/peer.out"; then
	peer=$(val peer.out moves_per_s)
	echo "peer boardgame.io:  $peer moves/s (p99 $(val peer.out p99_ms) ms); turnpost/peer = $(awk "BEGIN{printf \"%.1f\", $play/$peer}")"
fi
