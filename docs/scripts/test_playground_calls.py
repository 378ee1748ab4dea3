#!/usr/bin/env python3
"""Runs the calls the playground generates, each in its language, and checks that each
prints the id the page showed and that the reference implementation
(spec/reference/samekey_ref.py) derives from the same inputs. The cases and their calls
come from target/docs-playground-calls.json, which test_playground.mjs writes from the
built page; a keyed case's secret is given to each program the way its call reads it
(SAMEKEY_SECRET, or a psql variable for SQL's bound parameter).

    docs/scripts/test_playground_calls.py [LANGUAGE...]   (default: every language run here)

Swift's calls are run by `just swift::test`, whose toolchain lives in a debootstrapped
root: it generates them with the page's calls.js for the same cases
(playground_cases.json, through playground_calls.mjs) and checks each against the
reference.
"""
from __future__ import annotations

import json
import pathlib
import re
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "spec" / "reference"))
import samekey_ref  # noqa: E402

import runners  # noqa: E402

CALLS = REPO / "target" / "docs-playground-calls.json"


def reference_id(inputs: dict) -> str:
    time = inputs["time"].strip()
    ms = int(time) if re.fullmatch(r"-?\d+", time) else samekey_ref.parse_timestamp(time)
    secret = inputs["secret"].encode() if inputs["secret"] else None
    return samekey_ref.derive_ulid(inputs["scheme"], ms, inputs["namespace"], inputs["fields"], secret)["ulid"]


def env(case: dict) -> dict[str, str]:
    return {"SAMEKEY_SECRET": case["inputs"]["secret"]} if case["inputs"]["secret"] else {}


def sources(cases: dict[str, dict], lang: str) -> runners.Sources:
    return {name: (case["calls"][lang], env(case)) for name, case in cases.items()}


def browser(cases):
    # The call reads SECRET from wherever the app keeps it; here, the environment.
    keyed = {name: ("const SECRET = process.env.SAMEKEY_SECRET;\n" + code, e)
             for name, (code, e) in sources(cases, "browser").items()}
    return runners.node(keyed, "samekey-wasm")


def sql(cases):
    # The call's $1 is the secret bound by the application's driver; psql binds it here.
    out = {}
    for name, (code, e) in sources(cases, "sql").items():
        variables = {"secret": e["SAMEKEY_SECRET"]} if e else {}
        out |= runners.sql({name: (code.replace("$1", "convert_to(:'secret', 'UTF8')"), variables)})
    return out


_jvm_cache: dict = {}


def jvm(cases, lang):
    if not _jvm_cache:
        # One package per case: every Kotlin file has its own main, and Java's class is Main.
        kotlin = {name: (f"package {name.lower()}\n\n{code}", e) for name, (code, e) in sources(cases, "kotlin").items()}
        java = {name: (f"package {name.lower()};\n\n{code}", e) for name, (code, e) in sources(cases, "java").items()}
        _jvm_cache["kotlin"], _jvm_cache["java"] = runners.jvm(kotlin, java)
    return _jvm_cache[lang]


RUNNERS = {
    "python": lambda cases: runners.python(sources(cases, "python")),
    "node": lambda cases: runners.node(sources(cases, "node"), "samekey"),
    "browser": browser,
    "go": lambda cases: runners.go(sources(cases, "go")),
    "rust": lambda cases: runners.rust(sources(cases, "rust")),
    "kotlin": lambda cases: jvm(cases, "kotlin"),
    "java": lambda cases: jvm(cases, "java"),
    "sql": sql,
    "cli": lambda cases: runners.cli(sources(cases, "cli")),
}


def main(argv: list[str]) -> int:
    langs = runners.pick("test_playground_calls", argv, RUNNERS)
    if langs is None:
        return 2
    generated = json.loads(runners.need(CALLS, "test-docs").read_text())
    cases = {f"Case{i + 1}": case for i, case in enumerate(generated)}
    failures = 0
    for name, case in cases.items():
        want = reference_id(case["inputs"])
        if case["id"] != want:
            print(f"test_playground_calls: {name}: the page shows {case['id']}, the reference derives {want}")
            failures += 1
    for lang in langs:
        try:
            printed = RUNNERS[lang](cases)
        except (runners.Missing, RuntimeError) as e:
            print(f"test_playground_calls: {lang}: {e}")
            failures += 1
            continue
        wrong = {name: out for name, out in printed.items()
                 if (out.strip().splitlines() or [""])[-1] != cases[name]["id"]}
        for name, out in wrong.items():
            print(f"test_playground_calls: {lang} {name}: FAILED: printed {out.strip()!r}, the page and the reference: "
                  f"{cases[name]['id']}\n{cases[name]['calls'][lang]}")
        failures += len(wrong)
        if not wrong:
            print(f"test_playground_calls: {lang}: the calls of {len(cases)} cases print the page's ids")
    print(f"test_playground_calls: {len(langs)} languages, {len(cases)} cases"
          + (f"; {failures} failure(s)" if failures else ", all print the reference's ids"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
