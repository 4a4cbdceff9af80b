#!/usr/bin/env bash
# Lints the SAM application (template.yaml, its nested stacks in stacks/,
# the deploy role's template, SAM local's template, the container edge's
# stack, written by hand) with cfn-lint and `sam validate --lint`, and
# counts each stack's resources after the SAM transform; all offline. scripts/test.sh calls this with the tools virtualenv on PATH
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

templates=(template.yaml stacks/*.yaml infra/deploy/deploy-role.yaml infra/sam-local/template.yaml infra/container/stack.yaml)
echo "cfn-lint ${templates[*]}"
cfn-lint "${templates[@]}"
for t in "${templates[@]}"; do
  echo "sam validate --lint $t"
  # A region is all sam needs to validate offline; no credentials are used.
  sam validate --lint --template "$t" --region us-east-1 >/dev/null
done
# sam's own Python has samtranslator and cfn-lint.
python="$(dirname "$(command -v cfn-lint)")/python"
[ -x "$python" ] || python=python3
"$python" infra/deploy/count-resources.py template.yaml stacks/*.yaml
# What SAM local would mount, read by SAM CLI's own template readers.
"$python" infra/deploy/sam-local-check.py
