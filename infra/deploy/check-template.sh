#!/usr/bin/env bash
# Lints template.yaml with cfn-lint and `sam validate --lint`; both run
# offline. scripts/test.sh calls this with the tools virtualenv on PATH
# (scripts/install-test-deps.sh installs cfn-lint and aws-sam-cli there).
set -euo pipefail
cd "$(dirname "$0")/../.."

for tool in cfn-lint sam; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "error: '$tool' is not on PATH: run scripts/install-test-deps.sh and put target/tools-venv/bin on PATH (or pip install cfn-lint aws-sam-cli)" >&2
    exit 1
  }
done
# No usage reports or update checks from a test run.
export SAM_CLI_TELEMETRY=0

echo "cfn-lint template.yaml"
cfn-lint template.yaml
echo "sam validate --lint"
# A region is all sam needs to validate offline; no credentials are used.
sam validate --lint --template template.yaml --region us-east-1
