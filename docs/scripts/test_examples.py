#!/usr/bin/env python3
"""Holds what the site shows as its examples' output to the reference implementation
(spec/reference/samekey_ref.py): the id the built home page (target/docs) shows, the id
and the registry's answer that "Your first id" shows (docs/examples/start/), and runs the
home page's browser module in Node against the package the repository built. Nothing
expected is written here: the inputs are, and the reference computes the rest. The other
languages' programs run in start_page.mjs, as a newcomer runs them from that page.

    docs/scripts/test_examples.py [LANGUAGE...]     (default: every language)

Each language runs as its users run it (runners.py says how). A missing prerequisite
fails, naming the recipe that makes it.
"""
from __future__ import annotations

import datetime
import json
import pathlib
import re
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "spec" / "reference"))
import samekey_ref  # noqa: E402

import runners  # noqa: E402

HELLO = REPO / "docs" / "examples" / "hello"
SITE = REPO / "target" / "docs"

# The home page's example: its inputs, in every language.
HELLO_INPUTS = {"scheme": "v1", "time": "2024-05-01T12:00:00Z", "namespace": "posts",
                "fields": ["hello-world", "en"]}


def expected_hello() -> str:
    t = datetime.datetime.fromisoformat(HELLO_INPUTS["time"].replace("Z", "+00:00"))
    ms = int(t.timestamp() * 1000)
    return samekey_ref.derive_ulid(HELLO_INPUTS["scheme"], ms, HELLO_INPUTS["namespace"],
                                   HELLO_INPUTS["fields"], None)["ulid"]


def hello(file: str) -> dict[str, tuple[str, dict]]:
    return {"hello": ((HELLO / file).read_text(), {})}


# The home page's programs that "Your first id" does not run as a newcomer would
# (start_page.mjs walks hello.py, hello.mjs, main.go, main.rs, Hello.kt, Hello.java,
# Hello.swift, hello.sql and hello.sh from that page, each in an empty directory, and
# compares what it printed with start/output.txt, which start_page_outputs holds to the
# reference): the browser tab's module, run in Node.
HELLO_RUNNERS = {
    "wasm": lambda: runners.node(hello("hello-wasm.mjs"), "samekey-wasm")["hello"],
}


def start_page_outputs(want: str) -> list[str]:
    """What "Your first id" shows as output, checked against the reference: every
    language's id (start/output.txt), and the registry's answer to the page's request
    (start/registry/output.json: the JSON document the page's curl sends, its revision key
    on no parent, its content hash and size). Returns what is wrong."""
    start = REPO / "docs" / "examples" / "start"
    wrong = []
    if (start / "output.txt").read_text().strip() != want:
        wrong.append(f"start/output.txt shows {(start / 'output.txt').read_text().strip()!r}, the reference derives {want}")
    sent = re.search(r"-d '(\{.*\})'", (start / "registry" / "run.sh").read_text()).group(1)
    content = samekey_ref.content_json("v1", sent)
    revision = samekey_ref.revision("v1", None, content["hash"], None)
    shown = json.loads((start / "registry" / "output.json").read_text())
    derived = {"key": revision["key"], "parent": None, "scheme": "v1", "content_hash": content["hash"],
               "media_type": "application/json", "size": len(content["canonical"].encode())}
    for field, value in derived.items():
        if shown.get(field) != value:
            wrong.append(f"start/registry/output.json: {field} is {shown.get(field)!r}, the reference derives {value!r}")
    return wrong


def shown_on_home_page() -> set[str]:
    """The ids the built home page shows as the examples' output."""
    page = runners.need(SITE / "index.html", "docs").read_text()
    return set(re.findall(r'data-samekey-output="([0-9A-Z]{26})"', page))


def main(argv: list[str]) -> int:
    langs = runners.pick("test_examples", argv, HELLO_RUNNERS)
    if langs is None:
        return 2
    want = expected_hello()
    failures = passed = 0
    shown = shown_on_home_page()
    if shown != {want}:
        print(f"test_examples: the home page shows {sorted(shown) or 'no id'}, the reference derives {want}")
        failures += 1
    for wrong in start_page_outputs(want):
        print(f"test_examples: {wrong}")
        failures += 1
    for lang in langs:
        try:
            out = HELLO_RUNNERS[lang]().strip().splitlines()
        except (runners.Missing, RuntimeError) as e:
            print(f"test_examples: hello ({lang}): {e}")
            failures += 1
            continue
        got = out[-1] if out else ""
        if got == want:
            passed += 1
            print(f"test_examples: hello ({lang}): {got} ok")
        else:
            failures += 1
            print(f"test_examples: hello ({lang}): FAILED: printed {got!r}, the reference derives {want}")
    print(f"test_examples: {passed} of {len(langs)} languages print the reference's {want}"
          + (f"; {failures} failure(s)" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
