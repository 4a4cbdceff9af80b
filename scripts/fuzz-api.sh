#!/usr/bin/env bash
# Fuzzes the API with schemathesis against the local gateway: starts the
# gateway on a free loopback port with a fresh data dir and seeded demo
# data, checks the OpenAPI document it serves (/partnerapi/openapi.json)
# with openapi-spec-validator, signs in as admin, editor and an account with
# only the Test role, and runs schemathesis once per role's token. Checks:
# no server error (5xx), every answer matches its documented schema, every
# status and content type is a documented one. Exits non-zero on any
# failure. About 4 minutes on 2 cores (3 x 128 operations).
#
# Settings (environment): FUZZ_MAX_EXAMPLES (test cases per operation and
# phase, default 20), FUZZ_SEED (default fixed, so a CI failure can be
# replayed; set another to explore), FUZZ_WORKERS (default 1: with more,
# schemathesis on Python 3.11 hit an internal AST error in a thread),
# FUZZ_BESIDE (a shell command of single-threaded work run on one core
# from the start, while the roles take turns on the other: its output goes
# to target/fuzz/beside.log, printed after; its failure fails the script.
# Without it, the read-only role and the Editor run side by side).
# Reports (JUnit) go to target/fuzz/<role>/.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS_VENV="${BACKOFFICE_TOOLS_VENV:-$PWD/target/tools-venv}"
ST="$TOOLS_VENV/bin/schemathesis"
PY="$TOOLS_VENV/bin/python"
if [ ! -x "$ST" ] || ! "$PY" -c "import openapi_spec_validator" >/dev/null 2>&1; then
  echo "schemathesis or openapi-spec-validator is missing: run scripts/install-test-deps.sh" >&2
  exit 1
fi
MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-20}"
SEED="${FUZZ_SEED:-20250630}"
WORKERS="${FUZZ_WORKERS:-1}"

echo "==> building the gateway"
cargo build --quiet -p gateway

WORK="$(mktemp -d)"
PORT="$(python3 scripts/free_port.py)"
BASE="http://127.0.0.1:$PORT"
ADMIN_PW="fuzz-admin-$RANDOM$RANDOM"
EDITOR_PW="fuzz-editor-$RANDOM$RANDOM"
TEST_PW="fuzz-test-$RANDOM$RANDOM"
mkdir -p target/fuzz

BACKOFFICE_DATA_DIR="$WORK/data" BACKOFFICE_HOST=127.0.0.1 BACKOFFICE_PORT="$PORT" \
  BACKOFFICE_WEB_DIST="$WORK/no-web" BACKOFFICE_DEMO_ORDERS=2000 \
  BACKOFFICE_ACCESS_TOKEN_TTL=3600 BACKOFFICE_SESSION_TTL=7200 \
  BACKOFFICE_SEED_PASSWORD_ADMIN="$ADMIN_PW" BACKOFFICE_SEED_PASSWORD_EDITOR="$EDITOR_PW" \
  BACKOFFICE_SEED_PASSWORD_TEST="$TEST_PW" RUST_LOG=warn \
  target/debug/gateway serve >target/fuzz/gateway.log 2>&1 &
GATEWAY_PID=$!
cleanup() {
  kill "$GATEWAY_PID" 2>/dev/null || true
  wait "$GATEWAY_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

for _ in $(seq 300); do
  curl -fs -o /dev/null "$BASE/partnerapi/publicKey" && break
  kill -0 "$GATEWAY_PID" 2>/dev/null || { echo "the gateway stopped; see target/fuzz/gateway.log" >&2; exit 1; }
  sleep 0.2
done
curl -fs -o "$WORK/openapi.json" "$BASE/partnerapi/openapi.json" || { echo "the gateway did not start or serve the document; see target/fuzz/gateway.log" >&2; exit 1; }

echo "==> the served document is valid OpenAPI 3.1"
"$PY" -c "
import json, sys
from openapi_spec_validator import validate
from openapi_spec_validator.validation.validators import OpenAPIV31SpecValidator
doc = json.load(open(sys.argv[1]))
validate(doc, cls=OpenAPIV31SpecValidator)
print('  ', len(doc['paths']), 'paths,', sum(len(p) for p in doc['paths'].values()), 'operations')
" "$WORK/openapi.json"

token() {
  curl -fs -H 'content-type: application/json' -d "{\"username\":\"$1\",\"password\":\"$2\"}" "$BASE/partnerapi/login/index" |
    "$PY" -c 'import json, sys; print(json.load(sys.stdin)["data"]["token"])'
}
# Sign in before fuzzing: fuzzed sign-ins fail, and failed sign-ins from
# this address are throttled.
EDITOR_TOKEN="$(token editor "$EDITOR_PW")"
ADMIN_TOKEN="$(token admin "$ADMIN_PW")"
# The seeded account `test` holds Admin and Editor (as the spec seeds it),
# so the run for the read-only Test role signs in as an account that holds
# only that role, made here through the API.
READER_PW="fuzz-lantern-$RANDOM$RANDOM$RANDOM"  # the new-password policy: 12+ characters, not the user name
curl -fs -o /dev/null -H 'content-type: application/json' -H "Authorization: Bearer $ADMIN_TOKEN" \
  -d "{\"username\":\"reader\",\"roles\":[\"Test\"],\"password\":\"$READER_PW\"}" "$BASE/partnerapi/userManagement/doEdit" ||
  { echo "could not create the Test-role account" >&2; exit 1; }
TEST_TOKEN="$(token reader "$READER_PW")"

echo "==> schemathesis settings with real record ids from the demo data"
# Ids the demo data holds, as schemathesis dictionaries: half the time an id
# parameter takes a real one, so detail reads, edits and actions reach the
# record logic instead of stopping at 404. Account names are not bound:
# the run must not edit the accounts whose tokens it uses.
"$PY" - "$BASE/partnerapi" "$ADMIN_TOKEN" >target/fuzz/schemathesis.toml <<'PY'
import json, sys, urllib.request
base, token = sys.argv[1], sys.argv[2]
def get(path):
    req = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token})
    return json.load(urllib.request.urlopen(req))["data"]
stations = [s["id"] for s in get("/station/getList?pageSize=50")["list"]]
connectors = [c["id"] for c in get("/connector/getList?pageSize=50")["list"]]
piles = [p["id"] for sid in stations[:5] for p in get("/pile/getList?stationId=" + sid)["list"]]
tariffs = [t["template"]["id"] for t in get("/tariff/getList")["list"]]
orders = [o["orderNo"] for q in ("", "&status=charging", "&status=abnormal") for o in get("/order/getList?pageSize=30" + q)["list"]]
refunds = [r["id"] for r in get("/order/refund/getList?status=pending")["list"]]
departments = []
def walk(nodes):
    for n in nodes:
        departments.append(n["id"])
        walk(n.get("children") or [])
walk(get("/departmentManagement/getList")["list"])
dictionaries = {"stations": stations, "connectors": connectors, "piles": piles, "tariffs": tariffs, "orders": orders, "refunds": refunds, "departments": departments}
dictionaries = {k: v for k, v in dictionaries.items() if v}
print("# Generated by scripts/fuzz-api.sh for one run.")
print("[dictionaries]")
for name, values in dictionaries.items():
    print(f"{name} = {{ values = {json.dumps(values)} }}")
def bind(name):
    return f'{{ dictionary = "{name}", probability = 0.5 }}' if name in dictionaries else None
by_operation = {
    "station_detail": {"query.id": "stations"}, "station_edit": {"body.id": "stations"}, "station_delete": {"body.id": "stations"},
    "pile_list": {"query.stationId": "stations"}, "pile_add": {"body.stationId": "stations"},
    "pile_edit": {"body.id": "piles", "body.stationId": "stations"}, "pile_delete": {"body.id": "piles"},
    "connector_list": {"query.stationId": "stations"}, "connector_history": {"query.id": "connectors"},
    "connector_edit": {"body.id": "connectors"}, "connector_action": {"body.id": "connectors"},
    "tariff_detail": {"query.id": "tariffs"}, "tariff_versions": {"query.id": "tariffs"}, "tariff_edit": {"body.id": "tariffs"},
    "station_add": {"body.tariffId": "tariffs"},
    "order_list": {"query.stationId": "stations", "query.orderNo": "orders"}, "order_detail": {"query.id": "orders"},
    "order_close": {"body.orderNo": "orders"}, "refund_request": {"body.orderNo": "orders"},
    "order_offline_payment": {"body.orderNo": "orders"}, "order_write_off": {"body.orderNo": "orders"},
    "refund_approve": {"body.orderNo": "orders", "body.refundId": "refunds"}, "refund_reject": {"body.orderNo": "orders", "body.refundId": "refunds"},
    "finance_revenue": {"query.stationId": "stations"}, "finance_settlement": {"query.stationId": "stations"},
    "department_management_edit": {"body.id": "departments", "body.parentId": "departments"},
    "department_management_delete": {"body.id": "departments"},
    "station_power_budget": {"query.id": "stations"}, "station_set_power_budget": {"body.stationId": "stations"},
}
for op, params in by_operation.items():
    bound = {k: bind(v) for k, v in params.items() if bind(v)}
    if bound:
        print()
        print("[[operations]]")
        print(f'include-operation-id = "{op}"')
        print("parameters = { " + ", ".join(f'"{k}" = {v}' for k, v in bound.items()) + " }")
        # An operation's own settings replace the command line's headers:
        # without this its fuzzing phase would run signed out (401 only).
        print('headers = { Authorization = "Bearer ${FUZZ_TOKEN}" }')
PY

failed=()
fuzz_as() {
  local role="$1" tok="$2"
  echo "==> schemathesis as $role (max $MAX_EXAMPLES examples per operation, seed $SEED)"
  # Excluded: GET /login/logout ends the session of the token the run
  # uses, so every later call would only see 401.
  # Run inside target/fuzz, where schemathesis keeps its cache.
  (cd target/fuzz && FUZZ_TOKEN="$tok" "$ST" run "$BASE/partnerapi/openapi.json" \
    --header "Authorization: Bearer $tok" \
    --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
    --exclude-operation-id logout \
    --phases examples,coverage,fuzzing \
    --max-examples "$MAX_EXAMPLES" --seed "$SEED" --workers "$WORKERS" \
    --no-shrink --request-timeout 30 \
    --report junit --report-dir "$role")
}
# Each run is one Python process (one core). With work beside, that work
# has one core from the start and the roles take turns on the other (it is
# the longer of the two); else the read-only role and the Editor run side
# by side. Admin always runs last, because it edits accounts and roles the
# other two sign in with.
BESIDE_RUN=""
if [ -n "${FUZZ_BESIDE:-}" ]; then
  bash -c "$FUZZ_BESIDE" >target/fuzz/beside.log 2>&1 &
  BESIDE_RUN=$!
  fuzz_as test "$TEST_TOKEN" || failed+=(test)
  fuzz_as editor "$EDITOR_TOKEN" || failed+=(editor)
else
  fuzz_as test "$TEST_TOKEN" >target/fuzz/test.log 2>&1 &
  TEST_RUN=$!
  fuzz_as editor "$EDITOR_TOKEN" >target/fuzz/editor.log 2>&1 &
  EDITOR_RUN=$!
  wait "$TEST_RUN" || failed+=(test)
  wait "$EDITOR_RUN" || failed+=(editor)
  cat target/fuzz/test.log target/fuzz/editor.log
fi
fuzz_as admin "$ADMIN_TOKEN" || failed+=(admin)
if [ -n "$BESIDE_RUN" ]; then
  beside_status=0
  wait "$BESIDE_RUN" || beside_status=$?
  echo "==> beside the fuzzing: $FUZZ_BESIDE"
  cat target/fuzz/beside.log
  [ "$beside_status" -eq 0 ] || failed+=("beside the fuzzing (exit $beside_status)")
fi

if grep -q "panicked" target/fuzz/gateway.log; then
  echo "the gateway log shows a panic:" >&2
  grep -m5 -A3 "panicked" target/fuzz/gateway.log >&2
  failed+=(panic)
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing failed for: ${failed[*]} (reports in target/fuzz/)" >&2
  exit 1
fi
echo "==> fuzzing passed for test, editor and admin"
