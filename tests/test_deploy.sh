#!/bin/sh
# tests/test_deploy.sh: the deploy kit: the config example lists the settings table, make install, the systemd unit
# SPDX-License-Identifier: MIT
set -u
top=${TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
build=${TOP_BUILDDIR:-.}
tpd=${TURNPOSTD:-./turnpostd}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
for v in $(env | sed -n 's/^\(TURNPOST_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
example=$top/contrib/turnpost.conf.example

# The example is what the settings table makes (regenerate: turnpostd --print-options example).
"$tpd" --print-options example >"$tmp/example" 2>&1 || bad "--print-options example: $(cat "$tmp/example")"
cmp -s "$tmp/example" "$example" && ok ||
	bad "contrib/turnpost.conf.example is not turnpostd --print-options example: $(diff "$example" "$tmp/example" | head)"
# ... with exactly the table's settings (those of the config file turnpostd prints), each documented.
sed -n 's/^#\{0,1\} \{0,1\}\([a-z][a-z-]*\) =.*/\1/p' "$tmp/example" | sort >"$tmp/keys"
"$tpd" --print-options config | sed -n 's/^#\{0,1\} \{0,1\}\([a-z][a-z-]*\) =.*/\1/p' | sort >"$tmp/table"
[ "$(wc -l <"$tmp/table")" -ge 20 ] && cmp -s "$tmp/keys" "$tmp/table" && ok ||
	bad "the example's settings differ from the table's: $(diff "$tmp/table" "$tmp/keys")"
while read -r key; do
	env=TURNPOST_$(echo "$key" | tr 'a-z-' 'A-Z_')
	grep -B 4 "^#$key =" "$tmp/example" | grep -q "env $env)\|^# $env)" && ok || bad "the example does not document $key ($env)"
done <"$tmp/table"
# Uncommented, every default is a valid setting.
sed 's/^#\([a-z][a-z-]*\) = /\1 = /' "$tmp/example" | grep -v '^#[a-z].* =$' >"$tmp/all.conf"
"$tpd" --config "$tmp/all.conf" --print-options config >"$tmp/out" 2>&1 && ok ||
	bad "the example's defaults, uncommented, are refused: $(cat "$tmp/out")"

# make install puts the unit and the example where configure said.
dest=$tmp/dest
make -s -C "$build" install DESTDIR="$dest" >"$tmp/install.log" 2>&1 || bad "make install: $(tail "$tmp/install.log")"
conf=$(find "$dest" -name turnpost.conf.example)
[ -n "$conf" ] && cmp -s "$conf" "$example" && ok || bad "make install did not install turnpost.conf.example: $(find "$dest")"
unitdir=$(sed -n 's/^systemdsystemunitdir = //p' "$build/Makefile")
bindir=$(MAKEFLAGS= MAKELEVEL= make -s --no-print-directory -C "$build" -f Makefile -f - print-bindir <<'MK' 2>/dev/null
print-bindir:
	@echo $(bindir)
MK
)
if [ -z "$unitdir" ]; then
	echo "SKIP: configured without a systemd unit directory (--with-systemdsystemunitdir=no, or no systemd.pc)"
	unit=
else
	unit=$dest$unitdir/turnpostd.service
	[ -f "$unit" ] && ok || bad "make install did not install $unitdir/turnpostd.service: $(find "$dest")"
	grep -qx "ExecStart=$bindir/turnpostd --config .*/turnpost.conf" "$unit" && ok ||
		bad "the unit does not start $bindir/turnpostd: $(grep ExecStart "$unit")"
	! grep -q '@[a-z]*@' "$unit" && ok || bad "the unit keeps a placeholder: $(grep '@[a-z]*@' "$unit")"
fi

# The hardening the unit promises, and no reload the daemon does not handle.
src=$top/contrib/turnpostd.service.in
for line in 'User=turnpost' 'StateDirectory=turnpost' 'ProtectSystem=strict' 'NoNewPrivileges=yes' 'PrivateTmp=yes' \
	'ProtectHome=yes' 'CapabilityBoundingSet=' 'SystemCallFilter=@system-service' \
	'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX'; do
	grep -qx "$line" "$src" && ok || bad "the unit lacks $line"
done
# turnpostd handles SIGHUP (tests/http/test_ops.c): systemctl reload sends it
grep -qx 'ExecReload=/bin/kill -HUP $MAINPID' "$src" && ok || bad "the unit lacks ExecReload (SIGHUP)"

# systemd accepts the unit (its binary pointed at the installed one, which must exist).
if ! command -v systemd-analyze >/dev/null; then
	echo "SKIP: no systemd-analyze; the unit was not verified"
elif [ -z "$unit" ]; then
	echo "SKIP: no unit installed; the unit was not verified"
else
	sed "s|^ExecStart=$bindir/|ExecStart=$dest$bindir/|" "$unit" >"$tmp/turnpostd.service"
	systemd-analyze verify --man=no "$tmp/turnpostd.service" >"$tmp/out" 2>&1
	st=$?
	[ $st = 0 ] && [ ! -s "$tmp/out" ] && ok || bad "systemd-analyze verify: status $st: $(cat "$tmp/out")"
	# and the check bites: a misspelt key is reported
	sed 's/^ProtectSystem=/ProtectSystm=/' "$tmp/turnpostd.service" >"$tmp/bad.service"
	systemd-analyze verify --man=no "$tmp/bad.service" >"$tmp/out" 2>&1
	grep -q "Unknown key" "$tmp/out" && ok || bad "systemd-analyze verify does not report a misspelt key"
fi

echo "deploy: $pass passed, $fail failed"
[ $fail = 0 ]
