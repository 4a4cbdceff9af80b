#!/usr/bin/env bash
# Store-cost and warm-latency benchmarks; prints the figures that README's
# performance section quotes.
#
#   scripts/bench.sh          small: SQLite 30k and 60k orders over a 7-day demo history
#                             (as dense as a large store), DynamoDB (moto) 1k
#   scripts/bench.sh --full   SQLite 1k / 10k / 100k / 1M over 120 days, DynamoDB API on dynalite
#                             (LevelDB on disk; moto keeps every item in memory) 1k / 10k / 100k,
#                             or BENCH_DYNAMO_SIZES; ratios are checked from 100k up (below, the
#                             120-day demo is too sparse to hold every station-day's rollups)
#
# 1. store cost of every list/detail GET route (bench/src/store_cost.rs) on
#    both adapters; fails when a ratio largest/smallest size is above 1.1,
#    a request used a Scan, wrote, or did not answer 200;
# 2. order-list latency in-process on the largest SQLite store, through the
#    release gateway over HTTP on the same store, and in-process on moto.
# Seeded stores are kept under target/bench (BENCH_DIR) and reused by the
# next run (the 1M-order SQLite store takes a while to seed). It starts its
# own moto on a free loopback port (installed by scripts/install-test-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

SQLITE_SIZES="30000,60000"
DYNAMO_SIZES="1000"
CHECK_FROM=0
SECONDS_PER_RUN="${BENCH_SECONDS:-10}"
export BACKOFFICE_DEMO_DAYS=7
if [ "${1:-}" = "--full" ]; then
  SQLITE_SIZES="1000,10000,100000,1000000"
  DYNAMO_SIZES="${BENCH_DYNAMO_SIZES:-1000,10000,100000}"
  CHECK_FROM=100000
  FULL=1
  SECONDS_PER_RUN="${BENCH_SECONDS:-20}"
  unset BACKOFFICE_DEMO_DAYS
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/bench.sh [--full]" >&2
  exit 2
fi
BENCH_DIR="${BENCH_DIR:-$PWD/target/bench}"
mkdir -p "$BENCH_DIR"
LARGEST="${SQLITE_SIZES##*,}"
SMALLEST_DYNAMO="${DYNAMO_SIZES%%,*}"

export PATH="${BACKOFFICE_TOOLS_VENV:-$PWD/target/tools-venv}/bin:$PATH"
command -v moto_server >/dev/null || { echo "moto_server not found: run scripts/install-test-deps.sh" >&2; exit 1; }

echo "==> release build (bench, gateway)"
cargo build --release -q -p bench --bin store-cost --bin latency
cargo build --release -q -p gateway

FULL="${FULL:-0}"
free_port() { python3 scripts/free_port.py; }
MOTO_PORT="$(free_port)"
moto_server -H 127.0.0.1 -p "$MOTO_PORT" >"$BENCH_DIR/moto.log" 2>&1 &
MOTO_PID=$!
DYNALITE_PID=""
if [ "$FULL" = 1 ]; then
  # Large tables: dynalite keeps them in LevelDB on disk and answers a Query
  # from its key range (moto walks every item per Query, in memory).
  [ -x bench/dynalite/node_modules/.bin/dynalite ] || npm --prefix bench/dynalite ci --no-audit --no-fund --loglevel=error
  DYNALITE_PORT="$(free_port)"
  rm -rf "$BENCH_DIR/dynalite"
  bench/dynalite/node_modules/.bin/dynalite --port "$DYNALITE_PORT" --path "$BENCH_DIR/dynalite" >"$BENCH_DIR/dynalite.log" 2>&1 &
  DYNALITE_PID=$!
fi
GATEWAY_PID=""
cleanup() {
  [ -n "$GATEWAY_PID" ] && kill "$GATEWAY_PID" 2>/dev/null || true
  kill "$MOTO_PID" 2>/dev/null || true
  [ -n "$DYNALITE_PID" ] && kill "$DYNALITE_PID" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 50); do
  curl -fs -o /dev/null "http://127.0.0.1:$MOTO_PORT/" && break
  sleep 0.2
done
curl -fs -o /dev/null "http://127.0.0.1:$MOTO_PORT/" || { echo "moto did not start; see $BENCH_DIR/moto.log" >&2; exit 1; }
MOTO="http://127.0.0.1:$MOTO_PORT"
DYNAMO_ENDPOINT="$MOTO"
if [ -n "$DYNALITE_PID" ]; then
  for _ in $(seq 50); do
    curl -s -o /dev/null "http://127.0.0.1:$DYNALITE_PORT/" && break
    sleep 0.2
  done
  DYNAMO_ENDPOINT="http://127.0.0.1:$DYNALITE_PORT"
fi

echo "==> store cost per request: SQLite $SQLITE_SIZES orders, DynamoDB API $DYNAMO_SIZES orders ($DYNAMO_ENDPOINT)"
status=0
target/release/store-cost --sqlite "$SQLITE_SIZES" --dynamo "$DYNAMO_SIZES" --endpoint "$DYNAMO_ENDPOINT" --dir "$BENCH_DIR" --check-from "$CHECK_FROM" || status=$?

echo "==> order-list latency, in-process, SQLite $LARGEST orders"
target/release/latency inprocess --dir "$BENCH_DIR/sqlite-$LARGEST${BACKOFFICE_DEMO_DAYS:+-${BACKOFFICE_DEMO_DAYS}d}" --orders "$LARGEST" --connections 4 --seconds "$SECONDS_PER_RUN" || status=1

echo "==> order-list latency through the local gateway (release), SQLite $LARGEST orders"
GATEWAY_PORT="$(free_port)"
BACKOFFICE_DATA_DIR="$BENCH_DIR/sqlite-$LARGEST${BACKOFFICE_DEMO_DAYS:+-${BACKOFFICE_DEMO_DAYS}d}" BACKOFFICE_PORT="$GATEWAY_PORT" BACKOFFICE_LOG=warn \
  target/release/gateway serve >"$BENCH_DIR/gateway.log" 2>&1 &
GATEWAY_PID=$!
for _ in $(seq 100); do
  curl -fs -o /dev/null "http://127.0.0.1:$GATEWAY_PORT/partnerapi/publicKey" && break
  sleep 0.2
done
target/release/latency gateway --url "http://127.0.0.1:$GATEWAY_PORT" --pid "$GATEWAY_PID" --connections 8 --seconds "$SECONDS_PER_RUN" || status=1
kill "$GATEWAY_PID" 2>/dev/null || true
GATEWAY_PID=""

echo "==> order-list latency, in-process, DynamoDB adapter on moto, $SMALLEST_DYNAMO orders"
target/release/latency dynamo --endpoint "$MOTO" --orders "$SMALLEST_DYNAMO" --connections 1 --seconds "$SECONDS_PER_RUN" || status=1

exit "$status"
