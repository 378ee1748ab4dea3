"""The engine modules need their engine only when called: samekey itself depends on no
data engine (pyarrow, Polars, DuckDB and Spark are extras)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import samekey


def _without(modules: str, code: str) -> subprocess.CompletedProcess[str]:
    """Runs ``code`` in a fresh interpreter where importing ``modules`` fails."""
    script = textwrap.dedent(f"""
        import sys
        for name in {modules.split()!r}:
            sys.modules[name] = None
    """) + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)


@pytest.mark.parametrize("module,extra,call", [
    ("arrow", "arrow", "m.derive_ulids(None, None)"),
    ("polars", "polars", "m.ulid('t', 's')"),
    ("duckdb", "duckdb", "m.register(None, fields=1)"),
    ("spark", "spark", "m.ulid('t', 's')"),
])
def test_an_engine_module_imports_without_its_engine(module: str, extra: str, call: str) -> None:
    run = _without("pyarrow polars duckdb pyspark", f"""
        import importlib
        m = importlib.import_module("samekey.{module}")
        try:
            {call}
        except ImportError as e:
            print("ImportError:", e)
    """)
    assert run.returncode == 0, run.stderr
    assert f"pip install 'samekey[{extra}]'" in run.stdout


def test_a_non_arrow_object_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="Arrow array or stream"):
        samekey.UlidDeriver().derive_arrow([1, 2], ["a", "b"])
    with pytest.raises(ValueError, match="nulls must be"):
        samekey.UlidDeriver().derive_arrow([1], ["a"], nulls="drop")  # type: ignore[arg-type]
