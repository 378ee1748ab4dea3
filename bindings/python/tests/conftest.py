from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Dict, List

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def vector_path() -> pathlib.Path:
    return pathlib.Path(os.environ.get("SAMEKEY_VECTORS", REPO / "test-vectors" / "samekey.json"))


@pytest.fixture(scope="session")
def vector_text() -> str:
    return vector_path().read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def vectors(vector_text: str) -> List[Dict[str, Any]]:
    doc: Dict[str, Any] = json.loads(vector_text)
    return list(doc["vectors"])
