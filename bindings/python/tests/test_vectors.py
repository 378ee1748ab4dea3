"""Every shared vector through the public API (SAMEKEY_VECTORS overrides the file)."""

from __future__ import annotations

import json
import math
from typing import Any, Dict, List

import pytest

import samekey
from samekey import _vectors


def test_every_vector_passes(vector_text: str) -> None:
    outcomes = _vectors.run_document(vector_text)
    failed = [f"{o.id}: expected {o.expected}, got {o.actual}" for o in outcomes if not o.passed]
    assert outcomes, "the vector file holds no vectors"
    assert not failed, f"{len(failed)} of {len(outcomes)} failed:\n" + "\n".join(failed)


def _lost_by_json_loads(text: str) -> bool:
    """Faults that Python's json module removes before samekey sees the value."""
    pairs: List[Any] = []

    def hook(items: List[Any]) -> Dict[str, Any]:
        pairs.append(len(items) != len({k for k, _ in items}))
        return dict(items)

    json.loads(text, object_pairs_hook=hook)
    return any(pairs)


def _has_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, list):
        return any(_has_surrogate(x) for x in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(x) for k, x in value.items())
    return False


def _as_value_fault(value: Any, text_code: str) -> str:
    """The code the same fault has once json.loads made it a Python value (spec §6.2):
    a NaN/Infinity token becomes a non-finite float, an escaped lone surrogate a str
    that is not valid Unicode."""
    if text_code != "invalid_json":
        return text_code
    if isinstance(value, float) and not math.isfinite(value):
        return "number_out_of_range"
    assert _has_surrogate(value), value
    return "invalid_string"


def test_content_json_through_python_values(vectors: List[Dict[str, Any]]) -> None:
    checked = 0
    for v in (v for v in vectors if v["op"] == "content_json"):
        expect = v["expect"]
        try:
            value = json.loads(v["json"])
        except (ValueError, RecursionError):
            assert "error" in expect, v["id"]  # text-level faults have no Python value
            continue
        if "error" in expect:
            if _lost_by_json_loads(v["json"]):
                continue  # duplicate keys: json.loads keeps the last, no fault remains
            with pytest.raises(samekey.SamekeyError) as err:
                samekey.content_hash_json(value, scheme=v["scheme"])
            assert err.value.code == _as_value_fault(value, expect["error"]), v["id"]
        else:
            assert samekey.canonical_json(value) == expect["canonical"], v["id"]
            assert samekey.content_hash_json(value, scheme=v["scheme"]) == expect["hash"], v["id"]
        checked += 1
    assert checked > 50


def test_selftest_runs_the_embedded_subset() -> None:
    assert samekey.selftest() >= 10
