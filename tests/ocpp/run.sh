#!/usr/bin/env bash
# Charge points scripted with the PyPI `ocpp` package against the gateway
# binary (built beforehand: cargo build -p gateway). Each test process
# starts its own gateway on a free loopback port with fresh data, so the
# tests run in OCPP_TEST_WORKERS processes (default 3: they mostly wait on
# the gateway and on charger time-outs, not on the CPU).
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV="${BACKOFFICE_TOOLS_VENV:-$PWD/target/tools-venv}"
[[ -x target/debug/gateway || -n "${OCPP_GATEWAY_BIN:-}" ]] || { echo "gateway missing: cargo build -p gateway" >&2; exit 1; }
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider -n "${OCPP_TEST_WORKERS:-3}" tests/ocpp "$@"
