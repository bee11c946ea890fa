#!/usr/bin/env bash
# The cross-engine suite (e2e/engines/) drives Debian's Firefox ESR over WebDriver BiDi; nothing is downloaded.
set -euo pipefail
firefox="${FIREFOX_PATH:-/usr/bin/firefox-esr}"
[ -x "$firefox" ] && exit 0
if [ -n "${FIREFOX_PATH:-}" ]; then
  echo "FIREFOX_PATH names $firefox, which is not an executable Firefox." >&2
  exit 1
fi
echo "Firefox not found at $firefox: installing Debian's firefox-esr package…"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr >/dev/null
elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr >/dev/null
fi
if [ ! -x "$firefox" ]; then
  echo "Could not install Firefox. On Debian/Ubuntu run: sudo apt-get install firefox-esr" >&2
  echo "or point FIREFOX_PATH at a Firefox binary, then run the engine suite again." >&2
  exit 1
fi
