#!/usr/bin/env bash
# `npm test`: everything, in the order a failure is cheapest to find.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-firefox.sh
bash scripts/ensure-webkit.sh
npx tsx scripts/ensure-tools.ts
bash scripts/ensure-postgres.sh
# One command per line: under `set -e` a failure inside an `a && b && c` list other than the last
# does not stop the script (a failed first type check once went unnoticed that way).
echo "== lint and format (biome), unused files, dependencies and exports (knip)"
npm run --silent lint
echo "== typecheck (everything with Node types; browser code without them)"
npx tsc --noEmit -p .
npx tsc --noEmit -p tsconfig.browser.json
echo "== unit and integration tests (vitest)"
npx vitest run
echo "== service clients in Chromium (vitest browser mode)"
npx vitest run -c sdk/vitest.browser.config.ts
echo "== build"
npx tsx scripts/build.ts
echo "== the package as a user installs it (npm pack, then a Vite app, a Node script, tsc)"
npx vitest run -c scripts/vitest.pack.config.ts
echo "== browser tests in Chromium (playwright)"
npx playwright test
echo "== the same paths in Firefox ESR and WebKitGTK (e2e/engines, ENGINES=firefox,webkit)"
npx vitest run -c e2e/engines/vitest.config.ts
