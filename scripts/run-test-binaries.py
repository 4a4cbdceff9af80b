#!/usr/bin/env python3
"""Runs the workspace's Rust test binaries side by side, one lane per DynamoDB
emulator.

`cargo test` runs one test binary after another. Most of their time is spent
waiting on moto (a Python process that uses one core), so the suite runs in
lanes instead: each lane has its own moto endpoint and takes the next binary
from a shared queue, the slow ones first. One emulator per lane, never one for
two binaries at once: moto's server is not thread-safe (two
TransactWriteItems at once fail inside it), and the test helpers serialise
calls only within one process.

Usage: run-test-binaries.py ENDPOINT[,ENDPOINT...] -- CARGO_TEST_ARGS...
Each binary runs in its package's directory, as `cargo test` runs it; its
output goes to target/test-logs/NAME.log and is printed whole if it fails.
Doc tests run as one more job. Exits non-zero when any job failed.
"""

import json
import os
import queue
import subprocess
import sys
import threading
import time

# Binaries that take longest on moto start first, so no lane is left with
# one long binary at the end (seen in CI: auth_flows 151 s, sessions 103 s).
SLOW_FIRST = [
    "auth_flows", "sessions", "card_accounts", "settings", "social_login",
    "lookups", "concurrency", "orders", "permission_matrix", "demo_chargers",
]


def test_binaries(cargo_args):
    """(name, executable, package directory) of every test binary cargo builds."""
    out = subprocess.run(
        ["cargo", "test", "--no-run", "--message-format=json-render-diagnostics", *cargo_args],
        check=True, stdout=subprocess.PIPE, text=True,
    ).stdout
    found = []
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") != "compiler-artifact" or not msg.get("executable") or not msg["profile"]["test"]:
            continue
        target = msg["target"]
        package_dir = os.path.dirname(msg["manifest_path"])
        unit = target["kind"] != ["test"]
        found.append((target["name"] + (" (unit tests)" if unit else ""), msg["executable"], package_dir))
    return found


def rank(job):
    name = job[0]
    return SLOW_FIRST.index(name) if name in SLOW_FIRST else len(SLOW_FIRST)


def has_doc_examples():
    found = subprocess.run(["git", "grep", "-q", "-E", r"^\s*//[/!].*```", "--", "*.rs"], check=False)
    if found.returncode not in (0, 1):
        sys.exit("git grep failed: the test runner needs the repository's files")
    return found.returncode == 0


def main():
    if "--" not in sys.argv:
        sys.exit(__doc__)
    split = sys.argv.index("--")
    endpoints = [e for e in ",".join(sys.argv[1:split]).split(",") if e]
    cargo_args = sys.argv[split + 1:]
    logs = os.path.join("target", "test-logs")
    os.makedirs(logs, exist_ok=True)

    jobs = sorted(test_binaries(cargo_args), key=rank)
    work = queue.Queue()
    for name, exe, cwd in jobs:
        work.put((name, [exe], cwd))
    # rustdoc compiles every library again to look for examples (about two
    # minutes here); with no fenced example in any doc comment it would
    # find none, so it runs only when there is one.
    if has_doc_examples():
        work.put(("doc tests", ["cargo", "test", "--doc", *cargo_args], os.getcwd()))
    else:
        print("no doc examples (no ``` in any doc comment): doc tests skipped")
    failed, lock = [], threading.Lock()

    def lane(endpoint):
        while True:
            try:
                name, argv, cwd = work.get_nowait()
            except queue.Empty:
                return
            env = dict(os.environ, CARGO_MANIFEST_DIR=cwd)
            if endpoint:
                env["BACKOFFICE_TEST_DYNAMO_ENDPOINT"] = endpoint
            log_path = os.path.join(logs, os.path.basename(argv[0]) if argv[0] != "cargo" else "doc-tests")
            log_path += ".log"
            started = time.monotonic()
            with open(log_path, "w") as log:
                code = subprocess.run(argv, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
            took = time.monotonic() - started
            with lock:
                if code == 0:
                    print(f"ok   {name} ({took:.0f} s)", flush=True)
                else:
                    failed.append(name)
                    print(f"FAIL {name} ({took:.0f} s), exit {code}; its output:", flush=True)
                    with open(log_path) as log:
                        sys.stdout.write(log.read())
                    sys.stdout.flush()

    threads = [threading.Thread(target=lane, args=(e,)) for e in (endpoints or [None])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"{len(jobs) + 1} jobs in {len(threads)} lanes; {len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
