"""Every shared vector through the public API (SAMEKEY_VECTORS overrides the file)."""

from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Optional

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


def _first_fault(value: Any, depth: int = 0) -> Optional[str]:
    """The §6.2 code of the first fault a Python value holds, in the order samekey
    converts it (arrays in order, objects key then value), or None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return "number_out_of_range" if abs(value) > 2**53 - 1 else None
    if isinstance(value, float):
        return None if math.isfinite(value) else "number_out_of_range"
    if isinstance(value, str):
        return "invalid_string" if _has_surrogate(value) else None
    if depth >= 128:
        return "nesting_too_deep"
    items = value.items() if isinstance(value, dict) else ((None, x) for x in value)
    for k, x in items:
        fault = (k is not None and _first_fault(k)) or _first_fault(x, depth + 1)
        if fault:
            return fault
    return None


def test_content_json_through_python_values(vectors: List[Dict[str, Any]]) -> None:
    """Each content_json case as the Python value json.loads makes of it. Which cases this
    path takes follows from spec §6.2 and §10.1: a text json.loads refuses has no value; one
    it reads into other data (a duplicate member kept once) has no outcome here; every
    other case fails with the scheme name's conversion, then the first fault of the value's
    (both before the scheme's checks), or else has the text's outcome. A number json.loads
    reads as an infinity (1e400) is such a fault, number_out_of_range, as the text's is.
    Python's ints are exact, so the integer rule holds."""
    checked = skipped = 0
    cases = [v for v in vectors if v["op"] == "content_json"]
    for v in cases:
        expect = v["expect"]
        text, scheme = _vectors._text(v["json"]), _vectors._text(v["scheme"])
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            assert "error" in expect, v["id"]  # text-level faults have no Python value
            skipped += 1
            continue
        fault = _first_fault(value)
        if not fault and _lost_by_json_loads(text):
            skipped += 1  # duplicate keys: json.loads keeps the last, the value is other data
            continue
        scheme_fault = "invalid_string" if _has_surrogate(scheme) else None
        if scheme_fault or fault or "error" in expect:
            want = scheme_fault or fault or expect["error"]
            with pytest.raises(samekey.SamekeyError) as err:
                samekey.content_hash_json(value, scheme=scheme)
            assert err.value.code == want, v["id"]
        else:
            assert samekey.canonical_json(value) == expect["canonical"], v["id"]
            assert samekey.content_hash_json(value, scheme=scheme) == expect["hash"], v["id"]
        checked += 1
    # Every case was either run or has no Python value; any file with a value runs some.
    assert checked + skipped == len(cases)
    assert checked or not any("error" not in v["expect"] for v in cases)


def test_a_failing_vector_fails_alone() -> None:
    doc = json.dumps({"schema": "samekey-test-vectors/1", "vectors": [
        {"id": "raises", "op": "ulid", "scheme": "v1", "namespace": "", "timestamp_ms": 0,
         "fields": 7, "expect": {}},
        {"id": "unknown-op", "op": "frobnicate", "expect": {}},
        {"id": "fine", "op": "content", "scheme": "v1", "data_hex": "",
         "expect": {"hash": samekey.content_hash(b"")}},
    ]})
    outcomes = _vectors.run_document(doc)
    assert [(o.id, o.passed) for o in outcomes] == [
        ("raises", False), ("unknown-op", False), ("fine", True)]
    assert "exception" in outcomes[0].actual


def test_selftest_runs_the_embedded_subset() -> None:
    assert samekey.selftest() >= 10
