"""What `sam local start-api` / `sam local invoke` would serve, read by SAM
CLI's own template readers (no Docker needed for that part): every
function of SAM local's template has its variables in env.json, and every
function with an HttpApi event is mounted at its route, once.

usage: python sam-local-check.py   (from the workspace root)
"""

import json
import os
import sys

from samcli.lib.providers.api_provider import ApiProvider
from samcli.lib.providers.sam_function_provider import SamFunctionProvider
from samcli.lib.providers.sam_stack_provider import SamLocalStackProvider

TEMPLATE = "infra/sam-local/template.yaml"
ENV_FILE = "infra/sam-local/env.json"


def main():
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    stacks, _ = SamLocalStackProvider.get_stacks(TEMPLATE, parameter_overrides={})
    functions = {f.name: f for f in SamFunctionProvider(stacks).get_all()}
    with open(ENV_FILE) as f:
        env = json.load(f)
    errors = []
    if set(functions) != set(env):
        errors.append(f"functions without variables: {sorted(set(functions) - set(env))}; variables of no function: {sorted(set(env) - set(functions))}")
    routes = list(ApiProvider(stacks).api.routes)
    mounted = {}
    for r in routes:
        for m in r.methods:
            mounted.setdefault(r.function_name, []).append(f"{m} {r.path}")
    for name, f in functions.items():
        if not os.path.isabs(f.codeuri) and not f.codeuri.rstrip("/").endswith("target/lambda/bootstrap"):
            errors.append(f"{name}: code at {f.codeuri}, not the one bootstrap")
        if env.get(name, {}).get("BACKOFFICE_FUNCTION", "").startswith("ocpp_"):
            continue
        if len(mounted.get(name, [])) != 1:
            errors.append(f"{name} is mounted at {mounted.get(name, [])}")
    print(f"{TEMPLATE}: {len(functions)} functions, {len(routes)} routes mounted by sam local start-api")
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
