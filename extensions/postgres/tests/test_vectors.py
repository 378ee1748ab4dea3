"""Every shared vector through SQL (SAMEKEY_VECTORS overrides the file), errors included,
with the SQLSTATE the README's table gives each code."""

from __future__ import annotations

import pathlib
import re
from typing import Any, Dict, List, Optional

import psycopg
import pytest

from sqlvectors import Outcome, run_vector

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def readme_sqlstates() -> Dict[str, str]:
    rows = re.findall(r"^\| `([a-z_]+)` \| `([0-9A-Z]{5})` \|", README.read_text(), re.M)
    return dict(rows)


@pytest.fixture(scope="module")
def outcomes(database_url: str, vectors: List[Dict[str, Any]]) -> List[Optional[Outcome]]:
    """Every vector run once through SQL, for both tests (None: no SQL form)."""
    with psycopg.connect(database_url, autocommit=True) as con:
        con.execute("SET timezone = 'UTC'")
        return [run_vector(con, v) for v in vectors]


def test_every_vector_passes(outcomes: List[Optional[Outcome]], vectors: List[Dict[str, Any]]) -> None:
    ran = [o for o in outcomes if o is not None]
    failed = [f"{o.id}: expected {o.expected}, got {o.actual}" for o in ran if not o.passed]
    assert ran, "the vector file holds no vector SQL can run"
    assert not failed, f"{len(failed)} of {len(ran)} failed:\n" + "\n".join(failed)
    not_run = [v for v, o in zip(vectors, outcomes) if o is None]  # U+0000 in a text input
    print(f"{len(ran)} vectors ran through SQL; {len(not_run)} hold U+0000 in text: "
          + ", ".join(v["id"] for v in not_run))


def test_every_ulid_vector_from_milliseconds(database_url: str, vectors: List[Dict[str, Any]]) -> None:
    """samekey_ulid_ms gives every ulid vector's id (or error) from a bigint of
    milliseconds."""
    ulids = [v for v in vectors if v["op"] == "ulid"]
    assert ulids, "the vector file holds no ulid vector"
    with psycopg.connect(database_url, autocommit=True) as con:
        con.execute("SET client_min_messages = error")  # the seconds warning, tested in pg_regress
        outcomes = [run_vector(con, v, ms_form=True) for v in ulids]
    ran = [o for o in outcomes if o is not None]
    failed = [f"{o.id}: expected {o.expected}, got {o.actual}" for o in ran if not o.passed]
    assert ran and not failed, f"{len(failed)} of {len(ran)} failed:\n" + "\n".join(failed)
    print(f"{len(ran)} ulid vectors ran through samekey_ulid_ms")


def test_errors_carry_the_documented_sqlstate(outcomes: List[Optional[Outcome]]) -> None:
    table = readme_sqlstates()
    assert len(table) >= 20, "the README's SQLSTATE table did not parse"
    raised = [o for o in outcomes if o and o.sqlstate]
    assert raised, "no vector raised an error in SQL"
    wrong = [f"{o.id}: {o.actual['error']} raised {o.sqlstate}, README says "
             f"{table.get(o.actual['error'])}" for o in raised
             if table.get(o.actual["error"]) != o.sqlstate]
    assert not wrong, "\n".join(wrong)
