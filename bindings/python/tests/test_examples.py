"""The README's example runs and does what the README says."""

from __future__ import annotations

import pathlib
import sqlite3
import subprocess
import sys

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "upsert_sqlite.py"


def _table(db: pathlib.Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as c:
        return c.execute("SELECT * FROM posts ORDER BY id").fetchall()


def test_upsert_example_is_idempotent_across_runs(tmp_path: pathlib.Path) -> None:
    db = tmp_path / "posts.db"
    first = subprocess.check_output([sys.executable, str(EXAMPLE), str(db)], text=True).split("\n")
    assert first[:5] == ["written", "unchanged", "written",
                         "refused: the edit changes the document's identity", "rows: 1"]
    after_first = _table(db)
    # The whole pipeline retried over the same database: still one row, same content.
    subprocess.check_output([sys.executable, str(EXAMPLE), str(db)], text=True)
    assert _table(db) == after_first
    assert after_first[0][4] == "Hello"
