#!/usr/bin/env python3
"""No binding writes a host rule that samekey::host holds (issue 30).

The order of a call's checks and the warnings a host gives live in one place, the core's
`samekey::host` (crates/samekey/src/host.rs). A binding, an engine integration or an
extension converts its host's values and calls it; one that parses ring names itself,
picks a revision's scheme, parses `needs_write`'s hashes or tests for seconds has written
a second copy of a rule, and the copies drift (they did: `key_parse` checked its text
before its ring in the CLI, Python parsed `needs_write`'s stored hash first, the seconds
check existed three times). This check fails on each such line.

    python3 scripts/check_host_rules.py              check the tree
    python3 scripts/check_host_rules.py --self-test  the checker finds planted copies
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where host code lives: every binding, the extension, the wire and C ABI crates, the CLI
# and the registry. Tests and generated sources are not host code.
SCANNED = re.compile(
    r"^(bindings/[^/]+/(src(?!/test/)|lib|python/samekey|Sources/Samekey)/.*\.(rs|mjs|py|kt|swift)"
    r"|bindings/go/[^/]+(?<!_test)\.go"
    r"|bindings/kotlin/src/main/.*\.kt"
    r"|extensions/postgres/src/.*\.rs"
    r"|crates/samekey-(wire|ffi|cli|registry)/src/.*\.rs)$"
)
RULES = [
    (re.compile(r"\brevision_scheme\("),
     "a revision's scheme and content hash, in order: samekey::host::revision_inputs"),
    (re.compile(r"\b(samekey|guard)::needs_write\("),
     "needs_write from texts, both parsed, incoming first: samekey::host::needs_write"),
    (re.compile(r"\b(1_000_000_000|10_000_000_000|1e9)\b"),
     "the seconds heuristic: samekey::host::likely_seconds / seconds_warning"),
    (re.compile(r"\b(KeyRing|CoreRing)::from_accept\("),
     "a ring from its names, every name then the ring: samekey::host::ring"),
    (re.compile(r"\.parse::<(samekey::)?Key>\(\)"),
     "a key text under a ring, the ring first: KeyRing::parse_key / samekey::host::key_in_ring"),
]
# The CLI's --accept names are parsed by clap, all of them before the command runs: its
# ring is made from schemes, not names.
EXEMPT = {("crates/samekey-cli/src/commands.rs", 3)}


def offending(path: str, text: str) -> list[str]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = re.split(r"//|^\s*#", line, maxsplit=1)[0]
        for i, (pattern, home) in enumerate(RULES):
            if pattern.search(code) and (path, i) not in EXEMPT:
                found.append(f"{path}:{number}: {line.strip()}\n    -> {home}")
    return found


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return [p for p in out.splitlines() if SCANNED.match(p) and (ROOT / p).is_file()]


def self_test() -> int:
    planted = {
        "bindings/python/src/x.rs": "let s = samekey::revision_scheme(None, &c);",
        "bindings/uniffi/src/x.rs": "Ok(samekey::needs_write(stored.as_ref(), &incoming))",
        "bindings/node/lib/x.mjs": "if (ms >= 1e9 && ms < 1e10) warn(ms);",
        "extensions/postgres/src/x.rs": "KeyRing::from_accept(&schemes).or_raise()",
        "crates/samekey-wire/src/x.rs": "let key = text.parse::<Key>()?;",
        "bindings/go/x.go": "if ms >= 1_000_000_000 { warn() }",
    }
    missed = [p for p, text in planted.items() if not (SCANNED.match(p) and offending(p, text))]
    clean = "let ring = samekey::host::ring(&names)?; // not KeyRing::from_accept( here"
    if offending("bindings/python/src/y.rs", clean):
        missed.append("a comment was read as code")
    tests = ["bindings/go/vectors_test.go", "bindings/node/test/a.js", "bindings/kotlin/src/test/kotlin/A.kt"]
    if any(SCANNED.match(t) for t in tests):
        missed.append("tests were scanned")
    for m in missed:
        print(f"check_host_rules self-test: missed {m}", file=sys.stderr)
    print(f"check_host_rules self-test: {len(planted) - len(missed)} of {len(planted)} planted copies found")
    return 1 if missed else 0


def main() -> int:
    if "--self-test" in sys.argv[1:]:
        return self_test()
    files = tracked()
    found = [f for p in files for f in offending(p, (ROOT / p).read_text(encoding="utf-8"))]
    for f in found:
        print(f, file=sys.stderr)
    if found:
        print(f"{len(found)} host rule(s) written outside samekey::host", file=sys.stderr)
        return 1
    print(f"host rules: {len(files)} host files call samekey::host, none copies a rule")
    return 0


if __name__ == "__main__":
    sys.exit(main())
