"""Runs programs in each language the documentation shows, as its users run them, against
the packages the repository built: Python in the binding's virtualenv, Node and the
WebAssembly package from a fresh directory whose node_modules holds the package, Go and
Rust as a user's own module or crate pointed at the checkout (a replace directive, a
[patch]), Kotlin and Java in a fresh Maven project that gets samekey from the file://
repository (bindings/kotlin/scripts/consumer.sh), SQL through psql against a server with
the extension (SAMEKEY_TEST_POSTGRES), and the CLI as the workspace builds it.

Each runner takes {name: (source, env)} and returns {name: what the program printed},
building the compiled languages once for all of their programs. A missing prerequisite
raises Missing, naming the recipe that makes it; a failing program raises RuntimeError.
"""
from __future__ import annotations

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "docs" / "examples" / "hello"  # the project files (go.mod, Cargo.toml, pom.xml)

Sources = dict[str, tuple[str, dict[str, str]]]


class Missing(Exception):
    """A prerequisite the recipes make is not there."""


def pick(script: str, argv: list[str], known) -> list[str] | None:
    """The names argv asks for (every known one when it names none), or None after saying
    which it does not know."""
    unknown = [a for a in argv if a not in known]
    if unknown:
        print(f"{script}: unknown {unknown}; known: {', '.join(known)}")
        return None
    return argv or list(known)


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


def python(sources: Sources) -> dict[str, str]:
    venv_python = need(REPO / "bindings/python/.venv/bin/python", "python::setup")
    with tempfile.TemporaryDirectory() as work:
        out = {}
        for name, (code, env) in sources.items():
            path = pathlib.Path(work) / f"{name}.py"
            path.write_text(code)
            out[name] = run([str(venv_python), str(path)], env=env)
        return out


def node(sources: Sources, package: str) -> dict[str, str]:
    """Each source an ES module importing `package` (samekey or samekey-wasm)."""
    folder = {"samekey": REPO / "bindings/node", "samekey-wasm": REPO / "bindings/wasm"}[package]
    need(folder / ("index.js" if package == "samekey" else "pkg"), "node::setup" if package == "samekey" else "wasm::setup")
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        (work / "node_modules").mkdir()
        (work / "node_modules" / package).symlink_to(folder)
        out = {}
        for name, (code, env) in sources.items():
            (work / f"{name}.mjs").write_text(code)
            out[name] = run(["node", f"{name}.mjs"], cwd=work, env=env)
        return out


def go(sources: Sources) -> dict[str, str]:
    """Each source a main package; one module, built once."""
    need(REPO / "target/release/libsamekey_ffi.a", "ffi::build")
    with tempfile.TemporaryDirectory() as work:
        app = pathlib.Path(work) / "app"
        app.mkdir()
        shutil.copy(EXAMPLES / "go" / "go.mod", app / "go.mod")
        for name, (code, _) in sources.items():
            (app / "cmd" / name).mkdir(parents=True)
            (app / "cmd" / name / "main.go").write_text(code)
        go_sh = str(REPO / "bindings/go/scripts/go.sh")
        run([go_sh, "mod", "edit", f"-replace=github.com/samekey/samekey/bindings/go={REPO / 'bindings/go'}"], cwd=app)
        run([go_sh, "build", "-o", "bin/", "./cmd/..."], cwd=app, env={"GOFLAGS": "-mod=mod"})
        return {name: run([str(app / "bin" / name)], env=env) for name, (_, env) in sources.items()}


def rust(sources: Sources) -> dict[str, str]:
    """Each source a binary of one crate, built once."""
    with tempfile.TemporaryDirectory() as work:
        app = pathlib.Path(work) / "app"
        (app / "src" / "bin").mkdir(parents=True)
        shutil.copy(EXAMPLES / "rust" / "Cargo.toml", app / "Cargo.toml")
        for name, (code, _) in sources.items():
            (app / "src" / "bin" / f"{name}.rs").write_text(code)
        patch = f'patch.crates-io.samekey.path="{REPO / "crates/samekey"}"'
        target = REPO / "target/docs-examples"
        run(["cargo", "build", "--quiet", "--bins", "--config", patch], cwd=app, env={"CARGO_TARGET_DIR": str(target)})
        return {name: run([str(target / "debug" / name)], env=env) for name, (_, env) in sources.items()}


def jvm(kotlin: Sources, java: Sources) -> tuple[dict[str, str], dict[str, str]]:
    """Kotlin sources (main class NAMEKt) and Java sources (main class: their public class),
    each in the package it declares, in one fresh Maven project: compiled once, and each
    main run by `java` on the project's classpath as Maven resolved it (a Maven start per
    program cost about 5 s each)."""
    need(REPO / "target/dist/maven/io/github/samekey/samekey", "jvm::dist linux-x86-64")
    with tempfile.TemporaryDirectory() as sources_dir, tempfile.TemporaryDirectory() as outputs:
        mains = []
        for lang, programs in (("kotlin", kotlin), ("java", java)):
            for name, (code, env) in programs.items():
                package = re.match(r"\s*package\s+([\w.]+)", code)
                folder = pathlib.Path(sources_dir, *(package.group(1).split(".") if package else []))
                folder.mkdir(parents=True, exist_ok=True)
                cls = f"{name}Kt" if lang == "kotlin" else re.search(r"public\s+class\s+(\w+)", code).group(1)
                (folder / (f"{name}.kt" if lang == "kotlin" else f"{cls}.java")).write_text(code)
                mains.append((f"{package.group(1)}.{cls}" if package else cls, env))
        runs = "\n".join(
            f"consumer_java {' '.join(shlex.quote(f'{k}={v}') for k, v in env.items())} -- {main} > {outputs}/{main}"
            for main, env in mains)
        script = f"""
            . bindings/kotlin/scripts/consumer.sh
            consumer_app samekey {EXAMPLES / 'jvm'}
            mkdir -p "$app/src" && cp -r {sources_dir}/. "$app/src/"
            consumer_mvn -- compile
            {runs}
        """
        run(["bash", "-euo", "pipefail", "-c", script], cwd=REPO)
        # Maven 3.8's console writes colour resets even in batch mode: not the program's.
        printed = [re.sub(r"\x1b\[[0-9;]*m", "", (pathlib.Path(outputs) / main).read_text()) for main, _ in mains]
        return dict(zip(kotlin, printed[:len(kotlin)])), dict(zip(java, printed[len(kotlin):]))


def sql(sources: Sources) -> dict[str, str]:
    """Each source a psql script; env's psql variables (`:'name'`) set with -v."""
    url = os.environ.get("SAMEKEY_TEST_POSTGRES")
    if not url:
        raise Missing("SAMEKEY_TEST_POSTGRES is not set: run through `just test-docs`")
    with tempfile.TemporaryDirectory() as work:
        out = {}
        for name, (code, variables) in sources.items():
            path = pathlib.Path(work) / f"{name}.sql"
            path.write_text(code)
            sets = [a for k, v in variables.items() for a in ("-v", f"{k}={v}")]
            out[name] = run(["psql", url, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", *sets, "-f", str(path)])
        return out


def cli(sources: Sources) -> dict[str, str]:
    """Each source a bash script calling `samekey`, the workspace's own build (test-rust makes it)."""
    binary = need(REPO / "target/debug/samekey", "test-rust")
    return {name: run(["bash", "-euo", "pipefail", "-c", code],
                      env={**env, "PATH": f"{binary.parent}:{os.environ['PATH']}"})
            for name, (code, env) in sources.items()}


def run_all(language: str, sources: Sources) -> dict[str, str]:
    """Runs the sources of one language at once (the compiled ones build once): python,
    node, wasm (samekey-wasm in Node), go, sh (bash with the CLI on PATH), sql, kotlin,
    java. Kotlin names each file's class after its key (NAMEKt)."""
    if language == "python":
        return python(sources)
    if language in ("node", "wasm"):
        return node(sources, "samekey" if language == "node" else "samekey-wasm")
    if language == "go":
        return go(sources)
    if language == "sh":
        return cli(sources)
    if language == "sql":
        return sql(sources)
    if language in ("kotlin", "java"):
        kotlin, java = jvm(sources if language == "kotlin" else {}, sources if language == "java" else {})
        return kotlin if language == "kotlin" else java
    raise Missing(f"no runner for {language!r} (python, node, wasm, go, sh, sql, kotlin, java)")
