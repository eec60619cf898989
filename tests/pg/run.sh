#!/bin/sh
# tests/pg/run.sh: run a test program against a throwaway PostgreSQL cluster of its own
# SPDX-License-Identifier: MIT
#
# Usage: run.sh PROGRAM [ARG...]
# Starts a cluster in a temporary directory (initdb, pg_ctl; as the postgres
# user when run as root, since initdb refuses root), listening only on a
# unix socket there, on a free port; creates the database turnpost and runs
# PROGRAM with TURNPOST_TEST_PG set to its URL (and PGHOST, PGPORT, PGUSER
# for psql); stops the cluster and removes it whatever happens.
# Exit: PROGRAM's status; 77 (skipped, with a line saying why) when the
# PostgreSQL server binaries are not installed.
set -u
[ $# -ge 1 ] || { echo "usage: run.sh PROGRAM [ARG...]" >&2; exit 99; }

bin=${PG_BINDIR:-}
if [ -z "$bin" ]; then
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && bin=$d
	done
fi
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ] || [ ! -x "$bin/pg_ctl" ]; then
	echo "SKIP: no PostgreSQL server binaries (initdb, pg_ctl; Debian: apt-get install postgresql): $1 not run on PostgreSQL"
	exit 77
fi
psql=$(command -v psql || echo "$bin/psql")

as_pg=
if [ "$(id -u)" = 0 ]; then
	if ! id postgres >/dev/null 2>&1; then
		echo "SKIP: running as root and there is no postgres user to run initdb as"
		exit 77
	fi
	as_pg="runuser -u postgres --"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-pg.XXXXXX") || exit 99
chmod 755 "$dir"
[ -z "$as_pg" ] || chown postgres "$dir"
stop() {
	$as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
	rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM

if ! $as_pg "$bin/initdb" -D "$dir/data" -A trust -U turnpost -E UTF8 --no-sync >"$dir/initdb.log" 2>&1; then
	echo "initdb failed:"; cat "$dir/initdb.log"
	exit 99
fi
# its settings in its own file, so that a test may stop and start it again with pg_ctl alone
cat >>"$dir/data/postgresql.conf" <<CONF
unix_socket_directories = '$dir'
listen_addresses = ''
fsync = off
full_page_writes = off
CONF
# a free port: the kernel picks one, which the cluster takes at once (tried again if lost meanwhile)
started=
for try in 1 2 3 4 5; do
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
		echo $((20000 + $$ % 20000 + try)))
	echo "port = $port" >>"$dir/data/postgresql.conf"
	if $as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 start >/dev/null 2>&1; then
		started=1
		break
	fi
done
if [ -z "$started" ]; then
	echo "the PostgreSQL cluster did not start:"; cat "$dir/log"
	exit 99
fi
export PGHOST="$dir" PGPORT="$port" PGUSER=turnpost
export TURNPOST_TEST_PG="postgresql://turnpost@/turnpost?host=$dir&port=$port"
export TURNPOST_TEST_PG_CTL="$as_pg $bin/pg_ctl -D $dir/data -l $dir/log"
"$psql" -q -d postgres -c 'CREATE DATABASE turnpost' >/dev/null || exit 99
"$@"
