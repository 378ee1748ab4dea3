"""The README's examples, run as written: every ```pycon block is a doctest of its own
(its imports and inputs inside it, so a reader can paste it whole), and every ```python
block is an excerpt of a file in examples/, which the tests run."""

from __future__ import annotations

import doctest
import pathlib
import re
from typing import List, Tuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# A block importing one of these runs in the engines' virtualenv (just test-engines).
ENGINES = ("pyarrow", "polars", "duckdb", "pyspark")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def fences(language: str) -> List[Tuple[int, str]]:
    """(line, text) of each fenced block of `language`, in order."""
    text = README.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(2))
            for m in FENCE.finditer(text) if m.group(1) == language]


def needs_engines(block: str) -> bool:
    return any(re.search(rf"^>>> (import|from) {e}\b", block, re.MULTILINE) for e in ENGINES)


def run_doctest(line: int, block: str) -> None:
    """Runs one block; a failure shows what the README says and what the code printed."""
    test = doctest.DocTestParser().get_doctest(block, {}, f"README.md:{line}", str(README), line - 1)
    report: List[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    result = runner.run(test, out=report.append)
    assert result.attempted > 0, f"README.md:{line}: a pycon block with no example"
    assert result.failed == 0, "".join(report)
