#!/usr/bin/env bash
# End-to-end tests of the web shell in Debian's chromium against the local
# gateway. Builds nothing: expects web/dist (npm --prefix web run build) and
# target/debug/gateway (cargo build -p gateway) to exist.
set -euo pipefail
cd "$(dirname "$0")"
ROOT="$(cd ../.. && pwd)"
[[ -x /usr/bin/chromium ]] || { echo "chromium missing: apt-get install -y chromium" >&2; exit 1; }
[[ -f "$ROOT/web/dist/index.html" ]] || { echo "web/dist missing: npm --prefix web ci && npm --prefix web run build" >&2; exit 1; }
GATEWAY="${E2E_GATEWAY_BIN:-$ROOT/target/debug/gateway}"
[[ -x "$GATEWAY" ]] || { echo "gateway missing ($GATEWAY): cargo build -p gateway" >&2; exit 1; }
[[ -d node_modules/playwright-core ]] || npm ci --no-audit --no-fund
rm -rf screenshots
# Each test file starts its own gateway (free port, fresh data dir) and its
# own browser, so files run side by side: E2E_SHARDS at a time (default 2;
# the tests wait for page states, never for durations, so load does not
# change what they see).
exec node --test --test-concurrency="${E2E_SHARDS:-2}" --test-timeout=400000 ./*.test.mjs
