"""The mistakes new users make, caught instead of silently giving another key."""

from __future__ import annotations

import errno
import inspect
import json
import pickle
import warnings
from datetime import datetime, timezone
from pathlib import Path
from typing import List

import pytest

import samekey
from samekey import SamekeyError, SecondsWarning, Ulid, UlidDeriver

T = datetime(2024, 5, 1, 12, tzinfo=timezone.utc)


def test_seconds_for_milliseconds_warn_but_still_derive() -> None:
    with pytest.warns(SecondsWarning, match=r"1970-01-20.*time=1714564800000"):
        id_ = samekey.derive_ulid(["slug", "en"], time=1714564800)
    assert id_.timestamp_ms == 1714564800, "a valid time is never refused"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        samekey.derive_ulid(["slug", "en"], time=1714564800000)
        samekey.derive_ulid(["slug", "en"], time=T)


def test_time_ms_names_milliseconds_and_takes_exactly_one_time() -> None:
    d = UlidDeriver()
    ring = samekey.KeyRing("v1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # named as milliseconds: no seconds warning
        by_ms = samekey.derive_ulid(["slug"], time_ms=1714564800)
        assert by_ms == d.derive(["slug"], time_ms=1714564800) == ring.derive_ulid(["slug"], time_ms=1714564800)
        assert samekey.verify(by_ms, ["slug"], time_ms=1714564800) == "v1"
    assert by_ms.timestamp_ms == 1714564800
    assert samekey.derive_ulid(["slug"], time_ms=1714564800000) == samekey.derive_ulid(["slug"], time=T)
    for bad in ({"time": T, "time_ms": 1}, {}):
        with pytest.raises(TypeError):
            samekey.derive_ulid(["slug"], **bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        samekey.derive_ulid(["slug"], time_ms=True)
    with pytest.raises(TypeError):
        samekey.derive_ulid(["slug"], time_ms=T)  # type: ignore[arg-type]
    with pytest.raises(SamekeyError) as err:
        samekey.derive_ulid(["slug"], time_ms=1.5)  # type: ignore[arg-type]
    assert err.value.code == "invalid_timestamp"


def test_a_missing_file_is_file_not_found_and_a_samekey_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.bin"
    with pytest.raises(FileNotFoundError) as err:
        samekey.content_hash(missing)
    e = err.value
    assert isinstance(e, SamekeyError) and e.code == "io_error"
    assert e.errno == errno.ENOENT and e.filename == str(missing)
    assert str(missing) in str(e)
    again = pickle.loads(pickle.dumps(e))
    assert isinstance(again, FileNotFoundError) and again.filename == e.filename
    with pytest.raises(IsADirectoryError) as dir_err:
        samekey.content_hash(tmp_path)
    assert dir_err.value.code == "io_error"  # type: ignore[attr-defined]


def test_ulid_equals_its_canonical_text_converts_to_int_and_dumps_as_json() -> None:
    id_ = samekey.derive_ulid(["slug", "en"], time=T)
    text = str(id_)
    assert id_ == text and text == id_ and hash(id_) == hash(text)
    assert id_ != text.lower(), "only the canonical text is the id's text"
    assert {text: 1}[id_] == 1  # type: ignore[index]  # an id finds its text's entry
    assert id_ != 5 and id_ != bytes(id_)
    assert int(id_) == int.from_bytes(bytes(id_), "big") == id_.uuid.int
    with pytest.raises(TypeError):
        id_ < text  # type: ignore[operator]  # ordering needs two ids
    assert json.dumps({"_id": id_}, default=samekey.json_default) == json.dumps({"_id": text})
    with pytest.raises(TypeError):
        json.dumps({"x": object()}, default=samekey.json_default)


def test_derive_many_as_str_is_typed_as_strings() -> None:
    d = UlidDeriver(namespace="posts")
    texts: List[str] = d.derive_many([T], ["slug"], as_str=True)  # mypy checks this line
    ids: List[Ulid] = d.derive_many([T], ["slug"])
    assert texts == [str(ids[0])]


def test_ulid_deriver_repr_shows_settings_not_the_secret() -> None:
    assert repr(UlidDeriver(namespace="posts", scheme="v2")) == "UlidDeriver(scheme='v2', namespace='posts')"
    keyed = repr(UlidDeriver(secret=b"hunter2"))
    assert "hunter2" not in keyed and "secret=<hidden>" in keyed


def _public_members() -> List[str]:
    missing = []
    for name in samekey.__all__:
        obj = getattr(samekey, name)
        if not (inspect.isclass(obj) or callable(obj)):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for attr, member in vars(obj).items():
                if attr.startswith("_") or not (callable(member) or isinstance(member, (property, staticmethod))
                                                or type(member).__name__ == "getset_descriptor"):
                    continue
                if not (getattr(member, "__doc__", None) or "").strip():
                    missing.append(f"{name}.{attr}")
    return missing


def test_every_public_member_has_a_docstring() -> None:
    assert _public_members() == []
