"""The README's examples run and show what they print (the data engines' blocks run in
tests/engines/test_readme_engines.py)."""

from __future__ import annotations

import pytest

from readme import ROOT, fences, needs_engines, run_doctest

CORE = [(line, block) for line, block in fences("pycon") if not needs_engines(block)]


@pytest.mark.parametrize(("line", "block"), CORE, ids=[f"README.md:{line}" for line, _ in CORE])
def test_readme_example(line: int, block: str) -> None:
    run_doctest(line, block)


def test_python_blocks_are_excerpts_of_the_examples_the_tests_run() -> None:
    examples = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.py"))]
    blocks = fences("python")
    assert blocks, "the README shows no example file"
    for line, block in blocks:
        assert any(block in example for example in examples), (
            f"README.md:{line}: this ```python block is not a part of any examples/*.py file; "
            "copy the example's code, or make it a ```pycon doctest")


def test_the_readme_has_doctests() -> None:
    assert CORE, "no ```pycon block in README.md"
