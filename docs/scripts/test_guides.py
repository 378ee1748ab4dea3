#!/usr/bin/env python3
"""Runs the guides' examples (docs/examples/guides/), each in its language against the
packages the repository built, and checks three things agree: what the program prints,
the output the built page shows under it (`<pre data-samekey-example="NAME">`), and what
the specification's reference implementation (spec/reference/samekey_ref.py) computes
for the example's inputs. The inputs are written here; every id, hash and key is the
reference's.

It also checks that the site shows no code that nothing runs: every code block of
docs/src is an `{{#include}}` of a file that this script, test_examples.py or another
named test executes.

    docs/scripts/test_guides.py [NAME...]     (default: every example)
"""
from __future__ import annotations

import contextlib
import html
import json
import os
import pathlib
import re
import subprocess
import sys
from typing import Callable, Iterator

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "spec" / "reference"))
import samekey_ref as ref  # noqa: E402

import object_store  # noqa: E402
import runners  # noqa: E402

GUIDES = REPO / "docs" / "examples" / "guides"
SITE = REPO / "target" / "docs"
T = "2024-05-01T12:00:00Z"
POST = ["hello-world", "en"]

# What runs each file a page may include, besides this script's own examples.
RUN_ELSEWHERE = {
    "docs/examples/hello/hello-wasm.mjs": "docs/scripts/test_examples.py",
    # "Your first id": every tab run in an empty directory as the page says, its output
    # the page's, which test_examples.py holds to the reference.
    "docs/examples/hello/": "docs/scripts/start_page.mjs (test_newcomer.mjs, in just site::test)",
    "docs/examples/start/": "docs/scripts/start_page.mjs (test_newcomer.mjs, in just site::test)",
    "examples/python/pipeline.py": "just test-examples (examples/python/test_pipeline.py)",
    "examples/python/rollout.py": "just test-examples (examples/python/test_rollout.py)",
    "examples/python/test_rollout.py": "just test-examples (it is the test)",
    "examples/go/pipeline.go": "just test-examples (examples/go/pipeline_test.go)",
    "examples/node/pipeline.mjs": "just test-examples (examples/node/test/)",
    "bindings/python/README.md": "bindings/python/tests/test_readme.py (its doctests)",
    "bindings/python/examples/": "bindings/python/tests (the example files)",
    "bindings/node/examples/registry.mjs": "bindings/node/test/registry.test.mjs (run twice against a registry)",
    "bindings/go/registry/example_test.go": "bindings/go/registry (TestTheReadmeExample, against a registry)",
    "bindings/kotlin/src/test/kotlin/io/github/samekey/registry/RegistryExample.kt": "bindings/kotlin RegistryTest (run twice against a registry)",
    # The registry guide's deploy section: the unit started, curl, each client's private CA.
    **{f"docs/examples/guides/{f}": "docs/scripts/test_deploy.py (in just site::test)" for f in (
        "samekey-registry.service", "registry.env", "registry_curl.sh", "registry_curl.json",
        "private_ca.py", "private_ca.mjs", "private_ca.go", "PrivateCa.kt")},
    # The install lines, each run against a local registry of its kind.
    "docs/examples/install/python.sh": "bindings/python/scripts/test-index.sh (pip from pypiserver: python::check-dist, in test-dist)",
    "docs/examples/install/node.sh": "bindings/node/scripts/test-registry.sh (npm from Verdaccio: node::check-dist, in test-dist)",
    "docs/examples/install/wasm.sh": "bindings/node/scripts/test-registry.sh (npm from Verdaccio: node::check-dist, in test-dist)",
    "docs/examples/install/go.sh": "bindings/go/scripts/test-proxy.sh (go get from GOPROXY=file://: go::test-dist, in test)",
    "docs/examples/install/maven.xml": "bindings/kotlin/scripts/consumer.sh (the consumer's pom, for test-repo.sh: jvm::test)",
    "docs/examples/install/Package.swift": "bindings/swift/scripts/test.sh (the consumer's Package.swift: swift::test)",
    "docs/examples/install/cli.sh": "crates/samekey-cli/scripts/test-archives.sh (from file://: just cli::test-dist)",
    "docs/examples/install/postgres.sh": "extensions/postgres/scripts/test-major.sh (apt in trixie: postgres::test-majors)",
}

# Install lines no tool here can run (no Gradle; no crate registry of our own): checked
# against what the runnable lines and the packages name.
CHECKED_HERE = {"docs/examples/install/gradle.kts", "docs/examples/install/rust.sh"}


def install_lines() -> list[str]:
    """Each install line the pages include is read by the script said to run it (so the
    claim above is checked, not trusted); Gradle's coordinates are the Maven dependency's;
    cargo adds the core's crate."""
    install = REPO / "docs" / "examples" / "install"
    faults = []
    for line in sorted(install.iterdir()):
        path = line.relative_to(REPO).as_posix()
        if path in CHECKED_HERE:
            continue
        if path not in RUN_ELSEWHERE:
            faults.append(f"{path}: no test runs it")
            continue
        script = REPO / RUN_ELSEWHERE[path].split()[0]
        if not script.is_file() or path not in script.read_text():
            faults.append(f"{path}: {script.relative_to(REPO)} does not read it")
    maven = (install / "maven.xml").read_text()
    coordinates = ":".join(re.search(f"<{tag}>([^<]+)</{tag}>", maven)[1] for tag in ("groupId", "artifactId", "version"))
    gradle = (install / "gradle.kts").read_text().strip()
    if gradle != f'implementation("{coordinates}")':
        faults.append(f"gradle.kts says {gradle}, the Maven dependency is {coordinates}")
    # The SQL tab names the major whose package its line downloads.
    major = re.search(r"postgresql-(\d+)-samekey_", (install / "postgres.sh").read_text())[1]
    sql_tab = (REPO / "docs/src/install.md").read_text().split('data-sk-key="sql"', 1)[1].split("</div>", 1)[0]
    if f"PostgreSQL {major} " not in sql_tab:
        faults.append(f"install.md's SQL tab does not say PostgreSQL {major}, whose package postgres.sh installs")
    crate = re.search(r'^name = "([^"]+)"', (REPO / "crates" / "samekey" / "Cargo.toml").read_text(), re.M)[1]
    if (install / "rust.sh").read_text().split() != ["cargo", "add", crate]:
        faults.append(f"rust.sh does not add the core's crate {crate}")
    return faults


def serve_flags() -> list[str]:
    """The registry guide's table of flags against `samekey serve --help`: every flag the
    binary takes is in the table and no other, each default the binary states in the
    table's default column."""
    binary = runners.need(REPO / "target/debug/samekey", "test-rust")
    help_text = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True, check=True).stdout
    flags: dict[str, str | None] = {}
    for block in re.split(r"\n(?=\s*(?:-\w, )?--)", help_text.split("Options:", 1)[1]):
        name = re.match(r"\s*(?:-\w, )?(--[\w-]+)", block)
        if name and name[1] != "--help":
            default = re.search(r"\[default: ([^\]]*)\]", block)
            flags[name[1]] = default[1] if default else None
    page = (REPO / "docs/src/guides/registry.md").read_text()
    rows = dict(re.findall(r"^\| `(--[\w-]+)[^`]*` \| ([^|]*) \|", page, re.M))
    faults = [f"registry.md: the flags table lacks {f}" for f in flags if f not in rows]
    faults += [f"registry.md: the flags table has {f}, which samekey serve does not take" for f in rows if f not in flags]
    faults += [f"registry.md: {f}'s default is `{d}` (samekey serve --help), the table says {rows[f].strip()!r}"
               for f, d in flags.items() if d is not None and f in rows and f"`{d}`" not in rows[f]]
    return faults


NOT_CODE = "spec/samekey.md"  # the reference pages include the specification's text
# Generated pages whose code blocks come from a document another test replays.
GENERATED = {"docs/src/reference/http-api.md": "crates/samekey-registry/tests/openapi_examples.rs "
             "(each example of openapi.json sent to a registry, its answer compared)"}


def ulid(scheme: str, fields: list[str], namespace: str = "posts", t: str = T) -> str:
    return ref.derive_ulid(scheme, ref.parse_timestamp(t), namespace, fields, None)["ulid"]


def json_hash(text: str) -> str:
    return ref.content_json("v1", text)["hash"]


def verdict(accepted: list[str], stored: str, fields: list[str], t: str, namespace: str) -> str:
    try:
        return f"same identity ({ref.verify(accepted, stored, ref.parse_timestamp(t), namespace, fields, None)})"
    except ref.SamekeyError as e:
        return f"refused ({e.code})"


def upsert_first() -> list[str]:
    return ["derived id: 1 row(s)", "random id: 2 row(s)", f"the post's id: {ulid('v1', POST)}"]


def key_ring_first() -> list[str]:
    candidates = ref.candidates(["v2", "v1"], ref.parse_timestamp(T), "posts", POST, None)
    return [f"stored last year under v1: {ulid('v1', POST)}", f"a new post's id, under v2: {ulid('v2', POST)}"] + [
        f"look the post up by its {c['scheme']} id: {c['ulid']}" for c in candidates
    ] + [f"the stored id is the post's, under {ref.verify(['v2', 'v1'], ulid('v1', POST), ref.parse_timestamp(T), 'posts', POST, None)}"]


def guards() -> list[str]:
    stored = {"slug": "hello-world", "lang": "en", "publishedAt": T, "body": "Hello!"}
    stored_hash = json_hash(json.dumps(stored))
    again = dict(reversed(list(stored.items())))
    edited = {**stored, "body": "Hello, world!"}
    moved = {**stored, "publishedAt": "2024-05-02T12:00:00Z"}
    stored_id = ulid("v1", POST)
    return [f"stored: {stored_id} {stored_hash}"] + [
        f"{name}: {'write' if ref.needs_write(stored_hash, json_hash(json.dumps(post))) else 'skip'}"
        for name, post in (("again", again), ("edited", edited))
    ] + [f"{name}: {verdict(['v1'], stored_id, [post['slug'], post['lang']], post['publishedAt'], 'posts')}"
         for name, post in (("edited", edited), ("moved", moved))]


def migrate_v0() -> list[str]:
    old = ulid("v0", POST, namespace="")
    ring = ["v1", "v0"]
    # New ids in the namespace "posts"; the old recipe's, without (v0 takes none).
    lookups = ref.candidates(ring, ref.parse_timestamp(T), "posts", POST, None) + [
        c for c in ref.candidates(ring, ref.parse_timestamp(T), "", POST, None) if c["scheme"] == "v0"]
    return [f"old recipe: {old}", f"samekey v0: {old}", f"new id: {ulid('v1', POST)}"] + [
        f"look up: {c['scheme']} {c['ulid']}" for c in lookups
    ] + [f"stored id is: {ref.verify(ring, old, ref.parse_timestamp(T), '', POST, None)}"]


def migrate_ulid_creator() -> list[str]:
    # ulid-creator's getHashUlid(t, "hello-world:en") is a third party's output: the
    # program prints it, and the reference's v0 must equal it.
    old = ulid("v0", POST, namespace="")
    return [f"ulid-creator: {old}", f"new id: {ulid('v1', POST)}", "stored id is: v0"]


def generated_column() -> list[str]:
    post_id = ulid("v1", POST)
    first, edited = json_hash('{"title": "Hello"}'), json_hash('{"title": "Hello, world"}')
    return [f"{post_id}|{first}", f"{post_id}|{edited}", "1", post_id]


def identity_trigger() -> list[str]:
    stored_id = ulid("v1", POST)

    def write(fields: list[str], t: str) -> str:
        said = verdict(["v1"], stored_id, fields, t, "posts")
        return "written" if said.startswith("same identity") else said

    return [stored_id, write(POST, T), write(POST, "2024-05-02T12:00:00Z"), write(["hello-world", "de"], T)]


def registry() -> list[str]:
    data = '{"rows": 3}'
    key = ref.revision("v1", None, json_hash(data), None)["key"]
    return ["401 unauthorized", f"201 {key}", f"200 {key}", "403 forbidden",
            'samekey_registry_registrations_total{outcome="created"} 1',
            'samekey_registry_registrations_total{outcome="found"} 1',
            f"restored: {ref.canonical(ref.parse_json(data))}"]


def registry_rollout() -> list[str]:
    def key(scheme: str, data: str) -> str:
        return ref.revision(scheme, None, ref.content_json(scheme, data)["hash"], None)["key"]

    one, two, three = '{"rows": 1}', '{"rows": 2}', '{"rows": 3}'
    return [f"before: 201 {key('v1', one)}", f"expand: 201 {key('v1', two)}",
            "required: v1 required, v2 required", "a v1-only process now: refused to start",
            f"switch: 200 {key('v1', one)} / 201 {key('v2', three)}",
            "retired: v1 retired, v2 required",
            f"contract: 200 {key('v1', one)} / 200 {key('v2', three)}"]


def registry_edge() -> list[str]:
    # No id or key: what the registry tells its operator and clients at the edge.
    return ["no tokens on 0.0.0.0: exit 1, refusing to listen on 0.0.0.0:0",
            "listening on https://0.0.0.0:PORT", "healthz over TLS: 200", "no token: 401",
            "preflight: 204 https://app.example.com", "after renewal: 200"]


def registry_production() -> list[str]:
    json_key = ref.revision("v1", None, ref.content_json("v1", '{"rows": 3}')["hash"], None)["key"]
    table_key = ref.revision("v1", None, ref.content_hash("v1", bytes(200000)), None)["key"]
    return [f"201 {json_key}", f"201 {table_key}", "read back from the bucket: 200000 bytes, the same",
            "1 objects: 0 deleted, 0 named by revisions, 0 uploading or being deleted by another gc, "
            "1 younger than 3600s, 0 not contents (left alone)"]


# name shown on the page -> (the reference's output, {language: file})
EXAMPLES: dict[str, tuple[Callable[[], list[str]], dict[str, str]]] = {
    "upsert-first": (upsert_first, {"python": "upsert_first.py"}),
    "guards": (guards, {"python": "guards.py", "node": "guards.mjs"}),
    "key-ring-first": (key_ring_first, {"python": "key_ring_first.py", "node": "key_ring_first.mjs"}),
    "migrate-v0": (migrate_v0, {"python": "migrate_v0.py"}),
    "migrate-ulid-creator": (migrate_ulid_creator, {"java": "MigrateFromUlidCreator.java"}),
    "generated-column": (generated_column, {"sql": "generated-column.sql"}),
    "identity-trigger": (identity_trigger, {"sql": "identity-trigger.sql"}),
    "registry": (registry, {"sh": "registry.sh"}),
    "registry-rollout": (registry_rollout, {"sh": "registry_rollout.sh"}),
    "registry-edge": (registry_edge, {"sh": "registry_edge.sh"}),
    "registry-production": (registry_production, {"sh": "registry_production.sh"}),
}

# Examples whose timing once decided what they printed (the rollout script read the last
# server's address from a reused output file in 3 runs of 11): run this many times in a
# row, every CPU kept busy meanwhile as on a loaded CI machine, each run as the page says.
REPEATS = {"registry-rollout": 20}

# Examples that read their setting from the environment: what provides it.
ENVIRONMENTS = {"registry-production": object_store.production}


def run(lang: str, file: str, env: dict[str, str] | None = None) -> str:
    name = pathlib.Path(file).stem
    return runners.run_all(lang, {name: ((GUIDES / file).read_text(), env or {})})[name]


@contextlib.contextmanager
def busy_cpus() -> Iterator[None]:
    """Every CPU of the machine spinning in a process of its own, for the with block."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        yield
    finally:
        for p in spinners:
            p.kill()
            p.wait()


def shown_on_pages() -> dict[str, list[str]]:
    """The output each built guide shows, by example name."""
    runners.need(SITE / "index.html", "docs")
    shown: dict[str, list[str]] = {}
    for page in sorted((SITE / "guides").glob("*.html")):
        for name, body in re.findall(r'<pre[^>]*data-samekey-example="([\w-]+)"[^>]*><code>(.*?)</code></pre>',
                                     page.read_text(), re.S):
            if name in shown:
                raise RuntimeError(f"{page.name}: the output of {name} is shown twice")
            shown[name] = html.unescape(body).strip().splitlines()
    return shown


def unexecuted_code() -> list[str]:
    """Code on docs/src's pages that nothing runs: a code block that is not made of
    `{{#include}}`s, or an include of a file no test executes."""
    ours = {f"docs/examples/guides/{f}" for _, files in EXAMPLES.values() for f in files.values()}
    faults = []
    for md in sorted((REPO / "docs" / "src").rglob("*.md")):
        text = md.read_text()
        where = md.relative_to(REPO)
        if where.as_posix() in GENERATED:
            continue
        for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M):
            if any(line.strip() and not re.fullmatch(r"\{\{#include [^}]+\}\}", line.strip()) for line in block.splitlines()):
                faults.append(f"{where}: a code block that is not an {{{{#include}}}}: {block[:60]!r}")
        # A part of a file (an anchor) names its file with a link, in its tab or section.
        for start, include in ((m.start(), m[1]) for m in re.finditer(r"\{\{#include ([^}:]+):[\w-]+\}\}", text)):
            path = (md.parent / include).resolve().relative_to(REPO).as_posix()
            if path.endswith(".md"):
                continue  # a README's doctest session: whole, imports included
            section = re.split(r'<div class="sk-tab" |^#+ ', text[:start], flags=re.M)[-1]
            if f"/blob/main/{path})" not in section:
                faults.append(f"{where}: a part of {path} that does not name its file with a link")
        for include in re.findall(r"\{\{#include ([^}:]+)(?::[\w-]+)?\}\}", text):
            path = (md.parent / include).resolve().relative_to(REPO).as_posix()
            if path not in ours | CHECKED_HERE and path != NOT_CODE and not any(path.startswith(p) for p in RUN_ELSEWHERE):
                faults.append(f"{where}: includes {path}, which no test runs")
    return faults


def run_one(name: str, lang: str, file: str, want: list[str]) -> bool | None:
    """Runs one example once: True when it printed what the reference gives; False when
    it printed something else, None when it did not run (each said)."""
    try:
        if name in ENVIRONMENTS:
            with ENVIRONMENTS[name]() as env:
                got = run(lang, file, env).strip().splitlines()
        else:
            got = run(lang, file).strip().splitlines()
    except (runners.Missing, RuntimeError) as e:
        print(f"test_guides: {name} ({lang}): {e}")
        return None
    if got == want:
        print(f"test_guides: {name} ({lang}): {len(got)} lines as the page and the reference say")
        return True
    print(f"test_guides: {name} ({lang}): FAILED: printed {got}, the reference gives {want}")
    return False


def main(argv: list[str]) -> int:
    names = runners.pick("test_guides", argv, EXAMPLES)
    if names is None:
        return 2
    failures = unexecuted_code() + install_lines() + serve_flags()
    for fault in failures:
        print(f"test_guides: {fault}")
    shown = shown_on_pages()
    if set(shown) != set(EXAMPLES):
        failures.append("pages")
        print(f"test_guides: the pages show outputs {sorted(shown)}, the examples are {sorted(EXAMPLES)}")
    runs = 0
    for name in names:
        expected, files = EXAMPLES[name]
        want = expected()
        if shown.get(name) != want:
            failures.append(name)
            print(f"test_guides: {name}: the page shows {shown.get(name)}, the reference gives {want}")
        for lang, file in files.items():
            if name in REPEATS:
                with busy_cpus():
                    wrong = [i for i in range(REPEATS[name]) if not run_one(name, lang, file, want)]
                runs += REPEATS[name]
                print(f"test_guides: {name} ({lang}): {REPEATS[name] - len(wrong)} of {REPEATS[name]} runs in a row "
                      "as the page says, every CPU busy")
                failures += [name] if wrong else []
            else:
                ok = run_one(name, lang, file, want)
                runs += ok is not None
                failures += [] if ok else [name]
    print(f"test_guides: {runs} programs run" + (f"; {len(failures)} failure(s)" if failures else ", all as shown"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
