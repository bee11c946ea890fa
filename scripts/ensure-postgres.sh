#!/usr/bin/env bash
# The sandbox's real-PostgreSQL test (sandbox/infra/database/postgres.test.ts) starts a throw-away cluster with
# Debian's PostgreSQL server binaries; install them when missing (about 30 s), like ensure-chromium.sh.
set -euo pipefail
has_server() { compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null; }
has_server && exit 0
echo "PostgreSQL server binaries not found: installing Debian's postgresql package…"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
if ! has_server; then
  echo "Could not install PostgreSQL. On Debian/Ubuntu run: sudo apt-get install postgresql" >&2
  echo "or set TEST_DATABASE_URL to a PostgreSQL server the tests may create databases on." >&2
  exit 1
fi
