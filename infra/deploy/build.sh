#!/usr/bin/env bash
# Builds what `deploy.sh` ships: every Lambda bin once for arm64
# (target/lambda/<function>/bootstrap, where template.yaml's CodeUris
# point) and the SPA (web/dist). Checks template.yaml is current first, so
# a stale template never deploys a route table that no longer exists.
set -euo pipefail
cd "$(dirname "$0")/../.."

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "error: '$1' is not installed: $2" >&2; exit 1; }
}
need cargo "install Rust from https://rustup.rs"
need npm "install Node.js 20.19 or newer"
if ! cargo lambda --version >/dev/null 2>&1; then
  echo "error: cargo-lambda is not installed: run 'pip install cargo-lambda' (it brings zig for the arm64 cross-build)" >&2
  exit 1
fi

echo "==> template.yaml matches the route table"
cargo run -q -p sam-template -- --check

echo "==> Lambda functions (release, arm64, built once for all bins)"
# Never target-cpu=native here: the build machine is not the Graviton CPU.
cargo lambda build --release --arm64 -p functions

missing=0
for uri in $(sed -n 's/^ *CodeUri: //p' template.yaml); do
  if [ ! -x "$uri/bootstrap" ]; then
    echo "error: $uri/bootstrap was not built (is the bin in functions/src/bin?)" >&2
    missing=1
  fi
done
[ "$missing" -eq 0 ] || exit 1

echo "==> web/dist"
if [ ! -d web/node_modules ]; then
  npm --prefix web ci --no-audit --no-fund --loglevel=error
fi
npm --prefix web run build

echo "==> built: target/lambda/*/bootstrap and web/dist; next: infra/deploy/deploy.sh"
