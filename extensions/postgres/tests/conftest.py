"""The extension's tests run against a real server: SAMEKEY_TEST_POSTGRES names it
(`just test-postgres-extension` starts the project's PostgreSQL and installs the
extension there). Each session gets a fresh database with `CREATE EXTENSION samekey`."""

from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Dict, Iterator, List

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

ROOT = pathlib.Path(__file__).resolve().parents[3]
DATABASE = "samekey_extension_test"


def pytest_collection_modifyitems(items: List[Any]) -> None:
    for item in items:
        item.add_marker(pytest.mark.filterwarnings("error"))


def pytest_runtest_logreport(report: Any) -> None:
    # A skipped test would read as a pass in a summary nobody reads: fail instead.
    if report.skipped:
        raise RuntimeError(f"{report.nodeid} was skipped; every extension test must run")


def _url() -> str:
    url = os.environ.get("SAMEKEY_TEST_POSTGRES")
    if not url:
        raise RuntimeError("SAMEKEY_TEST_POSTGRES is not set: run `just test-postgres-extension`")
    return url


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    admin = _url()
    with psycopg.connect(admin, autocommit=True) as con:
        con.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        con.execute(f"CREATE DATABASE {DATABASE} ENCODING 'UTF8' TEMPLATE template0")
    url = make_conninfo(admin, dbname=DATABASE)
    with psycopg.connect(url, autocommit=True) as con:
        con.execute("CREATE EXTENSION samekey")
    yield url


@pytest.fixture()
def con(database_url: str) -> Iterator[psycopg.Connection]:
    """Autocommit, in UTC: a failing statement leaves the connection usable."""
    with psycopg.connect(database_url, autocommit=True) as c:
        c.execute("SET timezone = 'UTC'")
        yield c


@pytest.fixture(scope="session")
def vector_path() -> pathlib.Path:
    return pathlib.Path(os.environ.get("SAMEKEY_VECTORS") or ROOT / "test-vectors" / "samekey.json")


@pytest.fixture(scope="session")
def vectors(vector_path: pathlib.Path) -> List[Dict[str, Any]]:
    doc = json.loads(vector_path.read_text(encoding="utf-8"))
    assert doc.get("schema") == "samekey-test-vectors/1", doc.get("schema")
    return list(doc["vectors"])
