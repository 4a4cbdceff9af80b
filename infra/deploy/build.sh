#!/usr/bin/env bash
# Builds what `deploy.sh` ships: the one Lambda bootstrap every function
# runs, for arm64 (default) or ARCH=x86_64, with the size-optimised
# `lambda-release` profile (target/lambda/bootstrap/bootstrap, where every CodeUri
# of template.yaml points) and the SPA (web/dist). Checks template.yaml is current first, so
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

arch="${ARCH:-arm64}"
case "$arch" in arm64|x86_64) ;; *) echo "error: ARCH must be arm64 or x86_64, not '$arch'" >&2; exit 1 ;; esac
echo "==> the Lambda bootstrap (profile lambda-release, $arch; one binary for every function)"
# Never target-cpu=native here: the build machine is not the Lambda CPU.
# cargo-lambda's flags are --arm64 and --x86-64 (the template's names are arm64 and x86_64).
cargo lambda build --profile lambda-release "--${arch//_/-}" -p functions --bin bootstrap

missing=0
# The CodeUris are in the nested stacks, relative to stacks/.
for uri in $(sed -n "s/^ *CodeUri: //p" stacks/*.yaml | tr -d "'" | sort -u); do
  uri="stacks/$uri"
  if [ ! -x "$uri/bootstrap" ]; then
    echo "error: $uri/bootstrap was not built" >&2
    missing=1
  fi
done
[ "$missing" -eq 0 ] || exit 1

echo "==> web/dist"
if [ ! -d web/node_modules ]; then
  npm --prefix web ci --no-audit --no-fund --loglevel=error
fi
npm --prefix web run build

echo "==> built: target/lambda/bootstrap/bootstrap ($arch) and web/dist; next: ARCH=$arch infra/deploy/deploy.sh"
