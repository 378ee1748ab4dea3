#!/usr/bin/env python3
"""Runs the documentation's examples, each in its own language against the packages the
repository built, and checks that each prints what the reference implementation
(spec/reference/samekey_ref.py) derives for the example's inputs, and that the built
page (target/docs) shows that same value. Nothing expected is written here: the inputs
are, and the reference computes the rest.

    docs/scripts/test_examples.py [LANGUAGE...]     (default: every language)

Each language runs as its users run it (runners.py says how). A missing prerequisite
fails, naming the recipe that makes it.
"""
from __future__ import annotations

import datetime
import functools
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


@functools.cache
def hello_jvm() -> dict[str, str]:
    """Hello.kt and Hello.java in one fresh Maven project: compiled once, each main run."""
    kotlin, java = runners.jvm({"Hello": hello("Hello.kt")["hello"]}, {"Hello": hello("Hello.java")["hello"]})
    return {"kotlin": kotlin["Hello"], "java": java["Hello"]}


HELLO_RUNNERS = {
    "python": lambda: runners.python(hello("hello.py"))["hello"],
    "node": lambda: runners.node(hello("hello.mjs"), "samekey")["hello"],
    "wasm": lambda: runners.node(hello("hello-wasm.mjs"), "samekey-wasm")["hello"],
    "go": lambda: runners.go(hello("go/main.go"))["hello"],
    "rust": lambda: runners.rust(hello("rust/src/main.rs"))["hello"],
    "kotlin": lambda: hello_jvm()["kotlin"],
    "java": lambda: hello_jvm()["java"],
    "sql": lambda: runners.sql(hello("hello.sql"))["hello"],
    "cli": lambda: runners.cli(hello("hello.sh"))["hello"],
}


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
