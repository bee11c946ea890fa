#!/usr/bin/env bash
# The WebKit suite (e2e/engines/) drives Debian's WebKitGTK: WebKitWebDriver starts MiniBrowser,
# which has no headless mode and runs under Xvfb. Nothing is downloaded besides Debian packages.
set -euo pipefail
driver="${WEBKIT_WEBDRIVER_PATH:-/usr/bin/WebKitWebDriver}"
minibrowser_of() {
  if [ -n "${MINIBROWSER_PATH:-}" ]; then
    echo "$MINIBROWSER_PATH"
    return
  fi
  local found
  for found in /usr/lib/*/webkit2gtk-4.1/MiniBrowser; do
    [ -x "$found" ] && echo "$found" && return
  done
  echo /usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser
}
xvfb="${XVFB_PATH:-Xvfb}"
ready() { [ -x "$driver" ] && [ -x "$(minibrowser_of)" ] && command -v "$xvfb" >/dev/null; }
ready && exit 0

echo "WebKitWebDriver, MiniBrowser or Xvfb missing: installing Debian's webkit2gtk-driver and xvfb…"
# MiniBrowser comes with libwebkit2gtk-4.1-0 (a dependency of the driver). Of its recommended
# packages only Mesa's software OpenGL matters under Xvfb; the media plugins and portals do not.
packages=(webkit2gtk-driver xvfb libgl1-mesa-dri)
install() {
  "$@" apt-get update -qq &&
    "$@" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
}
if command -v apt-get >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    install || true
  elif command -v sudo >/dev/null; then
    install sudo || true
  fi
fi
if ! ready; then
  echo "Could not install WebKitGTK's WebDriver. On Debian/Ubuntu run:" >&2
  echo "  sudo apt-get install --no-install-recommends webkit2gtk-driver xvfb libgl1-mesa-dri" >&2
  echo "or point WEBKIT_WEBDRIVER_PATH at WebKitWebDriver and MINIBROWSER_PATH at MiniBrowser" >&2
  echo "(and XVFB_PATH at Xvfb, or have it on the PATH), then run the WebKit suite again." >&2
  exit 1
fi
