#!/usr/bin/env python3
"""Compares two answer dumps of the handler tests (BACKOFFICE_ANSWER_DUMP,
see tests/common/mod.rs): the answers of a change that must leave the wire
as it was.

    BACKOFFICE_ANSWER_DUMP=/tmp/before cargo test -p backoffice   # before
    BACKOFFICE_ANSWER_DUMP=/tmp/after cargo test -p backoffice    # after
    python3 shared/backoffice/tests/answers/compare.py /tmp/before /tmp/after

Each answer is the request (test, route, query, body, language) and its
envelope in Chinese and in English. Values that differ from run to run
(ids, tokens, times) are masked; the envelope's message key and arguments
(`msgKey`, `msgArgs`, and `key`/`args` of `data.fields`) are set aside and
only counted. Answers are compared as a multiset per test binary, since
tests run in parallel. Exit status 1 when they differ.
"""
import collections
import json
import pathlib
import re
import sys

VOLATILE = [
    re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I),
    re.compile(r"eyJ[\w-]+\.[\w-]+\.[\w-]+"),
    re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{12,}(?![0-9A-Za-z])", re.I),
    re.compile(r"[A-Za-z0-9_-]{32,}"),
    re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})?"),
    re.compile(r"\d{4}-\d{2}-\d{2}"),
    re.compile(r"\d{9,}"),
    re.compile(r"\b\d{1,2}:\d{2}(:\d{2})?\b"),
]
KEY_FIELDS = ("msgKey", "msgArgs")


def mask_text(s):
    for pattern in VOLATILE:
        s = pattern.sub("~", s)
    return s


def mask(value):
    if isinstance(value, str):
        return mask_text(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return "~n" if abs(value) >= 1e8 else value
    if isinstance(value, list):
        return [mask(v) for v in value]
    return {k: mask(v) for k, v in value.items()}


def set_aside(envelope, keys):
    """Removes the message keys (counted in `keys`), returns the rest."""
    if not isinstance(envelope, dict):
        return envelope
    envelope = dict(envelope)
    for k in KEY_FIELDS:
        if k in envelope:
            keys[k] += 1
            envelope.pop(k)
    data = envelope.get("data")
    if isinstance(data, dict) and isinstance(data.get("fields"), list):
        data = dict(data)
        fields = []
        for f in data["fields"]:
            if isinstance(f, dict):
                f = dict(f)
                for k in ("key", "args"):
                    if k in f:
                        keys["fields." + k] += 1
                        f.pop(k)
            fields.append(f)
        data["fields"] = fields
        envelope["data"] = data
    return envelope


def load(directory):
    answers = collections.defaultdict(collections.Counter)
    keys = collections.Counter()
    for path in sorted(pathlib.Path(directory).glob("*.jsonl")):
        binary = path.stem.rsplit("-", 1)[0]
        for line in path.read_text().splitlines():
            a = json.loads(line)
            for lang in ("zh", "en"):
                a[lang] = set_aside(a[lang], keys)
            a.pop("test", None)
            answers[binary][json.dumps(mask(a), sort_keys=True, ensure_ascii=False)] += 1
    return answers, keys


def main(before_dir, after_dir):
    before, _ = load(before_dir)
    after, keys = load(after_dir)
    differ = False
    for binary in sorted(set(before) | set(after)):
        b, a = before.get(binary, collections.Counter()), after.get(binary, collections.Counter())
        gone, new = b - a, a - b
        print(f"{binary}: {sum(b.values())} answers before, {sum(a.values())} after, {sum(gone.values())} only before, {sum(new.values())} only after")
        for label, diff in (("only before", gone), ("only after", new)):
            for text, n in sorted(diff.items()):
                differ = True
                print(f"  {label} (x{n}): {text}")
    print("message keys after:", dict(keys))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
