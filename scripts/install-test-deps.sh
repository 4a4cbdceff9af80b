#!/usr/bin/env bash
# Installs what the test suite needs on a fresh Debian machine (run as
# root, or with sudo available): Debian's Chromium for the end-to-end
# tests, a Python virtualenv with moto (DynamoDB API server), cfn-lint,
# the SAM CLI, schemathesis and openapi-spec-validator (API fuzzing), and
# the web app's npm packages. Each step is skipped when already done, so
# repeated runs are quick.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS_VENV="${BACKOFFICE_TOOLS_VENV:-$PWD/target/tools-venv}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v curl >/dev/null 2>&1 || missing+=(curl)
# Self-signed certificates for the TLS tests of the charger link.
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
# A CJK font, so the end-to-end screenshots show Chinese text, not boxes.
dpkg -s fonts-wqy-zenhei >/dev/null 2>&1 || missing+=(fonts-wqy-zenhei)
debian_packages() {
  if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing Debian packages: ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# The Debian packages, the Python tools and the npm packages install side
# by side (mostly downloads).
python_tools() {
  if [ ! -x "$TOOLS_VENV/bin/python" ]; then
    echo "==> creating the tools virtualenv"
    python3 -m venv "$TOOLS_VENV"
  fi
  if ! "$TOOLS_VENV/bin/python" -c "import moto.server, flask_cors, cfnlint, samcli, schemathesis, openapi_spec_validator" >/dev/null 2>&1; then
    echo "==> installing moto, cfn-lint, the SAM CLI and schemathesis into the tools virtualenv"
    "$TOOLS_VENV/bin/pip" install -q --disable-pip-version-check \
      'moto[dynamodb,server]==5.2.5' 'flask==3.1.3' 'flask-cors==6.0.5' 'cfn-lint==1.58.0' 'aws-sam-cli==1.170.0' \
      'schemathesis==4.32.5' 'openapi-spec-validator==0.9.0'
  fi
  # The charger side of the OCPP tests: an independent implementation (the
  # `ocpp` package) over `websockets` (13.x: the API the tests use), and
  # pytest-xdist, which runs the tests in several processes (they mostly wait
  # on the gateway and on charger time-outs).
  if ! "$TOOLS_VENV/bin/python" -c "import ocpp, websockets, pytest, xdist; assert ocpp.__version__ == '2.1.0' if hasattr(ocpp, '__version__') else True" >/dev/null 2>&1; then
    echo "==> installing ocpp, websockets and pytest into the tools virtualenv"
    "$TOOLS_VENV/bin/pip" install -q --disable-pip-version-check 'ocpp==2.1.0' 'websockets==13.1' 'pytest>=8.4,<10' 'pytest-xdist==3.8.0'
  fi
}
npm_packages() {
  for dir in web tests/e2e; do
    if [ -f "$dir/package-lock.json" ]; then
      if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
        echo "==> npm ci in $dir"
        npm --prefix "$dir" ci --no-audit --no-fund --loglevel=error
      fi
    fi
  done
}
debian_packages &
DEBIAN_PACKAGES=$!
python_tools &
PYTHON_TOOLS=$!
npm_packages &
NPM_PACKAGES=$!
wait "$DEBIAN_PACKAGES"
wait "$PYTHON_TOOLS"
wait "$NPM_PACKAGES"
