#!/bin/sh
# Installs Debian's pgbouncer for the test that runs three instances through it in transaction mode, as
# ensure-chromium.sh installs the browser. Never fatal: without it only that test is skipped, saying why.
# PGBOUNCER_PATH picks another binary.
set -u

binary="${PGBOUNCER_PATH:-/usr/sbin/pgbouncer}"
[ -x "$binary" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-pgbouncer: no PgBouncer at $binary; its test will be skipped (sudo apt-get install pgbouncer)." >&2
  exit 0
fi

if ! sh "$(dirname "$0")/apt-install.sh" pgbouncer; then
  echo "ensure-pgbouncer: apt-get could not install pgbouncer (output above); its test will be skipped." >&2
fi
exit 0
