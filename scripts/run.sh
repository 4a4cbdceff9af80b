#!/usr/bin/env bash
# Builds and starts the product: the local gateway with the SPA and the
# embedded SQLite store (seeded with demo data on first run).
# Configuration: BACKOFFICE_* environment variables (see NOTES.md).
#
#   scripts/run.sh             development build, demo data, simulated chargers
#   scripts/run.sh --release   optimised build (what a real site runs); with
#                              BACKOFFICE_ENV=production: no demo data, no
#                              simulator, passwords and secrets must be given
set -euo pipefail
cd "$(dirname "$0")/.."

profile=debug
for arg in "$@"; do
  case "$arg" in
    --release) profile=release ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "error: unknown option '$arg' (use --release)" >&2; exit 1 ;;
  esac
done
production=0
case "${BACKOFFICE_ENV:-development}" in production|prod) production=1 ;; esac

need() { command -v "$1" >/dev/null 2>&1 || { echo "error: $1 is not installed ($2)" >&2; exit 1; }; }
need cargo "install Rust from rustup.rs"
need npm "install Node.js 20"

if [ -f web/package.json ]; then
  if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    echo "==> installing web dependencies"
    npm --prefix web ci --no-audit --no-fund --loglevel=error
  fi
  echo "==> building the web app"
  npm --prefix web run build --silent
fi

echo "==> building the gateway ($profile)"
if [ "$profile" = release ]; then cargo build --quiet --release -p gateway; else cargo build --quiet -p gateway; fi

export BACKOFFICE_DATA_DIR="${BACKOFFICE_DATA_DIR:-$PWD/data}"
export BACKOFFICE_WEB_DIST="${BACKOFFICE_WEB_DIST:-$PWD/web/dist}"
# YKC piles connect over TCP to their own port (the gateway prints
# "YKC piles connect to ..."); 9998 unless set.
export BACKOFFICE_YKC_PORT="${BACKOFFICE_YKC_PORT:-9998}"
# Demo mode: the charge-point simulator connects the demo piles shown as
# connected over the real OCPP link (ws://127.0.0.1:PORT/ocpp/{id}), each in
# the version its pile is registered for (1.6J; two piles of one station
# 2.0.1), and the piles of one station over YKC (1.6, one 1.5) to the YKC port.
# Production has no demo piles to simulate.
if [ "$production" = 1 ]; then
  export BACKOFFICE_SIMULATE_CHARGERS="${BACKOFFICE_SIMULATE_CHARGERS:-0}"
else
  export BACKOFFICE_SIMULATE_CHARGERS="${BACKOFFICE_SIMULATE_CHARGERS:-1}"
  if [ -f "$BACKOFFICE_DATA_DIR/first-run-credentials.txt" ]; then
    echo "==> sign-ins generated at first run (change them in the personal center):"
    cat "$BACKOFFICE_DATA_DIR/first-run-credentials.txt"
  fi
fi
exec "target/$profile/gateway" serve
