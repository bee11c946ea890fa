#!/usr/bin/env bash
# Browser tests drive Debian's Chromium; Playwright never downloads a browser here.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium" ] && exit 0
echo "Chromium not found at $chromium: installing Debian's chromium package…"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ ! -x "$chromium" ]; then
  echo "Could not install Chromium. On Debian/Ubuntu run: sudo apt-get install chromium" >&2
  echo "or point CHROMIUM_PATH at a Chromium/Chrome binary, then run npm test again." >&2
  exit 1
fi
