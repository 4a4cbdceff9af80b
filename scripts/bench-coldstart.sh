#!/usr/bin/env bash
# Lambda cold start per function: builds the one bootstrap every function runs (what the template deploys) and starts it as sign-in, user
# info, order list and order detail, starts moto (DynamoDB API) on
# loopback with a small table seeded through the product's seeding, and
# starts each bin as a fresh process against a local Lambda Runtime API
# emulator (bench/src/cold_start). Prints init time, first-event latency,
# binary and zip sizes per function. Installs what it needs first
# (scripts/install-test-deps.sh: moto in target/tools-venv; the zip command).
#
#   scripts/bench-coldstart.sh [--runs N] [--orders N] [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-test-deps.sh
if ! command -v zip >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "==> installing Debian's zip"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq zip >/dev/null
fi
export PATH="${BACKOFFICE_TOOLS_VENV:-$PWD/target/tools-venv}/bin:$PATH"

echo "==> cold-start bench (release build of the bench; it builds the bootstrap itself)"
cargo build --release -q -p bench --bin cold-start
cargo test --release -q -p bench --bin cold-start
exec target/release/cold-start "$@"
