"""Shared fixtures of the engine tests: the vector file (SAMEKEY_VECTORS overrides it)
and the ulid vectors it holds."""

from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Dict, List

import pytest

REPO = pathlib.Path(__file__).resolve().parents[4]


@pytest.fixture(scope="session")
def vectors() -> List[Dict[str, Any]]:
    path = pathlib.Path(os.environ.get("SAMEKEY_VECTORS", REPO / "test-vectors" / "samekey.json"))
    doc: Dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return list(doc["vectors"])


@pytest.fixture(scope="session")
def ulid_vectors(vectors: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    found = [v for v in vectors if v["op"] == "ulid"]
    assert found, "the vector file holds no ulid vectors"
    return found


_skipped: List[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """An engine test that did not run is a failure here, not a pass."""
    if _skipped:
        print(f"\nskipped, which this suite does not allow: {_skipped}")
        session.exitstatus = 1
