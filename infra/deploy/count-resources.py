"""Counts each template's resources after the SAM transform (what
CloudFormation really creates: a function's role, its schedule's rule and
permission, ...) and fails when any passes 80% of CloudFormation's 500.
Offline: samtranslator (installed with aws-sam-cli) transforms in-process.

usage: python count-resources.py TEMPLATE...
"""

import os
import sys
from collections import Counter

from cfnlint.decode import decode
from samtranslator.translator.transform import transform

LIMIT = 500
CEILING = LIMIT * 4 // 5


class NoManagedPolicies:
    """The templates name no managed policy; nothing to look up in IAM."""

    def load(self):
        return {}


def count(path):
    template, errors = decode(path)
    if errors:
        raise SystemExit(f"{path}: {errors}")
    # What `sam package` does to local artifacts before the transform sees them.
    for resource in template.get("Resources", {}).values():
        props = resource.get("Properties", {})
        if isinstance(props.get("CodeUri"), str):
            props["CodeUri"] = "s3://artifacts/bootstrap.zip"
        if isinstance(props.get("Location"), str):
            props["Location"] = "https://artifacts.s3.amazonaws.com/stack.yaml"
    out = transform(template, {}, NoManagedPolicies())
    return Counter(r["Type"] for r in out["Resources"].values())


def main(paths):
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    failed = False
    for path in paths:
        kinds = count(path)
        total = sum(kinds.values())
        top = ", ".join(f"{n} {k.split('::')[-1]}" for k, n in kinds.most_common(4))
        print(f"{path}: {total} resources after the SAM transform ({top})")
        if total > CEILING:
            print(f"error: {path} passes 80% of CloudFormation's {LIMIT} resources: split it", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
