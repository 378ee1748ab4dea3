"""Ulid values, derivation, and the batch API."""

from __future__ import annotations

import pickle
import uuid
from datetime import datetime, timedelta, timezone

import pytest

import samekey
from samekey import SamekeyError, Ulid

T = datetime(2024, 5, 1, 12, tzinfo=timezone.utc)
T_MS = 1714564800000


def test_same_input_same_id_and_every_time_form_agrees() -> None:
    by_dt = samekey.derive_ulid(["hello-world", "en"], time=T, namespace="posts")
    by_ms = samekey.derive_ulid(("hello-world", "en"), time=T_MS, namespace="posts")
    by_text = samekey.derive_ulid(iter(["hello-world", "en"]), time="2024-05-01T14:00:00+02:00", namespace="posts")
    assert by_dt == by_ms == by_text
    assert by_dt.timestamp_ms == T_MS
    assert by_dt.datetime == T
    other_tz = T.astimezone(timezone(timedelta(hours=-7)))
    assert samekey.derive_ulid(["hello-world", "en"], time=other_tz, namespace="posts") == by_dt


def test_ulid_value_behaviour() -> None:
    a = samekey.derive_ulid(["a"], time=1)
    b = samekey.derive_ulid(["a"], time=2)
    assert a < b and sorted([b, a]) == [a, b]
    assert len({a, Ulid(str(a)), Ulid(str(a).lower())}) == 1
    assert bytes(a) == a.uuid.bytes and isinstance(a.uuid, uuid.UUID)
    assert Ulid.from_bytes(bytes(a)) == a == Ulid.parse(str(a))
    assert repr(a) == f"Ulid('{a}')"
    assert pickle.loads(pickle.dumps(a)) == a
    assert a == str(a) and a != str(a).lower()  # its canonical text, as python-ulid


@pytest.mark.parametrize("text", ["8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "0" * 25, "0" * 25 + "U", ""])
def test_bad_ulid_text(text: str) -> None:
    with pytest.raises(SamekeyError) as e:
        Ulid(text)
    assert e.value.code == "invalid_ulid"
    with pytest.raises(SamekeyError):
        Ulid.from_bytes(b"short")


def test_sub_millisecond_precision_is_floored() -> None:
    t = datetime(2024, 5, 1, 12, 0, 0, 999999, tzinfo=timezone.utc)
    assert samekey.derive_ulid(["a"], time=t).timestamp_ms == T_MS + 999
    before = datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=timezone.utc)
    with pytest.raises(SamekeyError) as e:
        samekey.derive_ulid(["a"], time=before)
    assert e.value.code == "timestamp_out_of_range"


@pytest.mark.parametrize(
    ("time", "code"),
    [
        (datetime(2024, 5, 1, 12), "invalid_timestamp"),  # naive
        (1.0, "invalid_timestamp"),
        (1.5, "invalid_timestamp"),
        (True, "invalid_timestamp"),
        (-1, "timestamp_out_of_range"),
        (2**48, "timestamp_out_of_range"),
        (2**200, "timestamp_out_of_range"),
        ("2024-05-01T12:00:00", "invalid_timestamp"),
        ("1969-12-31T23:59:59Z", "timestamp_out_of_range"),
    ],
)
def test_time_conversions_never_guess(time: object, code: str) -> None:
    with pytest.raises(SamekeyError) as e:
        samekey.derive_ulid(["a"], time=time)  # type: ignore[arg-type]  # deliberately wrong
    assert e.value.code == code
    assert isinstance(e.value, ValueError)


def test_wrong_types_are_type_errors() -> None:
    with pytest.raises(TypeError):
        samekey.derive_ulid("slug", time=0)  # a str is not a list of fields
    with pytest.raises(TypeError):
        samekey.derive_ulid([1], time=0)  # type: ignore[list-item]  # deliberately wrong
    with pytest.raises(TypeError):
        samekey.derive_ulid(["a"], time=object())  # type: ignore[arg-type]  # deliberately wrong
    with pytest.raises(TypeError):
        samekey.derive_ulid(["a"], time=0, secret="not bytes")  # type: ignore[arg-type]  # deliberately wrong
    with pytest.raises(TypeError):
        samekey.derive_ulid(["a"], time=0, namespace=b"ns")  # type: ignore[arg-type]  # deliberately wrong


def test_lone_surrogates_are_invalid_string() -> None:
    for call in (
        lambda: samekey.derive_ulid(["\ud800"], time=0),
        lambda: samekey.derive_ulid(["a"], time=0, namespace="x\udc00"),
        lambda: samekey.canonical_json({"k": "\ud800"}),
        lambda: samekey.canonical_json({"\ud800": 1}),
        lambda: samekey.content_hash("\ud800"),
        lambda: samekey.revision_key(samekey.content_hash(b""), parent="\ud800"),
        # Parsed text too: the host conversion comes before the parser (spec §2.2).
        lambda: samekey.content_hash(b"x", scheme="v\ud800"),
        lambda: samekey.derive_ulid(["a"], time=0, scheme="v\ud800"),
        lambda: samekey.KeyRing("v1", ["v\ud800"]),
        lambda: samekey.Ulid.parse("\ud800" * 26),
        lambda: samekey.parse_key("sha256:\ud800"),
        lambda: samekey.needs_write(None, "sha256:\ud800"),
        lambda: samekey.revision_key("sha256:\ud800"),
        lambda: samekey.parse_rfc3339("\ud800"),
    ):
        with pytest.raises(SamekeyError) as e:
            call()
        assert e.value.code == "invalid_string"


def test_bytes_fields_and_keyed_schemes() -> None:
    assert samekey.derive_ulid([b"slug", "en"], time=0) == samekey.derive_ulid(["slug", "en"], time=0)
    keyed = samekey.derive_ulid(["a"], time=0, scheme="v2", secret=b"k")
    assert keyed != samekey.derive_ulid(["a"], time=0, scheme="v2")
    with pytest.raises(SamekeyError) as e:
        samekey.derive_ulid(["a"], time=0, secret=b"")
    assert e.value.code == "empty_secret"
    with pytest.raises(SamekeyError) as e:
        samekey.derive_ulid(["a"], time=0, scheme="v3")
    assert e.value.code == "unknown_scheme"


def test_batch_equals_one_by_one() -> None:
    times = [T_MS + i for i in range(500)]
    slugs = [f"post-{i}" for i in range(500)]
    langs = ["en", "de"] * 250
    d = samekey.UlidDeriver("v1", "posts")
    many = d.derive_many(times, slugs, langs)
    assert many == [samekey.derive_ulid([s, l], time=t, namespace="posts") for t, s, l in zip(times, slugs, langs)]
    assert d.derive_many(times, slugs, langs, as_str=True) == [str(u) for u in many]
    records = [{"slug": s, "lang": l, "at": t} for t, s, l in zip(times, slugs, langs)]
    assert d.derive_records(records, time="at", fields=["slug", "lang"]) == many
    with pytest.raises(TypeError):
        d.derive_many(times, slugs[:-1], langs)
    with pytest.raises(SamekeyError) as e:
        d.derive_many(times)
    assert e.value.code == "no_fields"
    with pytest.raises(KeyError):
        d.derive_records([{"slug": "a"}], time="at", fields=["slug"])


@pytest.mark.parametrize("scheme", ["v1", "v2"])
def test_threaded_batch_equals_one_by_one_in_order(scheme: str) -> None:
    n = samekey.PARALLEL_MIN_ROWS * 2 + 3
    times = [T_MS + i for i in range(n)]
    slugs = [f"post-{i}" for i in range(n)]
    d = samekey.UlidDeriver(scheme, "posts")
    want = [d.derive([s], time_ms=t) for t, s in zip(times, slugs)]
    assert d.derive_many(times, slugs) == want
    assert d.derive_many(times, slugs, threads=1) == want
    assert d.derive_many(times, slugs, threads=2, as_str=True) == [str(u) for u in want]
    with pytest.raises(ValueError, match="threads"):
        d.derive_many(times, slugs, threads=0)


def test_datetime_after_year_9999_is_a_coded_error() -> None:
    # A ULID's 48-bit time reaches the year 10889; Python's datetime ends with 9999.
    last = datetime(9999, 12, 31, 23, 59, 59, 999000, tzinfo=timezone.utc)
    last_ms = (last - datetime(1970, 1, 1, tzinfo=timezone.utc)) // timedelta(milliseconds=1)
    assert Ulid.from_bytes(last_ms.to_bytes(6, "big") + bytes(10)).datetime == last
    for ms in (last_ms + 1, 2**48 - 1):
        with pytest.raises(SamekeyError) as e:
            Ulid.from_bytes(ms.to_bytes(6, "big") + bytes(10)).datetime
        assert e.value.code == "timestamp_out_of_range"
