#!/usr/bin/env bash
# Front-end figures: the initial JS / CSS gzip sizes of web/dist and its
# largest chunks, then the time-to-interactive of /order/orderindex in
# headless Chromium against the local gateway (release build, SQLite,
# seeded demo data). Installs what it needs (scripts/install-test-deps.sh:
# chromium, the e2e npm packages with playwright-core, the web packages),
# builds web/dist and the gateway, then runs bench/web/frontend.mjs.
#
#   scripts/bench-web.sh [--runs N] [--quiet-ms MS] [--json FILE]
#
# BENCH_SKIP_BUILD=1 measures the web/dist and target/release/gateway
# already there.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-test-deps.sh
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  echo "==> web/dist (production build)"
  mkdir -p target
  npm --prefix web run build >target/bench-web-build.log 2>&1 || { cat target/bench-web-build.log; exit 1; }
  echo "==> gateway (release)"
  cargo build --release -p gateway
fi
node --test --test-reporter=dot bench/web/frontend.test.mjs
echo "==> front-end bench"
E2E_GATEWAY_BIN="${E2E_GATEWAY_BIN:-$PWD/target/release/gateway}" exec node bench/web/frontend.mjs "$@"
