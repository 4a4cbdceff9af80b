#!/usr/bin/env bash
# Runs the whole test suite: Rust unit + integration tests (store contract
# on SQLite and on DynamoDB via moto), the local gateway over HTTP, the
# template checks, the web unit tests, and the end-to-end tests in
# headless Chromium. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-test-deps.sh
export PATH="${BACKOFFICE_TOOLS_VENV:-$PWD/target/tools-venv}/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

echo "==> Rust: build once, then test"
cargo build --workspace --exclude functions --all-targets
cargo test --workspace --exclude functions
echo "==> Lambda functions compile"
cargo check -p functions --bins

echo "==> SAM template lint"
infra/deploy/check-template.sh

if [ -f web/package.json ]; then
  echo "==> web: unit tests and production build"
  npm --prefix web test
  npm --prefix web run build
fi

if [ -x tests/e2e/run.sh ]; then
  echo "==> end-to-end in headless Chromium"
  tests/e2e/run.sh
fi
echo "==> all test suites passed"
