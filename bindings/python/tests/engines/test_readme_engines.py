"""The README's examples with pyarrow, Polars, DuckDB and Spark, run as written."""

from __future__ import annotations

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from readme import fences, needs_engines, run_doctest  # noqa: E402

ENGINE_BLOCKS = [(line, block) for line, block in fences("pycon") if needs_engines(block)]


def test_the_readme_shows_the_engines() -> None:
    assert ENGINE_BLOCKS, "no ```pycon block of README.md imports a data engine"


@pytest.mark.parametrize(("line", "block"), ENGINE_BLOCKS,
                         ids=[f"README.md:{line}" for line, _ in ENGINE_BLOCKS])
def test_readme_engine_example(line: int, block: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Spark's Python workers run `python3` from PATH: the venv's own, as for a reader who
    # activated the venv the README's pip install went into.
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    run_doctest(line, block)
