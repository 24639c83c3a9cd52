#!/bin/sh
# Installs one Debian package quietly for the test set-up (ensure-chromium.sh, ensure-pgbouncer.sh); on failure
# prints apt-get's last lines and exits 1. Needs root.
set -u

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
install() {
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$1" >>"$log" 2>&1
}
# A fresh image has no package lists yet: update only when the first attempt fails.
if ! install "$1" && ! { apt-get update -q >>"$log" 2>&1 && install "$1"; }; then
  tail -n 20 "$log" >&2
  exit 1
fi
