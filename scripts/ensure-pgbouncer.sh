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

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
install_pgbouncer() {
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends pgbouncer >>"$log" 2>&1
}
# A fresh image has no package lists yet: update only when the first attempt fails.
if ! install_pgbouncer && ! { apt-get update -q >>"$log" 2>&1 && install_pgbouncer; }; then
  echo "ensure-pgbouncer: apt-get could not install pgbouncer; its test will be skipped:" >&2
  tail -n 5 "$log" >&2
fi
exit 0
