#!/usr/bin/env python3
"""Runs the documentation's examples, each in its own language against the packages the
repository built, and checks that each prints what the reference implementation
(spec/reference/samekey_ref.py) derives for the example's inputs, and that the built
page (target/docs) shows that same value. Nothing expected is written here: the inputs
are, and the reference computes the rest.

    docs/scripts/test_examples.py [LANGUAGE...]     (default: every language)

Each language runs as its users run it: Python in the binding's virtualenv, Node and the
WebAssembly package from a fresh directory whose node_modules holds the package, Go and
Rust as a user's own module or crate pointed at the checkout (a replace directive, a
[patch]), Kotlin and Java in a fresh Maven project that gets samekey from the file://
repository (bindings/kotlin/scripts/consumer.sh), SQL through psql against a server with
the extension (SAMEKEY_TEST_POSTGRES), and the CLI as the workspace builds it. A
missing prerequisite fails, naming the recipe that makes it.
"""
from __future__ import annotations

import datetime
import functools
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "spec" / "reference"))
import samekey_ref  # noqa: E402

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


class Missing(Exception):
    """A prerequisite the recipes make is not there."""


def need(path: pathlib.Path, recipe: str) -> pathlib.Path:
    if not path.exists():
        raise Missing(f"{path.relative_to(REPO)} is missing: run `just {recipe}` first")
    return path


def run(cmd: list[str], cwd: pathlib.Path | None = None, env: dict | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, env={**os.environ, **(env or {})},
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


def with_node_package(script: str, package: str, folder: pathlib.Path) -> str:
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        (work / "node_modules").mkdir()
        (work / "node_modules" / package).symlink_to(folder)
        shutil.copy(HELLO / script, work / script)
        return run(["node", script], cwd=work)


def hello_python() -> str:
    python = need(REPO / "bindings/python/.venv/bin/python", "python::setup")
    return run([str(python), str(HELLO / "hello.py")])


def hello_node() -> str:
    need(REPO / "bindings/node/index.js", "node::setup")
    return with_node_package("hello.mjs", "samekey", REPO / "bindings/node")


def hello_wasm() -> str:
    need(REPO / "bindings/wasm/pkg", "wasm::setup")
    return with_node_package("hello-wasm.mjs", "samekey-wasm", REPO / "bindings/wasm")


def hello_go() -> str:
    need(REPO / "target/release/libsamekey_ffi.a", "ffi::build")
    with tempfile.TemporaryDirectory() as work:
        app = pathlib.Path(work) / "hello"
        shutil.copytree(HELLO / "go", app)
        go = str(REPO / "bindings/go/scripts/go.sh")
        run([go, "mod", "edit", f"-replace=github.com/samekey/samekey/bindings/go={REPO / 'bindings/go'}"], cwd=app)
        return run([go, "run", "."], cwd=app, env={"GOFLAGS": "-mod=mod"})


def hello_rust() -> str:
    with tempfile.TemporaryDirectory() as work:
        app = pathlib.Path(work) / "hello"
        shutil.copytree(HELLO / "rust", app)
        patch = f'patch.crates-io.samekey.path="{REPO / "crates/samekey"}"'
        return run(["cargo", "run", "--quiet", "--config", patch], cwd=app,
                   env={"CARGO_TARGET_DIR": str(REPO / "target/docs-examples")})


@functools.cache
def hello_jvm() -> dict[str, str]:
    """Hello.kt and Hello.java in one fresh Maven project: compiled once, each main run."""
    need(REPO / "target/dist/maven/io/github/samekey/samekey", "jvm::dist linux-x86-64")
    with tempfile.TemporaryDirectory() as outputs:
        script = f"""
            . bindings/kotlin/scripts/consumer.sh
            consumer_app samekey {HELLO / 'jvm'}
            mkdir -p "$app/src" && cp {HELLO / 'Hello.kt'} {HELLO / 'Hello.java'} "$app/src/"
            consumer_mvn -- compile exec:java -Dexec.mainClass=HelloKt > {outputs}/kotlin
            consumer_mvn -- exec:java -Dexec.mainClass=Hello > {outputs}/java
        """
        run(["bash", "-euo", "pipefail", "-c", script], cwd=REPO)
        # Maven 3.8's console writes colour resets even in batch mode: not the program's.
        return {lang: re.sub(r"\x1b\[[0-9;]*m", "", (pathlib.Path(outputs) / lang).read_text())
                for lang in ("kotlin", "java")}


def hello_sql() -> str:
    url = os.environ.get("SAMEKEY_TEST_POSTGRES")
    if not url:
        raise Missing("SAMEKEY_TEST_POSTGRES is not set: run through `just test-docs`")
    return run(["psql", url, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-f", str(HELLO / "hello.sql")])


def hello_cli() -> str:
    # The workspace's own build (test-rust makes it): the command is the same in release.
    cli = need(REPO / "target/debug/samekey", "test-rust")
    return run(["bash", "-euo", "pipefail", str(HELLO / "hello.sh")],
               env={"PATH": f"{cli.parent}:{os.environ['PATH']}"})


HELLO_RUNNERS = {
    "python": hello_python,
    "node": hello_node,
    "wasm": hello_wasm,
    "go": hello_go,
    "rust": hello_rust,
    "kotlin": lambda: hello_jvm()["kotlin"],
    "java": lambda: hello_jvm()["java"],
    "sql": hello_sql,
    "cli": hello_cli,
}


def shown_on_home_page() -> set[str]:
    """The ids the built home page shows as the examples' output."""
    page = need(SITE / "index.html", "docs").read_text()
    return set(re.findall(r'data-samekey-output="([0-9A-Z]{26})"', page))


def main(argv: list[str]) -> int:
    langs = argv or list(HELLO_RUNNERS)
    unknown = [lang for lang in langs if lang not in HELLO_RUNNERS]
    if unknown:
        print(f"test_examples: unknown language {unknown}; known: {', '.join(HELLO_RUNNERS)}")
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
        except (Missing, RuntimeError) as e:
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
