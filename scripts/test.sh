#!/usr/bin/env bash
# Runs the whole test suite: Rust unit + integration tests (store contract
# on SQLite and on DynamoDB via moto), the local gateway over HTTP, the
# template checks, the web lint and unit tests, and the end-to-end tests in
# headless Chromium. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage prints its wall time, so a slow CI run shows where it went.
SUITE_START=$SECONDS
STAGE_NAME=""
STAGE_START=$SECONDS
stage() {
  [ -n "$STAGE_NAME" ] && echo "<== $STAGE_NAME: $((SECONDS - STAGE_START)) s"
  STAGE_NAME="$1"
  STAGE_START=$SECONDS
  echo "==> $1"
}

stage "install what the tests need"
scripts/install-test-deps.sh
export PATH="${BACKOFFICE_TOOLS_VENV:-$PWD/target/tools-venv}/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# The suite builds once from scratch: incremental caches would only cost disk.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# A real DynamoDB API for the store contract: moto in server mode on free
# loopback ports (scripts/moto-server.py: moto made fit for a test suite),
# stopped when this script ends. The Rust tests run in lanes side by side,
# each lane with its own emulator; the later stages use the first.
RUST_TEST_LANES="${RUST_TEST_LANES:-2}"
MOTO_PIDS=()
trap 'kill "${MOTO_PIDS[@]}" 2>/dev/null || true' EXIT
start_moto() {
  local port
  port="$(python3 scripts/free_port.py)"
  scripts/moto-server.py -H 127.0.0.1 -p "$port" >"target/moto-$1.log" 2>&1 &
  MOTO_PIDS+=($!)
  for _ in $(seq 50); do
    curl -fs -o /dev/null "http://127.0.0.1:$port/" && break
    sleep 0.2
  done
  curl -fs -o /dev/null "http://127.0.0.1:$port/" || { echo "moto did not start; see target/moto-$1.log" >&2; exit 1; }
  MOTO_ENDPOINTS+="${MOTO_ENDPOINTS:+,}http://127.0.0.1:$port"
}
MOTO_ENDPOINTS=""
for lane in $(seq "$RUST_TEST_LANES"); do start_moto "$lane"; done
export BACKOFFICE_TEST_DYNAMO_ENDPOINT="${MOTO_ENDPOINTS%%,*}" BACKOFFICE_REQUIRE_DYNAMO=1

stage "Rust: build every crate and test binary once"
# ocpp-aws (the charger link's Lambda handlers) is built with the rest: the
# back-office then compiles once, with its Lambda adapter beside the
# gateway's features. The bootstrap itself is checked alone below, with
# only the features the Lambda build gives it.
cargo build --workspace --exclude functions --all-targets
stage "Rust: unit and integration tests (SQLite and DynamoDB on moto), $RUST_TEST_LANES lanes"
scripts/run-test-binaries.py "$MOTO_ENDPOINTS" -- --workspace --exclude functions
stage "OCPP 1.6J: chargers scripted with the ocpp package against the gateway"
tests/ocpp/run.sh
stage "Lambda bootstrap compiles with the Lambda build's features"
cargo check -p functions --bins
# The store cost per request (no Scan, no write, flat from 30k to 60k
# orders on SQLite; DynamoDB wire counts on moto) and the SAM template lint
# count and check, never time: they run on one core from the start of the
# fuzzing, whose roles take turns on the other (these take longer than the
# three runs). A 7-day demo history makes these sizes as dense as a
# large store (every station and day has its rollups); scripts/bench.sh
# --full measures 1k-1M.
BESIDE="BACKOFFICE_DEMO_DAYS=7 target/debug/store-cost --sqlite 30000,60000 --dynamo 1000 \
  --endpoint '$BACKOFFICE_TEST_DYNAMO_ENDPOINT' --dir target/bench-ci && infra/deploy/check-template.sh"
stage "API fuzzing (schemathesis, per role), with the store cost bench and the SAM template lint beside it"
FUZZ_BESIDE="$BESIDE" scripts/fuzz-api.sh

if [ -f web/package.json ]; then
  stage "web: lint (no warnings), unit tests and production build"
  npm --prefix web run lint
  npm --prefix web test
  npm --prefix web run build
fi

if [ -x tests/e2e/run.sh ]; then
  stage "end-to-end in headless Chromium"
  tests/e2e/run.sh
  stage "front-end figures: bundle sizes and the order list's time-to-interactive (debug gateway)"
  BENCH_SKIP_BUILD=1 E2E_GATEWAY_BIN="$PWD/target/debug/gateway" scripts/bench-web.sh --runs 3
fi
stage "done"
echo "==> all test suites passed in $((SECONDS - SUITE_START)) s"
