#!/bin/sh
# Makes sure the browser test/docs drives is installed before the tests run. CI (.ci/run) runs as root on
# Debian and installs Debian's chromium; anyone else is told how. CHROMIUM_PATH picks another binary.
set -eu

browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  cat >&2 <<MESSAGE
ensure-chromium: no browser at $browser; the /docs page test needs one.
Install Debian's chromium:   sudo apt-get install --no-install-recommends chromium
or point CHROMIUM_PATH at a Chromium or Chrome binary.
MESSAGE
  exit 1
fi

if ! sh "$(dirname "$0")/apt-install.sh" chromium; then
  echo "ensure-chromium: could not install chromium with apt-get (output above)." >&2
  exit 1
fi

if [ ! -x "$browser" ]; then
  echo "ensure-chromium: chromium is installed, but CHROMIUM_PATH=$browser is not an executable." >&2
  exit 1
fi
