#!/usr/bin/env python3
"""Holds every README to the site's rule: no code that nothing runs, unless it says why.

Each fenced code block of a tracked README.md carries, in the HTML comments just above
it (invisible where the README is rendered), one of:

    <!-- run: LANGUAGE -->        this script runs it (python, node, wasm, go, sh, kotlin, java) against
                                  the packages the repository builds; if the next block is
                                  preceded by <!-- output -->, the program must print it
    <!-- tested: PATH -->         the test at PATH (a file of the repository) runs it
    <!-- not run: REASON -->      shown, not run, and why (an install from a registry
                                  this machine cannot reach, a recipe list, ...)

A block without one fails, as does a `tested:` path that does not exist or never names a
README (a test that runs a README's code reads it from there). It prints how
many blocks run, are tested elsewhere, and are not run.

    docs/scripts/test_readmes.py [README...]     (default: every tracked README.md)
"""
from __future__ import annotations

import pathlib
import re
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import runners  # noqa: E402

FENCE = re.compile(r"^(\s*)(```+)([\w+-]*)[^\n]*\n(.*?)^\1\2\s*$", re.S | re.M)
MARK = re.compile(r"<!--\s*(run|tested|not run|output)\s*(?::\s*(.*?))?\s*-->")


def blocks(readme: pathlib.Path) -> list[tuple[int, str, str, list[tuple[str, str]]]]:
    """(line, language, code, marks) of each fenced block; marks are the comments
    directly above it, nearest last."""
    text = readme.read_text()
    out = []
    for m in FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").split("\n")
        marks = []
        while before and before[-1].strip().startswith("<!--"):
            marks[:0] = MARK.findall(before.pop())
        out.append((text.count("\n", 0, m.start()) + 1, m.group(3), m.group(4), marks))
    return out


def main(argv: list[str]) -> int:
    readmes = [REPO / a for a in argv] or [
        REPO / p for p in subprocess.run(["git", "ls-files", "*README.md"], cwd=REPO, check=True,
                                         capture_output=True, text=True).stdout.split()]
    counts = {"run": 0, "tested": 0, "not run": 0}
    faults = []
    to_run: dict[str, dict[str, tuple[str, str, str | None]]] = {}  # language -> name -> (where, code, output)
    for readme in readmes:
        found = blocks(readme)
        for i, (line, _, code, marks) in enumerate(found):
            where = f"{readme.relative_to(REPO)}:{line}"
            if any(k == "output" for k, _ in marks):
                continue  # the output of the block before it, checked with it
            kinds = [(k, v) for k, v in marks if k != "output"]
            if len(kinds) != 1:
                faults.append(f"{where}: a code block needs one <!-- run: / tested: / not run: --> comment above it")
                continue
            kind, value = kinds[0]
            counts[kind] += 1
            if kind == "tested" and not (REPO / value).is_file():
                faults.append(f"{where}: tested by {value!r}, which is not a file of the repository")
            elif kind == "tested" and "README" not in (REPO / value).read_text():
                # A test that runs a README's code reads it from the README.
                faults.append(f"{where}: tested by {value!r}, which never names a README")
            elif kind == "not run" and not value:
                faults.append(f"{where}: <!-- not run: --> needs a reason")
            elif kind == "run":
                following = found[i + 1] if i + 1 < len(found) else None
                output = following[2] if following and any(k == "output" for k, _ in following[3]) else None
                # Kotlin names a file's class after it (Readme3Kt); the others take any name.
                to_run.setdefault(value, {})[f"Readme{sum(map(len, to_run.values()))}"] = (where, code, output)
    for language, programs in to_run.items():
        try:
            printed = runners.run_all(language, {name: (code, {}) for name, (_, code, _) in programs.items()})
        except (runners.Missing, RuntimeError) as e:
            faults.append(f"{language} blocks ({', '.join(w for w, _, _ in programs.values())}): {e}")
            continue
        for name, (where, _, output) in programs.items():
            if output is not None and printed[name].strip() != output.strip():
                faults.append(f"{where}: printed\n{printed[name]}\nbut the README shows\n{output}")
                continue
            print(f"test_readmes: {where} ({language}) runs" + ("" if output is None else ", printing what the README shows"))
    for fault in faults:
        print(f"test_readmes: {fault}")
    total = sum(counts.values())
    print(f"test_readmes: {total} code blocks in {len(readmes)} READMEs: {counts['run']} run here, "
          f"{counts['tested']} run by other tests, {counts['not run']} not run (each says why)"
          + (f"; {len(faults)} fault(s)" if faults else ""))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
